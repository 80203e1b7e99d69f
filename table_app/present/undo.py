"""An undo in words (issue 28): the step it takes back, the undo put up (a held TURN waiting for
its seat's confirmation or a second seat), and what an undo took back and who decided it — the
touchscreen's dialog and notice, the phones' and the table page's ``undone`` line.

>>> from engine.events import Discard
>>> what = step_words(Discard(1), ["A", "B", "C", "D"], east=0)
>>> what
{'zh': 'B 出牌', 'en': 'B discards'}
>>> undone_words([what], 1, (1, 2), "gpio", ["A", "B", "C", "D"])["en"]
'Undone: B discards (proposed by B, agreed by C)'
>>> undone_words([], 3, (), "touch", ["A", "B", "C", "D"])["zh"]
'撤销了3步（在触摸屏上）'
>>> waiting_words(1, 2, ["A", "B", "C", "D"], "en")
"B's step: B or another player holds TURN too (or agrees on a phone)"
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.event_base import Event
from table_app.present.history import sentence
from table_app.present.words import LANGS, Both, both, tr


def step_words(event: Event, players: Sequence[str], east: int | None) -> Both:
    """A step in words, as the history says it (with the names and East as they were after it)."""
    return {"zh": sentence(event, players, "zh", east=east), "en": sentence(event, players, "en", east=east)}


def undo_words(what: Both | None) -> Both:
    """What an undo put up takes back: ``撤销：<the step>`` (None: the step is not known)."""
    if what is None:
        return both("dc_undo_unknown")
    return {"zh": tr("dc_undo", "zh", what=what["zh"]), "en": tr("dc_undo", "en", what=what["en"])}


def by_words(by: Sequence[int], source: str, players: Sequence[str], lang: str) -> str:
    """Who decided an undo: its own seat, a proposer and a second seat, the touchscreen ("" : a command)."""
    if len(by) == 1:
        return tr("un_by_own", lang, name=players[by[0]])
    if len(by) >= 2:
        return tr("un_by_two", lang, name=players[by[0]], second=players[by[1]])
    return tr("un_by_screen", lang) if source.startswith("touch") else ""


def undone_words(said: Sequence[Both], count: int, by: Sequence[int], source: str, players: Sequence[str]) -> Both:
    """What an undo took back (``said``: the steps' words, when all ``count`` are known) and who decided it."""
    known = bool(said) and len(said) == count
    out: dict[str, str] = {}
    for lang in LANGS:
        who = by_words(by, source, players, lang)
        what = ("；" if lang == "zh" else "; ").join(w[lang] for w in said)
        if known:
            out[lang] = tr("un_undone_by", lang, what=what, by=who) if who else tr("dc_undone", lang, what=what)
        else:
            out[lang] = tr("un_undone_n_by", lang, n=count, by=who) if who else tr("dc_undone_n", lang, n=count)
    return {"zh": out["zh"], "en": out["en"]}


def waiting_words(owner: int | None, proposer: int, players: Sequence[str], lang: str) -> str:
    """Who makes an undo put up by ``proposer`` stand: the step's own seat (``owner``) holding
    TURN again or confirming on the screen, or a second seat (engine.authority)."""
    if owner == proposer:
        return tr("un_own", lang, name=players[owner])
    if owner is None:
        return tr("un_second_any", lang)
    return tr("un_second", lang, owner=players[owner])


__all__ = ["by_words", "step_words", "undo_words", "undone_words", "waiting_words"]
