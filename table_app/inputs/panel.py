"""The serial button panel (``panel.device``, ``--panel DEVICE``; docs/panel.md).

:class:`~firmware_bridge.bridge.PanelBridge` answers each frame as soon as it reads it and
then calls ``on_frame`` in its reader thread; :func:`panel_handler` turns the frame into a
press and hands it to a :class:`~table_app.inputs.sender.PressSender`, which only queues it.
So the reader is back at the line at once and the next frame is answered within the
protocol's 200 ms, however long the commit takes: the panel never repeats a press, never
gives one up, and each acts exactly once.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from engine.presses import Press
from table_app.system import sdnotify

if TYPE_CHECKING:
    from firmware_bridge.protocol import Button, Dice
    from table_app.inputs.registry import InputContext


def frame_press(frame: Button | Dice) -> Press:
    """The press a ``BTN`` or ``DICE`` frame stands for (the panel's own dice are the ones played).

    >>> from firmware_bridge.protocol import Button, Dice
    >>> frame_press(Button(2, "TURN", long=True)).label(), frame_press(Dice(3, 4)).dice
    ('2:TURN:held', (3, 4))
    """
    from firmware_bridge.protocol import Dice

    if isinstance(frame, Dice):
        return Press(None, "DICE", dice=(frame.a, frame.b))
    return Press(frame.seat, frame.button, held=frame.long)


def panel_handler(send: Callable[[Press], object]) -> Callable[[Button | Dice], None]:
    """The bridge's ``on_frame``: each frame's press to ``send``, which must return at once."""

    def on_frame(frame: Button | Dice) -> None:
        send(frame_press(frame))

    return on_frame


def attach(ctx: InputContext, setting: object) -> Callable[[], None]:
    """Open the panel on the device ``setting`` (it may come and go: the bridge reconnects)."""
    from firmware_bridge.bridge import PanelBridge

    bridge = PanelBridge(str(setting), panel_handler(ctx.sender("panel")), heartbeat=sdnotify.part_heartbeat("panel"))
    bridge.add_listener(lambda state, detail: ctx.say("panel", state.value, detail))
    ctx.lights.add(bridge)
    bridge.start()

    def close() -> None:
        bridge.stop()
        sdnotify.part_stopped("panel")

    return close
