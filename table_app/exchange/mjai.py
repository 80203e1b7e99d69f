"""A session's events as mjai records (docs/export.md): the tile notation, and the one
converter both ``xian-table export`` and ``xian-table import`` use.

Every xian-table event becomes exactly one record carrying it whole in ``"xian"`` (and its
journal time in ``"xian_at"``): mjai's own record where mjai has one (``discard`` is
``dahai``, a concealed ``kong`` is ``ankan``), else an extension record ``xian_<type>``.
What the event made happen follows as records without ``"xian"``, made from the engine's
effects: draws (``tsumo``), claimed melds (``pon``, ``chi``, ``daiminkan``), the deal
(``xian_break``, ``xian_reserve``, ``start_kyoku``), the kong reserve after a kong, and the
settlement (``hora`` or ``ryukyoku``, then ``end_kyoku``). A tile the table does not know —
every tile in tracked mode, where only counts are kept — is ``"?"``.

Import replays the ``"xian"`` events and asks this converter for the records again: a file
whose records are not exactly what its events give is refused (an edited mjai part never
disagrees silently with what is imported).

>>> c = MjaiSession()
>>> c.feed({"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1}, "2026-12-03T20:00:00.000+00:00")
[{'type': 'start_game', 'names': ['A', 'B', 'C', 'D'], 'xian': {'type': 'new_session', 'players': ['A', 'B', 'C', \
'D'], 'base': 1}, 'xian_at': '2026-12-03T20:00:00.000+00:00'}]
>>> from engine.tiles import parse_tiles
>>> mjai_tile(parse_tiles("5p")[0]), mjai_tile(parse_tiles("5z")[0]), mjai_tile(None)
('5p', 'C', '?')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from engine.event_base import Event
from engine.events import Discard, Kong, Name, parse_event
from engine.legal import roller
from engine.moves import Effect
from engine.public import house_bill
from engine.records import Settlement
from engine.state import TableState
from engine.table import check_new_event, new_table, push
from engine.tiles import ALL_TILES, HONOURS, RANKS, SUITS, Tile

__all__ = ["FORMAT", "HONOUR_LETTERS", "UNKNOWN", "VERSION", "MjaiSession", "Record", "mjai_tile"]

FORMAT: Final = "xian-table mjai"
VERSION: Final = 1
"""The version of this format (docs/export.md); a reader refuses a version it does not know."""
UNKNOWN: Final = "?"
HONOUR_LETTERS: Final = "ESWNCFP"
"""mjai's honours in xian-table's order 1z..7z: 东 南 西 北 中 发 白 (mjai: P 白, F 發, C 中)."""
WINDS: Final = "ESWN"
OWN_TYPES: Final = {"new_session": "start_game", "discard": "dahai", "end_session": "end_game", "bets": "xian_bet",
                    "roll": "xian_dice", "seating": "xian_seating"}
"""The record an event is, where it is not ``xian_<type>`` (a kong: ``ankan`` or ``kakan``)."""
MELD_TYPES: Final = {"pong": "pon", "chow": "chi", "kong": "daiminkan"}

Record = dict[str, object]


def mjai_tile(tile: Tile | None) -> str:
    """A tile in mjai's notation: ``1m``…``9m``, ``1p``…``9p``, ``1s``…``9s``, ``E S W N C F P``;
    ``"?"`` for a tile the table does not know."""
    if tile is None:
        return UNKNOWN
    if tile >= HONOURS:
        return HONOUR_LETTERS[tile - HONOURS]
    return f"{tile % RANKS + 1}{SUITS[tile // RANKS]}"


def _tiles(counts: bytearray | None, count: int, leave_out: Tile | None = None) -> list[str]:
    """A concealed hand in mjai notation, sorted (``count`` unknown tiles in tracked mode)."""
    if counts is None:
        return [UNKNOWN] * count
    out = [mjai_tile(t) for t in ALL_TILES for _ in range(counts[t])]
    if leave_out is not None:
        out.remove(mjai_tile(leave_out))
    return out


class MjaiSession:
    """One session's converter: :meth:`feed` applies an event to its own table (the engine's
    ``push``, after the checks a new event passes: ``check_new_event``) and gives its records.
    A refused event raises the engine's :class:`~engine.errors.RuleError` and changes nothing."""

    def __init__(self, number: int | None = None) -> None:
        self.state: TableState = new_table()
        self.number = number  # the session's number in the exporting journal (start_game's xian_session)

    def feed(self, data: Mapping[str, object] | Event, at: str | None, *, new: bool = True) -> list[Record]:
        """The records of one more event. ``new``: checked as a new event (import); an export of
        journaled events reads them as they were written (an old journal's name, say)."""
        s = self.state
        event = parse_event(data)
        if new:
            check_new_event(s, event)
        before_kongs = s.kongs
        claims_from = s.claims["from"] if s.claims is not None else None
        tsumogiri = s.drawn is not None and s.last_drawn is not None and isinstance(event, Discard) \
            and event.tile == s.last_drawn
        rolling = roller(s)
        effects = push(s, event)
        own = self._own(event, rolling, tsumogiri)
        own["xian"] = event.to_json()
        if at is not None:
            own["xian_at"] = at
        out = [own]
        for effect in effects:
            out.extend(self._derived(effect, event, claims_from))
        if s.kongs != before_kongs and not any(r["type"] == "xian_reserve" for r in out):
            out.append(self._reserve())
        return out

    # --- the event's own record ------------------------------------------------------------

    def _own(self, event: Event, rolling: int | None, tsumogiri: bool) -> Record:
        s = self.state
        j = event.to_json()
        kind = OWN_TYPES.get(event.TYPE, f"xian_{event.TYPE}")
        if isinstance(event, Kong):
            pai = mjai_tile(event.tile)
            if event.kind == "concealed":
                return {"type": "ankan", "actor": event.seat, "consumed": [pai] * 4}
            return {"type": "kakan", "actor": event.seat, "pai": pai, "consumed": [pai] * 3}
        if isinstance(event, Discard):
            return {"type": kind, "actor": event.seat, "pai": mjai_tile(event.tile), "tsumogiri": tsumogiri}
        if event.TYPE == "new_session":
            return {"type": kind, "names": list(s.players)} if self.number is None else \
                {"type": kind, "names": list(s.players), "xian_session": self.number}
        if event.TYPE == "seating":
            return {"type": kind, "names": list(s.players), "oya": s.dealer}
        if event.TYPE == "bets":
            return {"type": kind, "bets": list(s.bets)}
        if event.TYPE == "roll":
            return {"type": kind, "actor": rolling, "dice": j["dice"]}
        if isinstance(event, Name):
            return {"type": kind, "actor": event.seat, "name": event.name}
        if event.TYPE == "end_session" and (house := house_bill(s)) is not None:
            return {"type": kind, "xian_house": dict(house)}
        seat = event.seat_of
        return {"type": kind} if seat is None else {"type": kind, "actor": seat}

    # --- what the event made happen -------------------------------------------------------

    def _derived(self, effect: Effect, event: Event, claims_from: int | None) -> list[Record]:
        what = effect.what
        if what == "dealt":
            return self._deal()
        if what == "drew":
            return [{"type": "tsumo", "actor": effect.seat, "pai": mjai_tile(effect.tile)}]
        if what == "claims_open" and effect.data == "discard" and not isinstance(event, Discard):
            # the 下家's held draw in tracked mode: its discard is made when the claims close
            return [{"type": "dahai", "actor": effect.seat, "pai": mjai_tile(effect.tile), "tsumogiri": False}]
        if what == "claim_taken" and effect.data in MELD_TYPES:
            assert effect.seat is not None and claims_from is not None
            return [self._meld(effect.seat, claims_from, effect.tile, effect.data)]
        if what == "kong":
            return [self._reserve()]
        if what == "hand_over":
            return self._settled(effect.data, effect.tile)
        return []

    def _deal(self) -> list[Record]:
        s = self.state
        bp, dealer, east = s.breakpoint, s.dealer, s.east
        assert bp is not None and dealer is not None and east is not None
        jump = s.last_drawn  # the dealer's 14th tile: mjai deals 13 and lets the dealer draw
        tehais = [_tiles(st.concealed, st.count - (seat == dealer), jump if seat == dealer else None)
                  for seat, st in enumerate(s.seats)]
        kyoku: Record = {"type": "start_kyoku", "bakaze": WINDS[(s.round - 1) % 4], "kyoku": (dealer - east) % 4 + 1,
                         "honba": s.dealer_streak, "kyotaku": 0, "oya": dealer, "scores": list(s.scores),
                         "dora_marker": UNKNOWN, "tehais": tehais, "xian_hand": s.hand}
        return [{"type": "xian_break", **bp.to_json(), "dice": [list(bp.dealer_roll), list(bp.owner_roll)]},
                self._reserve(), kyoku, {"type": "tsumo", "actor": dealer, "pai": mjai_tile(jump)}]

    def _reserve(self) -> Record:
        """The kong reserve (留牌墩, docs/rules.md §10): stacks kept back after this hand's kongs."""
        s = self.state
        return {"type": "xian_reserve", "kongs": s.kongs, "stacks": s.reserve_stacks, "drawable": s.drawable,
                "remaining": s.wall.remaining}

    def _meld(self, seat: int, target: int, tile: Tile | None, call: str) -> Record:
        meld = self.state.seats[seat].melds[-1]
        pai = mjai_tile(tile)
        size = 3 if call == "kong" else 2
        if meld.tiles is not None and tile is not None:
            consumed = [mjai_tile(t) for t in meld.tiles]
            consumed.remove(pai)
        else:
            consumed = [UNKNOWN] * size
        return {"type": MELD_TYPES[call], "actor": seat, "target": target, "pai": pai, "consumed": consumed}

    def _settled(self, st: Settlement, tile: Tile | None) -> list[Record]:
        s = self.state
        common = {"deltas": list(st["deltas"]), "scores": list(s.scores), "xian_transfers": list(st["transfers"])}
        winner = st["winner"]
        if st["result"] == "win" and winner is not None:
            frm = st["from"]
            hora: Record = {"type": "hora", "actor": winner, "target": winner if frm is None else frm,
                            "pai": mjai_tile(tile), **common, "xian_kind": st["kind"], "xian_wait": st["wait"],
                            "xian_bonus": st["bonus"]}
            return [hora, {"type": "end_kyoku"}]
        return [{"type": "ryukyoku", "reason": "fanpai", **common}, {"type": "end_kyoku"}]
