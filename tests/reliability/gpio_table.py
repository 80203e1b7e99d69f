"""A table with GPIO buttons on gpiozero's MockFactory, as a child process (the slow-commit test
preloads the fsync shim into it): ``python -m tests.reliability.gpio_table DB CONFIG S:B ...``.

It opens the table as ``serve`` does (``Table.open``, ``attach_inputs(gpio=True)``), presses
the given buttons (``0:TURN``) one after the other in real time — each held ``HOLD_S``, then
``GAP_S`` before the next — then waits until the table has been quiet for ``QUIET_S`` and exits.
The test reads what reached the journal.
"""

from __future__ import annotations

import sys
import time

HOLD_S = 0.08  # a quick tap (the debouncer settles a press after 20 ms)
GAP_S = 0.08
QUIET_S = 2.0  # longer than any one commit in the test (500 ms a sync)


def main(argv: list[str]) -> int:
    from gpiozero.pins.mock import MockFactory

    from table_app.compose import Table
    from table_app.config.file import gpio_pin_map

    db, config, *presses = argv
    factory = MockFactory()
    with Table.open(config=config, db=db) as table:
        table.start()
        table.attach_inputs(gpio=True, pin_factory=factory)
        pins = gpio_pin_map(table.cfg)
        for text in presses:
            seat, button = text.split(":")
            pin = factory.pin(pins.button_pin(int(seat), button))
            pin.drive_low()
            time.sleep(HOLD_S)
            pin.drive_high()
            time.sleep(GAP_S)
        seq, quiet_since = -1, time.monotonic()
        while time.monotonic() - quiet_since < QUIET_S:
            time.sleep(0.05)
            if table.service.seq != seq or table.service.queued:
                seq, quiet_since = table.service.seq, time.monotonic()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
