"""Scores, totals, the last round and the end of the game (RULES.md 6 and "End")."""

from __future__ import annotations

import pytest

from wizard_tui.game import (
    Bid,
    ChooseTrump,
    Deal,
    Game,
    GameConfig,
    GameOver,
    IllegalAction,
    Phase,
    Play,
    Reason,
    RoundScored,
    Suit,
    score,
    seat_view,
    winners,
)

from .helpers import (
    JESTERS,
    ROUNDS,
    WIZARDS,
    bid_all,
    build_deck,
    c,
    cs,
    dealt_game,
    finish_round,
    game_at_round,
    snapshot,
)


@pytest.mark.parametrize(
    ("bid", "tricks", "points"),
    [
        (0, 0, 20),  # a bid of 0 made scores 20
        (1, 1, 30),
        (2, 2, 40),
        (5, 5, 70),
        (20, 20, 220),
        (0, 1, -10),  # over by one
        (0, 3, -30),
        (1, 4, -30),
        (1, 0, -10),  # under by one
        (4, 1, -30),
        (20, 0, -200),
        (3, 5, -20),
    ],
)
def test_score_formula(bid: int, tricks: int, points: int) -> None:
    assert score(bid, tricks) == points


def three_wizards_round(bids: list[int]) -> Game:
    # 3 players, round 3, seat 2 deals: seat 0 holds three Wizards and leads every trick, so it
    # wins all three (the first Wizard); seats 1 and 2 win none.
    hands = [list(WIZARDS[:3]), cs("2C 3C 4C"), cs("5C 6C 7C")]
    game = dealt_game(3, 3, 2, hands, c("1H"))
    bid_all(game, bids)
    for _ in range(3):
        for seat in range(3):
            game.play(seat, game.legal_plays()[0])
    return game


@pytest.mark.parametrize(
    ("bids", "points"),
    [
        ([3, 0, 0], (50, 20, 20)),
        ([1, 0, 1], (-20, 20, -10)),
        ([0, 3, 2], (-30, -30, -20)),
        ([2, 1, 0], (-10, -10, 20)),
    ],
)
def test_round_points_from_bids_and_tricks(bids: list[int], points: tuple[int, ...]) -> None:
    game = three_wizards_round(bids)
    assert game.tricks_won == [3, 0, 0]
    result = game.results[-1]
    assert result.round == 3
    assert result.bids == tuple(bids)
    assert result.tricks_won == (3, 0, 0)
    assert result.points == points
    before = game.results[-2].totals
    assert result.totals == tuple(b + p for b, p in zip(before, points, strict=True))
    assert tuple(game.totals) == result.totals
    assert game.phase is Phase.DEAL


def test_round_scored_event_and_totals_add_up_over_rounds() -> None:
    game = Game(GameConfig(3, 2))
    # Round 1, seat 2 deals, hearts trump: seat 0 leads 5C, seat 1 trumps with 2H and wins.
    game.deal(build_deck(3, 1, 2, [cs("5C"), cs("2H"), cs("13C")], c("1H")))
    bid_all(game, [1, 1, 0])
    events = []
    for seat, card in enumerate(cs("5C 2H 13C")):
        events += game.apply(Play(seat, card))
    assert events[-1] == RoundScored(1, (1, 1, 0), (0, 1, 0), (-10, 30, 20), (-10, 30, 20))
    # Round 2, seat 0 deals, no trump (Jester turned): seat 1 leads and wins both with Wizards.
    hands = [cs("1C 2C"), [WIZARDS[0], WIZARDS[1]], cs("3C 4C")]
    game.deal(build_deck(3, 2, 0, hands, JESTERS[0]))
    bid_all(game, [2, 0, 0])  # seats 1, 2, 0
    for _ in range(2):
        for seat in (1, 2, 0):
            events = game.apply(Play(seat, game.legal_plays()[0]))
    assert events[-1] == RoundScored(2, (0, 2, 0), (0, 2, 0), (20, 40, 20), (10, 70, 40))
    assert game.totals == [10, 70, 40]
    assert [r.totals for r in game.results] == [(-10, 30, 20), (10, 70, 40)]


def test_round_one_with_six_players() -> None:
    # Seat 5 deals; seat 0 leads. Six cards dealt, the seventh (a spade) sets trump.
    cards = cs("7D 13D 1S 12D W3 J1")
    game = Game(GameConfig(6, 5))
    events = game.apply(Deal(build_deck(6, 1, 5, [[card] for card in cards], c("2S"))))
    assert game.round == 1 and game.dealer == 5
    assert [game.dealt_hand(s) for s in range(6)] == [(card,) for card in cards]
    assert game.trump_suit is Suit.SPADES
    assert events[0].trump_card == c("2S")
    assert game.turn == 0
    bid_all(game, [0, 0, 1, 0, 1, 0])
    for seat, card in enumerate(cards):
        events = game.apply(Play(seat, card))
    # The Wizard (seat 4) beats the trump 1S (seat 2).
    assert game.tricks[0].winner == 4
    assert events[-1] == RoundScored(
        1,
        (0, 0, 1, 0, 1, 0),
        (0, 0, 0, 0, 1, 0),
        (20, 20, -10, 20, 30, 20),
        (20, 20, -10, 20, 30, 20),
    )
    assert game.phase is Phase.DEAL and game.round == 1


# -------------------------------------------------------------- the end of the game


@pytest.mark.parametrize(
    ("totals", "expected"),
    [
        ([10, 20, 30], [2]),
        ([30, 20, 10], [0]),
        ([50, 50, 10], [0, 1]),
        ([-10, -20, -10, -30], [0, 2]),
        ([0, 0, 0, 0, 0, 0], [0, 1, 2, 3, 4, 5]),
        ([-50, -40, -60], [1]),
    ],
)
def test_highest_total_wins_and_ties_share(totals: list[int], expected: list[int]) -> None:
    assert winners(totals) == expected


def miss_by_one(game: Game) -> None:
    """Finish the round so that every seat misses its bid by exactly one trick."""
    oracle = game.copy()
    for _ in range(game.players):
        oracle.bid(oracle.turn, 0)
    finish_round(oracle)
    won = oracle.results[-1].tricks_won
    for _ in range(game.players):
        seat = game.turn
        t = won[seat]
        game.bid(seat, t + 1 if t < game.round else t - 1)
    finish_round(game)


def test_the_last_round_ends_the_game_with_shared_winners() -> None:
    # 4 players. Round 1 (seat 3 deals, seat 0 leads a Wizard): seats 1 and 3 bid 0 and make it
    # (+20); seats 0 and 2 miss by one (-10). Every later round every seat misses by one.
    game = Game(GameConfig(4, 3))
    game.deal(build_deck(4, 1, 3, [[WIZARDS[0]], cs("2C"), cs("3C"), cs("4C")], c("1H")))
    bid_all(game, [0, 0, 1, 0])
    for seat, card in enumerate([WIZARDS[0], *cs("2C 3C 4C")]):
        game.play(seat, card)
    assert game.totals == [-10, 20, -10, 20]
    while game.round < ROUNDS[4]:
        game.deal(list(range(60)))
        if game.phase is Phase.CHOOSE_TRUMP:
            game.choose_trump(game.turn, Suit.CLUBS)
        scored = len(game.results)
        miss_by_one(game)
        assert len(game.results) == scored + 1
        assert game.results[-1].points == (-10, -10, -10, -10)
    assert game.phase is Phase.GAME_OVER and game.is_over
    assert game.totals == [-150, -120, -150, -120]
    assert game.winners == [1, 3]


def test_game_over_event_names_the_winners() -> None:
    game = game_at_round(3, 20, dealer=1)
    hands = [list(range(s * 20, s * 20 + 20)) for s in range(3)]
    game.deal(build_deck(3, 20, 1, hands))
    for _ in range(3):
        game.bid(game.turn, 0)
    events = []
    while game.phase is Phase.PLAY:
        events = game.apply(Play(game.turn, game.legal_plays()[0]))
    assert isinstance(events[-2], RoundScored) and events[-2].round == 20
    totals = events[-2].totals
    best = max(totals)
    assert events[-1] == GameOver(totals, tuple(s for s in range(3) if totals[s] == best))


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_a_whole_game_has_60_over_players_rounds(players: int) -> None:
    game = Game(GameConfig(players, 0))
    rounds = 0
    while game.phase is not Phase.GAME_OVER:
        assert game.phase is Phase.DEAL
        game.deal(list(range(60)))
        rounds += 1
        assert game.round == rounds
        finish_round(game)
    assert rounds == ROUNDS[players]
    assert [r.round for r in game.results] == list(range(1, rounds + 1))
    assert [len(r.tricks) for r in game.results] == list(range(1, rounds + 1))
    assert game.turn == -1


def finished_game() -> Game:
    game = game_at_round(6, 10, dealer=2)
    game.deal(list(range(60)))
    finish_round(game)
    assert game.phase is Phase.GAME_OVER
    return game


@pytest.mark.parametrize(
    "action",
    [
        Deal(tuple(range(60))),
        Deal(tuple(range(59))),
        ChooseTrump(2, Suit.CLUBS),
        Bid(3, 0),
        Bid(3, 99),
        Play(3, 0),
        Play(9, 0),
    ],
    ids=repr,
)
def test_every_action_after_the_last_round_is_refused_as_game_over(action: object) -> None:
    game = finished_game()
    before = snapshot(game)
    with pytest.raises(IllegalAction) as err:
        game.apply(action)  # type: ignore[arg-type]
    assert err.value.reason is Reason.GAME_OVER
    assert err.value.code == "game_over"
    assert snapshot(game) == before


def test_game_over_view() -> None:
    game = finished_game()
    for seat in range(6):
        view = seat_view(game, seat)
        assert view.phase is Phase.GAME_OVER
        assert view.turn == -1 and not view.my_turn
        assert view.hand == ()
        assert view.legal_cards == () and view.legal_bids == ()
        assert len(view.history) == 10
        assert view.totals == tuple(game.totals)
