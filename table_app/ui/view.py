"""What the table screen shows, read from the public state (DESIGN.md) — no Kivy here.

Nothing here decides a rule: each seat's buttons are the engine's ``actions`` for it, and
a button sends the press it stands for (or, for 过 and a roll by touch, the event itself);
the service turns presses into events with the engine's one button mapping. Seats sit on
the screen in their real places, numbered counter-clockwise seen from above: seat 0 at the
bottom, 1 on the right, 2 at the top, 3 on the left.

>>> pub = {"phase": "claims", "players": ["A", "B", "C", "D"], "turn": None,
...        "actions": [[], ["claim:win", "claim:pong", "claim:chow", "pass"], ["claim:win", "pass"], []]}
>>> buttons(pub, 1), buttons(pub, 2), buttons(pub, 0)
(['claim_win', 'claim_pong', 'claim_chow', 'pass'], ['claim_win', 'pass'], [])
>>> command("claim_pong", 2)
{'type': 'press', 'seat': 2, 'button': 'PENG', 'held': False}
"""

from __future__ import annotations

from typing import Any, Final

from engine.tiles import parse_tile, tile_name
from table_app.seat_view import led_modes
from table_app.ui.text import tr, wind

PLACES: Final = ("bottom", "right", "top", "left")
PRESS_OF: Final = {"discard": "TURN", "kong": "GANG", "win": "HU", "claim_win": "HU", "claim_kong": "GANG",
                   "claim_pong": "PENG", "claim_chow": "CHI"}
"""The button a seat panel's action stands for (the same press as the table's wired buttons)."""

__all__ = ["PLACES", "PRESS_OF", "buttons", "command", "led_modes", "roller"]


def buttons(pub: dict[str, Any], seat: int) -> list[str]:
    """The buttons seat ``seat`` is offered now: the engine's ``actions`` (``claim:pong`` is the
    ``claim_pong`` button)."""
    acts = (pub.get("actions") or [[], [], [], []])[seat]
    return [a.replace(":", "_") for a in acts]


def roller(pub: dict[str, Any]) -> int | None:
    """The seat due to roll: the one whose ``actions`` hold ``roll``."""
    return next((s for s, acts in enumerate(pub.get("actions") or []) if "roll" in acts), None)


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


def seat_lines(pub: dict[str, Any], seat: int, lang: str) -> dict[str, str]:
    """The texts of one seat's panel: title (wind, name, dealer), score, detail."""
    players = pub.get("players") or ["", "", "", ""]
    winds = pub.get("winds") or [None] * 4
    dealer = pub.get("dealer") == seat
    title = f"{wind(winds[seat], lang)} {players[seat]}".strip()
    mark = ""
    if dealer:
        mark = tr("dealer", lang)
        if pub.get("dealer_streak"):
            mark += " " + tr("streak", lang, n=pub["dealer_streak"])
    scores = pub.get("scores") or [0, 0, 0, 0]
    bets = pub.get("bets") or [0, 0, 0, 0]
    detail = [f"{tr('bet', lang)} {bets[seat]}"]
    seats = pub.get("seats")
    if seats:
        s = seats[seat]
        detail.append(tr("concealed_n", lang, n=s["concealed"]))
        if s["melds"]:
            detail.append(" ".join(_meld_text(m, lang) for m in s["melds"]))
        river = tr("discards_n", lang, n=len(s["discards"]))
        known = [t for t in s["discards"] if t]
        if known:  # full-tile mode (the demo): the last discards by name
            river += " " + " ".join(tile_name(parse_tile(t), lang) if lang == "zh" else t for t in known[-6:])
        detail.append(river)
    c = pub.get("claims")
    if pub.get("phase") == "claims" and c:
        if c.get("from") == seat:
            detail.append(tr("discarder", lang))
        elif (ans := (c.get("answers") or [None] * 4)[seat]) is not None:
            detail.append(tr(f"answer_{ans}", lang))
    return {"title": title, "mark": mark, "score": f"{scores[seat]:+d}" if scores[seat] else "0",
            "detail": " · ".join(detail)}


def _meld_text(m: dict[str, Any], lang: str) -> str:
    kind = m["kind"]
    name = {"chow": "answer_chow", "pong": "answer_pong", "kong": "answer_kong"}[kind]
    text = tr(name, lang)
    if kind == "kong" and m.get("kong") == "concealed":
        text = tr("kong_concealed", lang)
    if m.get("tiles"):
        text += m["tiles"]
    return f"[{text}]"


def status_line(pub: dict[str, Any], lang: str, claim_left: float | None = None) -> str:
    """The line at the top: whose turn, who rolls, the claim window."""
    phase = pub.get("phase", "idle")
    players = pub.get("players") or ["", "", "", ""]
    if phase == "turn" and pub.get("turn") is not None:
        return tr("turn_of", lang, name=players[pub["turn"]])
    if phase in ("betting", "rolling"):
        r = roller(pub)
        if r is not None:
            first = (pub.get("dice") or {}).get("dealer") is None
            what = tr("roll_wall" if first else "roll_break", lang)
            head = tr("phase_betting", lang) + " · " if phase == "betting" else ""
            return head + tr("rolls_next", lang, name=players[r], what=what)
    if phase == "claims" and pub.get("claims"):
        c = pub["claims"]
        key = "claims_rob" if c.get("kind") == "rob" else "claims_from"
        tile = f" {tile_name(parse_tile(c['tile']), lang)}" if c.get("tile") else ""
        line = tr(key, lang, name=players[c["from"]], tile=tile)
        if claim_left is not None:
            line += " · " + tr("seconds_left", lang, s=max(0.0, claim_left))
        waiting = [players[s] for s in c.get("waiting", [])]
        if waiting:
            line += " · " + tr("waiting_on", lang, names=", ".join(waiting))
        return line
    if phase == "win_pending" and pub.get("pending_win"):
        p = pub["pending_win"]
        return tr("win_by", lang, name=players[p["seat"]], kind=tr(f"kind_{p['kind']}", lang))
    return tr(f"phase_{phase}", lang)


def info_line(pub: dict[str, Any], lang: str) -> str:
    """Hand and round, dice, the break point and the drawable count (the centre of the table)."""
    if pub.get("phase") in (None, "idle", "seating"):
        return tr(f"phase_{pub.get('phase') or 'idle'}", lang)
    parts = [tr("hand_round", lang, hand=pub.get("hand", 1), round=pub.get("round", 1))]
    dice = pub.get("dice") or {}
    rolls = [d for d in (dice.get("dealer"), dice.get("owner")) if d]
    if rolls:
        parts.append(tr("dice", lang) + " " + " / ".join(f"{a}+{b}" for a, b in rolls))
    return "  ".join(parts)


def settlement_lines(pub: dict[str, Any], lang: str) -> list[str]:
    """Every transfer of the last hand, then each seat's delta and new total."""
    s = pub.get("last_settlement")
    if not s:
        return []
    players = pub.get("players") or ["", "", "", ""]
    out = []
    if s.get("result") == "draw":
        out.append(tr("drawn_hand", lang))
    else:
        head = tr("win_by", lang, name=players[s["winner"]], kind=tr(f"kind_{s['kind']}", lang))
        if s.get("wait"):
            head += " · " + tr(f"wait_{s['wait']}", lang) + (tr("bonus_yes", lang) if s.get("bonus") else "")
        out.append(head)
    for t in s.get("transfers", []):
        out.append(tr("pays", lang, frm=players[t["from"]], to=players[t["to"]], amount=t["amount"],
                      reason=tr(f"reason_{t['reason']}", lang)))
    return out


def score_rows(pub: dict[str, Any], lang: str) -> list[tuple[str, str, str]]:
    """(name, this hand's delta, total) per seat."""
    s = pub.get("last_settlement") or {}
    deltas = s.get("deltas") or [0, 0, 0, 0]
    players = pub.get("players") or ["", "", "", ""]
    scores = pub.get("scores") or [0, 0, 0, 0]
    return [(players[i], f"{deltas[i]:+d}", str(scores[i])) for i in range(4)]
