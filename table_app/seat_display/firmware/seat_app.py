# The seat display: the seat's view from the table's MQTT, drawn on a small screen.
#
# 1. main.py calls run(): the configuration file, the screen on its pins, Wi-Fi.
# 2. Link keeps Wi-Fi and the broker connected (display user, read only) and subscribed to
#    the seat's view, its name bitmap and the table's status, all retained.
# 3. Each message updates State (and the claim countdown); nothing is drawn in callbacks.
# 4. step() redraws when something visible changed (the countdown: every REDRAW_MS).
# 5. Offline (no Wi-Fi, no broker, or the table's will said "offline") shows in the
#    status line, over the last view, until the link is back.
import json

try:
    from binascii import a2b_base64
except ImportError:  # pragma: no cover - old MicroPython
    from ubinascii import a2b_base64

import framebuf
from seat_config import topics
from seat_countdown import ClaimCountdown
from seat_font import Font
from seat_link import Link
from seat_screen import Canvas, State, draw
from seat_time import sleep_ms, ticks_diff, ticks_ms

VERSION = "1.0.0"
REDRAW_MS = 100
LOOP_MS = 20


class Screen:
    """A display driver with a Canvas over its framebuffer, the font for its size and show()."""

    def __init__(self, canvas, font, name_height, show, driver=None):
        self.driver = driver
        self.canvas = canvas
        self.font = font
        self.name_height = name_height
        self.show = show


class SeatApp:
    def __init__(self, cfg, screen, wlan, make_client, now):
        self.cfg = cfg
        self.screen = screen
        self.state = State(cfg["seat"])
        self.countdown = ClaimCountdown(cfg["claim_window_s"])
        self.view_topic, self.name_topic, self.status_topic = topics(cfg)
        self.link = Link(wlan, cfg["wifi_ssid"], cfg["wifi_password"], make_client,
                         (self.view_topic, self.name_topic, self.status_topic), self.on_message, now)
        self.now = now
        self.dirty = True
        self.drawn_at = now
        self.frames = 0
        self.bad_messages = 0

    def on_message(self, topic, msg):
        try:
            if topic == self.view_topic:
                view = json.loads(msg)
                self.state.view = view
                self.countdown.update(view, self.now)
                self.state.claim_left_ms = self.countdown.left_ms(self.now)
            elif topic == self.name_topic:
                self.state.name = name_bitmap(msg, self.screen.name_height)
            elif topic == self.status_topic:
                self.state.table_online = msg == b"online"
            else:
                return
        except (ValueError, KeyError, TypeError, IndexError):
            self.bad_messages += 1  # a malformed message changes nothing on the screen
            return
        self.dirty = True

    def step(self, now):
        self.now = now
        link = self.link.step(now)
        st = self.state
        if link != st.link:
            if link == "up":
                st.table_online = None  # a will heard before the link went down may be stale now
            st.link = link
            self.dirty = True
        left = self.countdown.left_ms(now)
        if left != st.claim_left_ms and (left is None or self.dirty or ticks_diff(now, self.drawn_at) >= REDRAW_MS):
            st.claim_left_ms = left
            self.dirty = True
        if self.dirty:
            self.redraw(now)

    def redraw(self, now):
        draw(self.screen.canvas, self.screen.font, self.state, self.countdown.window_ms)
        self.screen.show()
        self.frames += 1
        self.dirty = False
        self.drawn_at = now


def name_bitmap(msg, height):
    """The name message's bitmap of the given height: (width, height, bytearray), or None."""
    for bm in json.loads(msg).get("bitmaps", ()):
        if bm["h"] == height:
            bits = bytearray(a2b_base64(bm["bits"].encode()))  # bytes: some ports' binascii want them
            if len(bits) < ((bm["w"] + 7) // 8) * height:
                raise ValueError("short bitmap")
            return bm["w"], height, bits
    return None


def load_font(path):
    return Font(open(path, "rb"))  # kept open: glyphs are read as they are drawn


def make_screen(machine, cfg, folder=""):
    """The configured display on its pins (machine is MicroPython's module, or a stand-in)."""
    pins = cfg["pins"]
    Pin = machine.Pin
    if cfg["display"] == "st7789":
        from st7789 import ST7789

        spi = machine.SPI(pins["spi"], baudrate=40_000_000, polarity=1, phase=1, sck=Pin(pins["sck"]),
                          mosi=Pin(pins["mosi"]))
        lcd = ST7789(spi, Pin(pins["dc"], Pin.OUT), Pin(pins["cs"], Pin.OUT) if pins.get("cs") is not None else None,
                     Pin(pins["rst"], Pin.OUT), Pin(pins["bl"], Pin.OUT) if pins.get("bl") is not None else None)
        canvas = Canvas(lcd.fb, lcd.width, lcd.height, framebuf.GS2_HMSB, (0, 1, 2, 3))
        return Screen(canvas, load_font(folder + "font_l.bin"), 32, lcd.show, lcd)
    from ssd1306 import SSD1306_I2C

    i2c = machine.I2C(pins["i2c"], sda=Pin(pins["sda"]), scl=Pin(pins["scl"]), freq=400_000)
    oled = SSD1306_I2C(128, 64, i2c, pins["addr"])
    canvas = Canvas(oled, 128, 64, framebuf.MONO_VLSB, (0, 1, 1, 1))
    return Screen(canvas, load_font(folder + "font_s.bin"), 16, oled.show, oled)


def client_factory(cfg, MQTTClient, unique_id=b""):
    """A fresh umqtt client for each connection attempt."""
    client_id = cfg["client_id"] or f"xian-seat-{cfg['table']}-{cfg['seat']}-{_hex(unique_id)}"

    def make():
        return MQTTClient(client_id, cfg["host"], cfg["port"], cfg["user"] or None, cfg["password"] or None,
                          keepalive=30)

    return make


def _hex(data):
    return "".join(f"{b:02x}" for b in data)


def build(machine, network, cfg, MQTTClient, now, folder=""):
    screen = make_screen(machine, cfg, folder)
    wlan = network.WLAN(network.STA_IF)
    wlan.active(True)
    make = client_factory(cfg, MQTTClient, machine.unique_id())
    return SeatApp(cfg, screen, wlan, make, now)


def run(loops=None):
    """The main loop on the board; ``loops`` bounds it (tests)."""
    import machine
    import network
    from seat_config import load
    from umqtt.simple import MQTTClient

    app = build(machine, network, load(), MQTTClient, ticks_ms())
    n = 0
    while loops is None or n < loops:
        try:
            app.step(ticks_ms())
        except Exception as e:  # keep the display going; the error shows on the USB console
            print("seat display:", repr(e))
            app.link.drop()
            sleep_ms(1000)
        sleep_ms(LOOP_MS)
        n += 1
    return app
