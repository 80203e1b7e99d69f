"""The words of who decides (issue 27): a claim said twice, a seat deciding another's result,
proposals a second seat agrees to, what an undo took back, a hand's result entered from a
phone (data only: gathered by ``words``)."""

from __future__ import annotations

from typing import Final

DECIDE: Final[dict[str, tuple[str, str]]] = {
    # refusals (codes of the engine and the service)
    "claim.again": ("{name}已经{call}了，按一次就够", "{name} has already called {call}: once is enough"),
    "press.again": ("{name}已经{call}了，按一次就够", "{name} has already called {call}: once is enough"),
    "undo.moved": ("桌上已有新的一步，没有撤销", "The table has moved on: nothing was undone"),
    # refusals of the phones' decisions (codes decide.*)
    "dc_winner_only": ("只有胡牌的{name}能确认", "Only {name}, who won, confirms the win"),
    "dc_no_win": ("现在没有待确认的胡牌", "No win is waiting to be confirmed"),
    "dc_open": ("已经有一个提议在等回答", "Another proposal is waiting for an answer"),
    "dc_none": ("没有等待同意的提议（可能已过期）", "No proposal is waiting (it may have lapsed)"),
    "dc_second": ("要另一位玩家同意", "Another player must agree"),
    "dc_no_step": ("没有可以撤销的", "Nothing to undo"),
    "dc_not_now": ("现在不能只记分：下一局开始前才行", "Not now: a result is entered before a hand starts"),
    "dc_bad_entry": ("这局的结果不对：{why}", "That result cannot be: {why}"),
    "dc_bad_bets": ("下注是四家各一个0到{max}的整数", "The bets are four whole numbers, 0 to {max}, one per seat"),
    "dc_bets_in": ("下注已经交了：要只记分，先撤回下注",
                   "The bets are in: to enter a result only, take them back first"),
    # proposals
    "dc_reject_win": ("诈胡：{name}的胡", "False win: {name}'s"),
    "dc_undo": ("撤销：{what}", "Undo: {what}"),
    "dc_undo_unknown": ("撤销上一步", "Undo the last step"),
    "dc_score_hand": ("只记分：{what}；{bets}", "Result only: {what}; {bets}"),
    "dc_by": ("{name}提议", "{name} proposes"),
    "dc_agree": ("同意", "Agree"),
    "dc_refuse": ("不同意", "Refuse"),
    "dc_confirm": ("确认", "Confirm"),
    "dc_withdraw": ("撤回", "Withdraw"),
    "dc_waiting": ("等另一位玩家同意", "Waiting for another player to agree"),
    "dc_proposed": ("已提议：等另一位玩家同意", "Proposed: waiting for another player to agree"),
    "dc_left": ("还剩{n}秒", "{n} s left"),
    # what an undo took back (every screen)
    "dc_undone": ("撤销了：{what}", "Undone: {what}"),
    "dc_undone_n": ("撤销了{n}步", "Undone: {n} steps"),
    # the buttons of this part of the phone's page
    "dc_undo_button": ("撤销上一步", "Undo the last step"),
    "dc_call_false_win": ("喊诈胡", "Call a false win"),
    "dc_entry_open": ("只记分", "Result only"),
    "dc_entry_send": ("提交，等确认", "Propose it"),
    "dc_entry_close": ("收起", "Close"),
    "dc_kongs": ("杠", "Kongs"),
    "dc_kong_from": ("{name}的明杠是谁打的？", "Whose discard was {name}'s exposed kong?"),
    "dc_bets": ("下注", "Bets"),
    "dc_bets_in_form": ("下注已交（{bets}），这局还没开始。要只记分，先撤回下注"
                        "（撤销这一步：最后下注的一家确认，或两家同意）。",
                        "The bets are in ({bets}) and the hand has not begun. To enter its result only, take them "
                        "back first (an undo of that step: the seat that bet last confirms it, or two seats agree)."),
    "dc_take_bets_back": ("撤回下注", "Take the bets back"),
}
"""The decide part's words, zh and en."""
