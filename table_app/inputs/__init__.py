"""The table's inputs: adapters from input devices to :class:`~table_app.core.service.TableService`.

The devices themselves live in ``hardware/`` (gpiozero buttons that emit
:class:`~engine.presses.Press`, LEDs and a buzzer that show a mode) and ``firmware_bridge/``
(the serial panel's codec, transport and bridge); they know nothing of the table. This
package joins them to it:

- :mod:`table_app.inputs.sender` — :class:`PressSender`: a press goes to the service with
  ``service.submit(press.to_json(), source)`` and the device's thread goes back to its
  buttons at once. It never waits for the durable commit (an SD card's fsync takes 20–300 ms,
  a worn one longer): a GPIO poll thread that waited would miss a press and release made
  meanwhile, and a panel reader that waited would answer the next frame too late. A refusal
  comes back to everyone as a ``refused`` notice; the sender only logs failures.
- :mod:`table_app.inputs.lights` — :class:`LightsAdapter`: the seat LEDs (GPIO, the panel's)
  follow the service's notices: lit for the seat to move or to roll, blinking for the seats
  that may still claim, a beep when claims open, a flash and two beeps for a refused press.
- :mod:`table_app.inputs.registry` — the input kinds, each one module registered by name
  with its config entry, and :func:`attach_inputs`, which attaches every kind that is on.

Adding an input — say a Bluetooth button — is one module and one config entry:

1. ``table_app/inputs/bluetooth.py`` with ``attach(ctx, setting) -> close``: it opens the
   device, hands each press to ``ctx.sender("bluetooth")``, adds its lights (if it has any)
   with ``ctx.lights.add(...)``, reports its link with ``ctx.say("bluetooth", state, detail)``,
   and returns the function that closes it all (see :mod:`table_app.inputs.gpio`);
2. its config key in ``table_app/config/file.py`` (``KEYS``, ``Config`` and docs/config.md, e.g.
   ``bluetooth.device``), and its line in :data:`~table_app.inputs.registry.KINDS`:
   ``InputKind("bluetooth", "table_app.inputs.bluetooth", "bluetooth.device")``.

``Table.attach_inputs(bluetooth=...)`` (the command line's option) then overrides the config
entry as ``--panel`` and ``--gpio`` do. docs/inputs.md says the same for users.
"""

from __future__ import annotations

from table_app.inputs.lights import Lights, LightsAdapter
from table_app.inputs.registry import KINDS, InputContext, InputKind, attach_inputs, register
from table_app.inputs.sender import PressSender

__all__ = ["KINDS", "InputContext", "InputKind", "Lights", "LightsAdapter", "PressSender", "attach_inputs",
           "register"]
