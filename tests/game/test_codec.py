"""The one wire form of a seat's action, and the dealer rotation, kept in the rules package."""

from __future__ import annotations

import pytest

from wizard_tui.game import (
    Bid,
    ChooseTrump,
    Play,
    Suit,
    action_from_wire,
    action_to_wire,
    dealer_of,
    left_of,
)


@pytest.mark.parametrize(
    ("action", "wire"),
    [
        (Bid(2, 3), ["bid", 2, 3]),
        (Play(0, 59), ["play", 0, 59]),
        (ChooseTrump(1, Suit(2)), ["trump", 1, 2]),
    ],
)
def test_an_action_round_trips(action: object, wire: list[object]) -> None:
    assert action_to_wire(action) == wire  # type: ignore[arg-type]  # the parametrize mixes kinds
    assert action_from_wire(wire) == action


@pytest.mark.parametrize("wire", [["pass", 0, 0], ["bid", 0], None, "bid", ["trump", 0, 9]])
def test_anything_else_is_a_value_error(wire: object) -> None:
    with pytest.raises(ValueError):
        action_from_wire(wire)  # type: ignore[arg-type]


def test_the_deal_passes_left_each_round() -> None:
    assert [dealer_of(2, r, 4) for r in range(1, 7)] == [2, 3, 0, 1, 2, 3]
    assert left_of(5, 6) == 0 and left_of(0, 3) == 1
