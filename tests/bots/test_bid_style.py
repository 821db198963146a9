"""``bid_style``: each player's bids against its hands' worth over the finished rounds,
and ``hard``'s use of it for the later bidders' modelled bids."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable

import pytest

from wizard_tui.bots import bidding, make_bot
from wizard_tui.bots.bid_style import RATIO_RANGE, bid_ratios
from wizard_tui.game import SeatView, mask_of, seat_view
from wizard_tui.game.engine import RoundResult

from .helpers import game_at_round


def view_at(players: int, round_number: int, seed: int) -> SeatView:
    """The first bidder's view of ``round_number`` after random play of the earlier rounds."""
    game = game_at_round(players, round_number, dealer=0, seed=seed)
    deck = list(range(60))
    random.Random(seed).shuffle(deck)
    game.deal(deck)
    return seat_view(game, game.turn)


def worth(result: RoundResult, seat: int, players: int) -> float:
    trump = int(result.trump_suit) if result.trump_suit is not None else -1
    hand = result.hands[seat]
    return bidding.expected_tricks(mask_of(hand), trump, result.trump_card, players, len(hand))


def with_bids(view: SeatView, bid_of: Callable[[RoundResult, int], int]) -> SeatView:
    """``view`` with every finished round's bids replaced by ``bid_of(result, seat)``."""
    history = tuple(
        RoundResult(
            r.round,
            r.dealer,
            r.hands,
            r.trump_card,
            r.trump_suit,
            tuple(bid_of(r, s) for s in range(view.players)),
            r.tricks,
            r.tricks_won,
            r.points,
            r.totals,
        )
        for r in view.history
    )
    return dataclasses.replace(view, history=history)


def test_before_any_finished_round_every_ratio_is_one() -> None:
    assert bid_ratios(view_at(4, 1, seed=1)) == [1.0] * 4
    # A round of one card says little (and may be played on the forehead): left out.
    view = with_bids(view_at(4, 2, seed=1), lambda r, s: 1)
    assert len(view.history) == 1 and bid_ratios(view) == [1.0] * 4


@pytest.mark.parametrize("players", [3, 4])
def test_ratios_follow_the_bids_against_the_hands(players: int) -> None:
    view = view_at(players, 9, seed=players)
    honest = with_bids(view, lambda r, s: round(worth(r, s, players)))
    assert all(abs(x - 1.0) < 0.2 for x in bid_ratios(honest))

    def styled(r: RoundResult, s: int) -> int:
        w = worth(r, s, players)
        if s == 1:
            return 0  # never bids: as cautious as it gets
        if s == 2:
            return min(len(r.hands[s]), round(1.6 * w + 1))  # greedy
        return round(w)

    ratios = bid_ratios(with_bids(view, styled))
    assert ratios[1] == RATIO_RANGE[0]
    assert ratios[2] > 1.2
    assert abs(ratios[0] - 1.0) < 0.2


def test_quick_bid_scales_the_expectation() -> None:
    hand = mask_of([52, 53, 12, 25, 38, 11, 24, 10])  # two Wizards, Aces, Kings, a Queen
    e = bidding.expected_tricks(hand, 0, 1, 3, 8)
    assert e > 3
    assert bidding.quick_bid(hand, 0, 1, 3, 8, None) == int(e + 0.5)
    assert bidding.quick_bid(hand, 0, 1, 3, 8, None, 0.6) == int(0.6 * e + 0.5)


def test_hard_models_the_later_bidders_by_their_ratios(monkeypatch: pytest.MonkeyPatch) -> None:
    """Bidding first, ``hard`` scales each later bidder of its playouts by its ratio: here
    three players who never bid in the finished rounds."""
    view = view_at(4, 9, seed=7)
    view = with_bids(view, lambda r, s: 0 if s != view.seat else round(worth(r, s, 4)))
    assert all(bid_ratios(view)[s] == RATIO_RANGE[0] for s in range(4) if s != view.seat)
    scales: list[float] = []
    real = bidding.quick_bid

    def spy(
        hand: int, trump: int, card: int | None, n: int, r: int, no: int | None, scale: float = 1.0
    ) -> int:
        scales.append(scale)
        return real(hand, trump, card, n, r, no, scale)

    monkeypatch.setattr(bidding, "quick_bid", spy)
    for style, want in ((True, RATIO_RANGE[0]), (False, 1.0)):
        scales.clear()
        bot = make_bot("hard", random.Random(1), max_samples=8, time_budget=100.0, bid_style=style)
        bot.decide(view)
        assert scales and set(scales) == {want}
