"""One seat's view of the table: a pure function of the public state (DESIGN.md).

Every seat display (MQTT ``seat/<n>``, the terminal seat display, the phone page) shows
the same view, built here from the public state alone, so all front ends agree.

>>> public = {"phase": "turn", "players": ["Ann", "Bo", "Cy", "Di"], "winds": ["E", "S", "W", "N"],
...           "dealer": 0, "turn": 1, "scores": [3, -1, -1, -1], "last_settlement": None, "claims": None}
>>> v = seat_view(public, 1)
>>> v["name"], v["wind"], v["dealer"], v["your_turn"], v["score"], v["rank"]
('Bo', 'S', False, True, -1, 2)
>>> v["prompt"]["en"]
'Your turn: draw, then discard'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

SEATS = 4
VIEW_SCHEMA = 1

WIND_ZH = {"E": "东", "S": "南", "W": "西", "N": "北"}
WIND_EN = {"E": "East", "S": "South", "W": "West", "N": "North"}
CALL_ZH = {"win": "胡", "kong": "杠", "pong": "碰", "chow": "吃"}


def ranks(scores: list[int]) -> list[int]:
    """Competition ranking (1 is the highest score; equal scores share a rank).

    >>> ranks([5, -3, 5, -7])
    [1, 3, 1, 4]
    """
    return [1 + sum(1 for other in scores if other > s) for s in scores]


def _who(public: Mapping[str, Any], seat: int | None) -> tuple[str, str]:
    """A seat's name with its wind, in zh and en (``Bo (South)``)."""
    if seat is None:
        return "?", "?"
    players = public.get("players") or [""] * SEATS
    name = players[seat] or f"#{seat}"
    wind = (public.get("winds") or [None] * SEATS)[seat]
    if wind is None:
        return name, name
    return f"{name}（{WIND_ZH[wind]}）", f"{name} ({WIND_EN[wind]})"


def led_modes(public: Mapping[str, Any]) -> list[str]:
    """What each seat's light shows (the panel's LEDs, GPIO LEDs, the screen's seat panels),
    read from the engine's ``actions``: ``on`` for the seat to move or to roll, ``blink`` for
    a seat that may still answer the open claims, else ``off``.

    >>> led_modes({"actions": [[], ["claim:pong", "pass"], ["pass"], []],
    ...            "claims": {"waiting": [1, 3], "answers": [None, None, "pass", None]}})
    ['off', 'blink', 'off', 'off']
    """
    actions = public.get("actions") or [[] for _ in range(SEATS)]
    waiting = (public.get("claims") or {}).get("waiting") or []
    modes = []
    for seat, acts in enumerate(actions):
        if "discard" in acts or "roll" in acts:
            modes.append("on")
        elif "pass" in acts and seat in waiting:
            modes.append("blink")
        else:
            modes.append("off")
    return modes


def can_claim(public: Mapping[str, Any], seat: int) -> bool:
    """The claims are open on another seat's tile and this seat has not answered yet."""
    claims = public.get("claims")
    return public.get("phase") == "claims" and claims is not None and seat in claims.get("waiting", ())


def prompt(public: Mapping[str, Any], seat: int) -> dict[str, str]:
    """One line telling this seat what is happening or what to do, in zh and en."""
    phase = public.get("phase")
    scores = list(public.get("scores") or [0] * SEATS)
    if phase in (None, "idle"):
        return {"zh": "等待开局", "en": "Waiting for a new session"}
    if phase == "seating":
        return {"zh": "定位：掷骰子或摸风牌", "en": "Choosing seats: roll the dice or draw winds"}
    if phase == "betting":
        return {"zh": "下注", "en": "Place your bets"}
    if phase == "rolling":
        dice = public.get("dice") or {}
        if dice.get("dealer") is None:
            zh, en = _who(public, public.get("dealer"))
            if public.get("dealer") == seat:
                return {"zh": "你是庄家：掷骰子", "en": "You are the dealer: roll the dice"}
            return {"zh": f"等待庄家 {zh} 掷骰子", "en": f"Waiting for the dealer {en} to roll"}
        return {"zh": "等待开牌的人掷骰子", "en": "Waiting for the wall's owner to roll"}
    if phase == "turn":
        turn = public.get("turn")
        if turn == seat:
            return {"zh": "轮到你：摸牌、出牌", "en": "Your turn: draw, then discard"}
        zh, en = _who(public, turn)
        return {"zh": f"等待 {zh} 出牌", "en": f"Waiting for {en} to play"}
    if phase == "claims":
        claims = public.get("claims") or {}
        tile = claims.get("tile")
        if can_claim(public, seat):
            what_zh = f"「{tile}」" if tile else "这张牌"
            what_en = f"{tile}" if tile else "the tile"
            acts = (public.get("actions") or [[]] * SEATS)[seat]
            calls = [c for c in ("win", "kong", "pong", "chow") if f"claim:{c}" in acts] or ["win", "kong", "pong"]
            return {"zh": f"可以叫{what_zh}：{'、'.join(CALL_ZH[c] for c in calls)}，或过",
                    "en": f"Claim {what_en} ({', '.join(calls)}) or pass"}
        if claims.get("from") == seat:
            return {"zh": "等待其他人叫牌", "en": "Waiting for the others to claim or pass"}
        return {"zh": "已回应，等待其他人", "en": "Answered; waiting for the others"}
    if phase == "win_pending":
        pending = public.get("pending_win") or {}
        if pending.get("seat") == seat:
            return {"zh": "确认你的胡牌", "en": "Confirm your win"}
        zh, en = _who(public, pending.get("seat"))
        return {"zh": f"{zh} 胡牌，等待确认", "en": f"{en} declared a win; waiting for the check"}
    if phase == "hand_over":
        s = public.get("last_settlement") or {}
        delta = (s.get("deltas") or [0] * SEATS)[seat]
        if s.get("result") == "draw":
            return {"zh": f"荒牌 {delta:+d}", "en": f"Drawn hand {delta:+d}"}
        if s.get("winner") == seat:
            return {"zh": f"你胡了！ {delta:+d}", "en": f"You won! {delta:+d}"}
        zh, en = _who(public, s.get("winner"))
        return {"zh": f"{zh} 胡了，你 {delta:+d}", "en": f"{en} won; you {delta:+d}"}
    if phase == "ended":
        rank = ranks(scores)[seat]
        return {"zh": f"牌局结束：第 {rank} 名，{scores[seat]:+d}",
                "en": f"Session over: rank {rank}, {scores[seat]:+d}"}
    return {"zh": str(phase), "en": str(phase)}


REASON_ZH = {"win": "胡", "kong": "杠", "bet": "注"}


def payments(public: Mapping[str, Any], seat: int) -> list[dict[str, str]]:
    """The last settled hand's payments to and from this seat, in words (zh, en).

    >>> pub = {"players": ["Ann", "阿强", "Cy", "Di"], "last_settlement": {"transfers": [
    ...     {"from": 0, "to": 1, "amount": 2, "reason": "win"}, {"from": 2, "to": 1, "amount": 1, "reason": "bet"}]}}
    >>> payments(pub, 0)
    [{'zh': '你付 阿强 2 · 胡', 'en': 'You pay 阿强 2 · win'}]
    >>> [p["en"] for p in payments(pub, 1)]
    ['Ann pays you 2 · win', 'Cy pays you 1 · bet']
    """
    players = public.get("players") or [""] * SEATS
    settlement = public.get("last_settlement") or {}
    out = []
    for t in settlement.get("transfers") or []:
        why_zh, why_en = REASON_ZH.get(t["reason"], t["reason"]), t["reason"]
        if t["from"] == seat:
            other = players[t["to"]] or f"#{t['to']}"
            out.append({"zh": f"你付 {other} {t['amount']} · {why_zh}",
                        "en": f"You pay {other} {t['amount']} · {why_en}"})
        elif t["to"] == seat:
            other = players[t["from"]] or f"#{t['from']}"
            out.append({"zh": f"{other} 付你 {t['amount']} · {why_zh}",
                        "en": f"{other} pays you {t['amount']} · {why_en}"})
    return out


def settle_up_lines(public: Mapping[str, Any], seat: int) -> list[dict[str, str]]:
    """At the end of the session: this seat's part of the fewest payments that settle up."""
    players = public.get("players") or [""] * SEATS
    out = []
    for t in public.get("settle_up") or []:
        if t["from"] == seat:
            other = players[t["to"]] or f"#{t['to']}"
            out.append({"zh": f"你付 {other} {t['amount']}", "en": f"You pay {other} {t['amount']}"})
        elif t["to"] == seat:
            other = players[t["from"]] or f"#{t['from']}"
            out.append({"zh": f"{other} 付你 {t['amount']}", "en": f"{other} pays you {t['amount']}"})
    return out


def _next_seat(public: Mapping[str, Any], seat: int) -> bool:
    """Claims are open on a discard and this seat is the discarder's 下家 (its TURN button
    then says "I drew and discarded", DESIGN "Presses")."""
    claims = public.get("claims")
    return bool(public.get("phase") == "claims" and claims and claims.get("kind") == "discard"
                and (claims["from"] + 1) % SEATS == seat)


def seat_view(public: Mapping[str, Any], seat: int, claim_left: float | None = None) -> dict[str, Any]:
    """What seat ``seat`` (0–3) shows: a JSON object, the payload of MQTT ``seat/<n>``.
    ``claim_left``: seconds until the table closes the open claim window (the service's
    figure), shown to a seat that may still claim."""
    if type(seat) is not int or not 0 <= seat < SEATS:
        raise ValueError(f"seat must be 0–3, got {seat!r}")
    players = list(public.get("players") or [""] * SEATS)
    winds = list(public.get("winds") or [None] * SEATS)
    scores = list(public.get("scores") or [0] * SEATS)
    wind = winds[seat]
    settlement = public.get("last_settlement")
    deltas = settlement.get("deltas") if settlement else None
    turn = public.get("turn")
    turn_zh, turn_en = _who(public, turn) if turn is not None else (None, None)
    return {
        "schema": VIEW_SCHEMA,
        "seat": seat,
        "name": players[seat],
        "wind": wind,
        "wind_zh": WIND_ZH.get(wind or ""),
        "wind_en": WIND_EN.get(wind or ""),
        "dealer": public.get("dealer") == seat,
        "phase": public.get("phase"),
        "your_turn": public.get("phase") == "turn" and turn == seat,
        "turn": turn,
        "turn_name": {"zh": turn_zh, "en": turn_en} if turn is not None else None,
        "can_claim": can_claim(public, seat),
        "next_seat": _next_seat(public, seat),
        "claim_left": round(claim_left, 2) if claim_left is not None and can_claim(public, seat) else None,
        "actions": list((public.get("actions") or [[]] * SEATS)[seat]),
        "score": scores[seat],
        "rank": ranks(scores)[seat],
        "last_delta": deltas[seat] if deltas else None,
        "winner": settlement.get("winner") if settlement else None,  # the last hand's, null if drawn
        "hand": public.get("hand"),
        "round": public.get("round"),
        "prompt": prompt(public, seat),
        "last_hand": payments(public, seat),
        "results": [{"hand": r["hand"], "delta": r["deltas"][seat], "won": r["winner"] == seat}
                    for r in public.get("results") or []],
        "settle_up": settle_up_lines(public, seat),
    }


def seat_views(public: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The four seats' views."""
    return [seat_view(public, s) for s in range(SEATS)]
