"""Tricks: who leads, what may be played, who wins (RULES.md 4-5)."""

from __future__ import annotations

import pytest

from wizard_tui.game import (
    CardPlayed,
    IllegalAction,
    Phase,
    Play,
    Reason,
    Suit,
    TrickWon,
    cards_of,
    legal_play_mask,
    mask_of,
    seat_view,
)

from .helpers import JESTERS, WIZARDS, bid_all, c, cs, dealt_game, snapshot

W1, W2, W3, W4 = WIZARDS
J1, J2, J3, J4 = JESTERS

# ----------------------------------------------------------------- who leads


@pytest.mark.parametrize(("players", "dealer"), [(3, 0), (3, 2), (4, 3), (5, 1), (6, 4)])
def test_the_player_left_of_the_dealer_leads_the_first_trick(players: int, dealer: int) -> None:
    hands = [[c(f"{rank}C"), c(f"{rank}D")] for rank in range(1, players + 1)]
    game = dealt_game(players, 2, dealer, hands, c("1S"))
    bid_all(game, [0] * players)
    assert game.phase is Phase.PLAY
    assert game.turn == game.trick_leader == (dealer + 1) % players


def test_the_winner_of_a_trick_leads_the_next() -> None:
    # 4 players, round 2, seat 3 deals, spades trump. Seat 0 leads 5C; seat 2 wins with 9C and
    # must lead the second trick.
    hands = [cs("5C 2D"), cs("3C 3D"), cs("9C 4D"), cs("1C 5D")]
    game = dealt_game(4, 2, 3, hands, c("1S"))
    bid_all(game, [0, 0, 0, 0])
    for seat, card in ((0, "5C"), (1, "3C"), (2, "9C")):
        game.play(seat, c(card))
    events = game.apply(Play(3, c("1C")))
    assert events == [
        CardPlayed(3, c("1C")),
        TrickWon(0, 2, ((0, c("5C")), (1, c("3C")), (2, c("9C")), (3, c("1C")))),
    ]
    assert game.turn == game.trick_leader == 2
    assert game.tricks_won == [0, 0, 1, 0]
    before = snapshot(game)
    with pytest.raises(IllegalAction) as err:
        game.play(3, c("5D"))
    assert err.value.reason is Reason.NOT_YOUR_TURN
    assert snapshot(game) == before
    game.play(2, c("4D"))
    assert game.turn == 3  # then clockwise from the new leader


# -------------------------------------------------------------- following suit

# 4 players, round 3, seat 3 deals, trump spades (turned 1S). Seat 0 leads ``lead``; seat 1
# (``hand``) is next. ``legal`` is what RULES.md lets seat 1 play.
FOLLOW = [
    pytest.param("5H", "9H 2C W1", "9H W1", id="must-follow-or-wizard"),
    pytest.param("5H", "9H 2C J1", "9H J1", id="must-follow-or-jester"),
    pytest.param("5H", "9H 10H 2C", "9H 10H", id="must-follow-either-heart"),
    pytest.param("5H", "2C 3S W1", "2C 3S W1", id="void-plays-anything"),
    pytest.param("5H", "2C 3D 4C", "2C 3D 4C", id="void-need-not-trump"),
    pytest.param("5S", "2S 3H J1", "2S J1", id="trump-led-must-follow-trump"),
    pytest.param("W2", "9H 2C 3S", "9H 2C 3S", id="wizard-led-free"),
    pytest.param("J2", "9H 2C 3S", "9H 2C 3S", id="jester-led-free"),
]


def follow_game(lead: str, hand: str) -> object:
    leader_hand = [c(lead), *cs("1D 2D")]
    rest = [card for card in cs("6D 7D 8D 9D 10D 11D") if card not in cs(hand)]
    hands = [leader_hand, cs(hand), rest[:3], rest[3:6]]
    game = dealt_game(4, 3, 3, hands, c("1S"))
    bid_all(game, [0, 0, 0, 0])
    game.play(0, c(lead))
    return game


@pytest.mark.parametrize(("lead", "hand", "legal"), FOLLOW)
def test_follow_suit(lead: str, hand: str, legal: str) -> None:
    game = follow_game(lead, hand)
    assert game.turn == 1
    assert sorted(game.legal_plays()) == sorted(cs(legal))
    assert sorted(seat_view(game, 1).legal_cards) == sorted(cs(legal))
    assert sorted(cards_of(game.legal_play_mask())) == sorted(cs(legal))
    assert legal_play_mask(mask_of(cs(hand)), game.led) == mask_of(cs(legal))
    for card in cs(hand):
        trial = game.copy()
        if card in cs(legal):
            trial.play(1, card)
            assert trial.turn == 2
        else:
            before = snapshot(trial)
            with pytest.raises(IllegalAction) as err:
                trial.play(1, card)
            assert err.value.reason is Reason.MUST_FOLLOW_SUIT
            assert snapshot(trial) == before


# A trick led by Jesters: the first non-Jester card sets what later players must follow.
# 4 players, round 2, seat 3 deals, no trump (a Jester turned up is J4). ``plays`` are the
# cards before seat ``seat`` whose hand is ``hand``; ``legal`` what that seat may play.
JESTER_LEADS = [
    pytest.param(["J1"], 1, "9H 2C", "9H 2C", id="J-then-anything"),
    pytest.param(["J1", "3C"], 2, "9H 2C", "2C", id="J-then-club-sets-clubs"),
    pytest.param(["J1", "3C"], 2, "9H 10H", "9H 10H", id="J-club-void-plays-anything"),
    pytest.param(["J1", "W1"], 2, "9H 2C", "9H 2C", id="J-then-wizard-is-free"),
    pytest.param(["J1", "W1", "3C"], 3, "9H 2C", "9H 2C", id="J-wizard-club-still-free"),
    pytest.param(["J1", "J2"], 2, "9H 2C", "9H 2C", id="J-J-then-anything"),
    pytest.param(["J1", "J2", "5H"], 3, "9H 2C", "9H", id="J-J-heart-sets-hearts"),
    pytest.param(["J1", "J2", "5H"], 3, "2C W2", "2C W2", id="J-J-heart-void"),
    pytest.param(["J1", "J2", "5H"], 3, "9H J3", "9H J3", id="J-J-heart-jester-allowed"),
    pytest.param(["5H", "J1"], 2, "9H 2C", "9H", id="heart-then-J-still-hearts"),
]


@pytest.mark.parametrize(("plays", "seat", "hand", "legal"), JESTER_LEADS)
def test_the_first_card_that_is_not_a_jester_sets_the_led_suit(
    plays: list[str], seat: int, hand: str, legal: str
) -> None:
    played = [c(p) for p in plays]
    spare = iter(card for card in cs("1D 2D 3D 4D 5D 6D 7D 8D") if card not in cs(hand))
    hands = []
    for s in range(4):
        if s == seat:
            hands.append(cs(hand))
        elif s < len(played):
            hands.append([played[s], next(spare)])
        else:
            hands.append([next(spare), next(spare)])
    game = dealt_game(4, 2, 3, hands, J4)
    bid_all(game, [0, 0, 0, 0])
    for s, card in enumerate(played):
        game.play(s, card)
    assert game.turn == seat
    assert sorted(game.legal_plays()) == sorted(cs(legal))
    assert sorted(seat_view(game, seat).legal_cards) == sorted(cs(legal))


@pytest.mark.parametrize(
    ("plays", "led"),
    [
        (["J1"], None),
        (["J1", "J2"], None),
        (["J1", "3C"], Suit.CLUBS),
        (["J1", "J2", "5H"], Suit.HEARTS),
        (["W1"], None),
        (["J1", "W1", "3C"], None),
        (["5S", "W1"], Suit.SPADES),
    ],
)
def test_led_suit_reported_during_the_trick(plays: list[str], led: Suit | None) -> None:
    played = [c(p) for p in plays]
    hands = [[p] for p in played] + [[c(f"{r}D")] for r in range(1, 5 - len(played))]
    game = dealt_game(4, 1, 3, hands, J4)
    bid_all(game, [0, 0, 0, 0])
    for s, card in enumerate(played):
        game.play(s, card)
    assert game.led_suit is led
    assert seat_view(game, 0).led_suit is led


# ---------------------------------------------------------- who wins the trick

# Round 1: each seat holds one card, so any order of cards is a legal trick. The dealer is the
# last seat, so seat 0 leads and the plays are in seat order. ``trump`` is the turned card
# ("J4" = no trump). ``winner`` is the seat RULES.md 5 names.
WINNERS = [
    # 1. the first Wizard
    pytest.param("4D", "5H 13D W1 1H", 2, id="wizard-beats-trump"),
    pytest.param("J4", "W1 W2 W3", 0, id="first-of-three-wizards-leading"),
    pytest.param("J4", "2C W2 W1 13C", 1, id="first-wizard-not-lowest-id"),
    pytest.param("5S", "13S 12S W3 W1 W2", 2, id="first-wizard-among-three"),
    pytest.param("J4", "J1 W1", 1, id="jester-then-wizard"),
    pytest.param("J4", "J1 J2 W4 W1 5C 1C", 2, id="jesters-then-wizards"),
    pytest.param("1H", "J1 W1 13H", 1, id="wizard-after-jester-beats-trump"),
    # 2. the highest trump
    pytest.param("1H", "13C 2H 12C", 1, id="low-trump-beats-high-led"),
    pytest.param("1H", "13C 2H 3H 12C", 2, id="highest-trump"),
    pytest.param("1H", "13H 12H 11H", 0, id="trump-led-highest-trump"),
    pytest.param("1H", "J1 5C 2H", 2, id="trump-after-jester-lead"),
    pytest.param("1H", "J1 2H 5C", 1, id="jester-then-trump-leads-and-wins"),
    pytest.param("1H", "2H J1 J2 J3", 0, id="trump-led-over-jesters"),
    # 3. the highest card of the led suit
    pytest.param("J4", "5C 13C 7C", 1, id="no-trump-highest-led"),
    pytest.param("1H", "5C 13D 7C", 2, id="off-suit-high-card-loses"),
    pytest.param("1H", "5C 13D 13S 1D", 0, id="leader-wins-when-nobody-follows"),
    pytest.param("J4", "10S 13D 13C 13H", 0, id="no-trump-off-suits-all-lose"),
    pytest.param("1H", "J1 5C 13C", 2, id="jester-then-club-highest-club"),
    pytest.param("1H", "J1 J2 5C 13D", 2, id="two-jesters-then-club-wins"),
    pytest.param("1H", "J1 J2 5C 13C 12S J3", 3, id="six-players-jesters-and-clubs"),
    pytest.param("W1", "5C 6C", 1, id="trump-chosen-after-wizard-turned"),
    # 4. all Jesters: the first Jester
    pytest.param("1H", "J3 J1 J2", 0, id="all-jesters-first-wins"),
    pytest.param("J4", "J2 J3 J1", 0, id="all-jesters-no-trump"),
    pytest.param("5S", "J3 J1 J2 J4 W1 1C", 4, id="four-jesters-then-a-wizard"),
    pytest.param("5S", "J3 J1 J2 J4 1C 13C", 5, id="four-jesters-then-clubs"),
    pytest.param("5S", "J2 J1 J3 J4", 0, id="four-jesters-first-wins"),
]


@pytest.mark.parametrize(("turned", "plays", "winner"), WINNERS)
def test_who_wins_the_trick(turned: str, plays: str, winner: int) -> None:
    cards = cs(plays)
    n = len(cards)
    if n < 3:  # two cards mean a three-player trick whose third card is a low diamond
        cards.append(c("1D"))
        n = 3
    game = dealt_game(n, 1, n - 1, [[card] for card in cards], c(turned))
    if game.phase is Phase.CHOOSE_TRUMP:
        game.choose_trump(n - 1, Suit.HEARTS)
    bid_all(game, [0] * n)
    events = []
    for seat, card in enumerate(cards):
        events += game.apply(Play(seat, card))
    assert events[-2] == TrickWon(0, winner, tuple(enumerate(cards)))
    assert game.tricks[0].winner == winner
    assert game.tricks_won == [int(s == winner) for s in range(n)]


def test_current_winner_is_shown_during_the_trick() -> None:
    # 4 players, round 1, hearts trump: 5C, 13C, 2H, W1 -> seats 0, 1, 2, 3 in turn ahead.
    cards = cs("5C 13C 2H W1")
    game = dealt_game(4, 1, 3, [[card] for card in cards], c("1H"))
    bid_all(game, [0, 0, 0, 0])
    assert game.trick_winner is None
    for seat, card in enumerate(cards[:3]):
        game.play(seat, card)
        assert game.trick_winner == seat
        assert seat_view(game, 0).trick_winner == seat
