"""One seat's words and its view, the same on every front end: the touchscreen's seat panel,
the phone page, MQTT ``seat/<n>`` (dashboards, the seat displays) and the terminal.

:func:`seat_lines` is what a seat reads in one language: its wind, the dealer's mark, name,
score, what it holds, and its prompt — what this seat may or must do now, from the engine's
``actions``, or what it answered (empty when nothing is asked of it: the status line over the
table, :func:`table_app.present.table.status_line`, says what everyone waits for).
:func:`seat_view` is the JSON of MQTT ``seat/<n>`` and of the phones: the same words in both
languages, with ``prompt`` the seat's own prompt or, when it has none, the status line.

>>> from engine.table import replay
>>> from engine.public import public_state
>>> pub = public_state(replay([{"type": "new_session", "players": ["Ann", "Bo", "Cy", "Di"], "base": 1},
...     {"type": "seating", "method": "C", "east": 0}, {"type": "roll", "dice": [4, 6]},
...     {"type": "roll", "dice": [2, 3]}]))
>>> v = seat_view(pub, 1)
>>> v["name"], v["wind"], v["dealer"], v["your_turn"], v["score"], v["rank"], v["prompt"]["en"]
('Bo', 'S', False, False, 0, 1, "Ann's turn")
>>> seat_view(pub, 0)["prompt"]
{'zh': '轮到你出牌', 'en': 'your turn'}
"""

from __future__ import annotations

from typing import Final, Literal, TypedDict

from engine.public import PublicState
from engine.records import Action, Phase, Wind
from engine.scoring import ranks
from table_app.present.buttons import PhoneKey, phone_buttons, roller
from table_app.present.fees import so_far_both, your_house
from table_app.present.money import Money, points_text
from table_app.present.table import PLACES, FinalView, final_view, hand_line, meld_text, status_line
from table_app.present.words import WIND_EN, WIND_ZH, Both, both, tile_word, tr, wind_mark

VIEW_SCHEMA: Final = 1
CALL_ORDER: Final[tuple[Action, ...]] = ("claim:chow", "claim:pong", "claim:kong", "claim:win")
"""The calls as a prompt lists them (吃 first: only the 下家 has it)."""

LedMode = Literal["on", "off", "blink"]


class SeatLines(TypedDict):
    """The texts of one seat's panel in one language."""

    wind: str
    mark: str
    name: str
    score: str
    detail: str
    prompt: str


class SeatResult(TypedDict):
    hand: int
    delta: int
    won: bool
    drawn: bool  # 荒牌: nobody won (kongs may still have paid)
    line: Both  # the hand in words (present.table.hand_line)


class SeatView(TypedDict):
    """MQTT ``seat/<n>`` and a phone's view (docs/design.md §8): the seat's state and its words
    in both languages."""

    schema: int
    seat: int
    name: str
    label: Both  # the seat in words: its wind (东风 · East), or its place before the winds are known
    wind: Wind | None
    wind_zh: str | None
    wind_en: str | None
    dealer: bool
    phase: Phase
    your_turn: bool
    turn: int | None
    turn_name: Both | None
    can_claim: bool
    next_seat: bool
    claim_left: float | None
    actions: list[Action]
    buttons: list[PhoneKey]
    score: int
    rank: int
    last_delta: int | None
    winner: int | None
    hand: int
    round: int
    prompt: Both
    status: Both
    last_hand: list[Both]
    results: list[SeatResult]
    settle_up: list[Both]
    house: list[Both]  # what this seat pays the house at the end (台费, 茶水: ``present.fees``)
    fee: Both | None  # the fee so far while the session is played (None: no fee, or not known)
    final: FinalView | None  # the ended session's ranking and settle-up (to show first and to share)
    seq: int | None  # the journal record it reflects (None: not said)


def seat_prompt(pub: PublicState, seat: int, lang: str) -> str:
    """What seat ``seat`` may or must do now (its ``actions``), or what it answered; "" when
    nothing is asked of it."""
    acts, claims, phase = pub["actions"][seat], pub["claims"], pub["phase"]
    if claims is not None:
        answer = claims["answers"][seat]
        if claims["from"] == seat:
            return tr("discarder_hint", lang)
        held = claims.get("held")  # the 下家 has pressed TURN and waits for the others (§17)
        if held == seat:
            return tr("held_self", lang)
        if answer is not None:
            return tr(f"answer_{answer}", lang)
        if seat in claims["waiting"]:  # the calls its actions allow (吃 only for the 下家)
            calls = [tr(f"call_{a[6:]}", lang) for a in CALL_ORDER if a in acts]
            if not calls:
                return tr("pass_only", lang)
            return tr("claim_hint" if held is None else "held_hint", lang, calls=tr("call_sep", lang).join(calls))
        return ""
    if phase == "turn" and pub["turn"] == seat:
        return tr("your_turn", lang)
    if roller(pub) == seat:
        first = pub["dice"]["dealer"] is None
        return tr("your_roll", lang, what=tr("roll_wall" if first else "roll_break", lang))
    pending, settled = pub["pending_win"], pub["last_settlement"]
    if pending is not None and pending["seat"] == seat:
        return tr("confirm_your_win", lang)
    if phase == "hand_over" and settled is not None:  # what the hand brought this seat
        delta = f"{settled['deltas'][seat]:+d}"
        return tr("you_won" if settled["winner"] == seat else "you_delta", lang, delta=delta)
    return ""


def seat_lines(pub: PublicState, seat: int, lang: str, pending_bet: int | None = None) -> SeatLines:
    """The texts of one seat's panel: wind, dealer mark, name, score, detail, prompt.
    ``pending_bet``: a bet being chosen on the screen, shown while bets are open."""
    phase = pub["phase"]
    mark = ""
    if pub["dealer"] == seat and phase not in ("idle", "seating"):
        mark = tr("dealer", lang) + (tr("streak", lang, n=pub["dealer_streak"]) if pub["dealer_streak"] else "")
    bet = pending_bet if pending_bet is not None and pub["bets_open"] else pub["bets"][seat]
    detail = [tr("bet_n", lang, n=bet)] if bet or phase in ("betting", "rolling") else []
    seats = pub["seats"]
    if seats is not None:
        s = seats[seat]
        detail.append(tr("concealed_n", lang, n=s["concealed"]))
        detail.extend(meld_text(m, lang) for m in s["melds"])
        river = tr("discards_n", lang, n=len(s["discards"]))
        shown = [t for t in s["discards"] if t][-3:]
        if shown:  # full-tile mode (the demo): the last discards by name
            river += " " + " ".join(tile_word(t, lang) for t in shown)
        detail.append(river)
    score = pub["scores"][seat]
    return {"wind": wind_mark(pub["winds"][seat], lang) if phase not in ("idle", "seating") else "",
            "mark": mark, "name": pub["players"][seat], "score": f"{score:+d}" if score else "0",
            "detail": " · ".join(detail), "prompt": seat_prompt(pub, seat, lang)}


def name_with_wind(pub: PublicState, seat: int) -> Both:
    """A seat's name with its wind, in zh and en (``Bo (South)``)."""
    name, w = pub["players"][seat] or f"#{seat}", pub["winds"][seat]
    if w is None:
        return {"zh": name, "en": name}
    return {"zh": tr("name_wind", "zh", name=name, wind=WIND_ZH[w]),
            "en": tr("name_wind", "en", name=name, wind=WIND_EN[w])}


def seat_label(pub: PublicState, seat: int) -> Both:
    """A seat in words, never a bare number: its wind once the winds are known, else its place
    at the table as the screens draw it (seat 0 at the bottom).

    >>> from engine.table import replay
    >>> from engine.public import public_state
    >>> seat_label(public_state(replay([])), 1)
    {'zh': '屏幕右方的座位', 'en': "the seat at the screen's right"}
    """
    w = pub["winds"][seat]
    if w is not None:
        return {"zh": tr("pg_wind", "zh", wind=WIND_ZH[w]), "en": tr("pg_wind", "en", wind=WIND_EN[w])}
    place = f"place_{PLACES[seat]}"
    return {"zh": tr("pg_place", "zh", place=tr(place, "zh")), "en": tr("pg_place", "en", place=tr(place, "en"))}


def seat_labels(pub: PublicState) -> list[Both]:
    """Every seat in words (:func:`seat_label`): the index page's links."""
    return [seat_label(pub, s) for s in range(len(pub["players"]))]


def led_modes(pub: PublicState) -> list[LedMode]:
    """What each seat's light shows (the panel's LEDs, GPIO LEDs): ``on`` for the seat to move or
    to roll, ``blink`` for a seat that may still answer the open claims, else ``off``."""
    waiting = pub["claims"]["waiting"] if pub["claims"] is not None else []
    return ["on" if "discard" in acts or "roll" in acts else "blink" if "pass" in acts and seat in waiting else "off"
            for seat, acts in enumerate(pub["actions"])]


def payments(pub: PublicState, seat: int) -> list[Both]:
    """The last settled hand's payments to and from this seat, in words (zh, en)."""
    s, players = pub["last_settlement"], pub["players"]
    out: list[Both] = []
    for t in s["transfers"] if s is not None else []:
        if seat not in (t["from"], t["to"]):
            continue
        key, other = ("you_pay_for", t["to"]) if t["from"] == seat else ("pays_you_for", t["from"])
        name, amount, reason = players[other] or f"#{other}", t["amount"], f"reason_{t['reason']}"
        out.append({"zh": tr(key, "zh", other=name, amount=amount, why=tr(reason, "zh")),
                    "en": tr(key, "en", other=name, amount=amount, why=tr(reason, "en"))})
    return out


def settle_up_lines(pub: PublicState, seat: int, money: Money | None = None) -> list[Both]:
    """At the end of the session: this seat's part of the fewest payments that settle up (with
    the money beside the points when a point has a value)."""
    players = pub["players"]
    out: list[Both] = []
    for t in pub["settle_up"] or []:
        if seat not in (t["from"], t["to"]):
            continue
        key, other = ("you_pay", t["to"]) if t["from"] == seat else ("pays_you", t["from"])
        name = players[other] or f"#{other}"
        out.append({"zh": tr(key, "zh", other=name, amount=points_text(t["amount"], money, "zh")),
                    "en": tr(key, "en", other=name, amount=points_text(t["amount"], money, "en"))})
    return out


def seat_view(pub: PublicState, seat: int, claim_left: float | None = None, seq: int | None = None,
              money: Money | None = None, seconds: int | None = None) -> SeatView:
    """What seat ``seat`` (0–3) shows: the payload of MQTT ``seat/<n>`` and a phone's view.
    ``claim_left``: seconds until the table closes the open claim window (the service's
    deadline), shown to a seat that may still claim; ``seconds``: since the session began (the
    fee so far in hour mode; None: not known)."""
    if type(seat) is not int or not 0 <= seat < len(pub["players"]):
        raise ValueError(f"seat must be 0–3, got {seat!r}")
    wind, turn, claims, settled = pub["winds"][seat], pub["turn"], pub["claims"], pub["last_settlement"]
    can_claim = claims is not None and seat in claims["waiting"]
    status = both("phase_idle") if pub["phase"] == "idle" else {
        "zh": status_line(pub, "zh"), "en": status_line(pub, "en")}
    own = {"zh": seat_prompt(pub, seat, "zh"), "en": seat_prompt(pub, seat, "en")}
    return {
        "schema": VIEW_SCHEMA,
        "seat": seat,
        "name": pub["players"][seat],
        "label": seat_label(pub, seat),
        "wind": wind,
        "wind_zh": None if wind is None else WIND_ZH[wind],
        "wind_en": None if wind is None else WIND_EN[wind],
        "dealer": pub["dealer"] == seat,
        "phase": pub["phase"],
        "your_turn": pub["phase"] == "turn" and turn == seat,
        "turn": turn,
        "turn_name": None if turn is None else name_with_wind(pub, turn),
        "can_claim": can_claim,
        "next_seat": claims is not None and claims["next"] == seat,
        "claim_left": round(claim_left, 2) if claim_left is not None and can_claim else None,
        "actions": list(pub["actions"][seat]),
        "buttons": phone_buttons(pub, seat),
        "score": pub["scores"][seat],
        "rank": ranks(pub["scores"])[seat],
        "last_delta": None if settled is None else settled["deltas"][seat],
        "winner": None if settled is None else settled["winner"],  # the last hand's, null if drawn
        "hand": pub["hand"],
        "round": pub["round"],
        "prompt": {"zh": own["zh"] or status["zh"], "en": own["en"] or status["en"]},
        "status": status,
        "last_hand": payments(pub, seat),
        "results": [{"hand": r["hand"], "delta": r["deltas"][seat], "won": r["winner"] == seat,
                     "drawn": r["result"] == "draw" or r["winner"] is None,
                     "line": {"zh": hand_line(r, seat, "zh"), "en": hand_line(r, seat, "en")}}
                    for r in pub["results"]],
        "settle_up": settle_up_lines(pub, seat, money),
        "house": your_house(pub, seat, money) if pub["phase"] == "ended" else [],
        "fee": so_far_both(pub, seconds, money),
        "final": final_view(pub, money),
        "seq": seq,
    }
