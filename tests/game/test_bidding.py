"""Bids: order, range, publicity and the restricted last bid in both forms (RULES.md 3)."""

from __future__ import annotations

import pytest

from wizard_tui.game import (
    Bid,
    BidMade,
    Game,
    GameConfig,
    IllegalAction,
    Phase,
    Reason,
    RestrictLastBid,
    seat_view,
)

from .helpers import bid_all, game_at_round, snapshot

NEVER, ALWAYS, AFTER_1 = (
    RestrictLastBid.NEVER,
    RestrictLastBid.ALWAYS,
    RestrictLastBid.AFTER_ROUND_1,
)


def bidding_game(
    players: int, round_number: int, dealer: int, restrict: RestrictLastBid = NEVER
) -> Game:
    """A game in the bid phase of ``round_number``; the turned card is never a Wizard here."""
    game = game_at_round(players, round_number, dealer, restrict)
    deck = list(range(60))
    game.deal(deck)
    if game.phase is Phase.CHOOSE_TRUMP:  # not with these decks, but keep the helper honest
        game.choose_trump(dealer, 0)
    assert game.phase is Phase.BID
    return game


@pytest.mark.parametrize(("players", "dealer"), [(3, 0), (3, 2), (4, 1), (5, 4), (6, 5)])
def test_bidding_goes_clockwise_from_the_dealers_left_and_the_dealer_bids_last(
    players: int, dealer: int
) -> None:
    game = bidding_game(players, 2, dealer)
    order = []
    for _ in range(players):
        order.append(game.turn)
        events = game.apply(Bid(game.turn, 1))
        assert events == [BidMade(order[-1], 1)]
    assert order == [(dealer + 1 + i) % players for i in range(players)]
    assert order[-1] == dealer
    assert game.phase is Phase.PLAY


@pytest.mark.parametrize("round_number", [1, 2, 5])
def test_bids_run_from_zero_to_the_round_number(round_number: int) -> None:
    game = bidding_game(4, round_number, 0)
    assert game.legal_bids() == list(range(round_number + 1))
    for bid in (0, round_number):
        trial = game.copy()
        trial.bid(trial.turn, bid)
        assert trial.bids[1] == bid
    for bid in (-1, round_number + 1, 99):
        before = snapshot(game)
        with pytest.raises(IllegalAction) as err:
            game.bid(game.turn, bid)
        assert err.value.reason is Reason.BID_OUT_OF_RANGE
        assert snapshot(game) == before


def test_bids_are_public_as_soon_as_they_are_made() -> None:
    game = bidding_game(4, 3, dealer=3)
    assert all(seat_view(game, s).bids == (None,) * 4 for s in range(4))
    game.bid(0, 2)
    game.bid(1, 0)
    for seat in range(4):
        assert seat_view(game, seat).bids == (2, 0, None, None)
    game.bid(2, 3)
    game.bid(3, 1)
    for seat in range(4):
        assert seat_view(game, seat).bids == (2, 0, 3, 1)


# ------------------------------------------------------- the restricted last bid

# (form, players, round, bids before the dealer's, the dealer's forbidden bid or None)
RESTRICTED = [
    # Off by default: nothing is ever forbidden.
    (NEVER, 3, 1, [0, 0], None),
    (NEVER, 4, 3, [1, 1, 0], None),
    # `always`, round 1: the others bid 0, so the dealer may not bid 1 (only 0 is left).
    (ALWAYS, 3, 1, [0, 0], 1),
    (ALWAYS, 6, 1, [0, 0, 0, 0, 0], 1),
    # The others already bid the one trick: the forbidden bid is 0 (only 1 is left).
    (ALWAYS, 3, 1, [1, 0], 0),
    (ALWAYS, 4, 1, [0, 1, 0], 0),
    # The sum already exceeds the round: no bid can make it equal, nothing is forbidden.
    (ALWAYS, 3, 1, [1, 1], None),
    (ALWAYS, 4, 2, [2, 1, 0], None),
    (ALWAYS, 3, 3, [3, 3], None),
    # The forbidden bid is round - sum.
    (ALWAYS, 3, 2, [1, 0], 1),
    (ALWAYS, 4, 3, [1, 0, 0], 2),
    (ALWAYS, 4, 3, [0, 0, 0], 3),
    (ALWAYS, 5, 4, [1, 1, 1, 1], 0),
    (ALWAYS, 3, 5, [2, 1], 2),
    # `after-round-1`: round 1 is exempt, later rounds are restricted like `always`.
    (AFTER_1, 3, 1, [0, 0], None),
    (AFTER_1, 3, 1, [1, 0], None),
    (AFTER_1, 6, 1, [0, 0, 0, 0, 0], None),
    (AFTER_1, 3, 2, [1, 0], 1),
    (AFTER_1, 4, 2, [0, 0, 0], 2),
    (AFTER_1, 3, 2, [2, 0], 0),
    (AFTER_1, 3, 2, [2, 1], None),
]


@pytest.mark.parametrize(("form", "players", "round_number", "before", "forbidden"), RESTRICTED)
def test_restricted_last_bid(
    form: RestrictLastBid, players: int, round_number: int, before: list[int], forbidden: int | None
) -> None:
    dealer = players - 1
    game = bidding_game(players, round_number, dealer, form)
    bid_all(game, before)
    assert game.turn == dealer
    assert game.forbidden_bid() == forbidden
    expected = [b for b in range(round_number + 1) if b != forbidden]
    assert game.legal_bids() == expected
    view = seat_view(game, dealer)
    assert view.forbidden_bid == forbidden
    assert list(view.legal_bids) == expected
    assert expected, "the dealer always keeps at least one legal bid"
    if forbidden is not None:
        assert sum(before) + forbidden == round_number
        snap = snapshot(game)
        with pytest.raises(IllegalAction) as err:
            game.bid(dealer, forbidden)
        assert err.value.reason is Reason.BID_FORBIDDEN
        assert snapshot(game) == snap
    for bid in expected:
        trial = game.copy()
        trial.bid(dealer, bid)
        assert trial.phase is Phase.PLAY
        if form.applies(round_number):
            assert sum(trial.bids) != round_number  # someone must miss


@pytest.mark.parametrize("form", [ALWAYS, AFTER_1])
def test_only_the_dealer_is_restricted(form: RestrictLastBid) -> None:
    # 4 players, round 2, seat 3 deals: seats 0, 1, 2 may bring the running total to 2.
    game = bidding_game(4, 2, 3, form)
    for seat, bid in ((0, 2), (1, 0), (2, 0)):
        assert game.forbidden_bid() is None
        assert game.legal_bids() == [0, 1, 2]
        assert seat_view(game, seat).forbidden_bid is None
        game.bid(seat, bid)
    assert game.forbidden_bid() == 0
    assert game.legal_bids() == [1, 2]


def test_restriction_does_not_apply_before_the_last_bid_even_if_the_sum_equals_round() -> None:
    game = bidding_game(3, 3, 2, ALWAYS)
    game.bid(0, 3)
    assert game.forbidden_bid() is None
    game.bid(1, 0)  # the running total stays 3 = round: still allowed for a non-dealer
    assert game.bids == (3, 0, None)
    assert game.forbidden_bid() == 0


def test_restriction_is_a_host_option_off_by_default() -> None:
    assert GameConfig(3, 0).restrict_last_bid is NEVER
    assert GameConfig(3, 0, "always").restrict_last_bid is ALWAYS
    assert GameConfig(3, 0, "after-round-1").restrict_last_bid is AFTER_1
    with pytest.raises(ValueError):
        GameConfig(3, 0, "sometimes")  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("form", "rounds_restricted"),
    [(NEVER, []), (ALWAYS, [1, 2, 3, 20]), (AFTER_1, [2, 3, 20])],
)
def test_which_rounds_each_form_restricts(
    form: RestrictLastBid, rounds_restricted: list[int]
) -> None:
    for r in (1, 2, 3, 20):
        assert form.applies(r) == (r in rounds_restricted)
