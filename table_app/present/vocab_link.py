"""The words of a phone's link to the table through restarts and outages, and of a seat that
changes phone (issue 27), zh and en (data only: gathered by :mod:`table_app.present.words`)."""

from __future__ import annotations

from typing import Final

LINK: Final[dict[str, tuple[str, str]]] = {
    # a tap the table did not get (phone_link.js): shown as not taken, offered again
    "lk_not_sent": ("没送到", "not sent"),
    "lk_send_again": ("再送一次", "send again"),
    "lk_reconnecting": ("连不上牌桌，正在重连…", "the table does not answer: reconnecting"),
    # a second phone asks for this seat
    "lk_takeover_ask": ("另一部手机想要这个座位", "another phone wants this seat"),
    "lk_allow": ("允许", "allow"),
    "lk_refuse": ("拒绝", "refuse"),
    "lk_changed_phone": ("{who} 换了手机", "{who} changed phone"),
    "lk_seat_n": ("座位{n}", "seat {n}"),
    # the joining phone
    "lk_asking": ("正在请这个座位上的手机同意…", "asking the phone at this seat…"),
    "lk_ask_refused": ("这个座位上的手机没有同意", "the phone at this seat said no"),
    "lk_ask_gone": ("这个请求已过期：请再选一次座位", "this request is over: pick the seat again"),
    "lk_no_question": ("没有手机在问这个座位", "no phone is asking for this seat"),
    # the join page (join.html: every line in both languages)
    "jn_join": ("入座", "Join"),
    "jn_title": ("选座位、写名字", "Pick your seat, type your name"),
    "jn_name": ("名字", "Name"),
    "jn_name_limit": ("最多8个汉字或12个字母", "up to 8 Chinese characters or 12 letters"),
    "jn_blank_keeps": ("不填就用现在的", "blank keeps the one shown"),
    "jn_has_phone": ("已有手机", "has a phone"),
    "jn_free": ("空", "free"),
    "jn_no_answer": ("连不上牌桌", "The table does not answer"),
    # the table page
    "lk_new_code": ("换二维码", "New code"),
    "lk_table": ("麻将桌", "Mahjong table"),
}
