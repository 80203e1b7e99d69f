from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIRMWARE = ROOT / "table_app" / "seat_display" / "firmware"
collect_ignore = ["on_micropython.py"]  # MicroPython code the tests run, not a test module


@pytest.fixture(scope="session")
def fw():
    """The seat display firmware's modules under CPython, with the stand-ins of board_standin."""
    from tests.seat_display import board_standin, framebuf_standin

    with pytest.MonkeyPatch.context() as mp:
        mp.syspath_prepend(str(FIRMWARE))
        mp.setitem(sys.modules, "framebuf", framebuf_standin)
        mp.setitem(sys.modules, "micropython", board_standin.micropython)
        for name in ("umqtt", "umqtt.simple"):
            sys.modules.pop(name, None)
        with pytest.MonkeyPatch.context() as net:  # only umqtt sees the MicroPython-style socket
            net.setitem(sys.modules, "socket", board_standin.socket)
            import umqtt.simple
        yield _load(board_standin, umqtt.simple)


def _load(board, umqtt_simple):
    import seat_app
    import seat_config
    import seat_countdown
    import seat_font
    import seat_link
    import seat_screen
    import seat_words

    class FW:
        app, config, countdown, font, link, screen, words = (seat_app, seat_config, seat_countdown, seat_font,
                                                              seat_link, seat_screen, seat_words)
        MQTTClient = umqtt_simple.MQTTClient
        machine, network = board.machine, board.network
        folder = str(FIRMWARE) + "/"

    return FW
