"""What the table screen shows, read from the public state (DESIGN.md) — no Kivy here.

Nothing here decides a rule: buttons are offered by phase and seat, and every touch
becomes a command for the service, which the engine accepts or refuses. Seats sit on the
screen in their real places, numbered counter-clockwise seen from above: seat 0 at the
bottom, 1 on the right, 2 at the top, 3 on the left.

>>> pub = {"phase": "claims", "players": ["A", "B", "C", "D"], "turn": None,
...        "claims": {"kind": "discard", "from": 0, "tile": None, "waiting": [1, 2, 3]}}
>>> actions(pub, 1), actions(pub, 2), actions(pub, 0)
(['claim_win', 'claim_kong', 'claim_pong', 'claim_chow', 'pass'], ['claim_win', 'claim_kong', 'claim_pong', 'pass'], [])
>>> command("claim_pong", 2, pub)
{'type': 'claim', 'seat': 2, 'call': 'pong'}
"""

from __future__ import annotations

from typing import Any, Final

from engine.tiles import parse_tile, tile_name
from engine.wall import seat_counting
from table_app.ui.text import tr, wind

PLACES: Final = ("bottom", "right", "top", "left")
TURN_ACTIONS: Final = ("discard", "kong_concealed", "kong_added", "win")
CLAIM_ACTIONS: Final = ("claim_win", "claim_kong", "claim_pong", "claim_chow", "pass")


def roller(pub: dict[str, Any]) -> int | None:
    """The seat due to roll (the dealer, then the wall owner), or None."""
    if pub.get("phase") not in ("betting", "rolling") or pub.get("dealer") is None:
        return None
    dice = pub.get("dice") or {}
    if dice.get("dealer") is None:
        return int(pub["dealer"])
    return seat_counting(int(pub["dealer"]), sum(dice["dealer"]))


def actions(pub: dict[str, Any], seat: int) -> list[str]:
    """The buttons seat ``seat`` is offered now."""
    phase = pub.get("phase")
    if phase in ("betting", "rolling"):
        return ["roll"] if roller(pub) == seat else []
    if phase == "turn":
        if pub.get("turn") != seat:
            return []
        melds = ((pub.get("seats") or [{}] * 4)[seat] or {}).get("melds", [])
        has_pong = any(m.get("kind") == "pong" for m in melds)  # 加杠 extends one of its pongs
        return [a for a in TURN_ACTIONS if a != "kong_added" or has_pong]
    if phase == "claims":
        c = pub.get("claims") or {}
        if c.get("from") == seat or c.get("from") is None:
            return []
        if c.get("kind") == "rob":
            return ["claim_win", "pass"]
        nxt = (int(c["from"]) + 1) % 4
        return [a for a in CLAIM_ACTIONS if a != "claim_chow" or seat == nxt]
    return []


def led_modes(pub: dict[str, Any]) -> list[str]:
    """What each seat's light shows when no buttons' controller drives them: the seat to move
    or to roll ``on``, the seats still to answer claims ``blink``."""
    modes = ["off"] * 4
    phase = pub.get("phase")
    if phase == "turn" and isinstance(pub.get("turn"), int):
        modes[pub["turn"]] = "on"
    elif phase == "claims" and pub.get("claims"):
        for s in pub["claims"].get("waiting", []):
            modes[s] = "blink"
    elif (r := roller(pub)) is not None:
        modes[r] = "on"
    return modes


def command(action: str, seat: int, pub: dict[str, Any], **extra: Any) -> dict[str, Any]:
    """The service command for a seat's button."""
    if action == "roll":
        return {"type": "roll", "dice": list(extra["dice"]), "seat": seat}
    if action == "discard":
        return {"type": "discard", "seat": seat}
    if action in ("kong_concealed", "kong_added"):
        return {"type": "kong", "seat": seat, "kind": action.removeprefix("kong_")}
    if action == "win":
        return {"type": "win", "seat": seat}
    if action.startswith("claim_"):
        return {"type": "claim", "seat": seat, "call": action.removeprefix("claim_")}
    if action == "pass":
        return {"type": "pass", "seat": seat}
    raise ValueError(f"unknown action {action!r} for seat {seat}")


def seat_lines(pub: dict[str, Any], seat: int, lang: str, answers: dict[int, str] | None = None) -> dict[str, str]:
    """The texts of one seat's panel: title (wind, name, dealer), score, detail.

    ``answers`` are the claims and passes seen since the claims opened (the public state
    only says who is still to answer)."""
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
        elif seat not in c.get("waiting", []):
            ans = (answers or {}).get(seat)
            detail.append("✓" if ans is None else tr(f"answer_{ans}", lang))
    return {"title": title, "mark": mark, "score": f"{scores[seat]:+d}" if scores[seat] else "0",
            "detail": " · ".join(detail)}


def _meld_text(m: dict[str, Any], lang: str) -> str:
    kind = m["kind"]
    name = {"chow": "answer_chow", "pong": "answer_pong", "kong": "answer_kong"}[kind]
    text = tr(name, lang)
    if kind == "kong" and m.get("kong") == "concealed":
        text = tr("act_kong_concealed", lang)
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
