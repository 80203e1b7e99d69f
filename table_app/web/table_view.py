"""The table page's view (issue 20): what the touchscreen's table screen shows, as JSON for any
browser — built from the same pure parts (:mod:`table_app.ui.view`, the wall model, the words
of :mod:`table_app.ui.text`), so a TV or a laptop beside the table reads exactly what the
touchscreen says. Nothing here decides a rule; Kivy is not imported.

>>> v = table_view({"phase": "idle"}, "en")
>>> v["status"], v["seats"][0]["place"], v["settlement"], v["final"]
('start a session', 'bottom', None, None)
"""

from __future__ import annotations

from typing import Any, Final

from table_app.ui import view
from table_app.ui.text import tr
from table_app.ui.wallmodel import screen_index, wall_view

# the words the page shows beside the view's own lines (headings, the legend)
WORDS: Final = ("settlement", "col_win", "col_kong", "col_bet", "col_hand", "col_total", "transfers", "final",
                "settle_up", "wall_legend", "wall_unbroken", "lang_button", "nav_join", "join_steps", "score",
                "seconds_left", "close", "page_next_hint", "page_new_hint")


def table_view(pub: dict[str, Any], lang: str, claim_left: float | None = None,
               claim_window_s: float | None = None) -> dict[str, Any]:
    """The whole table screen of ``pub`` (the service's public state) in ``lang``."""
    phase = pub.get("phase") or "idle"
    claims = pub.get("claims") if phase == "claims" else None
    waiting = set((claims or {}).get("waiting") or [])
    roller = view.roller(pub)
    seats = []
    for seat in range(4):
        lines = view.seat_lines(pub, seat, lang)
        seats.append({**lines, "seat": seat, "place": view.PLACES[seat],
                      "turn": phase == "turn" and pub.get("turn") == seat,
                      "roller": roller == seat,
                      "discarder": claims is not None and claims.get("from") == seat,
                      "awaited": seat in waiting})
    first, second = view.info_lines(pub, lang)
    countdown = None
    if claims is not None and claim_left is not None:
        countdown = {"left": round(max(0.0, claim_left), 2), "window": claim_window_s, "from": claims.get("from")}
    return {
        "lang": lang,
        "phase": phase,
        "status": view.status_line(pub, lang),  # (the page counts the seconds down itself: words.seconds_left)
        # (during a hand the wall's own line says where the draw starts; after it, who deals next)
        "info": [first] if phase != "hand_over" and pub.get("break") else [x for x in (first, second) if x],
        "countdown": countdown,
        "seats": seats,
        "wall": _wall(pub, lang),
        "settlement": _settlement(pub, lang),
        "final": _final(pub, lang) if phase == "ended" else None,
        "words": {k: tr(k, lang) for k in WORDS},
    }


def _wall(pub: dict[str, Any], lang: str) -> dict[str, Any]:
    """Each wall's 17 stacks in the screen's counter-clockwise order (wall 0 along the bottom,
    left to right; 1 up the right; 2 along the top, right to left; 3 down the left): each
    stack's upper and lower tile (``in``, ``head``: drawn, ``tail``: a kong replacement) and
    whether it is kept back; the marks as ``[wall, index]``."""
    v = wall_view(pub)
    walls: list[list[dict[str, Any]]] = [[{}] * 17 for _ in range(4)]
    for (w, stack), cell in v.cells.items():
        walls[w][screen_index(stack, v.direction)] = {"u": cell.upper, "l": cell.lower, "r": cell.reserve}

    def at(mark: tuple[int, int] | None) -> list[int] | None:
        return None if mark is None else [mark[0], screen_index(mark[1], v.direction)]

    return {"walls": walls, "broken": v.broken, "line": view.wall_line(pub, lang),
            "head": at(v.head), "tail": at(v.tail), "next": at(v.next_head)}


def _settlement(pub: dict[str, Any], lang: str) -> dict[str, Any] | None:
    if not pub.get("last_settlement"):
        return None
    rows = [{"seat": seat, "name": name, "win": win, "kong": kong, "bet": bet, "hand": hand, "total": total}
            for seat, (name, win, kong, bet, hand, total) in enumerate(view.settlement_rows(pub))]
    return {"head": view.settlement_head(pub, lang), "rows": rows, "transfers": view.transfer_lines(pub, lang)}


def _final(pub: dict[str, Any], lang: str) -> dict[str, Any]:
    players = pub.get("players") or [""] * 4
    scores = pub.get("scores") or [0] * 4
    return {"ranking": [{"rank": tr("rank_n", lang, n=rank), "name": players[seat], "score": scores[seat],
                         "seat": seat} for rank, seat in view.ranking(scores)],
            "hands": tr("hands_played", lang, n=len(pub.get("results") or [])),
            "settle": view.settle_lines(pub, lang)}
