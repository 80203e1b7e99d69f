"""The words of the parlour owner's floor view (issue 31: ``/parlour``), zh and en (data only:
gathered by :mod:`table_app.present.words`; the page formats them itself, ``{n}`` and all)."""

from __future__ import annotations

from typing import Final

FLOOR: Final[dict[str, tuple[str, str]]] = {
    "fl_title": ("牌桌一览", "The floor"),
    "fl_count": ("{n} 桌 · {busy} 桌在玩 · {off} 桌离线", "{n} tables · {busy} playing · {off} offline"),
    "fl_online": ("在线", "online"),
    "fl_offline": ("离线", "offline"),
    "fl_unknown": ("未知", "not heard yet"),
    "fl_seen": ("最后消息 {t}", "last seen {t}"),
    "fl_never": ("从未连上", "never seen"),
    "fl_idle": ("空闲", "idle"),
    "fl_seating": ("定座位", "seating"),
    "fl_playing": ("在玩", "playing"),
    "fl_between": ("局间", "between hands"),
    "fl_ended": ("本场结束", "session over"),
    "fl_round_hand": ("第{round}圈 · 第{hand}局", "round {round} · hand {hand}"),
    "fl_hands": ("已打 {n} 局", "hands played: {n}"),
    "fl_time": ("{t}", "{t}"),
    "fl_fee": ("台费 {fee}", "fee {fee}"),
    "fl_tea": ("茶水 {tea}", "tea {tea}"),
    "fl_fee_final": ("应收 {total}", "due {total}"),
    "fl_no_fee": ("未设台费", "no fee set"),
    "fl_broken": ("记录无法解读", "records unreadable"),
    "fl_takings": ("营业额", "Takings"),
    "fl_back": ("返回全场", "The floor"),
    "fl_link_live": ("实时", "live"),
    "fl_link_lost": ("连接中断，重连中…", "reconnecting…"),
    # refusals (short, both languages on one line: the owner's browser may be either)
    "fl_owner_only": ("店主专用：请打开 parlour serve 打印的链接（带钥匙）",
                      "owner only: open the link parlour serve printed (it carries the key)"),
    "fl_no_table": ("没有这张桌", "no such table"),
}
