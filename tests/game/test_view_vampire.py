"""``SeatView.vampire_copies``: what the Vampire plays as this round, decided by the engine's
rule (docs/rules.md, "The Vampire") so the table only draws it."""

from __future__ import annotations

import pytest

from wizard_tui.game import Game, GameConfig, seat_view
from wizard_tui.game.specials import Special

from .special_decks import ALL, card, special_game

HANDS = [[card("2C"), card("3C")], [card("4C"), card("5C")], [card("6C"), card("7C")]]


@pytest.mark.parametrize(
    ("turned", "copies"),
    [
        ("9H", "9H"),  # a suit card: that card
        ("W", "W"),
        ("J", "J"),
        ("DRG", "DRG"),  # a special card: that card, with its effect
        ("JGL", "JGL"),
        ("WLF", "J"),  # a Werewolf never goes into a trick: nothing to copy, a Jester
        ("VMP", "J"),  # the Vampire turned up itself: a Jester
    ],
)
def test_the_view_says_what_the_vampire_copies(turned: str, copies: str) -> None:
    game = special_game(HANDS, card(turned))
    for seat in range(3):
        assert seat_view(game, seat).vampire_copies == card(copies)


def test_a_vampire_taken_by_the_werewolf_copies_nothing() -> None:
    # The Werewolf's holder takes the turned-up Vampire into hand: it plays as a Jester.
    hands = [HANDS[0], [card("4C"), card("WLF")], HANDS[2]]
    game = special_game(hands, card("VMP"))
    assert game.turned_card == int(Special.VAMPIRE)
    assert seat_view(game, 1).vampire_copies == card("J")


def test_nothing_is_copied_without_the_vampire_in_the_deck() -> None:
    game = special_game(HANDS, card("9H"), specials=ALL - {Special.VAMPIRE})
    assert seat_view(game, 0).vampire_copies is None
    plain = Game(GameConfig(3, 2))
    plain.deal(tuple(range(60)))
    assert seat_view(plain, 0).vampire_copies is None
