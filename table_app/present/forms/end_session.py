"""The end of the session (结束牌局), written once: whether it may end now — a session is being
played (its phase takes ``end_session``) and it is between hands (``engine.authority.may_end_session``:
never in the middle of one, though the engine would take it) — why not (:func:`why_not`), the
confirmation it needs first (:func:`confirmation`: the touchscreen's question and its yes; a
phone's second tap) and the command (:func:`command`). The touchscreen's menu and settlement
and the phones' steps all ask this form.

>>> turn, over = {"phase": "turn"}, {"phase": "hand_over"}
>>> offered(turn), offered(over)
(False, True)
>>> command(turn).words("en"), command(turn).words("zh")
('End the session between hands', '一局打完再结束')
>>> command(over)
{'type': 'end_session'}
>>> command({"phase": "ended"}).words("en")
'No session is being played'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from engine.authority import may_end_session
from engine.table import accepts
from table_app.present.forms.refused import Refused
from table_app.present.words import tr

QUESTION: Final = "confirm_end"  # what the touchscreen asks first (a phone: its button's second tap)
YES: Final = "end_session"  # the words of its yes, and of the button that asks


def why_not(public: Mapping[str, object]) -> Refused | None:
    """Why the session may not end now (None: it may): no session is being played, or a hand is."""
    phase = str(public["phase"])
    if "end_session" not in accepts(phase):
        return Refused("es_no_session", "phone.no_session")
    if not may_end_session(phase):  # (the engine takes it in any phase of a session: the table's rule is stricter)
        return Refused("es_mid_hand", "phone.mid_hand")
    return None


def offered(public: Mapping[str, object]) -> bool:
    """Whether a front end offers to end the session now."""
    return why_not(public) is None


def confirmation(lang: str) -> tuple[str, str]:
    """The question asked before the session ends, and the words of its yes."""
    return tr(QUESTION, lang), tr(YES, lang)


def command(public: Mapping[str, object]) -> dict[str, object] | Refused:
    """The ``end_session`` command, or why not now."""
    why = why_not(public)
    return {"type": "end_session"} if why is None else why


__all__ = ["QUESTION", "YES", "command", "confirmation", "offered", "why_not"]
