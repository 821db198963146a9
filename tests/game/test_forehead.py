"""The forehead round (docs/rules.md, "The forehead round"), one table row per case, and a
property over random games with the forehead rule and random other options."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wizard_tui.bots import make_bot
from wizard_tui.bots.forehead import bid_weight, trick_winner, win_chance
from wizard_tui.game import (
    BLIND_CARD,
    Bid,
    Deal,
    Game,
    GameConfig,
    IllegalAction,
    Phase,
    Play,
    Reason,
    RestrictLastBid,
    TableRules,
    check_seat_play,
    is_forehead_round,
    resolve_blind,
    seat_view,
)
from wizard_tui.game.hidden import HiddenGame

from .helpers import build_deck, c, cs

FOREHEAD = TableRules(forehead=True)


@pytest.mark.parametrize(
    ("rules", "hand_size", "expected"),
    [
        (FOREHEAD, 1, True),  # round 1 of the full game
        (FOREHEAD, 2, False),  # more cards: a player could not know what may follow suit
        (FOREHEAD, 20, False),
        (TableRules(), 1, False),  # the rule is off
        (TableRules(forehead=True, rounds=(1, 2, 1)), 1, True),  # any one-card round
        (TableRules(forehead=True, hidden_bids=True), 1, True),
    ],
)
def test_which_rounds_are_forehead_rounds(
    rules: TableRules, hand_size: int, expected: bool
) -> None:
    assert is_forehead_round(rules, hand_size) is expected


def forehead_game(hands: str, trump: str, players: int = 3, dealer: int = 0) -> Game:
    """Round 1 of a forehead game dealt ``hands`` (one card per seat) with ``trump`` up."""
    game = Game(GameConfig(players, dealer, FOREHEAD))
    deck = build_deck(players, 1, dealer, [[card] for card in cs(hands)], c(trump))
    game.apply(Deal(deck))
    return game


@pytest.mark.parametrize(
    ("hands", "seat", "foreheads"),
    [
        ("5H 13C W1", 0, (None, c("13C"), c("W1"))),
        ("5H 13C W1", 1, (c("5H"), None, c("W1"))),
        ("5H 13C W1", 2, (c("5H"), c("13C"), None)),
        ("J1 J2 1S", 2, (c("J1"), c("J2"), None)),  # Jesters on foreheads: shown as any card
    ],
)
def test_a_seat_sees_the_others_cards_and_not_its_own(
    hands: str, seat: int, foreheads: tuple[int | None, ...]
) -> None:
    game = forehead_game(hands, "2D")
    view = seat_view(game, seat)
    assert view.forehead and view.hand == () and view.blind_cards == 1
    assert view.foreheads == foreheads
    assert view.trump_card == c("2D")  # the turned card is on nobody's forehead


def test_the_one_legal_move_is_play_your_card_and_it_plays_the_card_held() -> None:
    game = forehead_game("5H 13C W1", "2D")  # dealer 0: seat 1 bids and leads first
    for bid in (1, 0, 0):
        game.bid(game.turn, bid)
    assert game.phase is Phase.PLAY and game.turn == 1
    view = seat_view(game, 1)
    assert view.legal_cards == (BLIND_CARD,)
    assert seat_view(game, 2).legal_cards == ()  # not on turn
    events = game.apply(Play(1, BLIND_CARD))
    assert events[0].card == c("13C")  # the card seat 1 held, unseen
    after = seat_view(game, 1)
    assert after.blind_cards == 0 and after.foreheads[1] is None
    assert seat_view(game, 2).foreheads == (c("5H"), None, None)  # played: now in the trick
    assert Play(1, c("13C")) in game.actions  # the record holds the real card
    game.apply(Play(2, BLIND_CARD))
    game.apply(Play(0, BLIND_CARD))
    assert game.results[-1].tricks_won == (0, 0, 1)  # the Wizard on seat 2's forehead won
    assert Game.replay(game.config, game.actions).totals == game.totals


@pytest.mark.parametrize(
    ("rules", "round_number", "code"),
    [
        (TableRules(), 1, Reason.NOT_A_CARD),  # no forehead rule
        (FOREHEAD, 2, Reason.NOT_A_CARD),  # a round of two cards
    ],
)
def test_a_blind_play_outside_a_forehead_round_is_refused(
    rules: TableRules, round_number: int, code: Reason
) -> None:
    game = Game(GameConfig(3, 0, rules))
    game.apply(Deal(tuple(range(60))))
    while game.round < round_number:
        while game.phase is not Phase.DEAL:
            if game.phase is Phase.BID:
                game.bid(game.turn, 0)
            else:
                game.play(game.turn, game.legal_plays()[0])
        game.apply(Deal(tuple(range(60))))
    for _ in range(3):
        game.bid(game.turn, 0)
    before = game.actions
    with pytest.raises(IllegalAction) as caught:
        game.apply(Play(game.turn, BLIND_CARD))
    assert caught.value.reason is code
    assert game.actions == before


@pytest.mark.parametrize(
    ("rules", "hand_size", "card", "refused"),
    [
        (FOREHEAD, 1, c("5H"), True),  # naming a card in a forehead round
        (FOREHEAD, 1, BLIND_CARD, False),
        (FOREHEAD, 2, c("5H"), False),
        (TableRules(), 1, c("5H"), False),
    ],
)
def test_a_host_refuses_a_named_card_in_a_forehead_round(
    rules: TableRules, hand_size: int, card: int, refused: bool
) -> None:
    if refused:
        with pytest.raises(IllegalAction) as caught:
            check_seat_play(rules, hand_size, card)
        assert caught.value.reason is Reason.MUST_PLAY_BLIND
    else:
        check_seat_play(rules, hand_size, card)


def test_resolve_blind_names_the_card_and_leaves_other_plays() -> None:
    game = forehead_game("5H 13C W1", "2D")
    assert resolve_blind(game, Play(0, BLIND_CARD)) == Play(0, c("5H"))
    assert resolve_blind(game, Play(0, c("5H"))) == Play(0, c("5H"))
    assert resolve_blind(game, Play(7, BLIND_CARD)) == Play(7, BLIND_CARD)  # for the engine


def test_the_hidden_game_offers_the_blind_play_and_shows_no_card() -> None:
    hidden = HiddenGame(GameConfig(3, 0, FOREHEAD))
    hidden.start_round(c("2D"))
    for bid in (0, 0, 0):
        hidden.apply(Bid(hidden.turn, bid))
    view = seat_view(hidden, hidden.turn)  # type: ignore[arg-type]
    assert view.legal_cards == (BLIND_CARD,) and view.hand == ()
    assert view.foreheads == (None, None, None)  # the host knows no card


@pytest.mark.parametrize(
    ("order", "cards", "trump", "winner"),
    [
        ([1, 2, 0], {1: c("5H"), 2: c("13C"), 0: c("W1")}, 3, 0),
        ([1, 2, 0], {1: c("W2"), 2: c("13C"), 0: c("W1")}, 3, 1),  # the first Wizard
        ([1, 2, 0], {1: c("J1"), 2: c("2C"), 0: c("13H")}, 2, 0),  # trump after a Jester
        ([1, 2, 0], {1: c("J1"), 2: c("J2"), 0: c("J3")}, None, 1),  # all Jesters
        ([0, 1, 2], {0: c("5C"), 1: c("13D"), 2: c("7C")}, None, 2),  # off-suit never wins
    ],
)
def test_the_bots_trick_of_one_card_each(
    order: list[int], cards: dict[int, int], trump: int | None, winner: int
) -> None:
    assert trick_winner(order, cards, trump) == winner


@pytest.mark.parametrize(
    ("hands", "trump", "seat", "low", "high"),
    [
        # Seat 2 plays last: a Wizard already on the table (seat 1's) beats whatever it holds.
        ("5H W1 x", "2D", 2, 0.0, 0.0),
        # Every other card is a Jester: seat 2 wins with anything but a Jester.
        ("J1 J2 x", "J3", 2, 0.95, 1.0),
    ],
)
def test_a_bots_chance_of_winning_from_the_others_cards(
    hands: str, trump: str, seat: int, low: float, high: float
) -> None:
    names = hands.split()
    own = next(n for n in ("1C", "2C", "3C") if n not in names)
    game = forehead_game(" ".join(own if n == "x" else n for n in names), trump)
    chance = win_chance(seat_view(game, seat))
    assert low <= chance <= high


@settings(max_examples=25, deadline=None)
@given(
    players=st.integers(3, 6),
    first_dealer=st.integers(0, 5),
    restrict=st.sampled_from(list(RestrictLastBid)),
    hidden_bids=st.booleans(),
    short=st.booleans(),
    level=st.sampled_from(["random", "easy", "normal"]),
    seed=st.integers(0, 2**32 - 1),
)
def test_random_forehead_games_never_show_a_seat_its_own_card(
    players: int,
    first_dealer: int,
    restrict: RestrictLastBid,
    hidden_bids: bool,
    short: bool,
    level: str,
    seed: int,
) -> None:
    """Bots play whole games from their views alone: in every one-card round no view holds
    its seat's card, every view shows the others' unplayed cards, and the only play is
    blind; the game ends and replays to the same totals."""
    # (The engine deals ``round`` cards today: a short game is the full game's first half.)
    rounds = tuple(range(1, (60 // players + 1) // 2 + 1)) if short else None
    rules = TableRules(restrict, hidden_bids=hidden_bids, forehead=True, rounds=rounds)
    game = Game(GameConfig(players, first_dealer % players, rules))
    rng = random.Random(seed)
    bots = [make_bot(level, rng=random.Random(rng.getrandbits(32))) for _ in range(players)]
    while not game.is_over:
        deck = list(range(60))
        rng.shuffle(deck)
        game.apply(Deal(tuple(deck)))
        while game.phase not in (Phase.DEAL, Phase.GAME_OVER):
            for seat in range(players):
                view = seat_view(game, seat)
                if not view.forehead:
                    continue
                own = game.hand(seat)
                assert view.hand == () and view.foreheads[seat] is None
                assert not set(own) & {card for card in view.foreheads if card is not None}
                for other in range(players):
                    if other != seat:
                        held = game.hand(other)
                        assert view.foreheads[other] == (held[0] if held else None)
                assert view.legal_cards == (
                    (BLIND_CARD,) if view.my_turn and view.phase is Phase.PLAY else ()
                )
            action = bots[game.turn].decide(seat_view(game, game.turn))
            if game.hand_size == 1 and game.phase is Phase.PLAY:
                assert action == Play(game.turn, BLIND_CARD)
            game.apply(action)
    assert Game.replay(game.config, game.actions).totals == game.totals


def test_hard_reads_the_earlier_bids_of_players_who_see_its_card() -> None:
    """Seat 1 leads and bid 1, seeing seat 0's card: a Wizard there (which would beat it)
    explains that bid worse than a low card does, so hard weighs it less."""
    game = forehead_game("3C 5H 2S", "7D")  # dealer 0: seat 1 bids first and leads
    game.bid(1, 1)
    view = seat_view(game, 0)
    order = [1, 2, 0]
    cards = {1: c("5H"), 2: c("2S")}
    low = bid_weight(view, {**cards, 0: c("3C")}, order, 1)
    wizard = bid_weight(view, {**cards, 0: c("W1")}, order, 1)
    assert wizard < low
    assert win_chance(view, weights=True) <= win_chance(view)
