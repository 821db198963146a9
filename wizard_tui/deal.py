"""Wizard's fair deal: from the seats' seeds to a round's deck, hands and trump card.

The generic commit-reveal parts (commitments, the combined seed, the shuffle of n
items) live in ``netplay.fairdeal``; this module adds only what is Wizard's: the table's
deck (the 60 plain cards and the chosen special cards, ``deck_cards``) and the
round-robin deal of ``docs/fairness.md``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from netplay import fairdeal

from .game import left_of
from .game.specials import Special, deck_cards


@dataclass(frozen=True, slots=True)
class DealtRound:
    deck: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]  # index = seat, in deal order
    trump_card: int | None


def deck_from_order(order: Sequence[int], specials: Iterable[Special] = ()) -> tuple[int, ...]:
    """The cards of a shuffled order of ``0..N-1`` (docs/fairness.md section 5): index ``i``
    stands for card ``deck_cards(specials)[i]``; with no special card, card ``i`` itself."""
    cards = deck_cards(specials)
    if sorted(order) != list(range(len(cards))):
        raise ValueError(f"not an order of the table's {len(cards)} cards")
    return tuple(cards[i] for i in order)


def deck_for_round(
    game_id: bytes,
    round_number: int,
    seeds: Sequence[bytes],
    specials: Iterable[Special] = (),
) -> tuple[int, ...]:
    """The round's deck order: a permutation of the table's cards (``deck_cards``), the
    shuffle of ``N = 60 + len(specials)`` items mapped to cards."""
    cards = deck_cards(specials)
    combined = fairdeal.combined_seed(game_id, round_number, seeds)
    return tuple(cards[i] for i in fairdeal.shuffle_order(combined, len(cards)))


def deal_from_deck(deck: Sequence[int], players: int, hand_size: int, dealer: int) -> DealtRound:
    """Card ``deck[j]`` goes to seat ``(dealer + 1 + j) mod players`` until each holds
    ``hand_size`` cards (the round's, from the game's length: ``Game.hand_size``); the next
    card is trump (there is none only when the deal takes the whole deck)."""
    dealt = players * hand_size
    if dealt > len(deck):
        raise ValueError(f"{hand_size} cards each need {dealt} cards; the deck has {len(deck)}")
    hands: list[list[int]] = [[] for _ in range(players)]
    first = left_of(dealer, players)
    for j in range(dealt):
        hands[(first + j) % players].append(deck[j])
    trump = deck[dealt] if dealt < len(deck) else None
    return DealtRound(tuple(deck), tuple(tuple(h) for h in hands), trump)


def deal_round(
    game_id: bytes,
    round_number: int,
    seeds: Sequence[bytes],
    dealer: int,
    *,
    hand_size: int,
    specials: Iterable[Special] = (),
) -> DealtRound:
    """Round ``round_number`` (the ordinal: it is in every commitment and the deck's seed)
    of a game, dealing ``hand_size`` cards each from the table's deck."""
    deck = deck_for_round(game_id, round_number, seeds, specials)
    return deal_from_deck(deck, len(seeds), hand_size, dealer)
