"""``hard`` never takes an overtrick, nor loses a trick it needs (or, its bid out of reach,
one that brings its score closer), that a legal card avoids for certain.

The oracle here is the engine's trick rule alone: a card that does not beat the card
winning the trick can never take it; a card that beats it, when nobody plays after or no
card this seat has not seen could beat it in turn, takes it for sure.
"""

from __future__ import annotations

import random

import pytest

from wizard_tui.bots import make_bot
from wizard_tui.bots.certain import sure_losers, sure_winners
from wizard_tui.game import Phase, SeatView, mask_of, seat_view
from wizard_tui.game.hidden import beats

from .helpers import cards, dealt_game, decision_points, game_at_round


def trump_of(view: SeatView) -> int | None:
    return int(view.trump_suit) if view.trump_suit is not None else None


def unseen_by(view: SeatView) -> set[int]:
    seen = set(view.hand) | set(view.played_cards)
    if view.trump_card is not None:
        seen.add(view.trump_card)
    return set(range(60)) - seen


def oracle_losers(view: SeatView) -> set[int]:
    if not view.trick:
        return set()  # (leading, only a Jester can be sure to lose; not checked here)
    win = dict(view.trick)[view.trick_winner]
    return {c for c in view.legal_cards if not beats(win, c, trump_of(view))}


def oracle_winners(view: SeatView) -> set[int]:
    trump = trump_of(view)
    last = len(view.trick) == view.players - 1
    unseen = unseen_by(view)
    out = set()
    for c in view.legal_cards:
        if view.trick and not beats(dict(view.trick)[view.trick_winner], c, trump):
            continue
        if not view.trick and c >= 56:
            continue  # a Jester lead is taken by any card that is not a Jester
        if last or not any(beats(c, u, trump) for u in unseen):
            out.add(c)
    return out


def positions(seeds: range):
    """Decisions of the last rounds of random 3-player games where the rule bites."""
    for seed in seeds:
        rng = random.Random(seed)
        game = game_at_round(3, 16 + seed % 5, dealer=seed % 3, seed=seed)
        for g, view in decision_points(game, rng, rounds=1):
            if g.phase is not Phase.PLAY or len(view.legal_cards) < 2:
                continue
            need = view.bids[view.seat] - view.tricks_won[view.seat]
            left = view.round - len(view.tricks)
            if need <= 0:
                safe = oracle_losers(view)
            elif need >= left:  # every trick needed, or the bid out of reach: each one counts
                safe = oracle_winners(view)
            else:
                continue
            if safe and len(safe) < len(view.legal_cards):
                yield seed, view, safe


def test_hard_takes_no_avoidable_overtrick_or_undertrick() -> None:
    bot = make_bot("hard", random.Random(5), max_samples=40)
    seen = 0
    wrong = []
    for seed, view, safe in positions(range(24)):
        seen += 1
        card = bot.decide(view).card
        if card not in safe:
            wrong.append((seed, view.round, len(view.tricks), card, sorted(safe)))
    assert seen >= 20
    assert not wrong, f"(seed, round, tricks done, card, safe cards): {wrong}"


@pytest.mark.parametrize("seed", range(6))
def test_sure_losers_and_winners_agree_with_the_trick_rule(seed: int) -> None:
    from wizard_tui.bots.knowledge import read_view

    for _, view, _safe in positions(range(seed * 4, seed * 4 + 4)):
        k = read_view(view)
        legal = mask_of(view.legal_cards)
        n_after = view.players - 1 - len(view.trick)
        t1 = k.trump + 1
        if view.trick:
            assert sure_losers(legal, k.win_card, n_after, k.unseen, t1) == mask_of(
                oracle_losers(view)
            )
        assert sure_winners(legal, k.win_card, n_after, k.unseen, t1) == mask_of(
            oracle_winners(view)
        )


def after_the_lead(game, plays: list[str]) -> SeatView:
    for name in plays:
        game.play(game.turn, cards(name)[0])
    return seat_view(game, game.turn)


def decisions(view: SeatView, seeds: range) -> list[int]:
    return [make_bot("hard", random.Random(s), max_samples=40).decide(view).card for s in seeds]


def test_round_19_spades_trump_bid_made_does_not_trump_clubs_and_hearts() -> None:
    """Spades trump, its bid made (0 of 0), void in clubs, last to play on 4C and 2H, with
    12S, the Wizards and hearts: a heart loses for certain, a spade or a Wizard takes an
    overtrick for certain."""
    hard = [*cards("12S 13S 11S 10S 9S 3H 5H 7H 9H 10H 12H 6D 8D 10D 12D 13D 11D"), 53, 54]
    first = [*cards("4C 2C 3C 5C 7C 9C 10C 12C 13C 11C 6C 8C 1C 1D 2D 3D 4D 5D"), 55]
    trump_card = cards("2S")[0]
    second = [c for c in range(60) if c not in {*hard, *first, trump_card}][:19]
    game = dealt_game(3, 19, 2, {0: first, 1: second, 2: hard}, trump_card=trump_card, seed=4)
    for b in (5, 6, 0):
        game.bid(game.turn, b)
    view = after_the_lead(game, ["4C", "2H"])
    assert view.seat == 2 and view.trump_suit == 3
    safe = oracle_losers(view)
    assert safe == set(view.legal_cards) - {*cards("12S 13S 11S 10S 9S"), 53, 54}
    assert all(c in safe for c in decisions(view, range(30)))


def test_round_20_no_trump_bid_made_plays_its_jester_not_a_winner() -> None:
    """No trump (every card dealt), its bid made (0 of 0), last to play on 4C and 1C with
    8C, a Jester and three Wizards: only the Jester loses for certain."""
    hard = [*cards("8C 11C 6C 2D 12H 6S 9S 1H 1D 10D 12S 3S 7H 5S 5D 4H"), 52, 53, 54, 56]
    first = [*cards("4C 2C 3C 5C 7C 9C 10C 12C 13C 2H 3H 5H 6H 8H 9H 10H 11H 13S 11S"), 55]
    second = [c for c in range(60) if c not in {*hard, *first}]
    game = dealt_game(3, 20, 2, {0: first, 1: second, 2: hard}, seed=4)
    for b in (5, 6, 0):
        game.bid(game.turn, b)
    view = after_the_lead(game, ["4C", "1C"])
    assert view.seat == 2 and view.trump_suit is None
    assert oracle_losers(view) == {56}
    assert decisions(view, range(30)) == [56] * 30


def test_round_19_bid_6_and_6_won_sheds_a_heart_not_the_queen_of_spades() -> None:
    """The issue's position: spades trump, bid 6 and 6 tricks won, void in clubs, last to
    play on a club and a heart holding 12S (the Queen), lower spades and hearts: any heart
    loses for certain, any spade takes a seventh trick for certain."""
    hard = [*cards("1S 3S 4S 5S 6S 7S 8S 9S 10S 11S 12S 13S 3H 5H 7H 9H"), 52, 53, 54]
    first = cards("1C 2C 3C 4C 5C 6C 7C 8C 9C 10C 11C 12C 13C 10H 11H 12H 13H 1D 2D")
    second = [*cards("3D 4D 5D 6D 7D 8D 9D 10D 11D 12D 13D 1H 2H 4H 6H 8H"), 55, 56, 57]
    game = dealt_game(3, 19, 2, {0: first, 1: second, 2: hard}, trump_card=cards("2S")[0])
    for b in (5, 6, 6):
        game.bid(game.turn, b)
    # Six tricks to seat 2 (three Wizards, three top trumps), then one to seat 0.
    for c in cards("1C 3D W1 W2 2C 4D W3 3C 5D 13S 4C 6D 11S 5C 7D 10S 6C 8D 3H 13H 1H"):
        game.play(game.turn, c)
    view = after_the_lead(game, ["7C", "2H"])
    assert view.seat == 2 and view.trump_suit == 3
    assert view.bids[2] == 6 and view.tricks_won[2] == 6 and len(view.tricks) == 7
    safe = oracle_losers(view)
    assert safe == set(cards("5H 7H 9H"))
    assert all(c in safe for c in decisions(view, range(30)))


def test_round_20_bid_made_plays_its_jester_not_8c_on_4c() -> None:
    """The issue's position: no trump, bid 2 and 2 tricks won, last to play on 4C and 1C
    with 8C, 6C, 11C, a Wizard and a Jester: every club and the Wizard take a third trick
    for certain, only the Jester loses."""
    hard = [*cards("8C 11C 6C 2D 12H 6S 9S 1H 1D 10D 12S 3S 7H 5S 5D 4H"), 52, 53, 54, 56]
    first = [*cards("4C 2C 3C 5C 7C 9C 10C 12C 13C 2H 3H 5H 6H 8H 9H 10H 11H 13S 11S"), 55]
    second = [c for c in range(60) if c not in {*hard, *first}]
    game = dealt_game(3, 20, 2, {0: first, 1: second, 2: hard})
    for b in (5, 6, 2):
        game.bid(game.turn, b)
    # Two tricks to seat 2 (Wizards), then one to seat 0 (its Wizard on a diamond lead).
    for c in cards("2C J2 W1 W2 3C J3 2D W4 3D"):
        game.play(game.turn, c)
    view = after_the_lead(game, ["4C", "1C"])
    assert view.seat == 2 and view.trump_suit is None
    assert view.bids[2] == 2 and view.tricks_won[2] == 2 and len(view.tricks) == 3
    assert oracle_losers(view) == {56}
    assert decisions(view, range(30)) == [56] * 30
