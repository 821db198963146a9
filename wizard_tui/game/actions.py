"""Actions (what a seat or the dealer's shuffle asks for) and events (what happened).

Both are small immutable values. A game is its list of actions: replaying them on a
new engine reproduces it exactly.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Suit


@dataclass(frozen=True, slots=True)
class Deal:
    """Start the next round with this deck order (a permutation of 0..59)."""

    deck: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class ChooseTrump:
    seat: int
    suit: Suit


@dataclass(frozen=True, slots=True)
class Bid:
    seat: int
    bid: int


@dataclass(frozen=True, slots=True)
class Play:
    seat: int
    card: int


Action = Deal | ChooseTrump | Bid | Play


@dataclass(frozen=True, slots=True)
class RoundDealt:
    """Hands are private: each seat learns its own from its view."""

    round: int
    dealer: int
    trump_card: int | None
    trump_suit: Suit | None
    dealer_chooses_trump: bool


@dataclass(frozen=True, slots=True)
class TrumpChosen:
    seat: int
    suit: Suit


@dataclass(frozen=True, slots=True)
class BidMade:
    seat: int
    bid: int


@dataclass(frozen=True, slots=True)
class CardPlayed:
    seat: int
    card: int


@dataclass(frozen=True, slots=True)
class TrickWon:
    trick: int  # 0-based index within the round
    winner: int
    plays: tuple[tuple[int, int], ...]


@dataclass(frozen=True, slots=True)
class RoundScored:
    round: int
    bids: tuple[int, ...]
    tricks_won: tuple[int, ...]
    points: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class GameOver:
    totals: tuple[int, ...]
    winners: tuple[int, ...]


Event = RoundDealt | TrumpChosen | BidMade | CardPlayed | TrickWon | RoundScored | GameOver
