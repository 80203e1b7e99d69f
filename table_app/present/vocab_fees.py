"""The words of the table fee (台费, issue 31), zh and en: the setting in one line, the house's
lines beside the settle-up, the fee so far while a session is played, and the fee form on the
touchscreen (data only: gathered by :mod:`table_app.present.words`; worded by
:mod:`table_app.present.fees`)."""

from __future__ import annotations

from typing import Final

FEES: Final[dict[str, tuple[str, str]]] = {
    # the setting in one line: "台费 每小时 30 · AA · 茶水 5/人"
    "fe_none": ("不收台费", "No table fee"),
    "fe_head": ("台费", "Table fee"),
    "fe_rate_hour": ("每小时 {amount}", "{amount} an hour"),
    "fe_rate_hand": ("每局 {amount}", "{amount} a hand"),
    "fe_rate_round": ("每圈 {amount}", "{amount} a round"),
    "fe_rate_session": ("每场 {amount}", "{amount} a session"),
    "fe_min": ("最低 {amount}", "at least {amount}"),
    "fe_cap": ("封顶 {amount}", "at most {amount}"),
    "fe_payer_aa": ("AA", "split evenly"),
    "fe_payer_big_winner": ("大赢家付", "the big winner pays"),
    "fe_payer_winners": ("赢家按比例付", "winners pay in proportion"),
    "fe_tea": ("茶水 {amount}/人", "tea {amount} each"),
    # what the units were: "2 小时 × 30"
    "fe_units_hour": ("{n} 小时", "{n} h"),
    "fe_units_hand": ("{n} 局", "{n} hands"), "fe_units_hand_1": ("{n} 局", "{n} hand"),
    "fe_units_round": ("{n} 圈", "{n} rounds"), "fe_units_round_1": ("{n} 圈", "{n} round"),
    "fe_units_session": ("{n} 场", "{n} session"),
    "fe_times": ("{units} × {rate}", "{units} × {rate}"),
    "fe_clamped_min": ("最低", "the minimum"),
    "fe_clamped_cap": ("封顶", "the cap"),
    # the house's lines beside the settle-up
    "fe_house": ("付给店家", "To the house"),
    "fe_house_lines": ("付给店家：{lines}", "To the house: {lines}"),
    "fe_bill_head": ("台费 {amount}（{why}）", "Table fee {amount} ({why})"),
    "fe_each_pays": ("每人付台费 {amount}", "each pays the house {amount}"),
    "fe_seat_pays": ("{name} 付台费 {amount}", "{name} pays the house {amount}"),
    "fe_each_tea": ("每人付茶水 {amount}", "each pays {amount} for tea"),
    "fe_seat_tea": ("{name} 付茶水 {amount}", "{name} pays {amount} for tea"),
    "fe_total": ("共付店家 {amount}（台费 {fee} + 茶水 {tea}）",
                 "to the house in all {amount} (table {fee} + tea {tea})"),
    "fe_nothing": ("没有打完的局，不收台费", "No hand was played: nothing to the house"),
    "fe_you_pay": ("你付台费 {amount}", "You pay the house {amount}"),
    "fe_you_tea": ("你付茶水 {amount}", "You pay {amount} for tea"),
    # while a session is played
    "fe_so_far": ("台费至今 {amount}", "Fee so far {amount}"),
    "fe_so_far_why": ("台费至今 {amount}（{why}）", "Fee so far {amount} ({why})"),
    "fe_so_far_tea": ("台费至今 {amount}（{why}）+ 茶水 {tea}", "Fee so far {amount} ({why}) + tea {tea}"),
    # the fee form on the touchscreen
    "fe_title": ("台费", "Table fee"),
    "fe_mode": ("怎么收", "Charged"),
    "fe_mode_none": ("不收", "none"),
    "fe_mode_hour": ("按小时", "by the hour"),
    "fe_mode_hand": ("按局", "by the hand"),
    "fe_mode_round": ("按圈", "by the round"),
    "fe_mode_session": ("按场", "per session"),
    "fe_rate": ("单价", "Rate"),
    "fe_min_label": ("最低", "Minimum"),
    "fe_cap_label": ("封顶", "Cap"),
    "fe_payer": ("谁付", "Who pays"),
    "fe_tea_label": ("茶水/人", "Tea each"),
    "fe_pick_aa": ("AA", "Split evenly"),
    "fe_pick_big_winner": ("大赢家付", "Big winner"),
    "fe_pick_winners": ("赢家按比例", "Winners by share"),
    "fe_for_session": ("本牌局用", "For this session"),
    "fe_for_next": ("下个牌局用", "For the next session"),
    "fe_as_default": ("设为本桌默认", "Table default"),
    "fe_bad_number": ("{label}要是 0 到 {max} 的整数：{text}", "{label} is a whole number 0 to {max}: {text}"),
    "fe_min_over_cap": ("最低不能高于封顶", "The minimum cannot be above the cap"),
    "fe_empty": ("{label}还没填", "{label} is not filled in"),
    "fe_set": ("台费已改：{line}", "Table fee set: {line}"),
    "fe_now": ("本牌局现在：{line}", "This session now: {line}"),
    "fe_already": ("本牌局已是这个台费：{line}", "This session already has this fee: {line}"),
    "fe_next_set": ("下个牌局的台费：{line}", "Next session's fee: {line}"),
    "fe_default_saved": ("本桌默认台费已存：{line}", "The table's default fee saved: {line}"),
    "fe_ended": ("牌局已结束：台费改不了", "The session has ended: its fee stays"),
    "fe_button": ("台费：{what}", "Fee: {what}"),
    "nav_fee": ("台费", "Table fee"),
}
