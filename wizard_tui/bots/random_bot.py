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

    # The special cards' decisions: uniformly random among the legal ones too.

    def special_trump(self, view: SeatView) -> int:
        return self.rng.randrange(4)

    def special_bid(self, view: SeatView) -> int:
        return self.rng.choice(view.legal_bids)

    def special_card(self, view: SeatView) -> int:
        return self.rng.choice(view.legal_cards)

    def special_forehead_bid(self, view: SeatView) -> int:
        return self.rng.choice(view.legal_bids)

    def name_trump(self, view: SeatView) -> int:
        return self.rng.choice(view.legal_choices)

    def declare(self, view: SeatView) -> int:
        return self.rng.choice(view.legal_choices)

    def adjust_bid(self, view: SeatView) -> int:
        return self.rng.choice(view.legal_choices)

    def pass_card(self, view: SeatView) -> int:
        return self.rng.choice(view.legal_cards)

    def swap(self, view: SeatView) -> tuple[int | None, int | None]:
        options: list[tuple[int | None, int | None]] = [(None, None)]
        options += [(g, t) for g in view.legal_cards for t in view.swap_takes]
        return self.rng.choice(options)
