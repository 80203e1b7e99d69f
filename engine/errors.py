"""The errors the table engine raises for events it refuses.

Two kinds, as python-chess has them: a malformed event (:class:`InvalidEventError`: an
unknown type or field, a value of the wrong kind) and a well-formed event the rules forbid
right now (:class:`IllegalEventError`). Both are :class:`RuleError`, and both are also
``ValueError``, so callers may catch either.

A refusal may carry a ``code`` and its ``params`` (the seat, the action, who stands in the
way) so that a screen can word it in the player's language; the message is the English
wording of the same facts.

>>> issubclass(IllegalEventError, ValueError)
True
>>> e = IllegalEventError("turn: seat 2 cannot TURN: it is seat 0's turn", "press.not_turn", seat=2, turn=0)
>>> e.code, e.params
('press.not_turn', {'seat': 2, 'turn': 0})
"""

from __future__ import annotations

from typing import Any, Final


class RuleError(ValueError):
    """An event the table refused; the message names the phase, the seat and what was wrong."""

    def __init__(self, message: str, code: str = "", **params: Any) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


class InvalidEventError(RuleError):
    """A malformed event: unknown type or field, a missing field, a value of the wrong kind."""

    def __init__(self, message: str, code: str = "invalid", **params: Any) -> None:
        super().__init__(message, code, **params)


class IllegalEventError(RuleError):
    """A well-formed event that the rules do not allow in the table's current state."""


CODES: Final[dict[str, str]] = {
    # every refusal's code, and the params it carries besides ``seat`` and ``phase``
    "invalid": "a malformed event or press (the message quotes it)",
    "phase": "the phase does not take this event: event",
    "not_turn": "it is another seat's turn: turn",
    "tile.needed": "every tile is known: the event must name its tile: action",
    "seat.same_name": "one name (trimmed, without case) at two seats: player, seats",
    "seat.same_player": "one roster player at two seats: player, seats, player_id",
    "seating.ties": "method B: seats rolled the same sum: tied",
    "bets.after_roll": "bets come before the hand's first roll",
    "roll.not_dealer": "the dealer rolls first: dealer",
    "roll.not_owner": "the wall's owner rolls second: owner",
    "discard.not_held": "the seat does not hold that tile: tile",
    "kong.nothing_drawn": "a kong right after a pong or chow (docs/rules.md §17): kind",
    "kong.wall_empty": "no tile is left for the replacement draw",
    "kong.too_few": "a concealed kong needs four concealed tiles: held",
    "kong.not_four": "the seat does not hold four of that tile: tile, held",
    "kong.added_off": "the rule option added_kong is off",
    "kong.no_pong": "an added kong needs a pong to add to: tile",
    "kong.nothing_to_add": "no concealed tile to add to the pong",
    "kong.not_held": "the seat does not hold the tile to add: tile",
    "claim.own": "the seat's own discard or kong: call",
    "claim.rob_only_win": "an added kong's tile may only be robbed with a win: call",
    "claim.not_winning": "the tile does not complete the seat's hand: tile",
    "claim.too_few": "too few concealed tiles for the call: call, held",
    "claim.not_held": "too few of the tile for the call: call, tile, held, need",
    "claim.wall_empty": "no tile is left for a kong's replacement: call",
    "claim.again": "the seat has already made this claim on this tile (docs/rules.md §17): call",
    "chow.not_next": "only the discarder's 下家 may chow: next",
    "chow.honour": "honours make no sequences: tile",
    "chow.bad_tiles": "the tiles given make no sequence with the discard",
    "chow.not_held": "the seat does not hold two tiles for this chow: tile",
    "chow.which": "more than one chow is possible: options",
    "pass.own": "the seat opened these claims",
    "pass.not_next": "only the discarder's 下家 draws during claims on a discard: next",
    "pass.claim_pending": "the 下家 cannot draw while a claim is pending: claimant, call",
    "claim.drew": "the 下家 has drawn during the claims: its answer stands (docs/rules.md §17)",
    "win.nothing_drawn": "a self-drawn win right after a pong or chow (docs/rules.md §17)",
    "win.not_winning": "the seat's hand does not win",
    "confirm.not_winning": "the hand confirmed does not win",
    "confirm.hand_differs": "the hand entered is not the one the table holds",
    "confirm.wait_differs": "the wait entered is not how the hand reads: wait, reads",
    "confirm.needs_wait": "tracked mode: a wait or a hand is needed",
    "confirm.tile_differs": "the winning tile is not the one the table saw: tile",
    "confirm.melds_needed": "the table does not know the melds' tiles: give them: melds",
    "confirm.melds_count": "a different number of melds than the table shows: given, melds",
    "confirm.melds_kind": "the melds are not the kinds the seat exposed (docs/rules.md §17): exposed",
    "confirm.melds_tiles": "a meld is not the one the table shows: shown",
    "confirm.bad_hand": "the hand entered cannot be read (the message says why)",
    "score.heavenly_dealer": "score_hand: 天胡 is the dealer's win: dealer",
    "score.kong_discarder": "score_hand: an exposed kong needs its discarder (exposed_kong_payers=discarder)",
    "press.not_turn": "a button on another seat's turn: turn, button",
    "press.claim_pending": "the 下家's TURN while a claim is pending: claimant, call",
    "press.own_discard": "the discarder's own tile: button",
    "press.own_turn": "a claim button on one's own turn: action",
    "press.cannot": "the button's action is not allowed now (the message says why): action",
    "press.kong_which": "more than one kong is possible: choose on the screen",
    "press.chow_which": "more than one chow is possible: choose on the screen",
    "press.needs_tile": "every tile is known: the discard is chosen on the screen",
    "press.not_roller": "the dice from a seat's own device when another seat is due to roll: button, roller",
    "press.phase": "the button does nothing in this phase: button",
    "press.again": "the seat has already made this claim on this tile (docs/rules.md §17): call",
    "press.held": "the 下家 has pressed TURN during the claims and waits for the others: button",
}
"""Every code a :class:`RuleError` of the engine may carry (a test checks the source uses no
other): what it means and the params it carries. Screens word them in the player's language."""
