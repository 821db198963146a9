"""Exact play of the last tricks (``bots.endgame``): the memoised, class-merged solver
agrees with a plain enumeration of every card, and a hand-checked position."""

from __future__ import annotations

import random

import pytest

from wizard_tui.bots.endgame import Solver, move_classes
from wizard_tui.bots.fast import BEAT_MASK, legal_mask, pick
from wizard_tui.game import LED_OPEN, LED_WIZARD, cards_of, mask_of
from wizard_tui.game.rules import score

from .helpers import cards


def brute(
    hands: list[int], seat: int, led: int, win: int, win_seat: int, in_trick: int,
    trick: int, won: tuple[int, ...], left: int, bids: list[int], t1: int,
) -> tuple[int, ...]:  # fmt: skip
    """Max-n by trying every legal card, no memo: the natural card's class first, then the
    classes in ``move_classes`` order, the first strictly better kept (the solver's ties)."""
    n = len(hands)
    legal = legal_mask(hands[seat], led)
    in_hands = 0
    for h in hands:
        in_hands |= h
    classes = move_classes(legal, in_hands | trick)
    others = in_hands & ~hands[seat]
    natural = pick(
        hands[seat], led, win, n - 1 - in_trick, bids[seat] - won[seat], left, others, t1, n
    )

    def cls(c: int) -> int:
        return max(x for x in classes if _same_class(x, c, in_hands | trick))

    order = sorted(cards_of(legal), key=lambda c: (cls(c) != cls(natural), classes.index(cls(c))))
    best: tuple[int, ...] = ()
    best_score = -(10**9)
    for c in order:
        hs = list(hands)
        hs[seat] ^= 1 << c
        w, ws, ld = win, win_seat, led
        if w < 0 or BEAT_MASK[t1][w] >> c & 1:
            w, ws = c, seat
        if ld == LED_OPEN and c < 56:
            ld = c // 13 if c < 52 else LED_WIZARD
        if in_trick + 1 == n:
            final = list(won)
            final[ws] += 1
            if left > 1:
                out = brute(hs, ws, LED_OPEN, -1, -1, 0, 0, tuple(final), left - 1, bids, t1)
            else:
                out = tuple(final)
        else:
            out = brute(
                hs, (seat + 1) % n, ld, w, ws, in_trick + 1, trick | 1 << c, won, left, bids, t1
            )
        if score(bids[seat], out[seat]) > best_score:
            best, best_score = out, score(bids[seat], out[seat])
    return best


def _same_class(rep: int, c: int, between: int) -> bool:
    """``c`` belongs to the class whose lowest card is ``rep`` (among cards still in play)."""
    if rep >= 56 or c >= 56:
        return rep >= 56 and c >= 56
    if rep >= 52 or c >= 52:
        return rep >= 52 and c >= 52
    if rep == c:
        return True
    if rep // 13 != c // 13 or rep > c:
        return False
    return not between & ((1 << c) - (2 << rep))


@pytest.mark.parametrize("players,left", [(3, 2), (3, 3), (4, 2), (5, 2)])
def test_the_solver_agrees_with_plain_enumeration(players: int, left: int) -> None:
    rng = random.Random(players * 10 + left)
    for _ in range(25):
        deck = list(range(60))
        rng.shuffle(deck)
        hands = [mask_of(deck[s * left : (s + 1) * left]) for s in range(players)]
        t1 = rng.randrange(5)
        bids = [rng.randrange(left + 1) for _ in range(players)]
        won = [0] * players
        me = rng.randrange(players)
        h0 = hands[me]
        moves = move_classes(h0, sum(hands))
        values = Solver(bids, t1).root_values(hands, me, moves, 0, 0, LED_OPEN, -1, -1, won, left)
        for card, value in zip(moves, values, strict=True):
            hs = list(hands)
            hs[me] ^= 1 << card
            led = card // 13 if card < 52 else (LED_WIZARD if card < 56 else LED_OPEN)
            expected = brute(hs, (me + 1) % players, led, card, me, 1, 1 << card,
                             tuple(won), left, bids, t1)  # fmt: skip
            assert value == expected[me]


def test_a_position_worked_by_hand() -> None:
    # 3 players, no trump, 2 tricks left, seat 0 leads and needs exactly one more trick.
    # Seat 0: 13H and 2C. Seat 1: 12H and 3C (needs one). Seat 2: 5S and 6S (needs none).
    # Leading 13H takes the first trick (12H must follow); then 2C loses to 3C: one trick.
    # Leading 2C: 3C takes it, seat 1 then leads 12H and 13H takes it: one trick as well.
    hands = [mask_of(cards("13H 2C")), mask_of(cards("12H 3C")), mask_of(cards("5S 6S"))]
    bids = [1, 1, 0]
    moves = move_classes(hands[0], sum(hands))
    values = Solver(bids, 0).root_values(hands, 0, moves, 0, 0, LED_OPEN, -1, -1, [0, 0, 0], 2)
    assert dict(zip(moves, values, strict=True)) == {card: 1 for card in cards("13H 2C")}
    # A seat needing no tricks with a Wizard and a Jester, following a lead of 2C: the
    # Jester is its only card that does not take the trick.
    hands = [mask_of(cards("2C 4C")), mask_of([52, 56]), mask_of(cards("5S 6S"))]
    bids = [2, 0, 0]
    values = Solver(bids, 0).root_values(hands, 0, cards("2C"), 0, 0, LED_OPEN, -1, -1, [0] * 3, 2)
    # Seat 1 sheds its Jester on the first trick (2C holds: spades are not clubs, no trump),
    # then must play its Wizard on the second: seat 0 makes one trick of two.
    assert values == [1]
