"""The touchscreen's look back (issue 29): the words of its past sessions, a session's hands,
a hand's replay and the records screens — titles, paging and the replay's buttons. What a
session, a hand, a step or a record says is ``present/history_view.py``'s (one wording for
every front end). Registered in ``present/words.py``."""

from __future__ import annotations

from typing import Final

PAST: Final[dict[str, tuple[str, str]]] = {
    "nav_past": ("往期牌局", "Past sessions"),
    "nav_records": ("战绩", "Records"),
    "ps_title": ("往期牌局 · 第 {page}/{pages} 页", "Past sessions · page {page}/{pages}"),
    "ps_none": ("还没有牌局", "No sessions yet"),
    "ps_reading": ("正在读日志…", "Reading the journal…"),
    "ps_no_journal": ("没有日志：没有往期牌局", "No journal: no past sessions"),
    "ps_prev": ("上一页", "Previous"),
    "ps_next": ("下一页", "Next"),
    "ps_page": ("{page}/{pages}", "{page}/{pages}"),
    "ps_session": ("第 {n} 场", "Session {n}"),
    "ps_session_title": ("第 {n} 场 · {date} · 共 {hands} 局", "Session {n} · {date} · {hands} hands"),
    "ps_playing": ("正在打", "being played"),
    "ps_ranking": ("名次", "Ranking"),
    "ps_rank_line": ("第{rank}名 {name} {total}", "#{rank} {name} {total}"),
    "ps_no_hands": ("这场一局也没打", "No hand was played"),
    "ps_sessions": ("往期牌局", "Sessions"),
    "ps_details": ("明细", "Transfers"),
    "ps_brief": ("简要", "In brief"),
    "ps_hands": ("各局", "Hands"),
    "rp_title": ("第 {n} 场 第 {hand} 局", "Session {n}, hand {hand}"),
    "rp_first": ("第一步", "First"),
    "rp_prev": ("上一步", "Prev"),
    "rp_next": ("下一步", "Next"),
    "rp_last": ("最后", "Last"),
    "rp_step": ("{i}/{n}", "{i}/{n}"),
    "rc_board": ("战绩 · 排行榜", "Records · leaderboard"),
    "rc_board_period": ("战绩 · 排行榜 · {period}", "Records · leaderboard · {period}"),
    "rc_player": ("战绩 · {name}", "Record · {name}"),
    "rc_all": ("全部", "All time"),
    "rc_day": ("按日", "By day"),
    "rc_week": ("按周", "By week"),
    "rc_month": ("按月", "By month"),
    "rc_now_day": ("今天", "Today"),
    "rc_now_week": ("本周", "This week"),
    "rc_now_month": ("本月", "This month"),
    "rc_board_button": ("排行榜", "Leaderboard"),
    "rc_nobody": ("还没有记录", "No records yet"),
}
