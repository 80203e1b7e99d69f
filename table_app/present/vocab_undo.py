"""The words of a held TURN's undo (issue 28): the touchscreen's dialog of an undo put up, who
confirms or agrees to it, and the notice of what an undo took back and who decided it (data
only: gathered by ``words``)."""

from __future__ import annotations

from typing import Final

UNDO: Final[dict[str, tuple[str, str]]] = {
    # refusals of a held TURN (the service's codes)
    "undo.second": ("{name}不能独自撤销{owner}的一步：要{owner}或另一位玩家也按住TURN",
                    "{name} cannot undo {owner}'s step alone: {owner} or another player holds TURN too"),
    # the touchscreen's dialog of an undo put up
    "un_asks": ("{name}要撤销：{what}", "{name} asks to undo: {what}"),
    "un_own": ("是{name}自己的一步：{name}再按住TURN，或点“确认”",
               "{name}'s own step: {name} holds TURN again, or tap Confirm"),
    "un_second": ("是{owner}的一步：要{owner}或另一位玩家也按住TURN（或在手机上同意）",
                  "{owner}'s step: {owner} or another player holds TURN too (or agrees on a phone)"),
    "un_second_any": ("要另一位玩家也按住TURN（或在手机上同意）",
                      "Another player holds TURN too (or agrees on a phone)"),
    "un_last_step": ("上一步", "the last step"),
    "un_left": ("{n}秒后作废", "Lapses in {n} s"),
    # the notice of what an undo took back, and who decided it
    "un_undone_by": ("撤销了：{what}（{by}）", "Undone: {what} ({by})"),
    "un_undone_n_by": ("撤销了{n}步（{by}）", "Undone: {n} steps ({by})"),
    "un_by_own": ("{name}确认", "confirmed by {name}"),
    "un_by_two": ("{name}提议，{second}同意", "proposed by {name}, agreed by {second}"),
    "un_by_screen": ("在触摸屏上", "on the touchscreen"),
}
"""The held TURN's undo words, zh and en."""

ENTRY: Final[dict[str, tuple[str, str]]] = {
    # the score-only entry (issue 28, item 10): why a special win is not offered (engine.scored.extra_bar)
    "xb_line": ("{kind}：{why}", "{kind}: {why}"),
    "xb_drawn": ("流局没有赢家", "a drawn hand has no winner"),
    "xb_how": ("先选怎么胡的", "say how it was won first"),
    "xb_self_drawn": ("是胡别人补的杠，不是自摸", "won on another's added kong, not self-drawn"),
    "xb_not_self_drawn": ("要自摸才算", "only when self-drawn"),
    "xb_no_own_kong": ("要{name}自己开过杠", "needs a kong of {name}'s own"),
    "xb_kong_before": ("起手就胡才算：开过杠就不是", "won on the dealt tiles: not after a kong"),
    "xb_not_dealer": ("只有庄家{dealer}才有", "only the dealer, {dealer}"),
}
"""The entry's words, zh and en."""
