"""The words of the command line, zh and en (issue 40 item 5): the terminal verbs ``play``,
``score``, ``hand`` and ``dice`` print both languages on one line, so each word here is a pair
the verb joins (``words.zh_en``: "座位 seat", ``words.en_zh``: "splits 拆法"); a few verbs'
help names a rule's Chinese term. Where a word of the table already says it (``score``,
``wait_closed``, ``kind_heavenly``), the verbs take that one (data only: gathered by
:mod:`table_app.present.words`)."""

from __future__ import annotations

from typing import Final

CLI: Final[dict[str, tuple[str, str]]] = {
    # the table as ``play`` prints it
    "cli_phase": ("阶段", "phase"),
    "cli_round": ("第 {n} 圈", "round {n}"),
    "cli_hand": ("第 {n} 局", "hand {n}"),
    "cli_streak": ("连庄", "dealer streak"),
    "cli_seat": ("座位", "seat"),
    "cli_dealer": ("庄", "dealer"),
    "cli_to_play": ("出牌", "to play"),
    "cli_break": ("起牌点", "break"),
    "cli_count": ("掷数", "count"),
    "cli_tail": ("牌尾", "tail"),
    "cli_stack_n": ("第 {n} 墩", "stack {n}"),
    "cli_wall": ("牌墙", "wall"),
    "cli_remaining": ("剩 {n}", "remaining"),
    "cli_head": ("牌头", "head"),
    "cli_kongs": ("杠", "kongs"),
    "cli_reserved": ("留 {n} 墩", "stacks reserved"),
    "cli_drawable": ("可摸", "drawable"),
    "cli_waiting": ("等待", "waiting on seats {seats} for claims on seat {frm}'s{tile}"),
    "cli_to_confirm": ("待确认", "to confirm"),
    "cli_declares": ("和牌", "declares a win"),
    "cli_next_dealer": ("下局庄家", "next dealer"),
    "cli_last_hand": ("上局", "last hand"),
    "cli_drawn": ("荒牌", "drawn (exhaustive draw)"),
    "cli_wins": ("和", "wins"),
    "cli_deltas": ("得失", "deltas"),
    "cli_rejected": ("被拒绝", "rejected"),
    # one hand paid (``score``)
    "cli_seat_n": ("座{n}", "seat {n}"),
    "cli_one_hand": ("一手结算", "settlement of one hand"),
    "cli_dealer_seat": ("庄家", "dealer seat {n}"),
    "cli_no_win_pay": ("无胡分无注", "no win or bet payments"),
    "cli_kongs_paid": ("杠分照付", "kongs stay paid"),
    "cli_no_kong_pay": ("无杠分", "no kong payments"),
    "cli_winner": ("赢家", "winner"),
    "cli_from_seat": ("由座{seat}付", "from seat {seat}"),
    "cli_bonus": ("加分", "bonus"),
    "cli_bets": ("下注", "bets"),
    "cli_claimed_from": ("座{seat}点杠", "claimed from seat {seat}"),
    "cli_rules": ("规则", "rules"),
    "cli_from": ("付", "from"),
    "cli_to": ("收", "to"),
    "cli_amount": ("分", "amount"),
    "cli_reason": ("因", "reason"),
    "cli_no_payments": ("没有付款", "no payments"),
    "cli_per_seat": ("得失", "per-seat result"),
    # a hand read (``hand``)
    "cli_tiles": ("手牌", "hand"),
    "cli_melds": ("副露", "melds"),
    "cli_not_ready": ("没听牌", "not ready: no tile completes this hand"),
    "cli_ready": ("听牌", "ready — waiting on {n} tile(s)"),
    "cli_left": ("剩{n}张", "{n} left"),
    "cli_not_winning": ("不是和牌", "not a winning hand"),
    "cli_winning": ("和牌", "winning hand"),
    "cli_win_tile": ("和张", "winning tile"),
    "cli_wait": ("听法", "wait"),
    "cli_wait_bonus": ("加分", "wait bonus"),
    "cli_yes": ("有", "yes"),
    "cli_no": ("无", "no"),
    "cli_splits": ("拆法", "splits"),
    # where to break the wall (``dice``): the wall the dealer's roll picks, counted from the dealer
    "cli_rel_0": ("庄家自己", "the dealer's own wall"),
    "cli_rel_1": ("下家", "the wall of the dealer's 下家 (the next player, on the right)"),
    "cli_rel_2": ("对家", "the wall of the dealer's 对家 (opposite)"),
    "cli_rel_3": ("上家", "the wall of the dealer's 上家 (the previous player, on the left)"),
    "cli_dice_break": (
        "庄家（座位 {dealer}）掷出 {t1} 点，从庄家数起第 {t1} 家是{rel}（座位 {owner}），在他的牌墙起牌。"
        "座位 {owner} 再掷出 {t2} 点，共 {t1}+{t2}={k} 墩。{over}"
        "座位 {tail_wall} 牌墙的第 {tail_stack} 墩是牌尾（补牌从这里往回取），"
        "从其后的座位 {head_wall} 牌墙第 {head_stack} 墩开始抓牌。",
        "The dealer (seat {dealer}) rolls {t1}: counting {t1} from the dealer reaches {rel},"
        " seat {owner}'s. Seat {owner} rolls {t2}: count {t1}+{t2}={k} stacks along it.{over}"
        " Stack {tail_stack} of seat {tail_wall}'s wall is the tail (replacement tiles come from there backward);"
        " the deal starts after it, at stack {head_stack} of seat {head_wall}'s wall.",
    ),
    "cli_dice_over": (  # the count runs past the owner's wall (the English sentence follows the last one)
        "本墙只有 {per_wall} 墩，数过去进入下一道墙（座位 {wall}）的第 {stack} 墩。",
        " Seat {owner}'s wall has only {per_wall} stacks, so the count runs on into the next wall"
        " (seat {wall}'s) to its stack {stack}.",
    ),
    # the verbs' own lines outside the four
    "cli_terminal": ("终端", "terminal table"),
    "cli_invariant": ("不变量被破坏", "invariant violated"),
    "cli_hand_word": ("局", "hand"),
    "cli_round_word": ("圈", "round"),
    "cli_tea": ("茶水费", "tea"),
}
