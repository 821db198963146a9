"""The game's length (docs/rules.md, "Game length"), one table row per case: the schedule
of each named length and of a chosen list, and how the engine plays it (round r is the
ordinal, the cards it deals its hand size)."""

from __future__ import annotations

import pytest

from wizard_tui.game import (
    MAX_ROUNDS,
    Bid,
    Deal,
    Game,
    GameConfig,
    IllegalAction,
    Phase,
    Reason,
    RestrictLastBid,
    RulesError,
    TableRules,
    length_rounds,
    seat_view,
)
from wizard_tui.game.hidden import HiddenGame

from .helpers import bid_all, finish_round, play_out_round

# ------------------------------------------------------------------ the schedules

# players, length, rounds, the cards of the first, the top and the last round, all cards each
SCHEDULES = [
    (3, "full", 20, 1, 20, 20, 210),
    (4, "full", 15, 1, 15, 15, 120),
    (5, "full", 12, 1, 12, 12, 78),
    (6, "full", 10, 1, 10, 10, 55),
    (3, "short", 10, 1, 10, 10, 55),
    (4, "short", 8, 1, 8, 8, 36),  # half of 15 rounds, rounded up
    (5, "short", 6, 1, 6, 6, 21),
    (6, "short", 5, 1, 5, 5, 15),
    (3, "up-and-down", 39, 1, 20, 1, 400),  # one top round, not two
    (4, "up-and-down", 29, 1, 15, 1, 225),
    (5, "up-and-down", 23, 1, 12, 1, 144),
    (6, "up-and-down", 19, 1, 10, 1, 100),
    (4, "7,1,15", 3, 7, 15, 15, 23),
    (6, "10", 1, 10, 10, 10, 10),
]


@pytest.mark.parametrize(
    ("players", "length", "rounds", "first", "top", "last", "cards"), SCHEDULES
)
def test_each_length_schedules_its_rounds(
    players: int, length: str, rounds: int, first: int, top: int, last: int, cards: int
) -> None:
    sizes = TableRules(rounds=length_rounds(length, players)).round_sizes(players)
    assert (len(sizes), sizes[0], max(sizes), sizes[-1], sum(sizes)) == (
        rounds,
        first,
        top,
        last,
        cards,
    )
    config = GameConfig(players, 0, TableRules(rounds=length_rounds(length, players)))
    assert config.num_rounds == Game(config).num_rounds == rounds
    assert [config.round_size(r) for r in range(1, rounds + 1)] == list(sizes)


def test_up_and_down_climbs_one_card_a_round_and_comes_back() -> None:
    sizes = length_rounds("up-and-down", 4)
    assert sizes == (*range(1, 16), *range(14, 0, -1))


@pytest.mark.parametrize(
    ("players", "length", "words"),
    [
        (4, "16", "1 to 15 cards"),  # more cards than the deck deals 4 players
        (3, "0,1", "not 0"),
        (3, ",".join(["1"] * (MAX_ROUNDS + 1)), f"at most {MAX_ROUNDS} rounds"),
        (3, "1;2", "a list like"),
        (3, "", "a list like"),
    ],
)
def test_a_chosen_list_the_table_cannot_play_is_refused(
    players: int, length: str, words: str
) -> None:
    with pytest.raises(RulesError, match=words):
        length_rounds(length, players)


def test_a_chosen_list_may_repeat_skip_and_reorder_rounds() -> None:
    assert length_rounds("5,5,1,20,3", 3) == (5, 5, 1, 20, 3)
    assert length_rounds(",".join(["1"] * MAX_ROUNDS), 3) == (1,) * MAX_ROUNDS


@pytest.mark.parametrize("round_number", [0, 4, -1, True])
def test_a_round_the_game_lacks_has_no_size(round_number: int) -> None:
    config = GameConfig(3, 0, TableRules(rounds=(2, 1, 3)))
    with pytest.raises(ValueError):
        config.round_size(round_number)


# ------------------------------------------------------------------ the engine


def _game(players: int, sizes: tuple[int, ...], restrict: str = "never", dealer: int = 0) -> Game:
    return Game(GameConfig(players, dealer, TableRules(RestrictLastBid(restrict), rounds=sizes)))


def _reach(game: Game, round_number: int) -> None:
    """Play earlier rounds out with the first legal moves until ``round_number`` is next."""
    while game.round < round_number - 1:
        play_out_round(game)


# players, cards of each round, the round dealt, its cards, a trump card turned up
DEALS = [
    (3, (5, 1), 1, 5, True),  # the first round of a list deals its own size
    (3, (5, 1), 2, 1, True),
    (4, (1, 15, 2), 2, 15, False),  # 4 x 15 = 60: every card dealt, no trump card
    (4, (1, 15, 2), 3, 2, True),
    (6, (10, 9), 1, 10, False),
    (6, (10, 9), 2, 9, True),  # 6 cards remain: the next one is turned up
]


@pytest.mark.parametrize(("players", "sizes", "round_number", "cards", "turned"), DEALS)
def test_each_round_deals_its_hand_size(
    players: int, sizes: tuple[int, ...], round_number: int, cards: int, turned: bool
) -> None:
    game = _game(players, sizes)
    _reach(game, round_number)
    deck = tuple(range(60))
    game.deal(deck)
    assert (game.round, game.hand_size) == (round_number, cards)
    assert [len(game.hand(s)) for s in range(players)] == [cards] * players
    assert game.trump_card == (deck[players * cards] if turned else None)
    view = seat_view(game, 0)
    assert (view.round, view.hand_size, view.num_rounds) == (round_number, cards, len(sizes))
    assert len(view.hand) == cards


# players, cards of each round, restriction, round, the bids before the dealer's, dealer's bids
BIDS = [
    # the bid range is 0..hand size, not 0..round: round 1 of 5 cards takes bids up to 5
    (3, (5, 1), "never", 1, [5, 0], [0, 1, 2, 3, 4, 5]),
    (3, (1, 5), "never", 2, [1, 0], [0, 1, 2, 3, 4, 5]),
    # the restriction keeps the total off the round's tricks, its hand size
    (3, (5, 1), "always", 1, [1, 1], [0, 1, 2, 4, 5]),
    (3, (1, 5), "always", 2, [2, 0], [0, 1, 2, 4, 5]),
    (3, (1, 5), "always", 2, [4, 4], [0, 1, 2, 3, 4, 5]),  # already past 5: nothing forbidden
    # after-round-1 exempts the game's first round (the ordinal), whatever its size ...
    (3, (5, 1), "after-round-1", 1, [1, 1], [0, 1, 2, 3, 4, 5]),
    # ... and no other: a later round of one card is restricted
    (3, (5, 1), "after-round-1", 2, [0, 0], [0]),
    (3, (5, 1), "after-round-1", 2, [1, 0], [1]),
]


@pytest.mark.parametrize(("players", "sizes", "restrict", "round_number", "before", "legal"), BIDS)
def test_bids_follow_the_round_s_hand_size(
    players: int,
    sizes: tuple[int, ...],
    restrict: str,
    round_number: int,
    before: list[int],
    legal: list[int],
) -> None:
    game = _game(players, sizes, restrict)
    _reach(game, round_number)
    game.deal(_deck(game))
    if game.phase is Phase.CHOOSE_TRUMP:
        game.choose_trump(game.turn, 0)
    bid_all(game, before)
    assert game.turn == game.dealer
    assert game.legal_bids() == legal
    assert tuple(seat_view(game, game.dealer).legal_bids) == tuple(legal)
    with pytest.raises(IllegalAction) as refused:
        game.bid(game.dealer, game.hand_size + 1)
    assert refused.value.reason is Reason.BID_OUT_OF_RANGE
    for bid in sorted(set(range(game.hand_size + 1)) - set(legal)):
        with pytest.raises(IllegalAction) as forbidden:
            game.bid(game.dealer, bid)
        assert forbidden.value.reason is Reason.BID_FORBIDDEN


def _deck(game: Game) -> tuple[int, ...]:
    """A deck turning up a plain card (the 1 of clubs) after the hands, when cards remain."""
    deck = [card for card in range(60) if card != 0]
    position = game.players * game.config.round_size(game.round + 1)
    if position < 60:
        deck.insert(position, 0)
    else:
        deck.append(0)
    return tuple(deck)


def test_a_round_ends_after_as_many_tricks_as_cards_each() -> None:
    game = _game(3, (2, 4, 1))
    counts = []
    while not game.is_over:
        play_out_round(game)
        counts.append(len(game.results[-1].tricks))
    assert counts == [2, 4, 1]
    assert [r.round for r in game.results] == [1, 2, 3]
    totals = [sum(r.points[s] for r in game.results) for s in range(3)]
    assert list(game.totals) == totals


def test_the_game_ends_after_its_last_scheduled_round() -> None:
    game = _game(4, (3, 1))
    play_out_round(game)
    assert game.phase is Phase.DEAL
    play_out_round(game)
    assert game.phase is Phase.GAME_OVER and game.round == 2
    with pytest.raises(IllegalAction) as over:
        game.apply(Deal(tuple(range(60))))
    assert over.value.reason is Reason.GAME_OVER


def test_the_deal_passes_left_every_round_over_the_whole_schedule() -> None:
    players, first = 3, 2
    game = _game(players, length_rounds("up-and-down", players) or (), dealer=first)
    dealers = []
    while not game.is_over:
        play_out_round(game)
        dealers.append(game.results[-1].dealer)
    assert len(dealers) == 39
    assert dealers == [(first + r - 1) % players for r in range(1, 40)]


def test_the_top_round_of_up_and_down_turns_no_trump() -> None:
    game = _game(5, length_rounds("up-and-down", 5) or ())
    _reach(game, 12)
    game.deal(tuple(range(60)))
    assert (game.round, game.hand_size, game.trump_card, game.trump_suit) == (12, 12, None, None)
    finish_round(game)
    game.deal(tuple(range(60)))
    assert (game.round, game.hand_size, game.trump_card) == (13, 11, 55)


@pytest.mark.parametrize(
    ("sizes", "phase_round", "charge"),
    [
        ((5, 1), 1, -50),  # per card of the round charged, not per ordinal
        ((5, 1), 2, -10),
        ((1, 12), 2, -120),
    ],
)
def test_a_void_charge_is_ten_a_card_of_its_round(
    sizes: tuple[int, ...], phase_round: int, charge: int
) -> None:
    game = _game(5 if 12 in sizes else 3, sizes)
    _reach(game, phase_round)
    assert game.charge(0) == charge  # between rounds: the next one's
    game.deal(tuple(range(60)))
    assert game.charge(1) == charge  # in the round
    finish_round(game)
    points = game.results[-1].points
    assert (points[0], points[1]) == (charge, charge)


def test_a_game_replays_from_its_actions_at_any_length() -> None:
    game = _game(4, (3, 15, 1), "always")
    while not game.is_over:
        play_out_round(game)
    again = Game.replay(game.config, game.actions)
    assert again.results == game.results and again.totals == game.totals


def test_hidden_hands_follow_the_schedule_too() -> None:
    """The host's engine of a private deal counts tricks and bids by the hand size."""
    config = GameConfig(3, 0, TableRules(RestrictLastBid.ALWAYS, rounds=(2, 1)))
    hidden = HiddenGame(config)
    real = Game(config)
    for _ in range(2):
        deck = tuple(range(60))
        real.deal(deck)
        hidden.start_round(real.trump_card)
        assert hidden.hand_size == real.hand_size
        assert hidden.legal_bids() == real.legal_bids()
        while real.phase is not Phase.DEAL and not real.is_over:
            action = real.legal_actions()[0]
            real.apply(action)
            hidden.apply(action)
            if real.phase is Phase.BID or hidden.phase is Phase.BID:
                assert hidden.legal_bids() == real.legal_bids()
        assert hidden.round_complete
        hidden.finish_round(deck)
        assert hidden.results == real.results
    assert hidden.is_over


def test_a_bid_above_the_hand_size_is_refused_in_a_later_round() -> None:
    game = _game(3, (1, 1, 1, 1, 1))
    _reach(game, 5)
    game.deal(tuple(range(60)))
    if game.phase is Phase.CHOOSE_TRUMP:
        game.choose_trump(game.turn, 0)
    with pytest.raises(IllegalAction) as refused:
        game.apply(Bid(game.turn, 2))  # round 5 deals one card: 2 tricks cannot be bid
    assert refused.value.reason is Reason.BID_OUT_OF_RANGE
