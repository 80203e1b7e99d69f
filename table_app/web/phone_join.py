"""A seat that changes phone (issue 27): what a phone's view and the table page say about it,
the seat's phone answering a takeover, and a new join code on demand.

A second phone joining a taken seat is asked about (:meth:`table_app.web.phones.Phones.join`);
the seat's phone sees the question in its view (``takeover``) and answers it with
``POST /phone/<seat>/takeover`` ``{"allow": true|false}`` — its own cookie, so only that phone.
When a seat changes phone, every screen says so for a while: each phone's view (``changed``)
and the table page (``/table/phones.json``, which also carries a tag of the join code so that
the table page fetches the new QR code when it changes).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict

from table_app.http_kit.replies import json_object, json_reply, refused
from table_app.http_kit.server import Reply
from table_app.present.words import Both, both, tr
from table_app.web.phone_routes import phone_secret

if TYPE_CHECKING:
    from table_app.web.phone_routes import PhoneRoutes



class LinkView(TypedDict):
    """What a bound phone's view carries of the link (:class:`table_app.web.phone_routes.PhoneView`)."""

    takeover: int | None  # the question another phone asks for this seat (its number), or None
    changed: list[Both]


class TablePhones(TypedDict):
    """``/table/phones.json``: which seats have a phone, which changed phone lately, the code's tag."""

    taken: list[bool]
    changed: list[Both]
    code: str
    words: dict[str, Both]


def changed_lines(routes: PhoneRoutes) -> list[Both]:
    """"王小明 changed phone" for each seat that changed phone lately."""
    players = routes.service.public["players"]
    out: list[Both] = []
    for seat in routes.phones.changed():
        name = players[seat] if seat < len(players) else ""
        out.append({"zh": tr("lk_changed_phone", "zh", who=name or tr("lk_seat_n", "zh", n=seat)),
                    "en": tr("lk_changed_phone", "en", who=name or tr("lk_seat_n", "en", n=seat))})
    return out


def link_view(routes: PhoneRoutes, seat: int) -> LinkView:
    """The link's part of seat ``seat``'s phone's view."""
    return {"takeover": routes.phones.asked(seat), "changed": changed_lines(routes)}


def table_phones(routes: PhoneRoutes) -> TablePhones:
    return {"taken": routes.phones.taken(), "changed": changed_lines(routes), "code": routes.phones.code_tag(),
            "words": {"lk_new_code": both("lk_new_code")}}


def answer_takeover(routes: PhoneRoutes, seat: int, body: bytes, cookie: str | None) -> Reply:
    """The seat's phone allows or refuses the phone asking for its seat."""
    if routes.phones.seat_of(phone_secret(cookie)) != seat:
        return refused(401, "ph_no_seat", "phone.unbound")
    data = json_object(body)
    allow = data.get("allow") if data is not None and set(data) == {"allow"} else None
    if not isinstance(allow, bool):
        return refused(400, "ph_bad_join", "invalid")
    if not routes.phones.answer(seat, allow):
        return refused(409, "lk_no_question", "join.no_question")
    return json_reply(200, {"ok": True, "allow": allow})
