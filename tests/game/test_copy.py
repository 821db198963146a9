"""copy() for search: a copy plays on exactly like the original, and never touches it."""

from __future__ import annotations

import random

from wizard_tui.game import Game, GameConfig, Phase

from .helpers import snapshot


def _step(game: Game, rng: random.Random, deck: list[int]) -> None:
    if game.phase is Phase.DEAL:
        rng.shuffle(deck)
        game.deal(deck)
    elif game.phase is Phase.CHOOSE_TRUMP:
        game.choose_trump(game.turn, rng.randrange(4))
    elif game.phase is Phase.BID:
        game.bid(game.turn, rng.choice(game.legal_bids()))
    else:
        game.play(game.turn, rng.choice(game.legal_plays()))


def test_a_copy_plays_on_like_the_original_and_leaves_it_alone() -> None:
    rng = random.Random(11)
    game = Game(GameConfig(4, 0))
    deck = list(range(60))
    while not game.is_over:
        if rng.random() < 0.1:
            before = snapshot(game)
            trial, twin = game.copy(), game.copy()
            assert snapshot(trial) == before
            seed = rng.randrange(2**32)
            r1, r2, d1, d2 = random.Random(seed), random.Random(seed), deck[:], deck[:]
            for _ in range(rng.randrange(1, 12)):
                if trial.is_over:
                    break
                _step(trial, r1, d1)
                _step(twin, r2, d2)
            assert snapshot(trial) == snapshot(twin)  # nothing shared between copies
            assert snapshot(game) == before  # nor with the original
        _step(game, rng, deck)
