"""A phone's tap is sent once, whatever the phone asks (table_app/web/taps.py, issue 26): the
same tap asked again is answered with the first request's answer and never applied twice; a
request that outwaits ``wait_s`` is told "still saving" with the tap's id; a tap id used for
another request, or not an id, is refused; the memory of taps is bounded."""

from __future__ import annotations

from concurrent.futures import Future

from table_app.core.service import Answer, TableService
from table_app.web.server import SeatPages
from table_app.web.taps import Taps
from tests.table_app.web.test_phones import Phone, table, token_of  # noqa: F401  (the fixture)


def _events(service: TableService) -> list[dict[str, object]]:
    return [r.event for r in service._journal.records() if r.event is not None]


def test_the_same_tap_asked_again_gets_the_first_answer_and_acts_once(
        table: tuple[TableService, SeatPages]) -> None:  # noqa: F811
    service, pages = table
    dealer = Phone(pages)
    assert dealer.join(token_of(pages), 0)[1]["ok"]
    first = dealer.press(type="press", button="DICE", tap="tap-dice-0001")
    assert first[0] == 200 and first[1]["ok"] and first[1]["tap"] == "tap-dice-0001"
    again = dealer.press(type="press", button="DICE", tap="tap-dice-0001")  # (no longer the dealer's roll)
    assert again == first
    assert [e["type"] for e in _events(service)].count("roll") == 1
    # another request under a tap id already used: refused, nothing applied
    status, answer = dealer.press(type="press", button="TURN", tap="tap-dice-0001")
    assert status == 409 and answer["code"] == "phone.tap_reused" and answer["en"]
    for bad in ("short", "x" * 65, "a b c d e f", 12345678, ["tap-dice-0001"]):
        status, answer = dealer.press(type="press", button="TURN", tap=bad)
        assert status == 400 and answer["code"] == "invalid.tap", bad
    assert [e["type"] for e in _events(service)].count("roll") == 1


def test_a_request_that_outwaits_its_bound_is_told_still_saving_then_the_durable_answer(
        table: tuple[TableService, SeatPages]) -> None:  # noqa: F811
    service, pages = table
    dealer = Phone(pages)
    assert dealer.join(token_of(pages), 0)[1]["ok"]
    seq = service.seq
    pages.phones.wait_s = 0  # (nothing durable is ever ready at once)
    status, answer = dealer.press(type="press", button="DICE")  # no tap id: the table makes one
    assert status == 202 and answer["saving"] is True and answer["ok"] is None
    assert (answer["zh"], answer["en"]) == ("正在保存", "still saving") and answer["code"] == "phone.saving"
    tap = answer["tap"]
    pages.phones.wait_s = 10
    status, durable = dealer.press(type="press", button="DICE", tap=tap)
    assert status == 200 and durable == {"ok": True, "seq": seq + 1, "tap": tap}
    assert service.seq == seq + 1 and [e["type"] for e in _events(service)].count("roll") == 1


def test_a_refused_tap_is_answered_the_same_when_asked_again(
        table: tuple[TableService, SeatPages]) -> None:  # noqa: F811
    _, pages = table
    other = Phone(pages)
    assert other.join(token_of(pages), 2)[1]["ok"]
    first = other.press(type="press", button="TURN", tap="tap-turn-0002")
    assert first[0] == 200 and first[1]["ok"] is False and first[1]["code"] == "press.phase"
    assert other.press(type="press", button="TURN", tap="tap-turn-0002") == first


def test_the_taps_kept_are_bounded_the_oldest_forgotten_first() -> None:
    taps = Taps(kept=3)
    sent: list[str] = []

    def send(tap: str) -> Future[Answer]:
        sent.append(tap)
        f: Future[Answer] = Future()
        f.set_result(Answer(True, len(sent)))
        return f

    for i in range(5):
        taps.submit(0, f"tap-{i:04d}x", {"type": "pass"}, lambda i=i: send(f"tap-{i:04d}x"))  # type: ignore[misc]
    taps.submit(0, "tap-0004x", {"type": "pass"}, lambda: send("again"))
    assert len(taps) == 3 and sent == [f"tap-{i:04d}x" for i in range(5)]  # the known tap: not sent again
    assert taps.find(0, "tap-0000x") is None and taps.find(0, "tap-0004x") is not None
    assert taps.find(1, "tap-0004x") is None  # per seat
