"""``SeatView``: a seat sees its own hand and everything public, and nothing else."""

from __future__ import annotations

import dataclasses

import pytest

from wizard_tui.game import Game, Phase, RestrictLastBid, SeatView, seat_view
from wizard_tui.game.view import new_seat_view

from .helpers import WIZARDS, bid_all, c, cs, dealt_game, visible_cards

HANDS = [cs("5H 2C 8S"), cs("9H 3C W1"), cs("4D 13C 1C"), cs("1H 5D 12D")]


def game_in_bidding(restrict: RestrictLastBid = RestrictLastBid.NEVER) -> Game:
    """4 players, round 3, seat 3 deals, spades trump (7S turned); seat 0 bids first."""
    return dealt_game(4, 3, 3, HANDS, c("7S"), restrict)


# Every field of a view, by what it may hold. A new field must be added here, which makes
# whoever adds it decide whether it can carry cards (and so whether it could leak a hand).
FIELDS_WITHOUT_CARDS = {
    "seat",
    "players",
    "num_rounds",
    "rules",
    "round",
    "hand_size",
    "dealer",
    "phase",
    "turn",
    "trump_suit",
    "bids",
    "tricks_won",
    "totals",
    "trick_leader",
    "led_suit",
    "trick_winner",
    "legal_bids",
    "forbidden_bid",
    "declared",  # (trick, seat, choice): the choices are suits or Wizard/Jester
    "legal_choices",
}
FIELDS_WITH_CARDS = {
    "hand",
    "foreheads",
    "trump_card",
    "trick",
    "tricks",
    "legal_cards",
    "history",
    "turned_card",
    "swap_takes",
    "last_pass",  # this seat's own pass only
    "swaps",  # every Witch's swap: both cards face up when they change places
}


def test_every_view_field_is_classified() -> None:
    names = {f.name for f in dataclasses.fields(SeatView)}
    assert names == FIELDS_WITHOUT_CARDS | FIELDS_WITH_CARDS


@pytest.mark.parametrize("seat", range(4))
def test_a_seat_sees_only_its_own_hand(seat: int) -> None:
    game = game_in_bidding()
    bid_all(game, [0, 0, 0, 0])
    game.play(0, c("8S"))
    view = seat_view(game, seat)
    assert view.seat == seat
    assert set(view.hand) == set(HANDS[seat]) - {c("8S")}
    others = {card for s, hand in enumerate(HANDS) if s != seat for card in hand} - {c("8S")}
    assert not visible_cards(view) & others
    assert c("8S") in visible_cards(view)  # a played card is public


def test_hand_shrinks_as_cards_are_played_and_keeps_deal_order() -> None:
    game = game_in_bidding()
    bid_all(game, [0, 0, 0, 0])
    game.play(0, c("8S"))
    assert seat_view(game, 0).hand == tuple(cs("5H 2C"))
    game.play(1, WIZARDS[0])
    assert seat_view(game, 1).hand == tuple(cs("9H 3C"))
    for seat in range(4):
        view = seat_view(game, seat)
        assert view.trick == ((0, c("8S")), (1, WIZARDS[0]))
        assert view.played_cards == (c("8S"), WIZARDS[0])
        assert view.trick_leader == 0
        assert view.trick_winner == 1


@pytest.mark.parametrize("seat", range(4))
def test_legal_bids_only_for_the_seat_on_turn(seat: int) -> None:
    game = game_in_bidding()
    view = seat_view(game, seat)
    assert view.phase is Phase.BID
    assert view.turn == 0
    assert view.my_turn == (seat == 0)
    assert view.legal_bids == ((0, 1, 2, 3) if seat == 0 else ())
    assert view.legal_cards == ()
    assert view.forbidden_bid is None


@pytest.mark.parametrize("seat", range(4))
def test_legal_cards_only_for_the_seat_on_turn(seat: int) -> None:
    game = game_in_bidding()
    bid_all(game, [1, 1, 1, 1])
    game.play(0, c("5H"))  # hearts led: seat 1 (9H 3C W1) may play 9H or the Wizard
    view = seat_view(game, seat)
    assert view.turn == 1
    expected = tuple(sorted([c("9H"), WIZARDS[0]])) if seat == 1 else ()
    assert tuple(sorted(view.legal_cards)) == expected
    assert view.legal_bids == ()
    assert view.forbidden_bid is None
    assert view.bids == (1, 1, 1, 1)
    assert view.bid == 1


@pytest.mark.parametrize("seat", range(4))
def test_forbidden_bid_is_shown_to_the_dealer_on_turn(seat: int) -> None:
    game = game_in_bidding(RestrictLastBid.ALWAYS)
    bid_all(game, [1, 0, 0])  # the dealer (seat 3) may not bid 2
    view = seat_view(game, seat)
    if seat == 3:
        assert view.forbidden_bid == 2
        assert view.legal_bids == (0, 1, 3)
    else:
        assert view.forbidden_bid is None
        assert view.legal_bids == ()
    assert view.restrict_last_bid is RestrictLastBid.ALWAYS


def test_public_fields_are_the_same_for_every_seat() -> None:
    game = game_in_bidding()
    bid_all(game, [1, 0, 2, 0])
    game.play(0, c("5H"))
    views = [seat_view(game, s) for s in range(4)]
    private = {"seat", "hand", "legal_cards", "legal_bids", "forbidden_bid"}
    public = [f.name for f in dataclasses.fields(SeatView) if f.name not in private]
    for view in views[1:]:
        for name in public:
            assert getattr(view, name) == getattr(views[0], name), name
    assert views[0].trump_card == c("7S")
    assert views[0].dealer == 3 and views[0].round == 3


def test_finished_rounds_show_their_hands_in_history() -> None:
    game = game_in_bidding()
    bid_all(game, [0, 0, 0, 0])
    while game.phase is Phase.PLAY:
        game.play(game.turn, game.legal_plays()[0])
    view = seat_view(game, 2)
    assert view.history[-1].round == 3
    assert view.history[-1].hands == tuple(tuple(h) for h in HANDS)
    assert view.hand == ()


@pytest.mark.parametrize("seat", [-1, 4, 10, True, 1.0, "1", None])
def test_a_view_of_a_seat_that_does_not_exist_is_refused(seat: object) -> None:
    game = game_in_bidding()
    with pytest.raises(ValueError):
        seat_view(game, seat)  # type: ignore[arg-type]


def test_the_fast_constructor_makes_the_same_view_field_for_field() -> None:
    # ``seat_view`` builds views positionally through ``new_seat_view``: every field must
    # land where the dataclass's own constructor puts it.
    game = game_in_bidding()
    for seat in range(game.players):
        view = seat_view(game, seat)
        values = {f.name: getattr(view, f.name) for f in dataclasses.fields(SeatView)}
        assert view == SeatView(**values)
        assert new_seat_view(*values.values()) == view
        distinct = {name: object() for name in values}
        made = new_seat_view(*distinct.values())
        assert all(getattr(made, name) is marker for name, marker in distinct.items())
    assert sorted(view.hand) == list(game.hand(seat)) and view.turn == game.turn
    with pytest.raises(dataclasses.FrozenInstanceError):
        made.seat = 1  # type: ignore[misc]
