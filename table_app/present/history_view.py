"""The archive in words (issue 29): a session, a hand, a replay's step and a player's record as
the lines a player reads, zh and en — one wording for the touchscreen, the table page and the
phones. An event is worded by ``present/history.py`` (the undo history's sentences), here
marked when it was undone.

>>> from table_app.archive.model import HandSummary
>>> h = HandSummary(hand=2, round=1, dealer=0, result="win", winner=1, kind="discard", self_drawn=False,
...                 transfers=[], deltas=[0, 4, -4, 0], totals=[1, 4, -5, 0], first_seq=30, last_seq=90,
...                 discarder=2, players=["阿明", "阿华", "阿强", "阿芳"])
>>> hand_line(h, "zh")
'第2局  庄阿明  阿华 点炮（阿强放炮）  阿华 +4 · 阿强 -4'
>>> hand_line(h, "en")
'Hand 2  dealer 阿明  阿华 on a discard (off 阿强)  阿华 +4 · 阿强 -4'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from engine.errors import InvalidEventError
from engine.events import parse_event
from engine.public import PublicState
from engine.tiles import parse_tile
from table_app.present.history import describe, sentence
from table_app.present.words import tr

if TYPE_CHECKING:
    from table_app.archive.model import HandSummary, PlayerRecord, RecordRow, SessionSummary, Step

SEP = " · "


def when(iso: str, lang: str) -> str:
    """A journal time (UTC) as the table's local date and time: ``2026-12-03 19:05``."""
    try:
        t = datetime.fromisoformat(iso).astimezone()
    except ValueError:
        return iso
    return t.strftime("%Y-%m-%d %H:%M")


def _signed(n: int) -> str:
    return f"{n:+d}" if n else "0"


def ranking_text(players: Sequence[str], totals: Sequence[int], ranking: Sequence[int], lang: str) -> str:
    return SEP.join(tr("ar_score", lang, name=players[s], points=_signed(totals[s])) for s in ranking)


def session_line(s: SessionSummary, lang: str) -> str:
    """A session on one line: when, hands, base, each player's total best first (in play: marked)."""
    key = "ar_session_one" if s.hands == 1 else "ar_session"
    line = tr(key, lang, when=when(s.started, lang), hands=s.hands, base=s.base,
              ranking=ranking_text(s.players, s.totals, s.ranking, lang))
    return line if s.finished else line + tr("ar_playing", lang)


def settle_lines(s: SessionSummary, lang: str) -> list[str]:
    """The session's settle-up (结账), one payment a line."""
    if not s.settle_up:
        return [tr("settle_none", lang)]
    return [tr("settle_pay", lang, frm=s.players[p["from"]], to=s.players[p["to"]], amount=p["amount"])
            for p in s.settle_up]


def result_text(h: HandSummary, lang: str) -> str:
    """Who won how (荒牌 for a drawn hand)."""
    if h.result == "unfinished":
        return tr("ar_unfinished", lang)
    if h.result != "win" or h.winner is None:
        return tr("drawn_hand", lang)
    names = h.players or ["?"] * 4
    kind = tr(f"kind_{h.kind}", lang) if h.kind else ""
    if h.discarder is not None and not h.self_drawn:
        return tr("ar_win_from", lang, name=names[h.winner], kind=kind, frm=names[h.discarder])
    return tr("ar_win", lang, name=names[h.winner], kind=kind)


def hand_line(h: HandSummary, lang: str) -> str:
    """A hand on one line: its number, the dealer, the result and who gained or lost what."""
    names = h.players or ["?"] * 4
    deltas = SEP.join(f"{names[s]} {_signed(d)}" for s, d in enumerate(h.deltas) if d)
    dealer = names[h.dealer] if h.dealer is not None else "-"
    return tr("ar_hand", lang, hand=h.hand, dealer=dealer, result=result_text(h, lang), deltas=deltas).rstrip()


def transfer_lines(h: HandSummary, lang: str) -> list[str]:
    """Every payment of the hand (wins, kongs, bets)."""
    names = h.players or ["?"] * 4
    return [tr("pays", lang, frm=names[t["from"]], to=names[t["to"]], amount=t["amount"],
               reason=tr(f"reason_{t['reason']}", lang)) for t in h.transfers]


def _east(state: Mapping[str, object]) -> int | None:
    winds = state.get("winds")
    return winds.index("E") if isinstance(winds, list) and "E" in winds else None


def _names(state: Mapping[str, object]) -> list[str]:
    players = state.get("players")
    return [str(p) for p in players] if isinstance(players, list) else ["?"] * 4


def step_caption(step: Step, state: PublicState | Mapping[str, object], lang: str) -> str:
    """One replay step in words (the state: the public state after it), undone ones marked."""
    try:
        ev = parse_event(step.event)
    except InvalidEventError:
        caption = str(step.event.get("type", "?"))
    else:
        claims = state.get("claims")
        last = None
        if isinstance(claims, dict) and claims.get("kind") == "discard":
            tile = claims.get("tile")
            last = (int(claims["from"]), parse_tile(tile) if isinstance(tile, str) else None)
        dice = state.get("dice")
        rolled = isinstance(dice, dict) and dice.get("owner") is not None  # (a roll: the second of the hand)
        caption = sentence(ev, _names(state), lang, last, rolled, _east(state))
    return tr("ar_undone_mark", lang, caption=caption) if step.undone else caption


def step_captions(steps: Sequence[Step], final: PublicState | Mapping[str, object], lang: str) -> list[str]:
    """Every step of a replay in words, read in order (a claim says whose tile it was): the
    names and East of ``final`` (the state after the last step); undone steps marked and left
    out of what the others refer to."""
    done = [s for s in steps if not s.undone]
    words = iter(describe([parse_event(s.event) for s in done], _names(final), lang, _east(final)))
    out = []
    for s in steps:
        out.append(step_caption(s, final, lang) if s.undone else next(words))
    return out


def counted(what: str, n: int, lang: str) -> str:
    """``n`` of ``what`` (sessions, hands, wins, self_draws, kongs): "3场", "1 session", "3 sessions"."""
    return tr(f"ar_n_{what}_1" if n == 1 else f"ar_n_{what}", lang, n=n)


def record_line(r: RecordRow, lang: str) -> str:
    period = r.period if r.period is not None else tr("ar_all_time", lang)
    return tr("ar_record", lang, period=period, sessions=counted("sessions", r.sessions, lang),
              hands=counted("hands", r.hands, lang), wins=counted("wins", r.wins, lang),
              self_draws=counted("self_draws", r.self_draws, lang), kongs=counted("kongs", r.kongs, lang),
              net=_signed(r.net))


def record_lines(r: PlayerRecord, lang: str) -> list[str]:
    """A player's record: the name, then a line a period (newest first)."""
    if not r.periods or not any(p.hands for p in r.periods):
        return [r.name, tr("ar_no_record", lang)]
    return [r.name, *(record_line(p, lang) for p in r.periods)]


def leaderboard_lines(rows: Sequence[RecordRow], lang: str) -> list[str]:
    """The leaderboard, best first (equal net: equal rank)."""
    out = []
    for r in rows:
        rank = 1 + sum(1 for o in rows if o.net > r.net)
        out.append(tr("ar_board_row", lang, rank=rank, name=r.name, net=_signed(r.net),
                      sessions=counted("sessions", r.sessions, lang), hands=counted("hands", r.hands, lang),
                      wins=counted("wins", r.wins, lang)))
    return out or [tr("ar_no_record", lang)]
