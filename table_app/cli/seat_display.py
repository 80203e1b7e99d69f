"""``xian-table seat-display --seat N``: one seat's display in a terminal, live over MQTT.

Subscribes (read only) to ``<prefix>/<table>/seat/<N>`` and ``…/status`` and redraws on
every change: the wind and the score in large letters, whose turn it is, whether this seat
may claim, the rank, the last hand's delta and the prompt in Chinese and English. Use a
display user's URL (``--broker mqtt://display:PASS@pi.local``); the default is
``mqtt.url`` of the config. ``--once`` prints the current view and exits.

``--flash`` instead writes the MicroPython seat display firmware and its configuration file
(Wi-Fi, broker, table, seat) to a board on USB with ``mpremote`` (docs/seat-display.md);
``--stage DIR`` lays the same files out in DIR and prints the ``mpremote`` command.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import threading
import unicodedata
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from table_app.present.words import tr

if TYPE_CHECKING:
    import paho.mqtt.client as mqtt
    from paho.mqtt.client import Client
    from paho.mqtt.properties import Properties
    from paho.mqtt.reasoncodes import ReasonCode

    from table_app.config.file import Config
    from table_app.mqtt.topics import BrokerURL
    from table_app.present.seat import SeatView

HELP = "one seat's display in the terminal, live over MQTT (large wind, score, turn and prompt)"

EXIT_NO_VIEW = 1
EXIT_USAGE = 2
WIFI_PASSWORD_ENV = "XIAN_SEAT_WIFI_PASSWORD"

# A 5-row block font for what the display writes large.
_FONT = {
    "0": ["███", "█ █", "█ █", "█ █", "███"], "1": [" █ ", "██ ", " █ ", " █ ", "███"],
    "2": ["███", "  █", "███", "█  ", "███"], "3": ["███", "  █", "███", "  █", "███"],
    "4": ["█ █", "█ █", "███", "  █", "  █"], "5": ["███", "█  ", "███", "  █", "███"],
    "6": ["███", "█  ", "███", "█ █", "███"], "7": ["███", "  █", "  █", "  █", "  █"],
    "8": ["███", "█ █", "███", "█ █", "███"], "9": ["███", "█ █", "███", "  █", "███"],
    "+": ["   ", " █ ", "███", " █ ", "   "], "-": ["   ", "   ", "███", "   ", "   "],
    "E": ["████", "█   ", "███ ", "█   ", "████"], "S": ["████", "█   ", "████", "   █", "████"],
    "W": ["█   █", "█   █", "█ █ █", "██ ██", "█   █"], "N": ["█   █", "██  █", "█ █ █", "█  ██", "█   █"],
    "?": ["███", "  █", " ██", "   ", " █ "], " ": ["  ", "  ", "  ", "  ", "  "],
}


def big(text: str) -> list[str]:
    """``text`` in the block font, five lines.

    >>> [row.rstrip() for row in big("+1")]
    ['     █', ' █  ██', '███  █', ' █   █', '    ███']
    """
    rows = ["", "", "", "", ""]
    for ch in text:
        glyph = _FONT.get(ch, _FONT["?"])
        for i in range(5):
            rows[i] += (" " if rows[i] else "") + glyph[i]
    return rows


def _width(text: str) -> int:
    """Terminal columns: East Asian wide characters take two."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _both(key: str, **fields: object) -> str:
    """A word of the word table in both languages, for the terminal."""
    zh, en = tr(key, "zh", **fields), tr(key, "en", **fields)
    return zh if zh == en else f"{zh} · {en}"


def render(view: SeatView | None, online: bool | None, width: int = 60) -> str:
    """The whole screen for a seat view (None: nothing received yet). Every word is the word
    table's (``table_app/present``), as on the touchscreen and the phones."""
    if view is None:
        return _both("ph_waiting_table")
    score = f"{view['score']:+d}" if view["score"] else "0"
    lines: list[str] = []
    head = f"{_both('ph_seat', n=view['seat'])} · {view['name'] or '—'}"
    if view["dealer"]:
        head += f"   【{_both('ph_dealer')}】"
    lines += [head, ""]
    wind_rows, score_rows = big(view["wind"] or "?"), big(score)
    pad = max(len(r) for r in wind_rows) + 6
    for w, sc in zip(wind_rows, score_rows, strict=True):
        lines.append(f"  {w:<{pad}}{sc}")
    wind_words = f"{tr('ph_wind', 'zh', w=view['wind_zh'])} {view['wind_en']}" if view["wind"] else _both("ph_no_wind")
    lines.append(f"  {wind_words}{' ' * max(1, pad - _width(wind_words))}{_both('ph_score')}")
    lines.append("")
    status = view["status"]
    lines.append(status["zh"] if status["zh"] == status["en"] else f"{status['zh']} · {status['en']}")
    own = view["prompt"]
    if own != status:  # something is asked of this seat: marked
        lines.append(f"▶▶ {own['zh']} · {own['en']} ◀◀")
    lines.append("")
    delta = "—" if view["last_delta"] is None else f"{view['last_delta']:+d}"
    lines.append(f"{_both('ph_rank', n=view['rank'])} · {_both('ph_last', delta=delta)} · "
                 f"{_both('ph_hand_n', n=view['hand'])}")
    if online is False:
        lines.append("⚠ " + _both("ph_table_offline"))
    rule = "─" * min(width, 72)
    return "\n".join([rule, *lines, rule])


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("--seat", type=int, required=True, choices=range(4), metavar="N", help="the seat, 0–3")
    p.add_argument("--broker", metavar="URL", help="mqtt://USER:PASS@HOST:PORT, a display user (default: mqtt.url)")
    p.add_argument("--table", metavar="ID", help="the table's id (default: table.id)")
    p.add_argument("--config", metavar="FILE", help="the TOML config file (for the defaults)")
    p.add_argument("--once", action="store_true", help="print the current view and exit")
    p.add_argument("--timeout", type=float, default=10.0, help="--once: seconds to wait for the view (default 10)")
    p.add_argument("--plain", action="store_true", help="print each update below the last (no screen clearing)")
    board = p.add_argument_group("a seat display board (docs/seat-display.md)")
    board.add_argument("--flash", action="store_true",
                       help="write the firmware and its config for --seat to a board on USB (mpremote)")
    board.add_argument("--stage", metavar="DIR", help="lay the board's files out in DIR and print the mpremote command")
    board.add_argument("--port", default="auto", help="the board's serial port for mpremote (default: auto)")
    board.add_argument("--wifi", metavar="SSID", help="the Wi-Fi network the board joins")
    board.add_argument("--wifi-password", metavar="PW",
                       help=f"its password (default: ${WIFI_PASSWORD_ENV}, so it need not show in ps)")
    board.add_argument("--display", choices=("ssd1306", "st7789"), default="ssd1306",
                       help="128×64 SSD1306 OLED (default) or 240×240 ST7789")


def run(args: argparse.Namespace) -> int:
    from table_app.config.file import ConfigError, load_config
    from table_app.mqtt.topics import parse_url

    try:
        cfg = load_config(args.config)
    except ConfigError as e:
        print(f"xian-table seat-display: {e}", file=sys.stderr)
        return EXIT_USAGE
    url_text = args.broker or cfg.mqtt_url
    if not url_text:
        print("xian-table seat-display: no broker: give --broker mqtt://USER:PASS@HOST:PORT (or set mqtt.url)",
              file=sys.stderr)
        return EXIT_USAGE
    try:
        url = parse_url(url_text)
    except ValueError as e:
        print(f"xian-table seat-display: {e}", file=sys.stderr)
        return EXIT_USAGE
    if args.flash or args.stage:
        return _flash(args, cfg, url_text)
    return _watch(args, cfg, url)


def _watch(args: argparse.Namespace, cfg: Config, url: BrokerURL) -> int:
    """Subscribe to the seat's view and the table's status and show them (``--once``: once)."""
    import paho.mqtt.client as mqtt
    from paho.mqtt.enums import CallbackAPIVersion

    from table_app.mqtt.topics import ONLINE, Topics

    topics = Topics(cfg.mqtt_prefix, args.table or cfg.table_id)
    seat_topic = topics.seat(args.seat)
    plain = args.plain or args.once or not sys.stdout.isatty()
    state: dict[str, Any] = {"view": None, "online": None, "refused": None}
    changed = threading.Event()
    lock = threading.Lock()

    def show() -> None:
        with lock:
            try:
                screen = render(state["view"], state["online"], shutil.get_terminal_size().columns)
            except (KeyError, TypeError, ValueError):  # not a seat view of this version: said, not shown
                screen = _both("ph_waiting_table")
        out = screen + "\n" if plain else "\x1b[2J\x1b[H" + screen + "\n"
        sys.stdout.write(out)
        sys.stdout.flush()

    def on_connect(client: mqtt.Client, userdata: object, flags: mqtt.ConnectFlags, rc: ReasonCode,
                   props: Properties | None) -> None:
        if rc.is_failure:
            state["refused"] = str(rc)
            changed.set()
            client.disconnect()
            return
        client.subscribe([(seat_topic, 1), (topics.status, 1)])

    def on_message(client: mqtt.Client, userdata: object, msg: mqtt.MQTTMessage) -> None:
        with lock:
            if msg.topic == topics.status:
                state["online"] = msg.payload.decode(errors="replace") == ONLINE
            else:
                try:
                    state["view"] = json.loads(msg.payload)
                except ValueError:
                    return
        if args.once:
            if msg.topic == seat_topic:
                changed.set()
            return
        show()

    client = mqtt.Client(CallbackAPIVersion.VERSION2, client_id="")
    if url.username:
        client.username_pw_set(url.username, url.password)
    if url.tls:
        client.tls_set()
    client.on_connect = on_connect
    client.on_message = on_message
    try:
        client.connect(url.host, url.port, keepalive=30)
    except OSError as e:
        print(f"xian-table seat-display: cannot reach {url.redacted()}: {e}", file=sys.stderr)
        return EXIT_NO_VIEW
    got = _loop(args, client, changed, show, plain)
    if state["refused"]:
        print(f"xian-table seat-display: the broker refused {url.redacted()}: {state['refused']}", file=sys.stderr)
        return EXIT_USAGE
    if not args.once:
        return 0
    if not got:
        print(f"xian-table seat-display: no view on {seat_topic} within {args.timeout:g} s", file=sys.stderr)
        return EXIT_NO_VIEW
    show()
    return 0


def _loop(args: argparse.Namespace, client: Client, changed: threading.Event, show: Callable[[], None],
          plain: bool) -> bool:
    """Run the MQTT client: with ``--once`` until the view came (True) or ``--timeout`` passed
    (False), else until Ctrl-C or the broker refused (``changed``); disconnected after."""
    if args.once:
        client.loop_start()
        got = changed.wait(args.timeout)
        client.disconnect()
        client.loop_stop()
        return got
    if not plain:
        show()
    client.loop_start()
    try:
        while not changed.wait(3600):
            pass
    except KeyboardInterrupt:
        pass
    finally:
        client.disconnect()
        client.loop_stop()
    return True


def _flash(args: argparse.Namespace, cfg: Config, url_text: str) -> int:
    """Stage the board's files and run (or, with --stage, print) the mpremote command."""
    import os
    import subprocess
    import tempfile
    from pathlib import Path

    from table_app.mqtt.topics import parse_url
    from table_app.seat_display.flash import (
        FlashError,
        device_config,
        find_mpremote,
        mpremote_command,
        stage,
    )

    try:
        url = parse_url(url_text, env={})  # the display user's password, never the service's from the env
        if url.tls:
            raise FlashError("the seat display firmware speaks plain MQTT (port 1883), not mqtts://")
        device = device_config(seat=args.seat, table=args.table or cfg.table_id, prefix=cfg.mqtt_prefix,
                               host=url.host, port=url.port, user=url.username, password=url.password,
                               ssid=args.wifi or "", wifi_password=args.wifi_password or os.environ.get(
                                   WIFI_PASSWORD_ENV, ""), display=args.display, claim_window_s=cfg.claim_window_s)
    except ValueError as e:
        print(f"xian-table seat-display: {e}", file=sys.stderr)
        return EXIT_USAGE
    mpremote = find_mpremote()
    if args.stage:
        folder = Path(args.stage)
        names = stage(device, folder)
        print(f"xian-table seat-display: the board's files are in {folder}; to write them to a board:")
        print(f"  cd {folder} && " + " ".join(mpremote_command("mpremote", args.port, names)))
        return 0
    if mpremote is None:
        print("xian-table seat-display: mpremote is missing (pip install mpremote)", file=sys.stderr)
        return EXIT_USAGE
    with tempfile.TemporaryDirectory(prefix="xian-seat-") as tmp:
        names = stage(device, Path(tmp))
        command = mpremote_command(mpremote, args.port, names)
        print(f"xian-table seat-display: writing seat {args.seat}'s display ({args.display}) to the board on "
              f"{args.port}: {' '.join(command[1:])}")
        proc = subprocess.run(command, cwd=tmp)
    if proc.returncode != 0:
        print(f"xian-table seat-display: mpremote failed (exit {proc.returncode}): is the board plugged in and "
              "running MicroPython? (docs/seat-display.md, Flashing)", file=sys.stderr)
        return EXIT_NO_VIEW
    print("xian-table seat-display: done; the board restarts and joins the table")
    return 0
