"""``easy``: plausible but beatable.

Bids count the obvious: Wizards, trumps (high ones fully), Aces, then wobble by one now and then.
Play is a beginner's: when it still wants tricks it throws its biggest card if that
takes the trick so far (else its smallest); when it does not, its smallest; and one
card in eight is a whim. It neither counts cards nor thinks about who plays after it.
"""

from __future__ import annotations

from ..game import SeatView, mask_of
from . import forehead
from .base import Bot
from .fast import BEAT_MASK, POWER, legal_mask
from .knowledge import read_view

WHIM = 0.125


class EasyBot(Bot):
    level = "easy"

    def choose_trump(self, view: SeatView) -> int:
        hand = mask_of(view.hand)
        return max(range(4), key=lambda s: (hand >> (13 * s) & 0x1FFF).bit_count())

    def choose_bid(self, view: SeatView) -> int:
        trump = int(view.trump_suit) if view.trump_suit is not None else -1
        count = 0.0
        for card in view.hand:
            if 52 <= card < 56:
                count += 1
            elif card < 52:
                rank = card % 13 + 1
                if card // 13 == trump:
                    count += 1 if rank >= 11 else 0.3
                elif rank == 13:
                    count += 0.75 if trump >= 0 else 1
        guess = int(count + 0.5)
        if self.rng.random() < 0.3:
            guess += self.rng.choice((-1, 1))
        return min(view.legal_bids, key=lambda b: (abs(b - guess), b))

    def forehead_bid(self, view: SeatView) -> int:
        """A beginner's forehead bid: 1 when it would win with most of the cards it may
        hold (not the break-even 3/7), and now and then a whim."""
        if self.rng.random() < WHIM:
            return self.rng.choice(view.legal_bids)
        return forehead.bid_for(view, forehead.win_chance(view), threshold=0.5)

    def choose_card(self, view: SeatView) -> int:
        legal = list(view.legal_cards)
        if len(legal) == 1:
            return legal[0]
        if self.rng.random() < WHIM:
            return self.rng.choice(legal)
        k = read_view(view)
        pw = POWER[k.trump + 1]
        need = (view.bids[view.seat] or 0) - view.tricks_won[view.seat]
        lmask = legal_mask(k.hand, k.led)
        if need <= 0:
            return min(legal, key=pw.__getitem__)
        if k.win_card < 0:
            return max(legal, key=pw.__getitem__)
        biggest = max(legal, key=pw.__getitem__)
        if BEAT_MASK[k.trump + 1][k.win_card] & lmask & (1 << biggest):
            return biggest
        return min(legal, key=pw.__getitem__)
