"""The words of the 下家's held press (issue 28, item 13; docs/rules.md §17): the discarder's
下家 has pressed TURN — it drew and discarded — and waits while the others may still claim;
its refusals (data only: gathered by ``words``), zh and en."""

from __future__ import annotations

from typing import Final

CLAIM: Final[dict[str, tuple[str, str]]] = {
    # the cue: every screen that shows the claims (the status line, each seat's prompt)
    "held_wait": ("{name}摸牌了，等别家", "{name} drew: waiting for the others"),
    "held_left": ("{name}摸牌了，别家还有 {s:.0f} 秒", "{name} drew: others have {s:.0f} s to claim"),
    "held_self": ("摸牌了，等别家", "drew: others may still claim"),
    "held_hint": ("还可以{calls}", "may still {calls}"),
    "flash_drew": ("摸牌", "drew"),  # the 下家's panel flashes it on its press
    # the history: the 下家's press (its draw and discard come when the claims close)
    "ev_drew": ("{name} 摸牌出牌（等别家吃碰杠胡）", "{name} draws and discards (once the others have answered)"),
    # refusals (codes of the engine)
    "press.held": ("{name}摸牌了，在等别家回答", "{name} has drawn: waiting for the others to answer"),
    "claim.drew": ("{name}已经摸牌，不能改了（要改先撤销）", "{name} has drawn: the answer stands (undo to change it)"),
    "pass.not_next": ("只有{next}（出牌的下家）摸牌", "Only {next}, the discarder's next seat, draws"),
    "pass.claim_pending": ("{claimant}要{call}，请等一等", "{claimant} has called {call}: wait a moment"),
}
