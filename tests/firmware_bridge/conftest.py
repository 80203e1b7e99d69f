from __future__ import annotations

import sys
from pathlib import Path

import pytest

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware_bridge" / "firmware"


@pytest.fixture(scope="session")
def fw():
    """The firmware's modules imported under CPython with the ``machine`` stand-in."""
    from tests.firmware_bridge import machine_standin

    with pytest.MonkeyPatch.context() as mp:
        mp.syspath_prepend(str(FIRMWARE))
        mp.setitem(sys.modules, "machine", machine_standin)
        yield _load(machine_standin)


def _load(machine_standin):
    import panel_app
    import panel_dice
    import panel_keys
    import panel_link
    import panel_out
    import panel_time

    class FW:
        app, dice, keys, link, out, time = panel_app, panel_dice, panel_keys, panel_link, panel_out, panel_time
        machine = machine_standin

    return FW
