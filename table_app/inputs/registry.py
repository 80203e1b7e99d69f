"""The input kinds and :func:`attach_inputs`: every kind that is on, attached to a service.

A kind is one module, registered here by name with its config entry: the module is imported
only when the kind is on (gpiozero and pyserial stay unloaded otherwise), and it offers
``attach(ctx, setting) -> close``. A kind is on when its option is given
(``Table.attach_inputs(panel="/dev/…")``, from ``--panel``) or else its config entry is
set (``panel.device``); ``setting`` is that value.

>>> sorted(KINDS)
['gpio', 'panel']
>>> from table_app.config.file import Config
>>> [(kind.name, value) for kind, value in wanted(Config(panel_device="/dev/ttyUSB0"), {"gpio": True})]
[('gpio', True), ('panel', '/dev/ttyUSB0')]
>>> wanted(Config(), {"bluetooth": "00:11"})
Traceback (most recent call last):
...
ValueError: no input kind 'bluetooth' (known: gpio, panel)
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from table_app.inputs.lights import LightsAdapter
from table_app.inputs.sender import PressSender

if TYPE_CHECKING:
    from table_app.config.file import Config
    from table_app.core.service import TableService

LinkListener = Callable[[str, str, str], None]
Close = Callable[[], None]


@dataclass(frozen=True)
class InputKind:
    """One kind of input: its ``name`` (the option, the link's name, the journal's source),
    the ``module`` that attaches it, and its ``config_key`` (``section.name`` in
    :data:`table_app.config.file.KEYS`): the kind is on when that value is set."""

    name: str
    module: str
    config_key: str

    def configured(self, cfg: Config) -> object:
        from table_app.config.file import KEYS

        key = next((k for k in KEYS if k.dotted == self.config_key), None)
        if key is None:
            raise ValueError(f"input {self.name!r}: no config key {self.config_key!r} in table_app.config.file.KEYS")
        return getattr(cfg, key.field)


@dataclass
class InputContext:
    """What an input kind's ``attach`` gets: the service, the config, the seat lights to add
    its own to, ``say(name, state, detail)`` for its link state (called from any thread), and
    gpiozero's ``pin_factory`` (None: the real pins; tests pass a ``MockFactory``)."""

    service: TableService
    cfg: Config
    lights: LightsAdapter
    say: LinkListener
    pin_factory: Any = None

    def sender(self, source: str) -> PressSender:
        """What the device's thread calls with each :class:`~engine.presses.Press`."""
        return PressSender(self.service, source)


KINDS: dict[str, InputKind] = {}


def register(kind: InputKind) -> InputKind:
    KINDS[kind.name] = kind
    return kind


# The input kinds, one line each (docs/inputs.md).
register(InputKind("gpio", "table_app.inputs.gpio", "gpio.enabled"))
register(InputKind("panel", "table_app.inputs.panel", "panel.device"))


def wanted(cfg: Config, given: Mapping[str, object]) -> list[tuple[InputKind, object]]:
    """The kinds that are on, each with its setting: the option given, else the config entry."""
    unknown = sorted(set(given) - set(KINDS))
    if unknown:
        raise ValueError(f"no input kind {unknown[0]!r} (known: {', '.join(sorted(KINDS))})")
    out = []
    for kind in KINDS.values():
        value = given.get(kind.name) or kind.configured(cfg)
        if value:
            out.append((kind, value))
    return out


def attach_inputs(service: TableService, cfg: Config, given: Mapping[str, object] | None = None, *,
                  pin_factory: Any = None, on_link: LinkListener | None = None) -> Close:
    """Attach every input that is on to ``service``; returns the function that detaches them.

    If one cannot be attached, those already attached are closed again and the error
    (a ``ValueError`` or ``OSError`` that names the input) is raised.
    """
    kinds = wanted(cfg, given or {})
    if not kinds:
        return lambda: None
    lights = LightsAdapter(service)
    ctx = InputContext(service, cfg, lights, on_link or (lambda name, state, detail: None), pin_factory)
    closers: list[Close] = []
    try:
        for kind, setting in kinds:
            attach = importlib.import_module(kind.module).attach
            closers.append(attach(ctx, setting))
    except BaseException:
        for close in reversed(closers):
            close()
        lights.close()
        raise
    closers.append(lights.close)

    def detach() -> None:
        for close in reversed(closers):
            close()

    return detach
