"""``expert``: ``hard``'s search with more time, for those who want a beating.

The same Monte Carlo search over sampled deals (bid weighting, exact play of the last
tricks, the certain-card rule), given a second a decision instead of ``hard``'s 0.15 s a
card and 0.45 s a bid, and solving deals exactly from a few more cards left. Everything
else, options included, is ``HardBot``'s.
"""

from __future__ import annotations

import random

from .hard import MIN_SAMPLES, SETTLE_MARGIN, HardBot

EXPERT_BUDGET = 1.0  # seconds a decision, bids and cards alike
EXPERT_EXACT_CARDS = 12


class ExpertBot(HardBot):
    level = "expert"

    def __init__(
        self,
        rng: random.Random | None = None,
        *,
        time_budget: float = EXPERT_BUDGET,
        bid_budget: float | None = None,
        max_samples: int | None = None,
        min_samples: int = MIN_SAMPLES,
        bid_weighting: bool = True,
        exact_cards: int = EXPERT_EXACT_CARDS,
        bid_style: bool = True,
        share_time: bool = False,
        bid_margin: float = SETTLE_MARGIN,
        play_reads: float = 1.0,
    ) -> None:
        super().__init__(
            rng,
            time_budget=time_budget,
            bid_budget=time_budget if bid_budget is None else bid_budget,
            max_samples=max_samples,
            min_samples=min_samples,
            bid_weighting=bid_weighting,
            exact_cards=exact_cards,
            bid_style=bid_style,
            share_time=share_time,
            bid_margin=bid_margin,
            play_reads=play_reads,
        )
