# What the seat display shows: one frame drawn from the display's state (no I/O here).
#
# Two layouts: 128x64 on a 1-bit OLED and 240x240 on a colour screen. Both show the seat's
# wind large, the player's name (a bitmap the table renders), the dealer mark 庄, the score
# and rank, and a status line at the bottom: emphasised (inverted, or in colour) when it is
# this seat's turn, when it may claim (with the countdown), after its win, and when offline.
import framebuf
from seat_words import (
    CLAIM,
    DEALER,
    DRAWN,
    NO_WIFI,
    OFFLINE,
    PHASES,
    RANK,
    RETRYING,
    SEAT,
    TABLE_OFF,
    WIND_EN,
    WIND_ZH,
    YOU_WON,
    YOUR_TURN,
)

# colour roles; a Canvas maps them to the screen's own colour values
BG = 0
FG = 1
HI = 2  # your turn
ALERT = 3  # claim, offline, dealer


class Canvas:
    """A framebuffer, its size and format, and the colour of each role."""

    def __init__(self, fb, width, height, fmt, colours):
        self.fb = fb
        self.width = width
        self.height = height
        self.colours = colours  # (bg, fg, hi, alert) in the framebuffer's values
        self.palette = framebuf.FrameBuffer(bytearray(4), 2, 1, fmt)

    def ink(self, role):
        """The palette for glyphs of that colour: 0 -> a key colour (transparent), 1 -> ink."""
        c = self.colours[role]
        key = 0 if c else 1
        self.palette.pixel(0, 0, key)
        self.palette.pixel(1, 0, c)
        return key


class State:
    """What the screen shows, as the app keeps it up to date."""

    def __init__(self, seat):
        self.seat = seat
        self.view = None  # the latest seat view (dict), None before the first
        self.name = None  # (width, height, bytearray MONO_HLSB) of the player's name
        self.link = "wifi"  # "up", or why not: "wifi" (no network), "broker" (no broker)
        self.table_online = None  # the table's status topic: True, False, None (not heard)
        self.claim_left_ms = None  # the claim countdown while this seat may claim


def text(cv, font, s, x, y, face, role):
    key = cv.ink(role)
    return font.draw(cv.fb, s, x, y, face, cv.palette, key)


def status_of(st):
    """The status line: (zh, en, extra text, emphasis role or None, countdown fraction or None)."""
    if st.link == "wifi":
        return NO_WIFI[0], NO_WIFI[1], "", ALERT, None
    if st.link != "up":
        return OFFLINE[0], OFFLINE[1], RETRYING[1], ALERT, None
    if st.table_online is False:
        return TABLE_OFF[0], TABLE_OFF[1], "", ALERT, None
    v = st.view
    if v is None:
        return PHASES[None][0], PHASES[None][1], "", None, None
    if v.get("your_turn"):
        return YOUR_TURN[0], YOUR_TURN[1], "", HI, None
    if v.get("can_claim"):
        left = st.claim_left_ms
        return CLAIM[0], CLAIM[1], f"{(left + 999) // 1000}s" if left is not None else "", ALERT, left
    phase = v.get("phase")
    if phase == "hand_over":
        delta = v.get("last_delta")
        extra = f"{delta:+d}" if delta else ""
        if v.get("winner") == st.seat:
            return YOU_WON[0], YOU_WON[1], extra, HI, None
        if v.get("winner") is None:
            return DRAWN[0], DRAWN[1], extra, None, None
        zh, en = PHASES[phase]
        return zh, en, extra, None, None
    zh, en = PHASES.get(phase, PHASES[None])
    return zh, en, "", None, None


def draw(cv, font, st, claim_window_ms):
    """Draw the whole frame for ``st`` (the caller then shows it)."""
    cv.fb.fill(cv.colours[BG])
    big = cv.width >= 200
    g = GEOMETRY_L if big else GEOMETRY_S
    v = st.view
    _wind(cv, font, st, g)
    right = g["right"]
    dealer = v is not None and v.get("dealer")
    name_x = g["name_x"]
    name_w = cv.width - name_x - (g["dealer"] + 2 if dealer else 0)
    if st.name is not None and st.name[0] > 0:
        w, h, bits = st.name
        cell = framebuf.FrameBuffer(bits, w, h, framebuf.MONO_HLSB)
        key = cv.ink(FG)
        # clip to the room left of the dealer mark: draw into a narrower window of the screen
        if w > name_w:
            cell = framebuf.FrameBuffer(bits, name_w, h, framebuf.MONO_HLSB, (w + 7) & ~7)
        cv.fb.blit(cell, name_x, 0, key, cv.palette)
    if dealer:
        d = g["dealer"]
        cv.fb.fill_rect(cv.width - d, 0, d, d, cv.colours[ALERT])
        off = (d - font.face("cjk").height) // 2
        text(cv, font, DEALER[0], cv.width - d + (d - font.width(DEALER[0], "cjk")) // 2, off, "cjk",
             BG if cv.colours[ALERT] == cv.colours[FG] else FG)
    if v is not None:
        score = v.get("score") or 0
        text(cv, font, f"{score:+d}" if score else "0", right, g["score_y"], "num", FG)
        rank = str(v.get("rank") or "-")
        if big:
            text(cv, font, RANK[0] + rank + RANK[1], right, g["rank_y"], "cjk", FG)
            text(cv, font, RANK[2] + " " + rank, right, g["rank_y"] + font.face("cjk").height + 4, "latin", FG)
        else:
            text(cv, font, RANK[2] + " " + rank, right, g["rank_y"], "latin", FG)
    _status(cv, font, st, g, claim_window_ms)


def _wind(cv, font, st, g):
    v = st.view
    wind = v.get("wind") if v is not None else None
    col = g["wind_col"]
    if wind in WIND_ZH:
        zh = WIND_ZH[wind]
        text(cv, font, zh, (col - font.width(zh, "wind")) // 2, g["wind_y"], "wind", FG)
        en = WIND_EN[wind]
        text(cv, font, en, max(0, (col - font.width(en, "latin")) // 2), g["wind_en_y"], "latin", FG)
        return
    # no wind yet (before seating): the seat number, so each display can be told apart
    seat = str(st.seat)
    text(cv, font, SEAT[0], (col - font.width(SEAT[0], "cjk")) // 2, g["wind_y"], "cjk", FG)
    text(cv, font, seat, (col - font.width(seat, "num")) // 2, g["wind_y"] + font.face("cjk").height + 2, "num", FG)
    text(cv, font, SEAT[1], max(0, (col - font.width(SEAT[1], "latin")) // 2), g["wind_en_y"], "latin", FG)


def _status(cv, font, st, g, claim_window_ms):
    zh, en, extra, role, left = status_of(st)
    y, h = g["bar_y"], cv.height - g["bar_y"]
    if role is not None:
        cv.fb.fill_rect(0, y, cv.width, h, cv.colours[role])
        ink = BG if cv.colours[role] == cv.colours[FG] or role == HI else FG
    else:
        cv.fb.hline(0, y, cv.width, cv.colours[FG])
        ink = FG
    pad = g["pad"]
    ch, lh = font.face("cjk").height, font.face("latin").height
    if left is not None and claim_window_ms:
        # the countdown as a shrinking bar along the bottom edge
        bh = g["progress"]
        cv.fb.fill_rect(0, cv.height - bh, cv.width, bh, cv.colours[BG])
        cv.fb.fill_rect(0, cv.height - bh, cv.width * min(left, claim_window_ms) // claim_window_ms, bh,
                        cv.colours[FG])
    if g["two_lines"]:
        ty = y + g["bar_pad"]
        text(cv, font, zh, pad, ty, "cjk", ink)
        text(cv, font, en, pad, ty + ch + 4, "latin", ink)
        if extra:
            # large figures; a trailing unit (the countdown's "s") in the Latin face
            unit = extra[-1] if extra[-1] == "s" else ""
            figures = extra[:-1] if unit else extra
            face = "num" if font.has(figures, "num") else "latin"
            x = cv.width - pad - font.width(figures, face) - font.width(unit, "latin")
            nh = font.face(face).height
            x = text(cv, font, figures, x, y + (h - nh) // 2, face, ink)
            text(cv, font, unit, x, y + (h - nh) // 2 + nh - lh, "latin", ink)
        return
    ty = y + (h - ch) // 2 + (1 if h > ch else 0)
    room = cv.width - 2 * pad
    extra_w = font.width(extra, "latin") + 4 if extra else 0
    x = text(cv, font, zh, pad, ty, "cjk", ink)
    if font.width(zh, "cjk") + 4 + font.width(en, "latin") + extra_w <= room:
        text(cv, font, en, x + 4, y + (h - lh) // 2 + 1, "latin", ink)
    if extra:
        text(cv, font, extra, cv.width - pad - font.width(extra, "latin"), y + (h - lh) // 2 + 1, "latin", ink)


GEOMETRY_S = {"right": 42, "name_x": 42, "dealer": 17, "wind_col": 40, "wind_y": 0, "wind_en_y": 36,
              "score_y": 16, "rank_y": 36, "bar_y": 47, "pad": 2, "progress": 2, "two_lines": False, "bar_pad": 0}
GEOMETRY_L = {"right": 112, "name_x": 0, "dealer": 36, "wind_col": 104, "wind_y": 40, "wind_en_y": 140, "score_y": 44,
              "rank_y": 100, "bar_y": 168, "pad": 8, "progress": 6, "two_lines": True, "bar_pad": 6}
