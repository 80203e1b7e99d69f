"""``xian-table run``: the table — the touchscreen app (Kivy), or the terminal table.

The default is the Kivy app (``table_app.ui``). ``--terminal`` keeps the earlier terminal
front end: type a hand in mpsz text (14 tiles: does it win and how; 13 tiles: what it
waits on), optionally followed by ``win=T`` and ``melds=M,M``.

Hands piped into ``run`` (``echo 1112345678999m | xian-table run``) go to the terminal table
as before, unless an app option (``--sim``, ``--demo``, ``--screenshot``, ``--fullscreen``)
is given. Where the app needs a display: X11 (``DISPLAY``), Wayland (``WAYLAND_DISPLAY``) or a KMS
console (``/dev/dri/card*``, SDL's kmsdrm). With none of them (a server, a laptop over SSH),
``run`` starts the table without a screen of its own: the service and its web pages
(``--web``, else ``web.listen``, else port 8080 on every interface so that phones can join),
and prints where a browser finds the table page (the touchscreen's table screen, live) and
the join link (with its QR code on a terminal). ``--xvfb`` instead runs the app on a virtual
X display (``xvfb-run``), which is how screenshots are made on a headless machine.
"""

from __future__ import annotations

import argparse
import glob
import os
import shutil
import signal
import stat
import sys
import threading
from typing import TextIO

from engine.rules import Rules
from engine.tiles import TileError
from table_app.cli.hand import analyse, render
from table_app.present.words import en_zh, tr

HELP = "run the table: the touchscreen app (--sim: simulated buttons; --terminal: the terminal table)"

BANNER = f"""{tr('app_title', 'zh')} xian-table — {en_zh('cli_terminal')}
Type a hand in mpsz text, e.g.  123m456p789s11122z   or   1112345678999m
Options after the hand: win=2p (the winning tile), melds=123m,5555z (exposed melds).
Commands: help, quit.
"""


BROWSER_WEB = ":8080"  # the web pages of a table without a display, unless --web or web.listen says
SCREENS = ("table", "wall", "scores", "history", "settings", "session", "rules", "seating", "sithere", "win",
           "settlement", "final", "entry")


def _size(text: str) -> tuple[int, int]:
    try:
        w, h = (int(x) for x in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"a size is WIDTHxHEIGHT like 800x480, got {text!r}") from None
    if w < 320 or h < 240:
        raise argparse.ArgumentTypeError(f"the window must be at least 320x240, got {text!r}")
    return w, h


def register(p: argparse.ArgumentParser) -> None:
    p.add_argument("--terminal", action="store_true", help="the terminal table (reading hands) instead of the app")
    p.add_argument("--sim", action="store_true",
                   help="simulated hardware: keys stand for each seat's buttons (1-5, q-t, a-g, z-b) and the dice "
                        "(space)")
    p.add_argument("--gpio", action="store_true", help="the seat buttons and LEDs on the Pi's GPIO pins")
    p.add_argument("--panel", metavar="DEVICE", help="the serial button panel, e.g. /dev/ttyACM0")
    p.add_argument("--demo", action="store_true", help="the simulator's bots play at a watchable speed")
    p.add_argument("--demo-delay", type=float, default=0.8, metavar="S", help="--demo: seconds between moves")
    p.add_argument("--demo-hands", type=int, default=0, metavar="N", help="--demo: quit after N hands (0: play on)")
    p.add_argument("--screenshot", metavar="PATH", help="write a PNG of the running app (just before --exit-after)")
    p.add_argument("--exit-after", metavar="S", type=float, help="quit after S seconds")
    p.add_argument("--lang", choices=("zh", "en"), help="the language shown first (default: ui.lang, zh)")
    p.add_argument("--size", type=_size, metavar="WxH",
                   help="window size, e.g. 800x480 or 1280x720 (default; with --fullscreen: the display's own size)")
    p.add_argument("--facing", action="store_true",
                   help="the screen lies in the middle of the table: each seat's panel faces its player (ui.layout)")
    p.add_argument("--screen", choices=SCREENS, help="the screen to show first (default: the one the phase calls for)")
    p.add_argument("--fullscreen", action="store_true", help="full screen (the Pi's touchscreen)")
    p.add_argument("--xvfb", action="store_true", help="with no display, run on a virtual X display (xvfb-run)")
    p.add_argument("--web", metavar="[HOST]:PORT",
                   help="the web pages (phones, the table page) here (default: web.listen; with no display: :8080)")
    p.add_argument("--config", metavar="FILE", help="the TOML config file (default: the user's, then /etc/xian-table/)")
    p.add_argument("--db", metavar="FILE", help="the SQLite journal (default: journal.path, or the user data dir)")
    p.add_argument("--seven-pairs", action="store_true", help="terminal table: count seven pairs as a winning hand")


def has_display(env: dict[str, str] | os._Environ[str] | None = None) -> bool:
    env = os.environ if env is None else env
    return bool(env.get("DISPLAY") or env.get("WAYLAND_DISPLAY") or glob.glob("/dev/dri/card*"))


def piped_input() -> bool:
    """Hands piped or redirected in (a FIFO or a file on stdin): the terminal table reads them.
    A terminal, or /dev/null as under systemd, leaves the app as the default."""
    try:
        mode = os.fstat(sys.stdin.fileno()).st_mode
    except (OSError, ValueError, AttributeError):
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISREG(mode)


def run(args: argparse.Namespace) -> int:
    from table_app.ui.launch import launched_at

    started = launched_at()
    if args.terminal or (piped_input() and not (args.sim or args.demo or args.screenshot or args.fullscreen)):
        return run_terminal(args)
    if not has_display():
        if args.xvfb:
            return _reexec_under_xvfb(args)
        return run_browser(args)
    from table_app.ui.launch import main

    return main(args, started)


def run_browser(args: argparse.Namespace) -> int:
    """No display: the table with its web pages; a browser shows the table page, phones (or
    four browser tabs) join as the seats. Runs until Ctrl-C or SIGTERM."""
    from table_app.cli.serve import _say_link, _serve_forever
    from table_app.compose import EXIT_USAGE, StartError, Table

    try:
        table = Table.open(config=args.config, db=args.db, verb="run")
    except StartError as e:
        print(e, file=sys.stderr)
        return e.status
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    with table:
        table.start()
        table.add_link_listener(lambda name, state, detail: _say_link(name, state, detail, "run"))
        listen = args.web or table.cfg.web_listen or BROWSER_WEB
        try:
            table.attach_outputs(web_listen=listen)
            table.attach_inputs(panel=args.panel, gpio=args.gpio)
        except (ValueError, OSError) as e:  # a bad address, a busy port, no GPIO on this machine
            print(f"xian-table run: {e} (another port: --web :8081)", file=sys.stderr)
            return EXIT_USAGE
        assert table.pages is not None
        port = table.pages.port
        print(f"xian-table run: no display here, so the table is in the browser:\n"
              f"  the table   http://localhost:{port}/table   (this machine; others: {table.pages.url}table)\n"
              f"  the seats   phones scan the join code (below; on the table page of this machine too),\n"
              f"              or open the join link in four browser tabs to play all four seats here\n"
              f"  (`xian-table run --terminal` reads hands in the terminal; Ctrl-C stops the table)",
              file=sys.stderr, flush=True)
        return _serve_forever(stop)


def _reexec_under_xvfb(args: argparse.Namespace) -> int:
    xvfb = shutil.which("xvfb-run")
    if xvfb is None:
        print("xian-table run: --xvfb needs xvfb-run (Debian: apt-get install xvfb xauth)", file=sys.stderr)
        return 2
    from table_app.ui.units import DEFAULT_SIZE

    w, h = args.size or DEFAULT_SIZE
    argv = [a for a in sys.argv[1:] if a != "--xvfb"]
    cmd = [xvfb, "-a", "-s", f"-screen 0 {w}x{h}x24", sys.executable, "-m", "table_app.cli", *argv]
    os.execv(xvfb, cmd)
    return 0  # not reached


def handle(line: str, rules: Rules, out: TextIO) -> bool:
    """Act on one typed line; False when the user asked to leave."""
    words = line.split()
    if not words:
        return True
    if words[0] in ("quit", "exit", "q"):
        return False
    if words[0] in ("help", "?"):
        out.write(BANNER)
        return True
    tiles, win, melds = [], None, []
    for w in words:
        if w.startswith("win="):
            win = w[4:]
        elif w.startswith("melds="):
            melds = [m for m in w[6:].split(",") if m]
        else:
            tiles.append(w)
    try:
        render(analyse("".join(tiles), win, melds, rules), out)
    except (TileError, ValueError) as e:
        out.write(f"! {e}\n")
    return True


def run_terminal(args: argparse.Namespace) -> int:
    rules = Rules(seven_pairs=args.seven_pairs)
    interactive = sys.stdin.isatty()
    if interactive:
        sys.stdout.write(BANNER)
    while True:
        if interactive:
            try:
                line = input(f"{en_zh('cli_tiles')}> ")
            except EOFError:
                print()
                return 0
        else:
            raw = sys.stdin.readline()
            if not raw:
                return 0
            line = raw
        if not handle(line, rules, sys.stdout):
            return 0
