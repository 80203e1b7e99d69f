"""The rule options in words (their names, what each decides, how each value reads), zh and en.

>>> rule_value_word("kong_reserve", [13, 7, 8, 13], "en")
'13 / 7 / 8 / 13 (default)'
"""

from __future__ import annotations

from typing import Final

RuleWords = tuple[tuple[str, str], tuple[str, str], dict[object, tuple[str, str]]]

RULE_WORDS: Final[dict[str, RuleWords]] = {
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

def rule_value_word(option: str, value: object, lang: str) -> str:
    """How an option's value reads (``kong_reserve`` [13, 7, 8, 13]: "13 / 7 / 8 / 13")."""
    i = 0 if lang == "zh" else 1
    words = RULE_WORDS[option][2]
    key = tuple(value) if isinstance(value, list) else value
    if key in words:
        return words[key][i]
    return " / ".join(map(str, value)) if isinstance(value, list | tuple) else str(value)


