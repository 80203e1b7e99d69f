"""The words of seating (method C's drawn winds, who moves where), settings (every setting by
a name a player reads, its checks) and money beside points, zh and en (data only: gathered by
:mod:`table_app.present.words`)."""

from __future__ import annotations

from typing import Final

SEATING: Final[dict[str, tuple[str, str]]] = {
    # seating
    "explain_C": ("把东南西北四张风牌扣着洗好，每人摸一张，在下面点各人摸到的风。"
                  "摸到东的不动，其他人按南、西、北逆时针换座。",
                  "Shuffle the four wind tiles face down; each takes one. Tap the wind each drew: "
                  "East stays put, the others move round from East (South, West, North)."),
    "dice_missing": ("还差骰子：{names}", "dice still missing: {names}"),
    "rolls_missing": ("还有 {n} 人没掷", "{n} still to roll"),
    "winds_missing": ("还有 {n} 人没选风", "{n} still to pick a wind"),
    "moves_title": ("请换座：", "Change places:"),
    "move_line": ("{name}：{frm} → {to}（{wind}）", "{name}: {frm} → {to} ({wind})"),
    "moves_none": ("不用换座：大家正好按风坐好了。", "Nobody moves: everyone already sits by their wind."),
    # settings: every setting by its name
    "set_money": ("每分多少钱", "Money per point"),
    "money_off": ("不算钱", "points only"),
    "money_each": ("每分 {value} {unit}", "{value} {unit} a point"),
    "claim_no_limit": ("不限时", "no limit"),
    "claim_no_limit_why": ("0 秒 = 不限时：等每家都表态（吃碰杠胡或过）才继续。",
                           "0 s = no limit: play goes on once every seat has claimed or passed."),
    "set_table_id_hint": ("只用字母、数字、- 或 _，最多 64 个", "letters, digits, - or _; at most 64"),
    "setting_bad": ("{label}：{want}", "{label}: {want}"),
    "want_table_id": ("只能用字母、数字、- 或 _（1 到 64 个），不能有空格",
                      "use 1–64 letters, digits, - or _ (no spaces)"),
    "want_money": ("要一个不小于 0 的数，最多两位小数", "a number 0 or more, with at most 2 decimals"),
    "want_any": ("这个值不行", "this value is not allowed"),
    "link_mqtt_off": ("没设置（不发送到 MQTT）", "not set up (nothing sent to MQTT)"),
    "phones_not_set": ("没开（在配置里设置手机页面的地址）", "off (set the phone pages' address in the config)"),
    # money beside points (no-break spaces: an amount never wraps apart from its unit)
    "money_amount": ("{value}\u00a0{unit}", "{value}\u00a0{unit}"),
    "points_money": ("{points}\u00a0分（{money}）", "{points}\u00a0({money})"),
    "money_unit": ("元", "yuan"),
}
