"""One wire form for a player's action, used wherever an action is stored or sent as a list:
the journal, a private round's entry, a record's action list. ``[kind, seat, value]``, with
kind ``"bid"``, ``"play"`` or ``"trump"`` and value the bid, the card id or the suit number."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .actions import Bid, ChooseTrump, Play
from .cards import Suit

PlayerAction = Bid | Play | ChooseTrump  # what a seat does (a Deal is the dealer's, not a seat's)


def action_to_wire(action: PlayerAction) -> list[Any]:
    if isinstance(action, Play):
        return ["play", action.seat, action.card]
    if isinstance(action, Bid):
        return ["bid", action.seat, action.bid]
    return ["trump", action.seat, int(action.suit)]


def action_from_wire(wire: Sequence[Any]) -> PlayerAction:
    """The action a wire list names; ValueError for anything that is not one."""
    try:
        kind, seat, value = wire
    except (TypeError, ValueError):
        raise ValueError(f"not an action: {wire!r}") from None
    if kind == "play":
        return Play(seat, value)
    if kind == "bid":
        return Bid(seat, value)
    if kind == "trump":
        return ChooseTrump(seat, Suit(value))
    raise ValueError(f"unknown action {kind!r}")


def actions_to_wire(actions: Sequence[PlayerAction]) -> list[list[Any]]:
    return [action_to_wire(a) for a in actions]


__all__ = ["PlayerAction", "action_from_wire", "action_to_wire", "actions_to_wire"]
