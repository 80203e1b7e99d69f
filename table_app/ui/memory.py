"""Memory given back after the app lets go of a screen (issue 28's evening: ``xian-table bench
--only evening``).

A screen's widgets hold each other in reference cycles (Kivy's property bindings), so they are
freed by the cycle collector, not when the screen is removed; and what is freed stays in the
process (the C heap's holes, Python's partly used arenas) until it is asked back. :func:`give_back`
does both; :func:`later` asks for it once, right after the next frame is drawn, however many
screens are let go before that frame.

Soon, not a second later: garbage left to pile up across several screens' changes raises the
peak of what Python holds, and the arenas taken for that peak stay (partly used, never handed
back). Measured on the evening's bench, where screens change faster than people tap: the
collection 1 s after a change ended the evening at 205–208 MB, the collection after the next
frame at 197 MB. Each collection takes 16 ms (median; 52 ms at most) on the bench's machine.

``malloc_trim`` is glibc's (Raspberry Pi OS, Debian); where there is none, the collection alone
is done.
"""

from __future__ import annotations

import ctypes
import gc
from collections.abc import Callable


def _malloc_trim() -> Callable[[int], int] | None:
    try:
        trim: Callable[[int], int] = ctypes.CDLL(None).malloc_trim
    except (OSError, AttributeError):  # not glibc (musl, macOS): nothing to ask
        return None
    return trim


_TRIM = _malloc_trim()
_waiting = False  # a give-back is asked for, on the next frame drawn


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
    """:func:`give_back` once, right after the next frame is drawn: the screen's change is on the
    glass first (never between a tap and its answer), then the collection, while it is read."""
    global _waiting
    if _waiting:
        return
    from kivy.core.window import Window

    _waiting = True
    Window.fbind("on_flip", _drawn)


def _drawn(*_: object) -> bool:
    """The frame is drawn (the window's ``on_flip``, whose own handler swaps the buffers after
    this): the collection on the clock's next tick, once the frame is on the glass."""
    global _waiting
    from kivy.clock import Clock
    from kivy.core.window import Window

    Window.funbind("on_flip", _drawn)
    _waiting = False
    Clock.schedule_once(give_back, 0)
    return False
