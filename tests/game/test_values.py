"""``values.Value``, the base of the actions, events, ``RoundResult`` and ``GameConfig``,
behaves as the ``@dataclass(frozen=True, slots=True)`` classes it replaced: each case is
checked against a real frozen slotted dataclass with the same fields."""

from __future__ import annotations

import copy
import dataclasses
import pickle
from typing import Any

import pytest

from wizard_tui.game import (
    Bid,
    BidMade,
    CardPlayed,
    ChooseTrump,
    Deal,
    GameConfig,
    GameOver,
    Play,
    RestrictLastBid,
    RoundDealt,
    RoundResult,
    RoundScored,
    Suit,
    TableRules,
    Trick,
    TrickWon,
    TrumpChosen,
)
from wizard_tui.game.values import Value

EXAMPLES: list[Any] = [
    Deal(tuple(range(60))),
    ChooseTrump(2, Suit.HEARTS),
    Bid(1, 3),
    Play(0, 51),
    RoundDealt(3, 1, 52, None, True),
    TrumpChosen(1, Suit.SPADES),
    BidMade(2, 0),
    CardPlayed(3, 7),
    TrickWon(0, 2, ((1, 5), (2, 9), (0, 3))),
    RoundScored(1, (1, 0, 0), (1, 0, 0), (30, 20, 20), (30, 20, 20)),
    GameOver((30, 20, 20), (0,)),
    RoundResult(
        1,
        0,
        ((5,), (9,), (3,)),
        12,
        Suit.CLUBS,
        (1, 0, 0),
        (Trick(1, (5, 9, 3), 2),),
        (0, 0, 1),
        (-10, 20, 10),
        (-10, 20, 10),
    ),
    GameConfig(4, 2, RestrictLastBid.ALWAYS),
]


def dataclass_twin(value: Value) -> Any:
    """A frozen slotted dataclass with ``value``'s class name and fields, holding its values."""
    cls = type(value)
    twin = dataclasses.make_dataclass(
        cls.__name__, cls.__match_args__, frozen=True, slots=True, namespace={}
    )
    twin.__qualname__ = cls.__qualname__
    return twin(*(getattr(value, name) for name in cls.__match_args__))


@pytest.mark.parametrize("value", EXAMPLES, ids=lambda v: type(v).__name__)
def test_behaves_like_a_frozen_slotted_dataclass(value: Value) -> None:
    twin = dataclass_twin(value)
    cls = type(value)
    assert repr(value) == repr(twin)
    assert hash(value) == hash(twin)
    assert cls.__match_args__ == type(twin).__match_args__
    assert cls.__slots__ == type(twin).__slots__
    assert not hasattr(value, "__dict__")
    # Equal to a copy of itself, to nothing of another class, even with equal fields.
    values = [getattr(value, name) for name in cls.__match_args__]
    same = cls(*values)
    assert same == value and same is not value
    assert (same != value) is False
    assert hash(same) == hash(value)
    assert value != twin and value != tuple(values)
    # By keyword too.
    assert cls(**dict(zip(cls.__match_args__, values, strict=True))) == value
    # Frozen: every attribute, a field or not.
    for name in (*cls.__match_args__, "other"):
        with pytest.raises(dataclasses.FrozenInstanceError):
            setattr(value, name, 1)
        with pytest.raises(dataclasses.FrozenInstanceError):
            delattr(value, name)
    # Pickled (the bots' worker processes) and copied.
    for other in (pickle.loads(pickle.dumps(value)), copy.copy(value), copy.deepcopy(value)):
        assert other == value and type(other) is cls


def test_match_by_position_and_keyword() -> None:
    match Play(1, 30):
        case Bid():
            raise AssertionError("a Play is not a Bid")
        case Play(seat, card=card):
            assert (seat, card) == (1, 30)
        case _:
            raise AssertionError("no match")


def test_wrong_arguments_are_type_errors() -> None:
    for call in (
        lambda: Play(1),
        lambda: Play(1, 2, 3),
        lambda: Play(1, seat=2),
        lambda: Play(1, cards=2),
        lambda: Play(card=2),
    ):
        with pytest.raises(TypeError):
            call()


def test_game_config_checks_and_converts_like_before() -> None:
    assert GameConfig(3, 0).restrict_last_bid is RestrictLastBid.NEVER
    converted = GameConfig(4, 1, "after-round-1")  # type: ignore[arg-type]
    assert converted.restrict_last_bid is RestrictLastBid.AFTER_ROUND_1
    assert converted == GameConfig(
        players=4, first_dealer=1, rules=TableRules(RestrictLastBid.AFTER_ROUND_1)
    )
    for bad in [(2, 0), (7, 0), (4, 4), (4, -1), (4, True), (4, 0, "sometimes")]:
        with pytest.raises(ValueError):
            GameConfig(*bad)  # type: ignore[arg-type]
