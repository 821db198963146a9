"""Every level only ever chooses legal actions, in random states of random games."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wizard_tui.bots import LEVELS, make_bot
from wizard_tui.game import Bid, ChooseTrump, Phase, Play, RestrictLastBid, rounds_for

from .helpers import decision_points, game_at_round


def tiny(level: str, rng: random.Random):
    # The search bot on a shoestring: one deal per decision keeps the property fast.
    if level in ("hard", "expert"):
        return make_bot(level, rng, max_samples=1, time_budget=1.0)
    return make_bot(level, rng)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(3, 6),
    round_fraction=st.floats(0.0, 1.0),
    restrict=st.sampled_from(list(RestrictLastBid)),
)
def test_every_level_chooses_legal_actions(
    seed: int, players: int, round_fraction: float, restrict: RestrictLastBid
) -> None:
    rng = random.Random(seed)
    last = rounds_for(players)
    round_number = 1 + int(round_fraction * (last - 1))
    dealer = rng.randrange(players)
    game = game_at_round(players, round_number, dealer, restrict, seed)
    bots = {level: tiny(level, random.Random(seed + i)) for i, level in enumerate(LEVELS)}
    checked = 0
    for g, view in decision_points(game, rng, rounds=1):
        legal = g.legal_actions()
        for level, bot in bots.items():
            action = bot.decide(view)
            assert action in legal, (level, action, view)
            assert (
                type(action)
                is {
                    Phase.PLAY: Play,
                    Phase.BID: Bid,
                    Phase.CHOOSE_TRUMP: ChooseTrump,
                }[g.phase]
            )
        checked += 1
    assert checked >= round_number  # at least every play of this seat's round happened


def test_trump_choice_is_legal_and_sensible_at_every_level() -> None:
    """A Wizard turned up: every level names a suit; those above random pick the long one."""
    from .helpers import cards, dealt_game

    hand = cards("13H 12H 9H 4H 2H 3C")
    game = dealt_game(3, 6, dealer=1, hands={1: hand}, trump_card=52)
    assert game.phase is Phase.CHOOSE_TRUMP and game.turn == 1
    from wizard_tui.game import seat_view

    view = seat_view(game, 1)
    for level in LEVELS:
        action = make_bot(level, random.Random(3)).decide(view)
        assert action in game.legal_actions()
        if level != "random":
            assert int(action.suit) == 2, level  # hearts
