"""Every wrong special-card action is refused with its reason, and changes nothing
(docs/rules.md, "When the engine refuses an action")."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from wizard_tui.game import (
    BLIND_CARD,
    Game,
    GameConfig,
    IllegalAction,
    Phase,
    Reason,
    Suit,
    TableRules,
    seat_view,
)
from wizard_tui.game.actions import (
    Action,
    AdjustBid,
    Bid,
    ChooseTrump,
    Deal,
    Declare,
    NameTrump,
    PassCard,
    Play,
    SwapCard,
)
from wizard_tui.game.specials import Special, deck_cards

from .special_decks import ALL, card, cards, play, special_deck, special_game


def observed(game: Game) -> tuple[object, ...]:
    """Everything a refused action must leave as it was."""
    views = tuple(seat_view(game, s) for s in range(game.players))
    return (game.phase, game.turn, tuple(game.actions), views, game.legal_actions())


def in_declare() -> Game:  # seat 0 has played its Juggler and names a suit
    game = special_game(
        [cards("JGL 2D"), cards("5C 4D"), cards("6C 7D")], card("1H"), bids=[1, 0, 0]
    )
    game.apply(Play(0, card("JGL")))
    assert game.phase is Phase.DECLARE
    return game


def in_declare_shapeshifter() -> Game:
    game = special_game([cards("SHP 2D"), cards("5C 4D"), cards("6C 7D")], card("1H"))
    game.apply(Play(0, card("SHP")))
    return game


def in_adjust() -> Game:  # seat 0 took the Cloud's trick on a bid of 1 of 2: 0 or 2
    game = special_game(
        [cards("CLD 2D"), cards("5C 4D"), cards("4C 7D")], card("1H"), bids=[1, 0, 0]
    )
    play(game, "CLD:C 5C 4C")
    assert game.phase is Phase.ADJUST_BID
    return game


def in_pass() -> Game:  # seat 0 took the Juggler's trick and is first to pass
    game = special_game([cards("JGL 2D 3D"), cards("5C 4D 5D"), cards("6C 6D 7D")], card("1H"))
    play(game, "JGL:C 5C 6C")
    assert game.phase is Phase.PASS
    return game


def in_pass_second() -> Game:  # seat 0 has passed; seat 1 is to pass
    game = in_pass()
    game.apply(PassCard(0, card("2D")))
    return game


def in_swap() -> Game:  # seat 0's Witch; seat 2 took the trick
    game = special_game([cards("WCH 2D"), cards("5C 4D"), cards("6C 7D")], card("1H"))
    play(game, "WCH 5C 6C")
    assert game.phase is Phase.SWAP
    return game


def in_play() -> Game:
    return special_game([cards("2C 2D"), cards("5C 4D"), cards("6C 7D")], card("1H"))


def in_bid() -> Game:
    game = Game(GameConfig(3, 2, TableRules(specials=ALL, rounds=(2,))))
    game.deal(tuple(deck_cards(ALL)))
    assert game.phase in (Phase.BID, Phase.CHOOSE_TRUMP)
    if game.phase is Phase.CHOOSE_TRUMP:
        game.apply(ChooseTrump(2, Suit.HEARTS))
    return game


def in_name_trump() -> Game:
    game = Game(GameConfig(3, 2, TableRules(specials=ALL, rounds=(2,))))
    game.deal(special_deck(3, 2, [cards("WLF 2D"), cards("5C 4D"), cards("6C 7D")], card("1H")))
    assert game.phase is Phase.NAME_TRUMP
    return game


def over() -> Game:
    game = special_game([cards("2C"), cards("5C"), cards("6C")], card("1H"))
    play(game, "2C 5C 6C")
    assert game.phase is Phase.GAME_OVER
    return game


def plain() -> Game:
    game = Game(GameConfig(3, 2))
    game.deal(tuple(range(60)))
    return game


R = Reason
REFUSALS: list[tuple[str, Callable[[], Game], Action, Reason]] = [
    # the declaration
    ("a Juggler declared a Wizard", in_declare, Declare(0, 4), R.NOT_A_CHOICE),
    ("a Juggler declared 6", in_declare, Declare(0, 6), R.NOT_A_CHOICE),
    ("a Juggler declared True", in_declare, Declare(0, True), R.NOT_A_CHOICE),
    ("a Juggler declared 'hearts'", in_declare, Declare(0, "hearts"), R.NOT_A_CHOICE),  # type: ignore[arg-type]
    ("a Shapeshifter declared a suit", in_declare_shapeshifter, Declare(0, 0), R.NOT_A_CHOICE),
    ("a declaration out of turn", in_declare, Declare(1, 0), R.NOT_YOUR_TURN),
    ("a declaration by no seat", in_declare, Declare(7, 0), R.NOT_A_SEAT),
    ("a card before declaring", in_declare, Play(1, card("5C")), R.WRONG_PHASE),
    ("a pass while declaring", in_declare, PassCard(0, card("2D")), R.WRONG_PHASE),
    ("a declaration in play", in_play, Declare(0, 0), R.WRONG_PHASE),
    ("a declaration in the bids", in_bid, Declare(0, 0), R.WRONG_PHASE),
    # the Cloud
    ("the bid unchanged", in_adjust, AdjustBid(0, 1), R.NOT_A_CHOICE),
    ("the bid changed by two", in_adjust, AdjustBid(0, 3), R.NOT_A_CHOICE),
    ("a bid of 1.0", in_adjust, AdjustBid(0, 1.0), R.NOT_A_BID),  # type: ignore[arg-type]
    ("another seat's change", in_adjust, AdjustBid(1, 1), R.NOT_YOUR_TURN),
    ("a card instead of the change", in_adjust, Play(0, card("2D")), R.WRONG_PHASE),
    ("a change in play", in_play, AdjustBid(0, 1), R.WRONG_PHASE),
    # the Juggler
    ("a card not held", in_pass, PassCard(0, card("4D")), R.CARD_NOT_IN_HAND),
    ("a card played already", in_pass, PassCard(0, card("JGL")), R.CARD_NOT_IN_HAND),
    ("a card that is not one", in_pass, PassCard(0, 99), R.NOT_A_CARD),
    ("True for a card", in_pass, PassCard(0, True), R.NOT_A_CARD),
    ("a pass out of turn", in_pass, PassCard(1, card("4D")), R.NOT_YOUR_TURN),
    ("a second pass", in_pass_second, PassCard(0, card("3D")), R.NOT_YOUR_TURN),
    ("a card instead of the pass", in_pass, Play(0, card("2D")), R.WRONG_PHASE),
    ("a pass in play", in_play, PassCard(0, card("2C")), R.WRONG_PHASE),
    # the Witch
    ("taking the Witch itself", in_swap, SwapCard(0, card("2D"), card("WCH")), R.NOT_IN_TRICK),
    (
        "taking a card not in the trick",
        in_swap,
        SwapCard(0, card("2D"), card("7D")),
        R.NOT_IN_TRICK,
    ),
    ("giving a card not held", in_swap, SwapCard(0, card("7D"), card("5C")), R.CARD_NOT_IN_HAND),
    ("giving without taking", in_swap, SwapCard(0, card("2D"), None), R.NOT_A_CHOICE),
    ("taking without giving", in_swap, SwapCard(0, None, card("5C")), R.NOT_A_CHOICE),
    ("a swap by another seat", in_swap, SwapCard(2, None, None), R.NOT_YOUR_TURN),
    ("a swap in play", in_play, SwapCard(0, None, None), R.WRONG_PHASE),
    ("a card instead of the swap", in_swap, Play(2, card("7D")), R.WRONG_PHASE),
    # the Werewolf's trump
    ("a bid before trump is named", in_name_trump, Bid(0, 0), R.WRONG_PHASE),
    ("naming trump in play", in_play, NameTrump(0, None), R.WRONG_PHASE),
    ("naming trump out of turn", in_name_trump, NameTrump(1, None), R.NOT_YOUR_TURN),
    # playing
    ("the Werewolf", in_play, Play(0, int(Special.WEREWOLF)), R.CARD_NOT_IN_HAND),
    ("another seat's special card", in_pass, Play(0, card("JGL")), R.WRONG_PHASE),
    ("an id past the special cards", in_play, Play(0, 69), R.NOT_A_CARD),
    ("a blind play outside a forehead round", in_play, Play(0, BLIND_CARD), R.NOT_A_CARD),
    # after the game
    ("a deal after the game", over, Deal(tuple(range(60))), R.GAME_OVER),
    ("a declaration after the game", over, Declare(0, 0), R.GAME_OVER),
    ("a swap after the game", over, SwapCard(0, None, None), R.GAME_OVER),
    # a plain game never is in a special card's phase, and holds no special card
    ("a plain game: name trump", plain, NameTrump(0, None), R.WRONG_PHASE),
    ("a plain game: declare", plain, Declare(0, 0), R.WRONG_PHASE),
    ("a plain game: adjust", plain, AdjustBid(0, 0), R.WRONG_PHASE),
    ("a plain game: pass", plain, PassCard(0, 0), R.WRONG_PHASE),
    ("a plain game: swap", plain, SwapCard(0, None, None), R.WRONG_PHASE),
]


@pytest.mark.parametrize(
    ("setup", "action", "reason"), [r[1:] for r in REFUSALS], ids=[r[0] for r in REFUSALS]
)
def test_a_wrong_special_action_is_refused_and_changes_nothing(
    setup: Callable[[], Game], action: Action, reason: Reason
) -> None:
    game = setup()
    before = observed(game)
    with pytest.raises(IllegalAction) as refused:
        game.apply(action)
    assert refused.value.reason is reason
    assert refused.value.message
    assert observed(game) == before


def test_a_plain_game_ends_with_every_special_action_refused_as_game_over() -> None:
    game = Game(GameConfig(3, 2, TableRules(rounds=(1,))))
    game.deal(tuple(range(60)))
    for seat in (0, 1, 2):
        game.bid(seat, 0)
    for seat in (0, 1, 2):
        game.play(seat, game.legal_plays()[0])
    assert game.is_over
    with pytest.raises(IllegalAction) as refused:
        game.apply(PassCard(0, 0))
    assert refused.value.reason is Reason.GAME_OVER


# (the deck, why it is not this game's) for a game with the Bomb and the Vampire only
BOMB_VAMPIRE = frozenset({Special.BOMB, Special.VAMPIRE})
BAD_DECKS = [
    ("the plain 60", tuple(range(60))),
    ("another special card", (*range(60), 62, 63)),
    ("one repeated", (*range(60), 62, 62)),
    ("one missing", (*range(60), 62)),
    ("not ints", (*range(60), 62.0, 68)),
    ("in the wrong game", tuple(deck_cards(ALL))),
]


@pytest.mark.parametrize("deck", [d for _, d in BAD_DECKS], ids=[n for n, _ in BAD_DECKS])
def test_a_deck_that_is_not_this_games_is_refused(deck: tuple[int, ...]) -> None:
    game = Game(GameConfig(3, 2, TableRules(specials=BOMB_VAMPIRE)))
    with pytest.raises(IllegalAction) as refused:
        game.apply(Deal(deck))
    assert refused.value.reason is Reason.BAD_DECK
    assert game.phase is Phase.DEAL and game.actions == []
    game.apply(Deal((*range(60), 68, 62)))  # any order of the right cards
    assert game.round == 1


@pytest.mark.parametrize("special", list(Special))
def test_the_plain_engine_refuses_a_special_card(special: Special) -> None:
    game = Game(GameConfig(3, 2))
    with pytest.raises(IllegalAction) as refused:
        game.apply(Deal((*range(59), int(special))))
    assert refused.value.reason is Reason.BAD_DECK
    game.deal(tuple(range(60)))
    for seat in (0, 1, 2):
        game.bid(seat, 0)
    with pytest.raises(IllegalAction) as refused:
        game.apply(Play(0, int(special)))
    assert refused.value.reason is Reason.NOT_A_CARD
