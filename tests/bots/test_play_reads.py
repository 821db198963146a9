"""Reading the others' plays: a deal in which ``pick`` would have played what a seat did
weighs more than one in which it would not (``bots/play_reads.py``)."""

from __future__ import annotations

import random

import pytest

from wizard_tui.bots import make_bot
from wizard_tui.bots.play_reads import past_plays, play_weigher, same_kind
from wizard_tui.game import mask_of, seat_view

from .helpers import card, cards, dealt_game, decision_points, game_at_round


def ducked_view():
    """3 players, round 2, no trump, dealer 2: seat 0 (bid 0) leads 5H, keeping a Wizard;
    seat 1 (bid 1, so it needs a trick) follows with 2H, and seat 2 is to play."""
    game = dealt_game(
        3,
        2,
        2,
        {0: cards("5H W1"), 1: cards("2H 4S"), 2: cards("9D 10D")},
        trump_card=card("J1"),
    )
    for b in (0, 1, 0):
        game.bid(game.turn, b)
    game.play(0, card("5H"))
    game.play(1, card("2H"))
    return seat_view(game, 2)


def test_past_plays_give_each_play_what_its_seat_knew() -> None:
    view = ducked_view()
    lead, duck = past_plays(view)
    assert (lead.seat, lead.card, lead.win, lead.n_after, lead.need, lead.left) == (
        0,
        card("5H"),
        -1,
        2,
        0,
        2,
    )
    assert (duck.seat, duck.card, duck.win, duck.n_after, duck.need) == (
        1,
        card("2H"),
        card("5H"),
        1,
        1,
    )
    assert duck.led == card("5H") // 13
    assert duck.since == mask_of([card("2H")])  # added back to seat 1's hand at that play
    assert not duck.avail >> card("5H") & 1 and duck.avail >> card("2H") & 1


def test_a_duck_while_needing_a_trick_weighs_down_the_deals_where_it_held_a_winner() -> None:
    view = ducked_view()
    weigh = play_weigher(view, view.trump_suit + 1 if view.trump_suit is not None else 0, 0.5)
    assert weigh is not None
    me = mask_of(view.hand)
    # Seat 1 kept 13H: holding 2H and 13H and needing a trick, pick plays the King.
    held_the_king = [mask_of(cards("W1")), mask_of(cards("13H")), me]
    # Seat 1 kept 3H: 2H and 3H both lose, and pick sheds the lower.
    held_no_winner = [mask_of(cards("W1")), mask_of(cards("3H")), me]
    assert weigh(held_the_king) == 0.5
    assert weigh(held_no_winner) == 1.0


def test_no_plays_of_others_or_reads_off_give_no_weigher() -> None:
    game = dealt_game(3, 2, 2, {0: cards("5H 1C"), 1: cards("2H 4S")}, trump_card=card("J1"))
    for b in (0, 1, 0):
        game.bid(game.turn, b)
    assert play_weigher(seat_view(game, 0), 0) is None  # nobody has played
    assert play_weigher(ducked_view(), 0, 1.0) is None


@pytest.mark.parametrize(
    ("a", "b", "unseen", "same"),
    [
        ("2H", "3H", "", True),
        ("2H", "4H", "3H", False),  # the 3H between them may still come
        ("2H", "4H", "", True),  # (the 3H is out, or in the same hand)
        ("W1", "W3", "", True),
        ("J1", "J2", "", True),
        ("W1", "J1", "", False),
        ("13C", "1D", "", False),
    ],
)
def test_same_kind(a: str, b: str, unseen: str, same: bool) -> None:
    assert same_kind(card(a), card(b), mask_of(cards(unseen)) if unseen else 0) is same


@pytest.mark.parametrize("seed", range(3))
def test_the_true_deal_always_weighs_within_the_bounds(seed: int) -> None:
    """On random games the weight of the real hands is a power of ``mismatch`` no smaller
    than ``mismatch`` to the number of the others' plays (so never zero)."""
    rng = random.Random(seed)
    game = game_at_round(4, 8, dealer=seed % 4, seed=seed)
    for g, view in decision_points(game, rng, rounds=2):
        if not view.legal_cards:
            continue
        weigh = play_weigher(view, view.trump_suit + 1 if view.trump_suit is not None else 0, 0.5)
        if weigh is None:
            continue
        true = [mask_of(seat_view(g, s).hand) for s in range(g.config.players)]
        w = weigh(true)
        plays = len(past_plays(view))
        assert 0.5**plays <= w <= 1.0
        assert any(abs(w - 0.5**m) < 1e-12 for m in range(plays + 1))


def test_hard_with_reads_decides_legally_and_weighs_its_deals() -> None:
    game = game_at_round(4, 6, dealer=1, seed=5)
    rng = random.Random(5)
    bot = make_bot("hard:reads=0.5,samples=16", random.Random(1))
    checked = 0
    for _g, view in decision_points(game, rng, rounds=1):
        action = bot.decide(view)
        if view.legal_cards:
            assert action.card in view.legal_cards
            checked += 1
    assert checked >= 6
