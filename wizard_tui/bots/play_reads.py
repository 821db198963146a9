"""What the others' cards say about their hands: weighing a sampled deal by their plays.

A sampled deal gives every other seat a hand; with the cards it has played since added
back, it also gives the hand that seat held at each of its plays this round. A deal in
which the ``pick`` policy, holding that hand, would have played what the seat did
explains the play better than one in which it would have played something else: a seat
that needed tricks and ducked probably held nothing that would have won. Each of a
seat's plays with a choice (two or more kinds of legal card, as that seat saw them)
that ``pick`` would not have made multiplies the deal's weight by ``mismatch``.

``pick`` is a model, not the truth: nobody plays exactly like it, so ``mismatch`` is well
above zero and a deal is only ever weighed down, never ruled out.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from ..game import LED_OPEN, LED_WIZARD, SeatView
from .fast import BEAT_MASK, FULL_MASK, legal_mask, pick

MISMATCH = 0.5  # a deal's weight for each play of another seat that ``pick`` would not make


class Play(NamedTuple):
    """Another seat's play this round, with what that seat knew when it made it."""

    seat: int
    card: int
    led: int
    win: int  # the card winning the trick before it, -1 when it led
    n_after: int  # players still to play after it in that trick
    need: int  # its bid minus the tricks it had won
    left: int  # tricks left, that one included
    avail: int  # cards not yet out of play before it (every hand and the undealt cards)
    since: int  # the cards that seat played from this one on (added back to its hand)


def past_plays(view: SeatView) -> list[Play]:
    """The other seats' plays of this round, in order, each with its context."""
    n, me = view.players, view.seat
    trump = int(view.trump_suit) if view.trump_suit is not None else -1
    beat = BEAT_MASK[trump + 1]
    avail = FULL_MASK
    if view.trump_card is not None:
        avail &= ~(1 << view.trump_card)
    won = [0] * n
    left = view.hand_size
    bids = view.bids
    plays_so_far: list[Play] = []
    sequences = [t.plays for t in view.tricks]
    sequences.append(view.trick)
    for plays in sequences:
        led, win, win_seat = LED_OPEN, -1, -1
        for i, (seat, card) in enumerate(plays):
            bid = bids[seat]
            if seat != me and bid is not None:
                need = bid - won[seat]
                plays_so_far.append(Play(seat, card, led, win, n - 1 - i, need, left, avail, 0))
            avail &= ~(1 << card)
            if win < 0 or beat[win] >> card & 1:
                win, win_seat = card, seat
            if led == LED_OPEN and card < 56:
                led = card // 13 if card < 52 else LED_WIZARD
        if len(plays) == n:
            won[win_seat] += 1
            left -= 1
    # The cards each seat played from each play on: walked backwards.
    since_by_seat = [0] * n
    for i in range(len(plays_so_far) - 1, -1, -1):
        p = plays_so_far[i]
        since_by_seat[p.seat] |= 1 << p.card
        plays_so_far[i] = p._replace(since=since_by_seat[p.seat])
    return plays_so_far


def same_kind(a: int, b: int, unseen: int) -> bool:
    """Whether ``a`` and ``b`` were interchangeable to a seat that had not seen ``unseen``:
    two Wizards, two Jesters, or two cards of a suit with no unseen card between them."""
    if a == b:
        return True
    if a >= 52 or b >= 52:
        return (a >= 56) == (b >= 56) and a >= 52 and b >= 52
    if a // 13 != b // 13:
        return False
    low, high = min(a, b), max(a, b)
    between = (1 << high) - (2 << low)
    return not unseen & between


def play_weigher(
    view: SeatView, t1: int, mismatch: float = MISMATCH
) -> Callable[[list[int]], float] | None:
    """A function giving how well a sampled deal (each seat's hand now) explains the other
    seats' plays so far; None when reading is off (``mismatch`` 1) or nobody else has
    played this round."""
    if mismatch >= 1.0:
        return None
    plays = past_plays(view)
    if not plays:
        return None
    players = view.players

    def weight(hands: list[int]) -> float:
        w = 1.0
        for p in plays:
            hand = hands[p.seat] | p.since
            legal = legal_mask(hand, p.led)
            if not legal & (legal - 1):
                continue  # a single legal card: nothing to tell
            unseen = p.avail & ~hand
            choice = pick(hand, p.led, p.win, p.n_after, p.need, p.left, unseen, t1, players)
            if not same_kind(choice, p.card, unseen):
                w *= mismatch
        return w

    return weight
