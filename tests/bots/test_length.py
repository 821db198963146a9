"""Every level plays a game of any length (docs/rules.md, "Game length"): its decisions come
from the view, whose round (the ordinal) and hand size (the cards) then differ."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wizard_tui.bots import LEVELS
from wizard_tui.game import Game, GameConfig, Phase, RestrictLastBid, TableRules, length_rounds
from wizard_tui.simulate import new_deal_set, play_game
from wizard_tui.verify import verify_record

from .helpers import act_randomly, decision_points
from .test_legal import tiny


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.data(),
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(3, 6),
    restrict=st.sampled_from(list(RestrictLastBid)),
)
def test_every_level_chooses_legal_actions_at_any_length(
    data: st.DataObject, seed: int, players: int, restrict: RestrictLastBid
) -> None:
    top = 60 // players
    sizes = data.draw(
        st.one_of(
            st.just(length_rounds("up-and-down", players) or ()),
            st.lists(st.integers(1, top), min_size=1, max_size=6).map(tuple),
        ),
        label="cards of each round",
    )
    round_number = data.draw(st.integers(1, len(sizes)), label="round")
    rng = random.Random(seed)
    game = Game(GameConfig(players, rng.randrange(players), TableRules(restrict, rounds=sizes)))
    while game.round < round_number - 1:
        deck = list(range(60))
        rng.shuffle(deck)
        game.deal(deck)
        while game.phase not in (Phase.DEAL, Phase.GAME_OVER):
            act_randomly(game, rng)
    bots = {level: tiny(level, random.Random(seed + i)) for i, level in enumerate(LEVELS)}
    checked = 0
    for g, view in decision_points(game, rng, rounds=1):
        assert (view.round, view.hand_size) == (round_number, sizes[round_number - 1])
        legal = g.legal_actions()
        for level, bot in bots.items():
            action = bot.decide(view)
            assert action in legal, (level, action, view.round, view.hand_size)
        checked += 1
    assert checked >= sizes[round_number - 1]  # at least this round's cards were played


def test_every_level_plays_a_whole_game_of_a_list_that_goes_down() -> None:
    """A list whose rounds deal fewer cards than their number, and a round of the whole deck:
    every level plays it through, and the record verifies."""
    rules = TableRules(RestrictLastBid.AFTER_ROUND_1, rounds=(6, 20, 2, 1))
    for i, level in enumerate(LEVELS):
        rng = random.Random(f"length-bots/{level}")
        bots = [tiny(level, random.Random(rng.random())) for _ in range(3)]
        record = play_game(bots, new_deal_set(3, rng, 4), rules).record
        assert record.complete and [len(r.hands[0]) for r in record.rounds] == [6, 20, 2, 1], i
        verify_record(record)
