"""Arena statistics for bot matches: pure arithmetic over finished games, no I/O.

``SeatTally`` accumulates what one bot did over many games (scores, bids against tricks,
wins, decision time) and ``summary()`` turns it into the numbers ``simulate`` reports.
Confidence intervals are Student-t intervals for a mean (two-sided 95%, n - 1 degrees of
freedom, sample standard deviation): games are independent, but a few dozen games are too
few for the normal approximation to be honest.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

# Two-sided 95% Student t critical values t(0.975, df) for df = 1..30.
# fmt: off
_T975 = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
    2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
    2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
)
# fmt: on
_Z975 = 1.959963984540054


def t_critical_95(df: int) -> float:
    """t(0.975, df): from the table up to 30, then the Cornish-Fisher expansion in 1/df
    (within 0.001 of the exact value from df = 30 on)."""
    if df < 1:
        raise ValueError("a t interval needs at least one degree of freedom")
    if df <= len(_T975):
        return _T975[df - 1]
    z = _Z975
    g1 = (z**3 + z) / 4
    g2 = (5 * z**5 + 16 * z**3 + 3 * z) / 96
    g3 = (3 * z**7 + 19 * z**5 + 17 * z**3 - 15 * z) / 384
    return z + g1 / df + g2 / df**2 + g3 / df**3


@dataclass(frozen=True, slots=True)
class Estimate:
    """A sample mean with its 95% t interval (``half_width`` None for fewer than 2 values)."""

    n: int
    mean: float
    sd: float | None
    half_width: float | None

    @property
    def interval(self) -> tuple[float, float] | None:
        if self.half_width is None:
            return None
        return (self.mean - self.half_width, self.mean + self.half_width)


def estimate(values: Sequence[float]) -> Estimate:
    n = len(values)
    if n == 0:
        return Estimate(0, math.nan, None, None)
    mean = math.fsum(values) / n
    if n < 2:
        return Estimate(n, mean, None, None)
    sd = math.sqrt(math.fsum((v - mean) ** 2 for v in values) / (n - 1))
    return Estimate(n, mean, sd, t_critical_95(n - 1) * sd / math.sqrt(n))


def field_margins(scores: Sequence[float]) -> list[float]:
    """Each entry's score minus the mean of all entries' scores on the same deals.

    In a duplicate match every entry plays every seat of the same deals, so the card luck
    is common to all and cancels in these differences.
    """
    mean = math.fsum(scores) / len(scores)
    return [s - mean for s in scores]


@dataclass(slots=True)
class SeatTally:
    """What one bot (one entry of the match) did, game by game."""

    level: str
    scores: list[float] = field(default_factory=list)  # final total per game
    rounds: int = 0
    bid_hits: int = 0  # rounds where tricks won == bid
    bid_error_sum: int = 0  # sum over rounds of |bid - tricks won|
    wins: float = 0.0  # a shared win counts 1/k for each of k winners
    decisions: int = 0
    decide_seconds: float = 0.0
    margins: list[float] = field(default_factory=list)  # duplicate: score minus field, per deal

    def add_game(
        self, score: int, bids: Iterable[int], tricks_won: Iterable[int], win_share: float
    ) -> None:
        self.scores.append(score)
        for bid, won in zip(bids, tricks_won, strict=True):
            self.rounds += 1
            self.bid_hits += bid == won
            self.bid_error_sum += abs(bid - won)
        self.wins += win_share

    def add_decisions(self, count: int, seconds: float) -> None:
        self.decisions += count
        self.decide_seconds += seconds

    def merged(self, other: SeatTally) -> SeatTally:
        return SeatTally(
            level=self.level,
            scores=self.scores + other.scores,
            rounds=self.rounds + other.rounds,
            bid_hits=self.bid_hits + other.bid_hits,
            bid_error_sum=self.bid_error_sum + other.bid_error_sum,
            wins=self.wins + other.wins,
            decisions=self.decisions + other.decisions,
            decide_seconds=self.decide_seconds + other.decide_seconds,
            margins=self.margins + other.margins,
        )

    def summary(self) -> dict[str, Any]:
        """JSON-ready figures; a figure with no data behind it is None."""
        games = len(self.scores)
        score = estimate(self.scores)
        out: dict[str, Any] = {
            "bot": self.level,
            "games": games,
            "mean_score": _num(score.mean),
            "mean_score_ci95": _pair(score.interval),
            "score_sd": score.sd,
            "win_rate": self.wins / games if games else None,
            "rounds": self.rounds,
            "bid_accuracy": self.bid_hits / self.rounds if self.rounds else None,
            "mean_abs_bid_error": self.bid_error_sum / self.rounds if self.rounds else None,
            "decisions": self.decisions,
            "mean_decision_seconds": (
                self.decide_seconds / self.decisions if self.decisions else None
            ),
        }
        if self.margins:
            margin = estimate(self.margins)
            out["margin_vs_field"] = _num(margin.mean)
            out["margin_vs_field_ci95"] = _pair(margin.interval)
        return out


def _num(x: float) -> float | None:
    return None if math.isnan(x) else x


def _pair(interval: tuple[float, float] | None) -> list[float] | None:
    return None if interval is None else [interval[0], interval[1]]
