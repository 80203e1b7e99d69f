"""Issue 16, items 1, 5, 6 and 10: one bad message must never kill an input or echo itself back.

Each test feeds the real thing — a ``xian-table serve --stdin`` child, or a real mosquitto
with the table's bridge — the reproducers of the review, then a good command, which must
still be answered. On the code before this work the child died of a ``RecursionError`` (or a
``ValueError`` for a 5,000-digit integer), and paho's network thread died with it.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from engine import InvalidEventError, parse_event, replay
from engine.public import public_state
from table_app.core.service import TableService
from table_app.journal.journal import Journal
from table_app.mqtt import answers as answers_module
from table_app.mqtt.bridge import MqttBridge
from table_app.mqtt.topics import Topics, parse_url
from table_app.system import bounded
from tests.reliability.helpers import SESSION, answers, lines, serve
from tests.support.mqtt import (  # noqa: F401  (fixtures, used by name)
    HAND,
    WAIT,
    broker_fixture,
    service_fixture,
    watchers_fixture,
)

DEEP_ARRAY = "[" * 100_000 + "]" * 100_000
DEEP_OBJECT = '{"a":' * 100_000 + "1" + "}" * 100_000
DEEP_FIELD = '{"type": "discard", "seat": ' + "[" * 2_000 + "]" * 2_000 + "}"
LONG_INT = '{"type": "discard", "seat": ' + "7" * 5_000 + "}"
BIG_BASE = {**SESSION, "base": int("9" * 4_300)}  # json.loads accepts exactly 4,300 digits by default
TEN_MB = '{"type": "pass", "seat": 1, "pad": "' + "x" * 10_000_000 + '"}'


def short_and_no_echo(answer: dict[str, Any], raw: str) -> None:
    """The refusal is short and quotes at most ~80 characters of what was sent."""
    text = json.dumps(answer, ensure_ascii=False)
    assert answer["ok"] is False and len(text) < 400, text[:500]
    assert raw[:100] not in text


def test_serve_stdin_survives_every_reproducer_and_answers_the_next_command(tmp_path: Path) -> None:
    bad = [DEEP_ARRAY, DEEP_OBJECT, DEEP_FIELD, LONG_INT, TEN_MB, json.dumps(BIG_BASE)]
    proc = serve(tmp_path, "--stdin", "--db", str(tmp_path / "j.sqlite3"),
                 input=lines(*bad, b"\xff\xfe not utf-8", SESSION))
    assert proc.returncode == 0, proc.stderr.decode()[-2000:]
    got = answers(proc.stdout)
    assert len(got) == len(bad) + 2  # one answer per line, the last one the good command
    for answer, raw in zip(got, bad, strict=False):
        short_and_no_echo(answer, raw)
    errors = [a["error"] for a in got[:-1]]
    assert "nested more than 32 levels deep" in errors[2]
    assert "longer than 16,384 bytes" in errors[0] and "longer than 16,384 bytes" in errors[4]
    assert "a number of 5,000 digits" in errors[3] and "a number of 4,300 digits" in errors[5]
    assert "not UTF-8" in errors[6]
    assert got[-1]["ok"] and got[-1]["seq"] == 1
    assert b"Traceback" not in proc.stderr


def test_a_good_command_after_a_long_line_is_read_whole(tmp_path: Path) -> None:
    """The rest of a skipped line is dropped up to its newline, never taken for the next command."""
    long_line = '{"type": "pass", "seat": 1, "pad": "' + "x" * 40_000 + '"} {"type": "state"}'
    proc = serve(tmp_path, "--stdin", "--db", str(tmp_path / "j.sqlite3"), input=lines(long_line, SESSION))
    got = answers(proc.stdout)
    assert [a["ok"] for a in got] == [False, True] and got[1]["seq"] == 1


def test_numbers_with_a_meaning_are_bounded(tmp_path: Path) -> None:
    """Item 6: base, bets and bet_unit at most 10^6, with a clear refusal; 10^6 itself is fine."""
    limit = 10**6
    cmds = [
        {**SESSION, "base": limit + 1},
        {**SESSION, "rules": {"bet_unit": limit + 1}},
        {**SESSION, "base": limit, "rules": {"bet_unit": limit}},
        {"type": "seating", "method": "C", "east": 0},
        {"type": "bets", "bets": [limit + 1, 0, 0, 0]},
        {"type": "bets", "bets": [limit, limit, 0, 0]},
    ]
    proc = serve(tmp_path, "--stdin", "--db", str(tmp_path / "j.sqlite3"), input=lines(*cmds))
    got = answers(proc.stdout)
    assert [a["ok"] for a in got] == [False, False, True, True, False, True]
    assert "'base' must be a whole number >= 1 (at most 1,000,000), got 1000001" in got[0]["error"]
    assert "'bet_unit' must be a whole number >= 1 (at most 1,000,000)" in got[1]["error"]
    assert "each at most 1,000,000" in got[4]["error"]
    assert got[-1]["state"]["bets"] == [limit, limit, 0, 0]


def test_the_engine_refuses_a_huge_base_without_printing_it() -> None:
    """Past the perimeter too (the touchscreen, play files): refused as an invalid event (a
    ``RuleError``), never a ``ValueError`` from printing the number."""
    for event in (BIG_BASE, {**SESSION, "base": 10**5000}):  # 10**5000 is past what repr() may print
        with pytest.raises(InvalidEventError, match=r"at most 1,000,000\), got a number of about (4,301|5,001)"):
            parse_event(event)
    with pytest.raises(InvalidEventError, match="each at most 1,000,000"):
        parse_event({"type": "bets", "bets": [0, 0, 0, 10**5000]})


def test_a_huge_base_never_reaches_the_service(tmp_path: Path) -> None:
    with Journal.open(tmp_path / "j.sqlite3") as j, TableService(j, claim_window_s=0) as svc:
        answer = svc.call(BIG_BASE, timeout=WAIT)
        assert not answer.ok and "at most 1,000,000" in (answer.error or "")
        assert svc.seq == 0 and svc.call({"type": "state"}, timeout=WAIT).ok


def test_state_takes_no_fields(tmp_path: Path) -> None:
    """Item 10: ``{"type": "state", "x": 1}`` is refused like any unknown field."""
    proc = serve(tmp_path, "--stdin", "--db", str(tmp_path / "j.sqlite3"),
                 input=lines({"type": "state", "x": 1}, {"type": "state"}))
    got = answers(proc.stdout)
    assert not got[0]["ok"] and "state takes no fields" in got[0]["error"] and "'x'" in got[0]["error"]
    assert got[1]["ok"]


def test_bounded_parse_limits() -> None:
    ok = bounded.parse_command('{"type": "new_session", "rules": {"kong_reserve": [13, 7, 8, 13]}, '
                               '"wall_seed": 18446744073709551615}')
    assert ok["wall_seed"] == 2**64 - 1  # a 64-bit seed (20 digits) is fine
    assert bounded.parse_command('{"a": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}')  # not nesting: a string
    for text, words in [("[" * 33 + "]" * 33, "nested more than 32"), ('{"x": NaN}', "NaN is not a JSON number"),
                        ('{"x": 1.' + "5" * 40 + "}", "a number of 42 characters"),
                        ('{"x": ' + "1" * 21 + "}", "a number of 21 digits"),
                        ("x" * 20_000, "at most 16,384 bytes"), ('{"a": ' + "x" * 500, "not JSON")]:
        with pytest.raises(bounded.BoundedInputError, match=words) as err:
            bounded.parse_command(text)
        assert len(str(err.value)) < 200


# -- MQTT: paho's thread must survive any message -----------------------------------------


def bridge_for(service: TableService, broker: Any, table: str) -> MqttBridge:
    return MqttBridge(service, parse_url(broker.url("service")), Topics("xian", table), max_backoff=1.0).start()


def test_mqtt_survives_the_reproducers_and_keeps_answering(broker, service, watchers) -> None:
    t = Topics("xian", "t16")
    bridge = bridge_for(service, broker, "t16")
    try:
        remote = watchers(broker.url("remote"), [t.cmd_result, t.state])
        remote.wait_subscribed()
        assert bridge.wait_idle(WAIT)
        bad = ["[" * 8_000 + "]" * 8_000, DEEP_FIELD, LONG_INT, json.dumps({**BIG_BASE, "transaction": "big"})]
        for payload in bad:
            remote.publish(t.cmd, payload)
        assert remote.wait(lambda: len(remote.of(t.cmd_result)) == len(bad)), "a bad message went unanswered"
        for answer, raw in zip(remote.of(t.cmd_result), bad, strict=True):
            assert answer["status"] == "error" and len(json.dumps(answer)) < 400 and raw[:100] not in answer["error"]
        remote.publish(t.cmd, json.dumps({**HAND[0], "transaction": "after"}))
        assert remote.wait(lambda: len(remote.of(t.cmd_result)) == len(bad) + 1)
        last = remote.of(t.cmd_result)[-1]
        assert (last["status"], last["transaction"], last["data"]["seq"]) == ("ok", "after", 1)
        remote.wait_json(t.state, lambda s: s["phase"] == "seating")
        assert service.public == public_state(replay(HAND[:1]))
    finally:
        bridge.stop()


def test_an_unexpected_error_in_a_message_never_ends_pahos_thread(broker, service, watchers,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Whatever raises while one message is handled (here a fault put into the parser), the
    next message is still handled: the catch-all around ``_on_message`` keeps paho's loop alive."""
    t = Topics("xian", "t16b")
    bridge = bridge_for(service, broker, "t16b")
    try:
        remote = watchers(broker.url("remote"), [t.cmd_result])
        remote.wait_subscribed()
        assert bridge.wait_idle(WAIT)
        real = answers_module.parse_command
        faults = iter([MemoryError("injected"), RuntimeError("injected")])

        def faulty(payload: bytes) -> Any:
            fault = next(faults, None)
            if fault is not None:
                raise fault
            return real(payload)

        monkeypatch.setattr(answers_module, "parse_command", faulty)
        remote.publish(t.cmd, json.dumps(HAND[0]))  # each answered "internal error: injected"
        remote.publish(t.cmd, json.dumps(HAND[0]))
        remote.publish(t.cmd, json.dumps({**HAND[0], "transaction": 3}))
        assert remote.wait(lambda: any(a["transaction"] == 3 for a in remote.of(t.cmd_result))), \
            "the command after the fault was never answered: paho's thread died"
        assert sum("internal error: injected" in a.get("error", "") for a in remote.of(t.cmd_result)) == 2
        assert service.seq == 1
    finally:
        bridge.stop()
