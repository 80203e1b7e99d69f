"""The words of the archive (issue 29): the history of sessions and hands, a hand's replay and
players' records and the leaderboard, zh and en (data only: gathered by ``words``). An event
itself is worded once, by ``present/history.py``."""

from __future__ import annotations

from typing import Final

HISTORY: Final[dict[str, tuple[str, str]]] = {
    # a session, one line
    "ar_session": ("{when}  {hands}局  基数{base}  {ranking}", "{when}  {hands} hands  base {base}  {ranking}"),
    "ar_session_one": ("{when}  1局  基数{base}  {ranking}", "{when}  1 hand  base {base}  {ranking}"),
    "ar_playing": ("（进行中）", " (in play)"),
    "ar_score": ("{name} {points}", "{name} {points}"),
    "ar_session_title": ("第{number}场", "Session {number}"),
    # a hand, one line
    "ar_hand": ("第{hand}局  庄{dealer}  {result}  {deltas}", "Hand {hand}  dealer {dealer}  {result}  {deltas}"),
    "ar_win": ("{name} {kind}", "{name} {kind}"),
    "ar_win_from": ("{name} {kind}（{frm}放炮）", "{name} {kind} (off {frm})"),
    "ar_unfinished": ("正在打", "being played"),
    # a hand's replay
    "ar_step": ("第{n}/{of}步", "step {n} of {of}"),
    "ar_undone": ("已撤销", "undone"),
    "ar_undone_mark": ("{caption}（已撤销）", "{caption} (undone)"),
    # records and the leaderboard
    "ar_all_time": ("全部", "all time"),
    "ar_record": ("{period}  {sessions} {hands}  {wins}（{self_draws}）  {kongs}  {net}",
                  "{period}  {sessions}, {hands}  {wins} ({self_draws})  {kongs}  {net}"),
    "ar_board_row": ("{rank}. {name}  {net}  {sessions} {hands}  {wins}",
                     "{rank}. {name}  {net}  {sessions}, {hands}, {wins}"),
    # counts (English: one … / n …s; the record's and the leaderboard's)
    "ar_n_sessions": ("{n}场", "{n} sessions"), "ar_n_sessions_1": ("{n}场", "{n} session"),
    "ar_n_hands": ("{n}局", "{n} hands"), "ar_n_hands_1": ("{n}局", "{n} hand"),
    "ar_n_wins": ("胡{n}", "{n} wins"), "ar_n_wins_1": ("胡{n}", "{n} win"),
    "ar_n_self_draws": ("自摸{n}", "{n} self-drawn"), "ar_n_self_draws_1": ("自摸{n}", "{n} self-drawn"),
    "ar_n_kongs": ("杠{n}", "{n} kongs"), "ar_n_kongs_1": ("杠{n}", "{n} kong"),
    "ar_no_record": ("还没有战绩", "No record yet"),
    "ar_history": ("历史", "History"),
    "ar_records": ("战绩", "Records"),
    "ar_leaderboard": ("排行榜", "Leaderboard"),
    "ar_replay": ("回放", "Replay"),
    "ar_period_day": ("按日", "by day"),
    "ar_period_week": ("按周", "by week"),
    "ar_period_month": ("按月", "by month"),
}
"""The archive's words, zh and en."""
