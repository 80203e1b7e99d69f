"""xian-table's rules engine: pure, typed, I/O-free (docs/rules.md, docs/design.md).

>>> s = replay([{"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1},
...             {"type": "seating", "method": "C", "east": 2}])
>>> s.phase, s.dealer
('betting', 2)
"""

from engine.errors import IllegalEventError, InvalidEventError, RuleError
from engine.events import parse_event
from engine.hand import analyse_win, is_winning_hand, winning_tiles
from engine.rules import XIAN, Rules
from engine.table import TableState, apply, new_table, push, replay
from engine.tiles import format_tiles, parse_tiles

__all__ = [
    "XIAN",
    "IllegalEventError",
    "InvalidEventError",
    "RuleError",
    "Rules",
    "TableState",
    "analyse_win",
    "apply",
    "format_tiles",
    "is_winning_hand",
    "new_table",
    "parse_event",
    "parse_tiles",
    "push",
    "replay",
    "winning_tiles",
]
