"""Every word the touchscreen shows, in Chinese and English (no Kivy here).

``tr(key, lang, **fields)`` formats one string; an unknown key is a bug and raises. The
refusals of the engine and the service are worded here from their ``code`` and ``params``
(:func:`refusal`), the rule options in words (:data:`RULE_WORDS`), the journal's sources
(:func:`source_word`). Tiles are named in Chinese (一万, 东风) in both languages' sentences
where a player reads them; mpsz text stays in the command line.

>>> tr("score", "en"), tr("score", "zh")
('score', '分')
>>> tr("turn_of", "en", name="Ann")
"Ann's turn"
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from engine.tiles import TileError, parse_tiles, tile_name

LANGS: Final = ("zh", "en")
DEFAULT_NAMES: Final = ("阿明", "阿华", "阿强", "阿芳")  # the new-session form's names until the players type theirs

WIND_ZH: Final = {"E": "东", "S": "南", "W": "西", "N": "北"}
WIND_EN: Final = {"E": "East", "S": "South", "W": "West", "N": "North"}

_T: Final[dict[str, tuple[str, str]]] = {
    "app_title": ("西安麻将", "Xi'an mahjong"),
    "lang_button": ("English", "中文"),
    "score": ("分", "score"),
    "bet": ("注", "bet"),
    "bet_n": ("注{n}", "bet {n}"),
    "dealer": ("庄", "D"),
    "dealer_word": ("庄家", "dealer"),
    "streak": ("连{n}", "×{n}"),
    "hand_round": ("第{hand}局 · 第{round}圈", "hand {hand} · round {round}"),
    "turn_of": ("{name} 出牌", "{name}'s turn"),
    "your_turn": ("轮到你出牌", "your turn"),
    "your_roll": ("该你掷骰（{what}）", "your roll ({what})"),
    "concealed_n": ("手牌{n}", "{n} in hand"),
    "discards_n": ("河{n}", "{n} out"),
    "wall_of": ("{name}的墙", "{name}'s wall"),
    "wall_unbroken": ("还没有开牌", "the wall is not broken yet"),
    "wall_legend": ("象牙色：在墙上 · 深色：已摸 · 橙色：杠后补牌 · 红框：留牌墩 · "
                    "绿框：下一张 · 蓝框：最后一墩 · 白圈：断点",
                    "ivory: on the table · dark: drawn · orange: kong replacement · red edge: kept back · "
                    "green: next draw · blue: the tail · white ring: the break"),
    "dice_were": ("骰子 {dice}", "dice {dice}"),
    "drawable": ("可摸 {n} 张", "{n} to draw"),
    "break_at": ("从{name}的墙第{stack}墩后抓牌", "draw after stack {stack} of {name}'s wall"),
    "wall_line": ("剩{remaining}张 · 可摸{drawable} · 留{reserve}墩 · 杠{kongs}",
                  "{remaining} left · {drawable} to draw · {reserve} kept · kongs: {kongs}"),
    # phases
    "phase_idle": ("请开新牌局", "start a session"),
    "phase_seating": ("定位：选座位和东家", "seating: who is East"),
    "phase_betting": ("下注（可不下），然后庄家掷骰", "bets (if any), then the dealer rolls"),
    "phase_rolling": ("掷骰", "rolling"),
    "phase_turn": ("出牌", "play"),
    "phase_claims": ("吃碰杠胡", "claims open"),
    "phase_win_pending": ("确认胡牌", "confirm the win"),
    "phase_hand_over": ("本局结束", "hand over"),
    "phase_ended": ("牌局结束", "session ended"),
    # prompts
    "rolls_next": ("{name} 掷骰（{what}）", "{name} rolls ({what})"),
    "bets_then_roll": ("可以下注，然后 {name} 掷骰", "Bets if any, then {name} rolls"),
    "roll_wall": ("定哪家的墙", "whose wall"),
    "roll_break": ("定起牌点", "the break point"),
    "claims_from": ("{name} 打出{tile}", "{name} discarded{tile}"),
    "claims_rob": ("{name} 加杠{tile}，可抢杠胡", "{name} adds a kong{tile}: rob it?"),
    "seconds_left": ("{s:.0f} 秒", "{s:.0f} s"),
    "waiting_on": ("等：{names}", "waiting: {names}"),
    "win_by": ("{name} 胡了（{kind}）", "{name} wins ({kind})"),
    "next_hand_hint": ("下一局庄家：{dealer}", "next dealer: {dealer}"),
    "claim_hint": ("可以{calls}", "may {calls}"),  # the seat's own calls now (its actions): 可以碰杠胡
    "call_sep": ("", "/"),
    "discarder_hint": ("你刚出牌", "you discarded"),
    # the seats' buttons (fixed slots: 出牌 吃 碰 杠 胡 过)
    "slot_discard": ("出牌", "Discard"),
    "slot_chow": ("吃", "Chow"),
    "slot_pong": ("碰", "Pong"),
    "slot_kong": ("杠", "Kong"),
    "slot_win": ("胡", "Win"),
    "slot_pass": ("过", "Pass"),
    "slot_roll": ("掷骰", "Roll"),
    "slot_bet_down": ("注 −", "Bet −"),
    "slot_bet_up": ("注 +", "Bet +"),
    "kong_concealed": ("暗杠", "concealed kong"),
    "kong_added": ("加杠", "added kong"),
    "kong_exposed": ("明杠", "exposed kong"),
    "kong_which": ("暗杠还是加杠？", "Which kong?"),
    "answer_pass": ("过", "pass"),
    "answer_win": ("要胡", "win"),
    "answer_kong": ("要杠", "kong"),
    "answer_pong": ("要碰", "pong"),
    "answer_chow": ("要吃", "chow"),
    "discarder": ("出牌者", "discarder"),
    "flash_roll": ("掷骰", "rolled"),
    "flash_discard": ("出牌", "discarded"),
    "flash_pass": ("过", "passed"),
    "flash_win": ("自摸", "wins"),
    "flash_claim_win": ("胡", "win"),
    "flash_claim_kong": ("杠", "kong"),
    "flash_claim_pong": ("碰", "pong"),
    "flash_claim_chow": ("吃", "chow"),
    # the table's forward actions (in the middle)
    "go_new_session": ("新牌局", "New session"),
    "go_seating": ("定位", "Seat the players"),
    "go_confirm_win": ("确认胡牌", "Confirm the win"),
    "go_next_hand": ("下一局", "Next hand"),
    "go_final": ("看结果", "Results"),
    "go_score_hand": ("只记分", "Score only"),
    # menu
    "menu": ("菜单", "Menu"),
    "nav_table": ("牌桌", "Table"),
    "nav_wall": ("牌墙", "Wall"),
    "nav_settlement": ("结算", "Settlement"),
    "nav_scores": ("计分", "Scores"),
    "nav_history": ("记录 · 撤销", "History · undo"),
    "nav_settings": ("设置", "Settings"),
    "nav_new": ("新牌局", "New session"),
    "nav_join": ("手机扫码入座", "Join by phone"),
    "phones_link": ("手机页面", "Phone pages"),
    "phones_off": ("没开（设置 web.listen）", "off (set web.listen)"),
    "page_next_hint": ("下一局：在手机（或桌上的屏幕）上按「下一局」",
                       "Next hand: tap it on a phone (or the table's screen)"),
    "page_new_hint": ("新的一场：在手机上按「开新牌局」", "Another session: tap New session on a phone"),
    "join_button": ("手机扫码入座", "Join by phone"),
    "join_short": ("扫码入座", "Phones"),
    "join_title": ("用手机扫码入座", "Join with your phone"),
    "join_steps": ("1. 手机连上牌桌的 Wi-Fi\n2. 扫这个二维码\n3. 选座位，输入名字（中文也行）\n"
                   "之后手机就是你座位的按钮，也显示你的分数。",
                   "1. Connect the phone to the table's Wi-Fi\n2. Scan this code\n"
                   "3. Pick your seat and type your name\nThe phone is then your seat's buttons and shows your score."),
    "nav_end": ("结束牌局", "End session"),
    "nav_entry": ("只记分", "Score only"),
    "back": ("返回", "Back"),
    "close": ("关闭", "Close"),
    # new session
    "new_session": ("新牌局", "New session"),
    "where_sits": ("谁坐哪儿（按屏幕方向）", "Seats (as on the screen)"),
    "place_bottom": ("下方", "bottom"),
    "place_right": ("右方", "right"),
    "place_top": ("上方", "top"),
    "place_left": ("左方", "left"),
    "player_n": ("玩家{n}", "Player {n}"),
    "base": ("基数", "base"),
    "rules_summary": ("规则：{text}", "rules: {text}"),
    "rules_default": ("西安规则（默认）", "Xi'an rules (the defaults)"),
    "rules_changed": ("西安规则，改了{n}项", "Xi'an rules, {n} changed"),
    "edit_rules": ("改规则", "Rules"),
    "score_only_mode": ("只记分（不按按钮，每局只输入结果）", "score only (no buttons: enter each hand's result)"),
    "start": ("开始", "Start"),
    "name_missing": ("请给{place}的玩家起个名字", "Give the player at the {place} a name"),
    "name_too_long": ("名字最多 8 个汉字或 12 个字母：{name}",
                      "A name has at most 8 Chinese characters or 12 letters: {name}"),
    "base_bad": ("基数要是 1 或更大的整数", "The base is a whole number, 1 or more"),
    "names_same": ("两位玩家同名：{name}", "Two players have the same name: {name}"),
    "rules_title": ("规则（开局前可改）", "Rules (set before the session)"),
    "rules_reset": ("恢复西安默认", "Xi'an defaults"),
    "done": ("完成", "Done"),
    # seating
    "seating": ("定位", "Seating"),
    "method_A": ("一人掷骰", "One roll"),
    "method_B": ("每人掷骰", "Everyone rolls"),
    "method_C": ("摸风牌", "Wind tiles"),
    "explain_A": ("任意一人掷两颗骰子，从他自己数起（逆时针），数到谁谁坐东。",
                  "Anyone rolls two dice; count that many seats counter-clockwise from the roller, "
                  "starting with the roller: that seat is East."),
    "explain_B": ("每人掷两颗骰子，点数最大的坐东，然后南、西、北。点数一样的人再掷。",
                  "Everyone rolls two dice: the highest is East, then South, West, North. "
                  "Equal rolls roll again."),
    "explain_C": ("把东南西北四张风牌扣着洗好，每人摸一张：摸到东的人坐东。",
                  "Shuffle the four wind tiles face down, each takes one: whoever draws East is East."),
    "who_rolls": ("谁掷：", "Roller:"),
    "die_1": ("第一颗", "die 1"),
    "die_2": ("第二颗", "die 2"),
    "who_east": ("谁摸到东：", "Who drew East:"),
    "random": ("随机", "Random"),
    "seat_ok": ("确定", "OK"),
    "dice_missing": ("还差骰子：{names}", "dice still missing: {names}"),
    "ok": ("确定", "OK"),
    "cancel": ("取消", "Cancel"),
    "sit_here": ("请入座", "Please sit here"),
    "sit_here_hint": ("{east} 坐东，是第一局的庄家。", "{east} is East and deals the first hand."),
    "sit_done": ("都坐好了", "Everyone is seated"),
    # win
    "win_entry": ("胡牌", "Win"),
    "wait_closed": ("夹张", "closed"),
    "wait_single": ("单调", "single"),
    "wait_edge": ("边张", "edge"),
    "wait_plain": ("平胡", "plain"),
    "explain_wait": ("怎么听的牌？点一下就结算：", "How did the hand wait? One tap settles it:"),
    "kind_self_drawn": ("自摸", "self-drawn"),
    "kind_discard": ("点炮", "on a discard"),
    "kind_robbed_kong": ("抢杠", "robbed kong"),
    "kind_kong_bloom": ("杠后开花", "kong bloom"),
    "kind_heavenly": ("天胡", "heavenly"),
    "false_win": ("诈胡", "False win"),
    "confirm_false_win": ("{name} 诈胡？收回这次胡牌，牌局照常继续。",
                          "{name}'s false win? It is taken back and play goes on."),
    "tap_hand": ("或者点出整手牌（最后点的是胡的那张）：",
                 "or tap the whole hand in (the last tile tapped is the winning tile):"),
    "meld": ("副露", "Meld"),
    "clear": ("清除", "Clear"),
    "backspace": ("退一张", "Undo tile"),
    "which_wait": ("{head}：怎么听的牌？", "{head}: which wait?"),
    "confirm_hand": ("按这手牌确认", "Confirm this hand"),
    "reads_as": ("胡：{wait}{bonus}", "wins: {wait}{bonus}"),
    "bonus_yes": ("（加分）", " (bonus)"),
    "not_winning": ("不是胡牌", "not a winning hand"),
    "need_melds": ("需要 {n} 副露", "needs {n} melds"),
    "count_of": ("{n}/14 张", "{n}/14 tiles"),
    "hand_unreadable": ("这手牌读不出来", "this hand cannot be read"),
    # settlement
    "settlement": ("结算", "Settlement"),
    "no_settlement": ("还没有结算：打完一局就有", "No settlement yet: it comes when a hand is over"),
    "drawn_hand": ("荒牌", "drawn hand"),
    "col_player": ("", ""),
    "col_win": ("胡", "win"),
    "col_kong": ("杠", "kong"),
    "col_bet": ("注", "bets"),
    "col_hand": ("本局", "hand"),
    "col_total": ("总分", "total"),
    "reason_win": ("胡", "win"),
    "reason_kong": ("杠", "kong"),
    "reason_bet": ("注", "bet"),
    "pays": ("{frm} 付给 {to} {amount}（{reason}）", "{frm} pays {to} {amount} ({reason})"),
    "transfers": ("明细", "Transfers"),
    "next_hand": ("下一局", "Next hand"),
    "end_session": ("结束牌局", "End session"),
    "confirm_end": ("结束今晚的牌局并结账？（之后还可以撤销）",
                    "End tonight's session and settle up? (it can be undone)"),
    # the end of the evening
    "final": ("牌局结束", "Session over"),
    "rank_n": ("第{n}名", "#{n}"),
    "hands_played": ("共 {n} 局", "{n} hands"),
    "settle_up": ("结账（最少几笔）", "Settle up (fewest payments)"),
    "settle_pay": ("{frm} 给 {to} {amount}", "{frm} pays {to} {amount}"),
    "settle_none": ("谁也不欠谁", "Nobody owes anything"),
    "resume": ("撤销结束，继续打", "Undo: play on"),
    # score-only entry
    "entry": ("记分", "Score a hand"),
    "entry_title": ("第{hand}局 · 庄家 {dealer}", "hand {hand} · dealer {dealer}"),
    "who_won": ("谁胡了", "Who won"),
    "nobody": ("荒牌", "Nobody"),
    "how_won": ("怎么胡", "How"),
    "self_drawn": ("自摸", "Self-drawn"),
    "fed_by": ("{name}点炮", "{name} fed"),
    "wait": ("听法", "Wait"),
    "extras": ("另外", "Also"),
    "kongs_bets": ("杠 · 注", "Kongs · bets"),
    "score_it": ("记分", "Score it"),
    "play_instead": ("用按钮打", "Play it"),
    "entry_kong_c": ("暗杠 {n}", "conc. {n}"),
    "entry_kong_e": ("明杠 {n}", "exp. {n}"),
    "entry_bet": ("注 {n}", "bet {n}"),
    "entry_pick": ("请先选谁胡了（或荒牌）", "Pick who won (or nobody) first"),
    "entry_how": ("请选怎么胡的", "Pick how it was won"),
    "from_whom": ("{name} 的明杠是谁打的？", "Whose discard did {name} kong?"),
    # scoreboard, history, settings
    "scoreboard": ("计分", "Scores"),
    "history": ("记录", "History"),
    "undo": ("撤销上一步", "Undo last"),
    "redo": ("重做", "Redo"),
    "undo_to": ("撤回到这里", "Undo to here"),
    "confirm_undo": ("撤销：{what}？", "Undo: {what}?"),
    "confirm_undo_to": ("撤回到这一步之后：{what}？", "Go back to just after: {what}?"),
    "confirm_redo": ("重做：{what}？", "Redo: {what}?"),
    "confirm_new": ("放下正在打的牌局，开新牌局？（旧的记录会保留）",
                    "Leave the session being played and start a new one? (its record is kept)"),
    "settings": ("设置", "Settings"),
    "set_lang": ("语言", "Language"),
    "lang_zh": ("中文", "中文"),
    "lang_en": ("English", "English"),
    "seconds_n": ("{s:g} 秒", "{s:g} s"),
    "inches_n": ("{n:g} 英寸", "{n:g}\""),
    "set_layout": ("屏幕放哪儿", "Where the screen is"),
    "layout_upright": ("桌边", "at a side"),
    "layout_facing": ("桌子中间", "in the middle"),
    "set_diagonal": ("屏幕尺寸（英寸）", "Screen size (inches)"),
    "set_claim_window": ("吃碰杠胡等几秒", "Seconds to claim"),
    "set_table_id": ("牌桌名", "Table name"),
    "save": ("保存", "Save"),
    "saved_to": ("已保存到 {path}", "Saved to {path}"),
    "save_failed": ("没保存上：{error}", "Not saved: {error}"),
    "links": ("连接", "Links"),
    "hardware": ("按钮", "buttons"),
    "panel": ("面板", "panel"),
    "mqtt": ("MQTT", "MQTT"),
    "font": ("字体", "font"),
    "journal": ("记录文件", "journal"),
    "window": ("窗口", "window"),
    "online": ("在线", "online"),
    "offline": ("离线", "offline"),
    "simulated": ("模拟（键盘）", "simulated (keyboard)"),
    "not_connected": ("未连接", "not connected"),
    "connecting": ("连接中", "connecting"),
    "connected": ("已连接", "connected"),
    "reconnecting": ("重新连接中", "reconnecting"),
    "waiting": ("等待面板", "waiting for the panel"),
    "denied": ("被拒绝（用户或密码）", "denied (user or password)"),
    "version_mismatch": ("固件版本不符", "firmware version mismatch"),
    "warning": ("注意", "warning"),
    "off": ("未启用", "off"),
    "keys_help": (
        "键盘：下方 1-5，右方 Q-T，上方 A-G，左方 Z-B（出/吃/碰/杠/胡），空格 掷骰",
        "Keys: bottom 1-5, right Q-T, top A-G, left Z-B (turn/chow/pong/kong/win), space rolls",
    ),
    "no_font": (
        "找不到中文字体：请安装 fonts-noto-cjk 或在 XIAN_TABLE_FONT 中给出字体文件",
        "No CJK font found: install fonts-noto-cjk or set XIAN_TABLE_FONT to a font file",
    ),
    "refused": ("不行：{error}", "Refused: {error}"),
    # history sentences
    "ev_new_session": ("新牌局：{names}，基数 {base}", "new session: {names}, base {base}"),
    "ev_seating_A": ("定位：{name} 掷 {dice}，{east} 坐东", "seating: {name} rolls {dice}, {east} is East"),
    "ev_seating_B": ("定位：每人掷骰，{east} 坐东", "seating: everyone rolled, {east} is East"),
    "ev_seating_C": ("定位：{east} 摸到东", "seating: {east} drew East"),
    "ev_bets": ("下注：{list}", "bets: {list}"),
    "ev_bets_none": ("不下注", "no bets"),
    "ev_roll": ("{name} 掷骰 {dice}", "{name} rolls {dice}"),
    "ev_discard": ("{name} 出牌{tile}", "{name} discards{tile}"),
    "ev_claim": ("{name} {call}{whose}", "{name}: {call}{whose}"),
    "ev_whose": (" {name}的{tile}", " {name}'s{tile}"),
    "ev_whose_tile": (" {name}的牌", " {name}'s tile"),
    "ev_roll_wall": ("掷骰 {dice}（定哪家的墙）", "roll {dice} (whose wall)"),
    "ev_roll_break": ("掷骰 {dice}（定起牌点）", "roll {dice} (the break point)"),
    "ev_pass": ("{name} 过", "{name} passes"),
    "ev_resolve": ("吃碰杠胡截止", "claims closed"),
    "ev_kong": ("{name} {kind}{tile}", "{name}: {kind}{tile}"),
    "ev_win": ("{name} 自摸", "{name} declares a win"),
    "ev_confirm_win": ("确认胡牌{wait}", "win confirmed{wait}"),
    "ev_reject_win": ("诈胡，收回", "false win taken back"),
    "ev_next_hand": ("下一局", "next hand"),
    "ev_end_session": ("结束牌局", "session ended"),
    "ev_score_hand": ("记分：{what}", "scored: {what}"),
    "ev_undo": ("撤销", "undo"),
    "ev_name": ("入座改名：{name}", "a name set: {name}"),
    "by_hand": ("（按手牌）", " (by the hand)"),
    "src_touch": ("触摸屏", "screen"),
    "src_gpio": ("按钮", "buttons"),
    "src_panel": ("按钮面板", "panel"),
    "src_sim-keys": ("键盘", "keys"),
    "src_demo": ("演示", "demo"),
    "src_service": ("自动", "automatic"),
    "src_mqtt": ("MQTT", "MQTT"),
    "src_phone": ("手机", "phone"),
    "src_test": ("测试", "test"),
    "src_other": ("其他", "other"),
    # refusals: the engine's codes (engine.errors.CODES) and the service's (table_app.service.Answer)
    "invalid": ("这一步输入有误", "That entry is malformed"),
    "phase": ("现在不能{event}：{phase}", "Not now: {event} ({phase})"),
    "not_turn": ("还没轮到{name}：现在{turn}出牌", "Not {name}'s turn: {turn} plays"),
    "tile.needed": ("{name}：请在屏幕上选是哪张牌", "{name}: choose the tile on the screen"),
    "seating.ties": ("{tied} 点数一样：请这几位再掷一次", "{tied} rolled the same: they roll again"),
    "bets.after_roll": ("庄家已经掷骰了，这局不能再下注", "The dealer has rolled: no more bets this hand"),
    "roll.not_dealer": ("先由庄家{dealer}掷骰", "The dealer, {dealer}, rolls first"),
    "roll.not_owner": ("现在该{owner}掷骰（定起牌点）", "{owner} rolls now (the break point)"),
    "discard.not_held": ("{name}手里没有{tile}", "{name} does not hold {tile}"),
    "kong.nothing_drawn": ("{name}刚吃或碰，没摸牌，不能杠", "{name} just chowed or ponged and drew nothing: no kong"),
    "kong.wall_empty": ("牌墙没有牌可补了，不能杠", "No tile is left to replace a kong"),
    "kong.too_few": ("{name}手里只有{held}张，不够暗杠", "{name} holds only {held} tiles: no concealed kong"),
    "kong.not_four": ("{name}只有{held}张{tile}", "{name} holds only {held} × {tile}"),
    "kong.added_off": ("这局的规则不许加杠", "This session's rules allow no added kong"),
    "kong.no_pong": ("{name}没有碰过{tile}，不能加杠", "{name} has no pong to add {tile} to"),
    "kong.nothing_to_add": ("{name}没有可加到碰上的牌", "{name} has no tile to add to a pong"),
    "kong.not_held": ("{name}手里没有{tile}", "{name} does not hold {tile}"),
    "claim.own": ("{name}不能{call}自己打的牌", "{name} cannot {call} its own tile"),
    "claim.rob_only_win": ("加杠的牌只能抢杠胡", "An added kong's tile can only be robbed with a win"),
    "claim.not_winning": ("{tile}胡不了{name}的牌", "{tile} does not complete {name}'s hand"),
    "claim.too_few": ("{name}的牌不够{call}", "{name} has too few tiles to {call}"),
    "claim.not_held": ("{name}手里的{tile}不够{call}", "{name} has too few {tile} to {call}"),
    "claim.wall_empty": ("没有牌可补了，不能杠", "No tile is left to replace a kong"),
    "chow.not_next": ("只有下家{next}能吃", "Only the next player, {next}, may chow"),
    "chow.honour": ("字牌不能吃", "Honours cannot be chowed"),
    "chow.bad_tiles": ("这两张和打出的牌连不成顺子", "Those two tiles make no run with the discard"),
    "chow.not_held": ("{name}没有能吃{tile}的两张牌", "{name} has no two tiles to chow {tile}"),
    "chow.which": ("{name}：吃哪两张？请在屏幕上选", "{name}: which chow? Choose on the screen"),
    "pass.own": ("{name}刚出的牌，不用过", "{name} discarded it: nothing to pass"),
    "win.nothing_drawn": ("{name}刚吃或碰，没摸牌，不能自摸", "{name} just chowed or ponged: no self-drawn win"),
    "win.not_winning": ("{name}的牌还没胡", "{name}'s hand does not win"),
    "confirm.not_winning": ("这手牌不是胡牌：可以按诈胡收回", "That hand does not win: a false win takes it back"),
    "confirm.hand_differs": ("输入的手牌和桌上的不一样", "That hand is not the one on the table"),
    "confirm.wait_differs": ("这手牌是{reads}，不是{wait}", "The hand reads {reads}, not {wait}"),
    "confirm.needs_wait": ("请选听法，或者点出整手牌", "Choose the wait, or tap the hand in"),
    "confirm.tile_differs": ("胡的那张是{tile}", "The winning tile was {tile}"),
    "confirm.melds_needed": ("请把{melds}副露也点进来", "Tap in the {melds} melds too"),
    "confirm.melds_count": ("桌上有{melds}副露，输入了{given}副", "The table shows {melds} melds, {given} entered"),
    "confirm.melds_kind": ("副露的种类和桌上的不一样（桌上：{exposed}）",
                           "Those melds are not what was shown ({exposed})"),
    "confirm.melds_tiles": ("副露和桌上的不一样：桌上是{shown}", "A meld differs from the table's: {shown}"),
    "confirm.bad_hand": ("这手牌读不出来", "That hand cannot be read"),
    "score.heavenly_dealer": ("天胡只能是庄家{dealer}", "Only the dealer, {dealer}, wins a heavenly hand"),
    "score.kong_discarder": ("{name}的明杠：请选是谁打的牌", "{name}'s exposed kong: whose discard was it?"),
    "press.not_turn": ("还没轮到{name}：现在{turn}出牌", "Not {name}'s turn: {turn} plays"),
    "press.claim_pending": ("{claimant}要{call}，请等一等", "{claimant}'s {call} is pending: wait"),
    "press.own_discard": ("{name}刚出的牌，等别人吃碰杠胡", "{name} discarded it: the others answer"),
    "press.own_turn": ("轮到{name}：出牌、杠或自摸", "{name}'s own turn: discard, kong or win"),
    "press.cannot": ("{name}现在不能{action}", "{name} cannot {action} now"),
    "press.kong_which": ("{name}：暗杠还是加杠？请在屏幕上选", "{name}: which kong? Choose on the screen"),
    "press.chow_which": ("{name}：吃哪两张？请在屏幕上选", "{name}: which chow? Choose on the screen"),
    "press.needs_tile": ("{name}：请在屏幕上选要打的牌", "{name}: choose the tile to discard on the screen"),
    "press.phase": ("现在按{button}没有用：{phase}", "{button} does nothing now: {phase}"),
    "undo.nothing": ("没有可以撤销的", "Nothing to undo"),
    "undo.bad_target": ("不能撤回到那一步", "Cannot go back to that step"),
    "redo.nothing": ("没有可以重做的", "Nothing to redo"),
    "redo.refused": ("重做不了", "That cannot be redone"),
    "journal.failed": ("没记上（存储出错），请再试一次", "Not recorded (the journal could not be written): try again"),
    "service.stopped": ("牌桌服务已停止", "The table service has stopped"),
    "service.internal": ("出了内部错误，这一步没记上", "An internal error: this step was not recorded"),
    # words inside refusals and sentences
    "call_win": ("胡", "win"),
    "call_kong": ("杠", "kong"),
    "call_pong": ("碰", "pong"),
    "call_chow": ("吃", "chow"),
    "action_discard": ("出牌", "discard"),
    "action_kong": ("杠", "kong"),
    "action_win": ("自摸", "win"),
    "action_pass": ("过", "pass"),
    "action_roll": ("掷骰", "roll"),
    "action_claim:win": ("胡", "win"),
    "action_claim:kong": ("杠", "kong"),
    "action_claim:pong": ("碰", "pong"),
    "action_claim:chow": ("吃", "chow"),
    "meld_chow": ("吃", "chow"),
    "meld_pong": ("碰", "pong"),
    "meld_kong": ("杠", "kong"),
    "event_new_session": ("开新牌局", "start a session"),
    "event_seating": ("定位", "seat the players"),
    "event_bets": ("下注", "bet"),
    "event_roll": ("掷骰", "roll"),
    "event_discard": ("出牌", "discard"),
    "event_claim": ("吃碰杠胡", "claim"),
    "event_pass": ("过", "pass"),
    "event_resolve": ("截止吃碰杠胡", "close the claims"),
    "event_kong": ("杠", "kong"),
    "event_win": ("自摸", "win"),
    "event_confirm_win": ("确认胡牌", "confirm a win"),
    "event_reject_win": ("诈胡收回", "take back a win"),
    "event_next_hand": ("开下一局", "start the next hand"),
    "event_end_session": ("结束牌局", "end the session"),
    "event_score_hand": ("记分", "score a hand"),
    "event_name": ("改名", "set a name"),
    "button_TURN": ("出牌键", "TURN"),
    "button_CHI": ("吃", "CHI"),
    "button_PENG": ("碰", "PENG"),
    "button_GANG": ("杠", "GANG"),
    "button_HU": ("胡", "HU"),
    "button_DICE": ("骰子键", "the dice"),
    "list_sep": ("、", ", "),
    "someone": ("有人", "someone"),
}

RULE_WORDS: Final[dict[str, tuple[tuple[str, str], tuple[str, str], dict[Any, tuple[str, str]]]]] = {
    # option: (its name, what it decides, {value: how the value reads})
    "wall_direction": (("数墩方向", "Counting the wall"), ("掷骰后数墩的方向", "which way stacks are counted"),
                       {"counterclockwise": ("逆时针（默认）", "counter-clockwise (default)"),
                        "clockwise": ("顺时针", "clockwise")}),
    "added_kong": (("加杠", "Added kong"),
                   ("摸到第四张可以加到自己的碰上", "the drawn fourth tile may join one's pong"),
                   {True: ("可以（默认）", "allowed (default)"), False: ("不可以", "not allowed")}),
    "kong_reserve": (("留牌墩", "Kong reserve"), ("牌墙最后留几墩不摸：没杠 / 一杠 / 两杠 / 三杠以上",
                                                  "stacks left undrawn: no kong / 1 / 2 / 3 or more kongs"),
                     {(13, 7, 8, 13): ("13 / 7 / 8 / 13（默认）", "13 / 7 / 8 / 13 (default)"),
                      (13, 13, 13, 13): ("都留 13 墩", "always 13"),
                      (0, 0, 0, 0): ("不留", "none")}),
    "kong_paid_on_draw": (("荒牌时的杠钱", "Kongs on a drawn hand"),
                          ("荒牌时已经付的杠钱", "kong payments when nobody wins"),
                          {True: ("照付（默认）", "stand (default)"), False: ("退回", "are paid back")}),
    "seven_pairs": (("七对", "Seven pairs"), ("七个对子算不算胡", "whether seven pairs win"),
                    {False: ("不算胡（默认）", "do not win (default)"), True: ("算胡", "win")}),
    "wait_bonus": (("夹张单调加分", "Wait bonus"), ("夹张、单调怎么算", "when a closed or single wait earns the bonus"),
                   {"any_split": ("任一种拆法是夹张或单调就加（默认）", "any reading of the hand (default)"),
                    "only_wait": ("只听这一张才加", "only when it waited on that one tile")}),
    "edge_wait_bonus": (("边张", "Edge wait"),
                        ("边张（12 听 3）加不加分", "whether an edge wait (12 waiting on 3) earns it"),
                        {False: ("不加（默认）", "no bonus (default)"), True: ("和夹张一样加", "bonus, like closed")}),
    "discard_win_payers": (("点炮谁付", "Who pays a discard win"), ("点炮胡牌由谁付", "who pays a win on a discard"),
                           {"discarder": ("点炮的一家（默认）", "the discarder (default)"),
                            "all": ("三家都付", "all three others")}),
    "exposed_kong_payers": (("明杠谁付", "Who pays an exposed kong"), ("明杠的钱由谁付", "who pays an exposed kong"),
                            {"all": ("三家各付（默认）", "each of the three (default)"),
                             "discarder": ("打出那张的一家付三份", "the discarder pays three")}),
    "bet_unit": (("注的单位", "Bet unit"), ("一注是多少分", "what one bet is worth"),
                 {None: ("等于基数（默认）", "the base (default)"), 1: ("1 分", "1 point"), 2: ("2 分", "2 points"),
                  5: ("5 分", "5 points")}),
    "multipliers_on_bets": (("翻倍算不算注", "Multipliers on bets"), ("杠后开花、天胡的翻倍算不算到注上",
                                                                   "whether kong bloom / heavenly multiply the bets"),
                            {False: ("不算（默认）", "no (default)"), True: ("也翻倍", "yes")}),
}


def tr(key: str, lang: str, **fields: object) -> str:
    zh, en = _T[key]
    text = zh if lang == "zh" else en
    return text.format(**fields) if fields else text


def known(key: str) -> bool:
    return key in _T


def wind(letter: str | None, lang: str) -> str:
    if letter is None:
        return ""
    return (WIND_ZH if lang == "zh" else WIND_EN)[letter]


def wind_mark(letter: str | None, lang: str) -> str:
    """The wind on a badge: 东 in Chinese, E in English."""
    return "" if letter is None else WIND_ZH[letter] if lang == "zh" else letter


def tile_word(text: str | None, lang: str = "zh") -> str:
    """Tiles named as players name them — 五筒, 东风 in Chinese, "5 Dots", "East" in English;
    mpsz text that is not a tile comes back as it was.

    >>> tile_word("5p"), tile_word("1z"), tile_word("6z"), tile_word("111m"), tile_word("5p", "en")
    ('五筒', '东风', '发财', '一万一万一万', '5 Dots')
    """
    if not text:
        return ""
    try:
        tiles = parse_tiles(text)
    except TileError:
        return text
    if lang == "zh":
        return "".join(_HONOUR_WORDS[t - 27] if t >= 27 else tile_name(t, "zh") for t in tiles)
    return " ".join(tile_name(t, "en") for t in tiles)


_HONOUR_WORDS: Final = ("东风", "南风", "西风", "北风", "红中", "发财", "白板")


def tile_face(t: int) -> tuple[str, str]:
    """What a tile picture shows: the number (or honour) and the suit character.

    >>> from engine.tiles import parse_tile
    >>> tile_face(parse_tile("5p")), tile_face(parse_tile("5z"))
    (('五', '筒'), ('中', ''))
    """
    if t >= 27:
        return "东南西北中发白"[t - 27], ""
    return "一二三四五六七八九"[t % 9], "万筒条"[t // 9]


def names_list(names: Sequence[str], lang: str) -> str:
    return tr("list_sep", lang).join(names)


def rule_value_word(option: str, value: Any, lang: str) -> str:
    """How an option's value reads (``kong_reserve`` [13, 7, 8, 13]: "13 / 7 / 8 / 13")."""
    i = 0 if lang == "zh" else 1
    words = RULE_WORDS[option][2]
    key = tuple(value) if isinstance(value, list) else value
    if key in words:
        return words[key][i]
    return " / ".join(map(str, value)) if isinstance(value, list | tuple) else str(value)


def rule_lines(lang: str, overrides: Mapping[str, Any] | None = None) -> list[tuple[str, str, str]]:
    """Every option as (name, what it decides, its value in words) — the defaults where
    ``overrides`` does not change them."""
    from engine.rules import XIAN

    values = {**XIAN.to_json(), **(overrides or {})}
    i = 0 if lang == "zh" else 1
    return [(w[0][i], w[1][i], rule_value_word(opt, values[opt], lang)) for opt, w in RULE_WORDS.items()]


def source_word(source: str, lang: str) -> str:
    """Where an event came from, in words: ``gpio press 1:TURN`` is 按钮."""
    head = (source or "").split(" ", 1)[0]
    return tr(f"src_{head}", lang) if known(f"src_{head}") else tr("src_other", lang)


def _seat_word(players: Sequence[str], seat: object, lang: str) -> str:
    if isinstance(seat, int) and 0 <= seat < len(players) and players[seat]:
        return players[seat]
    return tr("someone", lang)


def refusal(code: str, params: Mapping[str, Any], error: str, players: Sequence[str], lang: str) -> str:
    """A refusal in the player's language, from the ``code`` and ``params`` of the engine or
    the service; a code without words here keeps the engine's own (English) message.

    >>> refusal("press.claim_pending", {"seat": 1, "claimant": 3, "call": "pong"}, "…", ["A", "B", "C", "D"], "zh")
    'D要碰，请等一等'
    >>> refusal("press.cannot", {"seat": 2, "action": "claim:chow"}, "…", ["A", "B", "C", "D"], "en")
    'C cannot chow now'
    >>> refusal("discard.not_held", {"seat": 0, "tile": "5p"}, "…", ["A", "B", "C", "D"], "zh")
    'A手里没有五筒'
    >>> refusal("seating.ties", {"tied": [1, 2]}, "…", ["A", "B", "C", "D"], "en")
    'B, C rolled the same: they roll again'
    """
    if not known(code):
        return tr("refused", lang, error=error)

    def word(prefix: str, value: Any) -> str:
        return tr(f"{prefix}_{value}", lang) if known(f"{prefix}_{value}") else ""

    tile = params.get("tile") or params.get("shown")
    fields: dict[str, Any] = {
        key: _seat_word(players, params.get(key), lang)
        for key in ("turn", "claimant", "dealer", "owner", "next")
    }
    fields.update(
        name=_seat_word(players, params.get("seat"), lang),
        call=word("call", params.get("call")),
        action=word("action", params.get("action")),
        button=word("button", params.get("button")),
        phase=word("phase", params.get("phase")),
        event=word("event", params.get("event")),
        wait=word("wait", params.get("wait")),
        reads=word("wait", params.get("reads")),
        tile=tile_word(tile, lang) if isinstance(tile, str) else "",
        shown=tile_word(params["shown"], lang) if isinstance(params.get("shown"), str) else "",
        held=params.get("held", ""),
        given=params.get("given", ""),
        melds=params.get("melds", ""),
        tied=names_list([_seat_word(players, s, lang) for s in params.get("tied") or []], lang),
        exposed=names_list([word("meld", k) for k in params.get("exposed") or []], lang),
    )
    return tr(code, lang, **fields)
