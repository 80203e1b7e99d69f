"""Paying a hand: wins, kongs and bets as transfers between seats (docs/rules.md §13–§16).

Every payment is a :class:`Transfer` ``(frm, to, amount, reason)`` with ``reason`` one of
``"win"``, ``"kong"``, ``"bet"`` and a positive whole ``amount``. There is one transfer per
payer per reason, so a table can show each; :func:`deltas` sums them per seat (the sums
always add up to zero).

Pure functions: the table state machine (``engine.table``) and ``xian-table score`` call
them with the facts of the hand; nothing here knows the wall or the journal.

docs/rules.md §16, b = 1, dealer 0. Seat 2 self-draws with a 夹张 (closed) wait:

>>> from engine.rules import XIAN
>>> deltas(win_transfers(2, "self_drawn", base=1, rules=XIAN, wait_bonus=True))
[-3, -3, 9, -3]

Seat 1 wins on seat 3's discard with a 单调 (single) wait:

>>> deltas(win_transfers(1, "discard", discarder=3, base=1, rules=XIAN, wait_bonus=True))
[0, 2, 0, -2]

Seat 1 declares a concealed kong, then wins 杠后开花 (plain wait):

>>> hand = kong_transfers(1, "concealed", base=1, rules=XIAN)
>>> hand += win_transfers(1, "self_drawn", base=1, rules=XIAN, wait_bonus=False, after_kong=True)
>>> deltas(hand)
[-6, 18, -6, -6]

Bets [0, 1, 0, 2], seat 3 self-draws (plain): the bets alone bring seat 3 +14:

>>> t = win_transfers(3, "self_drawn", base=1, rules=XIAN, wait_bonus=False, bets=[0, 1, 0, 2])
>>> deltas(x for x in t if x.reason == "bet")
[-4, -6, -4, 14]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, Literal, get_args

from engine.records import KongKind, Payment, Reason, Settlement, TransferJSON, WaitKind, WinKind
from engine.rules import Rules
from engine.seats import SEAT_RANGE, SEATS

REASONS: Final[tuple[Reason, ...]] = get_args(Reason)
WinHow = Literal["self_drawn", "discard", "robbed_kong"]
WIN_HOWS: Final[tuple[WinHow, ...]] = get_args(WinHow)
KONG_KINDS: Final[tuple[KongKind, ...]] = get_args(KongKind)

AFTER_KONG_MULTIPLIER: Final = 2  # 杠后开花
HEAVENLY_MULTIPLIER: Final = 3  # 天胡
SELF_DRAWN_BET_FACTOR: Final = 2  # 注数翻一倍


class ScoringError(ValueError):
    """Arguments that describe no payable hand: a bad seat, base, bet, way to win or kong kind."""


def _check_seat(seat: object, what: str) -> int:
    if type(seat) is not int or not 0 <= seat < SEATS:
        raise ScoringError(f"{what} must be a seat 0..3; got {seat!r}")
    return seat


def _others(seat: int) -> list[int]:
    """The other three seats, in seat order (the order a settlement lists their payments)."""
    return [s for s in SEAT_RANGE if s != seat]


def _check_base(base: object) -> int:
    if type(base) is not int or base < 1:
        raise ScoringError(f"the base must be a whole number >= 1; got {base!r}")
    return base


@dataclass(frozen=True)
class Transfer:
    """``amount`` points paid by seat ``frm`` to seat ``to`` for ``reason`` (win, kong or bet).

    >>> Transfer(3, 1, 2, "win").to_json()
    {'from': 3, 'to': 1, 'amount': 2, 'reason': 'win'}
    >>> Transfer.from_json({"from": 3, "to": 1, "amount": 2, "reason": "win"})
    Transfer(frm=3, to=1, amount=2, reason='win')
    >>> Transfer(1, 1, 2, "win")
    Traceback (most recent call last):
    ...
    engine.scoring.ScoringError: a transfer needs two different seats; got from 1 to 1
    """

    frm: int
    to: int
    amount: int
    reason: Reason

    def __post_init__(self) -> None:
        _check_seat(self.frm, "a transfer's payer ('from')")
        _check_seat(self.to, "a transfer's payee ('to')")
        if self.frm == self.to:
            raise ScoringError(f"a transfer needs two different seats; got from {self.frm} to {self.to}")
        if type(self.amount) is not int or self.amount < 1:
            raise ScoringError(f"a transfer's amount must be a whole number >= 1; got {self.amount!r}")
        if self.reason not in REASONS:
            raise ScoringError(f"a transfer's reason must be one of {', '.join(REASONS)}; got {self.reason!r}")

    def to_json(self) -> TransferJSON:
        return {"from": self.frm, "to": self.to, "amount": self.amount, "reason": self.reason}

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Transfer:
        if not isinstance(d, Mapping):
            raise ScoringError(f"a transfer must be an object with from, to, amount, reason; got {d!r}")
        keys = {"from", "to", "amount", "reason"}
        if set(d) != keys:
            missing, extra = sorted(keys - set(d)), sorted(set(d) - keys)
            raise ScoringError(f"a transfer has exactly from, to, amount, reason; missing {missing}, unknown {extra}")
        return cls(d["from"], d["to"], d["amount"], d["reason"])


def kong_transfers(
    declarer: int, kind: str, *, base: int, rules: Rules, discarder: int | None = None
) -> list[Transfer]:
    """The payments for one kong, settled when it is declared (docs/rules.md §14).

    - ``"concealed"`` 暗杠: each other seat pays 2b.
    - ``"exposed"`` 明杠 claimed from ``discarder``'s discard: each other seat pays 1b; with
      ``exposed_kong_payers="discarder"`` only the discarder pays, 3b (``discarder`` is then
      required; under ``"all"`` it is optional and only checked).
    - ``"added"`` 加杠 (the drawn fourth tile added to one's own pong): scored as an exposed
      kong, but no discard is claimed for it, so each other seat pays 1b under either value
      of ``exposed_kong_payers`` (the usual 补杠 practice: only a claimed kong, 点杠, is paid
      by the discarder alone). ``discarder`` must not be given.

    >>> from engine.rules import XIAN, Rules
    >>> [t.to_json()["amount"] for t in kong_transfers(1, "concealed", base=1, rules=XIAN)]
    [2, 2, 2]
    >>> kong_transfers(1, "exposed", base=2, rules=Rules(exposed_kong_payers="discarder"), discarder=0)
    [Transfer(frm=0, to=1, amount=6, reason='kong')]
    >>> kong_transfers(1, "exposed", base=1, rules=Rules(exposed_kong_payers="discarder"))
    Traceback (most recent call last):
    ...
    engine.scoring.ScoringError: exposed_kong_payers=discarder: an exposed kong needs the seat whose discard it claimed
    """
    _check_seat(declarer, "the kong's declarer")
    b = _check_base(base)
    if kind not in KONG_KINDS:
        raise ScoringError(f"unknown kong kind {kind!r} (kinds: {', '.join(KONG_KINDS)})")
    if discarder is not None:
        _check_seat(discarder, "the kong's discarder")
        if kind != "exposed":
            raise ScoringError(f"a {kind} kong claims no discard: give no discarder (got seat {discarder})")
        if discarder == declarer:
            raise ScoringError(f"seat {declarer} cannot claim a kong on its own discard")
    if kind == "concealed":
        return [Transfer(s, declarer, 2 * b, "kong") for s in _others(declarer)]
    if kind == "exposed" and rules.exposed_kong_payers == "discarder":
        if discarder is None:
            raise ScoringError(
                "exposed_kong_payers=discarder: an exposed kong needs the seat whose discard it claimed"
            )
        return [Transfer(discarder, declarer, 3 * b, "kong")]
    return [Transfer(s, declarer, b, "kong") for s in _others(declarer)]


def _check_bets(bets: Sequence[int]) -> list[int]:
    if isinstance(bets, str | bytes) or not isinstance(bets, Sequence) or len(bets) != SEATS:
        raise ScoringError(f"bets must be 4 whole numbers >= 0, one per seat; got {bets!r}")
    for s, n in enumerate(bets):
        if type(n) is not int or n < 0:
            raise ScoringError(f"bets must be whole numbers >= 0; seat {s} has {n!r}")
    return list(bets)


def _check_win(winner: int, how: str, discarder: int | None, *, wait_bonus: bool, after_kong: bool,
               heavenly: bool) -> None:
    """How a hand was won, checked as a whole: a known way, a discarder exactly where one is
    needed (another seat than the winner), 杠后开花 and 天胡 only on a self-drawn win, never both."""
    if how not in WIN_HOWS:
        raise ScoringError(f"unknown way to win {how!r} (ways: {', '.join(WIN_HOWS)})")
    if type(wait_bonus) is not bool:
        raise ScoringError(f"wait_bonus must be true or false; got {wait_bonus!r}")
    if how == "self_drawn":
        if discarder is not None:
            raise ScoringError(f"a self-drawn win has no discarder (got seat {discarder!r})")
    else:
        what = "the discarder" if how == "discard" else "the robbed kong's declarer"
        if discarder is None:
            raise ScoringError(f"a {how} win needs {what}")
        _check_seat(discarder, what)
        if discarder == winner:
            on = "its own discard" if how == "discard" else "its own kong"
            raise ScoringError(f"seat {winner} cannot win on {on}")
        if after_kong:
            raise ScoringError(f"杠后开花 (after_kong) is a self-drawn win on a kong replacement tile, not a {how} win")
        if heavenly:
            raise ScoringError(f"天胡 (heavenly) is the dealer's self-drawn win on the dealt tiles, not a {how} win")
    if after_kong and heavenly:
        raise ScoringError("杠后开花 and 天胡 cannot both apply: 天胡 is won on the dealt tiles, before any kong")


def win_transfers(
    winner: int,
    how: str,
    *,
    base: int,
    rules: Rules,
    wait_bonus: bool,
    discarder: int | None = None,
    after_kong: bool = False,
    heavenly: bool = False,
    bets: Sequence[int] = (0, 0, 0, 0),
) -> list[Transfer]:
    """The win and bet payments of a won hand (docs/rules.md §14, §15); kongs are paid separately.

    ``how`` is ``"self_drawn"`` 自摸 (each other seat pays 2b, 3b with the wait bonus),
    ``"discard"`` (``discarder`` pays 1b, 2b with the bonus; each of the three others under
    ``discard_win_payers="all"``) or ``"robbed_kong"`` 抢杠 (``discarder`` is the added
    kong's declarer; paid exactly like a discard win). ``wait_bonus`` says whether the wait
    earns the bonus (``engine.hand.analyse_win(...).bonus`` applies ``wait_bonus`` and
    ``edge_wait_bonus`` of the rules).

    ``after_kong`` 杠后开花 (×2) and ``heavenly`` 天胡 (×3) need a self-drawn win and multiply
    the win payment only; they cannot both hold (a 天胡 is won on the dealt tiles, before any
    kong replacement). The caller checks that a 天胡 is the dealer's.

    Bets (§15, unit ``rules.bet_unit`` or the base): each other seat s pays
    ``(bets[winner] + bets[s]) * u``, doubled on a self-drawn win, as one ``"bet"`` transfer;
    bets are paid by all three others whoever discarded. The multipliers touch bets only
    with ``multipliers_on_bets``.

    >>> from engine.rules import XIAN
    >>> deltas(win_transfers(0, "self_drawn", base=1, rules=XIAN, wait_bonus=False, heavenly=True))
    [18, -6, -6, -6]
    >>> win_transfers(1, "discard", discarder=1, base=1, rules=XIAN, wait_bonus=False)
    Traceback (most recent call last):
    ...
    engine.scoring.ScoringError: seat 1 cannot win on its own discard
    """
    _check_seat(winner, "the winner")
    b = _check_base(base)
    n = _check_bets(bets)
    _check_win(winner, how, discarder, wait_bonus=wait_bonus, after_kong=after_kong, heavenly=heavenly)
    self_drawn = how == "self_drawn"

    multiplier = AFTER_KONG_MULTIPLIER if after_kong else HEAVENLY_MULTIPLIER if heavenly else 1
    if self_drawn:
        unit, payers = (3 if wait_bonus else 2), _others(winner)
    else:
        assert discarder is not None
        unit = 2 if wait_bonus else 1
        payers = _others(winner) if rules.discard_win_payers == "all" else [discarder]
    out = [Transfer(s, winner, unit * b * multiplier, "win") for s in payers]

    u = rules.bet_unit if rules.bet_unit is not None else b
    bet_factor = (SELF_DRAWN_BET_FACTOR if self_drawn else 1) * (multiplier if rules.multipliers_on_bets else 1)
    for s in _others(winner):
        owed = (n[winner] + n[s]) * u * bet_factor
        if owed:
            out.append(Transfer(s, winner, owed, "bet"))
    return out


def deltas(transfers: Iterable[Transfer]) -> list[int]:
    """Per-seat sums of the transfers: what each seat gains (or loses); they sum to zero.

    >>> deltas([Transfer(0, 1, 2, "kong"), Transfer(3, 1, 2, "kong")])
    [-2, 4, 0, -2]
    """
    out = [0] * SEATS
    for t in transfers:
        out[t.frm] -= t.amount
        out[t.to] += t.amount
    return out


def settlement(
    transfers: Iterable[Transfer],
    *,
    dealer: int | None,
    hand: int,
    winner: int | None = None,
    kind: WinKind | None = None,
    wait: WaitKind | None = None,
    bonus: bool = False,
    frm: int | None = None,
) -> Settlement:
    """How a hand ended and what it paid (the table's ``last_settlement``): the one builder,
    for a win (``winner`` given, with its ``kind``, ``wait``, wait ``bonus`` and the seat
    ``frm`` whose discard or kong it took) and for a drawn hand (no winner).

    >>> s = settlement([Transfer(0, 1, 2, "kong")], dealer=0, hand=3)
    >>> s["result"], s["deltas"], s["bonus"], s["from"]
    ('draw', [-2, 2, 0, 0], False, None)
    """
    paid = list(transfers)
    return {
        "result": "draw" if winner is None else "win",
        "winner": winner,
        "kind": kind,
        "wait": wait,
        "bonus": bonus,
        "from": frm,
        "transfers": [t.to_json() for t in paid],
        "deltas": deltas(paid),
        "dealer": dealer,
        "hand": hand,
    }


def ranks(scores: Sequence[int]) -> list[int]:
    """Competition ranking by seat (1 is the highest score; equal scores share a rank): the one
    rule of places and ties the screens, the phones and the archive ask.

    >>> ranks([5, -3, 5, -7])
    [1, 3, 1, 4]
    """
    return [1 + sum(1 for other in scores if other > s) for s in scores]


def ranking(scores: Sequence[int]) -> list[tuple[int, int]]:
    """(rank, seat), best first; equal scores share a rank (1, 2, 2, 4).

    >>> ranking([5, -3, 5, -7])
    [(1, 0), (1, 2), (3, 1), (4, 3)]
    """
    rank = ranks(scores)
    return [(rank[s], s) for s in sorted(range(len(scores)), key=lambda s: (-scores[s], s))]


def settle_up(scores: Sequence[int]) -> list[Payment]:
    """结账 (docs/rules.md §17): the fewest payments ``{from, to, amount}`` that bring every running
    score back to zero — at most three for four players, fewer where some seats' scores
    cancel out among themselves.

    The seats are split into as many groups that sum to zero as possible (a group of n seats
    needs n - 1 payments, and never fewer when no smaller part of it sums to zero); within a
    group the largest debt is paid to the largest credit first.

    >>> settle_up([5, -3, 2, -4])
    [{'from': 1, 'to': 0, 'amount': 1}, {'from': 1, 'to': 2, 'amount': 2}, {'from': 3, 'to': 0, 'amount': 4}]
    >>> settle_up([4, -4, 7, -7])   # two pairs cancel: two payments
    [{'from': 1, 'to': 0, 'amount': 4}, {'from': 3, 'to': 2, 'amount': 7}]
    >>> settle_up([0, 0, 0, 0])
    []
    """
    if sum(scores) != 0:
        raise ScoringError(f"running scores must sum to zero to be settled; got {list(scores)!r}")
    seats = [s for s, v in enumerate(scores) if v]
    n = len(seats)
    full = (1 << n) - 1
    total = [0] * (1 << n)
    for mask in range(1, 1 << n):
        low = (mask & -mask).bit_length() - 1
        total[mask] = total[mask & (mask - 1)] + scores[seats[low]]
    # best[mask]: the most zero-sum groups ``mask`` (itself zero-sum) splits into, and one first group
    best: dict[int, tuple[int, int]] = {0: (0, 0)}
    for mask in range(1, full + 1):
        if total[mask]:
            continue
        top = (0, mask)
        sub = mask
        while sub:
            if not total[sub] and (mask ^ sub) in best and (mask & -mask) & sub:  # the group with the lowest seat
                groups = best[mask ^ sub][0] + 1
                if groups > top[0]:
                    top = (groups, sub)
            sub = (sub - 1) & mask
        best[mask] = top
    out: list[Payment] = []
    mask = full
    while mask:
        group = best[mask][1]
        members = [seats[i] for i in range(n) if group >> i & 1]
        owe = sorted(((-scores[s], s) for s in members if scores[s] < 0), key=lambda x: (-x[0], x[1]))
        get = sorted(((scores[s], s) for s in members if scores[s] > 0), key=lambda x: (-x[0], x[1]))
        debts, credits = [list(x) for x in owe], [list(x) for x in get]
        i = j = 0
        while i < len(debts) and j < len(credits):
            amount = min(debts[i][0], credits[j][0])
            out.append({"from": debts[i][1], "to": credits[j][1], "amount": amount})
            debts[i][0] -= amount
            credits[j][0] -= amount
            i += debts[i][0] == 0
            j += credits[j][0] == 0
        mask ^= group
    return sorted(out, key=lambda t: (t["from"], t["to"]))
