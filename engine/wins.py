"""Wins (docs/rules.md §11–§13): a declared self-drawn win or a won claim waits in ``win_pending``
until it is confirmed — with its wait, or with the hand for the analyser to check (in
full-tile mode the engine knows the hand) — or taken back."""

from __future__ import annotations

from engine.claims import exhaustive_draw, resolve_if_answered
from engine.errors import IllegalEventError
from engine.events import ConfirmWin, RejectWin, Win
from engine.hand import HandError, analyse_win, hand_counts, is_complete, parse_meld
from engine.moves import Effect, Effects, check_turn, end_hand, hand_text, refuse, settle_now
from engine.records import MeldKind, WaitKind, WinKind
from engine.scored import ScoreHand, check_scored, pay_scored
from engine.scoring import WinHow, settlement, win_transfers
from engine.state import SeatState, TableState
from engine.tiles import ALL_TILES, Tile, TileError, format_tiles, tile_text


def win_kind(s: TableState, seat: int) -> WinKind:
    """A self-drawn win's kind (docs/rules.md §12): on a kong's replacement 杠后开花, the dealer's
    dealt tiles before the first discard 天胡, else 自摸."""
    if s.drawn == "tail":
        return "kong_bloom"
    if s.drawn == "deal" and seat == s.dealer and s.discards_made == 0:
        return "heavenly"
    return "self_drawn"


def on_win(s: TableState, ev: Win) -> Effects:
    st = check_turn(s, ev.seat, "declare a self-drawn win")
    if s.drawn is None:  # docs/rules.md §17
        raise refuse(
            s,
            ev.seat,
            "cannot declare a self-drawn win: it took this turn with a pong or chow and drew nothing",
            "win.nothing_drawn",
        )
    if st.concealed is not None and not is_complete(st.concealed, len(st.melds), s.rules.seven_pairs):
        raise refuse(s, ev.seat, f"cannot win: its hand {hand_text(st)} does not win", "win.not_winning")
    kind = win_kind(s, ev.seat)
    s.pending = {"seat": ev.seat, "kind": kind, "tile": s.last_drawn, "from": None, "prior": "turn"}
    s.phase = "win_pending"
    return [Effect("win_declared", ev.seat, s.last_drawn, kind)]


def on_confirm_win(s: TableState, ev: ConfirmWin) -> Effects:
    p = s.pending
    assert p is not None
    seat, kind, tile, frm = p["seat"], p["kind"], p["tile"], p["from"]
    st = s.seats[seat]
    wait, bonus = judge_wait(s, st, seat, tile, kind, ev)
    how: WinHow = kind if kind == "discard" or kind == "robbed_kong" else "self_drawn"
    # the payments first: nothing below may fail once the hands change
    wins = win_transfers(
        seat,
        how,
        base=s.base,
        rules=s.rules,
        wait_bonus=bonus,
        discarder=frm,
        after_kong=kind == "kong_bloom",
        heavenly=kind == "heavenly",
        bets=s.bets,
    )
    # the winning tile joins the winner's hand
    if frm is not None:
        giver = s.seats[frm]
        if kind == "discard":
            giver.discards.pop()
        else:  # robbed kong: the tile leaves the declarer's concealed hand
            giver.count -= 1
            if giver.concealed is not None and tile is not None:
                giver.concealed[tile] -= 1
        st.count += 1
        if st.concealed is not None and tile is not None:
            st.concealed[tile] += 1
    settle_now(s, wins)
    settled = settlement(
        s.hand_transfers, dealer=s.dealer, hand=s.hand, winner=seat, kind=kind, wait=wait, bonus=bonus, frm=frm
    )
    return end_hand(s, settled, seat, tile)


def judge_wait(
    s: TableState, st: SeatState, seat: int, tile: Tile | None, kind: WinKind, ev: ConfirmWin
) -> tuple[WaitKind, bool]:
    """The confirmed wait and whether it earns the bonus; a false hand is refused."""
    if st.concealed is not None and tile is not None:  # full-tile mode: the engine knows the hand
        hand = list(st.concealed)
        if kind in ("discard", "robbed_kong"):
            hand[tile] += 1
        return judge_known_hand(s, st, seat, hand, tile, ev)
    if ev.wait is not None:
        return ev.wait, s.rules.earns_bonus(ev.wait)
    return judge_given_hand(s, st, seat, tile, ev)


def judge_known_hand(
    s: TableState, st: SeatState, seat: int, hand: list[int], tile: Tile, ev: ConfirmWin
) -> tuple[WaitKind, bool]:
    """Full-tile mode: the table's own ``hand`` (the winning tile in it) is analysed; a hand or
    wait given with the confirmation must agree with it."""
    a = analyse_win(hand, tile, st.meld_tiles(), s.rules)
    if not a.winning or a.wait is None:
        raise refuse(s, seat, f"cannot confirm the win: its hand {hand_text(st)} does not win", "confirm.not_winning")
    if ev.hand is not None and (hand_counts(ev.hand) != hand or ev.win_tile != tile):
        held = format_tiles(t for t in ALL_TILES for _ in range(hand[t]))
        raise refuse(
            s,
            seat,
            f"cannot confirm the win with hand {ev.hand!r}: the table holds {held} winning on {tile_text(tile)}",
            "confirm.hand_differs",
        )
    if ev.wait is not None and ev.wait != a.wait:
        raise refuse(
            s,
            seat,
            f"cannot confirm a {ev.wait} wait: the hand reads as {a.wait} on {tile_text(tile)}",
            "confirm.wait_differs",
            wait=ev.wait,
            reads=a.wait,
        )
    return a.wait, a.bonus


def judge_given_hand(
    s: TableState, st: SeatState, seat: int, tile: Tile | None, ev: ConfirmWin
) -> tuple[WaitKind, bool]:
    """Tracked mode without a ``wait``: the ``hand``, ``win_tile`` and ``melds`` given with the
    confirmation are checked against the table and analysed."""
    if ev.hand is None or ev.win_tile is None:
        raise refuse(
            s,
            seat,
            "cannot confirm the win without its 'wait' or its 'hand' and 'win_tile' (tracked mode)",
            "confirm.needs_wait",
        )
    if tile is not None and ev.win_tile != tile:
        raise refuse(
            s,
            seat,
            f"cannot confirm a win on {tile_text(ev.win_tile)}: the winning tile was {tile_text(tile)}",
            "confirm.tile_differs",
            tile=tile_text(tile),
        )
    try:
        melds = [parse_meld(m) for m in ev.melds] if ev.melds is not None else None
        if melds is None:
            if any(m.tiles is None for m in st.melds):
                raise refuse(
                    s,
                    seat,
                    f"cannot check the hand: give its {len(st.melds)} melds ('melds');"
                    " the table does not know their tiles",
                    "confirm.melds_needed",
                    melds=len(st.melds),
                )
            melds = st.meld_tiles()
        if len(melds) != len(st.melds):
            raise refuse(
                s,
                seat,
                f"cannot confirm the win with {len(melds)} melds: seat {seat} has {len(st.melds)} on the table",
                "confirm.melds_count",
                given=len(melds),
                melds=len(st.melds),
            )
        check_melds(s, st, seat, melds, list(ev.melds or ()))
        a = analyse_win(ev.hand, ev.win_tile, melds, s.rules)
    except (HandError, TileError) as e:
        raise refuse(s, seat, f"cannot confirm the win: {e}", "confirm.bad_hand") from None
    if not a.winning or a.wait is None:
        raise refuse(
            s,
            seat,
            f"cannot confirm the win: {ev.hand} with {tile_text(ev.win_tile)} is not a winning hand"
            " (reject_win takes it back)",
            "confirm.not_winning",
        )
    return a.wait, a.bonus


def meld_kind(tiles: tuple[Tile, ...]) -> MeldKind:
    """What a checked meld (:func:`~engine.hand.parse_meld`) is: chow, pong or kong."""
    return "kong" if len(tiles) == 4 else "pong" if tiles[0] == tiles[1] else "chow"


def check_melds(s: TableState, st: SeatState, seat: int, melds: list[tuple[Tile, ...]], given: list[str]) -> None:
    """docs/rules.md §17: the melds entered with a hand must be the kinds the seat exposed (a pong is
    not a sequence), and the same tiles where the table knows them."""
    shown = sorted(m.kind for m in st.melds)
    if sorted(meld_kind(m) for m in melds) != shown:
        raise refuse(
            s,
            seat,
            f"cannot confirm the win with melds {given}: seat {seat} exposed {', '.join(shown) or 'no melds'}",
            "confirm.melds_kind",
            exposed=shown,
        )
    left = [tuple(sorted(m)) for m in melds]
    for m in st.melds:
        if m.tiles is not None:
            if m.tiles not in left:
                raise refuse(
                    s,
                    seat,
                    f"cannot confirm the win with melds {given}: the table shows {format_tiles(m.tiles)} ({m.kind})",
                    "confirm.melds_tiles",
                    shown=format_tiles(m.tiles),
                )
            left.remove(m.tiles)


def on_reject_win(s: TableState, ev: RejectWin) -> Effects:
    """A false win: play resumes exactly as before it (a false claim becomes a pass)."""
    p = s.pending
    assert p is not None
    s.pending = None
    effects = [Effect("win_withdrawn", p["seat"], None, p["kind"])]
    if p["prior"] == "turn":
        s.phase = "turn"
        return [*effects, Effect("to_move", p["seat"], data="discard")]
    c = s.claims
    assert c is not None
    c["answers"][p["seat"]] = "pass"
    s.phase = "claims"
    return effects + resolve_if_answered(s)


# --- a hand scored without play (score-only mode: engine/scored.py) --------------------------


def on_score_hand(s: TableState, ev: ScoreHand) -> Effects:
    """Pay the hand as entered, with the functions a played hand is paid with."""
    try:
        check_scored(ev, s.dealer, s.rules)
    except IllegalEventError as e:
        params = {k: v for k, v in e.params.items() if k != "seat"}
        raise refuse(s, e.params.get("seat"), str(e), e.code, **params) from None
    bets = list(ev.bets) if ev.bets is not None else list(s.bets)
    pay = pay_scored(ev, base=s.base, rules=s.rules, bets=bets)
    # everything is worked out: now the table changes
    s.bets, s.kongs, s.hand_transfers = bets, len(ev.kongs), []
    settle_now(s, pay.kongs)
    if ev.winner is None:
        return exhaustive_draw(s)
    settle_now(s, pay.wins)
    return end_hand(s, settlement(s.hand_transfers, dealer=s.dealer, hand=s.hand, winner=ev.winner, kind=ev.kind,
                                  wait=pay.wait, bonus=pay.bonus, frm=ev.discarder), ev.winner)
