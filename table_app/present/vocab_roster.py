"""The roster's words (issue 28): the new-session screen's names picked from the players the
table remembers, a rename, and the base as whole points. Registered in ``present/words.py``."""

from __future__ import annotations

from typing import Final

ROSTER: Final[dict[str, tuple[str, str]]] = {
    "ro_pick": ("点名字入座", "Tap a name to seat it"),
    "ro_new_name": ("＋ 新名字", "+ New name"),
    "ro_rename": ("改名", "Edit"),
    "ro_renamed": ("{old} 改名为 {new}，记录保留", "{old} is now {new}; their record stays"),
    "ro_name_taken": ("已经有人叫 {name}", "Someone is already called {name}"),
    "ro_bad_name": ("名字要 1–12 个能显示的字", "A name is 1–12 printable characters"),
    "ro_off": ("名册用不了，名字照样能打：{why}", "The roster cannot be used; names still work: {why}"),
    "ro_nobody": ("还没有人：点 ＋ 新名字", "Nobody yet: tap + New name"),
    "ro_base_bad": ("基数要是整数分，1 到 {max}：“{text}” 不行", "The base is whole points, 1 to {max}: not “{text}”"),
    "ro_rules_default": ("规则：默认", "Rules: default"),
    "ro_rules_changed": ("规则：改了{n}项", "Rules: {n} changed"),
    "ro_score_only": ("只记分", "Score only"),
}
