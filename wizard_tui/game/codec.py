"""One wire form for a player's action, used wherever an action is stored or sent as a list:
the journal, a private round's entry, a record's action list. ``[kind, seat, value]``, with
kind ``"bid"``, ``"play"`` or ``"trump"`` and value the bid, the card id or the suit number.

The special cards' actions (docs/rules.md, "Special cards") have the same shape:
``"name_trump"`` (a suit number, or -1 for no trump), ``"declare"`` (a ``Declaration``),
``"adjust_bid"`` (the new bid), ``"pass_card"`` (the card passed) and ``"swap"`` (``[give, take]``,
or null to keep the hand)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .actions import AdjustBid, Bid, ChooseTrump, Declare, NameTrump, PassCard, Play, SwapCard
from .cards import Suit

# What a seat does (a Deal is the dealer's, not a seat's).
PlayerAction = Bid | Play | ChooseTrump | NameTrump | Declare | AdjustBid | PassCard | SwapCard

NO_TRUMP_WIRE = -1  # ``name_trump``'s value for no trump


def action_to_wire(action: PlayerAction) -> list[Any]:
    if isinstance(action, Play):
        return ["play", action.seat, action.card]
    if isinstance(action, Bid):
        return ["bid", action.seat, action.bid]
    if isinstance(action, ChooseTrump):
        return ["trump", action.seat, int(action.suit)]
    if isinstance(action, NameTrump):
        suit = NO_TRUMP_WIRE if action.suit is None else int(action.suit)
        return ["name_trump", action.seat, suit]
    if isinstance(action, Declare):
        return ["declare", action.seat, action.choice]
    if isinstance(action, AdjustBid):
        return ["adjust_bid", action.seat, action.bid]
    if isinstance(action, PassCard):
        return ["pass_card", action.seat, action.card]
    kept = action.give is None and action.take is None
    return ["swap", action.seat, None if kept else [action.give, action.take]]


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
    return _special_from_wire(kind, seat, value)


def _special_from_wire(kind: object, seat: Any, value: Any) -> PlayerAction:
    if kind == "name_trump":
        return NameTrump(seat, None if value == NO_TRUMP_WIRE else Suit(value))
    if kind == "declare":
        return Declare(seat, value)
    if kind == "adjust_bid":
        return AdjustBid(seat, value)
    if kind == "pass_card":
        return PassCard(seat, value)
    if kind == "swap":
        if value is None:
            return SwapCard(seat, None, None)
        if type(value) not in (list, tuple) or len(value) != 2:
            raise ValueError(f"a swap is [give, take] or null, not {value!r}")
        return SwapCard(seat, value[0], value[1])
    raise ValueError(f"unknown action {kind!r}")


def actions_to_wire(actions: Sequence[PlayerAction]) -> list[list[Any]]:
    return [action_to_wire(a) for a in actions]


__all__ = ["PlayerAction", "action_from_wire", "action_to_wire", "actions_to_wire"]
