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


# The plain game's actions; ``Action`` (below) adds the special cards' ones.
PlainAction = Deal | ChooseTrump | Bid | Play


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


PlainEvent = RoundDealt | TrumpChosen | BidMade | CardPlayed | TrickWon | RoundScored | GameOver


# The special cards' actions and events (docs/rules.md, "Special cards"). A game without
# special cards refuses these actions (``wrong_phase``: it never enters their phases), and
# never emits these events.


class NameTrump(Value):
    """The Werewolf's holder, having taken the trump card, names trump: a suit, or None for
    no trump."""

    seat: int
    suit: Suit | None


class Declare(Value):
    """What the card just played is: a suit for a Juggler or Cloud, Wizard or Jester for a
    Shapeshifter (``specials.Declaration``), the Vampire copying one of them included."""

    seat: int
    choice: int


class AdjustBid(Value):
    """The Cloud's taker changes its bid by one: ``bid`` is the new bid."""

    seat: int
    bid: int


class PassCard(Value):
    """The Juggler's pass: ``seat`` gives ``card`` to the seat on its left. The cards move
    once every seat has chosen."""

    seat: int
    card: int


class SwapCard(Value):
    """The Witch's swap: ``seat`` gives ``give`` from its hand into the trick and takes
    ``take`` from the trick; both None to keep its hand."""

    seat: int
    give: int | None
    take: int | None


SpecialAction = NameTrump | Declare | AdjustBid | PassCard | SwapCard


class TrumpNamed(Value):
    """The Werewolf's holder put it in the trump card's place, took ``taken`` (the card that
    was turned up, now in its hand, seen by all) and named ``suit`` (None: no trump)."""

    seat: int
    taken: int
    suit: Suit | None


class Declared(Value):
    seat: int
    card: int
    choice: int


class BidAdjusted(Value):
    seat: int
    bid: int  # the new bid


class CardsPassed(Value):
    """Every seat passed a card to its left (which card is private: each seat sees its own
    hand)."""

    trick: int  # the trick after which the pass was made, 0-based


class CardSwapped(Value):
    """The Witch's player gave ``give`` into trick ``trick`` and took ``take`` (both None:
    kept its hand)."""

    seat: int
    trick: int
    give: int | None
    take: int | None


class TrickBombed(Value):
    """A Bomb was in the trick: nobody takes it, and ``leader`` (whose card would have taken
    it) leads next."""

    trick: int
    leader: int
    plays: tuple[tuple[int, int], ...]


SpecialEvent = TrumpNamed | Declared | BidAdjusted | CardsPassed | CardSwapped | TrickBombed


# Every action ``Game.apply`` takes, and every event it returns.
Action = PlainAction | SpecialAction
Event = PlainEvent | SpecialEvent
