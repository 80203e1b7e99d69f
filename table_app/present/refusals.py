"""A refusal in the player's language, from the ``code`` and ``params`` of the engine or the
service (their words: ``vocab_refusals``); a code without words keeps the engine's own
(English) message."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from table_app.present.words import known, names_list, tile_word, tr


def _seat_word(players: Sequence[str], seat: object, lang: str) -> str:
    if isinstance(seat, int) and 0 <= seat < len(players) and players[seat]:
        return players[seat]
    return tr("someone", lang)


def refusal(code: str, params: Mapping[str, object], error: str, players: Sequence[str], lang: str) -> str:
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
    >>> refusal("seat.same_name", {"seat": 2, "player": "阿强", "seats": [0, 2]}, "…", ["", "", "", ""], "zh")
    '两位玩家同名：阿强'
    """
    if not known(code):
        return tr("refused", lang, error=error)

    def word(prefix: str, value: object) -> str:
        return tr(f"{prefix}_{value}", lang) if known(f"{prefix}_{value}") else ""

    tile = params.get("tile") or params.get("shown")
    fields: dict[str, object] = {
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
        shown=tile_word(shown, lang) if isinstance(shown := params.get("shown"), str) else "",
        held=params.get("held", ""),
        player=params.get("player", ""),
        given=params.get("given", ""),
        melds=params.get("melds", ""),
        tied=names_list([_seat_word(players, s, lang) for s in _listed(params.get("tied"))], lang),
        exposed=names_list([word("meld", k) for k in _listed(params.get("exposed"))], lang),
    )
    return tr(code, lang, **fields)


def _listed(value: object) -> list[object]:
    return list(value) if isinstance(value, list | tuple) else []
