"""Who takes a trick with the special cards, and what may be played (docs/rules.md,
"Special cards": "Who takes a trick", the led suit, "A special card may always be played").
One row per case: the cards in play order (seat 0 leads), declarations after a colon
(``JGL:H`` a Juggler naming hearts, ``SHP:W`` a Shapeshifter as a Wizard), the card turned up
(the Vampire copies it; a card asking the dealer for a suit gets hearts), and who takes it."""

from __future__ import annotations

import pytest

from wizard_tui.game import IllegalAction, Phase, Reason

from .special_decks import card, cards, play, special_game

# (cards in play order, turned-up card, position of the card that takes it, bombed)
TRICKS = [
    # Trump is hearts (the 1 of hearts, or a card asking the dealer, who names hearts).
    ("DRG W1 13H", "1H", 0, False),  # the Dragon over every Wizard
    ("W1 DRG 13H", "1H", 1, False),
    ("DRG FRY 5C", "1H", 1, False),  # the Fairy takes a trick with a Dragon in it
    ("FRY DRG 5C", "1H", 0, False),
    ("FRY 5C J1", "1H", 1, False),  # the Fairy is the lowest card; 5C sets clubs after it
    ("FRY J1 J2", "1H", 1, False),  # below the Jesters
    ("FRY WCH J1", "1H", 2, False),  # only cards without rank: the first Jester
    ("WCH FRY SHP:J", "1H", 2, False),  # a Shapeshifter declared a Jester is a Jester
    ("WCH FRY 2C", "1H", 2, False),
    ("WCH FRY BMB", "1H", 1, True),  # no Jester: the first Fairy; bombed, it leads next
    ("BMB 13H 5C", "1H", 1, True),  # a Bomb: nobody takes it, the trump leads next
    ("5C BMB 7C", "1H", 2, True),
    ("BMB FRY J1", "1H", 2, True),  # a Bomb trick with no suit card (the open question)
    ("BMB WCH 5C", "1H", 2, True),
    ("DRG BMB 5C", "1H", 0, True),
    ("JGL:C 8C 7C", "1H", 1, False),  # the Juggler is a 7½
    ("JGL:C 7C 6C", "1H", 0, False),
    ("5C JGL:H 13C", "1H", 1, False),  # named hearts, it is a trump
    ("JGL:D 5C 13C", "1H", 0, False),  # led, it sets the led suit (diamonds)
    ("CLD:C 10C 9C", "1H", 1, False),  # the Cloud is a 9¾
    ("CLD:C 9C 2C", "1H", 0, False),
    ("5S CLD:H 13S", "1H", 1, False),
    ("SHP:W 13H W1", "1H", 0, False),  # declared a Wizard: the first Wizard
    ("J1 SHP:W 13H", "1H", 1, False),
    ("SHP:J 2C 3C", "1H", 2, False),  # declared a Jester: the next card sets the suit
    ("5C 2H 13C", "1H", 1, False),
    ("W1 W2 DRG FRY", "1H", 3, False),
    ("WCH 2C 3C 4D", "1H", 2, False),  # the Witch has no rank
    # The Vampire copies the card turned up. ``5H*``: a Werewolf took it into the hand of
    # the seat that plays it here (and named hearts), so it can be in the trick with its copy.
    ("VMP 5H 4H", "5H*", 0, False),  # two equal cards: the first played
    ("5H VMP 4H", "5H*", 0, False),
    ("4H VMP 6H", "5H", 2, False),
    ("VMP 13S W1", "W2", 0, False),  # a copy of a Wizard
    ("VMP 2C 3C", "J", 2, False),  # a copy of a Jester
    ("W1 VMP 13H", "DRG", 1, False),  # a copy of the Dragon
    ("VMP FRY 5C", "DRG", 1, False),
    ("DRG VMP W1", "DRG*", 0, False),  # two Dragons: the first
    ("DRG VMP FRY", "FRY*", 1, False),  # a copy of the Fairy: the first Fairy takes it
    ("VMP 2C J1", "FRY", 1, False),
    ("13C VMP 2C", "BMB", 0, True),  # a copy of the Bomb bombs the trick
    ("VMP WCH FRY", "WCH*", 2, False),  # a copy of the Witch: the Fairy comes first
    ("VMP WCH BMB", "WCH*", 0, True),  # only Witches: the first of them
    ("VMP:C 8C 7C", "JGL", 1, False),  # a copy of the Juggler declares a suit: 7½
    ("JGL:C VMP:C 5C", "JGL*", 0, False),  # two equal 7½s: the first
    ("VMP:C 9C 10C", "CLD", 2, False),  # 9¾
    ("VMP:W 13H W1", "SHP", 0, False),  # a copy of the Shapeshifter
    ("VMP:J 2C 3C", "SHP", 2, False),
    ("VMP 2C 3C", "WLF", 2, False),  # a turned-up Werewolf: nothing to copy, a Jester
]


@pytest.mark.parametrize(
    ("trick", "turned", "taker", "bombed"), TRICKS, ids=[t[0] + " / " + t[1] for t in TRICKS]
)
def test_who_takes_the_trick(trick: str, turned: str, taker: int, bombed: bool) -> None:
    played = cards(trick)
    n = len(played)
    up = card(turned.rstrip("*"))
    dealt = [[card("WLF") if x == up and turned.endswith("*") else x] for x in played]
    game = special_game(dealt, up, dealer=n - 1, trump=2)
    play(game, trick)
    (done,) = game.tricks
    assert done.cards == tuple(played)
    assert (done.winner, done.bombed) == (taker, bombed)
    assert game.tricks_won == [0 if bombed or s != taker else 1 for s in range(n)]
    result = game.results[-1]
    assert result.tricks[0].bombed is bombed
    assert sum(result.tricks_won) == (0 if bombed else 1)


def test_a_vampire_plays_as_a_jester_when_a_werewolf_took_it() -> None:
    # The Vampire is turned up; seat 0 holds the Werewolf, lays it down and takes the Vampire.
    game = special_game([[card("WLF")], [card("2C")], [card("3C")]], card("VMP"), trump=None)
    assert game.hand(0) == (card("VMP"),)
    play(game, "VMP 2C 3C")
    assert game.tricks[0].winner == 2


# (the trick so far, the hand of the seat to play, what it may play)
FOLLOW = [
    ("5C", "2C DRG 3H", "2C DRG"),  # a special card may always be played
    ("5C", "3H JGL", "3H JGL"),  # and holding one obliges to nothing
    ("JGL:C", "2C 3H", "2C"),  # a led Juggler sets its suit
    ("CLD:D", "2D 3H", "2D"),
    ("DRG", "2C 3H", "2C 3H"),  # a led Dragon: nothing led
    ("FRY", "2C 3H", "2C 3H"),  # a led Fairy: open, the next card sets the suit
    ("FRY 2C", "4C 3H", "4C"),
    ("BMB", "2C 3H", "2C 3H"),
    ("BMB 3H", "2C 4H", "4H"),
    ("WCH", "2C 3H", "2C 3H"),
    ("SHP:W", "2C 3H", "2C 3H"),  # a Wizard led: nothing led
    ("SHP:J 3H", "2C 4H", "4H"),  # a Jester led: the next card sets it
    ("J1 DRG", "2C 3H", "2C 3H"),
    ("J1 JGL:S", "2S 3H WCH", "2S WCH"),
    ("4H", "VMP 3C", "3C VMP"),  # the Vampire in hand belongs to no suit
    ("VMP", "2H 3C", "2H"),  # played, it is the 5 of hearts it copies: hearts led
]


@pytest.mark.parametrize(
    ("trick", "hand", "legal"), FOLLOW, ids=[f"{t} / {h}" for t, h, _ in FOLLOW]
)
def test_what_may_be_played(trick: str, hand: str, legal: str) -> None:
    before = trick.split()
    mine = cards(hand)
    size = len(mine)
    # Seat k plays trick card k; the seat after them holds ``hand``; fillers pad the hands.
    fillers = iter(c for c in cards("13S 12S 11S 10S 9S 8S 7S 6S 13D 12D 11D 10D") if c not in mine)
    hands = [[card(x)] + [next(fillers) for _ in range(size - 1)] for x in before]
    hands.append(mine)
    while len(hands) < 3:
        hands.append([next(fillers) for _ in range(size)])
    game = special_game(hands, card("5H"), dealer=len(hands) - 1)
    play(game, trick)
    assert game.turn == len(before)
    assert set(game.legal_plays()) == set(cards(legal))
    for x in mine:
        if x in cards(legal):
            continue
        with pytest.raises(IllegalAction) as refused:
            game.apply(type(game.legal_actions()[0])(game.turn, x))  # a Play
        assert refused.value.reason is Reason.MUST_FOLLOW_SUIT


# (the trick so far, the led suit it shows: a suit, or None)
LED = [
    ("J1 FRY BMB", None),
    ("J1 FRY WCH 2D", 1),
    ("DRG 2D", None),
    ("JGL:S 2D", 3),
    ("SHP:W 2D", None),
]


@pytest.mark.parametrize(("trick", "led"), LED, ids=[t for t, _ in LED])
def test_the_led_suit(trick: str, led: int | None) -> None:
    played = cards(trick)
    hands = [[x] for x in played] + [[card("13S")]]
    game = special_game(hands, card("5H"), dealer=len(hands) - 1)
    play(game, trick)
    assert game.phase is Phase.PLAY
    assert game.led_suit == led
