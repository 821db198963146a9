"""Hidden bids (docs/rules.md, "Hidden bids"): no restricted last bid, and no seat sees another's
bid before every bid is in."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wizard_tui.bots import LEVELS, make_bot
from wizard_tui.game import (
    Bid,
    Game,
    GameConfig,
    IllegalAction,
    Phase,
    RestrictLastBid,
    TableRules,
    length_rounds,
    seat_view,
)
from wizard_tui.game.hidden import HiddenGame

from .helpers import bid_all, build_deck, first_dealer_for

HIDDEN = True


def dealt(players: int, r: int, dealer: int, restrict: RestrictLastBid, hidden: bool) -> Game:
    """A game dealt round ``r`` by ``dealer``: earlier rounds played with the first legal
    moves, this one dealt from the cards in id order (never a Wizard turned: see below)."""
    rules = TableRules(restrict, hidden_bids=hidden)
    game = Game(GameConfig(players, first_dealer_for(players, r, dealer), rules))
    while game.round < r:
        deck = build_deck(
            players,
            game.round + 1,
            (game.dealer + 1) % players,  # the next round's dealer
            [list(range(k * (game.round + 1), (k + 1) * (game.round + 1))) for k in range(players)],
            51,  # the 13 of spades turned: trump is spades, nobody chooses
        )
        game.deal(deck)
        if game.round == r:
            break
        while game.phase is not Phase.DEAL:
            if game.phase is Phase.BID:
                game.bid(game.turn, 0)
            else:
                game.play(game.turn, game.legal_plays()[0])
    assert game.phase is Phase.BID and game.dealer == dealer
    return game


# The rules.md table of the restricted last bid, played again under hidden bids: each row's
# "forbidden" bid is allowed now. (form, round, the other bids, the bid that is forbidden
# without hidden bids.)
RESTRICTED_ROWS = [
    (RestrictLastBid.ALWAYS, 1, (0, 0), 1),
    (RestrictLastBid.ALWAYS, 1, (1, 0), 0),
    (RestrictLastBid.AFTER_ROUND_1, 2, (1, 0), 1),
    (RestrictLastBid.ALWAYS, 3, (1, 1), 1),
    (RestrictLastBid.ALWAYS, 3, (0, 0), 3),
]


@pytest.mark.parametrize(("form", "r", "others", "forbidden"), RESTRICTED_ROWS)
def test_the_restricted_last_bid_does_not_apply(
    form: RestrictLastBid, r: int, others: tuple[int, int], forbidden: int
) -> None:
    plain = dealt(3, r, 2, form, not HIDDEN)
    bid_all(plain, others)
    assert plain.forbidden_bid() == forbidden
    with pytest.raises(IllegalAction) as refused:
        plain.bid(2, forbidden)
    assert refused.value.code == "bid_forbidden"

    hidden = dealt(3, r, 2, form, HIDDEN)
    bid_all(hidden, others)
    assert hidden.forbidden_bid() is None
    assert hidden.legal_bids() == list(range(r + 1))
    view = seat_view(hidden, 2)
    assert view.forbidden_bid is None and view.legal_bids == tuple(range(r + 1))
    hidden.bid(2, forbidden)  # the bid the restriction forbids is taken
    assert hidden.phase is Phase.PLAY
    assert sum(b for b in hidden.bids if b is not None) == r


def test_the_rule_as_played_is_never_under_hidden_bids() -> None:
    for form in RestrictLastBid:
        assert TableRules(form, hidden_bids=True).last_bid_rule is RestrictLastBid.NEVER
        assert TableRules(form).last_bid_rule is form


# Bids made so far (in bidding order from the dealer's left; dealer 3 of 4, so seats 0, 1,
# 2, 3 bid in that order) -> for each seat: the bids its view shows, its turn, whether it
# may bid now.
MASK_ROWS = [
    ((), [(None,) * 4] * 4, [0, 1, 2, 3], [True] * 4),
    (
        (2,),
        [(2, None, None, None), (None,) * 4, (None,) * 4, (None,) * 4],
        [1, 1, 2, 3],
        [False, True, True, True],
    ),
    (
        (2, 0, 3),
        [
            (2, None, None, None),
            (None, 0, None, None),
            (None, None, 3, None),
            (None,) * 4,
        ],
        [3, 3, 3, 3],
        [False, False, False, True],
    ),
]


@pytest.mark.parametrize(("made", "shown", "turns", "may_bid"), MASK_ROWS)
def test_a_view_shows_no_other_bid_while_bidding(
    made: tuple[int, ...],
    shown: list[tuple[int | None, ...]],
    turns: list[int],
    may_bid: list[bool],
) -> None:
    game = dealt(4, 3, 3, RestrictLastBid.ALWAYS, HIDDEN)
    bid_all(game, made)
    for seat in range(4):
        view = seat_view(game, seat)
        assert view.bids == shown[seat]
        assert view.turn == turns[seat]
        assert view.my_turn is may_bid[seat]
        assert view.legal_bids == (tuple(range(4)) if may_bid[seat] else ())
        assert view.forbidden_bid is None


def test_every_bid_is_shown_once_all_are_in() -> None:
    game = dealt(4, 3, 3, RestrictLastBid.NEVER, HIDDEN)
    bid_all(game, (2, 0, 3, 1))
    assert game.phase is Phase.PLAY
    for seat in range(4):
        assert seat_view(game, seat).bids == (2, 0, 3, 1)


def test_without_hidden_bids_every_bid_is_public_at_once() -> None:
    game = dealt(4, 3, 3, RestrictLastBid.NEVER, not HIDDEN)
    bid_all(game, (2, 0))
    for seat in range(4):
        view = seat_view(game, seat)
        assert view.bids == (2, 0, None, None)
        assert view.turn == 2


def test_the_hidden_hands_engine_plays_no_restriction_either() -> None:
    for hidden, forbidden in ((False, 1), (True, None)):
        rules = TableRules(RestrictLastBid.ALWAYS, hidden_bids=hidden)
        game = HiddenGame(GameConfig(3, 0, rules))
        game.start_round(51)  # round 1, the 13 of spades turned
        game.apply(Bid(1, 0))
        game.apply(Bid(2, 0))
        assert game.forbidden_bid() == forbidden
        assert (1 in game.legal_bids()) is hidden


@pytest.mark.parametrize("level", LEVELS)
def test_every_bot_level_bids_the_same_whatever_the_earlier_bids(level: str) -> None:
    """A bot's bid comes from its view alone, and its view holds no earlier bid: so the
    earlier bids cannot change it (the same seed, the same bid)."""
    bids = set()
    for earlier in ((0, 0), (3, 3), (1, 2)):
        game = dealt(3, 3, 2, RestrictLastBid.ALWAYS, HIDDEN)
        bid_all(game, earlier)
        view = seat_view(game, 2)
        bot = make_bot(
            level if level not in ("hard", "expert") else f"{level}:samples=20,bid_budget=60"
        )
        bot.rng = random.Random(7)
        action = bot.decide(view)
        assert isinstance(action, Bid) and action.bid in view.legal_bids
        bids.add(action.bid)
    assert len(bids) == 1


LENGTHS = st.sampled_from(["full", "short"])  # the lengths the engine plays today


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(3, 6),
    form=st.sampled_from(list(RestrictLastBid)),
    forehead=st.booleans(),
    length=LENGTHS,
)
def test_random_games_with_hidden_bids(
    seed: int, players: int, form: RestrictLastBid, forehead: bool, length: str
) -> None:
    """Random games with hidden bids and any other options: every bid 0..r is taken (the
    restriction given is ignored), and while the bids come in no view shows another's."""
    rng = random.Random(seed)
    rules = TableRules(form, True, forehead, length_rounds(length, players))
    game = Game(GameConfig(players, rng.randrange(players), rules))
    made_total = 0
    while game.phase is not Phase.GAME_OVER:
        if game.phase is Phase.DEAL:
            deck = list(range(60))
            rng.shuffle(deck)
            game.deal(deck)
        elif game.phase is Phase.CHOOSE_TRUMP:
            game.choose_trump(game.turn, rng.randrange(4))
        elif game.phase is Phase.BID:
            r = game.hand_size
            for seat in range(players):
                view = seat_view(game, seat)
                own = game.bids[seat]
                assert view.bids == tuple(own if s == seat else None for s in range(players))
                assert view.forbidden_bid is None
                assert view.legal_bids == (tuple(range(r + 1)) if own is None else ())
            bidder = game.turn
            last = sum(b is None for b in game.bids) == 1
            bid = rng.randrange(r + 1)
            if last and rng.random() < 0.5:  # aim at the bid the restriction would forbid
                target = r - sum(b for b in game.bids if b is not None)
                bid = target if 0 <= target <= r else bid
            game.bid(bidder, bid)
            if last:
                made_total += sum(game.bids) == r  # type: ignore[arg-type]  # every bid is in
                assert all(seat_view(game, s).bids == game.bids for s in range(players))
        else:
            game.play(game.turn, rng.choice(game.legal_plays()))
    assert game.round == game.num_rounds
