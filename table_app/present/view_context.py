"""The table at one committed change, as every front end reads it (issue 40): the public
state, its journal ``seq``, the claim window's seconds left, the seconds since the session
began, a point's money value and the fee so far — one value, built once per change
(:class:`table_app.views.table_views.TableViews`), from which MQTT ``seat/<n>``, the phones,
the table page and the touchscreen take their views. It does no I/O and reads no clock: the
times are read once, when it is built.

>>> from engine.public import public_state
>>> from engine.table import replay
>>> fee = {"mode": "hour", "rate": 30, "min": 0, "cap": None, "payer": "aa", "tea": 0}
>>> pub = public_state(replay([{"type": "new_session", "players": ["Ann", "Bo", "Cy", "Di"], "base": 1,
...                             "fee": fee}]))
>>> ctx = ViewContext(pub, 1, seconds=4000, money=Money.of("0.5"))
>>> print(ctx.fee_line("en").replace("\xa0", " "))
Fee so far 0 (0 yuan)
>>> ctx.seat(2)["fee"] == ctx.fee and ctx.table("zh")["fee"]["line"] == ctx.fee_line("zh")
True
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.public import PublicState
from engine.seats import SEATS
from table_app.present.fees import so_far_both, so_far_line
from table_app.present.money import Money
from table_app.present.seat import SeatView, seat_view
from table_app.present.table_page import TableView, table_view
from table_app.present.words import Both


@dataclass(frozen=True)
class ViewContext:
    """One change of the table with the times read when it was built.

    ``claim_left``: seconds until the service closes the open claim window (None: no window, or
    no timer); ``claim_window_s``: the window's whole length (the bars' scale); ``seconds``: since
    the session in play began, when a fee by the hour needs them (None: not needed or no
    session); ``money``: a point's value (None: points only)."""

    public: PublicState
    seq: int | None
    claim_left: float | None = None
    claim_window_s: float | None = None
    seconds: int | None = None
    money: Money | None = None

    @property
    def fee(self) -> Both | None:
        """The fee so far in both languages (None: no fee, or the session has ended)."""
        return so_far_both(self.public, self.seconds, self.money)

    def fee_line(self, lang: str) -> str:
        """The fee so far in ``lang`` ("" without one): the touchscreen's scores, the pages."""
        return so_far_line(self.public, self.seconds, lang, self.money)

    def seat(self, seat: int) -> SeatView:
        """Seat ``seat``'s view: MQTT ``seat/<n>``, ``/seat/<n>.json``, a phone's."""
        return seat_view(self.public, seat, self.claim_left, self.seq, self.money, self.seconds)

    def seats(self) -> list[SeatView]:
        return [self.seat(s) for s in range(SEATS)]

    def table(self, lang: str, undone: Both | None = None) -> TableView:
        """The table page's view in ``lang`` (the touchscreen's table screen); ``undone``: what
        the last undo took back."""
        return table_view(self.public, lang, self.claim_left, self.claim_window_s, self.seq, undone, self.money,
                          self.seconds)
