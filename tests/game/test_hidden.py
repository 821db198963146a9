"""``HiddenGame`` (the host's game when hands are hidden) against the engine.

At every step of random games, the public part of every seat's view must be the same
whether the hands are known (``Game``) or hidden (``HiddenGame`` fed the same actions), and
a round's scoring, done by replaying it with its real deck, must be the engine's. A revoke
is accepted inside the round and found by that replay.
"""

from __future__ import annotations

import dataclasses
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wizard_tui.game import (
    Bid,
    ChooseTrump,
    Deal,
    Game,
    GameConfig,
    IllegalAction,
    Phase,
    Play,
    Reason,
    RestrictLastBid,
    SeatView,
    seat_view,
)
from wizard_tui.game.hidden import HiddenGame, Revoke, led_marker, replay_round, view_with_hand

from .helpers import build_deck, cs


def _public(view: SeatView) -> SeatView:
    """The view with its history left out (compared once per round, by the totals)."""
    return dataclasses.replace(view, history=())


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    players=st.integers(3, 6),
    restrict=st.sampled_from(list(RestrictLastBid)),
)
def test_hidden_game_follows_the_engine(seed: int, players: int, restrict: RestrictLastBid) -> None:
    rng = random.Random(seed)
    config = GameConfig(players, rng.randrange(players), restrict)
    game, hidden = Game(config), HiddenGame(config)
    while not game.is_over:
        deck = list(range(60))
        rng.shuffle(deck)
        events = game.apply(Deal(tuple(deck)))
        trump_card = deck[players * (game.round)] if players * game.round < 60 else None
        assert hidden.start_round(trump_card) == events
        while game.phase is not Phase.DEAL and not game.is_over:
            seat = game.turn if game.turn >= 0 else 0
            shown = seat_view(game, seat)
            mine = view_with_hand(seat_view(hidden, seat), game.dealt_hand(seat))  # type: ignore[arg-type]
            assert _public(mine) == _public(shown)
            action = rng.choice(game.legal_actions())
            events = game.apply(action)
            hidden_events = hidden.apply(action)
            assert hidden_events == [e for e in events if type(e).__name__ not in _SCORING]
        assert hidden.round_complete
        scoring = hidden.finish_round(deck)
        assert scoring == [e for e in events if type(e).__name__ in _SCORING]
        assert hidden.totals == game.totals and hidden.results == game.results
    assert hidden.is_over and hidden.winners == game.winners


_SCORING = ("RoundScored", "GameOver")


def test_a_revoke_is_found_when_the_round_is_replayed() -> None:
    config = GameConfig(3, 0)  # seat 0 deals round 1, seat 1 round 2
    hidden = HiddenGame(config)
    first = build_deck(3, 1, 0, [cs("1C"), cs("2C"), cs("3C")], trump_card=cs("5D")[0])
    _play_round(hidden, {0: cs("1C"), 1: cs("2C"), 2: cs("3C")}, first[3])
    assert hidden.finish_round(first)
    # Round 2, dealer 1: seat 2 leads a club; seat 0 holds a club and plays a heart.
    hands = {0: cs("4C 5H"), 1: cs("6S 7S"), 2: cs("8C 9C")}
    deck = build_deck(3, 2, 1, [hands[0], hands[1], hands[2]], trump_card=cs("5D")[0])
    _play_round(hidden, {2: cs("8C 9C"), 0: cs("5H 4C"), 1: cs("6S 7S")}, deck[6])
    totals = list(hidden.totals)
    with pytest.raises(Revoke) as caught:
        hidden.finish_round(deck)
    assert caught.value.seat == 0 and caught.value.code == Reason.MUST_FOLLOW_SUIT
    assert hidden.totals == totals  # nothing scored


def _play_round(hidden: HiddenGame, plays: dict[int, list[int]], trump_card: int) -> None:
    """Bid 0 everywhere, then play each seat's cards in order, as the turn comes."""
    hidden.start_round(trump_card)
    while hidden.phase is Phase.BID:
        hidden.apply(Bid(hidden.turn, 0))
    while hidden.phase is Phase.PLAY:
        seat = hidden.turn
        hidden.apply(Play(seat, plays[seat].pop(0)))  # accepted: nobody can check it now


def test_plays_refused_from_public_information() -> None:
    hidden = HiddenGame(GameConfig(3, 0))
    hidden.start_round(cs("5D")[0])
    with pytest.raises(IllegalAction):
        hidden.apply(Play(1, 0))  # the bidding is not over
    turn = hidden.turn
    for i in range(3):
        hidden.apply(Bid((turn + i) % 3, 1))
    with pytest.raises(IllegalAction) as wrong_turn:
        hidden.apply(Play((hidden.turn + 1) % 3, 0))
    assert wrong_turn.value.code == Reason.NOT_YOUR_TURN
    with pytest.raises(IllegalAction) as seen:
        hidden.apply(Play(hidden.turn, cs("5D")[0]))  # the trump card is face up
    assert seen.value.code == Reason.CARD_NOT_IN_HAND
    hidden.void_round()
    assert hidden.phase is Phase.DEAL and hidden.round == 0


def test_led_marker() -> None:
    assert led_marker([]) < 0
    assert led_marker(cs("J1 J2 3H")) == 2
    assert led_marker(cs("J1 W1 3H")) == led_marker(cs("W2"))


def test_replay_round_needs_a_finished_round() -> None:
    config = GameConfig(3, 0)
    deck = tuple(range(60))
    with pytest.raises(ValueError):
        replay_round(Game(config), deck, [ChooseTrump(0, 0)][:0])
