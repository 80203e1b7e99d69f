"""The history in sentences: each event of a session as a player would say it ("阿华 碰 阿明的
三条"), and where it came from (the journal's source) in words.

>>> from engine.events import parse_event
>>> events = [parse_event(e) for e in ({"type": "discard", "seat": 0, "tile": "3s"},
...                                    {"type": "claim", "seat": 1, "call": "pong"})]
>>> describe(events, ["阿明", "阿华", "阿强", "阿芳"], "zh")
['阿明 出牌 三条', '阿华 碰 阿明的 三条']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from engine.event_base import Event
from engine.events import Bets, Claim, ConfirmWin, Discard, Kong, Name, NewSession, Pass, Roll, Seating, Win
from engine.fees import FeeSetting
from engine.scored import ScoreHand
from engine.session_events import Fee
from engine.tiles import tile_text
from table_app.present.words import known, names_list, tile_word, tr

PLAIN: Final = ("resolve", "reject_win", "next_hand", "end_session")
"""The events told without a name or a tile."""


def describe(events: Sequence[Event], names: Sequence[str], lang: str, east: int | None = None) -> list[str]:
    """Each event of a session as a sentence, read in order so that a claim can say whose tile it
    was. ``names`` are the players by seat as the table holds them now (seating by everyone
    rolling moves them), ``east`` the East seat (the engine's winds)."""
    out = []
    last: tuple[int, int | None] | None = None  # (discarder, tile) of the open discard
    rolls = 0  # the rolls of this hand so far (the first chooses the wall, the second the break)
    for ev in events:
        out.append(sentence(ev, names, lang, last, rolls > 0, east))
        if isinstance(ev, Discard):
            last = (ev.seat, ev.tile)
        elif isinstance(ev, Roll):
            rolls += 1
        elif ev.TYPE in ("next_hand", "new_session"):
            rolls = 0
    return out


def _tile(tile: int | None, lang: str) -> str:
    return "" if tile is None else f" {tile_word(tile_text(tile), lang)}"


def sentence(ev: Event, names: Sequence[str], lang: str, last: tuple[int, int | None] | None = None,
             rolled: bool = False, east: int | None = None) -> str:
    """One event in words (``last``: the open discard, ``rolled``: the hand's first roll is made)."""

    def who(seat: int | None) -> str:
        return names[seat] if seat is not None and 0 <= seat < len(names) else "?"

    if isinstance(ev, NewSession):
        return tr("ev_new_session", lang, names=names_list(ev.players, lang), base=ev.base)
    if isinstance(ev, Seating):
        if ev.method == "A" and ev.dice is not None:
            return tr("ev_seating_A", lang, name=who(ev.roller), dice="+".join(map(str, ev.dice)), east=who(east))
        return tr(f"ev_seating_{ev.method}", lang, east=who(east))
    if isinstance(ev, Bets):
        listed = [f"{who(s)} {n}" for s, n in enumerate(ev.bets) if n]
        return tr("ev_bets", lang, list=names_list(listed, lang)) if listed else tr("ev_bets_none", lang)
    if isinstance(ev, Roll):
        dice = "+".join(map(str, ev.dice))
        if ev.seat is not None:
            return tr("ev_roll", lang, name=who(ev.seat), dice=dice)
        return tr("ev_roll_break" if rolled else "ev_roll_wall", lang, dice=dice)
    if isinstance(ev, Discard):
        return tr("ev_discard", lang, name=who(ev.seat), tile=_tile(ev.tile, lang))
    if isinstance(ev, Claim):
        whose = "" if last is None else tr("ev_whose", lang, name=who(last[0]), tile=_tile(last[1], lang)) \
            if last[1] is not None else tr("ev_whose_tile", lang, name=who(last[0]))
        return tr("ev_claim", lang, name=who(ev.seat), call=tr(f"call_{ev.call}", lang), whose=whose)
    if isinstance(ev, Pass):
        return tr("ev_drew" if ev.drew else "ev_pass", lang, name=who(ev.seat))
    if isinstance(ev, Kong):
        return tr("ev_kong", lang, name=who(ev.seat), kind=tr(f"kong_{ev.kind}", lang), tile=_tile(ev.tile, lang))
    if isinstance(ev, Win):
        return tr("ev_win", lang, name=who(ev.seat))
    if isinstance(ev, ConfirmWin):
        wait = f" · {tr('wait_' + ev.wait, lang)}" if ev.wait else tr("by_hand", lang) if ev.hand else ""
        return tr("ev_confirm_win", lang, wait=wait)
    if isinstance(ev, ScoreHand):
        return tr("ev_score_hand", lang, what=scored_words(ev, names, lang))
    if isinstance(ev, Name):
        return tr("ev_name", lang, name=ev.name)
    if isinstance(ev, Fee):
        return tr("ev_fee", lang, what=fee_words(ev.fee, lang)) if ev.fee else tr("ev_fee_none", lang)
    return tr(f"ev_{ev.TYPE}", lang) if ev.TYPE in PLAIN else ev.TYPE


def scored_words(ev: ScoreHand, names: Sequence[str], lang: str) -> str:
    """A ``score_hand`` in words: 阿明 自摸 · 夹张 (its kind as the engine names it)."""
    if ev.winner is None or ev.kind is None:
        return tr("drawn_hand", lang)
    text = f"{names[ev.winner]} {tr('kind_' + ev.kind, lang)}"
    if ev.discarder is not None:
        text += f" ({names[ev.discarder]})" if lang == "en" else f"（{names[ev.discarder]}）"
    if ev.wait:
        text += " · " + tr(f"wait_{ev.wait}", lang)
    return text


def fee_words(fee: FeeSetting, lang: str) -> str:
    """A fee setting in one line: 每小时 30，最低 20，封顶 100，AA，茶水每人 5.

    >>> fee_words(FeeSetting("hour", 30, min=20, cap=100, tea=5), "en")
    '30 an hour, at least 20, at most 100, split evenly, tea 5 each'
    >>> fee_words(FeeSetting("round", 20, payer="big_winner"), "zh")
    '每圈 20，大赢家付'
    """
    parts = [tr(f"ev_fee_{fee.mode}", lang, rate=fee.rate)]
    if fee.min:
        parts.append(tr("ev_fee_min", lang, n=fee.min))
    if fee.cap is not None:
        parts.append(tr("ev_fee_cap", lang, n=fee.cap))
    parts.append(tr(f"ev_fee_{fee.payer}", lang))
    if fee.tea:
        parts.append(tr("ev_fee_tea", lang, n=fee.tea))
    return ("，" if lang == "zh" else ", ").join(parts)


def source_word(source: str, lang: str) -> str:
    """Where an event came from, in words: ``gpio press 1:TURN`` is 按钮."""
    head = (source or "").split(" ", 1)[0]
    return tr(f"src_{head}", lang) if known(f"src_{head}") else tr("src_other", lang)
