"""The phones' JSON answers, written one way for every route that speaks to a phone
(:mod:`table_app.web.phone_routes`, ``phone_decide``, ``phone_score``, ``phone_join``,
``routes``): a body as JSON, a refusal in both languages — ``{"ok": false, "error", "zh", "en",
"code"}``, ``error`` the English — and a POST's JSON body read back (bounded, never raising).

>>> r = refused(409, "ph_tap_reused", "phone.tap_reused")
>>> r.status, json_object(r.body)["code"], json_object(b"[1]"), json_object(b"\\xff"), json_value(b"7")
(409, 'phone.tap_reused', None, None, 7)
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Final

from table_app.http_kit.server import MAX_BODY, Reply
from table_app.present.forms.refused import Refused
from table_app.present.words import tr
from table_app.system.bounded import json_line

JSON = "application/json"


def json_reply(status: int, data: Mapping[str, object], *headers: tuple[str, str]) -> Reply:
    return Reply(status, JSON, json_line(data).encode(), headers)


def refusal(status: int, zh: str, en: str, code: str) -> Reply:
    """A refusal already worded in both languages."""
    return json_reply(status, {"ok": False, "error": en, "zh": zh, "en": en, "code": code})


def refused(status: int, key: str, code: str = "", **fields: object) -> Reply:
    """A refusal in both languages: the word table's ``key`` with its ``fields``."""
    return refusal(status, tr(key, "zh", **fields), tr(key, "en", **fields), code)


STATUS: Final = {"malformed": 400, "not_now": 409, "not_yours": 403}
"""A form's kind of refusal as a phone's answer's status."""


def form_refusal(r: Refused) -> Reply:
    """A form's refusal (:mod:`table_app.present.forms`) as a phone's answer."""
    return refusal(STATUS[r.reason], r.words("zh"), r.words("en"), r.code)


def json_value(body: bytes) -> object:
    """The JSON value of a POST's body (None: too long, not UTF-8 or not JSON)."""
    if len(body) > MAX_BODY:
        return None
    try:
        return json.loads(body.decode("utf-8"))
    except (UnicodeDecodeError, ValueError, RecursionError):
        return None


def json_object(body: bytes) -> dict[str, object] | None:
    """A POST's body when it is a JSON object (None otherwise)."""
    value = json_value(body)
    return value if isinstance(value, dict) else None
