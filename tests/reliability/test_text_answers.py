"""Every line on ``serve --stdin`` is answered exactly once, whatever JSON it carries, and no
text with a control character or a lone surrogate gets in (issue 26, items 4 and 7): a real
``serve --stdin`` child fed the reproducers, and ``history`` of an old journal that already
holds such names.

Before: a blank or ``#`` line was not answered (a pipelining client fell out of step); a name
``"\\ud800"`` was taken by the engine and ended in "journal write failed" and a journal
reload; names with NUL and ``ESC[2J`` were journaled and ``history`` printed them raw."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

from table_app.core.service import TableService
from table_app.journal.journal import Journal
from table_app.web.server import SeatPages
from tests.reliability.helpers import ROOT, SESSION, child_env, serve
from tests.table_app.web.test_phones import Phone, table, token_of  # noqa: F401  (the fixture)

# (a line as sent, what its answer must say): "ok" True / False, and a word of its error
LINES: list[tuple[str, bool, str]] = [
    ("", True, ""),  # blank: answered, nothing changed
    ("# a comment", True, ""),
    ("   ", True, ""),
    (json.dumps({**SESSION, "players": ["\ud800", "Bo", "Cy", "Di"]}), False, "lone surrogate"),
    (json.dumps({**SESSION, "players": ["\x1b[2J", "b\x00", "Cy", "Di"]}), False, "control character"),
    (json.dumps({"type": "pass", "seat": 1, "\ud800": 1}), False, "lone surrogate"),
    (json.dumps({"type": "state", "x": {"y": [1, "\x9b2J"]}}), False, "control character"),  # (C1 CSI)
    (json.dumps({"type": "undo", "to": "\udfff"}), False, "lone surrogate"),
    ('{"type": "pass", "seat": 1, "x": "\\ud800"}', False, "lone surrogate"),
    (json.dumps({**SESSION, "players": ["a\u202eb", "Bo", "Cy", "Di"]}), False, "printable"),  # (a bidi override)
    (json.dumps(SESSION), True, ""),
    (json.dumps({"type": "name", "seat": 0, "name": "\x07Ann"}), False, "control character"),
    (json.dumps({"type": "name", "seat": 0, "name": "A\u2028nn"}), False, "printable"),
    ("#", True, ""),
    (json.dumps({"type": "state"}), True, ""),
]


def _run(tmp_path: Path, data: bytes) -> tuple[list[dict[str, Any]], str]:
    proc = serve(tmp_path, "--stdin", "--db", str(tmp_path / "t.sqlite3"), input=data)
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line) for line in proc.stdout.decode().splitlines()], proc.stderr.decode()


def test_every_line_gets_exactly_one_answer_and_no_bad_text_gets_in(tmp_path: Path) -> None:
    data = b"".join(line.encode("utf-8", "surrogatepass") + b"\n" for line, _, _ in LINES)
    answers, stderr = _run(tmp_path, data)
    got = [(a["ok"], a.get("error", "")) for a in answers]
    print("answers:", got)
    assert len(answers) == len(LINES), got  # one answer a line: a pipelining client stays in step
    for (line, ok, word), answer in zip(LINES, answers, strict=True):
        assert answer["ok"] is ok and word in answer.get("error", ""), (line, answer)
    assert "journal write failed" not in stderr and "Traceback" not in stderr, stderr
    assert answers[-1]["seq"] == 1 and answers[-1]["state"]["players"] == SESSION["players"]


def test_an_answer_quoting_a_lone_surrogate_is_still_written() -> None:
    """The answer encoder never fails on anything JSON can carry: a refusal quoting a lone
    surrogate is written (as its JSON escape), readable text stays readable."""
    from table_app.system.bounded import json_line

    line = json_line({"ok": False, "error": "got '\ud800' and '\udfff' for 阿强", "x": ["\x1b"]})
    line.encode("utf-8")  # (strict: no surrogate left)
    assert json.loads(line) == {"ok": False, "error": "got '\ud800' and '\udfff' for 阿强", "x": ["\x1b"]}
    assert "阿强" in line and "\\u001b" in line


def test_history_and_export_of_an_old_journal_print_no_control_character_raw(tmp_path: Path) -> None:
    db = tmp_path / "old.sqlite3"
    with Journal.open(db) as journal:  # (as the code before issue 26 took them)
        journal.append_event({**SESSION, "players": ["\x1b[2J", "b\x00", "\x9b31m", "Di"]}, None, new_session=True)
    for verb in (["history"], ["export", "--format", "csv"], ["export", "--format", "json"]):
        proc = subprocess.run([sys.executable, "-m", "table_app.cli", *verb, "--db", str(db)], capture_output=True,
                              cwd=ROOT, env=child_env(tmp_path), timeout=60)
        assert proc.returncode == 0, proc.stderr
        out = proc.stdout.decode()
        print(verb, repr(out[:200]))
        assert not any(c in out for c in "\x1b\x00\x9b"), (verb, out)
        if verb[0] == "history":
            assert "\\x1b[2J" in out and "b\\x00" in out
    # the service reads the old journal as it was written (a rule for new events, not a replay)
    answers, _ = _run_db(tmp_path, db, json.dumps({"type": "state"}).encode() + b"\n")
    assert answers[0]["state"]["players"] == ["\x1b[2J", "b\x00", "\x9b31m", "Di"]


def _run_db(tmp_path: Path, db: Path, data: bytes) -> tuple[list[dict[str, Any]], str]:
    proc = serve(tmp_path, "--stdin", "--db", str(db), input=data)
    assert proc.returncode == 0, proc.stderr
    return [json.loads(line) for line in proc.stdout.decode().splitlines()], proc.stderr.decode()


RAW_BODIES = [  # (path under the phone's seat, a raw JSON body): each must be refused, clearly
    ("press", b'{"type": "pass", "x": "\\ud800"}'),
    ("press", b'{"type": "pass", "\\udfff": 1}'),
    ("press", b'{"type": "press", "button": "TURN\\u001b[2J"}'),
    ("press", b'{"type": "kong", "kind": "\\u0000"}'),
    ("press", b'{"type": "pass", "tap": "\\ud800\\ud800\\ud800\\ud800"}'),
    ("table", b'{"type": "confirm_win", "wait": "\\u009b"}'),
]


def test_http_bodies_and_names_with_control_characters_or_surrogates_are_refused_clearly(
        table: tuple[TableService, SeatPages]) -> None:  # noqa: F811
    service, pages = table
    token = token_of(pages)
    seq = service.seq
    phone = Phone(pages)
    for name in ("\ud800", "A\x1b[2J", "b\x00", "\x9b31m", "a\u202eb"):
        raw = json.dumps({"seat": 1, "name": name}).encode()  # (ASCII: the surrogate as its \\ud800 escape)
        status, answer, _ = phone.request("POST", f"/join/{token}", raw=raw)
        print("join", repr(name), status, answer)
        assert status == 400 and answer["code"] == "invalid.name" and answer["zh"] and answer["en"], answer
    assert phone.join(token, 1)[1]["ok"]
    for where, raw in RAW_BODIES:
        status, answer, _ = phone.request("POST", f"/phone/1/{where}", raw=raw)
        print(where, raw, status, answer)
        assert status == 400 and answer["code"] == "invalid.text", (raw, answer)
        assert "control character" in answer["en"] or "surrogate" in answer["en"], answer
    assert service.seq == seq and service.public["players"] == ["A", "B", "C", "D"]
