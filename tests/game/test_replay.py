"""A game is its list of actions: ``game.actions`` lists exactly what was accepted, in order,
and ``Game.replay`` rebuilds the same game from it, at any point of a round."""

from __future__ import annotations

import pytest

from wizard_tui.game import (
    Action,
    Bid,
    ChooseTrump,
    Deal,
    Game,
    GameConfig,
    IllegalAction,
    Phase,
    Play,
    RestrictLastBid,
    Suit,
)

from .helpers import WIZARDS, build_deck, cs, snapshot


class Recorder:
    """Applies actions to a game and keeps the ones it accepted."""

    def __init__(self, config: GameConfig) -> None:
        self.config = config
        self.game = Game(config)
        self.accepted: list[Action] = []

    def do(self, action: Action) -> None:
        try:
            self.game.apply(action)
        except IllegalAction:
            return
        self.accepted.append(action)

    def check(self) -> None:
        assert self.game.actions == self.accepted
        assert snapshot(Game.replay(self.config, self.accepted)) == snapshot(self.game)


# 3 players, seat 0 deals round 1 and seat 1 round 2. Round 2 turns up a Wizard.
ROUND_1 = build_deck(3, 1, 0, [cs("5C"), cs("9C"), cs("2H")], cs("1S")[0])
ROUND_2 = build_deck(3, 2, 1, [cs("1D 2D"), cs("3D 4D"), cs("5D 6D")], WIZARDS[1])


@pytest.mark.parametrize("trump", list(Suit))
def test_actions_and_replay_at_every_step_of_two_rounds(trump: Suit) -> None:
    rec = Recorder(GameConfig(3, 0, RestrictLastBid.ALWAYS))
    rec.check()  # nothing yet
    steps: list[Action] = [
        Deal(ROUND_1),
        Bid(1, 0),
        Bid(2, 1),
        Bid(0, 0),  # forbidden: 0 + 1 + 0 = 1 = round; refused, so not recorded
        Bid(0, 1),
        Play(1, cs("9C")[0]),
        Play(2, cs("2H")[0]),
        Play(0, cs("5C")[0]),
        Deal(ROUND_2),
        Bid(2, 0),  # refused: the dealer must name trump first
        ChooseTrump(1, trump),  # clubs is Suit 0: falsy, and must still be recorded
        Bid(2, 1),
        Bid(0, 0),
        Bid(1, 0),
        Play(2, cs("5D")[0]),
        Play(0, cs("1D")[0]),
        Play(1, cs("3D")[0]),
        Play(2, cs("6D")[0]),
        Play(0, cs("2D")[0]),
        Play(1, cs("4D")[0]),
    ]
    for action in steps:
        rec.do(action)
        rec.check()
    assert len(rec.accepted) == len(steps) - 2
    assert rec.game.round == 2 and rec.game.phase is Phase.DEAL


def test_replay_of_a_whole_game_reproduces_the_results() -> None:
    config = GameConfig(6, 4, RestrictLastBid.AFTER_ROUND_1)
    game = Game(config)
    while not game.is_over:
        game.deal(list(reversed(range(60))))
        if game.phase is Phase.CHOOSE_TRUMP:
            game.choose_trump(game.turn, Suit.CLUBS)
        while game.phase is Phase.BID:
            game.bid(game.turn, game.legal_bids()[-1])
        while game.phase is Phase.PLAY:
            game.play(game.turn, game.legal_plays()[-1])
    again = Game.replay(config, game.actions)
    assert again.results == game.results
    assert again.totals == game.totals and again.winners == game.winners
    assert snapshot(again) == snapshot(game)
