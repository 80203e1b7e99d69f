"""What the screens show, read from the public state (DESIGN.md) — no Kivy here.

Nothing here decides a rule: each seat's buttons are the engine's ``actions`` for it, and
a button sends the press it stands for (or, for 过 and a roll by touch, the event itself);
the service turns presses into events with the engine's one button mapping. Seats sit on
the screen in their real places, numbered counter-clockwise seen from above: seat 0 at the
bottom, 1 on the right, 2 at the top, 3 on the left.

Every seat's panel has the same six buttons in the same places (:data:`PLAY_SLOTS`: 出牌 吃
碰 杠 胡 过, the panel's TURN CHI PENG GANG HU and a pass), each enabled only when ``actions``
has its action; before the deal the same places hold 掷骰, 注 − and 注 +.

>>> pub = {"phase": "claims", "players": ["A", "B", "C", "D"], "turn": None,
...        "actions": [[], ["claim:win", "claim:pong", "claim:chow", "pass"], ["claim:win", "pass"], []]}
>>> buttons(pub, 1), buttons(pub, 2), buttons(pub, 0)
(['claim_win', 'claim_pong', 'claim_chow', 'pass'], ['claim_win', 'pass'], [])
>>> [(s.key, s.action) for s in slots(pub, 2)]
[('discard', None), ('chow', None), ('pong', None), ('kong', None), ('win', 'claim_win'), ('pass', 'pass')]
>>> command("claim_pong", 2)
{'type': 'press', 'seat': 2, 'button': 'PENG', 'held': False}
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final, NamedTuple

from table_app.seat_view import led_modes
from table_app.ui.text import names_list, source_word, tile_word, tr, wind_mark

PLACES: Final = ("bottom", "right", "top", "left")
PRESS_OF: Final = {"discard": "TURN", "kong": "GANG", "win": "HU", "claim_win": "HU", "claim_kong": "GANG",
                   "claim_pong": "PENG", "claim_chow": "CHI"}
"""The button a seat panel's action stands for (the same press as the table's wired buttons)."""

PLAY_SLOTS: Final[tuple[tuple[str, tuple[str, ...]], ...]] = (
    ("discard", ("discard",)),
    ("chow", ("claim_chow",)),
    ("pong", ("claim_pong",)),
    ("kong", ("kong", "claim_kong")),
    ("win", ("win", "claim_win")),
    ("pass", ("pass",)),
)
"""The six places of a seat's buttons and the actions each one sends (never another)."""
BET_SLOTS: Final = ("roll", "bet_down", "bet_up")
BEFORE_DEAL: Final = ("betting", "rolling")

__all__ = ["PLACES", "PLAY_SLOTS", "PRESS_OF", "Slot", "buttons", "command", "forward", "led_modes", "roller",
           "slots"]


class Slot(NamedTuple):
    """One of a panel's button places: ``key`` names the place (and its word, ``slot_<key>``),
    ``action`` is what a tap sends now (None: disabled), ``style`` its colour."""

    key: str
    action: str | None
    style: str
    shown: bool = True


def buttons(pub: dict[str, Any], seat: int) -> list[str]:
    """The actions seat ``seat`` is offered now: the engine's ``actions`` (``claim:pong`` is
    the ``claim_pong`` button)."""
    acts = (pub.get("actions") or [[], [], [], []])[seat]
    return [a.replace(":", "_") for a in acts]


def roller(pub: dict[str, Any]) -> int | None:
    """The seat due to roll: the one whose ``actions`` hold ``roll``."""
    return next((s for s, acts in enumerate(pub.get("actions") or []) if "roll" in acts), None)


def bets_open(pub: dict[str, Any]) -> bool:
    """Bets may still change: before the hand's first roll."""
    return pub.get("phase") in BEFORE_DEAL and (pub.get("dice") or {}).get("dealer") is None


STYLE: Final = {"discard": "go", "roll": "go", "chow": "claim", "pong": "claim", "kong": "claim", "win": "win",
                "pass": "pass", "bet_down": "plain", "bet_up": "plain"}


def slots(pub: dict[str, Any], seat: int) -> list[Slot]:
    """The six places of seat ``seat``'s buttons, each with what a tap sends now."""
    acts = buttons(pub, seat)
    if pub.get("phase") in BEFORE_DEAL:
        open_ = bets_open(pub)
        out = [Slot("roll", "roll" if "roll" in acts else None, "go"),
               Slot("bet_down", "bet_down" if open_ else None, "plain"),
               Slot("bet_up", "bet_up" if open_ else None, "plain")]
        return out + [Slot(f"none{i}", None, "off", shown=False) for i in range(3)]
    return [Slot(key, next((a for a in sends if a in acts), None), STYLE[key]) for key, sends in PLAY_SLOTS]


def command(action: str, seat: int, **extra: Any) -> dict[str, Any]:
    """What a seat panel's button sends: the press it stands for; 过 is the ``pass`` event (on
    the screen a seat passes one tile — the TURN button of the discarder's 下家 would also
    take its turn); a roll by touch is the dice button with the dice entered."""
    if action == "roll":
        return {"type": "press", "seat": None, "button": "DICE", "held": False, "dice": list(extra["dice"])}
    if action == "pass":
        return {"type": "pass", "seat": seat}
    if action in PRESS_OF:
        return {"type": "press", "seat": seat, "button": PRESS_OF[action], "held": False}
    raise ValueError(f"unknown action {action!r} for seat {seat}")


def forward(pub: dict[str, Any], score_only: bool = False) -> list[tuple[int | None, str]]:
    """What moves the table on now, as (seat, action) for a seat's button or (None, action)
    for the table's own button in the middle: never empty (the layout test checks that each
    is on the screen, enabled).

    >>> forward({"phase": "hand_over"}), forward({"phase": "turn", "actions": [["discard"], [], [], []]})
    ([(None, 'next_hand')], [(0, 'discard')])
    """
    phase = pub.get("phase") or "idle"
    table = {"idle": "new_session", "seating": "seating", "win_pending": "confirm_win", "hand_over": "next_hand",
             "ended": "final"}
    if phase in table:
        return [(None, table[phase])]
    if phase == "betting" and score_only:  # (score_hand is taken before the hand's first roll or bets)
        return [(None, "score_hand")]
    moves: list[tuple[int | None, str]] = [(seat, s.action) for seat in range(4) for s in slots(pub, seat)
                                           if s.action is not None and s.action not in ("bet_down", "bet_up")]
    return moves or [(None, "menu")]


def seat_lines(pub: dict[str, Any], seat: int, lang: str, pending_bet: int | None = None) -> dict[str, str]:
    """The texts of one seat's panel: wind, dealer mark, name, score, detail, prompt."""
    players = pub.get("players") or ["", "", "", ""]
    winds = pub.get("winds") or [None] * 4
    dealer = pub.get("dealer") == seat and pub.get("phase") not in ("idle", "seating")
    mark = ""
    if dealer:
        mark = tr("dealer", lang)
        if pub.get("dealer_streak"):
            mark += tr("streak", lang, n=pub["dealer_streak"])
    scores = pub.get("scores") or [0, 0, 0, 0]
    bets = pub.get("bets") or [0, 0, 0, 0]
    bet = pending_bet if pending_bet is not None and bets_open(pub) else bets[seat]
    detail = [tr("bet_n", lang, n=bet)] if bet or pub.get("phase") in BEFORE_DEAL else []
    seats = pub.get("seats")
    if seats:
        s = seats[seat]
        detail.append(tr("concealed_n", lang, n=s["concealed"]))
        detail.extend(meld_text(m, lang) for m in s["melds"])
        river = tr("discards_n", lang, n=len(s["discards"]))
        shown = [t for t in s["discards"] if t][-3:]
        if shown:  # full-tile mode (the demo): the last discards by name
            river += " " + " ".join(tile_word(t, lang) for t in shown)
        detail.append(river)
    prompt = ""
    c = pub.get("claims")
    if pub.get("phase") == "claims" and c:
        if c.get("from") == seat:
            prompt = tr("discarder_hint", lang)
        elif (ans := (c.get("answers") or [None] * 4)[seat]) is not None:
            prompt = tr(f"answer_{ans}", lang)
        elif seat in c.get("waiting", []):  # the calls its actions allow (吃 only for the 下家)
            acts = (pub.get("actions") or [[]] * 4)[seat]
            calls = [tr(f"call_{a[6:]}", lang) for a in ("claim:chow", "claim:pong", "claim:kong", "claim:win")
                     if a in acts]
            prompt = tr("claim_hint", lang, calls=tr("call_sep", lang).join(calls)) if calls else ""
    elif pub.get("phase") == "turn" and pub.get("turn") == seat:
        prompt = tr("your_turn", lang)
    elif roller(pub) == seat:
        first = (pub.get("dice") or {}).get("dealer") is None
        prompt = tr("your_roll", lang, what=tr("roll_wall" if first else "roll_break", lang))
    return {"wind": wind_mark(winds[seat], lang) if pub.get("phase") not in ("idle", "seating") else "",
            "mark": mark, "name": players[seat], "score": f"{scores[seat]:+d}" if scores[seat] else "0",
            "detail": " · ".join(detail), "prompt": prompt}


def meld_text(m: dict[str, Any], lang: str) -> str:
    """An exposed meld in words: 碰 三条, 吃 一二三万, 暗杠."""
    kind = m["kind"]
    text = tr("kong_concealed", lang) if kind == "kong" and m.get("kong") == "concealed" else tr(f"meld_{kind}", lang)
    tiles = m.get("tiles")
    if not tiles:
        return text
    first = f"{tiles[0]}{tiles[-1]}"
    if kind != "chow":
        return f"{text} {tile_word(first, lang)}"
    if lang == "zh":
        word = tile_word(first, lang)
        return f"{text} {''.join(tile_word(f'{d}{tiles[-1]}', lang)[0] for d in tiles[:-1])}{word[1:]}"
    return f"{text} {tiles[0]}-{tiles[-2]} {tile_word(first, lang).split(' ', 1)[1]}"


def status_line(pub: dict[str, Any], lang: str, claim_left: float | None = None) -> str:
    """The line over the table: whose turn, who rolls, who discarded and who is awaited."""
    phase = pub.get("phase", "idle")
    players = pub.get("players") or ["", "", "", ""]
    if phase == "turn" and pub.get("turn") is not None:
        return tr("turn_of", lang, name=players[pub["turn"]])
    if phase in BEFORE_DEAL:
        r = roller(pub)
        if r is not None:
            if bets_open(pub):
                return tr("bets_then_roll", lang, name=players[r])
            return tr("rolls_next", lang, name=players[r], what=tr("roll_break", lang))
    if phase == "claims" and pub.get("claims"):
        c = pub["claims"]
        key = "claims_rob" if c.get("kind") == "rob" else "claims_from"
        tile = f" {tile_word(c['tile'], lang)}" if c.get("tile") else ""
        line = tr(key, lang, name=players[c["from"]], tile=tile)
        if claim_left is not None:
            line += " · " + tr("seconds_left", lang, s=max(0.0, claim_left))
        return line  # who is awaited: each seat's own panel says it
    if phase == "win_pending" and pub.get("pending_win"):
        p = pub["pending_win"]
        return tr("win_by", lang, name=players[p["seat"]], kind=tr(f"kind_{p['kind']}", lang))
    if phase == "hand_over" and pub.get("last_settlement"):  # who won and how (who deals next: the info line)
        s = pub["last_settlement"]
        if s.get("result") == "draw":
            return tr("drawn_hand", lang)
        return tr("win_by", lang, name=players[s["winner"]], kind=tr(f"kind_{s['kind']}", lang))
    if phase == "hand_over" and pub.get("next_dealer") is not None:
        return tr("next_hand_hint", lang, dealer=players[pub["next_dealer"]])
    return tr(f"phase_{phase}", lang)


def info_lines(pub: dict[str, Any], lang: str) -> tuple[str, str]:
    """The middle of the table: the hand, how many tiles are left to draw, the dice; where the
    draw starts (most useful first: the middle shows what fits)."""
    if pub.get("phase") in (None, "idle", "seating"):
        return tr(f"phase_{pub.get('phase') or 'idle'}", lang), ""
    first = [tr("hand_round", lang, hand=pub.get("hand", 1), round=pub.get("round", 1))]
    b, w = pub.get("break"), pub.get("wall") or {}
    if b and pub.get("phase") not in ("hand_over", "ended"):
        first.insert(1, tr("drawable", lang, n=w.get("drawable")))
    dice = pub.get("dice") or {}
    rolls = [d for d in (dice.get("dealer"), dice.get("owner")) if d]
    if rolls:
        first.append(tr("dice_were", lang, dice=" / ".join(f"{a}+{b}" for a, b in rolls)))
    if pub.get("phase") == "hand_over" and pub.get("next_dealer") is not None:
        players = pub.get("players") or [""] * 4
        return " · ".join(first), tr("next_hand_hint", lang, dealer=players[pub["next_dealer"]])
    if not b or pub.get("phase") in ("hand_over", "ended"):
        return " · ".join(first), ""
    players = pub.get("players") or [""] * 4
    return " · ".join(first), tr("break_at", lang, name=players[b["wall"]], stack=b["stack"])


def wall_line(pub: dict[str, Any], lang: str) -> str:
    w, b = pub.get("wall") or {}, pub.get("break")
    if not b:
        return ""
    players = pub.get("players") or [""] * 4
    return tr("break_at", lang, name=players[b["wall"]], stack=b["stack"]) + " · " + tr(
        "wall_line", lang, remaining=w.get("remaining"), drawable=w.get("drawable"), reserve=w.get("reserve_stacks"),
        kongs=w.get("kongs"))


# --- the settlement, the end of the evening ------------------------------------------------


def settlement_head(pub: dict[str, Any], lang: str) -> str:
    s = pub.get("last_settlement")
    if not s:
        return tr("no_settlement", lang)
    players = pub.get("players") or ["", "", "", ""]
    if s.get("result") == "draw":
        return tr("drawn_hand", lang)
    head = tr("win_by", lang, name=players[s["winner"]], kind=tr(f"kind_{s['kind']}", lang))
    if s.get("wait"):
        head += " · " + tr(f"wait_{s['wait']}", lang) + (tr("bonus_yes", lang) if s.get("bonus") else "")
    return head


def settlement_rows(pub: dict[str, Any]) -> list[tuple[str, int, int, int, int, int]]:
    """One row per player: name, then what the hand's 胡 · 杠 · 注 transfers brought it, the
    hand's total (本局) and the running total (总分)."""
    s = pub.get("last_settlement") or {}
    players = pub.get("players") or ["", "", "", ""]
    scores = pub.get("scores") or [0, 0, 0, 0]
    by = {r: [0, 0, 0, 0] for r in ("win", "kong", "bet")}
    for t in s.get("transfers", []):
        by[t["reason"]][t["from"]] -= t["amount"]
        by[t["reason"]][t["to"]] += t["amount"]
    deltas = s.get("deltas") or [0, 0, 0, 0]
    return [(players[i], by["win"][i], by["kong"][i], by["bet"][i], deltas[i], scores[i]) for i in range(4)]


def transfer_lines(pub: dict[str, Any], lang: str) -> list[str]:
    """Every transfer of the last hand, in words."""
    s = pub.get("last_settlement") or {}
    players = pub.get("players") or ["", "", "", ""]
    return [tr("pays", lang, frm=players[t["from"]], to=players[t["to"]], amount=t["amount"],
               reason=tr(f"reason_{t['reason']}", lang)) for t in s.get("transfers", [])]


def ranking(scores: Sequence[int]) -> list[tuple[int, int]]:
    """(rank, seat), best first; equal scores share a rank (1, 2, 2, 4).

    >>> ranking([5, -3, 5, -7])
    [(1, 0), (1, 2), (3, 1), (4, 3)]
    """
    order = sorted(range(len(scores)), key=lambda s: (-scores[s], s))
    return [(1 + sum(1 for x in scores if x > scores[s]), s) for s in order]


def settle_lines(pub: dict[str, Any], lang: str) -> list[str]:
    """The engine's ``settle_up`` (phase ``ended``): the fewest payments, in words."""
    players = pub.get("players") or ["", "", "", ""]
    pays = pub.get("settle_up") or []
    if not pays:
        return [tr("settle_none", lang)]
    return [tr("settle_pay", lang, frm=players[p["from"]], to=players[p["to"]], amount=p["amount"]) for p in pays]


# --- the history in sentences -----------------------------------------------------------------


def describe(events: Sequence[dict[str, Any]], names: Sequence[str], lang: str, east: int | None = None) -> list[str]:
    """Each event of a session as a sentence ("阿华 碰 阿明的 三条"), read in order so that a
    claim can say whose tile it was. ``names`` are the players by seat as the table holds them
    now (seating by everyone rolling moves them), ``east`` the East seat (the engine's winds)."""
    out = []
    last: tuple[int, str | None] | None = None  # (discarder, tile) of the open discard
    rolls = 0  # the rolls of this hand so far (the first chooses the wall, the second the break)
    players = list(names)
    for ev in events:
        t = ev.get("type", "")
        out.append(_sentence(ev, players, lang, last, rolls > 0, east))
        if t == "discard":
            last = (ev["seat"], ev.get("tile"))
        elif t == "roll":
            rolls += 1
        elif t in ("next_hand", "new_session"):
            rolls = 0
    return out


def _sentence(ev: dict[str, Any], names: Sequence[str], lang: str, last: tuple[int, str | None] | None,
              rolled: bool = False, east: int | None = None) -> str:
    t = ev.get("type", "")

    def who(seat: Any) -> str:
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"

    def tile(text: Any) -> str:
        return f" {tile_word(text, lang)}" if isinstance(text, str) and text else ""

    if t == "new_session":
        return tr("ev_new_session", lang, names=names_list(ev.get("players") or [], lang), base=ev.get("base", 1))
    if t == "seating":
        m = ev.get("method")
        if m == "A":
            return tr("ev_seating_A", lang, name=who(ev["roller"]), dice="+".join(map(str, ev["dice"])), east=who(east))
        return tr(f"ev_seating_{m}", lang, east=who(east))
    if t == "bets":
        bets = ev.get("bets") or []
        listed = [f"{who(s)} {n}" for s, n in enumerate(bets) if n]
        return tr("ev_bets", lang, list=names_list(listed, lang)) if listed else tr("ev_bets_none", lang)
    if t == "roll":
        dice = "+".join(map(str, ev["dice"]))
        if "seat" in ev:
            return tr("ev_roll", lang, name=who(ev["seat"]), dice=dice)
        return tr("ev_roll_break" if rolled else "ev_roll_wall", lang, dice=dice)
    if t == "discard":
        return tr("ev_discard", lang, name=who(ev["seat"]), tile=tile(ev.get("tile")))
    if t == "claim":
        whose = "" if not last else tr("ev_whose", lang, name=who(last[0]), tile=tile(last[1])) if last[1] \
            else tr("ev_whose_tile", lang, name=who(last[0]))
        return tr("ev_claim", lang, name=who(ev["seat"]), call=tr(f"call_{ev['call']}", lang), whose=whose)
    if t == "pass":
        return tr("ev_pass", lang, name=who(ev["seat"]))
    if t == "kong":
        return tr("ev_kong", lang, name=who(ev["seat"]), kind=tr(f"kong_{ev['kind']}", lang), tile=tile(ev.get("tile")))
    if t == "win":
        return tr("ev_win", lang, name=who(ev["seat"]))
    if t == "confirm_win":
        wait = f" · {tr('wait_' + ev['wait'], lang)}" if ev.get("wait") else tr("by_hand", lang) if ev.get("hand") \
            else ""
        return tr("ev_confirm_win", lang, wait=wait)
    if t == "score_hand":
        return tr("ev_score_hand", lang, what=scored_words(ev, names, lang))
    if t == "name":
        return tr("ev_name", lang, name=str(ev.get("name", "")))
    if known_event(t):
        return tr(f"ev_{t}", lang)
    return str(t)


def known_event(t: str) -> bool:
    return t in ("resolve", "reject_win", "next_hand", "end_session", "undo")


def scored_words(ev: dict[str, Any], names: Sequence[str], lang: str) -> str:
    """A ``score_hand`` in words: 阿明 自摸 · 夹张."""
    if ev.get("winner") is None:
        return tr("drawn_hand", lang)
    kind = "kong_bloom" if ev.get("kong_bloom") else "heavenly" if ev.get("heavenly") else ev.get("how", "")
    text = f"{names[ev['winner']]} {tr('kind_' + kind, lang)}"
    if ev.get("discarder") is not None:
        text += f" ({names[ev['discarder']]})" if lang == "en" else f"（{names[ev['discarder']]}）"
    if ev.get("wait"):
        text += " · " + tr(f"wait_{ev['wait']}", lang)
    return text


def source_text(source: str, lang: str) -> str:
    return source_word(source, lang)


# --- names --------------------------------------------------------------------------------

NAME_ROOM: Final = 12  # a name fits the table screen whole: 8 Chinese characters or 12 letters


def name_width(name: str) -> float:
    """A name's width in Latin letters (a CJK character is one and a half).

    >>> name_width("欧阳司马诸葛上官"), name_width("Maximilianus")
    (12.0, 12.0)
    """
    return sum(1.5 if ord(c) > 0x2E80 else 1.0 for c in name)


def names_problem(names: Sequence[str], lang: str) -> str:
    """Why these four names cannot start a session ("" if they can)."""
    for place, name in zip(PLACES, names, strict=True):
        if not name.strip():
            return tr("name_missing", lang, place=tr(f"place_{place}", lang))
        if name_width(name) > NAME_ROOM:
            return tr("name_too_long", lang, name=name)
    for i, name in enumerate(names):
        if name in names[:i]:
            return tr("names_same", lang, name=name)
    return ""
