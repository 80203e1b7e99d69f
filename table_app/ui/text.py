"""Every word the touchscreen shows, in Chinese and English (no Kivy here).

``tr(key, lang, **fields)`` formats one string; an unknown key is a bug and raises.

>>> tr("score", "en"), tr("score", "zh")
('score', '分')
>>> tr("turn_of", "en", name="Ann")
"Ann's turn"
"""

from __future__ import annotations

from typing import Final

LANGS: Final = ("zh", "en")

WIND_ZH: Final = {"E": "东", "S": "南", "W": "西", "N": "北"}
WIND_EN: Final = {"E": "East", "S": "South", "W": "West", "N": "North"}

_T: Final[dict[str, tuple[str, str]]] = {
    "app_title": ("西安麻将", "Xi'an mahjong"),
    "lang_button": ("English", "中文"),
    "score": ("分", "score"),
    "bet": ("注", "bet"),
    "dealer": ("庄", "dealer"),
    "streak": ("连{n}", "streak {n}"),
    "hand_round": ("第{hand}局 第{round}圈", "hand {hand} · round {round}"),
    "turn_of": ("{name} 出牌", "{name}'s turn"),
    "concealed_n": ("手牌{n}", "{n} in hand"),
    "melds_n": ("副露{n}", "{n} melds"),
    "discards_n": ("河{n}", "{n} discarded"),
    # phases
    "phase_idle": ("请开新局", "start a session"),
    "phase_seating": ("定位", "choose seats"),
    "phase_betting": ("下注，然后庄家掷骰", "bets, then the dealer rolls"),
    "phase_rolling": ("掷骰", "rolling"),
    "phase_turn": ("出牌", "play"),
    "phase_claims": ("等待吃碰杠胡", "claims open"),
    "phase_win_pending": ("确认胡牌", "confirm the win"),
    "phase_hand_over": ("本局结束", "hand over"),
    "phase_ended": ("牌局结束", "session ended"),
    # prompts
    "rolls_next": ("{name} 掷骰（{what}）", "{name} rolls ({what})"),
    "roll_wall": ("定起牌墩", "the wall to break"),
    "roll_break": ("定起牌点", "the break point"),
    "claims_from": ("{name} 打出{tile}", "{name} discarded{tile}"),
    "claims_rob": ("{name} 加杠{tile}，可抢杠", "{name} adds a kong{tile}: rob it?"),
    "seconds_left": ("还有 {s:.1f} 秒", "{s:.1f} s left"),
    "waiting_on": ("等：{names}", "waiting: {names}"),
    "claimed": ("已报：{list}", "claimed: {list}"),
    "win_by": ("{name} 胡了（{kind}）", "{name} wins ({kind})"),
    # actions
    "act_roll": ("掷骰", "Roll"),
    "act_discard": ("出牌", "Discard"),
    "act_kong": ("杠", "Kong"),
    "kong_concealed": ("暗杠", "Conc. kong"),
    "kong_added": ("加杠", "Add kong"),
    "kong_exposed": ("明杠", "Exp. kong"),
    "kong_which": ("暗杠还是加杠？", "Which kong?"),
    "act_win": ("自摸", "Win"),
    "act_claim_win": ("胡", "Win"),
    "act_claim_kong": ("杠", "Kong"),
    "act_claim_pong": ("碰", "Pong"),
    "act_claim_chow": ("吃", "Chow"),
    "act_pass": ("过", "Pass"),
    "act_bets_done": ("下注完毕", "Bets done"),
    "answer_pass": ("过", "pass"),
    "answer_win": ("胡", "win"),
    "answer_kong": ("杠", "kong"),
    "answer_pong": ("碰", "pong"),
    "answer_chow": ("吃", "chow"),
    "discarder": ("出牌者", "discarder"),
    # navigation
    "nav_table": ("牌桌", "Table"),
    "nav_wall": ("牌墙", "Wall"),
    "nav_scores": ("计分", "Scores"),
    "nav_history": ("记录", "History"),
    "nav_settings": ("设置", "Settings"),
    "nav_new": ("新局", "New"),
    "back": ("返回", "Back"),
    # new session
    "new_session": ("新牌局", "New session"),
    "player_n": ("玩家{n}", "Player {n}"),
    "base": ("基数", "base"),
    "preset": ("规则", "rules"),
    "table_id": ("牌桌", "table id"),
    "start": ("开始", "Start"),
    # seating
    "seating": ("定位", "Seating"),
    "method_A": ("A 一人掷骰", "A one roll"),
    "method_B": ("B 各自掷骰", "B everyone rolls"),
    "method_C": ("C 摸风牌", "C wind tiles"),
    "roller": ("掷骰人", "roller"),
    "east_is": ("东家", "East"),
    "dice": ("骰子", "dice"),
    "random": ("随机", "Random"),
    "ok": ("确定", "OK"),
    "cancel": ("取消", "Cancel"),
    # win
    "win_entry": ("胡牌", "Win"),
    "wait_closed": ("夹张", "closed"),
    "wait_single": ("单调", "single"),
    "wait_edge": ("边张", "edge"),
    "wait_plain": ("平胡", "plain"),
    "kind_self_drawn": ("自摸", "self-drawn"),
    "kind_discard": ("点炮", "on a discard"),
    "kind_robbed_kong": ("抢杠", "robbed kong"),
    "kind_kong_bloom": ("杠后开花", "kong bloom"),
    "kind_heavenly": ("天胡", "heavenly"),
    "false_win": ("诈胡，收回", "False win: take back"),
    "tap_hand": ("或者点出手牌（最后一张为胡张）：", "or tap the hand in (the last tile is the winning tile):"),
    "meld": ("副露", "Meld"),
    "clear": ("清除", "Clear"),
    "backspace": ("退一张", "Back"),
    "die_n": ("骰子{n}", "die {n}"),
    "check": ("检查", "Check"),
    "confirm_hand": ("按此手牌确认", "Confirm this hand"),
    "reads_as": ("胡牌：{wait}{bonus}", "wins: {wait}{bonus}"),
    "bonus_yes": ("（加分）", " (bonus)"),
    "not_winning": ("不是胡牌", "not a winning hand"),
    "need_melds": ("需要 {n} 副露", "needs {n} melds"),
    # settlement
    "settlement": ("结算", "Settlement"),
    "drawn_hand": ("荒牌", "drawn hand"),
    "reason_win": ("胡", "win"),
    "reason_kong": ("杠", "kong"),
    "reason_bet": ("注", "bet"),
    "pays": ("{frm} → {to}  {amount}  ({reason})", "{frm} pays {to} {amount} ({reason})"),
    "delta": ("本局", "this hand"),
    "total": ("总分", "total"),
    "next_hand": ("下一局", "Next hand"),
    "end_session": ("结束牌局", "End session"),
    # scoreboard, history, settings
    "scoreboard": ("计分板", "Scoreboard"),
    "history": ("记录", "History"),
    "undo": ("撤销", "Undo"),
    "redo": ("重做", "Redo"),
    "undo_to": ("撤回到此", "Undo to here"),
    "confirm_undo": ("撤销 {what}？", "Undo {what}?"),
    "confirm_undo_to": ("撤回到第 {seq} 条之后？", "Go back to just after #{seq}?"),
    "confirm_redo": ("重做？", "Redo?"),
    "confirm_new": ("结束这一局，开新牌局？", "Leave the session being played and start a new one?"),
    "settings": ("设置", "Settings"),
    "hardware": ("按钮", "buttons"),
    "panel": ("面板", "panel"),
    "mqtt": ("MQTT", "MQTT"),
    "font": ("字体", "font"),
    "journal": ("记录文件", "journal"),
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
        "键盘：座位0 1-5，座位1 Q-T，座位2 A-G，座位3 Z-B（出/吃/碰/杠/胡），空格 掷骰",
        "Keys: seat 0 1-5, seat 1 Q-T, seat 2 A-G, seat 3 Z-B (turn/chow/pong/kong/win), space rolls",
    ),
    "refused": ("不行：{error}", "Refused: {error}"),
    # refused presses (engine.presses codes): what stands in the way, where the press happened
    "press.not_turn": ("还没轮到{name}：现在{turn}出牌", "Not {name}'s turn: {turn} plays"),
    "press.claim_pending": ("{claimant}要{call}，请等一等", "{claimant}'s {call} is pending: wait"),
    "press.own_discard": ("{name}刚出的牌，等别人吃碰杠胡", "{name} discarded it: the others answer"),
    "press.own_turn": ("轮到{name}：出牌、杠或自摸", "{name}'s own turn: discard, kong or win"),
    "press.cannot": ("{name}现在不能{action}", "{name} cannot {action} now"),
    "press.kong_which": ("{name}：暗杠还是加杠？请在屏幕上选", "{name}: which kong? Choose on the screen"),
    "press.chow_which": ("{name}：吃哪两张？请在屏幕上选", "{name}: which chow? Choose on the screen"),
    "press.needs_tile": ("{name}：请在屏幕上选要打的牌", "{name}: choose the tile to discard on the screen"),
    "press.phase": ("现在不能按{button}：{phase}", "{button} does nothing now: {phase}"),
    "call_win": ("胡", "win"),
    "call_kong": ("杠", "kong"),
    "call_pong": ("碰", "pong"),
    "call_chow": ("吃", "chow"),
    "action_discard": ("出牌", "discard"),
    "action_kong": ("杠", "kong"),
    "action_win": ("自摸", "win"),
    "action_claim:win": ("胡", "win"),
    "action_claim:kong": ("杠", "kong"),
    "action_claim:pong": ("碰", "pong"),
    "action_claim:chow": ("吃", "chow"),
    "button_TURN": ("出牌键", "TURN"),
    "button_CHI": ("吃", "CHI"),
    "button_PENG": ("碰", "PENG"),
    "button_GANG": ("杠", "GANG"),
    "button_HU": ("胡", "HU"),
    "button_DICE": ("骰子键", "the dice"),
    "no_font": (
        "找不到中文字体：请安装 fonts-noto-cjk 或在 XIAN_TABLE_FONT 中给出字体文件",
        "No CJK font found: install fonts-noto-cjk or set XIAN_TABLE_FONT to a font file",
    ),
}

RULE_TEXT: Final[dict[str, tuple[str, str]]] = {
    "wall_direction": ("牌墙计数方向（默认逆时针）", "wall counting direction (default counter-clockwise)"),
    "added_kong": ("允许加杠", "added kong (加杠) allowed"),
    "kong_reserve": ("留牌墩：0/1/2/3+杠 13/7/8/13", "kong reserve stacks for 0/1/2/3+ kongs: 13/7/8/13"),
    "kong_paid_on_draw": ("荒牌时杠钱照付", "kong payments stand on a drawn hand"),
    "seven_pairs": ("七对不算胡", "seven pairs do not win"),
    "wait_bonus": ("夹张/单调：任一拆法都算", "closed/single wait: any split counts"),
    "edge_wait_bonus": ("边张不加分", "edge wait earns no bonus"),
    "discard_win_payers": ("点炮者一人付", "only the discarder pays a discard win"),
    "exposed_kong_payers": ("明杠三家都付", "all three pay an exposed kong"),
    "bet_unit": ("注的单位 = 基数", "bet unit = the base"),
    "multipliers_on_bets": ("杠开/天胡倍数不乘注", "kong bloom / heavenly multipliers leave bets alone"),
}


def tr(key: str, lang: str, **fields: object) -> str:
    zh, en = _T[key]
    text = zh if lang == "zh" else en
    return text.format(**fields) if fields else text


def wind(letter: str | None, lang: str) -> str:
    if letter is None:
        return ""
    return (WIND_ZH if lang == "zh" else WIND_EN)[letter]


def rule_lines(lang: str) -> list[str]:
    """The ``xian`` preset's options explained, one line each."""
    i = 0 if lang == "zh" else 1
    return [f"{name}: {texts[i]}" for name, texts in RULE_TEXT.items()]


def known(key: str) -> bool:
    return key in _T


def refusal(code: str, params: dict[str, object], error: str, players: list[str], lang: str) -> str:
    """A refused press in the player's language, from the engine's ``code`` and ``params``;
    an error without a code the screen knows keeps the engine's words.

    >>> refusal("press.claim_pending", {"seat": 1, "claimant": 3, "call": "pong"}, "…", ["A", "B", "C", "D"], "zh")
    'D要碰，请等一等'
    >>> refusal("press.cannot", {"seat": 2, "action": "claim:chow"}, "…", ["A", "B", "C", "D"], "en")
    'C cannot chow now'
    """
    if not known(code):
        return tr("refused", lang, error=error)

    def name(seat: object) -> str:
        return players[seat] if isinstance(seat, int) and 0 <= seat < len(players) and players[seat] else f"#{seat}"

    fields = {
        "name": name(params.get("seat")),
        "turn": name(params.get("turn")),
        "claimant": name(params.get("claimant")),
        "call": tr(f"call_{params['call']}", lang) if known(f"call_{params.get('call')}") else "",
        "action": tr(f"action_{params['action']}", lang) if known(f"action_{params.get('action')}") else "",
        "button": tr(f"button_{params['button']}", lang) if known(f"button_{params.get('button')}") else "",
        "phase": tr(f"phase_{params['phase']}", lang) if known(f"phase_{params.get('phase')}") else "",
    }
    return tr(code, lang, **fields)
