"""Cards, players, rounds, the dealer's rotation, the deal and the trump (RULES.md 1-2)."""

from __future__ import annotations

import pytest

from wizard_tui.game import (
    DECK_SIZE,
    ChooseTrump,
    Deal,
    Game,
    GameConfig,
    IllegalAction,
    Phase,
    Reason,
    RoundDealt,
    Suit,
    TrumpChosen,
    is_jester,
    is_wizard,
    rank_of,
    rounds_for,
    seat_view,
    suit_of,
)

from .helpers import (
    JESTERS,
    ROUNDS,
    WIZARDS,
    build_deck,
    c,
    cs,
    dealt_game,
    finish_round,
    game_at_round,
    snapshot,
)

# ------------------------------------------------------------------ the cards


def test_sixty_cards_four_suits_of_thirteen_four_wizards_four_jesters() -> None:
    assert DECK_SIZE == 60
    ids = range(DECK_SIZE)
    assert sum(map(is_wizard, ids)) == 4
    assert sum(map(is_jester, ids)) == 4
    assert [card for card in ids if is_wizard(card)] == list(WIZARDS)
    assert [card for card in ids if is_jester(card)] == list(JESTERS)
    suit_cards = [card for card in ids if not is_wizard(card) and not is_jester(card)]
    assert len(suit_cards) == 52
    assert {(suit_of(card), rank_of(card)) for card in suit_cards} == {
        (suit, rank) for suit in Suit for rank in range(1, 14)
    }


@pytest.mark.parametrize(
    ("name", "suit", "rank"),
    [
        ("1C", Suit.CLUBS, 1),
        ("13C", Suit.CLUBS, 13),
        ("1D", Suit.DIAMONDS, 1),
        ("7H", Suit.HEARTS, 7),
        ("13S", Suit.SPADES, 13),
    ],
)
def test_card_ids_are_suit_times_13_plus_rank_minus_1(name: str, suit: Suit, rank: int) -> None:
    card = c(name)
    assert card == int(suit) * 13 + rank - 1
    assert suit_of(card) is suit
    assert rank_of(card) == rank


@pytest.mark.parametrize("card", WIZARDS + JESTERS)
def test_wizards_and_jesters_have_no_suit_or_rank(card: int) -> None:
    assert suit_of(card) is None
    assert rank_of(card) is None


# ------------------------------------------------------------ players and rounds


@pytest.mark.parametrize(("players", "rounds"), sorted(ROUNDS.items()))
def test_three_to_six_players_play_60_over_players_rounds(players: int, rounds: int) -> None:
    assert rounds_for(players) == rounds
    assert Game(GameConfig(players, 0)).num_rounds == rounds


@pytest.mark.parametrize("players", [0, 1, 2, 7, 8, -3])
def test_fewer_than_three_or_more_than_six_players_are_refused(players: int) -> None:
    with pytest.raises(ValueError):
        GameConfig(players, 0)
    with pytest.raises(ValueError):
        rounds_for(players)


@pytest.mark.parametrize("players", [3.0, "4", True, None])
def test_player_count_must_be_an_int(players: object) -> None:
    with pytest.raises(ValueError):
        GameConfig(players, 0)  # type: ignore[arg-type]


@pytest.mark.parametrize(("players", "first_dealer"), [(3, 3), (4, -1), (6, 6), (5, True)])
def test_first_dealer_must_be_a_seat(players: int, first_dealer: object) -> None:
    with pytest.raises(ValueError):
        GameConfig(players, first_dealer)  # type: ignore[arg-type]


def test_a_new_game_waits_for_the_first_deal() -> None:
    game = Game(GameConfig(4, 2))
    assert game.phase is Phase.DEAL
    assert game.round == 0
    assert game.turn == -1
    assert game.totals == [0, 0, 0, 0]


# ------------------------------------------------------------- dealer rotation


@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("first_dealer", [0, 2])
def test_the_deal_passes_one_seat_clockwise_each_round(players: int, first_dealer: int) -> None:
    game = Game(GameConfig(players, first_dealer))
    seen = []
    while not game.is_over:
        events = game.apply(Deal(tuple(range(60))))
        dealt = events[0]
        assert isinstance(dealt, RoundDealt)
        seen.append((dealt.round, dealt.dealer, game.dealer))
        finish_round(game)
    rounds = ROUNDS[players]
    expected = [(r, (first_dealer + r - 1) % players) for r in range(1, rounds + 1)]
    assert [(r, d) for r, d, _ in seen] == expected
    assert [d for _, _, d in seen] == [d for _, d in expected]
    assert [res.dealer for res in game.results] == [d for _, d in expected]


# ------------------------------------------------------------------- the deal


def test_cards_are_dealt_one_at_a_time_clockwise_from_the_dealers_left() -> None:
    # 4 players, round 3, seat 1 deals: seat 2 gets the 1st card, seat 3 the 2nd, seat 0 the
    # 3rd, seat 1 (the dealer) the 4th, then round again; the 13th card (id 12) is turned up.
    game = game_at_round(4, 3, dealer=1)
    game.deal(list(range(60)))
    assert [tuple(game.dealt_hand(s)) for s in range(4)] == [
        (2, 6, 10),
        (3, 7, 11),
        (0, 4, 8),
        (1, 5, 9),
    ]
    assert game.trump_card == 12
    assert game.trump_suit is Suit.CLUBS


@pytest.mark.parametrize(("players", "dealer"), [(3, 0), (3, 2), (5, 4), (6, 3)])
def test_round_one_deals_one_card_each_starting_left_of_the_dealer(
    players: int, dealer: int
) -> None:
    game = Game(GameConfig(players, dealer))
    deck = list(reversed(range(60)))
    game.deal(deck)
    for j in range(players):
        assert game.dealt_hand((dealer + 1 + j) % players) == (deck[j],)
    assert game.trump_card == deck[players]


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_every_seat_gets_round_number_cards(players: int) -> None:
    game = Game(GameConfig(players, 0))
    for r in (1, 2, 3):
        game.deal(list(range(60)))
        assert [len(game.hand(s)) for s in range(players)] == [r] * players
        dealt = [card for s in range(players) for card in game.hand(s)]
        assert len(set(dealt)) == players * r
        finish_round(game)


def test_build_deck_puts_each_hand_where_the_deal_sends_it() -> None:
    hands = [cs("1C 2C"), cs("3C 4C"), cs("5C 6C"), cs("7C 8C")]
    deck = build_deck(4, 2, 2, hands, c("9H"))
    assert sorted(deck) == list(range(60))
    # Dealer 2: the deal goes to seats 3, 0, 1, 2, 3, 0, 1, 2 and then turns a card up.
    assert deck[:9] == tuple(cs("7C 1C 3C 5C 8C 2C 4C 6C 9H"))


# ------------------------------------------------------------------ the trump

HANDS_3P_R1 = [cs("2C"), cs("3D"), cs("4H")]


@pytest.mark.parametrize(
    ("turned", "trump"),
    [("5S", Suit.SPADES), ("13H", Suit.HEARTS), ("1D", Suit.DIAMONDS), ("9C", Suit.CLUBS)],
)
def test_a_turned_suit_card_makes_its_suit_trump(turned: str, trump: Suit) -> None:
    game = Game(GameConfig(3, 0))
    events = game.apply(Deal(build_deck(3, 1, 0, HANDS_3P_R1, c(turned))))
    assert game.trump_card == c(turned)
    assert game.trump_suit is trump
    assert events == [RoundDealt(1, 0, c(turned), trump, False)]
    assert game.phase is Phase.BID
    assert game.turn == 1  # bidding starts at once, left of the dealer


@pytest.mark.parametrize("jester", JESTERS)
def test_a_turned_jester_means_no_trump(jester: int) -> None:
    game = Game(GameConfig(3, 0))
    events = game.apply(Deal(build_deck(3, 1, 0, HANDS_3P_R1, jester)))
    assert game.trump_card == jester
    assert game.trump_suit is None
    assert events == [RoundDealt(1, 0, jester, None, False)]
    assert game.phase is Phase.BID


@pytest.mark.parametrize("wizard", WIZARDS)
@pytest.mark.parametrize("dealer", [0, 1, 2])
def test_a_turned_wizard_lets_the_dealer_choose_trump(wizard: int, dealer: int) -> None:
    game = Game(GameConfig(3, dealer))
    events = game.apply(Deal(build_deck(3, 1, dealer, HANDS_3P_R1, wizard)))
    assert events == [RoundDealt(1, dealer, wizard, None, True)]
    assert game.phase is Phase.CHOOSE_TRUMP
    assert game.turn == dealer
    assert game.trump_suit is None
    for seat in range(3):
        view = seat_view(game, seat)
        assert view.phase is Phase.CHOOSE_TRUMP and view.turn == dealer
    events = game.apply(ChooseTrump(dealer, Suit.HEARTS))
    assert events == [TrumpChosen(dealer, Suit.HEARTS)]
    assert game.trump_suit is Suit.HEARTS
    assert game.trump_card == wizard
    assert game.phase is Phase.BID
    assert game.turn == (dealer + 1) % 3


@pytest.mark.parametrize("suit", [0, 1, 2, 3, *Suit])
def test_the_dealer_may_choose_any_of_the_four_suits(suit: int) -> None:
    game = dealt_game(4, 2, 1, [cs("1C 2C"), cs("3C 4C"), cs("5C 6C"), cs("7C 8C")], WIZARDS[2])
    game.choose_trump(1, suit)
    assert game.trump_suit is Suit(suit)
    assert game.phase is Phase.BID
    assert game.turn == 2


@pytest.mark.parametrize("seat", [0, 2])
def test_only_the_dealer_chooses_trump(seat: int) -> None:
    game = Game(GameConfig(3, 1))
    game.deal(build_deck(3, 1, 1, HANDS_3P_R1, WIZARDS[0]))
    before = snapshot(game)
    with pytest.raises(IllegalAction) as err:
        game.choose_trump(seat, Suit.SPADES)
    assert err.value.reason is Reason.NOT_YOUR_TURN
    assert snapshot(game) == before


@pytest.mark.parametrize("suit", [None, -1, 4, "hearts", "H", 2.0, True, False])
def test_no_trump_or_a_non_suit_cannot_be_chosen(suit: object) -> None:
    game = Game(GameConfig(3, 1))
    game.deal(build_deck(3, 1, 1, HANDS_3P_R1, WIZARDS[0]))
    before = snapshot(game)
    with pytest.raises(IllegalAction) as err:
        game.apply(ChooseTrump(1, suit))  # type: ignore[arg-type]
    assert err.value.reason is Reason.NOT_A_SUIT
    assert snapshot(game) == before


def test_no_bidding_until_the_dealer_has_chosen_trump() -> None:
    game = Game(GameConfig(3, 1))
    game.deal(build_deck(3, 1, 1, HANDS_3P_R1, WIZARDS[0]))
    before = snapshot(game)
    with pytest.raises(IllegalAction) as err:
        game.bid(2, 0)
    assert err.value.reason is Reason.WRONG_PHASE
    assert snapshot(game) == before


def test_trump_cannot_be_chosen_when_a_suit_card_was_turned() -> None:
    game = Game(GameConfig(3, 1))
    game.deal(build_deck(3, 1, 1, HANDS_3P_R1, c("5S")))
    before = snapshot(game)
    with pytest.raises(IllegalAction) as err:
        game.choose_trump(1, Suit.HEARTS)
    assert err.value.reason is Reason.WRONG_PHASE
    assert snapshot(game) == before


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_the_last_round_deals_every_card_and_has_no_trump(players: int) -> None:
    rounds = ROUNDS[players]
    game = game_at_round(players, rounds, dealer=0)
    deck = tuple(reversed(range(60)))
    events = game.apply(Deal(deck))
    assert events == [RoundDealt(rounds, 0, None, None, False)]
    assert game.trump_card is None and game.trump_suit is None
    assert game.phase is Phase.BID and game.turn == 1
    hands = [game.dealt_hand(s) for s in range(players)]
    assert all(len(h) == rounds for h in hands)
    assert sorted(card for h in hands for card in h) == list(range(60))
    # Still clockwise from the dealer's left, one at a time.
    assert hands[1][:2] == (deck[0], deck[players])
