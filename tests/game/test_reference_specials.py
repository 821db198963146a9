"""The special cards' reference (reference_specials.py) against cases worked out by hand from
docs/rules.md, "Special cards": the reference is only worth checking the engine against if it
says what the page says.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from wizard_tui.game.actions import (
    AdjustBid,
    Bid,
    Declare,
    NameTrump,
    PassCard,
    Play,
    SwapCard,
)
from wizard_tui.game.cards import Suit
from wizard_tui.game.specials import Declaration, Special, deck_cards

from .helpers import c
from .reference_specials import (
    BOMB,
    CHOOSE,
    JESTER,
    SUIT,
    WITCH,
    RefGame,
    declarations_for,
    led_suit,
    legal_cards,
    read,
    score,
    take,
    trump_of,
    vampire_copy,
)

DRG, FRY, BMB, WLF, JGL, CLD, SHP, WCH, VMP = (int(s) for s in Special)
C, D, H, S = 0, 1, 2, 3
WIZ, JES = int(Declaration.WIZARD), int(Declaration.JESTER)


def trick(plays: Sequence[tuple[int, int | None]], turned: int = 0) -> list:
    return [read(card, choice, turned) for card, choice in plays]


def names(text: str, turned: int = 0) -> list:
    """A trick from names: ``7H``, ``W1``, ``J1``, ``DRG``, ``JGL:H`` (declared hearts),
    ``SHP:W`` / ``SHP:J``."""
    specials = {s.short_name: int(s) for s in Special}
    plays: list[tuple[int, int | None]] = []
    for word in text.split():
        name, _, declared = word.partition(":")
        card = specials[name] if name in specials else c(name)
        choice = None
        if declared:
            choice = {"W": WIZ, "J": JES}.get(declared, "CDHS".find(declared))
        plays.append((card, choice))
    return trick(plays, turned)


# "Who takes a trick", its four steps, the Bomb and the equal cards; trump hearts unless given.
TAKES = [
    # 1. a Dragon: the first Fairy if there is one, else the first Dragon
    ("W1 DRG 13H", H, 1, False),
    ("DRG W1 FRY", H, 2, False),
    ("FRY DRG W1", H, 0, False),
    ("DRG 2C", None, 0, False),
    # 2. the first Wizard; a Shapeshifter declared a Wizard is one
    ("5C W1 W2", H, 1, False),
    ("SHP:W W1", H, 0, False),
    ("W1 SHP:W", H, 0, False),
    ("SHP:J 2C 3C", None, 2, False),
    # 3. the highest trump, else the highest card of the led suit
    ("FRY 5C 3C", None, 1, False),
    ("WCH 2C 13D", None, 1, False),
    ("7H JGL:H 8H", None, 2, False),
    ("7H JGL:H 3H", None, 1, False),
    ("13H JGL:C", C, 1, False),  # the Juggler named trump is a trump
    ("JGL:S 13H 2S", None, 0, False),  # led, it sets the led suit; 7½ beats the 2
    ("10D CLD:D 9D", None, 0, False),
    ("9D CLD:D 9H", None, 1, False),
    ("CLD:D 13C 10D", None, 2, False),
    # 4. no suit card: the first Jester, else the first Fairy, else the Witch
    ("FRY J1 J2", H, 1, False),
    ("WCH FRY J1", H, 2, False),
    ("WCH FRY", H, 1, False),
    ("J1 J2 J3", H, 0, False),
    # the Bomb: nobody takes it; the seat the steps name leads next
    ("BMB 5C 7C", H, 2, True),
    ("5C BMB 7H", H, 2, True),
    ("J1 BMB FRY", H, 0, True),  # a Bomb trick with no suit card
    ("BMB FRY WCH", H, 1, True),
    ("BMB WCH 2C", H, 2, True),
    ("W1 BMB DRG FRY", H, 3, True),
]


@pytest.mark.parametrize(("text", "trump", "index", "bombed"), TAKES)
def test_who_takes_a_trick(text: str, trump: int | None, index: int, bombed: bool) -> None:
    assert take(names(text), trump) == (index, bombed)


# The Vampire copies the turned card; of two equal cards the first played takes.
VAMPIRE_TAKES = [
    ("9H VMP", c("9H"), None, 0),
    ("VMP 9H", c("9H"), None, 0),
    ("2H VMP 9H", c("9H"), None, 1),
    ("2H VMP 3S", c("9H"), S, 2),  # the copy is a heart, not a trump
    ("VMP 2C", WLF, None, 1),  # copying a Werewolf: a Jester
    ("VMP 2C", VMP, None, 1),  # itself turned up (a Werewolf took it): a Jester
    ("VMP W1", DRG, None, 0),  # a Dragon
    ("VMP DRG FRY", DRG, None, 2),  # the Fairy beats the copied Dragon too
    ("2C VMP", c("W1"), None, 1),
    ("J1 VMP", c("J2"), None, 0),
]


@pytest.mark.parametrize(("text", "turned", "trump", "index"), VAMPIRE_TAKES)
def test_the_vampire_takes_as_its_copy(
    text: str, turned: int, trump: int | None, index: int
) -> None:
    assert take(names(text, turned), trump) == (index, False)


def test_the_vampire_copies_a_card_with_its_declaration_and_effect() -> None:
    assert vampire_copy(c("5H")) == c("5H")
    assert vampire_copy(WLF) == vampire_copy(VMP) == 56  # a Jester
    assert declarations_for(VMP, JGL) == (0, 1, 2, 3)
    assert declarations_for(VMP, CLD) == (0, 1, 2, 3)
    assert declarations_for(VMP, SHP) == (WIZ, JES)
    assert declarations_for(VMP, c("5H")) == declarations_for(VMP, WLF) == ()
    assert read(VMP, 2, JGL).effect is Special.JUGGLER and read(VMP, 2, JGL).rank == 7.5
    assert read(VMP, 1, CLD).effect is Special.CLOUD
    assert read(VMP, None, WCH).kind == WITCH and read(VMP, None, WCH).effect is Special.WITCH
    assert read(VMP, None, BMB).kind == BOMB
    assert read(VMP, JES, SHP).kind == JESTER
    assert read(VMP, None, c("5H")) == read(c("5H"), None, 0)
    assert declarations_for(c("5H"), JGL) == declarations_for(WCH, JGL) == ()


LED = [
    ("J1 W1 5H", None),
    ("J1 J2 5H", H),
    ("FRY BMB WCH 5H", H),  # Fairies, Bombs and Witches set nothing
    ("DRG 5H", None),  # a led Dragon is like a led Wizard
    ("SHP:W 5H", None),
    ("SHP:J 5H", H),
    ("JGL:D 5H", D),
    ("CLD:S W1", S),
    ("", None),
]


@pytest.mark.parametrize(("text", "led"), LED)
def test_the_led_suit(text: str, led: int | None) -> None:
    assert led_suit(names(text)) == led


LEGAL = [
    ("5H 2C JGL W1", "3H", "5H JGL W1"),  # specials may always be played
    ("2C VMP", "3H", "2C VMP"),  # a Vampire in hand is of no suit: void in hearts
    ("2C 5D", "JGL:C", "2C"),  # the Juggler named clubs leads clubs
    ("2C 5D WCH", "FRY", "2C 5D WCH"),
    ("2C 5D", "DRG 5D", "2C 5D"),
    ("2C 5D BMB", "FRY J1 5D", "5D BMB"),
    ("2C 5D CLD", "SHP:J 2H", "2C 5D CLD"),
]


@pytest.mark.parametrize(("hand", "played", "legal"), LEGAL)
def test_legal_cards(hand: str, played: str, legal: str) -> None:
    def ids(text: str) -> set[int]:
        specials = {s.short_name: int(s) for s in Special}
        return {specials[w] if w in specials else c(w) for w in text.split()}

    assert legal_cards(sorted(ids(hand)), names(played)) == ids(legal)


@pytest.mark.parametrize(
    ("turned", "trump"),
    [
        (c("5H"), H),
        (c("13C"), C),
        (c("J1"), None),
        (c("W1"), CHOOSE),
        *[(card, CHOOSE) for card in (DRG, WLF, JGL, CLD, SHP, VMP)],
        *[(card, None) for card in (FRY, BMB, WCH)],
    ],
)
def test_trump_from_the_turned_card(turned: int, trump: int | str | None) -> None:
    assert trump_of(turned) == trump


def test_score() -> None:
    assert [score(0, 0), score(2, 2), score(2, 0), score(0, 3)] == [20, 40, -20, -30]


def test_reading_of_the_declared_cards() -> None:
    assert read(JGL, H, 0) == read(JGL, H, 5)
    assert read(JGL, H, 0).kind == SUIT and read(JGL, H, 0).suit == H
    assert read(CLD, S, 0).rank == 9.75


# ------------------------------------------------------------ whole rounds of RefGame


def special_deck(
    specials: Sequence[Special],
    players: int,
    dealer: int,
    hands: Sequence[Sequence[int]],
    turned: int,
) -> list[int]:
    """A deck of ``deck_cards(specials)`` that deals ``hands`` and turns ``turned``."""
    n, h = players, len(hands[0])
    deck: list[int | None] = [None] * len(deck_cards(specials))
    for seat, hand in enumerate(hands):
        for k, card in enumerate(hand):
            deck[k * n + (seat - dealer - 1) % n] = card
    deck[n * h] = turned
    rest = iter(x for x in deck_cards(specials) if x not in deck)
    return [x if x is not None else next(rest) for x in deck]


def run(game: RefGame, actions: Sequence[object]) -> None:
    for action in actions:
        game.apply(action)


def test_the_werewolf_takes_the_turned_card_and_names_trump() -> None:
    # 3 players, round 1 dealt by seat 2: a Wizard turned, but the Werewolf's holder names
    game = RefGame(3, 2, [1, 2])
    game.deal(special_deck([Special.WEREWOLF], 3, 2, [[c("5C")], [WLF], [c("7C")]], c("W1")))
    assert (game.phase, game.turn) == ("name_trump", 1)  # not the dealer's choice
    assert game.hands[1] == [c("W1")] and game.trump_card == WLF  # it names from its new hand
    assert NameTrump(1, None) in game.legal_actions()
    assert len(game.legal_actions()) == 5
    game.apply(NameTrump(1, None))
    assert game.hands[1] == [c("W1")] and game.trump_card == WLF and game.trump is None
    assert (game.phase, game.turn) == ("bid", 0)


def test_a_werewolf_turned_up_asks_the_dealer() -> None:
    game = RefGame(3, 0, [1])
    game.deal(special_deck([Special.WEREWOLF], 3, 0, [[c("5C")], [c("6C")], [c("7C")]], WLF))
    assert (game.phase, game.turn) == ("choose_trump", 0)


def test_a_round_with_cloud_juggler_and_witch() -> None:
    """3 players, a round of 2 cards, dealer 0 (seat 1 leads), trump hearts (5H turned).
    Trick 1: seat 1 leads the Juggler named clubs, seat 2 the Cloud named clubs, seat 0 the
    Witch: the Cloud (9¾) takes it. Seat 2 bid 0, so its bid goes to 1 by itself; then all
    pass, from seat 2 (it leads next); then seat 0 swaps."""
    specials = [Special.JUGGLER, Special.CLOUD, Special.WITCH]
    hands = [[WCH, c("2S")], [JGL, c("3S")], [CLD, c("4S")]]
    game = RefGame(3, 0, [2])
    game.deal(special_deck(specials, 3, 0, hands, c("5H")))
    assert game.trump == H
    run(game, [Bid(1, 1), Bid(2, 0), Bid(0, 2)])
    assert game.legal_actions() == {Play(1, JGL), Play(1, c("3S"))}
    game.apply(Play(1, JGL))
    assert game.phase == "declare"
    assert game.legal_actions() == {Declare(1, d) for d in range(4)}
    run(game, [Declare(1, C), Play(2, CLD), Declare(2, C), Play(0, WCH)])
    assert game.done[-1].next_leader == 2 and not game.done[-1].bombed
    assert game.bids == [2, 1, 1]  # the Cloud's taker, at 0: up to 1, made for it
    assert game.declared == [(0, 1, C), (0, 2, C)]
    assert (game.phase, game.turn) == ("pass", 2)
    run(game, [PassCard(2, c("4S")), PassCard(0, c("2S"))])
    assert game.hands[1] == [c("3S")]  # nothing moves until all have chosen
    game.apply(PassCard(1, c("3S")))
    assert game.hands == [[c("4S")], [c("2S")], [c("3S")]]
    assert game.last_pass == {0: (c("2S"), c("4S")), 1: (c("3S"), c("2S")), 2: (c("4S"), c("3S"))}
    assert (game.phase, game.turn) == ("swap", 0)
    assert game.swap_takes() == {JGL, CLD}  # not the Witch itself
    assert len(game.legal_actions()) == 3  # keep, or give 4S for either
    game.apply(SwapCard(0, c("4S"), CLD))
    assert game.hands[0] == [CLD]
    assert (game.phase, game.turn) == ("play", 2)
    # Trick 2: seat 2 leads 3S, seat 0 the Cloud again (named spades), seat 1 the 2S.
    run(game, [Play(2, c("3S")), Play(0, CLD), Declare(0, S)])
    assert game.legal_actions() == {Play(1, c("2S"))}
    game.apply(Play(1, c("2S")))
    # The Cloud (9¾ of spades) takes; seat 0 bid 2 of 2 cards: down to 1, by itself.
    assert game.phase == "game_over"
    assert game.rounds[-1].bids == (1, 1, 1)
    assert game.rounds[-1].tricks_won == (1, 0, 1)
    assert game.rounds[-1].points == (30, -10, 30)


def test_the_cloud_asks_when_both_ways_are_open() -> None:
    hands = [[c("2S"), c("2D")], [CLD, c("3D")], [c("4S"), c("4D")]]
    game = RefGame(3, 0, [2])
    game.deal(special_deck([Special.CLOUD], 3, 0, hands, c("5H")))
    run(game, [Bid(1, 1), Bid(2, 0), Bid(0, 0), Play(1, CLD), Declare(1, S)])
    run(game, [Play(2, c("4S")), Play(0, c("2S"))])
    assert (game.phase, game.turn) == ("adjust_bid", 1)
    assert game.legal_actions() == {AdjustBid(1, 0), AdjustBid(1, 2)}
    game.apply(AdjustBid(1, 2))
    assert (game.phase, game.turn) == ("play", 1)
    run(game, [Play(1, c("3D")), Play(2, c("4D")), Play(0, c("2D"))])
    assert game.rounds[-1].bids == (0, 2, 0)
    assert game.rounds[-1].points == (20, -10, -10)


def test_a_bombed_trick_counts_for_nobody() -> None:
    """3 players, 1 card, dealer 0: seat 1 leads 5C, seat 2 the Bomb, seat 0 the 7C. The 7C
    would take it: nobody does, and a bid of 0 is made by all."""
    hands = [[c("7C")], [c("5C")], [BMB]]
    game = RefGame(3, 0, [1])
    game.deal(special_deck([Special.BOMB], 3, 0, hands, c("5H")))
    run(game, [Bid(1, 1), Bid(2, 0), Bid(0, 0), Play(1, c("5C")), Play(2, BMB), Play(0, c("7C"))])
    assert game.done[-1].next_leader == 0 and game.done[-1].bombed
    assert game.rounds[-1].tricks_won == (0, 0, 0)
    assert game.rounds[-1].points == (20, -10, 20)


def test_the_restricted_last_bid_counts_every_card() -> None:
    hands = [[c("7C")], [c("5C")], [BMB]]
    game = RefGame(3, 0, [1], restricted="always")
    game.deal(special_deck([Special.BOMB], 3, 0, hands, c("5H")))
    run(game, [Bid(1, 0), Bid(2, 0)])
    assert game.legal_actions() == {Bid(0, 0)}


def test_a_vampire_copying_the_witch_swaps_too() -> None:
    """The turned Witch, taken into a hand by the Werewolf, and the Vampire copying it are two
    Witches: two swaps after the trick, in play order, each keeping its own card."""
    specials = [Special.WEREWOLF, Special.WITCH, Special.VAMPIRE]
    hands = [[c("2S"), c("2D")], [WLF, c("3D")], [VMP, c("4D")]]
    game = RefGame(3, 0, [2])
    game.deal(special_deck(specials, 3, 0, hands, WCH))
    run(game, [NameTrump(1, Suit.SPADES), Bid(1, 0), Bid(2, 0), Bid(0, 0)])
    assert game.hands[1] == [WCH, c("3D")]  # in the Werewolf's place
    run(game, [Play(1, WCH), Play(2, VMP), Play(0, c("2S"))])
    assert game.done[-1].next_leader == 0  # the 2 of spades, the one suit card
    assert (game.phase, game.turn) == ("swap", 1)
    assert game.swap_takes() == {VMP, c("2S")}
    game.apply(SwapCard(1, c("3D"), VMP))
    assert (game.phase, game.turn) == ("swap", 2)
    assert game.swap_takes() == {WCH, c("2S"), c("3D")}  # the Vampire is gone from it
    game.apply(SwapCard(2, None, None))
    assert (game.phase, game.turn) == ("play", 0)
    assert game.hands[1] == [VMP]
