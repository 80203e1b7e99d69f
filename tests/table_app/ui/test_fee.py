"""The table fee on the touchscreen (issue 31): the fee form, reached from the menu and from the
new session's form, sends the ``fee`` event for the session being played and puts the fee into
the next ``new_session``; a bad amount is refused in the screen's language and nothing is sent;
the final screen shows the house's lines beside the settle-up, the scores screen the fee so far."""

from __future__ import annotations

from typing import Any

import pytest

from tests.table_app.ui.conftest import UI

pytestmark = pytest.mark.kivy

NAMES = ["Ann", "Bo", "Cy", "Di"]
PLAYING = [{"type": "new_session", "players": NAMES, "base": 1}, {"type": "seating", "method": "C", "east": 0}]


def play(ui: UI, events: list[dict[str, Any]]) -> None:
    for ev in events:
        answer = ui.service.call(ev, source="test")
        assert answer.ok, answer.error
    ui.settled()


def fee_form(ui: UI, mode: str, payer: str, **amounts: str) -> Any:
    s = ui.screen
    assert s.name == "fee"
    ui.tap(s.ids[f"mode_{mode}"])
    ui.tap(s.ids[f"payer_{payer}"])
    for key, text in amounts.items():
        s.ids[key].text = text
    ui.frames(1)
    return s


def test_the_menu_sets_the_fee_of_the_session_played(ui: UI) -> None:
    play(ui, PLAYING)
    ui.app.lang = "en"
    ui.app.open_menu()
    ui.frames(2)
    ui.tap(ui.find("menu_fee", ui.modal()))
    s = fee_form(ui, "hour", "big_winner", rate="30", min="60", cap="", tea="5")
    assert s.ids.note.text == "Table fee 30 an hour · at least 60 · the big winner pays · tea 5 each"
    seq = ui.service.seq
    ui.tap(s.ids.this)
    ui.tap(s.ids.this)  # (a second tap before the first is answered, and a third after: one event, one undo)
    ui.settled()
    ui.tap(s.ids.this)
    ui.settled()
    assert ui.service.seq == seq + 1 and ui.app.message.startswith("This session already has this fee: Table fee 30")
    assert ui.pub()["fee"] == {"mode": "hour", "rate": 30, "min": 60, "cap": None, "payer": "big_winner", "tea": 5}
    assert ui.service.journal_reader().event(ui.service.seq) == {"type": "fee", "fee": ui.pub()["fee"]}
    assert s.ids.now.text == "This session now: Table fee 30 an hour · at least 60 · the big winner pays · tea 5 each"
    ui.tap(s.ids.mode_none)  # no fee from now on: the event with null
    ui.send_and_settle(s.ids.this)
    assert ui.pub()["fee"] is None


@pytest.mark.parametrize(("lang", "rate", "said"), [
    ("zh", "2.5", "单价要是 0 到 1,000,000 的整数：2.5"),
    ("en", "-3", "Rate is a whole number 0 to 1,000,000: -3"),
])
def test_a_bad_amount_is_refused_in_words_and_nothing_is_sent(ui: UI, lang: str, rate: str, said: str) -> None:
    play(ui, PLAYING)
    ui.app.lang = lang
    ui.app.goto("fee")
    s = fee_form(ui, "hand", "aa", rate=rate)
    seq = ui.service.seq
    ui.tap(s.ids.this)
    ui.frames(3)
    assert s.ids.note.text == said and ui.app.message == said
    assert ui.service.seq == seq and ui.pub()["fee"] is None
    s = fee_form(ui, "hand", "aa", rate="")
    ui.tap(s.ids.this)
    assert s.ids.note.text == {"zh": "单价还没填", "en": "Rate is not filled in"}[lang] and ui.service.seq == seq
    s = fee_form(ui, "round", "winners", rate="20", min="90", cap="60")
    ui.tap(s.ids.this)
    assert s.ids.note.text == {"zh": "最低不能高于封顶", "en": "The minimum cannot be above the cap"}[lang]
    assert ui.service.seq == seq


def test_the_next_sessions_fee_goes_with_its_new_session(ui: UI) -> None:
    ui.app.lang = "zh"
    ui.app.goto("session")
    ui.frames(2)
    assert ui.screen.ids.fee.text == "台费：不收"
    ui.tap(ui.find("fee"))
    s = fee_form(ui, "round", "winners", rate="20", tea="3")
    assert s.ids.this.disabled  # (no session is played: only the next one)
    ui.tap(s.ids.next)
    assert ui.app.message == "下个牌局的台费：台费 每圈 20 · 赢家按比例付 · 茶水 3/人"
    ui.app.goto("session")
    ui.frames(2)
    assert ui.screen.ids.fee.text == "台费：每圈 20"
    ui.send_and_settle(ui.find("start"))
    assert ui.pub()["phase"] == "seating"
    assert ui.pub()["fee"] == {"mode": "round", "rate": 20, "min": 0, "cap": None, "payer": "winners", "tea": 3}
    assert ui.app.fee_next is None  # (the session after takes the table's default again)


@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_final_screen_shows_the_house_lines_and_the_scores_the_fee_so_far(ui: UI, lang: str) -> None:
    ui.app.lang = lang
    fee = {"mode": "hand", "rate": 10, "payer": "winners", "tea": 5}
    play(ui, [{**PLAYING[0], "fee": fee}, PLAYING[1], {"type": "score_hand", "winner": 2, "how": "self_drawn"},
              {"type": "next_hand"}, {"type": "score_hand", "winner": 1, "how": "discard", "discarder": 0}])
    ui.app.goto("scores")
    ui.frames(2)
    assert ui.screen.ids.top.title.endswith({"zh": "台费至今 20（2 局 × 10）+ 茶水 20",
                                             "en": "Fee so far 20 (2 hands × 10) + tea 20"}[lang])
    play(ui, [{"type": "end_session"}])
    assert ui.screen.name == "final"
    house = ui.pub()["house"]
    assert house["fee"] == 20 and sum(house["table"]) == 20
    s = ui.screen
    head = {"zh": "付给店家：", "en": "To the house: "}[lang]
    assert s.ids.house.text.startswith(head)
    lines = s.ids.house.text[len(head):].replace("\xa0", " ").split(" · ")
    payers = [f"{NAMES[seat]} {'付台费' if lang == 'zh' else 'pays the house'} {n}"
              for seat, n in enumerate(house["table"]) if n]
    assert lines == [{"zh": "台费 20（2 局 × 10）", "en": "Table fee 20 (2 hands × 10)"}[lang], *payers,
                     {"zh": "每人付茶水 5", "en": "each pays 5 for tea"}[lang],
                     {"zh": "共付店家 40（台费 20 + 茶水 20）",
                      "en": "to the house in all 40 (table 20 + tea 20)"}[lang]]
    s.ids.house.texture_update()  # whole, below the settle-up and above the buttons
    assert s.ids.house.texture_size[1] <= s.ids.house.height + 1
    assert s.ids.house.y >= s.ids.resume.top and s.ids.house.top <= s.ids.settle.y + 1


def test_minus_and_plus_work_on_an_empty_field_and_on_a_decimal(ui: UI) -> None:
    """They did nothing there (a player's report): the screen steps as ``forms.fee.step`` says."""
    play(ui, PLAYING)
    ui.app.lang = "en"
    ui.app.goto("fee")
    s = fee_form(ui, "hand", "aa", rate="", tea="1.5", cap="")
    ui.tap(s.ids.rate_up)
    ui.tap(s.ids.tea_up)
    assert (s.ids.rate.text, s.ids.tea.text) == ("5", "2")
    ui.tap(s.ids.tea_down)
    ui.tap(s.ids.tea_down)
    ui.tap(s.ids.cap_up)  # (no cap: + gives one step, − below 0 takes it away again)
    assert (s.ids.tea.text, s.ids.cap.text) == ("0", "10")
    s.ids.rate.text = "2元"
    ui.tap(s.ids.rate_up)  # (not a number: kept, the note says why)
    assert s.ids.rate.text == "2元" and s.ids.note.text == "Rate is a whole number 0 to 1,000,000: 2元"
    s.ids.rate.text = "30"
    ui.tap(s.ids.cap_down)
    assert s.ids.cap.text == "0"
    ui.tap(s.ids.cap_down)
    ui.send_and_settle(s.ids.this)
    assert ui.pub()["fee"] == {"mode": "hand", "rate": 30, "min": 0, "cap": None, "payer": "aa", "tea": 0}
