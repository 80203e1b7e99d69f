"""What the web server answers for phones that join the table (issue 18): the join page and
its seats, joining (a seat, a name), the bound phone's page, its presses, leaving.

Only two things write: joining (``POST /join/<token>``, rate-limited per client address) and
a bound phone's press (``POST /phone/<seat>/press``, which needs the secret of its binding, an
HttpOnly ``SameSite=Strict`` cookie, and speaks only for its own seat). The cookie's path is
its seat's pages (``/phone/<seat>``), so that one browser can hold four seats in four tabs
(a demo on one computer: the table page and four seat pages). A phone's press is
a remote command (behind the table's own buttons; ``busy`` beyond the remote bound). A name
that cannot be set now (a hand is being played) is kept and sent when the table next takes
names. Everything else is read-only, as the rest of the server.

The route table (:data:`table_app.web.routes.ROUTES`) calls one method per path, with what
it needs of the request (the path's token or seat, the cookie header, the body, the client's
address); each returns a :class:`table_app.http_kit.server.Reply`.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent.futures import Future
from dataclasses import dataclass, field
from http.cookies import CookieError, SimpleCookie
from typing import TYPE_CHECKING, TypedDict

from engine.errors import InvalidEventError, RuleError
from engine.events import KONG_KINDS
from engine.fields import check_name
from engine.presses import BUTTONS, seat_press
from engine.public import PublicState
from engine.records import WAIT_KINDS, WaitKind, Wind
from engine.seats import SEATS
from engine.table import accepts
from table_app.core.sources import phone_source, source_seat
from table_app.http_kit.replies import form_refusal, json_object, json_reply, json_value, refused
from table_app.http_kit.replies import refusal as refusal_reply
from table_app.http_kit.server import Reply
from table_app.present.forms import end_session, new_session, seating
from table_app.present.forms.refused import Refused
from table_app.present.names import NAME_ROOM, name_width
from table_app.present.refusals import refusal
from table_app.present.seat import SeatView, seat_label
from table_app.present.words import WIND_EN, WIND_ZH, Both, both, tr
from table_app.system.bounded import UnsafeTextError, check_strings
from table_app.web.phone_decide import Decide, DecideView, Send
from table_app.web.phone_score import SCORE_STEPS, PhoneScore, ScoreView
from table_app.web.phones import Phones
from table_app.web.taps import PHONE_WAIT_S, Taps

if TYPE_CHECKING:
    from table_app.core.service import Answer, Notice, TableService

log = logging.getLogger(__name__)

COOKIE = "xian_phone"
HTML = "text/html; charset=utf-8"


class WaitChoice(TypedDict):
    wait: WaitKind
    zh: str
    en: str


class Steps(TypedDict):
    """The table's own steps a bound phone offers now."""

    new_session: bool
    seating: bool
    waits: list[WaitChoice] | None
    winner: int | None
    reject_win: bool
    next_hand: bool
    end_session: bool


class PhoneView(SeatView):
    """A bound phone's view: its seat's, a name waiting to be set, the table's steps it offers;
    whether another phone asks for this seat, which seats changed phone lately, and the words of
    the page's link to the table (:mod:`table_app.web.phone_join`)."""

    name_pending: str | None
    steps: Steps
    words: dict[str, dict[str, str]]  # the page's own words (present.buttons.PHONE_WORDS)
    keeping: ScoreView  # keeping score from phones: a new session's form, bets, the last session
    decide: DecideView  # proposals, what an undo took back, what this seat may decide (phone_decide)
    takeover: int | None
    changed: list[Both]


class JoinSeat(TypedDict):
    seat: int
    name: str
    wind: Wind | None
    wind_zh: str | None
    wind_en: str | None
    label: Both  # the seat in words: its wind, or its place before the winds are drawn (never 座0-座3)
    phone: bool


def phone_secret(cookie_header: str | None) -> str | None:
    """The phone's secret from its ``Cookie`` header (None if there is none or it is malformed)."""
    if not cookie_header or len(cookie_header) > 4096:
        return None
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(cookie_header)
    except CookieError:
        return None
    morsel = jar.get(COOKIE)
    return morsel.value if morsel is not None and 0 < len(morsel.value) <= 64 else None


@dataclass
class PhoneRoutes:
    service: TableService
    page: Callable[[str], str]  # the text of a page file (join.html, phone.html), {{TABLE}} filled in
    phones: Phones = field(default_factory=Phones)
    on_new_token: Callable[[], None] | None = None  # a new session made a new join token (its QR code)
    taps: Taps = field(default_factory=Taps)  # each tap sent once, answered as often as asked
    wait_s: float = PHONE_WAIT_S  # a request's wait for the durable answer, then "still saving"
    _pending_names: dict[int, str] = field(default_factory=dict)
    _lock: threading.Lock = field(default_factory=threading.Lock)
    score: PhoneScore = field(init=False)  # a new session's form, bets, the last session (phone_score.py)
    decide: Decide = field(init=False)  # who decides a win, 诈胡, undo, a result (issue 27)

    def __post_init__(self) -> None:
        self.score = PhoneScore(self.service)
        self.score.refresh()  # (the last session, from the journal)
        self.decide = Decide(self.service, entered=self.score.entered)  # (a result-only form starts from the bets)

    # -- following the table -------------------------------------------------------------

    def __call__(self, notice: Notice) -> None:
        """The service observer (its thread: never blocks): a new session forgets the phones
        (not one the phones started: they stay at their seats) and makes a new join token;
        names kept for later are sent when the table takes names again."""
        if not notice.changed:
            return
        self.score(notice)
        if notice.event is not None and notice.event.TYPE == "new_session" and notice.kind != "undo":
            by_phones = source_seat(notice.source) is not None  # (they keep their seats and the code)
            self.phones.new_session(keep_bindings=by_phones)  # (written beside the journal, as the event was)
            with self._lock:
                self._pending_names.clear()
            if self.on_new_token is not None and not by_phones:
                self.on_new_token()
        if "name" in accepts(notice.state["phase"]):
            with self._lock:
                waiting, self._pending_names = self._pending_names, {}
            for seat, name in waiting.items():
                if notice.state["players"][seat] != name:
                    self.service.submit({"type": "name", "seat": seat, "name": name}, phone_source(seat), remote=True)

    def steps(self, public: PublicState, seat: int) -> Steps:
        """The table's own steps a bound phone offers now (a table without a screen is run from
        its phones): what the engine's phase takes, among the forms of the touchscreen that a
        phone can fill in — a new session (with the seats' names; also over an unplayed one,
        which it replaces), seating by the wind tiles
        (the phone whose player drew East), the winner's wait, 诈胡, the next hand and the
        end of the session (between hands)."""
        phase = public["phase"]
        taken = accepts(phase)
        pending = public["pending_win"] if "confirm_win" in taken else None
        waits: list[WaitChoice] | None = None
        if pending is not None:
            waits = [] if public["mode"] == "full" else [  # (every tile known: the engine reads the wait)
                {"wait": w, "zh": tr(f"wait_{w}", "zh"), "en": tr(f"wait_{w}", "en")} for w in WAIT_KINDS]
        return {"new_session": new_session.offered(public), "seating": seating.open_now(public),
                "waits": waits, "winner": None if pending is None else pending["seat"],
                "reject_win": "reject_win" in taken, "next_hand": "next_hand" in taken,
                "end_session": end_session.offered(public)}

    def pending_name(self, seat: int) -> str | None:
        with self._lock:
            return self._pending_names.get(seat)

    # -- requests ---------------------------------------------------------------------------

    def join_page(self, token: str) -> Reply:
        if not self.phones.token_ok(token):
            return Reply(403, HTML, self.page("join_old.html").encode())
        return Reply(200, HTML, self.page("join.html").encode())

    def join_seats(self, token: str) -> Reply:
        if not self.phones.token_ok(token):
            return Reply(403, HTML, self.page("join_old.html").encode())
        return json_reply(200, {"seats": self.seats()})

    def phone_page(self, seat_text: str, cookie: str | None) -> Reply:
        """The bound phone's page; any other browser (or no such seat) is sent back to ``/``."""
        seat = _seat(seat_text)
        if seat is None or self.phones.seat_of(phone_secret(cookie)) != seat:
            return Reply(303, HTML, b"", (("Location", "/"),))
        return Reply(200, HTML, self.page("phone.html").encode())

    def leave(self, seat: int, cookie: str | None) -> Reply:
        secret = phone_secret(cookie)
        left = self.phones.leave(secret) if self.phones.seat_of(secret) == seat else None
        gone = f"{COOKIE}=; Path=/phone/{seat}; Max-Age=0"
        return json_reply(200, {"ok": True, "seat": left}, ("Set-Cookie", gone))

    def seats(self) -> list[JoinSeat]:
        public = self.service.public
        taken = self.phones.taken()
        out: list[JoinSeat] = []
        for s in range(SEATS):
            w = public["winds"][s]
            out.append({"seat": s, "name": public["players"][s], "wind": w,
                        "wind_zh": None if w is None else WIND_ZH[w], "wind_en": None if w is None else WIND_EN[w],
                        "label": seat_label(public, s), "phone": taken[s]})
        return out

    def bound_view(self, seat: int, cookie: str | None) -> tuple[int | None, Both | None]:
        """For the phone's event stream of ``/phone/<seat>``: the seat (None: this browser is not
        bound to it) and why, if it lost it."""
        secret = phone_secret(cookie)
        if self.phones.seat_of(secret) != seat:
            replaced = self.phones.was_replaced(secret)
            why = both("phone_replaced" if replaced else "phone_unbound")
            return None, why
        self.phones.seen(seat)  # (its stream is open: the seat is not taken over unasked)
        return seat, None

    # -- the two that write ---------------------------------------------------------------------

    def join(self, token: str, body: bytes, client: str, asking: bool = False) -> Reply:
        """A phone joins a seat. A seat whose phone is here is not taken over unasked: that phone
        is asked (202 with an ``ask``), and the joining phone asks again (``asking``: with its
        ``ask``, whose 128 bits stand for the join limit) until it is answered."""
        data = json_object(body)  # (its only text is the name: the names' own rule, check_name, below)
        ask = data.get("ask") if asking and data is not None else ""
        if asking and not (isinstance(ask, str) and self.phones.ask_known(ask)):
            return refused(403, "lk_ask_gone", "join.ask_gone")
        if not asking and not self.phones.may_try(client):
            return refused(429, "ph_too_many", "join.rate")
        if not self.phones.token_ok(token):
            if not asking and not self.phones.wrong_token():
                return refused(429, "ph_too_many", "join.rate")
            return refused(403, "phone_old_code", "join.token")
        if data is None or set(data) - {"seat", "name", *(("ask",) if asking else ())}:
            return refused(400, "ph_bad_join", "invalid")
        seat = data.get("seat")
        if type(seat) is not int or not 0 <= seat < SEATS:
            return refused(400, "ph_pick_seat", "invalid")
        name = data.get("name")
        if name is not None:
            try:
                name = check_name(name)
            except InvalidEventError:
                return refused(400, "ph_bad_name",
                                "invalid.name")
            if name_width(name) > NAME_ROOM:  # (the touchscreen's own limit: shown whole on every screen)
                return refused(400, "name_too_long", "invalid.name", name=name)
        joined = self.phones.join(seat, ask if isinstance(ask, str) else "")
        if joined.outcome == "asking":  # (the seat's phone is here: its page asks it)
            return json_reply(202, {"ok": None, "asking": True, "ask": joined.ask, "seat": seat, "code": "join.asking",
                               "zh": tr("lk_asking", "zh"), "en": tr("lk_asking", "en")})
        if joined.outcome == "refused":
            return refused(403, "lk_ask_refused", "join.refused")
        secret, replaced = joined.secret, joined.replaced
        pending = False
        if name is not None and self.service.roster is not None:  # (remembered now, even while a hand keeps it waiting)
            self.service.roster.add(name)
        if name is not None and self.service.public["players"][seat] != name:
            future = self.service.submit({"type": "name", "seat": seat, "name": name}, phone_source(seat), remote=True)
            try:
                answer = future.result(self.wait_s)
            except TimeoutError:  # a slow disk: the join is answered now, the name kept if refused later
                future.add_done_callback(lambda f: self._keep_if_refused(seat, name, f.result()))
                pending = True
            else:
                self._keep_if_refused(seat, name, answer)
                pending = not answer.ok
        cookie = f"{COOKIE}={secret}; Path=/phone/{seat}; HttpOnly; SameSite=Strict; Max-Age=86400"
        return json_reply(200, {"ok": True, "seat": seat, "page": f"/phone/{seat}", "replaced": replaced,
                           "name_pending": pending}, ("Set-Cookie", cookie))

    def _keep_if_refused(self, seat: int, name: str, answer: Answer) -> None:
        if not answer.ok:
            with self._lock:
                self._pending_names[seat] = name  # a hand is on: sent when the table takes names again

    def press(self, seat: int, body: bytes, cookie: str | None) -> Reply:
        if self.phones.seat_of(phone_secret(cookie)) != seat:
            return refused(401, "ph_no_seat", "phone.unbound")
        data = _command_body(body)
        if isinstance(data, Reply):
            return data
        if data is None:
            return refused(400, "ph_not_press", "invalid")
        tap, known = self._known_tap(seat, data)
        if known is not None:
            return known
        kind = data.get("type")
        if kind == "press" and set(data) <= {"type", "button", "held"} and data.get("button") in BUTTONS:
            public = self.service.public
            try:  # (the dice are the seat's only when it is due to roll: the engine's rule)
                command: dict[str, object] = seat_press(seat, str(data["button"]), data.get("held") is True,
                                                        public["actions"]).to_json()
            except RuleError as e:
                zh, en = (refusal(e.code, e.params, str(e), public["players"], lang) for lang in ("zh", "en"))
                return refusal_reply(409, zh, en, e.code)
        elif kind == "pass" and set(data) == {"type"}:
            command = {"type": "pass", "seat": seat}
        elif kind == "kong" and set(data) == {"type", "kind"} and data["kind"] in KONG_KINDS:
            command = {"type": "kong", "seat": seat, "kind": data["kind"]}
        else:
            return refused(400, "ph_bad_button", "invalid")
        return self._send(seat, tap, data, command)

    def step(self, seat: int, body: bytes, cookie: str | None) -> Reply:
        """One of the table's own steps (:meth:`steps`) from a bound phone."""
        if self.phones.seat_of(phone_secret(cookie)) != seat:
            return refused(401, "ph_no_seat", "phone.unbound")
        data = _command_body(body)
        if isinstance(data, Reply):
            return data
        tap = ""
        if data is not None:
            tap, known = self._known_tap(seat, data)
            if known is not None:
                return known
        decided = None if data is None else self.decide.step(seat, data)  # a win, 诈胡, undo, a result
        if decided is not None:
            return self._decided(seat, tap, data or {}, decided)
        kind = None if data is None else data.get("type")
        public = self.service.public
        command: dict[str, object]
        if kind in SCORE_STEPS:  # a new session's form, a seat's bet: table_app/web/phone_score.py
            made = self.score.step(seat, data or {}, public, self.pending_name)
            return made if isinstance(made, Reply) else self._send(seat, tap, data or {}, made)
        if kind == "seating" and set(data or ()) == {"type"}:
            command = seating.drew_east(seat)  # this phone's player drew East
        elif kind == "end_session" and set(data or ()) == {"type"}:
            ended = end_session.command(public)  # (its second tap was the page's)
            if isinstance(ended, Refused):
                return form_refusal(ended)
            command = ended
        elif kind == "next_hand" and set(data or ()) == {"type"}:
            command = {"type": kind}
        else:
            return refused(400, "ph_not_step", "invalid")
        return self._send(seat, tap, data or {}, command)

    def pick(self, seat: int, body: bytes, cookie: str | None) -> Reply:
        """A roster name tapped into a bound phone's new-session form: what it does, from the
        form (:mod:`table_app.present.forms.roster_pick`); read-only."""
        if self.phones.seat_of(phone_secret(cookie)) != seat:
            return refused(401, "ph_no_seat", "phone.unbound")
        data = _command_body(body)
        if isinstance(data, Reply):
            return data
        return self.score.pick(data or {})

    # -- a tap: sent once, answered when durable or told "still saving" ---------------------------

    def _known_tap(self, seat: int, data: dict[str, object]) -> tuple[str, Reply | None]:
        """The request's tap id (taken out of ``data``; a new one if it carries none) and, for
        a tap this seat sent before, its answer: the first request's, never a second command."""
        tap = data.pop("tap", None)
        if tap is None:
            return Taps.new_id(), None
        if not Taps.valid(tap):
            return "", refused(400, "ph_bad_tap", "invalid.tap")
        assert isinstance(tap, str)
        known = self.taps.find(seat, tap)
        if known is None:
            return tap, None
        if known[0] is not None and known[0] != data:  # (None: applied before a restart, by the journal)
            return tap, refused(409, "ph_tap_reused", "phone.tap_reused")
        return tap, self._wait(tap, known[1])

    def _decided(self, seat: int, tap: str, request: dict[str, object], decided: Reply | Send) -> Reply:
        return decided if isinstance(decided, Reply) else self._send(seat, tap, request, decided.command, decided.by)

    def _send(self, seat: int, tap: str, request: dict[str, object],
              command: dict[str, object] | list[dict[str, object]] | Future[Answer], by: int | None = None) -> Reply:
        """Submit a tap once; the journal's source names the seat and the tap (``phone 2 tap …``),
        and the seat whose proposal it agrees to (``… agrees phone 0``). A list: commands sent in
        turn, each once the one before is taken (a new session replacing an unplayed one: its
        undo, then the session), all with the tap's source. A future for ``command``: a tap
        taken with nothing to submit (a bet kept for later)."""
        source = phone_source(seat, tap) + ("" if by is None else f" agrees {phone_source(by)}")

        def submit() -> Future[Answer]:
            if isinstance(command, Future):
                return command
            if isinstance(command, list):
                return self.service.submit_in_turn(command, source, remote=True)
            return self.service.submit(command, source, remote=True)

        first, future = self.taps.submit(seat, tap, request, submit)
        if first != request:  # (the same new id from two requests at once, with different bodies)
            return refused(409, "ph_tap_reused", "phone.tap_reused")
        return self._wait(tap, future)

    def _wait(self, tap: str, future: Future[Answer]) -> Reply:
        """The durable answer, or after ``wait_s`` "still saving" with the tap's id (202)."""
        try:
            answer = future.result(self.wait_s)
        except TimeoutError:
            return json_reply(202, {"ok": None, "saving": True, "tap": tap, "code": "phone.saving",
                               "zh": tr("ph_saving", "zh"), "en": tr("ph_saving", "en")})
        return self._answer(answer, tap)

    def _answer(self, answer: Answer, tap: str) -> Reply:
        if answer.ok:  # (a held TURN that put up an undo says so: table_app/core/consent.py)
            proposed = {} if answer.proposal is None else {"proposed": answer.proposal.kind, **both("dc_proposed")}
            return json_reply(200, {"ok": True, "seq": answer.seq, "tap": tap, **proposed})
        players = self.service.public["players"]
        params = answer.params or {}
        return json_reply(200, {"ok": False, "tap": tap, "error": answer.error, "code": answer.code, "params": params,
                           "zh": refusal(answer.code, params, answer.error or "", players, "zh"),
                           "en": refusal(answer.code, params, answer.error or "", players, "en")})

def _seat(text: str) -> int | None:
    return int(text) if text in ("0", "1", "2", "3") else None


def _command_body(body: bytes) -> dict[str, object] | Reply | None:
    """A press's or a step's JSON object (None: the body is not one), or the refusal of a body
    with a control character or a lone surrogate in any string (the rule of every command:
    :func:`table_app.system.bounded.check_strings`)."""
    value = json_value(body)
    try:
        check_strings(value)
    except UnsafeTextError as e:
        return refused(400, "ph_bad_text", "invalid.text", why=str(e))
    return value if isinstance(value, dict) else None
