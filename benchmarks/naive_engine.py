"""A straightforward pure-Python Wizard engine: the baseline ``engine.py`` compares against.

Lists of card objects, a legality check that scans the hand, a trick winner computed
from scratch: how one would first write it. It plays the same rules as
``wizard_tui.game`` (it shares no code with it), so
the comparison is like for like.

``shuffle_prefix`` is the deck generator of both sides of ``benchmarks/engine.py``: the
engine under test and this baseline get their decks the same way, so the ratio is fair.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

WIZARD, JESTER = "W", "J"


@dataclass(frozen=True)
class Card:
    suit: str  # "C", "D", "H", "S", or WIZARD / JESTER
    rank: int  # 1..13; 0 for Wizards and Jesters


DECK = (
    [Card(s, r) for s in "CDHS" for r in range(1, 14)]
    + [Card(WIZARD, 0)] * 4
    + [Card(JESTER, 0)] * 4
)


def shuffle_prefix(deck: list[Any], count: int, pick: Callable[[], float]) -> None:
    """Shuffle ``deck`` in place just enough that its first ``count`` cards are a uniformly
    random draw in a uniformly random order: the first ``count`` steps of a Fisher-Yates
    shuffle. A round deals only its hands and the trump card (``players * round + 1`` cards,
    at most 60), so the order of the cards after those is irrelevant to the game; the
    list stays a permutation of the deck, from any starting order. ``random.shuffle`` of
    all 60 cards would cost each side about 10 us a round more, for nothing.
    """
    size = len(deck)
    for i in range(count):
        j = i + int(pick() * (size - i))  # uniform over positions i..size-1
        deck[i], deck[j] = deck[j], deck[i]


def dealt_count(players: int, round_number: int) -> int:
    """How many cards of the deck a round uses: the hands and the trump card, if any."""
    return min(players * round_number + 1, 60)


def led_suit(trick: list[tuple[int, Card]]) -> str | None:
    for _, card in trick:
        if card.suit == JESTER:
            continue
        return None if card.suit == WIZARD else card.suit
    return None


def legal_cards(hand: list[Card], trick: list[tuple[int, Card]]) -> list[Card]:
    led = led_suit(trick)
    if led is None or not any(c.suit == led for c in hand):
        return list(hand)
    return [c for c in hand if c.suit in (led, WIZARD, JESTER)]


def trick_winner(trick: list[tuple[int, Card]], trump: str | None) -> int:
    for seat, card in trick:
        if card.suit == WIZARD:
            return seat
    if all(card.suit == JESTER for _, card in trick):
        return trick[0][0]
    trumps = [(card.rank, seat) for seat, card in trick if card.suit == trump]
    if trumps:
        return max(trumps)[1]
    led = led_suit(trick)
    return max((card.rank, seat) for seat, card in trick if card.suit == led)[1]


def score(bid: int, won: int) -> int:
    return 20 + 10 * won if bid == won else -10 * abs(bid - won)


def play_game(players: int, rng: random.Random) -> list[int]:
    """One game of uniformly random legal play; returns the final totals."""
    totals = [0] * players
    dealer = rng.randrange(players)
    deck = DECK[:]
    for r in range(1, 60 // players + 1):
        shuffle_prefix(deck, dealt_count(players, r), rng.random)
        hands: list[list[Card]] = [[] for _ in range(players)]
        for j in range(players * r):
            hands[(dealer + 1 + j) % players].append(deck[j])
        trump_card = deck[players * r] if players * r < 60 else None
        if trump_card is None or trump_card.suit == JESTER:
            trump = None
        elif trump_card.suit == WIZARD:
            trump = rng.choice("CDHS")
        else:
            trump = trump_card.suit
        bids = [0] * players
        for i in range(players):
            bids[(dealer + 1 + i) % players] = rng.choice(range(r + 1))
        won = [0] * players
        leader = (dealer + 1) % players
        for _ in range(r):
            trick: list[tuple[int, Card]] = []
            for i in range(players):
                seat = (leader + i) % players
                card = rng.choice(legal_cards(hands[seat], trick))
                hands[seat].remove(card)
                trick.append((seat, card))
            leader = trick_winner(trick, trump)
            won[leader] += 1
        for s in range(players):
            totals[s] += score(bids[s], won[s])
        dealer = (dealer + 1) % players
    return totals
