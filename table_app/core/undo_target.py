"""Which event an undo goes back to (the service's ``{"type": "undo"}``, docs/design.md §5): the
command checked against the events in effect, or the service's refusal of it.

>>> undo_target({"type": "undo"}, [3, 5, 9]), undo_target({"type": "undo", "to": 3}, [3, 5, 9])
(5, 3)
>>> undo_target({"type": "undo", "last": 5}, [3, 5, 9]).code, undo_target({"type": "undo"}, []).code
('undo.moved', 'undo.nothing')
"""

from __future__ import annotations

from collections.abc import Mapping

from table_app.core.notices import Answer


def undo_target(command: Mapping[str, object], active: list[int]) -> int | Answer:
    """The event after which the state is kept (0: an empty table) for an undo ``command`` —
    the last event in effect (with ``"last": n`` only while that is event ``n``), or back to
    just after event ``"to"`` — given the events in effect ``active``; else the refusal."""
    extra = set(command) - {"type", "to", "last"}
    if extra:
        return Answer(False, error=f"undo takes only 'to' and 'last', not {sorted(extra)} in {dict(command)!r}",
                      code="invalid")
    if (last := command.get("last")) is not None and active[-1:] != [last]:  # (the table moved on)
        return Answer(False, error=f"undo: the last event in effect is no longer {last!r}", code="undo.moved")
    if not active:
        return Answer(False, error="nothing to undo: no event is in effect", code="undo.nothing")
    to = command.get("to")
    if to is None:
        return active[-2] if len(active) > 1 else 0
    if type(to) is not int or to < 0:
        return Answer(False, error=f"undo: 'to' must be an event's sequence number (0: an empty table), got {to!r}",
                      code="invalid")
    if to >= active[-1]:
        return Answer(False, error=f"undo: event {to} is not before the last event in effect ({active[-1]})",
                      code="undo.bad_target")
    if to != 0 and to not in set(active):
        return Answer(False, error=f"undo: record {to} is not an event in effect; events in effect end with "
                                   f"{active[-5:]}", code="undo.bad_target")
    return to


__all__ = ["undo_target"]
