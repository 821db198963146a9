"""How each player's bids compare with what its hands were worth, from the finished rounds.

A finished round shows every dealt hand (``SeatView.history``), so each bid made can be set
against the calibrated expectation of the hand behind it (``bidding.expected_tricks``, which
``normal``'s bids and play measured). A player whose bids run below its hands' worth (a
cautious searcher, say) will do so again: ``hard`` scales its model of the later bidders'
bids, and of what a bid made says about the hand, by that player's ratio.
"""

from __future__ import annotations

from ..game import SeatView, mask_of
from . import bidding

# Pseudo-tricks of "bids as the table says" each ratio starts from: a few rounds' evidence
# moves it, one odd bid does not.
STYLE_PRIOR = 4.0
RATIO_RANGE = (0.6, 1.4)


def bid_ratios(view: SeatView) -> list[float]:
    """Per seat, (its bids + prior) / (its hands' expected tricks + prior) over the finished
    rounds of more than one card (a one-card round says little, and may be played on the
    forehead); 1.0 for every seat before any such round."""
    n = view.players
    bids = [STYLE_PRIOR] * n
    worth = [STYLE_PRIOR] * n
    for result in view.history:
        hands = result.hands
        if len(hands) != n or len(hands[0]) < 2 or any(c >= 60 for h in hands for c in h):
            continue  # a one-card round, or special cards: not the plain deck's table
        r = len(hands[0])
        trump = int(result.trump_suit) if result.trump_suit is not None else -1
        for s in range(n):
            bids[s] += result.bids[s]
            worth[s] += bidding.expected_tricks(mask_of(hands[s]), trump, result.trump_card, n, r)
    low, high = RATIO_RANGE
    return [min(high, max(low, b / w)) for b, w in zip(bids, worth, strict=True)]
