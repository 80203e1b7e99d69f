# The display's one configuration file on the board: seat_config.json, written by
# `xian-table seat-display --flash` (docs/seat-display.md lists every key).
import json

PATH = "seat_config.json"

# Pins of the Raspberry Pi Pico W (docs/seat-display.md has the wiring); a config may name others.
PINS = {
    "ssd1306": {"i2c": 0, "sda": 4, "scl": 5, "addr": 60},
    "st7789": {"spi": 0, "sck": 18, "mosi": 19, "cs": 17, "dc": 16, "rst": 20, "bl": 21},
}

DEFAULTS = {
    "wifi_ssid": "",
    "wifi_password": "",
    "host": "",
    "port": 1883,
    "user": "display",
    "password": "",
    "prefix": "xian",
    "table": "table",
    "seat": 0,
    "display": "ssd1306",
    "pins": None,
    "claim_window_s": 3,
    "client_id": "",
}


def check(cfg):
    """The configuration with its defaults filled in; ValueError naming the first bad key."""
    out = {}
    for key in DEFAULTS:
        out[key] = cfg.get(key, DEFAULTS[key])
    for key in cfg:
        if key not in DEFAULTS:
            raise ValueError(f"unknown key {key!r} in {PATH}")
    if not out["wifi_ssid"] or not out["host"]:
        raise ValueError("wifi_ssid and host are required in " + PATH)
    if type(out["seat"]) is not int or not 0 <= out["seat"] <= 3:
        raise ValueError(f"seat must be 0-3, got {out['seat']!r}")
    if out["display"] not in PINS:
        raise ValueError(f"display must be ssd1306 or st7789, got {out['display']!r}")
    if type(out["port"]) is not int or not 0 < out["port"] < 65536:
        raise ValueError(f"port must be 1-65535, got {out['port']!r}")
    pins = dict(PINS[out["display"]])
    pins.update(out["pins"] or {})
    out["pins"] = pins
    return out


def load(path=PATH):
    with open(path) as f:
        return check(json.load(f))


def topics(cfg):
    """(seat view, name bitmap, table status) topics, as bytes (umqtt hands topics over as bytes)."""
    base = f"{cfg['prefix']}/{cfg['table']}"
    seat = f"{base}/seat/{cfg['seat']}"
    return seat.encode(), (seat + "/name").encode(), (base + "/status").encode()
