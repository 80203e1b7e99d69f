"""The events about the session as a whole (``engine.events`` reads their JSON): ``fee`` and ``end_session``.

- ``fee`` changes the session's fee setting (``engine.fees``) in any phase of a session but
  ``ended``: ``{"type": "fee", "fee": {...}}``, or ``"fee": null`` for no fee from now on.
- ``end_session`` ends it; ``seconds`` (optional): the session's length in whole seconds, from
  its ``new_session`` record to this one, stamped by the service from the journal's own times
  (``table_app/core/session_clock.py``) so that the engine stays without a clock. An end without it
  (a journal from before issue 31) bills an hourly fee 0 hours, then its minimum.

>>> Fee.from_setting({"mode": "hour", "rate": 30}).to_json()
{'type': 'fee', 'fee': {'mode': 'hour', 'rate': 30, 'min': 0, 'cap': None, 'payer': 'aa', 'tea': 0}}
>>> Fee().to_json(), EndSession(seconds=5400).to_json()
({'type': 'fee', 'fee': None}, {'type': 'end_session', 'seconds': 5400})
>>> EndSession(seconds=-1)
Traceback (most recent call last):
...
engine.errors.InvalidEventError: end_session: 'seconds' must be whole seconds 0..1,000,000,000, got -1
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import ClassVar

from engine.errors import InvalidEventError
from engine.event_base import Event
from engine.fees import MAX_SECONDS, FeeSetting
from engine.fields import amount_text


@dataclass(frozen=True)
class Fee(Event):
    """The session's fee from now on (None: none); the whole session is billed by the setting in
    force when it ends. Undoable like any event."""

    TYPE: ClassVar[str] = "fee"
    fee: FeeSetting | None = None

    def __post_init__(self) -> None:
        if self.fee is not None:
            object.__setattr__(self, "fee", FeeSetting.from_json(self.fee, self.TYPE))

    @classmethod
    def from_setting(cls, setting: FeeSetting | Mapping[str, object] | None) -> Fee:
        return cls(None if setting is None else FeeSetting.from_json(setting, cls.TYPE))

    def to_json(self) -> dict[str, object]:
        return {"type": self.TYPE, "fee": None if self.fee is None else self.fee.to_json()}


@dataclass(frozen=True)
class EndSession(Event):
    """The session is over (结账); ``seconds``: how long it lasted, when known."""

    TYPE: ClassVar[str] = "end_session"
    seconds: int | None = None

    def __post_init__(self) -> None:
        s = self.seconds
        if s is not None and (type(s) is not int or not 0 <= s <= MAX_SECONDS):
            raise InvalidEventError(f"end_session: 'seconds' must be whole seconds 0..{MAX_SECONDS:,}, "
                                    f"got {amount_text(s)}")

    def to_json(self) -> dict[str, object]:
        d: dict[str, object] = {"type": self.TYPE}
        if self.seconds is not None:
            d["seconds"] = self.seconds
        return d


__all__ = ["EndSession", "Fee"]
