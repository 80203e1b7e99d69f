"""The words of the parlour's takings and leaderboard (issue 31: ``/parlour/takings``) and of a
player's choice to be shown on the leaderboards (the phone's and the touchscreen's record),
zh and en. Registered in ``present/words.py``."""

from __future__ import annotations

from typing import Final

TAKINGS: Final[dict[str, tuple[str, str]]] = {
    "tk_title": ("营业额", "Takings"),
    "tk_board": ("排行榜", "Leaderboard"),
    "tk_day": ("按日", "By day"),
    "tk_week": ("按周", "By week"),
    "tk_month": ("按月", "By month"),
    "tk_from": ("从", "From"),
    "tk_to": ("到", "to"),
    "tk_show": ("查看", "Show"),
    "tk_csv": ("导出 CSV", "CSV"),
    "tk_period": ("时段", "Period"),
    "tk_table": ("桌", "Table"),
    "tk_all": ("合计", "All"),
    "tk_sessions": ("场数", "Sessions"),
    "tk_hours": ("小时", "Hours"),
    "tk_hands": ("局数", "Hands"),
    "tk_fee": ("台费", "Table fee"),
    "tk_tea": ("茶水", "Tea"),
    "tk_total": ("收入", "Total"),
    "tk_none": ("这段时间没有结束的牌局", "No session ended in that time"),
    "tk_player": ("玩家", "Player"),
    "tk_net": ("净分", "Net"),
    "tk_wins": ("胡牌", "Won"),
    "tk_self": ("自摸", "Self-drawn"),  # (as the history page says it in English)
    "tk_tables": ("桌", "Tables"),
    "tk_all_time": ("全部时间", "All time"),
    "tk_nobody": ("还没有人上榜", "Nobody on the board yet"),
    "tk_hidden_note": ("不愿上榜的玩家不显示", "Players who chose not to be shown are left out"),
    "tk_bad_query": ("参数不对：{why}", "Bad request: {why}"),
    # a player's choice, at the table (the phone's and the touchscreen's record)
    "ro_listed": ("上棋牌室排行榜", "On the parlour's leaderboards"),
    "ro_listed_on": ("显示", "Shown"),
    "ro_listed_off": ("不显示", "Hidden"),
    "ro_listed_button": ("棋牌室榜：{state}", "Parlour boards: {state}"),
    "hp_bad_listed": ("要说显示还是不显示", "Say shown or hidden"),
    "hp_roster_off": ("名册现在写不了", "The roster cannot be written now"),
}
