# Every fixed word the seat display shows, in Chinese and English.
#
# The font build (table_app/seat_display/fontgen.py) takes its characters from this module,
# so the screen can only show words whose glyphs are in the font on the board.
WIND_ZH = {"E": "东", "S": "南", "W": "西", "N": "北"}
WIND_EN = {"E": "EAST", "S": "SOUTH", "W": "WEST", "N": "NORTH"}
DEALER = ("庄", "DEALER")
RANK = ("第", "名", "RANK")  # 第2名 · RANK 2
SEAT = ("座位", "SEAT")

# The status line: (zh, en). Emphasised ones are drawn inverted (or in colour).
YOUR_TURN = ("轮到你", "YOUR TURN")
CLAIM = ("叫牌", "CLAIM?")
YOU_WON = ("你胡了", "YOU WON")
HAND_OVER = ("本局结束", "HAND OVER")
DRAWN = ("荒牌", "DRAWN")
WAITING = ("等待", "WAITING")
OFFLINE = ("离线", "OFFLINE")
NO_WIFI = ("无网络", "NO WI-FI")
TABLE_OFF = ("桌子离线", "TABLE OFF")
RETRYING = ("重连中", "RETRYING")

# The status line when nothing is asked of this seat, by the table's phase.
PHASES = {
    None: ("等待开局", "NEW GAME?"),
    "idle": ("等待开局", "NEW GAME?"),
    "seating": ("定位", "SEATING"),
    "betting": ("下注", "BETS"),
    "rolling": ("掷骰子", "DICE"),
    "turn": WAITING,
    "claims": WAITING,
    "win_pending": ("确认胡牌", "CHECKING"),
    "hand_over": HAND_OVER,
    "ended": ("牌局结束", "GAME OVER"),
}

# Latin letters, digits and signs every screen size has (English words, numbers, seconds).
LATIN = " !#+-./0123456789:?ABCDEFGHIJKLMNOPQRSTUVWXYZs"
DIGITS = "+-0123456789"  # the large score figures


def all_cjk():
    """Every character outside ASCII in the words above (what the font must have)."""
    seen = set()  # type: set[str]
    for value in (WIND_ZH, DEALER, RANK, SEAT, YOUR_TURN, CLAIM, YOU_WON, HAND_OVER, DRAWN, WAITING,
                  OFFLINE, NO_WIFI, TABLE_OFF, RETRYING, PHASES):
        _collect(value, seen)
    return "".join(sorted(seen))


def _collect(value, seen):
    if isinstance(value, str):
        for ch in value:
            if ord(ch) > 127:
                seen.add(ch)
    elif isinstance(value, dict):
        for v in value.values():
            _collect(v, seen)
    elif isinstance(value, tuple):
        for v in value:
            _collect(v, seen)
