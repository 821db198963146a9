"""The trump card and the Werewolf with special cards (docs/rules.md, "The trump card",
"The Werewolf", "The Vampire")."""

from __future__ import annotations

import pytest

from wizard_tui.game import (
    Game,
    GameConfig,
    IllegalAction,
    Phase,
    Reason,
    Suit,
    TableRules,
    seat_view,
)
from wizard_tui.game.actions import Bid, ChooseTrump, Deal, NameTrump, Play, RoundDealt, TrumpNamed
from wizard_tui.game.specials import Special

from .special_decks import ALL, card, special_deck

HANDS = [[card("2C"), card("3C")], [card("4C"), card("5C")], [card("6C"), card("7C")]]

# (turned-up card, the phase after the deal, the trump before anyone chooses)
TURNED = [
    ("5H", Phase.BID, Suit.HEARTS),
    ("9S", Phase.BID, Suit.SPADES),
    ("W1", Phase.CHOOSE_TRUMP, None),
    ("J1", Phase.BID, None),
    ("DRG", Phase.CHOOSE_TRUMP, None),  # ranks: the dealer names a suit
    ("WLF", Phase.CHOOSE_TRUMP, None),  # turned up, nobody swaps: the dealer names
    ("JGL", Phase.CHOOSE_TRUMP, None),
    ("CLD", Phase.CHOOSE_TRUMP, None),
    ("SHP", Phase.CHOOSE_TRUMP, None),
    ("VMP", Phase.CHOOSE_TRUMP, None),
    ("FRY", Phase.BID, None),  # ranks nowhere: no trump
    ("BMB", Phase.BID, None),
    ("WCH", Phase.BID, None),
]


def dealt(turned: int, hands: list[list[int]] = HANDS, rules: TableRules | None = None) -> Game:
    rules = rules or TableRules(specials=ALL, rounds=(len(hands[0]),))
    game = Game(GameConfig(3, 2, rules))
    game.deal(special_deck(3, 2, hands, turned))
    return game


@pytest.mark.parametrize(("turned", "phase", "trump"), TURNED, ids=[t[0] for t in TURNED])
def test_the_turned_up_card_makes_trump(turned: str, phase: Phase, trump: Suit | None) -> None:
    game = dealt(card(turned))
    assert (game.phase, game.trump_suit) == (phase, trump)
    assert game.turn == (2 if phase is Phase.CHOOSE_TRUMP else 0)
    assert game.trump_card == game.turned_card == card(turned)
    if phase is Phase.CHOOSE_TRUMP:
        game.apply(ChooseTrump(2, Suit.DIAMONDS))
        assert (game.phase, game.trump_suit) == (Phase.BID, Suit.DIAMONDS)


def test_a_trump_card_is_turned_even_in_the_last_round() -> None:
    # 4 players, 15 cards each: all 60 dealt... from a deck of 69, so one is turned up.
    rules = TableRules(specials=ALL, rounds=(15,))
    game = Game(GameConfig(4, 3, rules))
    game.deal(tuple(range(69)))  # position 60 is the Dragon
    assert game.turned_card == int(Special.DRAGON)
    assert game.phase is Phase.CHOOSE_TRUMP


@pytest.mark.parametrize("turned", ["5H", "W1", "J1", "FRY", "VMP"])
@pytest.mark.parametrize("suit", [None, Suit.CLUBS, Suit.SPADES])
def test_the_werewolfs_holder_lays_it_down_takes_the_card_and_names_trump(
    turned: str, suit: Suit | None
) -> None:
    hands = [[card("2C"), card("3C")], [card("4C"), card("WLF")], [card("6C"), card("7C")]]
    up = card(turned)
    events = Game(GameConfig(3, 2, TableRules(specials=ALL, rounds=(2,)))).apply(
        Deal(special_deck(3, 2, hands, up))
    )
    assert events == [RoundDealt(1, 2, up, None, False)]  # the dealer does not choose
    game = dealt(up, hands)
    assert (game.phase, game.turn) == (Phase.NAME_TRUMP, 1)
    assert game.trump_card == int(Special.WEREWOLF)  # on the table in the trump card's place
    assert game.turned_card == up  # the card everyone saw
    assert game.hand(1) == tuple(sorted([card("4C"), up]))
    view = seat_view(game, 1)
    assert view.hand == (card("4C"), up)  # in the Werewolf's place
    assert view.legal_choices == (0, 1, 2, 3, -1)
    assert seat_view(game, 0).legal_choices == ()
    assert seat_view(game, 0).turned_card == up
    assert set(game.legal_actions()) == {NameTrump(1, s) for s in (*Suit, None)}
    assert game.apply(NameTrump(1, suit)) == [TrumpNamed(1, up, suit)]
    assert (game.phase, game.turn, game.trump_suit) == (Phase.BID, 0, suit)
    assert game.results == ()
    # The Werewolf never goes into a trick.
    for seat in (0, 1, 2):
        game.apply(Bid(seat, 0))
    game.apply(Play(0, card("2C")))
    with pytest.raises(IllegalAction) as refused:
        game.apply(Play(1, int(Special.WEREWOLF)))
    assert refused.value.reason is Reason.CARD_NOT_IN_HAND
    assert int(Special.WEREWOLF) not in game.legal_plays()


def test_the_werewolf_replaces_the_dealers_choice() -> None:
    hands = [[card("2C"), card("WLF")], [card("4C"), card("5C")], [card("6C"), card("7C")]]
    game = dealt(card("W1"), hands)
    assert game.phase is Phase.NAME_TRUMP
    with pytest.raises(IllegalAction) as refused:
        game.apply(ChooseTrump(2, Suit.HEARTS))
    assert refused.value.reason is Reason.WRONG_PHASE


@pytest.mark.parametrize(
    ("suit", "reason"),
    [
        (4, Reason.NOT_A_SUIT),
        (-1, Reason.NOT_A_SUIT),
        ("hearts", Reason.NOT_A_SUIT),
        (True, Reason.NOT_A_SUIT),
    ],
)
def test_name_trump_refuses_what_is_not_a_suit_or_none(suit: object, reason: Reason) -> None:
    hands = [[card("2C"), card("WLF")], [card("4C"), card("5C")], [card("6C"), card("7C")]]
    game = dealt(card("W1"), hands)
    with pytest.raises(IllegalAction) as refused:
        game.apply(NameTrump(0, suit))  # type: ignore[arg-type]
    assert refused.value.reason is reason
    with pytest.raises(IllegalAction) as refused:
        game.apply(NameTrump(1, Suit.HEARTS))
    assert refused.value.reason is Reason.NOT_YOUR_TURN
    assert game.phase is Phase.NAME_TRUMP and game.trump_suit is None
