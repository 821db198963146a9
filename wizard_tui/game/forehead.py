"""The forehead round (docs/rules.md, "The forehead round"): in a round that deals one card
each, every player sees the others' cards but not their own, and plays it blind.

A seat's view of such a round holds no card of its own (``hand`` is empty and
``SeatView.blind_cards`` counts the card it holds face down) and the others' unplayed cards
(``SeatView.foreheads``). Its one legal move is ``Play(seat, BLIND_CARD)``, "play your card",
which the engine turns into the card the seat holds; every record and journal holds the real
card. Pure: no I/O.
"""

from __future__ import annotations

from typing import Protocol

from .actions import Play
from .errors import IllegalAction, Reason
from .table_rules import TableRules

# The card id of "play the card I cannot see". Never a card (cards are 0..59), so a plain
# engine refuses it as ``not_a_card`` outside a forehead round.
BLIND_CARD = -1


def is_forehead_round(rules: TableRules, hand_size: int) -> bool:
    """Whether a round of ``hand_size`` cards each is played on the forehead: the option is
    on and the round deals one card each (with more, a player could not know which of his
    unseen cards may follow suit)."""
    return rules.forehead and hand_size == 1


class _Hands(Protocol):
    """What ``foreheads_of`` reads of a game (``Game`` or ``HiddenGame``)."""

    players: int

    def hand(self, seat: int) -> tuple[int, ...]: ...


def foreheads_of(game: _Hands, seat: int, forehead: bool) -> tuple[int | None, ...]:
    """Per seat, the card ``seat`` sees on that seat's forehead: its unplayed card, or None
    (``seat``'s own, a seat that has played, any seat outside a forehead round, and every
    seat of a game that knows no hand)."""
    if not forehead:
        return (None,) * game.players
    shown: list[int | None] = []
    for other in range(game.players):
        held = game.hand(other) if other != seat else ()
        shown.append(held[0] if len(held) == 1 else None)
    return tuple(shown)


class _Config(Protocol):
    @property
    def rules(self) -> TableRules: ...


class _Game(_Hands, Protocol):
    """What ``resolve_blind`` reads of a ``Game`` (a protocol: the engine imports this)."""

    @property
    def config(self) -> _Config: ...

    @property
    def hand_size(self) -> int: ...


def check_seat_play(rules: TableRules, hand_size: int, card: object) -> None:
    """What a host checks of a play a player's table sends: in a forehead round the player
    cannot know its card, so it plays it blind (``BLIND_CARD``); naming a card is refused
    with ``must_play_blind``. (Records and replays name the real card: only a seat's own
    move must be blind.)"""
    if is_forehead_round(rules, hand_size) and card != BLIND_CARD:
        raise IllegalAction(
            Reason.MUST_PLAY_BLIND, "this is a forehead round: play your card unseen"
        )


def resolve_blind(game: _Game, action: Play) -> Play:
    """``action`` with a blind play replaced by the card the seat holds (what the journal
    and the record keep); any other action as it is. The engine refuses a blind play it
    cannot resolve, so an unresolvable one is passed on unchanged for it to refuse."""
    if action.card != BLIND_CARD or not 0 <= action.seat < game.players:
        return action
    held = game.hand(action.seat)
    if is_forehead_round(game.config.rules, game.hand_size) and len(held) == 1:
        return Play(action.seat, held[0])
    return action


__all__ = [
    "BLIND_CARD",
    "check_seat_play",
    "foreheads_of",
    "is_forehead_round",
    "resolve_blind",
]
