"""The ``xian-table`` command line: one entry point, one module per verb.

Each verb module has ``HELP`` (one line), ``register(parser)`` adding its arguments, and
``run(args) -> int`` (the exit status). Verbs must import heavy things (Kivy, paho) inside
``run`` so that ``--help`` and the other verbs stay fast.
"""

from __future__ import annotations

import argparse
import importlib
import keyword
import sys
from collections.abc import Sequence

from table_app.present.words import tr

# Add new verbs here, one line each, in the order --help shows them.
VERBS: tuple[str, ...] = (
    "run",
    "hand",
    "play",
    "dice",
    "score",
    "bench",
    "serve",
    "seat-display",
    "history",
    "players",
    "records",
    "export",
    "import",
    "install",
    "uninstall",
    "mqtt-users",
    "parlour-join",
    "parlour",
    "backup",
    "doctor",
    "hw-test",
    "simulate",
)

EXIT_OK = 0
EXIT_BAD_INPUT = 2  # also argparse's usage errors
EXIT_REJECTED = 3  # an event the rules refused


def module_name(verb: str) -> str:
    """The verb's module: ``seat-display`` is ``seat_display``, ``import`` (a Python keyword) ``import_``."""
    name = verb.replace("-", "_")
    return name + "_" if keyword.iskeyword(name) else name


def build_parser(verb: str | None = None) -> argparse.ArgumentParser:
    """The parser of every verb, or of ``verb`` alone (the others' modules are not imported:
    ``xian-table run`` starts the table sooner)."""
    parser = argparse.ArgumentParser(
        prog="xian-table",
        description=f"{tr('app_title', 'zh')} table assistant — Xi'an mahjong rules engine, scores and table tools.",
    )
    sub = parser.add_subparsers(dest="verb", metavar="VERB")
    for name in VERBS if verb not in VERBS else (verb,):
        module = importlib.import_module(f"table_app.cli.{module_name(name)}")
        p = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.register(p)
        p.set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    words = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(words[0] if words else None)
    args = parser.parse_args(argv)
    if not getattr(args, "_run", None):
        parser.print_help()
        return EXIT_BAD_INPUT
    try:
        return int(args._run(args))
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
