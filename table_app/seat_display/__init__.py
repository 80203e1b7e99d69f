"""The seat displays you can mount: MicroPython firmware for a Pico W (or an ESP32) with a
small screen, fed by the table's MQTT (docs/seat-display.md).

``firmware/`` is what runs on the board; this package holds what the host does for it:
the bitmap fonts made at build time (:mod:`.fontgen`) and the configuration file and
``mpremote`` command of ``xian-table seat-display --flash`` (:mod:`.flash`).
"""
