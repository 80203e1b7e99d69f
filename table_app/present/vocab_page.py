"""The words of the phone page itself, zh and en (issue 27): the language choice, where a seat
sits before the winds are known, the session's hands one by one (a drawn hand says 荒牌), the
end of the session and its settle-up shared as an image and as text (data only: gathered by
:mod:`table_app.present.words`)."""

from __future__ import annotations

from typing import Final

PAGE: Final[dict[str, tuple[str, str]]] = {
    # the language chosen on the phone (each button names its language in that language)
    "pg_language": ("语言", "Language"),
    "pg_lang_zh": ("中文", "中文"),
    "pg_lang_en": ("English", "English"),
    "pg_lang_both": ("中文 + English", "中文 + English"),
    # a seat before its wind is known: its place at the table (as the touchscreen and the table page draw it)
    "pg_place": ("屏幕{place}的座位", "the seat at the screen's {place}"),
    "pg_wind": ("{wind}风", "{wind}"),
    "pg_no_name": ("还没有名字", "no name yet"),
    # the pages' own titles and the seats' list (index.html: a seat's page to open)
    "pg_my_seat": ("我的座位", "My seat"),
    "pg_seat": ("座位", "Seat"),
    "pg_choose_seat": ("选择你的座位", "Choose your seat"),
    "pg_table_word": ("桌", "Table"),
    "pg_whole_table": ("整桌", "the whole table"),
    "pg_old_code": ("二维码已过期", "Old code"),
    # the session's hands, one line each (every screen that lists hands: present.table.hand_line)
    "pg_hand_won": ("第{hand}局 胡 {delta}", "hand {hand}: won {delta}"),
    "pg_hand_drawn": ("第{hand}局 荒牌 {delta}", "hand {hand}: drawn {delta}"),
    "pg_hand_plain": ("第{hand}局 {delta}", "hand {hand}: {delta}"),
    # the end of the session and the settle-up to share
    "pg_ranking": ("排名", "Ranking"),
    "pg_rank_line": ("第{rank}名 {name} {score}", "#{rank} {name} {score}"),
    "pg_pays": ("结账", "Settle up"),
    "pg_yours": ("你的", "Yours"),
    "pg_share": ("分享结算", "Share the settle-up"),
    "pg_save_image": ("存图片", "Save the image"),
    "pg_copy_text": ("复制文字", "Copy the text"),
    "pg_copied": ("已复制", "Copied"),
    "pg_copy_by_hand": ("长按下面的文字复制", "Press and hold the text below to copy it"),
    "pg_image_hint": ("长按图片可以保存或转发", "Press and hold the image to save or forward it"),
    "pg_last_session": ("上一牌局", "Last session"),
    "pg_not_ended": ("上一牌局（没有结束就开了新牌局）", "Last session (a new one began before it ended)"),
}
