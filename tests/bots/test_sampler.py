"""The sampler deals the unseen cards consistently with everything the seat has seen."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wizard_tui.bots.knowledge import Knowledge, read_view
from wizard_tui.bots.sampler import _by_flow, sample_hands
from wizard_tui.game import Game, cards_of, rounds_for, seat_view

from .helpers import decision_points, game_at_round


def check_deal(k: Knowledge, game: Game, hands: list[int]) -> None:
    n = k.players
    assert hands[k.seat] == game.hand_mask(k.seat)
    union = 0
    for s in range(n):
        assert hands[s].bit_count() == len(game.hand(s)), "wrong hand size"
        assert not union & hands[s], "a card dealt twice"
        union |= hands[s]
        if s == k.seat:
            continue
        assert hands[s] & ~k.unseen == 0, "a card this seat has seen (played, ours, trump)"
        for suit in range(4):
            if k.voids[s] >> suit & 1:
                assert not any(c < 52 and c // 13 == suit for c in cards_of(hands[s]))


def check_knowledge(k: Knowledge, game: Game) -> None:
    """What the seat infers is true of the real deal."""
    for s in range(k.players):
        if s != k.seat:
            assert game.hand_mask(s) & ~k.unseen == 0  # their cards are among the unseen
        assert k.counts[s] == len(game.hand(s))
        for c in game.hand(s):
            if c < 52:
                assert not k.voids[s] >> (c // 13) & 1, f"seat {s} called void but holds {c}"
    played = {card for t in game.tricks for card in t.cards} | {card for _, card in game.trick}
    assert k.unseen & k.hand == 0
    assert all(not k.unseen >> c & 1 for c in played)
    if game.trump_card is not None:
        assert not k.unseen >> game.trump_card & 1


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(3, 6),
    round_fraction=st.floats(0.0, 1.0),
)
def test_samples_respect_voids_counts_and_played_cards(
    seed: int, players: int, round_fraction: float
) -> None:
    rng = random.Random(seed)
    r = 1 + int(round_fraction * (rounds_for(players) - 1))
    game = game_at_round(players, r, dealer=rng.randrange(players), seed=seed)
    for i, (g, _) in enumerate(decision_points(game, rng, rounds=1)):
        for seat in {g.turn, i % players}:  # the seat on turn and, in rotation, a watcher
            k = read_view(seat_view(g, seat))
            check_knowledge(k, g)
            check_deal(k, g, sample_hands(k, rng))
            others = [s for s in range(players) if s != seat]
            caps = [k.counts[s] for s in others]
            pool = list(cards_of(k.unseen))
            check_deal(k, g, _by_flow(k, others, pool, caps, len(pool) - sum(caps), rng))


def test_voids_are_inferred_from_a_failure_to_follow() -> None:
    """Random play in the last round (all cards dealt) reveals voids; the samples obey them and
    the sampler still finds deals when constraints are tight."""
    rng = random.Random(4)
    game = game_at_round(6, 10, dealer=0, seed=4)
    found = 0
    for g, _ in decision_points(game, rng, rounds=1):
        for seat in range(6):
            k = read_view(seat_view(g, seat))
            if any(k.voids):
                found += 1
                for _ in range(5):
                    check_deal(k, g, sample_hands(k, rng))
    assert found > 0


def test_impossible_constraints_are_reported() -> None:
    """If no deal fits (a made-up knowledge), the sampler says so rather than cheating."""
    game = game_at_round(3, 1, dealer=0)
    game.deal(list(range(60)))
    k = read_view(seat_view(game, 0))
    # Everyone else void in everything, in the last round sense: no sink, no suit allowed.
    bad = Knowledge(
        **{
            **{f: getattr(k, f) for f in Knowledge.__slots__},
            "voids": (0, 0xF, 0xF),
            "unseen": (1 << 0) | (1 << 1),  # two clubs for two seats void in clubs
            "counts": (1, 1, 1),
        }
    )
    with pytest.raises(ValueError):
        sample_hands(bad, random.Random(1))
