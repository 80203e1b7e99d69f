"""The words of the history on the web pages (issue 29), zh and en: the table page's History,
Replay and Records and a phone's own sessions and record — the headings, buttons and refusals
the pages show around the archive's own lines and words (``table_app/present/history_view.py``,
``vocab_history.py``: the page uses those where they say it). Data only: gathered by
:mod:`table_app.present.words`."""

from __future__ import annotations

from typing import Final

HISTORY_PAGE: Final[dict[str, tuple[str, str]]] = {
    # the table page's header buttons and its cards
    "hp_none": ("还没有牌局", "No sessions yet"),
    "hp_not_finished": ("没有结束", "not ended"),
    "hp_settle_up": ("结账", "Settle up"),
    "hp_hands": ("各局", "Hands"),
    "hp_page": ("第{page}/{pages}页", "page {page} of {pages}"),
    "hp_prev_page": ("上一页", "Previous"),
    "hp_next_page": ("下一页", "Next"),
    "hp_back": ("返回", "Back"),
    # a hand step by step
    "hp_replay_of": ("回放 · 第{session}场 第{hand}局", "Replay · session {session}, hand {hand}"),
    "hp_first": ("第一步", "First"),
    "hp_prev": ("上一步", "Back"),
    "hp_next": ("下一步", "Next"),
    "hp_last": ("最后一步", "Last"),
    "hp_keys": ("← → 一步一步 · Home End 头尾", "← → step by step · Home End first and last"),
    "hp_live": ("回到牌桌", "Back to the table"),
    # records and the leaderboard
    "hp_col_player": ("玩家", "Player"),
    "hp_col_period": ("时间", "Period"),
    "hp_col_sessions": ("场", "Sessions"),
    "hp_col_hands": ("局", "Hands"),
    "hp_col_wins": ("胡", "Wins"),
    "hp_col_self": ("自摸", "Self-drawn"),
    "hp_col_kongs": ("杠", "Kongs"),
    "hp_col_net": ("净分", "Net"),
    # a phone: its player's sessions and record
    "hp_my_sessions": ("我打过的牌局", "My sessions"),
    "hp_my_record": ("我的战绩", "My record"),
    "hp_no_player": ("这个座位的玩家还没有记入名册", "This seat's player is not in the roster yet"),
    # refusals (a short clear answer to a request the pages never make)
    "hp_bad_page": ("没有这一页", "No such page"),
    "hp_bad_period": ("时间只能按日、周、月", "The period is day, week or month"),
    "hp_bad_step": ("没有这一步", "No such step"),
    "hp_no_session": ("没有这一场牌局", "No such session"),
    "hp_no_hand": ("这一场没有这一局", "No such hand in this session"),
    "hp_no_player_id": ("名册里没有这个玩家", "No such player in the roster"),
    "hp_busy": ("历史正忙，请稍后再试", "The history is busy: try again in a moment"),
}
