"""Rule options (docs/rules.md): one frozen, validated object; the preset ``xian`` is the defaults.

>>> XIAN.kong_reserve
(13, 7, 8, 13)
>>> Rules.from_overrides({"seven_pairs": True}).seven_pairs
True
>>> Rules.from_overrides({"sevenpairs": True})
Traceback (most recent call last):
...
engine.rules.RulesError: unknown rule option 'sevenpairs' (did you mean 'seven_pairs'?)
"""

from __future__ import annotations

import dataclasses
import difflib
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final, Literal, get_args

from engine.fields import MAX_AMOUNT
from engine.records import WaitKind


class RulesError(ValueError):
    """An unknown rule option or a bad value for one."""


WallDirection = Literal["counterclockwise", "clockwise"]
WaitBonus = Literal["any_split", "only_wait"]
DiscardWinPayers = Literal["discarder", "all"]
ExposedKongPayers = Literal["all", "discarder"]

_CHOICES: Final[dict[str, tuple[str, ...]]] = {
    "wall_direction": get_args(WallDirection),
    "wait_bonus": get_args(WaitBonus),
    "discard_win_payers": get_args(DiscardWinPayers),
    "exposed_kong_payers": get_args(ExposedKongPayers),
}


RuleValue = str | bool | int | list[int] | None
"""A rule option's value as JSON (``kong_reserve`` is a list, ``bet_unit`` may be null)."""


@dataclass(frozen=True)
class Rules:
    """Every rule option of docs/rules.md with its default (the ``xian`` preset)."""

    wall_direction: WallDirection = "counterclockwise"  # §5
    added_kong: bool = True  # §8
    kong_reserve: tuple[int, ...] = (13, 7, 8, 13)  # §10: R(0), R(1), R(2), R(k>=3)
    kong_paid_on_draw: bool = True  # §10
    seven_pairs: bool = False  # §11
    wait_bonus: WaitBonus = "any_split"  # §13
    edge_wait_bonus: bool = False  # §13
    discard_win_payers: DiscardWinPayers = "discarder"  # §14
    exposed_kong_payers: ExposedKongPayers = "all"  # §14
    bet_unit: int | None = None  # §15: None means the base b
    multipliers_on_bets: bool = False  # §15

    def __post_init__(self) -> None:
        for name, choices in _CHOICES.items():
            value = getattr(self, name)
            if value not in choices:
                raise RulesError(f"rule option {name!r} must be one of {', '.join(choices)}; got {value!r}")
        for name in ("added_kong", "kong_paid_on_draw", "seven_pairs", "edge_wait_bonus", "multipliers_on_bets"):
            if type(getattr(self, name)) is not bool:
                raise RulesError(f"rule option {name!r} must be true or false; got {getattr(self, name)!r}")
        reserve = self.kong_reserve
        if isinstance(reserve, list):
            object.__setattr__(self, "kong_reserve", tuple(reserve))
            reserve = self.kong_reserve
        if (
            not isinstance(reserve, tuple)
            or len(reserve) != 4
            or any(type(r) is not int or not 0 <= r <= 30 for r in reserve)
        ):
            raise RulesError(
                f"rule option 'kong_reserve' must be 4 whole numbers of stacks 0..30 "
                f"(for 0, 1, 2 and 3+ kongs); got {reserve!r}"
            )
        if self.bet_unit is not None and (type(self.bet_unit) is not int or not 1 <= self.bet_unit <= MAX_AMOUNT):
            shown = repr(self.bet_unit) if type(self.bet_unit) is not int or self.bet_unit < 10**18 else "a huge number"
            raise RulesError(
                f"rule option 'bet_unit' must be a whole number >= 1 (at most {MAX_AMOUNT:,}) or null (the base); "
                f"got {shown}"
            )

    def reserve_stacks(self, kongs: int) -> int:
        """R(k): stacks kept back after ``kongs`` kongs (docs/rules.md §10)."""
        return self.kong_reserve[kongs if kongs < 3 else 3]  # (not min(): the draws ask it each time)

    def earns_bonus(self, wait: WaitKind) -> bool:
        """Whether a win with this wait earns the wait bonus (docs/rules.md §13): 夹张 closed and 单调
        single do; 边张 edge only with ``edge_wait_bonus``.

        >>> XIAN.earns_bonus("single"), XIAN.earns_bonus("edge"), Rules(edge_wait_bonus=True).earns_bonus("edge")
        (True, False, True)
        """
        return wait in ("closed", "single") or (wait == "edge" and self.edge_wait_bonus)

    @classmethod
    def from_overrides(cls, overrides: Mapping[str, Any] | None = None, base: Rules | None = None) -> Rules:
        """The preset (``xian`` unless ``base`` is given) with some options changed."""
        start = base if base is not None else XIAN
        if not overrides:
            return start
        if not isinstance(overrides, Mapping):
            raise RulesError(f"rule overrides must be an object of option: value; got {overrides!r}")
        known = [f.name for f in dataclasses.fields(cls)]
        for name in overrides:
            if name not in known:
                close = difflib.get_close_matches(str(name), known, n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else f" (options: {', '.join(known)})"
                raise RulesError(f"unknown rule option {name!r}{hint}")
        values = dict(overrides)
        if isinstance(values.get("kong_reserve"), list):
            values["kong_reserve"] = tuple(values["kong_reserve"])
        return dataclasses.replace(start, **values)

    def to_json(self) -> dict[str, RuleValue]:
        data: dict[str, RuleValue] = dataclasses.asdict(self)
        data["kong_reserve"] = list(self.kong_reserve)
        return data

    def overrides(self) -> dict[str, RuleValue]:
        """Only the options that differ from ``xian``, as JSON values."""
        mine, preset = self.to_json(), XIAN.to_json()
        return {k: v for k, v in mine.items() if preset[k] != v}


XIAN: Final = Rules()
PRESETS: Final[dict[str, Rules]] = {"xian": XIAN}


def preset(name: str) -> Rules:
    try:
        return PRESETS[name]
    except KeyError:
        raise RulesError(f"unknown rule preset {name!r} (presets: {', '.join(PRESETS)})") from None
