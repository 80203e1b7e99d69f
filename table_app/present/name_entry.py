"""A name being typed on the touchscreen's keyboard, key by key (no Kivy: the keyboard only
shows this and passes the taps on).

In ``zh`` the letters go to the composing pinyin and a candidate moves its 汉字 into the name;
in ``en`` they go straight into the name (the first letter of a word a capital, unless
⇧ says otherwise). :meth:`NameEntry.finish` checks the name as the engine does
(``engine.fields.check_name``, and the width the table screen has room for) and says why not
in the screen's language.

>>> e = NameEntry("en", mode="zh")
>>> for k in "ouyang": e.letter(k)
>>> e.typed, e.options()[0].text
('ouyang', '欧阳')
>>> e.pick(0)
>>> for k in "zhuge": e.letter(k)
>>> e.space(); e.name, e.typed, e.finish()
('欧阳诸葛', '', ('欧阳诸葛', ''))
>>> e.toggle()
>>> for k in " maximilian": e.letter(k)
>>> e.name, e.finish()[1]
('欧阳诸葛 Maximilian', 'A name has at most 8 Chinese characters or 12 letters')
"""

from __future__ import annotations

from typing import Final, Literal

from engine.errors import InvalidEventError
from engine.fields import check_name
from table_app.present.names import NAME_ROOM, name_width
from table_app.present.pinyin import MAX_TYPED, Candidate, candidates
from table_app.present.words import tr

Mode = Literal["zh", "en"]
MAX_NAME: Final = 24  # characters kept while typing (a name has 12 at most: finish says so)


class NameEntry:
    """The name so far, the pinyin being composed and the keyboard's mode."""

    def __init__(self, lang: str, initial: str = "", mode: Mode | None = None) -> None:
        self.lang = lang
        self.name = initial[:MAX_NAME]
        self.typed = ""
        self.mode: Mode = mode or ("zh" if lang == "zh" else "en")
        self.shift = False  # the next letter's case the other way round
        self._options: tuple[str, bool, list[Candidate]] | None = None

    def options(self) -> list[Candidate]:
        """The candidates for what is being composed (none in ``en`` or with nothing typed)."""
        start = not self.name.strip() or self.name.endswith(" ")
        key = (self.typed, start)
        if self._options is None or self._options[:2] != key:
            self._options = (*key, candidates(self.typed, start=start) if self.mode == "zh" else [])
        return self._options[2]

    def letter(self, key: str) -> None:
        if self.mode == "zh":
            if len(self.typed) < MAX_TYPED:
                self.typed += key.upper() if self.shift else key
        elif len(self.name) < MAX_NAME:
            capital = not self.name or self.name.endswith(" ")
            self.name += key.upper() if capital != self.shift else key
        self.shift = False

    def pick(self, i: int) -> None:
        """Candidate ``i`` into the name; the letters it stood for leave the composing line."""
        options = self.options()
        if 0 <= i < len(options) and len(self.name) < MAX_NAME:
            chosen = options[i]
            self.name += chosen.text
            self.typed = self.typed[chosen.used:]

    def backspace(self) -> None:
        if self.typed:
            self.typed = self.typed[:-1]
        else:
            self.name = self.name[:-1]

    def space(self) -> None:
        """The first candidate, while composing (as every pinyin keyboard); else a space."""
        if self.typed:
            self.pick(0)
        elif self.name and not self.name.endswith(" ") and len(self.name) < MAX_NAME:
            self.name += " "

    def toggle(self) -> None:
        """中 ⇄ EN; letters still composing stay in the name as they were typed."""
        if self.typed:
            self.name = (self.name + self.typed)[:MAX_NAME]
            self.typed = ""
        self.mode = "en" if self.mode == "zh" else "zh"

    def finish(self) -> tuple[str, str]:
        """(the name, "") when it may be a player's name, else ("", why not)."""
        if self.typed:
            return "", tr("kb_pick_first", self.lang, typed=self.typed)
        name = self.name.strip()
        if not name:
            return "", tr("kb_empty", self.lang)
        if name_width(name) > NAME_ROOM:
            return "", tr("kb_too_long", self.lang)
        try:
            return check_name(name), ""
        except InvalidEventError:
            return "", tr("kb_bad", self.lang)
