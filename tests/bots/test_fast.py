"""The playout core: the policy only plays legal cards, and playouts finish rounds correctly."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from wizard_tui.bots.fast import legal_mask, pick, play_out
from wizard_tui.game import Game, GameConfig, Phase, legal_play_mask, seat_view

FULL = (1 << 60) - 1


@settings(max_examples=300, deadline=None)
@given(
    hand=st.integers(1, FULL),
    led=st.integers(-2, 3),
    win=st.integers(-1, 59),
    n_after=st.integers(0, 5),
    need=st.integers(-3, 5),
    left=st.integers(1, 20),
    unseen=st.integers(0, FULL),
    t1=st.integers(0, 4),
)
def test_pick_plays_a_legal_card_of_the_hand(
    hand: int, led: int, win: int, n_after: int, need: int, left: int, unseen: int, t1: int
) -> None:
    unseen &= ~hand
    card = pick(hand, led, win, n_after, need, left, unseen, t1)
    assert legal_play_mask(hand, led) >> card & 1
    assert legal_mask(hand, led) == legal_play_mask(hand, led)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(3, 6), data=st.data())
def test_a_playout_matches_the_engine_playing_the_same_cards(
    seed: int, players: int, data: st.DataObject
) -> None:
    """Play a round through the engine with ``pick`` for every seat, and the same round with
    ``play_out``: every seat must win the same number of tricks."""
    rng = random.Random(seed)
    r = data.draw(st.integers(1, 60 // players))
    game = Game(GameConfig(players, 0, "never"))
    deck = list(range(60))
    while game.round < r:
        rng.shuffle(deck)
        game.deal(deck)
        while game.phase not in (Phase.DEAL, Phase.GAME_OVER):
            if game.phase is Phase.CHOOSE_TRUMP:
                game.choose_trump(game.turn, 1)
            elif game.phase is Phase.BID:
                game.bid(game.turn, rng.choice(game.legal_bids()))
            elif game.round < r:
                game.play(game.turn, game.legal_plays()[0])
            else:
                break
        if game.round == r:
            break
    assert game.phase is Phase.PLAY
    hands = [game.hand_mask(s) for s in range(players)]
    bids = list(game.bids)
    t1 = (game.trump_suit + 1) if game.trump_suit is not None else 0
    avail = FULL & ~(1 << game.trump_card) if game.trump_card is not None else FULL
    won = [0] * players
    play_out(list(hands), t1, avail, game.turn, 0, -1, -1, -1, bids, won, r)
    # The engine, fed pick's choices with the same information.
    played = 0
    while game.phase is Phase.PLAY:
        seat = game.turn
        view = seat_view(game, seat)
        win = -1
        for s, c in view.trick:
            if s == view.trick_winner:
                win = c
        hand = game.hand_mask(seat)
        card = pick(
            hand,
            game.led,
            win,
            players - 1 - len(view.trick),
            bids[seat] - game.tricks_won[seat],
            r - len(view.tricks),
            avail & ~played & ~hand,
            t1,
        )
        game.play(seat, card)
        played |= 1 << card
    assert list(game.results[-1].tricks_won) == won
    assert sum(won) == r
