"""Arena statistics on tiny samples whose answers were worked out by hand."""

from __future__ import annotations

import math

import pytest

from wizard_tui.arena import SeatTally, estimate, field_margins, t_critical_95


def test_mean_and_t_interval_of_four_scores() -> None:
    # mean 25; deviations -15 -5 5 15 -> sum of squares 500, sd = sqrt(500/3) = 12.9099;
    # t(0.975, 3) = 3.182; half width = 3.182 * 12.9099 / 2 = 20.5397.
    e = estimate([10, 20, 30, 40])
    assert e.n == 4 and e.mean == 25
    assert e.sd == pytest.approx(12.90994, abs=1e-5)
    assert e.half_width == pytest.approx(20.5397, abs=1e-4)
    assert e.interval == pytest.approx((4.4603, 45.5397), abs=1e-4)


def test_too_few_values_give_no_interval() -> None:
    one = estimate([7])
    assert (one.mean, one.sd, one.half_width, one.interval) == (7, None, None, None)
    assert math.isnan(estimate([]).mean)


@pytest.mark.parametrize(
    ("df", "t"),
    [(1, 12.706), (3, 3.182), (10, 2.228), (30, 2.042), (31, 2.0395), (40, 2.0211),
     (60, 2.0003), (120, 1.9799), (10_000, 1.9602)],
)  # fmt: skip
def test_t_critical_values(df: int, t: float) -> None:
    assert t_critical_95(df) == pytest.approx(t, abs=6e-4)


def test_t_needs_a_degree_of_freedom() -> None:
    with pytest.raises(ValueError):
        t_critical_95(0)


def test_field_margins_cancel_the_deal() -> None:
    assert field_margins([10, 20, 60]) == [-20, -10, 30]
    assert field_margins([-5, -5, -5, -5]) == [0, 0, 0, 0]


def test_seat_tally_summary() -> None:
    tally = SeatTally("random")
    # Game 1: bids 1 0 2 against 1 1 2 tricks: 2 hits, error 1; shared a win with one other.
    tally.add_game(50, [1, 0, 2], [1, 1, 2], 0.5)
    # Game 2: bids 0 1 against 0 0: 1 hit, error 1; lost.
    tally.add_game(-30, [0, 1], [0, 0], 0.0)
    tally.add_decisions(4, 0.002)
    tally.add_decisions(6, 0.003)
    s = tally.summary()
    assert s["bot"] == "random" and s["games"] == 2 and s["rounds"] == 5
    assert s["mean_score"] == 10
    # sd of (50, -30) = 40 * sqrt(2); half width = 12.706 * 40 * sqrt(2) / sqrt(2) = 508.24
    assert s["score_sd"] == pytest.approx(56.5685, abs=1e-4)
    assert s["mean_score_ci95"] == pytest.approx([-498.24, 518.24])
    assert s["bid_accuracy"] == pytest.approx(3 / 5)
    assert s["mean_abs_bid_error"] == pytest.approx(2 / 5)
    assert s["win_rate"] == pytest.approx(0.25)
    assert s["decisions"] == 10
    assert s["mean_decision_seconds"] == pytest.approx(0.0005)
    assert "margin_vs_field" not in s


def test_margins_appear_in_duplicate_summaries() -> None:
    tally = SeatTally("easy", margins=[4.0, -2.0, 7.0])
    s = tally.summary()
    # mean 3; deviations 1 -5 4 -> 42 / 2 = 21; half = 4.303 * sqrt(21 / 3) = 11.38467
    assert s["margin_vs_field"] == pytest.approx(3.0)
    assert s["margin_vs_field_ci95"] == pytest.approx([3 - 11.38467, 3 + 11.38467], abs=1e-4)


def test_empty_tally_reports_nothing_rather_than_dividing_by_zero() -> None:
    s = SeatTally("hard").summary()
    assert s["games"] == 0
    assert s["mean_score"] is None and s["mean_score_ci95"] is None
    assert s["bid_accuracy"] is None and s["mean_decision_seconds"] is None


def test_merged_tallies_add_up() -> None:
    a = SeatTally("random", scores=[10], rounds=2, bid_hits=1, bid_error_sum=3, wins=1.0)
    b = SeatTally("random", scores=[30], rounds=2, bid_hits=2, bid_error_sum=0, decisions=5)
    m = a.merged(b).summary()
    assert (m["games"], m["mean_score"], m["bid_accuracy"], m["win_rate"]) == (2, 20, 0.75, 0.5)
    assert m["mean_abs_bid_error"] == 0.75 and m["decisions"] == 5
