"""Exact play of the last tricks of a round on one deal whose hands are all known.

``hard`` samples deals of the cards it has not seen; when few cards are left it solves each
sampled deal instead of playing it out with the ``pick`` heuristic. The solution is the
*max-n* one: every seat, in turn, plays the card that gives it the best round score of its
own, knowing every hand (the bids are fixed and public). Scores in a round are not
zero-sum (two players may both make their bids), so this is not minimax: each seat
maximises its own ``score(bid, tricks)``. A seat indifferent between cards plays the one
that ``pick`` would (its natural card), so ties follow the same model of play as the
playouts do.

Equivalent cards are one move (``hard.candidate_cards`` classes, here over the cards
still in hands and in the trick), and positions are memoised within one deal, so three
tricks of three or four players cost some hundreds of positions.
"""

from __future__ import annotations

from ..game import LED_OPEN, LED_WIZARD, cards_of
from ..game.engine import SUIT_MASKS
from ..game.rules import score
from .fast import BEAT_MASK, legal_mask, pick

Won = tuple[int, ...]


def move_classes(legal: int, between: int) -> list[int]:
    """One card per class of interchangeable cards among ``legal``, the lowest of each:
    all Wizards; all Jesters; cards of one suit with no card of ``between`` between them."""
    out = []
    wizards = legal >> 52 & 0xF
    if wizards:
        out.append(52 + (wizards & -wizards).bit_length() - 1)
    jesters = legal >> 56 & 0xF
    if jesters:
        out.append(56 + (jesters & -jesters).bit_length() - 1)
    for suit in range(4):
        prev = -1
        for c in cards_of(legal & SUIT_MASKS[suit]):
            if prev >= 0 and not between & ((1 << c) - (2 << prev)):
                prev = c
                continue
            out.append(c)
            prev = c
    return out


class Solver:
    """Max-n solution of the rest of a round on one deal (``hands`` of every seat known).

    ``bids``: every seat's bid; ``t1``: trump + 1; ``unseen_of`` is not needed: every hand
    is known, so a seat's natural card (the tie-break) is ``pick`` with the other hands as
    its unseen cards.
    """

    def __init__(self, bids: list[int], t1: int) -> None:
        self.bids = bids
        self.t1 = t1
        self.beat = BEAT_MASK[t1]
        self.memo: dict[tuple[object, ...], Won] = {}
        self.nodes = 0

    def root_values(
        self,
        hands: list[int],
        seat: int,
        moves: list[int],
        in_trick: int,
        trick_mask: int,
        led: int,
        win: int,
        win_seat: int,
        won: list[int],
        left: int,
    ) -> list[int]:
        """Tricks ``seat`` ends the round with after each of ``moves`` (cards of its hand),
        every seat playing its best from then on."""
        hs = tuple(hands)
        out = []
        for card in moves:
            final = self._after(hs, seat, card, in_trick, trick_mask, led, win, win_seat, won, left)
            out.append(final[seat])
        return out

    def _after(
        self,
        hands: tuple[int, ...],
        seat: int,
        card: int,
        in_trick: int,
        trick_mask: int,
        led: int,
        win: int,
        win_seat: int,
        won: Won | list[int],
        left: int,
    ) -> Won:
        n = len(hands)
        bit = 1 << card
        hs = (*hands[:seat], hands[seat] ^ bit, *hands[seat + 1 :])
        if win < 0 or self.beat[win] & bit:
            win, win_seat = card, seat
        if led == LED_OPEN and card < 56:
            led = card // 13 if card < 52 else LED_WIZARD
        in_trick += 1
        if in_trick == n:
            w = list(won)
            w[win_seat] += 1
            if left == 1:
                return tuple(w)
            return self._node(hs, win_seat, 0, 0, LED_OPEN, -1, -1, tuple(w), left - 1)
        nxt = seat + 1 if seat + 1 < n else 0
        return self._node(hs, nxt, in_trick, trick_mask | bit, led, win, win_seat, tuple(won), left)

    def _node(
        self,
        hands: tuple[int, ...],
        seat: int,
        in_trick: int,
        trick_mask: int,
        led: int,
        win: int,
        win_seat: int,
        won: Won,
        left: int,
    ) -> Won:
        key = (hands, seat, trick_mask, win_seat, won)
        hit = self.memo.get(key)
        if hit is not None:
            return hit
        self.nodes += 1
        hand = hands[seat]
        legal = legal_mask(hand, led)
        if legal & (legal - 1):
            in_hands = 0
            for h in hands:
                in_hands |= h
            moves = move_classes(legal, in_hands | trick_mask)
        else:
            moves = [legal.bit_length() - 1]
        if len(moves) == 1:
            best = self._after(
                hands, seat, moves[0], in_trick, trick_mask, led, win, win_seat, won, left
            )
        else:
            n = len(hands)
            others = 0
            for s, h in enumerate(hands):
                if s != seat:
                    others |= h
            natural = pick(
                hand,
                led,
                win,
                n - 1 - in_trick,
                self.bids[seat] - won[seat],
                left,
                others,
                self.t1,
                n,
            )
            # The natural card's class first, so that ties keep it.
            first = _class_of(natural, moves)
            moves.sort(key=lambda c: c != first)
            bid = self.bids[seat]
            best = ()
            best_score = -(10**9)
            for c in moves:
                final = self._after(
                    hands, seat, c, in_trick, trick_mask, led, win, win_seat, won, left
                )
                s = score(bid, final[seat])
                if s > best_score:
                    best, best_score = final, s
        self.memo[key] = best
        return best


def _class_of(card: int, moves: list[int]) -> int:
    """The move standing for ``card``: the highest class representative not above it."""
    if card in moves:
        return card
    if card >= 56:
        return next(c for c in moves if c >= 56)
    if card >= 52:
        return next(c for c in moves if 52 <= c < 56)
    return max(c for c in moves if c < card and c // 13 == card // 13)


__all__ = ["Solver", "move_classes"]
