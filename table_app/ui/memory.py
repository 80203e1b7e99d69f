"""Memory given back after the app lets go of a screen (issue 28's evening: ``xian-table bench
--only evening``).

A screen's widgets hold each other in reference cycles (Kivy's property bindings), so they are
freed by the cycle collector, not when the screen is removed; and what is freed stays in the
process (the C heap's holes, Python's partly used arenas) until it is asked back. :func:`give_back`
does both, a moment after a screen was let go; :func:`later` schedules it once however many
screens are let go in the meantime. ``malloc_trim`` is glibc's (Raspberry Pi OS, Debian); where
there is none, the collection alone is done.
"""

from __future__ import annotations

import ctypes
import gc
from collections.abc import Callable

DELAY_S = 1.0  # after the screen's change has been drawn: never between a tap and its answer


def _malloc_trim() -> Callable[[int], int] | None:
    try:
        trim: Callable[[int], int] = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):  # not glibc (musl, macOS): nothing to ask
        return None
    return trim


_TRIM = _malloc_trim()
_trigger: Callable[[], object] | None = None


def give_back(*_: object) -> None:
    """Free the widgets let go (the cycle collector), then hand the C heap's free pages back."""
    gc.collect()
    if _TRIM is not None:
        _TRIM(0)


def freeze() -> None:
    """What the app holds before its first screen — the modules, the engine's hand tables, the
    service — is never garbage: moved out of the cycle collector's sight (``gc.freeze``), so the
    full collections of :func:`give_back` scan only what came after (half the time, measured).
    Once a process: a second app in it (the tests) must not freeze the first one's widgets."""
    if gc.get_freeze_count() == 0:
        gc.freeze()


def later() -> None:
    """:func:`give_back` once, :data:`DELAY_S` from now (on the Kivy clock)."""
    global _trigger
    if _trigger is None:
        from kivy.clock import Clock

        _trigger = Clock.create_trigger(give_back, DELAY_S)
    _trigger()
