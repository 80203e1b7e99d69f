# MicroPython runs this file at boot. `xian-table seat-display --flash` copies this folder and
# seat_config.json to the board (docs/seat-display.md: "Flashing").
from seat_app import run

run()
