"""``random``: a uniformly random legal player, for tests and as the arena's floor."""

from __future__ import annotations

from ..game import SeatView
from .base import Bot


class RandomBot(Bot):
    level = "random"

    def choose_trump(self, view: SeatView) -> int:
        return self.rng.randrange(4)

    def choose_bid(self, view: SeatView) -> int:
        return self.rng.choice(view.legal_bids)

    def choose_card(self, view: SeatView) -> int:
        return self.rng.choice(view.legal_cards)

    def forehead_bid(self, view: SeatView) -> int:
        return self.rng.choice(view.legal_bids)
