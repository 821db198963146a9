"""Actions (what a seat or the dealer's shuffle asks for) and events (what happened).

Both are small immutable values (``values.Value``: frozen and slotted, with equality,
hashing and a readable ``repr``). A game is its list of actions: replaying them on a new
engine reproduces it exactly.
"""

from __future__ import annotations

from .cards import Suit
from .values import Value


class Deal(Value):
    """Start the next round with this deck order (a permutation of 0..59)."""

    deck: tuple[int, ...]


class ChooseTrump(Value):
    seat: int
    suit: Suit


class Bid(Value):
    seat: int
    bid: int


class Play(Value):
    seat: int
    card: int


Action = Deal | ChooseTrump | Bid | Play


class RoundDealt(Value):
    """Hands are private: each seat learns its own from its view."""

    round: int
    dealer: int
    trump_card: int | None
    trump_suit: Suit | None
    dealer_chooses_trump: bool


class TrumpChosen(Value):
    seat: int
    suit: Suit


class BidMade(Value):
    seat: int
    bid: int


class CardPlayed(Value):
    seat: int
    card: int


class TrickWon(Value):
    trick: int  # 0-based index within the round
    winner: int
    plays: tuple[tuple[int, int], ...]


class RoundScored(Value):
    round: int
    bids: tuple[int, ...]
    tricks_won: tuple[int, ...]
    points: tuple[int, ...]
    totals: tuple[int, ...]


class GameOver(Value):
    totals: tuple[int, ...]
    winners: tuple[int, ...]


Event = RoundDealt | TrumpChosen | BidMade | CardPlayed | TrickWon | RoundScored | GameOver
