"""The playout core: the policy only plays legal cards, and playouts finish rounds correctly."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from wizard_tui.bots.fast import legal_mask, pick, play_out
from wizard_tui.game import LED_WIZARD, Game, GameConfig, Phase, legal_play_mask, mask_of, seat_view

from .helpers import JESTERS, WIZARDS, card, cards

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
    card = pick(hand, led, win, n_after, need, left, unseen, t1, max(3, n_after + 1))
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
            players,
        )
        game.play(seat, card)
        played |= 1 << card
    assert list(game.results[-1].tricks_won) == won
    assert sum(won) == r


# ``pick`` needing tricks: the Wizard kept, and what it gives to a trick it does not take.
# Four players, clubs trump (t1 = 1), every card not in the hand unseen.
def _pick(hand: list[int], led: int, win: int, n_after: int, need: int, left: int) -> int:
    mask = mask_of(hand)
    unseen = FULL & ~mask & ~(1 << win if win >= 0 else 0)
    return pick(mask, led, win, n_after, need, left, unseen, 1, 4)


def test_needing_a_trick_in_mid_trick_it_keeps_its_wizard_for_a_later_one() -> None:
    # Diamonds led, 10D winning, one player still to come: the Wizard is the only winner
    # (no diamond to follow with, no trump); a heart or a spade loses and the Wizard still
    # takes any later trick.
    hand = [WIZARDS[0], *cards("1H 5S")]
    assert _pick(hand, 1, card("10D"), 1, 1, 3) != WIZARDS[0]
    # Needing every trick left, it takes this one.
    assert _pick(hand, 1, card("10D"), 1, 3, 3) == WIZARDS[0]


def test_last_to_play_it_spends_a_wizard_only_when_the_hand_has_no_trick_to_spare() -> None:
    # Worth about one trick, needing two of three: the Wizard takes this trick.
    assert _pick([WIZARDS[0], *cards("3H 4S")], 1, card("10D"), 0, 2, 3) == WIZARDS[0]
    # Two Wizards, needing one: either takes a later trick, so it gives the heart.
    assert _pick([*WIZARDS[:2], *cards("3H")], 1, card("10D"), 0, 1, 3) == card("3H")


def test_unable_to_win_it_sheds_spare_strength_or_its_least_card_of_its_longest_suit() -> None:
    hand = [*cards("13H 12H 1S 2S 3S"), JESTERS[0]]
    # A Wizard led: nothing wins. Needing one trick with the top two hearts, it sheds the
    # ace it has to spare.
    assert _pick(hand, LED_WIZARD, WIZARDS[0], 2, 1, 6) == card("13H")
    # Needing three, it keeps its hearts and its Jester and gives its lowest spade.
    assert _pick(hand, LED_WIZARD, WIZARDS[0], 2, 3, 6) == card("1S")
