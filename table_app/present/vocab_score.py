"""The words of keeping score from phones, zh and en (issue 27): a new session's form, each
seat's bet, the last session (data only: gathered by :mod:`table_app.present.words`)."""

from __future__ import annotations

from typing import Final

SCORE: Final[dict[str, tuple[str, str]]] = {
    # a new session from a phone
    "sc_new": ("开新牌局", "New session"),
    "sc_names": ("四家的名字（按座位）", "The four names (by seat)"),
    "sc_seat_n": ("{n}号座", "Seat {n}"),
    "sc_roster": ("来过的人（点一下填进刚点的位置）", "Who has played here (a tap fills the place tapped last)"),
    "sc_base": ("基数（1 到 {max} 的整数）", "Base (a whole number, 1 to {max})"),
    "sc_rules": ("规则", "Rules"),
    "sc_start": ("开始", "Start"),
    "sc_start_again": ("再点一下开始（排名和结账留在「上一牌局」）",
                       "Tap again to start (the ranking and settle-up stay under Last session)"),
    "sc_cancel": ("取消", "Cancel"),
    "sc_replaces": ("这个牌局还没打第一局：开始会换掉它", "This session has not played a hand yet: Start replaces it"),
    # bets
    "sc_bets": ("下注", "Bets"),
    "sc_my_bet": ("我下几注", "My bet"),
    "sc_bet_send": ("下注", "Bet"),
    "sc_bet_n": ("{n} 注", "{n}"),
    "sc_bet_waiting": ("待下注", "to bet"),
    "sc_bets_missing": ("还没下注：{names}（四家都下好了才算）",
                        "Still to bet: {names} (the bets count when all four are in)"),
    "sc_bets_in": ("四家都下好了，庄家掷骰", "All four have bet: the dealer rolls"),
    # the last session
    # refusals
    "sc_confirm_first": ("开新牌局要再点一下确认", "A new session needs its second tap"),
    "sc_bad_form": ("新牌局的表格不对", "The new session's form is not right"),
    "sc_bad_base": ("基数要是 1 到 {max} 的整数", "The base is a whole number, 1 to {max}"),
    "sc_bad_rules": ("规则不对：{why}", "The rules are not right: {why}"),
    "sc_bad_pick": ("没看懂点的名字：什么也没变", "The name tapped was not understood: nothing changed"),
    "sc_bets_closed": ("现在不下注（下注在一局开始、庄家掷骰之前）",
                       "No bets now (bets come before the dealer's first roll)"),
    "sc_not_your_bet": ("每个手机只下自己的注", "A phone bets for its own seat only"),
    "sc_bad_bet": ("注是 0 到 {max} 的整数", "A bet is a whole number, 0 to {max}"),
}
