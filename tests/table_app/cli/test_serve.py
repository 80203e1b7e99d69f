"""``xian-table serve`` through the real entry point: JSONL in, one JSON answer per line out,
the journal where the config says, refusals for bad config and damaged journals, no Kivy."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from engine import replay
from engine.public import public_state
from table_app.bench.service import scripted_session
from table_app.journal.journal import Journal
from table_app.present.refusals import refusal

ROOT = Path(__file__).resolve().parents[3]
START = scripted_session(1, seed=3)[:5]
JOURNALED = [{**START[0], "player_ids": [1, 2, 3, 4]}, *START[1:]]  # (serve's roster gives the four names ids)


def _serve(tmp_path: Path, *args: str, input: str = "", env: dict[str, str] | None = None,
           pythonpath: str | None = None) -> subprocess.CompletedProcess[str]:
    full_env = dict(os.environ, PYTHONUTF8="1", HOME=str(tmp_path / "home"))
    full_env.pop("XDG_DATA_HOME", None)
    full_env.pop("XDG_CONFIG_HOME", None)
    full_env.update(env or {})
    if pythonpath:
        full_env["PYTHONPATH"] = pythonpath + os.pathsep + str(ROOT)
    return subprocess.run([sys.executable, "-m", "table_app.cli", "serve", *args], input=input, text=True,
                          capture_output=True, cwd=tmp_path, env=full_env, timeout=120)


def _lines(*cmds: Any) -> str:
    return "".join((c if isinstance(c, str) else json.dumps(c)) + "\n" for c in cmds)


def _answers(out: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.splitlines()]


def test_one_answer_per_command_with_undo_and_redo(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite3"
    proc = _serve(tmp_path, "--stdin", "--db", str(db), input=_lines(
        *START, "", "# a comment", {"type": "discard", "seat": 3}, "{not json", {"type": "undo"},
        {"type": "redo"}, {"type": "undo", "to": 2}, {"type": "state"},
    ))
    assert proc.returncode == 0, proc.stderr
    answers = _answers(proc.stdout)
    assert len(answers) == 5 + 8  # one answer a line, the blank and the comment too (nothing changed)
    assert answers[5:7] == [{"ok": True, "skipped": "blank"}, {"ok": True, "skipped": "comment"}]
    del answers[5:7]
    assert [a["seq"] for a in answers[:5]] == [1, 2, 3, 4, 5]
    assert answers[4]["state"] == public_state(replay(JOURNALED))
    assert answers[5]["ok"] is False and "turn" in answers[5]["error"]
    assert answers[6]["ok"] is False and "line 9: not JSON" in answers[6]["error"]
    assert answers[7] == {"ok": True, "seq": 6, "state": public_state(replay(JOURNALED[:4]))}
    assert answers[8] == {"ok": True, "seq": 7, "state": public_state(replay(JOURNALED))}
    assert answers[9] == {"ok": True, "seq": 8, "state": public_state(replay(JOURNALED[:2]))}
    assert answers[10] == {"ok": True, "seq": 8, "state": public_state(replay(JOURNALED[:2]))}
    # a second run continues the same table from the journal
    again = _serve(tmp_path, "--stdin", "--db", str(db), input=_lines({"type": "redo"}))
    assert _answers(again.stdout) == [{"ok": True, "seq": 9, "state": public_state(replay(JOURNALED[:3]))}]


def test_the_journal_goes_to_the_user_data_dir_by_default(tmp_path: Path) -> None:
    proc = _serve(tmp_path, "--stdin", input=_lines(START[0]))
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "home/.local/share/xian-table/journal.sqlite3").is_file()
    xdg = tmp_path / "xdg-data"
    proc = _serve(tmp_path, "--stdin", input=_lines(START[0]), env={"XDG_DATA_HOME": str(xdg)})
    assert proc.returncode == 0, proc.stderr
    assert (xdg / "xian-table/journal.sqlite3").is_file()


def test_the_user_config_is_found_and_names_the_journal(tmp_path: Path) -> None:
    conf = tmp_path / "home/.config/xian-table/config.toml"
    conf.parent.mkdir(parents=True)
    conf.write_text(f'[journal]\npath = "{tmp_path}/from-config.sqlite3"\n')
    proc = _serve(tmp_path, "--stdin", input=_lines(START[0]))
    assert proc.returncode == 0, proc.stderr
    assert (tmp_path / "from-config.sqlite3").is_file()


def test_a_bad_config_is_refused_naming_the_key(tmp_path: Path) -> None:
    conf = tmp_path / "c.toml"
    conf.write_text("[table]\nclaim_window_s = -2\n")
    proc = _serve(tmp_path, "--stdin", "--config", str(conf), "--db", str(tmp_path / "t.sqlite3"),
                  input=_lines(START[0]))
    assert proc.returncode == 2
    assert "'table.claim_window_s'" in proc.stderr and str(conf) in proc.stderr
    assert proc.stdout == ""
    assert not (tmp_path / "t.sqlite3").exists()


def test_a_damaged_journal_is_refused_and_kept(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite3"
    assert _serve(tmp_path, "--stdin", "--db", str(db), input=_lines(*START)).returncode == 0
    data = bytearray(db.read_bytes())
    data[100:4096] = b"\x00\xff" * ((4096 - 100) // 2)  # the schema page
    db.write_bytes(bytes(data))
    before = hashlib.sha256(db.read_bytes()).hexdigest()
    proc = _serve(tmp_path, "--stdin", "--db", str(db), input=_lines(START[0]))
    assert proc.returncode == 4
    assert "damaged" in proc.stderr and "kept" in proc.stderr and str(db) in proc.stderr
    assert proc.stdout == ""
    assert hashlib.sha256(db.read_bytes()).hexdigest() == before


def test_serve_never_imports_kivy(tmp_path: Path) -> None:
    poison = tmp_path / "poison/kivy"
    poison.mkdir(parents=True)
    (poison / "__init__.py").write_text("raise ImportError('serve must not import kivy')\n")
    proc = _serve(tmp_path, "--stdin", "--db", str(tmp_path / "t.sqlite3"), input=_lines(*START),
                  pythonpath=str(tmp_path / "poison"))
    assert proc.returncode == 0, proc.stderr
    assert len(_answers(proc.stdout)) == 5
    probe = subprocess.run(
        [sys.executable, "-c", "import sys, table_app.cli, table_app.cli.serve, table_app.core.service,"
         " table_app.journal.journal, table_app.config.file; table_app.cli.build_parser();"
         " print(any(m.split('.')[0] == 'kivy' for m in sys.modules))"],
        capture_output=True, text=True, cwd=ROOT, timeout=60,
    )
    assert probe.stdout.strip() == "False", probe.stderr


def test_one_name_at_two_seats_on_stdin_is_refused_and_nothing_is_written(tmp_path: Path, cli: Any) -> None:
    """``serve --stdin`` with 阿强 twice: the engine's refusal (code, params, message), nothing in
    the journal, nobody added to the roster."""
    db = tmp_path / "t.sqlite3"
    dup = {"type": "new_session", "players": ["阿强", "Bo", "阿强 ", "Di"], "base": 1}
    proc = cli("serve", "--stdin", "--db", str(db), input=_lines(dup, {"type": "state"}))
    assert proc.returncode == 0, proc.stderr
    refused, now = _answers(proc.stdout)
    assert refused == {"ok": False, "code": "seat.same_name", "params": {"seat": 2, "player": "阿强", "seats": [0, 2]},
                       "error": "new_session: '阿强' is at seats 0 and 2: a player sits at one seat"}
    assert refusal(refused["code"], refused["params"], refused["error"], ["", "", "", ""], "en") \
        == "Two players have the same name: 阿强"
    assert now["seq"] == 0 and now["state"]["phase"] == "idle"
    with Journal.open(db, readonly=True) as journal:
        assert list(journal.records()) == []
    assert json.loads(cli("players", "--db", str(db), "--json", check=True).stdout)["players"] == []


def test_serve_without_stdin_runs_until_sigterm(tmp_path: Path) -> None:
    import signal

    env = dict(os.environ, PYTHONUTF8="1", HOME=str(tmp_path))
    proc = subprocess.Popen([sys.executable, "-m", "table_app.cli", "serve", "--db", str(tmp_path / "t.sqlite3")],
                            stderr=subprocess.PIPE, text=True, cwd=tmp_path, env=env)
    assert proc.stderr is not None
    banner = proc.stderr.readline()
    assert "journal" in banner and "t.sqlite3" in banner
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(30) == 0


def test_the_panel_device_comes_from_the_config(tmp_path: Path) -> None:
    """``panel.device`` in the config attaches the panel as ``--panel`` would: serve opens the
    device (one end of a real pty) and reports the link while it waits for the panel's HELLO."""
    master, slave = os.openpty()
    try:
        conf = tmp_path / "c.toml"
        conf.write_text(f'[panel]\ndevice = "{os.ttyname(slave)}"\n')
        proc = _serve(tmp_path, "--stdin", "--config", str(conf), "--db", str(tmp_path / "t.sqlite3"),
                      input=_lines(START[0]))
    finally:
        os.close(master)
        os.close(slave)
    assert proc.returncode == 0, proc.stderr
    assert "panel:" in proc.stderr
    assert _answers(proc.stdout)[0]["ok"] is True


def test_a_bad_gpio_pin_map_in_the_config_names_the_pin(tmp_path: Path) -> None:
    conf = tmp_path / "c.toml"
    conf.write_text("[gpio]\nenabled = true\n[gpio.pins]\nleds = [4, false, false, false]\n")
    proc = _serve(tmp_path, "--stdin", "--config", str(conf), "--db", str(tmp_path / "t.sqlite3"),
                  input=_lines(START[0]))
    assert proc.returncode == 2
    assert "'gpio.pins'" in proc.stderr and "GPIO4 is used twice" in proc.stderr
