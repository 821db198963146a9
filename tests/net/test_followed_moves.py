"""A seat's log of an attempt's public moves (``deals/private/voids.FollowedMoves``): built
from the host's events as they come over the wire, with each Juggler's pass's cards put in
from the gifts, it is every action of the round in order, exactly as the engine took them.
So a seat's own replay of a voided attempt at a table with special cards (it names a
revoker itself) replays what the host replayed."""

from __future__ import annotations

import random

import pytest

from wizard_tui.game import Deal, Game, GameConfig, Phase, TableRules
from wizard_tui.game.actions import PassCard
from wizard_tui.game.specials import SPECIALS, deck_cards
from wizard_tui.net import protocol as p
from wizard_tui.net.deals.private.voids import FollowedMoves, Passed, resolved_moves


@pytest.mark.parametrize("seed", range(40))
def test_the_followed_moves_are_the_rounds_actions(seed: int) -> None:
    rng = random.Random(f"followed/{seed}")
    players = 3 + seed % 4
    rules = TableRules(specials=frozenset(SPECIALS), rounds=(60 // players,))
    game = Game(GameConfig(players, rng.randrange(players), rules))
    deck = list(deck_cards(rules.specials))
    rng.shuffle(deck)
    followed = FollowedMoves(1, 0, 60 // players)
    for event in game.apply(Deal(tuple(deck))):
        followed.follow([p.event_from_wire(p.event_wire(event), players)])
    while game.phase not in (Phase.DEAL, Phase.GAME_OVER):
        events = game.apply(rng.choice(game.legal_actions()))
        followed.follow([p.event_from_wire(p.event_wire(e), players) for e in events])
    actions = game.results[-1].actions
    passes = [a for a in actions if isinstance(a, PassCard)]
    gifts = {(i // players, a.seat): a.card for i, a in enumerate(passes)}
    assert resolved_moves(followed.moves, gifts, players) == list(actions)
    assert sum(isinstance(m, Passed) for m in followed.moves) == len(passes) // players


def test_a_pass_without_its_gift_resolves_to_nothing() -> None:
    moves = [Passed(first=1)]
    assert resolved_moves(moves, {(0, 0): 5, (0, 1): 6}, 3) is None
    assert resolved_moves(moves, {(0, 0): 5, (0, 1): 6, (0, 2): 7}, 3) == [
        PassCard(1, 6),
        PassCard(2, 7),
        PassCard(0, 5),
    ]
