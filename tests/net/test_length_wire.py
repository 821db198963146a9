"""The wire of a game of another length (docs/rules.md, "Game length"): round numbers up to
MAX_ROUND (60) cross it, what counts a round's cards stays 0..20, and a client reads a view's
hand size from the game's rules, never from the round's number."""

from __future__ import annotations

import random

import pytest

from netplay.errors import ProtocolError
from wizard_tui.game import Deal, Game, GameConfig, Phase, TableRules, length_rounds, seat_view
from wizard_tui.net import protocol as p


@pytest.mark.parametrize(
    ("message", "ok"),
    [
        (p.bid_msg(0, 39, 1), True),  # round 39 of a 3-player up-and-down game
        (p.bid_msg(0, p.MAX_ROUND, 20), True),
        (p.bid_msg(0, p.MAX_ROUND + 1, 0), False),
        (p.bid_msg(0, 22, p.MAX_HAND + 1), False),  # no round deals 21 cards each
        (p.play_msg(0, 60, 59), True),
        (p.trump_msg(0, 61, 0), False),
        ({"t": "commit", "round": 39, "commitment": bytes(32)}, True),
        ({"t": "seed", "round": 0, "seed": bytes(32)}, False),
    ],
)
def test_round_numbers_up_to_sixty_cross_the_wire(message: dict, ok: bool) -> None:
    if ok:
        assert p.INBOUND.check(message) == message
    else:
        with pytest.raises(ProtocolError):
            p.INBOUND.check(message)


def _up_and_down_at(round_number: int) -> Game:
    rng = random.Random(round_number)
    game = Game(GameConfig(3, 1, TableRules(rounds=length_rounds("up-and-down", 3))))
    while not (game.round == round_number and game.phase is Phase.BID):
        if game.phase is Phase.DEAL:
            deck = list(range(60))
            rng.shuffle(deck)
            game.apply(Deal(tuple(deck)))
        else:
            game.apply(rng.choice(game.legal_actions()))
    return game


def test_a_view_of_a_late_round_reads_back_with_its_hand_size() -> None:
    game = _up_and_down_at(30)  # round 30 deals 10 cards each
    view = seat_view(game, 0)
    back = p.view_from_wire(p.view_wire(view), view.history)
    assert back == view
    assert (back.round, back.hand_size, back.num_rounds, len(back.hand)) == (30, 10, 39, 10)
    assert back.legal_bids == () or max(back.legal_bids) == 10


def test_a_late_round_s_result_and_events_read_back() -> None:
    game = _up_and_down_at(39)
    result = game.results[-1]
    assert result.round == 38
    wire = p.result_wire(result, None)
    assert p.result_from_wire(wire, 3)[0] == result
    dealt = p.event_from_wire(["dealt", 39, 0, 5, 0], 3)
    assert dealt is not None and dealt.round == 39
    with pytest.raises(ProtocolError):
        p.event_from_wire(["dealt", 61, 0, 5, 0], 3)
