"""The table as every screen shows it, in words: the status line over the table, the middle's
information, the wall's line, the settlement, the end of the evening — read from the public
state, never deciding a rule (no Kivy here). Seats sit on a screen in their real places,
numbered counter-clockwise seen from above (:data:`PLACES`).

>>> from engine.table import replay
>>> from engine.public import public_state
>>> pub = public_state(replay([{"type": "new_session", "players": ["阿明", "阿华", "阿强", "阿芳"], "base": 1},
...     {"type": "seating", "method": "C", "east": 0}, {"type": "roll", "dice": [4, 6]},
...     {"type": "roll", "dice": [2, 3]}, {"type": "discard", "seat": 0}]))
>>> status_line(pub, "zh"), status_line(pub, "en")
('阿明 打出', '阿明 discarded')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, TypedDict

from engine.public import MeldPublic, PublicState
from engine.records import HandResult, Settlement
from engine.scoring import ranking, settle_up
from table_app.present.buttons import roller
from table_app.present.fees import house_both
from table_app.present.money import Money, money_each, points_text
from table_app.present.words import LANGS, Both, tile_word, tr, tr_n

PLACES: Final = ("bottom", "right", "top", "left")
"""Where each seat sits on a screen: seat 0 at the bottom, then counter-clockwise."""


def status_line(pub: PublicState, lang: str, claim_left: float | None = None) -> str:
    """The line over the table, the same for every seat: whose turn, who rolls, who discarded,
    who won; ``claim_left`` adds the seconds left to claim."""
    phase, players = pub["phase"], pub["players"]
    turn, claims, pending, settled = pub["turn"], pub["claims"], pub["pending_win"], pub["last_settlement"]
    if phase == "turn" and turn is not None:
        return tr("turn_of", lang, name=players[turn])
    r = roller(pub)
    if phase in ("betting", "rolling") and r is not None:
        if pub["bets_open"]:
            return tr("bets_then_roll", lang, name=players[r])
        return tr("rolls_next", lang, name=players[r], what=tr("roll_break", lang))
    if phase == "claims" and claims is not None:
        key = "claims_rob" if claims["kind"] == "rob" else "claims_from"
        tile = f" {tile_word(claims['tile'], lang)}" if claims["tile"] else ""
        line = tr(key, lang, name=players[claims["from"]], tile=tile)
        held = claims.get("held")  # the 下家 has pressed and waits: the others still have the window (§17)
        if held is not None:  # (said first: where the line is cut short, the seconds stay)
            cue = "held_wait" if claim_left is None else "held_left"
            return tr(cue, lang, name=players[held], s=max(0.0, claim_left or 0.0)) + " · " + line
        if claim_left is not None:
            line += " · " + tr("seconds_left", lang, s=max(0.0, claim_left))
        return line  # who is awaited: each seat's own prompt says it
    if phase == "win_pending" and pending is not None:
        return tr("win_by", lang, name=players[pending["seat"]], kind=tr(f"kind_{pending['kind']}", lang))
    if phase == "hand_over" and settled is not None:  # who won and how (who deals next: the info line)
        return hand_result(settled, players, lang)
    return tr(f"phase_{phase}", lang)


def hand_result(s: Settlement, players: Sequence[str], lang: str) -> str:
    """How a hand ended: 荒牌, or who won and how."""
    if s["winner"] is None or s["kind"] is None:
        return tr("drawn_hand", lang)
    return tr("win_by", lang, name=players[s["winner"]], kind=tr(f"kind_{s['kind']}", lang))


def info_lines(pub: PublicState, lang: str) -> tuple[str, str]:
    """The middle of the table: the hand, how many tiles are left to draw, the dice; where the
    draw starts, or who deals next (most useful first: the middle shows what fits)."""
    phase, players, b = pub["phase"], pub["players"], pub["break"]
    if phase in ("idle", "seating"):
        return tr(f"phase_{phase}", lang), ""
    first = [tr("hand_round", lang, hand=pub["hand"], round=pub["round"])]
    during = b is not None and phase not in ("hand_over", "ended")
    if during:
        first.append(tr("drawable", lang, n=pub["wall"]["drawable"]))
    rolls = [d for d in (pub["dice"]["dealer"], pub["dice"]["owner"]) if d]
    if rolls:
        first.append(tr("dice_were", lang, dice=" / ".join(f"{x}+{y}" for x, y in rolls)))
    if phase == "hand_over" and pub["next_dealer"] is not None:
        return " · ".join(first), tr("next_hand_hint", lang, dealer=players[pub["next_dealer"]])
    if b is None or not during:
        return " · ".join(first), ""
    return " · ".join(first), tr("break_at", lang, name=players[b["wall"]], stack=b["stack"])


def wall_line(pub: PublicState, lang: str) -> str:
    """Where the draw starts and what is left of the wall, in one line."""
    w, b = pub["wall"], pub["break"]
    if b is None:
        return ""
    return tr("break_at", lang, name=pub["players"][b["wall"]], stack=b["stack"]) + " · " + tr(
        "wall_line", lang, remaining=w["remaining"], drawable=w["drawable"], reserve=w["reserve_stacks"],
        kongs=w["kongs"])


def meld_text(m: MeldPublic, lang: str) -> str:
    """An exposed meld in words: 碰 三条, 吃 一二三万, 暗杠."""
    kind = m["kind"]
    text = tr("kong_concealed", lang) if kind == "kong" and m.get("kong") == "concealed" else tr(f"meld_{kind}", lang)
    tiles = m["tiles"]
    if not tiles:
        return text
    first = f"{tiles[0]}{tiles[-1]}"
    if kind != "chow":
        return f"{text} {tile_word(first, lang)}"
    if lang == "zh":
        word = tile_word(first, lang)
        return f"{text} {''.join(tile_word(f'{d}{tiles[-1]}', lang)[0] for d in tiles[:-1])}{word[1:]}"
    return f"{text} {tiles[0]}-{tiles[-2]} {tile_word(first, lang).split(' ', 1)[1]}"


# --- the settlement, the end of the evening ------------------------------------------------


def settlement_head(pub: PublicState, lang: str) -> str:
    s = pub["last_settlement"]
    if s is None:
        return tr("no_settlement", lang)
    head = hand_result(s, pub["players"], lang)
    if s["winner"] is not None and s["wait"]:
        head += " · " + tr(f"wait_{s['wait']}", lang) + (tr("bonus_yes", lang) if s["bonus"] else "")
    return head


def settlement_rows(pub: PublicState) -> list[tuple[str, int, int, int, int, int]]:
    """One row per player: name, then what the hand's 胡 · 杠 · 注 transfers brought it, the
    hand's total (本局) and the running total (总分)."""
    s = pub["last_settlement"]
    seats = range(len(pub["players"]))
    by = {r: [0 for _ in seats] for r in ("win", "kong", "bet")}
    for t in s["transfers"] if s is not None else []:
        by[t["reason"]][t["from"]] -= t["amount"]
        by[t["reason"]][t["to"]] += t["amount"]
    deltas = s["deltas"] if s is not None else [0 for _ in seats]
    return [(pub["players"][i], by["win"][i], by["kong"][i], by["bet"][i], deltas[i], pub["scores"][i])
            for i in seats]


def transfer_lines(pub: PublicState, lang: str) -> list[str]:
    """Every transfer of the last hand, in words."""
    s, players = pub["last_settlement"], pub["players"]
    return [tr("pays", lang, frm=players[t["from"]], to=players[t["to"]], amount=t["amount"],
               reason=tr(f"reason_{t['reason']}", lang)) for t in (s["transfers"] if s is not None else [])]


def running_totals(pub: PublicState) -> list[list[int]]:
    """Each seat's running total from the session's start, hand by hand (the engine's
    ``results``), and now, when kongs of the hand being played have paid already.

    >>> from engine.table import replay
    >>> from engine.public import public_state
    >>> running_totals(public_state(replay([{"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1},
    ...     {"type": "seating", "method": "C", "east": 0},
    ...     {"type": "score_hand", "winner": 2, "how": "self_drawn"}])))
    [[0, 0, 0, 0], [-2, -2, 6, -2]]
    """
    totals = [0 for _ in pub["players"]]
    series = [list(totals)]
    for r in pub["results"]:
        totals = [t + d for t, d in zip(totals, r["deltas"], strict=True)]
        series.append(list(totals))
    if pub["scores"] != series[-1]:
        series.append(list(pub["scores"]))
    return series


def settle_lines(pub: PublicState, lang: str, money: Money | None = None) -> list[str]:
    """The engine's ``settle_up`` (phase ``ended``): the fewest payments, in words (with the
    money beside the points when a point has a value: ``table_app.present.money``)."""
    players, pays = pub["players"], pub["settle_up"] or []
    if not pays:
        return [tr("settle_none", lang)]
    return [tr("settle_pay", lang, frm=players[p["from"]], to=players[p["to"]],
               amount=points_text(p["amount"], money, lang)) for p in pays]


def hand_line(r: HandResult, seat: int, lang: str) -> str:
    """One hand of the session as a seat lists it: a drawn hand says so (荒牌, its kongs may
    still have paid), a won hand says the seat won it.

    >>> drawn = {"hand": 2, "dealer": 0, "result": "draw", "winner": None, "kind": None, "from": None,
    ...          "deltas": [0, 0, 0, 0]}
    >>> hand_line(drawn, 1, "zh"), hand_line(drawn, 1, "en")
    ('第2局 荒牌 0', 'hand 2: drawn 0')
    >>> hand_line({**drawn, "result": "win", "winner": 1, "deltas": [-1, 3, -1, -1]}, 1, "en")
    'hand 2: won +3'
    """
    delta = r["deltas"][seat]
    key = "pg_hand_drawn" if r["result"] == "draw" or r["winner"] is None else \
        "pg_hand_won" if r["winner"] == seat else "pg_hand_plain"
    return tr(key, lang, hand=r["hand"], delta=f"{delta:+d}" if delta else "0")


class RankLine(TypedDict):
    rank: int
    seat: int
    name: str
    score: int
    line: Both


class FinalView(TypedDict):
    """The end of a session as a phone shows and shares it: the ranking and the settle-up, each
    line in both languages, and the whole as text to share (one text per language)."""

    title: Both
    ranking: list[RankLine]
    settle: list[Both]
    house: list[Both]  # what the house is owed (台费, 茶水: ``present.fees``), beside the settle-up; [] without a fee
    text: Both
    ended: bool  # False: a session a new one was started over before it ended (the settle-up the engine's still)


def final_view(pub: PublicState, money: Money | None = None) -> FinalView | None:
    """The ended session's ranking and settle-up (None before the session has ended).

    >>> from engine.table import replay
    >>> from engine.public import public_state
    >>> f = final_view(public_state(replay([{"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1},
    ...     {"type": "seating", "method": "C", "east": 0},
    ...     {"type": "score_hand", "winner": 2, "how": "self_drawn"}, {"type": "end_session"}])))
    >>> print(f["text"]["en"])
    Session over · 1 hand
    Ranking
    #1 C +6
    #2 A -2
    #2 B -2
    #2 D -2
    Settle up
    A pays C 2
    B pays C 2
    D pays C 2
    >>> print(final_view(public_state(replay([{"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1},
    ...     {"type": "seating", "method": "C", "east": 0},
    ...     {"type": "score_hand", "winner": 2, "how": "self_drawn"}, {"type": "end_session"}])),
    ...     Money.of("0.5"))["text"]["zh"].replace("\xa0", " "))
    牌局结束 · 共 1 局
    每分 0.5 元
    排名
    第1名 C +6 分（+3 元）
    第2名 A -2 分（-1 元）
    第2名 B -2 分（-1 元）
    第2名 D -2 分（-1 元）
    结账
    A 给 C 2 分（1 元）
    B 给 C 2 分（1 元）
    D 给 C 2 分（1 元）
    """
    return session_view(pub, money) if pub["phase"] == "ended" else None


def session_view(pub: PublicState, money: Money | None = None) -> FinalView:
    """A session's ranking and settle-up, as :func:`final_view` words them — also for a session
    a new one was started over before it was ended (the phones' last session): its settle-up is
    the engine's fewest payments of its scores all the same."""
    players, scores, ended = pub["players"], pub["scores"], pub["phase"] == "ended"
    if not ended:
        pub = pub.copy()
        pub["settle_up"] = settle_up(scores)

    def title(lang: str) -> str:
        head = tr("final", lang) if ended else tr("pg_not_ended", lang)
        return head + " · " + tr_n("hands_played", lang, len(pub["results"]))

    def rank_line(rank: int, seat: int, lang: str) -> str:
        return tr("pg_rank_line", lang, rank=rank, name=players[seat], score=points_text(scores[seat], money, lang,
                                                                                        signed=True))

    rows: list[RankLine] = [{"rank": rank, "seat": seat, "name": players[seat], "score": scores[seat],
                             "line": {"zh": rank_line(rank, seat, "zh"), "en": rank_line(rank, seat, "en")}}
                            for rank, seat in ranking(scores)]
    settle = dict(zip(LANGS, (settle_lines(pub, lang, money) for lang in LANGS), strict=True))
    each = {lang: [] if money is None else [money_each(money, lang)] for lang in LANGS}
    house = house_both(pub, money) if ended else []
    to_house = {lang: [tr("fe_house", lang), *(h["zh" if lang == "zh" else "en"] for h in house)] if house else []
                for lang in LANGS}
    text = {lang: "\n".join([title(lang), *each[lang], tr("pg_ranking", lang), *(r["line"][lang] for r in rows),
                             tr("pg_pays", lang), *settle[lang], *to_house[lang]]) for lang in LANGS}
    return {"title": {"zh": title("zh"), "en": title("en")}, "ranking": rows,
            "settle": [{"zh": zh, "en": en} for zh, en in zip(settle["zh"], settle["en"], strict=True)],
            "house": house, "text": {"zh": text["zh"], "en": text["en"]}, "ended": ended}

