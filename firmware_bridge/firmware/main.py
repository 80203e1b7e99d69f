# MicroPython runs this file at boot. Copy every .py file of this folder to the Pico
# (docs/panel.md: "Flashing"); the panel starts talking on UART0 (GP0 TX, GP1 RX).
from panel_app import run

run()
