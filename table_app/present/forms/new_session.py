"""A new session's form (开新牌局, issues 27, 28), written once: what it offers now — the four
names it starts with (:func:`start_names`), the base and its bound, the rule options in words
(:func:`rule_choices`), the roster's most recent players (:func:`offer`) — the checks of what
was entered (:func:`check_names`, :func:`check_base`, :func:`check_rules`), the ``new_session``
command (:func:`command`, and a phone's JSON: :func:`from_json`), and how it begins now
(:func:`steps`, after ``engine.authority.new_session_way``): at once between sessions; over a
session nobody has played a hand in, by first taking that one back (its ``undo`` from the
session's history, then the new one: nothing is lost); over a session being played, only
from the touchscreen, after its yes.

The touchscreen's new-session screen (``table_app/ui/screens/session.py``; also the fee and
score-only, its own) and the phones' form (``table_app/web/phone_score.py``, drawn by
``phone_score.js``) render it; where a tapped roster name goes is
:mod:`~table_app.present.forms.roster_pick`.

>>> from engine.table import new_table, replay
>>> from engine.public import public_state
>>> idle = public_state(new_table())
>>> start_names(idle, ["Bo", "Ann"], given=[None, "Cy", None, None])
['Bo', 'Cy', 'Ann', '阿明']
>>> command(["Bo", "Cy", "Ann", "Di"], check_base("１２"))
{'type': 'new_session', 'players': ['Bo', 'Cy', 'Ann', 'Di'], 'base': 12}
>>> command(["Bo", "Cy", " bo", "Di"], 1).both()
{'zh': '两位玩家同名：bo', 'en': 'Two players have the same name: bo'}
>>> check_base("1.5").words("en")
'The base is whole points, 1 to 1,000,000: not “1.5”'
>>> new = {"type": "new_session", "players": ["A", "B", "C", "D"], "base": 5}
>>> steps(idle, new, lambda: None)
[{'type': 'new_session', 'players': ['A', 'B', 'C', 'D'], 'base': 5}]
>>> seating = public_state(replay([{"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1}]))
>>> steps(seating, new, lambda: None).code
'phone.session_on'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Final, Protocol, TypedDict

from engine.authority import NewSessionWay, new_session_way
from engine.event_base import Event
from engine.fields import MAX_AMOUNT
from engine.public import PublicState
from engine.rules import XIAN, Rules, RulesError, RuleValue
from engine.seats import SEATS
from engine.session_events import name_key
from table_app.present.forms import typed
from table_app.present.forms.refused import Refused
from table_app.present.forms.roster_pick import seated
from table_app.present.names import names_refusal
from table_app.present.rules import RULE_WORDS, rule_value_word
from table_app.present.words import DEFAULT_NAMES, Both

ROSTER_OFFERED: Final = 24  # the roster's most recent players the form offers
FIELDS: Final = frozenset({"type", "confirm", "players", "base", "rules"})  # a phone's form (confirm: its second tap)
SAID_MAX: Final = 40  # a refused base is quoted back at most this long


class RuleValueWords(TypedDict):
    value: RuleValue
    zh: str
    en: str


class RuleChoice(TypedDict):
    """One rule option as the form offers it: its name, what it decides, its values in words
    and which of them is chosen now."""

    option: str
    name: Both
    what: Both
    values: list[RuleValueWords]
    now: int
    default: int  # (the xian preset's)


class SessionOffer(TypedDict):
    """The form as a phone draws it: the names and base it starts with, the base's bound, the
    rules, the roster (the most recent first: a tap puts one in a place,
    :mod:`~table_app.present.forms.roster_pick`) and those of it seated, and whether starting
    replaces the unplayed session in effect (``replace``) or begins one (``start``)."""

    names: list[str]
    base: int
    base_max: int
    rules: list[RuleChoice]
    roster: list[str]
    seated: list[str]
    way: NewSessionWay


# --- what the form offers -------------------------------------------------------------------------

def start_names(public: PublicState, recent: Sequence[str], given: Sequence[str | None] = ()) -> list[str]:
    """The four names the form starts with, place by place: a name a phone gave for its seat
    (``given``), else the player the session in effect (or the last one) had there; the places
    still empty take the roster's most recent players (``recent``) not seated yet, then
    :data:`~table_app.present.words.DEFAULT_NAMES` (never a name twice).

    >>> from engine.table import new_table
    >>> from engine.public import public_state
    >>> start_names(public_state(new_table()), [])
    ['阿明', '阿华', '阿强', '阿芳']
    """
    names = [(given[s] if s < len(given) else None) or public["players"][s] or "" for s in range(SEATS)]
    taken = {name_key(n) for n in names if n}
    spare: list[str] = []
    for name in (*recent, *DEFAULT_NAMES):
        if name_key(name) not in taken:
            taken.add(name_key(name))
            spare.append(name)
    left = iter(spare)
    return [n or next(left) for n in names]


def start_base(public: PublicState) -> int:
    """The base the form starts with: the session's in effect (or the last one's; 1 before any)."""
    return public["base"]


def _as_json(value: object) -> RuleValue:
    return list(value) if isinstance(value, tuple) else value  # type: ignore[return-value]


def _same(a: object, b: object) -> bool:
    return type(a) is type(b) and a == b  # (True is not 1: a bet unit of 1 is not "allowed")


def rule_choices(current: Mapping[str, RuleValue]) -> list[RuleChoice]:
    """Every rule option with its values in words (the presentation's one table) and the one
    chosen now: ``current`` (a session's overrides) over the ``xian`` defaults.

    >>> names = [c["option"] for c in rule_choices({"seven_pairs": True})]
    >>> names[:3], rule_choices({"seven_pairs": True})[4]["now"]
    (['wall_direction', 'added_kong', 'kong_reserve'], 1)
    """
    preset = XIAN.to_json()
    values = {**preset, **current}
    out: list[RuleChoice] = []
    for option, ((name_zh, name_en), (what_zh, what_en), words) in RULE_WORDS.items():
        offered: list[RuleValueWords] = [{"value": _as_json(v), "zh": zh, "en": en} for v, (zh, en) in words.items()]
        now = values[option]
        if not any(_same(o["value"], now) for o in offered):  # (set otherwise, e.g. from a play file)
            offered.append({"value": now, "zh": rule_value_word(option, now, "zh"),
                            "en": rule_value_word(option, now, "en")})
        index = {k: next(i for i, o in enumerate(offered) if _same(o["value"], v)) for k, v in
                 (("now", now), ("default", preset[option]))}
        out.append({"option": option, "name": {"zh": name_zh, "en": name_en}, "what": {"zh": what_zh, "en": what_en},
                    "values": offered, "now": index["now"], "default": index["default"]})
    return out


def offered(public: PublicState) -> bool:
    """Whether a phone is offered the form now: between sessions, or over an unplayed one (never
    over a session being played: the touchscreen starts that over, after its yes)."""
    return new_session_way(public) != "over"


def offer(public: PublicState, recent: Sequence[str] | Callable[[], Sequence[str]],
          given: Sequence[str | None] = ()) -> SessionOffer | None:
    """The form for a phone, or None while a session is being played (a phone never starts one
    over: the touchscreen does, after its yes). ``recent``: the roster's players, the most recent
    first, or how to read them — read only when the form is offered (every phone's view of every
    change asks: mid-hand, reading the roster each time cost the phones' p99)."""
    if not offered(public):
        return None
    recent = recent() if callable(recent) else recent
    names, roster = start_names(public, recent, given), list(recent[:ROSTER_OFFERED])
    return {"names": names, "base": start_base(public), "base_max": MAX_AMOUNT, "rules": rule_choices(public["rules"]),
            "roster": roster, "seated": seated(names, roster), "way": new_session_way(public)}


# --- what was entered: checked, and the command ---------------------------------------------------

def check_names(names: object) -> list[str] | Refused:
    """Four names, trimmed, or why not (not four texts: ``invalid``; the names' own rules:
    :func:`~table_app.present.names.names_refusal`)."""
    if not isinstance(names, list | tuple) or len(names) != SEATS or not all(isinstance(n, str) for n in names):
        return Refused("sc_bad_form", "invalid", "malformed")
    trimmed = [n.strip() for n in names]
    refused = names_refusal(trimmed)
    return trimmed if refused is None else refused


def check_base(base: str | int) -> int | Refused:
    """The base, whole points 1..MAX_AMOUNT: as typed (read as every form's amounts are,
    :func:`~table_app.present.forms.typed.whole`: ``１２`` is 12, ``1,000`` is 1000; "1.5" and
    "0" refused and quoted back), or a number a phone sent.

    >>> check_base(" 20 "), check_base("１２"), check_base(7), check_base("1,000")
    (20, 12, 7, 1000)
    >>> check_base("0").words("zh"), check_base(0).words("en"), check_base(True).code
    ('基数要是整数分，1 到 1,000,000：“0” 不行', 'The base is a whole number, 1 to 1000000', 'invalid.base')
    """
    value = typed.whole(base)
    if value is not None and value >= 1:
        return value
    if isinstance(base, str):
        return Refused("ro_base_bad", "invalid.base", "malformed",
                       {"max": f"{MAX_AMOUNT:,}", "text": base.strip()[:SAID_MAX]})
    return _not_a_base()


def _not_a_base() -> Refused:
    """A base sent that is not a whole number of points (nothing typed to quote back)."""
    return Refused("sc_bad_base", "invalid.base", "malformed", {"max": MAX_AMOUNT})


def check_rules(rules: object) -> dict[str, RuleValue] | Refused:
    """The rule options changed from the ``xian`` defaults (only those), or why not.

    >>> check_rules({"seven_pairs": True, "added_kong": True}), check_rules({"sevenpairs": 1}).code
    ({'seven_pairs': True}, 'invalid.rules')
    """
    try:
        return dict(Rules.from_overrides(rules).overrides())  # type: ignore[arg-type]  # (any JSON: the engine checks)
    except (RulesError, TypeError, AttributeError) as e:
        return Refused("sc_bad_rules", "invalid.rules", "malformed", {"why": str(e)[:200]})


def command(names: object, base: str | int | Refused, rules: object = None,
            fee: Mapping[str, object] | None = None) -> dict[str, object] | Refused:
    """The ``new_session`` command (only the rules changed from the defaults; ``fee``: the
    touchscreen's choice, else the table's default), or the first refusal: the names, the
    base, the rules."""
    players = check_names(names)
    if isinstance(players, Refused):
        return players
    points = base if isinstance(base, Refused) else check_base(base)
    if isinstance(points, Refused):
        return points
    overrides = check_rules(rules or {})
    if isinstance(overrides, Refused):
        return overrides
    return {"type": "new_session", "players": players, "base": points, **({"rules": overrides} if overrides else {}),
            **({"fee": dict(fee)} if fee is not None else {})}


def from_json(data: Mapping[str, object], public: PublicState, start: Sequence[str]) -> dict[str, object] | Refused:
    """A phone's form (``{"type": "new_session", "confirm", "players"?, "base"?, "rules"?}``; what
    it leaves out: the names ``start`` and the base and rules the form starts with) as the
    command, or why not. A base is a JSON number here ("5" is refused).

    >>> from engine.table import new_table
    >>> from engine.public import public_state
    >>> from_json({"type": "new_session", "base": 3}, public_state(new_table()), ["A", "B", "C", "D"])
    {'type': 'new_session', 'players': ['A', 'B', 'C', 'D'], 'base': 3}
    >>> from_json({"type": "new_session", "base": "3"}, public_state(new_table()), ["A", "B", "C", "D"]).code
    'invalid.base'
    """
    if not set(data) <= FIELDS:
        return Refused("sc_bad_form", "invalid", "malformed")
    base = data.get("base", start_base(public))
    return command(data.get("players", list(start)), base if type(base) is int else _not_a_base(),
                   data.get("rules", public["rules"]))


# --- how it begins now ----------------------------------------------------------------------------

class _Entry(Protocol):
    @property
    def seq(self) -> int: ...

    @property
    def event(self) -> Event: ...


class SoFar(Protocol):
    """The session's history as far as the form needs it (``table_app.journal.session_history.History``):
    its events in effect, oldest first, and the event in effect before it began (0: none)."""

    @property
    def in_effect(self) -> Sequence[_Entry]: ...

    @property
    def before(self) -> int: ...


def steps(public: PublicState, new: dict[str, object], history: Callable[[], SoFar | None],
          over: bool = False) -> list[dict[str, object]] | Refused:
    """The commands that begin the session ``new`` now, in order (each after the one before is
    taken): between sessions, ``new``; over an unplayed session (``new_session_way``: ``replace``),
    the ``undo`` that takes it back — to the event before it began, while its last event is
    still the last (``last``: nothing else is undone) — then ``new``; over a session being
    played, ``new`` only when ``over`` (the touchscreen's yes), else refused. ``history`` is
    read only for a replacement.

    >>> from dataclasses import dataclass
    >>> from engine.events import parse_event
    >>> from engine.public import public_state
    >>> from engine.table import replay
    >>> @dataclass
    ... class E:
    ...     seq: int
    ...     event: Event
    >>> @dataclass
    ... class H:
    ...     in_effect: list[E]
    ...     before: int
    >>> begun = {"type": "new_session", "players": ["A", "B", "C", "D"], "base": 1}
    >>> seating = public_state(replay([begun]))
    >>> new = {"type": "new_session", "players": ["A", "B", "C", "D"], "base": 5}
    >>> steps(seating, new, lambda: H([E(7, parse_event(begun))], 6))[0]
    {'type': 'undo', 'to': 6, 'last': 7}
    >>> steps(seating, new, lambda: H([], 0)).words("en"), steps(seating, new, lambda: None, over=True)[0]["base"]
    ('A session is on', 5)
    """
    way = new_session_way(public)
    if way == "start":
        return [new]
    so_far = history() if way == "replace" else None
    if so_far is not None and so_far.in_effect and so_far.in_effect[0].event.TYPE == "new_session":
        return [{"type": "undo", "to": so_far.before, "last": so_far.in_effect[-1].seq}, new]  # (nothing to lose)
    if over:
        return [new]  # (its events stay in the journal)
    return Refused("ph_session_on", "phone.session_on")


__all__ = ["FIELDS", "ROSTER_OFFERED", "RuleChoice", "RuleValueWords", "SessionOffer", "SoFar", "check_base",
           "check_names", "check_rules", "command", "from_json", "offer", "rule_choices", "start_base",
           "start_names", "steps"]
