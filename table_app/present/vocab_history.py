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
    "ar_record": ("{period}  {sessions}场 {hands}局  胡{wins}（自摸{self_draws}）  杠{kongs}  {net}",
                  "{period}  {sessions} sessions, {hands} hands  {wins} wins ({self_draws} self-drawn)  "
                  "{kongs} kongs  {net}"),
    "ar_board_row": ("{rank}. {name}  {net}  {sessions}场 {hands}局  胡{wins}",
                     "{rank}. {name}  {net}  {sessions} sessions, {hands} hands, {wins} wins"),
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
