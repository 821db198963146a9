"""The search bot: candidates, budgets, options, and play that aims at the bid."""

from __future__ import annotations

import random
import time

import pytest

from wizard_tui.bots import LEVELS, HardBot, level_label, make_bot, parse_level
from wizard_tui.bots.hard import (
    BID_SHARE_CAP,
    SETTLE_MARGIN,
    SHARE_CAP,
    SHARE_FLOOR,
    bid_share,
    candidate_cards,
    time_share,
)
from wizard_tui.game import Phase, mask_of, seat_view

from .helpers import cards, dealt_game, decision_points, game_at_round


def test_equivalent_cards_are_one_candidate() -> None:
    hand = mask_of([*cards("9H 11H 2H 5C"), 52, 54, 56])
    unseen_all = ((1 << 60) - 1) & ~hand
    # 10H unseen: 9H and 11H differ.
    assert sorted(candidate_cards(hand, unseen_all)) == sorted([*cards("2H 9H 11H 5C"), 52, 56])
    # 10H played (not unseen): 9H and 11H are interchangeable; 2H still differs (3H..8H unseen).
    unseen = unseen_all & ~(1 << cards("10H")[0])
    assert sorted(candidate_cards(hand, unseen)) == sorted([*cards("2H 9H 5C"), 52, 56])


def test_level_strings_and_keywords() -> None:
    assert parse_level("hard:budget=0.3,samples=50") == (
        "hard",
        {"time_budget": 0.3, "max_samples": 50},
    )
    bot = make_bot("hard:budget=0.05", time_budget=0.2)
    assert isinstance(bot, HardBot) and bot.time_budget == 0.2
    assert bot.bid_budget == pytest.approx(0.6)
    for bad in ("hard:speed=3", "hard:budget=fast", "normal:budget=1", "master"):
        with pytest.raises(ValueError):
            parse_level(bad)


def test_expert_is_the_search_with_a_second_a_decision() -> None:
    expert = make_bot("expert")
    assert isinstance(expert, HardBot) and expert.level == "expert"
    assert (expert.time_budget, expert.bid_budget) == (1.0, 1.0)
    assert expert.exact_cards > HardBot().exact_cards
    assert "expert" in LEVELS and LEVELS.index("expert") > LEVELS.index("hard")
    assert make_bot("expert:budget=0.2,samples=5").max_samples == 5
    assert level_label("expert") == "expert (up to 1 s a move)"
    assert level_label("hard") == "hard (up to 0.45 s a move)"
    assert level_label("normal") == "normal"


def big_play_view():
    rng = random.Random(8)
    game = game_at_round(3, 20, dealer=2, seed=8)
    for g, view in decision_points(game, rng, rounds=1):
        if g.phase is Phase.PLAY and len(view.legal_cards) >= 8:
            return g, view
    raise AssertionError("no such state")


@pytest.mark.parametrize("budget", [0.03, 0.1])
@pytest.mark.parametrize("share_time", [False, True])
def test_the_time_budget_bounds_a_decision(budget: float, share_time: bool) -> None:
    game, view = big_play_view()
    bot = HardBot(random.Random(1), time_budget=budget, min_samples=10**6, share_time=share_time)
    start = time.perf_counter()
    action = bot.decide(view)
    elapsed = time.perf_counter() - start
    assert action in game.legal_actions()
    assert bot.last_samples >= 2
    share = time_share(view.rules.round_sizes(3), len(view.hand)) if share_time else 1.0
    assert share > 1.0 if share_time else share == 1.0  # 20 cards left: more than an even share
    assert elapsed < budget * share + 0.1  # a loaded machine may add a little; never a runaway
    assert budget * share <= bot.longest_move


@pytest.mark.parametrize(
    "sizes",
    [tuple(range(1, 21)), tuple(range(1, 16)), tuple(range(1, 11)), (1, 2, 3, 3, 2, 1), (7,)],
)
def test_the_time_share_keeps_a_games_time_and_favours_long_rounds(sizes: tuple[int, ...]) -> None:
    lefts = [t for size in sizes for t in range(1, size + 1)]
    shares = [time_share(sizes, t) for t in lefts]
    assert sum(shares) / len(shares) == pytest.approx(1.0)  # the game's total time is kept
    assert all(SHARE_FLOOR <= x <= SHARE_CAP for x in shares)
    ordered = [time_share(sizes, t) for t in range(1, max(sizes) + 1)]
    assert ordered == sorted(ordered) and ordered[-1] > ordered[0]
    assert time_share((), 5) == 1.0
    bids = [bid_share(sizes, size) for size in sizes]
    assert sum(bids) / len(bids) == pytest.approx(1.0)  # a game's bids keep their time
    assert all(SHARE_FLOOR <= x <= BID_SHARE_CAP for x in bids)
    by_size = [bid_share(sizes, size) for size in sorted(set(sizes))]
    assert by_size == sorted(by_size)
    assert bid_share((), 5) == 1.0


def test_no_decision_of_hard_takes_over_the_goals_600_ms() -> None:
    shared = HardBot(share_time=True)
    assert shared.longest_move == max(
        shared.bid_budget * BID_SHARE_CAP, shared.time_budget * SHARE_CAP
    )
    assert shared.longest_move <= 0.6
    assert HardBot().longest_move == HardBot().bid_budget  # the default: an even share
    assert not HardBot().share_time and HardBot().bid_margin == SETTLE_MARGIN


def test_the_bid_budget_bounds_a_bid_and_max_samples_caps_it() -> None:
    game = dealt_game(3, 20, 1, {}, seed=4)
    if game.phase is Phase.CHOOSE_TRUMP:
        game.choose_trump(game.turn, 0)
    view = seat_view(game, game.turn)
    bot = HardBot(random.Random(1), time_budget=0.02, bid_budget=0.08)
    start = time.perf_counter()
    bot.decide(view)
    assert time.perf_counter() - start < 0.25
    capped = HardBot(random.Random(1), time_budget=10.0, max_samples=3)
    capped.decide(view)
    assert capped.last_samples == 3


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_last_to_play_needing_a_trick_wins_it_cheaply(level: str) -> None:
    """Seat 0 (dealer, last to play) bid 1 and holds 13H, 9H, 2C; 10H is winning the trick."""
    hands = {0: cards("13H 9H 2C"), 1: cards("10H 3S 4S"), 2: cards("5H 6S 7S")}
    game = dealt_game(3, 3, 0, hands, trump_card=cards("8D")[0], seed=2)
    for b in (1, 1, 1):
        game.bid(game.turn, b)
    game.play(1, cards("10H")[0])
    game.play(2, cards("5H")[0])
    bot = make_bot(level, random.Random(1), max_samples=30) if level == "hard" else make_bot(level)
    action = bot.decide(seat_view(game, 0))
    assert action.card == cards("13H")[0]


@pytest.mark.parametrize("level", ["normal", "hard"])
def test_needing_nothing_ducks_with_the_highest_losing_card(level: str) -> None:
    """Seat 0 bid 0; 12H is winning; it holds 11H, 4H and 13H: 11H loses and is the most
    dangerous card to keep (4H would stay safe later)."""
    hands = {0: cards("13H 11H 4H"), 1: cards("12H 3S 4S"), 2: cards("5H 6S 7S")}
    game = dealt_game(3, 3, 0, hands, trump_card=cards("8D")[0], seed=2)
    for b in (1, 1, 0):
        game.bid(game.turn, b)
    game.play(1, cards("12H")[0])
    game.play(2, cards("5H")[0])
    bot = make_bot(level, random.Random(1), max_samples=60) if level == "hard" else make_bot(level)
    action = bot.decide(seat_view(game, 0))
    assert action.card == cards("11H")[0]


def test_last_means_hold_every_candidate_and_the_choice_is_the_best() -> None:
    game, view = big_play_view()
    bot = HardBot(random.Random(2), max_samples=16, time_budget=5.0)
    card = bot.choose_card(view)
    assert len(bot.last_means) >= 2 and card in bot.last_means
    assert set(bot.last_means) <= set(view.legal_cards)
    assert bot.last_means[card] == max(bot.last_means.values())
    game = dealt_game(3, 20, 1, {}, seed=4)
    if game.phase is Phase.CHOOSE_TRUMP:
        game.choose_trump(game.turn, 0)
    bid = bot.choose_bid(seat_view(game, game.turn))
    assert len(bot.last_means) >= 2  # 20 cards: several bids within reach
    assert bot.last_means[bid] == pytest.approx(max(bot.last_means.values()), abs=1e-6)
