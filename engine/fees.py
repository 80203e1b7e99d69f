"""The table fee (台费) and tea (茶水费) of a session (docs/rules.md "Fees"): its setting and its bill.

A :class:`FeeSetting` says how the house charges — per started hour, per settled hand (局), per
round begun (圈) or once per session, at least ``min`` and at most ``cap`` — who pays the table
fee (``aa``: equal shares; ``big_winner``: 大赢家付; ``winners``: in proportion to their
winnings) and each seat's ``tea``. :func:`bill` is a pure function of the setting and the
session's results and time: whole points, the table fee's shares summing to it exactly.

>>> s = FeeSetting.from_json({"mode": "hand", "rate": 5, "payer": "big_winner", "tea": 2})
>>> s.to_json()
{'mode': 'hand', 'rate': 5, 'min': 0, 'cap': None, 'payer': 'big_winner', 'tea': 2}
>>> b = bill(s, hands=8, rounds=2, seconds=5400, scores=[30, -10, -5, -15])
>>> b.to_json()
{'mode': 'hand', 'units': 8, 'fee': 40, 'table': [40, 0, 0, 0], 'tea': [2, 2, 2, 2], 'total': 48}
>>> FeeSetting.from_json({"mode": "day", "rate": 5})
Traceback (most recent call last):
...
engine.errors.InvalidEventError: fee: 'mode' must be one of hour, hand, round, session, got 'day'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Final, Literal, TypedDict, get_args

from engine.errors import InvalidEventError
from engine.fields import MAX_AMOUNT, amount_text
from engine.seats import SEAT_RANGE, SEATS

FeeMode = Literal["hour", "hand", "round", "session"]
FEE_MODES: Final[tuple[FeeMode, ...]] = get_args(FeeMode)
FeePayer = Literal["aa", "big_winner", "winners"]
FEE_PAYERS: Final[tuple[FeePayer, ...]] = get_args(FeePayer)
FEE_FIELDS: Final = ("mode", "rate", "min", "cap", "payer", "tea")
HOUR: Final = 3600
class FeeJSON(TypedDict):
    mode: FeeMode
    rate: int
    min: int
    cap: int | None
    payer: FeePayer
    tea: int
"""A fee setting's JSON, every key (``FeeSetting.to_json``): in events, the config, the public state."""
class BillJSON(TypedDict):
    mode: FeeMode
    units: int
    fee: int
    table: list[int]
    tea: list[int]
    total: int
"""A bill's JSON (``Bill.to_json``): the public state's ``house``."""
MAX_SECONDS: Final = 10**9
"""The longest session an ``end_session`` may record (about 31 years): bills stay short numbers."""


def _quoted(obj: Mapping[str, object]) -> str:
    """``repr`` of a setting for an error, even one holding an int too long to convert."""
    try:
        return repr(dict(obj))
    except ValueError:
        return "a fee setting holding a number too long to print"


def _amount(value: object, name: str, etype: str, src: Mapping[str, object], none_ok: bool = False) -> int | None:
    if value is None and none_ok:
        return None
    if type(value) is not int or not 0 <= value <= MAX_AMOUNT:
        also = " or null" if none_ok else ""
        raise InvalidEventError(f"{etype}: {name!r} must be a whole number 0..{MAX_AMOUNT:,}{also}, "
                                f"got {amount_text(value)} in {_quoted(src)}")
    return value


@dataclass(frozen=True)
class FeeSetting:
    """How the house charges a session: ``rate`` points per ``mode``'s unit, clamped to
    ``min``..``cap`` (None: no cap), split by ``payer``; ``tea`` from each seat. Checked when
    built (:class:`InvalidEventError` quoting the bad value); the JSON has every key.

    >>> FeeSetting("hour", 30, min=20, cap=100)
    FeeSetting(mode='hour', rate=30, min=20, cap=100, payer='aa', tea=0)
    >>> FeeSetting("hour", 30, min=200, cap=100)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    engine.errors.InvalidEventError: fee: 'min' (200) must not be above 'cap' (100) in {'mode': 'hour', 'rate': 30, ...}
    """

    mode: FeeMode
    rate: int
    min: int = 0
    cap: int | None = None
    payer: FeePayer = "aa"
    tea: int = 0

    def __post_init__(self) -> None:
        src = self.to_json()
        if self.mode not in FEE_MODES:
            raise InvalidEventError(f"fee: 'mode' must be one of {', '.join(FEE_MODES)}, got {self.mode!r}")
        if self.payer not in FEE_PAYERS:
            raise InvalidEventError(f"fee: 'payer' must be one of {', '.join(FEE_PAYERS)}, got {self.payer!r}")
        _amount(self.rate, "rate", "fee", src)
        _amount(self.min, "min", "fee", src)
        _amount(self.cap, "cap", "fee", src, none_ok=True)
        _amount(self.tea, "tea", "fee", src)
        if self.cap is not None and self.min > self.cap:
            raise InvalidEventError(f"fee: 'min' ({self.min}) must not be above 'cap' ({self.cap}) "
                                    f"in {_quoted(src)}")

    @classmethod
    def from_json(cls, obj: object, etype: str = "fee") -> FeeSetting:
        """The setting a JSON object describes (``mode`` and ``rate`` required; the rest optional,
        null as absent); ``etype`` names the event or place it came from in an error.

        >>> FeeSetting.from_json({"mode": "session", "rate": 50, "tip": 1})  # doctest: +ELLIPSIS
        Traceback (most recent call last):
        ...
        engine.errors.InvalidEventError: fee: unknown key 'tip' (keys: mode, rate, min, cap, payer, tea) in {...}
        """
        if isinstance(obj, FeeSetting):
            return obj
        if not isinstance(obj, Mapping):
            raise InvalidEventError(f"{etype}: a fee setting is an object like {{'mode': 'hour', 'rate': 30}}, "
                                    f"got {obj!r}")
        for key in obj:
            if key not in FEE_FIELDS:
                raise InvalidEventError(f"{etype}: unknown key {key!r} (keys: {', '.join(FEE_FIELDS)}) "
                                        f"in {_quoted(obj)}")
        for key in ("mode", "rate"):
            if obj.get(key) is None:
                raise InvalidEventError(f"{etype}: a fee setting needs {key!r} in {_quoted(obj)}")
        given = {k: v for k, v in obj.items() if v is not None}
        try:
            return cls(**given)
        except InvalidEventError as e:
            msg = str(e)
            raise InvalidEventError(msg if etype == "fee" else msg.replace("fee:", f"{etype}: fee:", 1)) from None

    def to_json(self) -> FeeJSON:
        return {"mode": self.mode, "rate": self.rate, "min": self.min, "cap": self.cap, "payer": self.payer,
                "tea": self.tea}


@dataclass(frozen=True)
class Bill:
    """What the house is owed for a session: ``units`` of ``mode`` made the table ``fee``;
    ``table`` is each seat's share of it, ``tea`` each seat's tea."""

    mode: FeeMode
    units: int
    fee: int
    table: tuple[int, int, int, int]
    tea: tuple[int, int, int, int]

    @property
    def total(self) -> int:
        return self.fee + sum(self.tea)

    def owed(self, seat: int) -> int:
        """What ``seat`` pays the house: its share of the table fee and its tea."""
        return self.table[seat] + self.tea[seat]

    def to_json(self) -> BillJSON:
        return {"mode": self.mode, "units": self.units, "fee": self.fee, "table": list(self.table),
                "tea": list(self.tea), "total": self.total}


def units(setting: FeeSetting, *, hands: int, rounds: int, seconds: int | None) -> int:
    """How many of the setting's units the session used: started hours (``ceil(seconds / 3600)``;
    0 when the time is not known), settled hands, rounds begun, or the one session.

    >>> h = FeeSetting("hour", 30)
    >>> [units(h, hands=1, rounds=1, seconds=t) for t in (None, 0, 1, 3600, 3601)]
    [0, 0, 1, 1, 2]
    """
    if setting.mode == "hour":
        return started_hours(seconds)
    return {"hand": hands, "round": rounds, "session": 1}[setting.mode]


def started_hours(seconds: int | None) -> int:
    """The hours a session of ``seconds`` has begun: a started hour counts once a second of it
    has passed (0 when the time is not known).

    >>> [started_hours(t) for t in (None, 0, 1, 3600, 3601)]
    [0, 0, 1, 1, 2]
    """
    return -(-seconds // HOUR) if seconds else 0


def next_hour_in(seconds: int) -> int:
    """The seconds from ``seconds`` until another hour is started (:func:`started_hours`), so that
    a page may move its fee on in time.

    >>> [next_hour_in(t) for t in (0, 1, 3600, 3700, 7200)]
    [1, 3600, 1, 3501, 1]
    """
    return started_hours(seconds) * HOUR + 1 - seconds


def bill(setting: FeeSetting, *, hands: int, rounds: int, seconds: int | None, scores: Sequence[int]) -> Bill:
    """The session's bill: the table fee ``clamp(rate × units, min, cap)`` split by the payer
    rule, and each seat's tea. A session with no settled hand (``hands == 0``) owes nothing.

    ``hands``: the session's settled hands (won, drawn or scored); ``rounds``: the 圈 of the last
    settled hand (0: none); ``seconds``: the session's length (None: not known); ``scores``: the
    four final scores.

    >>> hourly = FeeSetting("hour", 30, min=40, cap=100)
    >>> [bill(hourly, hands=3, rounds=1, seconds=t, scores=[5, -5, 0, 0]).fee for t in (1800, 5400, 4 * 3600)]
    [40, 60, 100]
    >>> bill(hourly, hands=0, rounds=0, seconds=1800, scores=[0, 0, 0, 0]).to_json()
    {'mode': 'hour', 'units': 1, 'fee': 0, 'table': [0, 0, 0, 0], 'tea': [0, 0, 0, 0], 'total': 0}
    """
    if len(scores) != SEATS or any(type(x) is not int for x in scores):
        raise ValueError(f"bill: 'scores' must be 4 whole numbers, got {scores!r}")
    if min(hands, rounds, seconds or 0) < 0:
        raise ValueError(f"bill: hands, rounds and seconds are >= 0, got {hands}, {rounds}, {seconds}")
    n = units(setting, hands=hands, rounds=rounds, seconds=seconds)
    if hands == 0:
        return Bill(setting.mode, n, 0, (0, 0, 0, 0), (0, 0, 0, 0))
    fee = max(setting.rate * n, setting.min)
    if setting.cap is not None:
        fee = min(fee, setting.cap)
    t = setting.tea
    return Bill(setting.mode, n, fee, split(fee, setting.payer, scores), (t, t, t, t))


def split(fee: int, payer: FeePayer, scores: Sequence[int]) -> tuple[int, int, int, int]:
    """The table fee's shares by seat, whole points summing to ``fee`` exactly.

    - ``aa``: equal shares; the remainder one point each to the seats with the highest final
      scores (ties: the lower seat first);
    - ``big_winner``: the seat with the highest score pays all; seats tied at the top split it
      as ``aa`` does among them; with no seat above 0, ``aa``;
    - ``winners``: the seats above 0 in proportion to their scores, the remainder by largest
      remainder (ties: the lower seat first); with no seat above 0, ``aa``.

    >>> split(10, "aa", [-5, 20, 20, -35])
    (2, 3, 3, 2)
    >>> split(25, "big_winner", [30, -40, 30, -20])
    (13, 0, 12, 0)
    >>> split(10, "winners", [20, 10, -30, 0])
    (7, 3, 0, 0)
    """
    top = max(scores)
    if payer == "big_winner" and top > 0:
        return _shares(fee, [s for s in SEAT_RANGE if scores[s] == top], scores)
    winners = [s for s in SEAT_RANGE if scores[s] > 0]
    if payer == "winners" and winners:
        total = sum(scores[s] for s in winners)
        share = {s: fee * scores[s] // total for s in winners}
        left = fee - sum(share.values())
        by_remainder = sorted(winners, key=lambda s: (-(fee * scores[s] % total), s))
        for s in by_remainder[:left]:
            share[s] += 1
        return _seats(share)
    return _shares(fee, list(SEAT_RANGE), scores)


def _shares(fee: int, payers: list[int], scores: Sequence[int]) -> tuple[int, int, int, int]:
    """``fee`` in equal shares among ``payers``, the remainder to the highest scores (lower seat first)."""
    each, left = divmod(fee, len(payers))
    share = dict.fromkeys(payers, each)
    for s in sorted(payers, key=lambda s: (-scores[s], s))[:left]:
        share[s] += 1
    return _seats(share)


def _seats(share: Mapping[int, int]) -> tuple[int, int, int, int]:
    a, b, c, d = (share.get(s, 0) for s in SEAT_RANGE)
    return a, b, c, d


def bill_so_far(public: Mapping[str, object], seconds: int | None) -> Bill | None:
    """The bill of the session a public state shows, were it to end after ``seconds`` (a viewer's
    "fee so far": ``seconds`` = now − the session's start); None when it has no fee. Reads the
    public state's ``fee``, ``session_hands``, ``session_rounds`` and ``scores``.

    >>> p = {"fee": {"mode": "round", "rate": 20, "payer": "aa"}, "session_hands": 5, "session_rounds": 2,
    ...      "scores": [12, -4, -4, -4]}
    >>> bill_so_far(p, 600).to_json()
    {'mode': 'round', 'units': 2, 'fee': 40, 'table': [10, 10, 10, 10], 'tea': [0, 0, 0, 0], 'total': 40}
    """
    fee = public.get("fee")
    if fee is None:
        return None
    hands, rounds, scores = public.get("session_hands"), public.get("session_rounds"), public.get("scores")
    if type(hands) is not int or type(rounds) is not int or not isinstance(scores, list | tuple):
        raise ValueError("bill_so_far: the public state lacks 'session_hands', 'session_rounds' or 'scores'")
    return bill(FeeSetting.from_json(fee), hands=hands, rounds=rounds, seconds=seconds, scores=scores)


__all__ = ["FEE_MODES", "FEE_PAYERS", "MAX_SECONDS", "Bill", "BillJSON", "FeeJSON", "FeeMode", "FeePayer",
           "FeeSetting", "bill", "bill_so_far", "next_hour_in", "split", "started_hours", "units"]
