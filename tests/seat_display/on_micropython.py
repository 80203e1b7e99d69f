# Runs under MicroPython's WebAssembly port (and, for comparison, under CPython with the
# stand-ins): the firmware's app on stub buses, fed the scenario's messages; prints each
# frame as the bus carried it, and the heap the firmware's objects take.
# The test prepends KIND, SCREENS (see scenario.py) and TABLE, and appends the calls, each in
# its own part ("#--- next"): this port's gc.collect() frees garbage only between parts.
import gc
import json  # noqa: F401 - built in
from binascii import a2b_base64  # noqa: F401 - C on the Pico W, Python in the WebAssembly build: not counted

import framebuf

DOWN = [False]
G = {}  # what setup() made


class Pin:
    OUT = 1

    def __init__(self, *a, **k):
        pass

    def value(self, v=None):
        return 0


class Bus:
    """I2C and SPI: keeps the last frame the driver sent."""

    def __init__(self):
        self.frame = None
        self.ramwr = False
        self.keep = True  # False: let the bytes go (while measuring the firmware's own allocations)

    def writeto(self, addr, buf):
        pass

    def writevto(self, addr, bufs):
        if bufs[0] == b"\x40" and self.keep:
            self.frame = bytes(bufs[1])

    def write(self, data):
        if len(data) == 1 and data[0] in (0x2A, 0x2B, 0x2C, 0x01, 0x11, 0x3A, 0x36, 0x21, 0x13, 0x29):
            self.ramwr = data[0] == 0x2C and self.keep
            if self.ramwr:
                self.frame = bytearray()
        elif self.ramwr:
            self.frame += data


class WLAN:
    def isconnected(self):
        return True

    def connect(self, ssid, password):
        pass


class Sock:
    def close(self):
        pass


class Client:
    def __init__(self):
        self.sock = None

    def set_callback(self, f):
        pass

    def connect(self, clean, timeout):
        self.sock = Sock()

    def subscribe(self, topic):
        pass

    def check_msg(self):
        if DOWN[0]:
            raise OSError(104)
        return None

    def ping(self):
        pass


def heap():
    return gc.mem_alloc() if hasattr(gc, "mem_alloc") else 0


class NoSockets:  # the WebAssembly port has no socket module; umqtt.simple only needs it to connect
    pass


def setup():
    import sys

    sys.modules.setdefault("socket", NoSockets)
    gc.collect()
    G["heap0"] = heap()
    import seat_app
    import seat_config
    from seat_screen import Canvas
    from umqtt.simple import MQTTClient  # noqa: F401 - counted: its code is on the board's heap too

    cfg = seat_config.check({"wifi_ssid": "den", "host": "pi", "table": TABLE, "seat": 2, "display": KIND})  # noqa: F821
    bus = Bus()
    if KIND == "ssd1306":  # noqa: F821
        from ssd1306 import SSD1306_I2C

        oled = SSD1306_I2C(128, 64, bus)
        screen = seat_app.Screen(Canvas(oled, 128, 64, framebuf.MONO_VLSB, (0, 1, 1, 1)),
                                 seat_app.load_font("font_s.bin"), 16, oled.show, oled)
    else:
        from st7789 import ST7789

        lcd = ST7789(bus, Pin())
        screen = seat_app.Screen(Canvas(lcd.fb, 240, 240, framebuf.GS2_HMSB, (0, 1, 2, 3)),
                                 seat_app.load_font("font_l.bin"), 32, lcd.show, lcd)
    app = seat_app.SeatApp(cfg, screen, WLAN(), Client, 10000)
    G.update(app=app, bus=bus, now=10000,
             topic={"view": app.view_topic, "name": app.name_topic, "status": app.status_topic})


def show(i):
    name, messages, wait, down = SCREENS[i]  # noqa: F821
    app, bus = G["app"], G["bus"]
    DOWN[0] = down
    G["now"] += 20
    app.step(G["now"])
    for kind, payload in messages:
        app.on_message(G["topic"][kind], payload)
    app.step(G["now"])
    if wait:
        G["now"] += wait
        app.step(G["now"])
    frame = bytes(bus.frame)
    bus.frame = None
    print("frame", name)
    for at in range(0, len(frame), 2048):  # long lines do not come through node's console whole
        print("+", frame[at:at + 2048].hex())


def measure_redraw():
    """What one full redraw allocates (garbage, freed by the next collection)."""
    G["bus"].keep = False
    gc.collect()
    gc.disable()
    before = heap()
    G["app"].redraw(G["now"])
    G["redraw"] = heap() - before
    gc.enable()


def report():
    gc.collect()
    print("missing", G["app"].screen.font.missing)
    print("heap", heap() - G["heap0"], "redraw", G["redraw"])
