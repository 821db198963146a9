"""Voiding a deal never pays (docs/rules.md, "Voided deals").

Issue 21's hostile seat voided every round it was losing, and won. Here that seat plays
against the rules engine directly (no network: the rule is the engine's), many seeded games
over: a seat that voids every round it would lose, with hindsight of the whole round (more
than any real client knows, since a round whose cards are all played can no longer be
voided), up to ``MAX_CHARGES`` times a game as the host allows. Its final totals are
compared, game by game, with the same seat playing honestly on the same decks, and the
95% confidence interval of the difference must lie below zero. Under the old rule (a void
costs nothing and the redeal counts) the same attacker gains: the test can see a profit.
"""

from __future__ import annotations

import math
import random
import statistics
from collections.abc import Callable

import pytest

from wizard_tui.game import Game, GameConfig, Phase, void_charge
from wizard_tui.net.deals.private.host import MAX_CHARGES

PLAYERS = 3
HOSTILE = 1
GAMES = 150  # a few seconds; the slow test below plays 600


def _deck(seed: int, r: int, attempt: int) -> list[int]:
    deck = list(range(60))
    random.Random(f"{seed}/{r}/{attempt}").shuffle(deck)
    return deck


def _play_round(game: Game, seed: int) -> None:
    """Every seat plays a legal action at random (seeded): cheap, and with a good share of
    losing rounds for the attacker to void."""
    rng = random.Random(f"{seed}/{game.round}")
    while game.phase is not Phase.DEAL and game.phase is not Phase.GAME_OVER:
        game.apply(rng.choice(game.legal_actions()))


def _game(seed: int, voids: Callable[[Game, Game], bool] | None, charged: bool) -> int:
    """The hostile seat's final total. ``voids(before, after)``: it voids the round whose
    result it sees in ``after``; ``charged``: the rule of docs/rules.md (else the old one)."""
    game = Game(GameConfig(PLAYERS, 0))
    left = MAX_CHARGES
    while not game.is_over:
        r, attempt = game.round + 1, 0
        while True:
            trial = game.copy()
            trial.deal(_deck(seed, r, attempt))
            _play_round(trial, seed + attempt)
            if voids is None or left == 0 or not voids(game, trial):
                game = trial
                break
            left -= 1
            attempt += 1
            if charged:
                game.charge(HOSTILE)
    return game.totals[HOSTILE]


def _losing(before: Game, after: Game) -> bool:
    return after.results[-1].points[HOSTILE] < 0


def _difference(games: int, charged: bool) -> tuple[float, float]:
    """Mean of (hostile - honest) over ``games`` seeded games, and its 95% half-width."""
    diffs = [_game(seed, _losing, charged) - _game(seed, None, charged) for seed in range(games)]
    mean = statistics.fmean(diffs)
    return mean, 1.96 * statistics.stdev(diffs) / math.sqrt(len(diffs))


def test_a_charged_seat_scores_its_charges_only() -> None:
    game = Game(GameConfig(PLAYERS, 0))
    assert game.charge(HOSTILE) == void_charge(1) == -10
    game.deal(_deck(0, 1, 0))
    _play_round(game, 0)
    result = game.results[-1]
    assert result.points[HOSTILE] == -10  # whatever it bid and won
    assert game.charges == (0, 0, 0)  # the next round owes nothing


def test_voiding_a_losing_round_never_pays() -> None:
    mean, half = _difference(GAMES, charged=True)
    assert mean + half < 0, (mean, half)


@pytest.mark.slow
def test_voiding_a_losing_round_never_pays_over_many_games() -> None:
    mean, half = _difference(600, charged=True)
    print(f"hostile - honest: {mean:.1f} +- {half:.1f} points (95%, 600 games)")
    assert mean + half < 0, (mean, half)


def test_under_the_old_rule_the_same_attacker_gains() -> None:
    mean, half = _difference(GAMES, charged=False)
    assert mean - half > 0, (mean, half)
