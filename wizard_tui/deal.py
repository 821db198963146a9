"""Wizard's fair deal: from the seats' seeds to a round's deck, hands and trump card.

The generic commit-reveal parts (commitments, the combined seed, the shuffle of n
items) live in ``netplay.fairdeal``; this module adds only what is Wizard's: a 60-card
deck and the round-robin deal of ``docs/fairness.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from netplay import fairdeal

from .game import DECK_SIZE, left_of


@dataclass(frozen=True, slots=True)
class DealtRound:
    deck: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]  # index = seat, in deal order
    trump_card: int | None


def deck_for_round(game_id: bytes, round_number: int, seeds: Sequence[bytes]) -> tuple[int, ...]:
    """The round's deck order, a permutation of the 60 card ids."""
    combined = fairdeal.combined_seed(game_id, round_number, seeds)
    return tuple(fairdeal.shuffle_order(combined, DECK_SIZE))


def deal_from_deck(deck: Sequence[int], players: int, hand_size: int, dealer: int) -> DealtRound:
    """Card ``deck[j]`` goes to seat ``(dealer + 1 + j) mod players`` until each holds
    ``hand_size`` cards (the round's, from the game's length: ``Game.hand_size``); the next
    card is trump."""
    dealt = players * hand_size
    if dealt > DECK_SIZE:
        raise ValueError(f"{hand_size} cards each need {dealt} cards; the deck has {DECK_SIZE}")
    hands: list[list[int]] = [[] for _ in range(players)]
    first = left_of(dealer, players)
    for j in range(dealt):
        hands[(first + j) % players].append(deck[j])
    trump = deck[dealt] if dealt < DECK_SIZE else None
    return DealtRound(tuple(deck), tuple(tuple(h) for h in hands), trump)


def deal_round(
    game_id: bytes, round_number: int, seeds: Sequence[bytes], dealer: int, *, hand_size: int
) -> DealtRound:
    """Round ``round_number`` (the ordinal: it is in every commitment and the deck's seed)
    of a game, dealing ``hand_size`` cards each."""
    deck = deck_for_round(game_id, round_number, seeds)
    return deal_from_deck(deck, len(seeds), hand_size, dealer)
