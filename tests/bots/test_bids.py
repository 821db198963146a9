"""Bids in hands whose answer is obvious, with and without the restricted last bid."""

from __future__ import annotations

import random

import pytest

from wizard_tui.bots import make_bot
from wizard_tui.game import Phase, RestrictLastBid, seat_view

from .helpers import JESTERS, WIZARDS, cards, dealt_game

SMART = ["normal", "hard"]


def bot(level: str):
    return (
        make_bot(level, random.Random(7), max_samples=40)
        if level == "hard"
        else make_bot(level, random.Random(7))
    )


def bid_of(level: str, game) -> int:
    view = seat_view(game, game.turn)
    action = bot(level).decide(view)
    assert action.bid in view.legal_bids
    return action.bid


@pytest.mark.parametrize("level", SMART)
@pytest.mark.parametrize("seat_offset", [1, 2, 0])  # first bidder, middle, dealer
def test_four_wizards_in_round_four_bid_four(level: str, seat_offset: int) -> None:
    dealer = 0
    seat = (dealer + seat_offset) % 3
    game = dealt_game(3, 4, dealer, {seat: list(WIZARDS)}, trump_card=cards("5H")[0])
    while game.turn != seat:
        game.bid(game.turn, 0 if seat_offset else 1)  # others bid modestly
    assert bid_of(level, game) == 4


@pytest.mark.parametrize("level", SMART)
@pytest.mark.parametrize("seat_offset", [1, 2, 0])
def test_only_jesters_bid_zero(level: str, seat_offset: int) -> None:
    dealer = 2
    seat = (dealer + seat_offset) % 4
    game = dealt_game(4, 4, dealer, {seat: list(JESTERS)}, trump_card=cards("5S")[0])
    while game.turn != seat:
        game.bid(game.turn, 1)
    assert bid_of(level, game) == 0


@pytest.mark.parametrize("level", SMART)
def test_hooked_with_four_wizards_bids_three(level: str) -> None:
    """The dealer holding four Wizards may not say 4 when the others said 0 in total."""
    game = dealt_game(
        3, 4, 0, {0: list(WIZARDS)}, trump_card=cards("5H")[0], restrict=RestrictLastBid.ALWAYS
    )
    game.bid(game.turn, 0)
    game.bid(game.turn, 0)
    assert game.turn == 0 and game.forbidden_bid() == 4
    assert bid_of(level, game) == 3  # the nearest legal bid: one trick over is a sure miss by 1


@pytest.mark.parametrize("level", SMART)
def test_hooked_with_only_jesters_bids_one(level: str) -> None:
    game = dealt_game(
        4, 4, 3, {3: list(JESTERS)}, trump_card=cards("5H")[0], restrict=RestrictLastBid.ALWAYS
    )
    for b in (2, 1, 1):
        game.bid(game.turn, b)
    assert game.turn == 3 and game.forbidden_bid() == 0
    assert bid_of(level, game) == 1


@pytest.mark.parametrize("level", SMART)
def test_hooked_never_bids_below_sure_tricks(level: str) -> None:
    """Four Wizards and a 2 in round 5: four sure tricks. With 4 forbidden, 3 is a sure miss;
    5 at least might come off."""
    hand = [*WIZARDS, *cards("2C")]
    game = dealt_game(
        3, 5, 0, {0: hand}, trump_card=cards("10H")[0], restrict=RestrictLastBid.ALWAYS, seed=3
    )
    game.bid(game.turn, 1)
    game.bid(game.turn, 0)
    assert game.forbidden_bid() == 4
    assert bid_of(level, game) == 5


def test_bids_are_in_range_for_every_round_size() -> None:
    for level in SMART:
        for r in (1, 10, 20):
            game = dealt_game(3, r, 1, {}, seed=r)
            if game.phase is Phase.CHOOSE_TRUMP:
                game.choose_trump(game.turn, 0)
            b = bid_of(level, game)
            assert 0 <= b <= r
