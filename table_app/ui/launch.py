"""Start the touchscreen app: configure Kivy (before importing it), open the table through
the one composition root (``table_app.compose``: journal, service, MQTT, the phones' pages,
the buttons), show each part's link state in Settings, run the app.

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
from typing import Any, Final

log = logging.getLogger(__name__)


def launched_at() -> float:
    """``time.monotonic()`` of the moment this process started (Linux: /proc), so that the
    first-frame figure includes the interpreter's own start-up and the imports."""
    try:
        with open("/proc/self/stat", encoding="ascii") as f:
            start_ticks = int(f.read().rsplit(")", 1)[1].split()[19])
        with open("/proc/uptime", encoding="ascii") as f:
            uptime = float(f.read().split()[0])
        age = uptime - start_ticks / os.sysconf("SC_CLK_TCK")
        return time.monotonic() - max(0.0, age)
    except (OSError, ValueError, IndexError):
        return time.monotonic()


def display_bounds() -> tuple[int, int, int, int] | None:
    """(x, y, width, height) of the first display as SDL sees it (X11, Wayland, KMS on the Pi),
    asked of the SDL library Kivy loads, before Kivy makes its window; None if SDL cannot say."""
    import ctypes

    import kivy.core.text  # noqa: F401  (its SDL2 text provider loads Kivy's SDL library)

    with open("/proc/self/maps", encoding="utf-8", errors="replace") as maps:
        path = next((line.split()[-1] for line in maps if "/libSDL2-2" in line or "/libSDL2.so" in line), None)
    if path is None:
        return None

    class Rect(ctypes.Structure):
        _fields_ = [("x", ctypes.c_int), ("y", ctypes.c_int), ("w", ctypes.c_int), ("h", ctypes.c_int)]

    sdl = ctypes.CDLL(path)
    video = 0x20  # SDL_INIT_VIDEO
    if sdl.SDL_InitSubSystem(video) != 0:
        return None
    try:
        r = Rect()
        if sdl.SDL_GetNumVideoDisplays() < 1 or sdl.SDL_GetDisplayBounds(0, ctypes.byref(r)) != 0:
            return None
        return (r.x, r.y, r.w, r.h) if r.w > 0 and r.h > 0 else None
    finally:
        sdl.SDL_QuitSubSystem(video)  # (Kivy starts video itself, after its own hints)


def configure_kivy(width: int, height: int, fullscreen: bool) -> None:
    """Kivy's settings before it is imported. Full screen is the display's own size: the window
    is asked for at exactly the display's bounds, so it covers the screen even where nothing
    makes it full screen (X with no window manager, which left a 1280×720 window in the middle
    of a 1280×800 screen while Kivy laid out 1280×800: the menu off the top, touches ~50 px off);
    ``width``×``height`` is then only what a display that reports no size gets."""
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_FILELOG", "1")
    os.environ.setdefault("KIVY_LOG_MODE", "PYTHON")
    os.environ.setdefault("KIVY_CLIPBOARD", "sdl2")  # not xsel/xclip, which a Pi may lack
    os.environ.setdefault("KIVY_IMAGE", "sdl2")  # PNGs through SDL_image: Pillow and the others are not loaded
    logging.getLogger("kivy").setLevel(logging.WARNING)
    from kivy.config import Config

    Config.set("kivy", "log_level", "warning")
    logging.getLogger("kivy").setLevel(logging.WARNING)
    Config.set("kivy", "exit_on_escape", "0")
    Config.set("input", "mouse", "mouse,disable_multitouch")
    bounds = display_bounds() if fullscreen else None
    if bounds is not None:
        left, top, width, height = bounds
        Config.set("graphics", "position", "custom")
        Config.set("graphics", "left", str(left))
        Config.set("graphics", "top", str(top))
    Config.set("graphics", "width", str(width))
    Config.set("graphics", "height", str(height))
    Config.set("graphics", "fullscreen", "auto" if fullscreen else "0")
    # the touchscreen alone has no keyboard: names are typed on Kivy's docked on-screen keyboard
    Config.set("kivy", "keyboard_mode", "systemanddock" if fullscreen else "system")
    Config.set("graphics", "resizable", "1")


def main(args: argparse.Namespace, started: float | None = None) -> int:
    started = started if started is not None else time.monotonic()
    from table_app.compose import StartError, Table

    if args.demo and not args.db:  # the bots' hands do not go into the table's own journal
        import tempfile

        args.db = os.path.join(tempfile.mkdtemp(prefix="xian-table-demo-"), "demo.sqlite3")

    try:
        table = Table.open(config=args.config, db=args.db, verb="run")
    except StartError as e:
        print(e, file=sys.stderr)
        return e.status
    cfg, journal, service = table.cfg, table.journal, table.service
    from table_app.config.file import user_config_file
    from table_app.ui.units import DEFAULT_SIZE

    width, height = args.size or DEFAULT_SIZE
    configure_kivy(width, height, args.fullscreen)
    from table_app.ui.app import TableApp

    links = {
        "hardware": "simulated" if args.sim else "not_connected",
        "panel": "not_connected",
        "mqtt": "offline",
        "journal": str(journal.path),
        "table_id": cfg.table_id,
    }
    app = TableApp(service, journal=journal, sim=args.sim, lang=args.lang or cfg.ui_lang, links=links,
                   screenshot=args.screenshot, exit_after=args.exit_after, started=started,
                   first_screen=args.screen, layout="facing" if args.facing else cfg.ui_layout,
                   diagonal_in=cfg.ui_diagonal_in, config_path=cfg.source or user_config_file(), views=table.views)
    app.money_units = (cfg.money_unit_zh, cfg.money_unit_en)  # (the units first: the value's change words it)
    app.money_per_point = cfg.money_per_point
    table.add_link_listener(_LinkView(app))
    table.start()
    try:
        # MQTT and the phones' pages as configured (``--sim``: a broker on localhost:1883 if one answers),
        # in a thread: a broker that is slow to answer must not hold up the first frame
        threading.Thread(target=_outputs, args=(table, args.sim, getattr(args, "web", None)), daemon=True,
                         name="outputs").start()
        table.attach_inputs(panel=args.panel, gpio=args.gpio)
    except (ValueError, OSError) as e:  # a bad pin map, no GPIO on this machine
        app.message = str(e)
    demo = None
    if args.demo:
        demo = start_demo(service, app, args.demo_delay, args.demo_hands)
    try:
        app.run()
    finally:
        if demo is not None:
            demo.set()
        table.close()
    if app.first_frame_s is not None:
        w, h = app.window_size
        print(f"xian-table run: first frame {app.first_frame_s:.2f} s after launch ({w}×{h}, {app.layout}, "
              f"{app.lang}, {app.diagonal_in:g}\")", file=sys.stderr)
    if args.screenshot and os.path.exists(args.screenshot):
        print(f"xian-table run: screenshot written to {args.screenshot}", file=sys.stderr)
    played = f"demo played {app.demo_hands} hands; " if args.demo else ""
    print(f"xian-table run: {played}RSS {rss_mb():.0f} MB (peak {peak_rss_mb():.0f} MB)", file=sys.stderr)
    return 0


def _outputs(table: Any, local_broker: bool, web: str | None = None) -> None:
    try:
        table.attach_outputs(local_broker=local_broker, web_listen=web)
    except (ValueError, OSError) as e:  # a bad URL must not stop the table; Settings says why
        log.warning("outputs: %s", e)
        table.link("mqtt", "offline", str(e))


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


class _LinkView:
    """Each part's link state (``Table.add_link_listener``) into ``app.links`` for Settings,
    on the Kivy thread."""

    NAMES: Final = {"gpio": "hardware", "panel": "panel", "mqtt": "mqtt"}

    def __init__(self, app: Any) -> None:
        self.app = app

    def __call__(self, name: str, state: str, detail: str) -> None:
        from kivy.clock import Clock

        if name == "phones":  # the join link, new with each session's token: the QR code shows it
            url = detail if state == "join" else ""
            Clock.schedule_once(lambda *_: setattr(self.app, "join_url", url), 0)
            return
        key = self.NAMES.get(name)
        if key is None:
            return

        def show(*_: object) -> None:
            self.app.links[key] = f"{state} · {detail}" if detail else state
            if getattr(self.app, "sm", None) is not None and self.app.sm.current == "settings":
                self.app.refresh()

        Clock.schedule_once(show, 0)


def start_demo(service: Any, app: Any, delay: float, hands: int) -> threading.Event | None:
    """The simulator's bots play at a watchable speed (needs ``engine.bots``)."""
    if importlib.util.find_spec("engine.bots") is None:
        app.message = "--demo: engine.bots is not there; playing by touch"
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
