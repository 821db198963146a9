"""``normal``: a solid heuristic player that aims at its bid exactly.

Bids: every card's chance of taking a trick (``bidding``), nudged by what the earlier
bidders said, gives a trick-count distribution; the bid is the legal one with the best
expected score, never below the tricks the hand takes for sure. Play (``fast.pick``):
when tricks are still needed, win as cheaply as is likely to hold against the players
still to come; when not, play the highest card that loses, dumping the dangerous
ones; lead the surest card when every trick left is needed. It counts cards: a card's
chances come from the cards it has not seen, so played Wizards and trumps stop
frightening it.
"""

from __future__ import annotations

from ..game import SeatView, mask_of
from . import bidding
from .base import Bot
from .fast import pick
from .knowledge import read_view

# How far the earlier bidders' greed or modesty moves our own expectation.
TABLE_PRESSURE = 0.35


def choose_trump_by_strength(view: SeatView) -> int:
    """The suit that makes this hand strongest (a Wizard was turned up, so it is out)."""
    hand = mask_of(view.hand)
    return max(
        range(4),
        key=lambda s: (
            bidding.expected_tricks(hand, s, view.trump_card, view.players, view.hand_size),
            (hand >> (13 * s) & 0x1FFF).bit_count(),
        ),
    )


def bid_distribution(view: SeatView, pressure: float = TABLE_PRESSURE) -> list[float]:
    """The trick-count distribution this hand expects, given the bids already made."""
    k = read_view(view)
    if k.hand_size == 1 and k.seat == (view.dealer + 1) % k.players:
        # Leading the only trick: every card is forced, so the chance is exact.
        card = k.hand.bit_length() - 1
        return bidding.distribution([bidding.lead_chance(card, k.trump, k.unseen, k.players)])
    chances = bidding.trick_chances(k.hand, k.trump, view.trump_card, k.players, k.hand_size)
    mean = sum(chances)
    known = [b for b in view.bids if b is not None]
    if known and pressure:
        neutral = len(known) * max(0.0, k.hand_size - mean) / (k.players - 1)
        target = mean - pressure * (sum(known) - neutral)
        target = min(max(target, 0.0), float(len(chances)))
        chances = _rescale(chances, target)
    return bidding.distribution(chances)


def _rescale(chances: list[float], target: float) -> list[float]:
    """Move the chances so they sum to ``target``, keeping each within 0..1."""
    total = sum(chances)
    if abs(total - target) < 1e-9:
        return chances
    if target < total:
        f = target / total if total else 0.0
        return [p * f for p in chances]
    room = sum(1.0 - p for p in chances)
    f = (target - total) / room if room else 0.0
    return [p + (1.0 - p) * f for p in chances]


def sensible_bid(view: SeatView, dist: list[float]) -> int:
    """The best-EV legal bid, never below the tricks the hand is sure to take."""
    k = read_view(view)
    sure = bidding.sure_tricks(k.hand, k.trump, k.out)
    legal = [b for b in view.legal_bids if b >= sure] or list(view.legal_bids)
    return bidding.best_bid(dist, legal)


class NormalBot(Bot):
    level = "normal"

    def choose_trump(self, view: SeatView) -> int:
        return choose_trump_by_strength(view)

    def choose_bid(self, view: SeatView) -> int:
        return sensible_bid(view, bid_distribution(view))

    def choose_card(self, view: SeatView) -> int:
        k = read_view(view)
        bid = view.bids[view.seat] or 0
        return pick(
            k.hand,
            k.led,
            k.win_card,
            view.players - 1 - len(k.trick_cards),
            bid - view.tricks_won[view.seat],
            k.tricks_left,
            k.unseen,
            k.trump + 1,
            view.players,
        )
