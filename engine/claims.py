"""Claims on a discard or on an added kong's tile (docs/rules.md §8): who may claim what, and how the
claims resolve — win (the nearest seat) > kong = pong > chow, else the next seat draws or
the hand is drawn (§10). The 下家 that has drawn while the others may still claim (its TURN,
a ``pass`` that ``drew``) waits for them: its draw is made when the claims close with no claim
(docs/rules.md §17, the quick 下家)."""

from __future__ import annotations

from typing import Final

from engine.errors import RuleError
from engine.events import Claim, Discard, Pass, Resolve
from engine.hand import is_complete
from engine.moves import Effect, Effects, draw, end_hand, hand_text, on_discard, pong_for, refuse, settle_now
from engine.records import Answer, Call, Claims, WinKind
from engine.scoring import Transfer, kong_transfers, settlement
from engine.seats import OTHERS, next_seat
from engine.state import Meld, SeatState, TableState
from engine.tiles import CHOW_PAIRS, SEQUENCE_WAITS, Tile, format_tiles, tile_text
from engine.wall import REPLACEMENT_LAYER

HELD_FOR: Final[dict[Call, int]] = {"pong": 2, "kong": 3, "chow": 2}
"""What a call needs in the hand (docs/rules.md §8): a pong two of the tile, an exposed kong three, a
chow two tiles (that make a sequence with it)."""


def on_claim(s: TableState, ev: Claim) -> Effects:
    c = s.claims
    assert c is not None
    frm, tile, seat = c["from"], c["tile"], ev.seat
    if seat == frm:
        what = "its own discard" if c["kind"] == "discard" else "its own kong"
        raise refuse(s, seat, f"cannot claim {ev.call} on {what}", "claim.own", call=ev.call)
    check_not_held(s, seat, ev.call)
    st = s.seats[seat]
    if c["kind"] == "rob" and ev.call != "win":
        raise refuse(
            s,
            seat,
            f"cannot {ev.call}: an added kong's tile may only be robbed with a win (抢杠)",
            "claim.rob_only_win",
            call=ev.call,
        )
    chosen: tuple[Tile, ...] | None = None
    if ev.call == "win":
        check_win_claim(s, st, seat, tile)
    elif ev.call in ("pong", "kong"):
        check_pong_or_kong(s, st, seat, tile, ev.call)
    else:
        chosen = check_chow(s, st, seat, frm, tile, ev.tiles)
    c["answers"][seat] = ev.call
    c["tiles"][seat] = chosen
    return resolve_if_answered(s)


def restates(s: TableState, ev: Claim) -> bool:
    """Whether ``ev`` says again what its seat has already answered in these claims: the same
    call (a chow: the same two tiles, or any chow after one that named none). A changed answer
    is no restatement (§8).

    >>> from engine.table import replay
    >>> s = replay([{"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1},
    ...             {"type": "seating", "method": "C", "east": 0},
    ...             {"type": "roll", "dice": [4, 6]}, {"type": "roll", "dice": [2, 3]},
    ...             {"type": "discard", "seat": 0}, {"type": "claim", "seat": 2, "call": "pong"}])
    >>> restates(s, Claim(2, "pong")), restates(s, Claim(2, "win")), restates(s, Claim(3, "pong"))
    (True, False, False)
    """
    c = s.claims
    if s.phase != "claims" or c is None or c["answers"][ev.seat] != ev.call:
        return False
    if ev.call != "chow" or c["tiles"][ev.seat] is None:  # (after a chow that named no tiles, any chow)
        return True
    try:
        chosen = check_chow(s, s.seats[ev.seat], ev.seat, c["from"], c["tile"], ev.tiles)
    except RuleError:
        return False  # (not this chow: the handler says why)
    return chosen == c["tiles"][ev.seat]


def check_not_restated(s: TableState, ev: Claim) -> None:
    """docs/rules.md §17: a claim said again in the same claims is refused, not recorded twice
    (a double tap on 碰). A rule for new events only: a journal that holds a repeated claim
    from before it is read as it was written (``engine.table.check_new_event``)."""
    if restates(s, ev):
        raise refuse(s, ev.seat, f"has already claimed {ev.call} on this tile: once is enough", "claim.again",
                     call=ev.call)


def check_win_claim(s: TableState, st: SeatState, seat: int, tile: Tile | None) -> None:
    """A win on the claimed tile: in full-tile mode the hand must be complete with it (§11)."""
    if st.concealed is not None and tile is not None:
        hand = bytearray(st.concealed)
        hand[tile] += 1
        if not is_complete(hand, len(st.melds), s.rules.seven_pairs):
            raise refuse(
                s,
                seat,
                f"cannot win on {tile_text(tile)}: its hand {hand_text(st)} does not win with it",
                "claim.not_winning",
                tile=tile_text(tile),
            )


def check_pong_or_kong(s: TableState, st: SeatState, seat: int, tile: Tile | None, call: Call) -> None:
    """A pong or an exposed kong: the tiles it needs in the hand (``HELD_FOR``), and a kong a
    replacement tile left in the wall."""
    need = HELD_FOR[call]
    if st.count < need:
        raise refuse(
            s,
            seat,
            f"cannot {call}: it holds only {st.count} concealed tiles",
            "claim.too_few",
            call=call,
            held=st.count,
        )
    if st.concealed is not None and tile is not None and st.concealed[tile] < need:
        raise refuse(
            s,
            seat,
            f"cannot {call} {tile_text(tile)}: it holds {st.concealed[tile]} of them, {call} needs {need}",
            "claim.not_held",
            call=call,
            tile=tile_text(tile),
            held=st.concealed[tile],
            need=need,
        )
    if call == "kong" and s.wall.remaining == 0:
        raise refuse(s, seat, "cannot kong: no tile is left for its replacement draw", "claim.wall_empty", call="kong")


def check_chow(
    s: TableState, st: SeatState, seat: int, frm: int, tile: Tile | None, given: tuple[Tile, ...] | None
) -> tuple[Tile, ...] | None:
    """A chow: only by the discarder's 下家, with two tiles in the hand, on a suit tile; the
    two tiles it takes (:func:`chow_tiles`)."""
    nxt = next_seat(frm)
    if seat != nxt:
        raise refuse(
            s, seat, f"cannot chow: only seat {nxt}, the discarder's 下家, may chow", "chow.not_next", next=nxt
        )
    if st.count < HELD_FOR["chow"]:
        raise refuse(
            s,
            seat,
            f"cannot chow: it holds only {st.count} concealed tiles",
            "claim.too_few",
            call="chow",
            held=st.count,
        )
    if tile is not None and not CHOW_PAIRS[tile]:
        raise refuse(
            s,
            seat,
            f"cannot chow {tile_text(tile)}: honours make no sequences",
            "chow.honour",
            tile=tile_text(tile),
        )
    return chow_tiles(s, st, seat, tile, given)


def chow_tiles(
    s: TableState, st: SeatState, seat: int, tile: Tile | None, given: tuple[Tile, ...] | None
) -> tuple[Tile, ...] | None:
    """The two tiles of the claimer's hand that make a sequence with the discard (checked)."""
    pair: tuple[Tile, ...] | None = None
    if given is not None:
        if len(given) == 3:
            if tile is None:
                raise refuse(
                    s,
                    seat,
                    f"cannot chow {format_tiles(given)}: the discard was not named, give the two tiles from the hand",
                    "chow.bad_tiles",
                )
            if tile not in given:
                raise refuse(
                    s,
                    seat,
                    f"cannot chow {format_tiles(given)}: the sequence must include the discard {tile_text(tile)}",
                    "chow.bad_tiles",
                )
            rest = list(given)
            rest.remove(tile)
            pair = tuple(rest)
        else:
            pair = given
        if tile is not None:
            if tuple(sorted(pair)) not in CHOW_PAIRS[tile]:
                raise refuse(
                    s,
                    seat,
                    f"cannot chow {tile_text(tile)} with {format_tiles(pair)}: they make no sequence",
                    "chow.bad_tiles",
                )
        elif tuple(sorted(pair)) not in SEQUENCE_WAITS:  # tracked mode: some tile must make a sequence with them
            raise refuse(
                s,
                seat,
                f"cannot chow with {format_tiles(pair)}: no tile makes a sequence with them",
                "chow.bad_tiles",
            )
    if st.concealed is not None and tile is not None:
        conc = st.concealed
        held = [o for o in CHOW_PAIRS[tile] if conc[o[0]] and conc[o[1]]]  # (two different tiles)
        if pair is None:
            if not held:
                raise refuse(
                    s,
                    seat,
                    f"cannot chow {tile_text(tile)}: its hand {hand_text(st)} has no two tiles for it",
                    "chow.not_held",
                    tile=tile_text(tile),
                )
            if len(held) > 1:
                opts = " or ".join(format_tiles(o) for o in held)
                raise refuse(
                    s,
                    seat,
                    f"cannot chow {tile_text(tile)} without saying which tiles: {opts}",
                    "chow.which",
                    options=[format_tiles(o) for o in held],
                )
            pair = held[0]
        elif tuple(sorted(pair)) not in held:
            raise refuse(
                s,
                seat,
                f"cannot chow with {format_tiles(pair)}: its hand {hand_text(st)} does not hold them",
                "chow.not_held",
                tile=tile_text(tile),
            )
    return None if pair is None else tuple(sorted(pair))


def on_pass(s: TableState, ev: Pass) -> Effects:
    c = s.claims
    assert c is not None
    if ev.seat == c["from"]:
        raise refuse(s, ev.seat, "cannot pass: it is the seat that opened these claims", "pass.own")
    check_not_held(s, ev.seat, "pass")
    if ev.drew:
        check_may_draw(s, ev.seat)
        c["held"] = ev.seat
    c["answers"][ev.seat] = "pass"
    c["tiles"][ev.seat] = None
    return resolve_if_answered(s)


def check_not_held(s: TableState, seat: int, answer: Answer) -> None:
    """docs/rules.md §17: the 下家 that has drawn during the claims (its held draw) keeps that
    answer until the claims close — it has seen the wall's next tile; an undo takes it back."""
    c = s.claims
    if c is not None and c["held"] == seat:
        raise refuse(s, seat, f"cannot {answer}: it has drawn and waits for the others (its answer stands)",
                     "claim.drew")


def check_may_draw(s: TableState, seat: int) -> None:
    """A ``pass`` that ``drew``: only the discarder's 下家, on a discard, while no claim is pending."""
    c = s.claims
    assert c is not None
    nxt = next_seat(c["from"])
    if c["kind"] != "discard" or seat != nxt:
        raise refuse(s, seat, f"cannot draw now: only seat {nxt}, the discarder's 下家, draws after a discard",
                     "pass.not_next", next=nxt)
    pending = prevailing_claim(c)
    if pending is not None:
        raise refuse(s, seat, f"cannot draw: seat {pending[0]}'s {pending[1]} is pending", "pass.claim_pending",
                     claimant=pending[0], call=pending[1])


def resolve_if_answered(s: TableState) -> Effects:
    c = s.claims
    assert c is not None
    if c["answers"].count(None) == 1:  # the others have answered (the discarder never does)
        return resolve_claims(s)
    return []


CLAIM_RANK: Final[dict[Answer | None, int]] = {"win": 0, "kong": 1, "pong": 1, "chow": 2}
"""docs/rules.md §8: win > kong = pong > chow."""


def prevailing_claim(c: Claims) -> tuple[int, Call] | None:
    """The claim that takes effect when the claims close: the highest call (``CLAIM_RANK``),
    on a tie the seat nearest the discarder counter-clockwise (§8, §17); None if nobody claimed."""
    claimed = [(seat, a) for seat in OTHERS[c["from"]] if (a := c["answers"][seat]) is not None and a != "pass"]
    return min(claimed, key=lambda claim: CLAIM_RANK[claim[1]]) if claimed else None  # (min keeps the nearest)


def resolve_claims(s: TableState, ev: Resolve | None = None) -> Effects:
    """The prevailing claim takes effect (§8); with none, the next seat draws or the hand is drawn (§10)."""
    c = s.claims
    assert c is not None
    frm, tile, held = c["from"], c["tile"], c["held"]
    taken = prevailing_claim(c)
    if taken is not None and taken[1] == "win":
        winner = taken[0]
        kind: WinKind = "discard" if c["kind"] == "discard" else "robbed_kong"
        s.pending = {"seat": winner, "kind": kind, "tile": tile, "from": frm, "prior": "claims"}
        s.phase = "win_pending"
        return [Effect("win_declared", winner, tile, kind)]
    if c["kind"] == "rob":  # nobody robbed the added kong: it stands
        return complete_added_kong(s)
    s.claims = None
    if taken is None:
        if s.drawable == 0:
            return exhaustive_draw(s)
        drew = draw(s, next_seat(frm), None)
        if held is None or s.full:  # (full-tile mode: the 下家 names its discard on the screen)
            return [drew]
        return [drew, *on_discard(s, Discard(held))]  # its held draw: it drew and discarded (§17)
    taker, call = taken
    assert call != "win"  # (taken above)
    st = s.seats[taker]
    s.seats[frm].discards.pop()
    if call == "chow":
        pair = c["tiles"][taker]
        st.count -= 2
        if st.concealed is not None and pair is not None:
            for x in pair:
                st.concealed[x] -= 1
        meld_tiles = None if pair is None or tile is None else tuple(sorted((*pair, tile)))
        st.melds.append(Meld("chow", meld_tiles, None, frm))
    else:
        n = 2 if call == "pong" else 3
        st.count -= n
        if st.concealed is not None and tile is not None:
            st.concealed[tile] -= n
        st.melds.append(
            Meld(call, None if tile is None else (tile,) * (n + 1), "exposed" if call == "kong" else None, frm)
        )
    effects = [Effect("claim_taken", taker, tile, call)]
    if call == "kong":
        s.kongs += 1
        settle_now(s, kong_transfers(taker, "exposed", base=s.base, rules=s.rules, discarder=frm))
        effects.append(Effect("kong", taker, tile, "exposed"))
        effects.append(draw(s, taker, REPLACEMENT_LAYER["exposed"]))
    else:
        s.turn, s.drawn, s.last_drawn, s.phase = taker, None, None, "turn"
        effects.append(Effect("to_move", taker, data="discard"))
    return effects


def complete_added_kong(s: TableState) -> Effects:
    c = s.claims
    assert c is not None
    seat, tile = c["from"], c["tile"]
    st = s.seats[seat]
    i = pong_for(s, st, seat, tile)
    old = st.melds[i]
    tiles = old.tiles if old.tiles is not None else None if tile is None else (tile,) * 3
    st.melds[i] = Meld("kong", None if tiles is None else (*tiles, tiles[0]), "added", old.frm)
    st.count -= 1
    if st.concealed is not None and tile is not None:
        st.concealed[tile] -= 1
    s.claims = None
    s.kongs += 1
    settle_now(s, kong_transfers(seat, "added", base=s.base, rules=s.rules))
    return [Effect("kong", seat, tile, "added"), draw(s, seat, REPLACEMENT_LAYER["added"])]


def exhaustive_draw(s: TableState) -> Effects:
    """荒牌 (§10): no winner; kong payments stand unless ``kong_paid_on_draw`` is off."""
    if not s.rules.kong_paid_on_draw:
        back = [Transfer(t.to, t.frm, t.amount, t.reason) for t in s.hand_transfers]
        settle_now(s, back)
    return end_hand(s, settlement(s.hand_transfers, dealer=s.dealer, hand=s.hand))


on_resolve = resolve_claims  # the handler of ``resolve``: close the window now
