"""Every refusal names its reason and leaves the game exactly as it was."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from wizard_tui.game import (
    Bid,
    ChooseTrump,
    Deal,
    Game,
    GameConfig,
    IllegalAction,
    Phase,
    Play,
    Reason,
    Suit,
)

from .helpers import WIZARDS, bid_all, build_deck, c, cs, dealt_game, snapshot


def at_deal() -> Game:
    """4 players, waiting for the deal of round 1."""
    return Game(GameConfig(4, 3))


def at_choose_trump() -> Game:
    """3 players, round 2, seat 0 deals and a Wizard is turned: seat 0 must name trump."""
    hands = [cs("1C 2C"), cs("3C 4C"), cs("5C 6C")]
    game = dealt_game(3, 2, 0, hands, WIZARDS[3])
    assert game.phase is Phase.CHOOSE_TRUMP and game.turn == 0
    return game


def at_bid() -> Game:
    """4 players, round 2, seat 3 deals, spades trump; seat 0 has bid 1, seat 1 is to bid."""
    hands = [cs("5H 2C"), cs("9H 3C"), cs("4D 13C"), cs("1H 5D")]
    game = dealt_game(4, 2, 3, hands, c("7S"))
    game.bid(0, 1)
    assert game.phase is Phase.BID and game.turn == 1
    return game


def at_play() -> Game:
    """As ``at_bid``, all bid, seat 0 led 5H: seat 1 (9H 3C) must follow hearts."""
    game = at_bid()
    bid_all(game, [0, 0, 1])
    game.play(0, c("5H"))
    assert game.phase is Phase.PLAY and game.turn == 1
    return game


def at_lead() -> Game:
    """As ``at_bid``, all bid: seat 0 is to lead the first trick."""
    game = at_bid()
    bid_all(game, [0, 0, 1])
    assert game.turn == 0
    return game


SETUPS: dict[str, Callable[[], Game]] = {
    "deal": at_deal,
    "choose_trump": at_choose_trump,
    "bid": at_bid,
    "lead": at_lead,
    "play": at_play,
}

GOOD_DECK = tuple(range(60))
REFUSALS = [
    # waiting for the deal
    ("deal", Bid(0, 0), Reason.WRONG_PHASE),
    ("deal", Play(0, 0), Reason.WRONG_PHASE),
    ("deal", ChooseTrump(3, Suit.CLUBS), Reason.WRONG_PHASE),
    ("deal", Deal(tuple(range(59))), Reason.BAD_DECK),
    ("deal", Deal(tuple(range(61))), Reason.BAD_DECK),
    ("deal", Deal(()), Reason.BAD_DECK),
    ("deal", Deal((0, *range(59))), Reason.BAD_DECK),  # 0 twice, 59 missing
    ("deal", Deal((*range(59), 60)), Reason.BAD_DECK),  # 60 is not a card
    ("deal", Deal((*range(59), -1)), Reason.BAD_DECK),
    ("deal", Deal((*range(59), 59.0)), Reason.BAD_DECK),  # type: ignore[arg-type]
    ("deal", Deal((*range(59), "59")), Reason.BAD_DECK),  # type: ignore[arg-type]
    ("deal", Deal((True, 0, *range(2, 60))), Reason.BAD_DECK),  # True == 1, but not a card id
    ("deal", Deal((None, *range(1, 60))), Reason.BAD_DECK),  # type: ignore[arg-type]
    ("deal", Deal(([0], *range(1, 60))), Reason.BAD_DECK),  # type: ignore[arg-type]
    ("deal", Deal(None), Reason.BAD_DECK),  # type: ignore[arg-type]
    ("deal", Deal(7), Reason.BAD_DECK),  # type: ignore[arg-type]
    # the dealer names trump
    ("choose_trump", Deal(GOOD_DECK), Reason.WRONG_PHASE),
    ("choose_trump", Bid(1, 0), Reason.WRONG_PHASE),
    ("choose_trump", Play(1, c("3C")), Reason.WRONG_PHASE),
    ("choose_trump", ChooseTrump(1, Suit.HEARTS), Reason.NOT_YOUR_TURN),
    ("choose_trump", ChooseTrump(2, Suit.HEARTS), Reason.NOT_YOUR_TURN),
    ("choose_trump", ChooseTrump(3, Suit.HEARTS), Reason.NOT_A_SEAT),
    ("choose_trump", ChooseTrump(-1, Suit.HEARTS), Reason.NOT_A_SEAT),
    ("choose_trump", ChooseTrump("0", Suit.HEARTS), Reason.NOT_A_SEAT),  # type: ignore[arg-type]
    ("choose_trump", ChooseTrump(False, Suit.HEARTS), Reason.NOT_A_SEAT),
    ("choose_trump", ChooseTrump(0.0, Suit.HEARTS), Reason.NOT_A_SEAT),  # type: ignore[arg-type]
    ("choose_trump", ChooseTrump(0, None), Reason.NOT_A_SUIT),  # type: ignore[arg-type]
    ("choose_trump", ChooseTrump(0, 4), Reason.NOT_A_SUIT),  # type: ignore[arg-type]
    ("choose_trump", ChooseTrump(0, -1), Reason.NOT_A_SUIT),  # type: ignore[arg-type]
    ("choose_trump", ChooseTrump(0, "S"), Reason.NOT_A_SUIT),  # type: ignore[arg-type]
    ("choose_trump", ChooseTrump(0, True), Reason.NOT_A_SUIT),  # type: ignore[arg-type]
    # bidding (seat 1 to bid, round 2)
    ("bid", Deal(GOOD_DECK), Reason.WRONG_PHASE),
    ("bid", ChooseTrump(3, Suit.CLUBS), Reason.WRONG_PHASE),
    ("bid", Play(1, c("9H")), Reason.WRONG_PHASE),
    ("bid", Bid(0, 1), Reason.NOT_YOUR_TURN),  # already bid
    ("bid", Bid(2, 1), Reason.NOT_YOUR_TURN),
    ("bid", Bid(3, 1), Reason.NOT_YOUR_TURN),  # the dealer
    ("bid", Bid(4, 1), Reason.NOT_A_SEAT),
    ("bid", Bid(-1, 1), Reason.NOT_A_SEAT),
    ("bid", Bid(True, 1), Reason.NOT_A_SEAT),  # True == 1 is still not a seat
    ("bid", Bid(1.0, 1), Reason.NOT_A_SEAT),  # type: ignore[arg-type]
    ("bid", Bid(None, 1), Reason.NOT_A_SEAT),  # type: ignore[arg-type]
    ("bid", Bid(1, 3), Reason.BID_OUT_OF_RANGE),
    ("bid", Bid(1, -1), Reason.BID_OUT_OF_RANGE),
    ("bid", Bid(1, 10**9), Reason.BID_OUT_OF_RANGE),
    ("bid", Bid(1, True), Reason.NOT_A_BID),
    ("bid", Bid(1, False), Reason.NOT_A_BID),
    ("bid", Bid(1, 1.0), Reason.NOT_A_BID),  # type: ignore[arg-type]
    ("bid", Bid(1, "1"), Reason.NOT_A_BID),  # type: ignore[arg-type]
    ("bid", Bid(1, None), Reason.NOT_A_BID),  # type: ignore[arg-type]
    # leading (seat 0 to lead)
    ("lead", Play(1, c("9H")), Reason.NOT_YOUR_TURN),
    ("lead", Play(0, c("9H")), Reason.CARD_NOT_IN_HAND),
    ("lead", Play(0, WIZARDS[0]), Reason.CARD_NOT_IN_HAND),
    ("lead", Play(0, 60), Reason.NOT_A_CARD),
    ("lead", Bid(0, 0), Reason.WRONG_PHASE),
    # following (seat 1 to play, hearts led, holds 9H 3C)
    ("play", Deal(GOOD_DECK), Reason.WRONG_PHASE),
    ("play", Bid(1, 0), Reason.WRONG_PHASE),
    ("play", ChooseTrump(3, Suit.CLUBS), Reason.WRONG_PHASE),
    ("play", Play(0, c("2C")), Reason.NOT_YOUR_TURN),
    ("play", Play(2, c("4D")), Reason.NOT_YOUR_TURN),
    ("play", Play(3, c("1H")), Reason.NOT_YOUR_TURN),
    ("play", Play(4, c("9H")), Reason.NOT_A_SEAT),
    ("play", Play(-1, c("9H")), Reason.NOT_A_SEAT),
    ("play", Play(True, c("9H")), Reason.NOT_A_SEAT),  # True == 1, the seat on turn
    ("play", Play(1.0, c("9H")), Reason.NOT_A_SEAT),  # type: ignore[arg-type]
    ("play", Play("1", c("9H")), Reason.NOT_A_SEAT),  # type: ignore[arg-type]
    ("play", Play(1, 60), Reason.NOT_A_CARD),
    ("play", Play(1, -1), Reason.NOT_A_CARD),
    ("play", Play(1, True), Reason.NOT_A_CARD),
    ("play", Play(1, float(c("9H"))), Reason.NOT_A_CARD),  # type: ignore[arg-type]
    ("play", Play(1, "9H"), Reason.NOT_A_CARD),  # type: ignore[arg-type]
    ("play", Play(1, None), Reason.NOT_A_CARD),  # type: ignore[arg-type]
    ("play", Play(1, c("5H")), Reason.CARD_NOT_IN_HAND),  # already played by seat 0
    ("play", Play(1, c("4D")), Reason.CARD_NOT_IN_HAND),  # seat 2's card
    ("play", Play(1, WIZARDS[0]), Reason.CARD_NOT_IN_HAND),
    ("play", Play(1, c("3C")), Reason.MUST_FOLLOW_SUIT),
]


def _id(case: tuple[str, object, Reason]) -> str:
    action = repr(case[1])
    if len(action) > 40:  # a whole deck: keep the test id readable, and unique
        action = f"{action[:30]}...{action[-8:]}"
    return f"{case[0]}-{action}-{case[2].value}"


@pytest.mark.parametrize(("setup", "action", "reason"), REFUSALS, ids=[_id(r) for r in REFUSALS])
def test_refused_through_apply(setup: str, action: object, reason: Reason) -> None:
    game = SETUPS[setup]()
    before = snapshot(game)
    with pytest.raises(IllegalAction) as err:
        game.apply(action)  # type: ignore[arg-type]
    assert err.value.reason is reason
    assert err.value.code == reason.value
    assert err.value.message
    assert snapshot(game) == before


@pytest.mark.parametrize(("setup", "action", "reason"), REFUSALS, ids=[_id(r) for r in REFUSALS])
def test_refused_through_the_methods(setup: str, action: object, reason: Reason) -> None:
    game = SETUPS[setup]()
    before = snapshot(game)
    with pytest.raises(IllegalAction) as err:
        if isinstance(action, Deal):
            game.deal(action.deck)
        elif isinstance(action, ChooseTrump):
            game.choose_trump(action.seat, action.suit)
        elif isinstance(action, Bid):
            game.bid(action.seat, action.bid)
        else:
            assert isinstance(action, Play)
            game.play(action.seat, action.card)
    assert err.value.reason is reason
    assert snapshot(game) == before


@pytest.mark.parametrize("setup", sorted(SETUPS))
@pytest.mark.parametrize("action", [None, "bid 1", (1, 0), Bid], ids=repr)
def test_anything_but_an_action_is_refused(setup: str, action: object) -> None:
    game = SETUPS[setup]()
    before = snapshot(game)
    with pytest.raises(IllegalAction) as err:
        game.apply(action)  # type: ignore[arg-type]
    assert err.value.reason is Reason.UNKNOWN_ACTION
    assert snapshot(game) == before


@pytest.mark.parametrize("setup", sorted(SETUPS))
def test_the_game_goes_on_after_a_refusal(setup: str) -> None:
    game = SETUPS[setup]()
    clean = SETUPS[setup]()
    for action in [a for s, a, _ in REFUSALS if s == setup]:
        with pytest.raises(IllegalAction):
            game.apply(action)  # type: ignore[arg-type]
    assert game.actions == clean.actions
    if game.phase is Phase.DEAL:
        game.deal(GOOD_DECK)
        clean.deal(GOOD_DECK)
    else:
        move = game.legal_actions()[0]
        game.apply(move)
        clean.apply(move)
    assert snapshot(game) == snapshot(clean)


def test_a_refused_bad_deck_in_round_two_keeps_round_one_results() -> None:
    game = Game(GameConfig(3, 0))
    game.deal(build_deck(3, 1, 0, [cs("1C"), cs("2C"), cs("3C")], c("4C")))
    bid_all(game, [0, 0, 1])
    for seat in (1, 2, 0):
        game.play(seat, game.hand(seat)[0])
    before = snapshot(game)
    with pytest.raises(IllegalAction) as err:
        game.deal([*range(59), 0])
    assert err.value.reason is Reason.BAD_DECK
    assert snapshot(game) == before
    assert game.results[0].tricks_won == (0, 0, 1)  # 3C, the highest club, wins
