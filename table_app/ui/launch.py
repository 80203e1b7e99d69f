"""Start the touchscreen app: configure Kivy (before importing it), open the journal and
the service, attach the simulated hardware and the link checks, run the app.

Kivy reads its configuration at import time, so this module imports Kivy only inside
:func:`main`, after the window size and the log level are set.
"""

from __future__ import annotations

import argparse
import importlib.util
import logging
import os
import sys
import threading
import time
from typing import Any

log = logging.getLogger(__name__)


def configure_kivy(width: int, height: int, fullscreen: bool) -> None:
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_FILELOG", "1")
    os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
    os.environ.setdefault("KIVY_CLIPBOARD", "sdl2")  # not xsel/xclip, which a Pi may lack
    logging.getLogger("kivy").setLevel(logging.WARNING)
    from kivy.config import Config

    Config.set("kivy", "log_level", "warning")
    logging.getLogger("kivy").setLevel(logging.WARNING)
    Config.set("kivy", "exit_on_escape", "0")
    Config.set("input", "mouse", "mouse,disable_multitouch")
    Config.set("graphics", "width", str(width))
    Config.set("graphics", "height", str(height))
    Config.set("graphics", "fullscreen", "auto" if fullscreen else "0")
    # the touchscreen alone has no keyboard: names are typed on Kivy's docked on-screen keyboard
    Config.set("kivy", "keyboard_mode", "systemanddock" if fullscreen else "system")
    Config.set("graphics", "resizable", "1")


def main(args: argparse.Namespace, started: float | None = None) -> int:
    started = started if started is not None else time.monotonic()
    from table_app.cli.serve import open_service

    if args.demo and not args.db:  # the bots' hands do not go into the table's own journal
        import tempfile

        args.db = os.path.join(tempfile.mkdtemp(prefix="xian-table-demo-"), "demo.sqlite3")

    opened = open_service(args, "run")
    if isinstance(opened, int):
        return opened
    cfg, journal, service = opened
    width, height = args.size
    configure_kivy(width, height, args.fullscreen)
    from table_app.ui.app import TableApp

    links = {
        "hardware": "simulated" if args.sim else "not_connected",
        "panel": "not_connected",
        "mqtt": "offline",
        "journal": str(journal.path),
        "table_id": cfg.table_id,
    }
    buttons = None
    if args.sim and importlib.util.find_spec("hardware.controller") is not None:
        from hardware.controller import TableController

        buttons = TableController(service)
    app = TableApp(service, journal=journal, sim=args.sim, lang=args.lang, links=links,
                   screenshot=args.screenshot, exit_after=args.exit_after, started=started, buttons=buttons,
                   first_screen=args.screen)
    if buttons is not None:
        buttons.add_lights(app)
    service.start()
    mqtt_link = MqttLink(service, cfg, app, args.sim).start()
    detach = attach_hardware(args, service, app)
    demo = None
    if args.demo:
        demo = start_demo(service, app, args.demo_delay, args.demo_hands)
    try:
        app.run()
    finally:
        if demo is not None:
            demo.set()
        detach()
        mqtt_link.stop()
        if buttons is not None:
            buttons.close()
        service.stop()
        journal.close()
    if app.first_frame_s is not None:
        print(f"xian-table run: first frame {app.first_frame_s:.2f} s after launch", file=sys.stderr)
    if args.screenshot and os.path.exists(args.screenshot):
        print(f"xian-table run: screenshot written to {args.screenshot}", file=sys.stderr)
    played = f"demo played {app.demo_hands} hands; " if args.demo else ""
    print(f"xian-table run: {played}RSS {rss_mb():.0f} MB (peak {peak_rss_mb():.0f} MB)", file=sys.stderr)
    return 0


def rss_mb() -> float:
    try:
        with open("/proc/self/status", encoding="ascii") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return float("nan")


def peak_rss_mb() -> float:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


class _LinkLines:
    """``attach_inputs`` reports its links as text lines; the Settings screen shows the latest."""

    def __init__(self, app: Any) -> None:
        self.app = app

    def write(self, text: str) -> int:
        from kivy.clock import Clock

        line = text.strip().removeprefix("xian-table: ")
        key = "panel" if line.startswith("panel") else "hardware" if line.startswith("gpio") else None
        if key is not None:
            def show(*_: Any) -> None:
                self.app.links[key] = line
                if getattr(self.app, "sm", None) is not None:
                    self.app.refresh()

            Clock.schedule_once(show, 0)
        print(text, end="", file=sys.stderr)
        return len(text)

    def flush(self) -> None:
        sys.stderr.flush()


def attach_hardware(args: argparse.Namespace, service: Any, app: Any) -> Any:
    """``--gpio`` / ``--panel DEVICE``: the table's real buttons and panel (``hardware/``)."""
    if not (args.gpio or args.panel):
        return lambda: None
    if importlib.util.find_spec("hardware.attach") is None:
        app.message = "--gpio/--panel: the hardware package is not installed"
        return lambda: None
    from hardware.attach import attach_inputs

    return attach_inputs(service, panel=args.panel, gpio=args.gpio, out=_LinkLines(app),  # type: ignore[arg-type]
                         on_seating_dice=app.seating_dice)


class MqttLink:
    """The table on MQTT while the app runs: ``mqtt.url`` from the config, or with ``--sim``
    a broker on localhost:1883 if one answers (else the link is shown offline)."""

    def __init__(self, service: Any, cfg: Any, app: Any, sim: bool) -> None:
        self.service, self.cfg, self.app, self.sim = service, cfg, app, sim
        self.bridge: Any = None
        self.url = ""
        self._stopped = threading.Event()

    def start(self) -> MqttLink:
        threading.Thread(target=self._connect, daemon=True, name="mqtt-link").start()
        return self

    def _connect(self) -> None:
        from table_app.ui.sim import broker_answers

        url = getattr(self.cfg, "mqtt_url", "") or ""
        if not url and self.sim and broker_answers():
            url = "mqtt://localhost:1883"
        if url and not self._stopped.is_set() and importlib.util.find_spec("table_app.mqtt.bridge") is not None:
            try:
                from table_app.mqtt.bridge import MqttBridge
                from table_app.mqtt.topics import Topics, parse_url

                broker = parse_url(url)
                self.url = broker.redacted()
                self.bridge = MqttBridge(self.service, broker, Topics(self.cfg.mqtt_prefix, self.cfg.table_id),
                                         ha_prefix=getattr(self.cfg, "mqtt_discovery_prefix", "") or None).start()
            except Exception as e:  # a bad URL must not stop the table; Settings says why
                log.warning("MQTT: %s", e)
                self.url = f"{url}: {e}"
        from kivy.clock import Clock

        Clock.schedule_once(self._show, 0)
        Clock.schedule_interval(self._show, 2.0)

    def _show(self, *_: Any) -> bool:
        if self._stopped.is_set():
            return False
        ok = self.bridge is not None and bool(self.bridge.connected)
        state = "online" if ok else "offline"
        self.app.links["mqtt"] = f"{state} · {self.url}" if self.url else state
        if getattr(self.app, "sm", None) is not None and self.app.sm.current == "settings":
            self.app.refresh()
        return True

    def stop(self) -> None:
        self._stopped.set()
        if self.bridge is not None:
            self.bridge.stop()


def start_demo(service: Any, app: Any, delay: float, hands: int) -> threading.Event | None:
    """The simulator's bots play at a watchable speed (needs ``engine/bots.py``)."""
    if importlib.util.find_spec("engine.bots") is None:
        app.message = "--demo: engine/bots.py is not there yet; playing by touch"
        return None
    from kivy.clock import Clock

    from table_app.ui.demo import run_demo

    def done(played: int) -> None:
        app.demo_hands = played
        if hands:
            Clock.schedule_once(lambda *_: app.stop(), 0)

    stop = threading.Event()
    threading.Thread(target=run_demo, args=(service, stop), kwargs={"delay": delay, "hands": hands, "on_done": done},
                     daemon=True, name="demo").start()
    return stop
