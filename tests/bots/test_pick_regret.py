"""``benchmarks/pick_regret.py``'s breakdown of the policy's regret by situation."""

from __future__ import annotations

import random
import sys
from pathlib import Path

from wizard_tui.bots.hard import candidate_cards
from wizard_tui.bots.knowledge import read_view
from wizard_tui.game import Phase, SeatView

from .helpers import decision_points, game_at_round

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from pick_regret import by_situation, regret, situation


def card_positions(seed: int) -> list[tuple[SeatView, dict, bool]]:
    """Card decisions of two 4-player rounds, each with made-up candidate means and
    whether some legal card takes the trick so far (found by playing it on a copy)."""
    rng = random.Random(seed)
    out = []
    for game, view in decision_points(game_at_round(4, 6, 0, seed=seed), rng, rounds=2):
        if game.phase is not Phase.PLAY:
            continue
        k = read_view(view)
        trick_mask = sum(1 << c for c in k.trick_cards)
        means = {c: rng.uniform(-30, 30) for c in candidate_cards(k.hand, k.unseen | trick_mask)}
        can_win = False
        if view.trick:
            for c in view.legal_cards:
                trial = game.copy()
                trial.play(view.seat, c)
                if len(view.trick) + 1 < 4:
                    can_win |= trial.trick_winner == view.seat
                else:  # the trick is complete: did this seat take it?
                    can_win |= trial.tricks_won[view.seat] > view.tricks_won[view.seat]
        out.append((view, means, can_win))
    return out


def test_each_decision_is_named_by_what_its_seat_faces() -> None:
    seen = set()
    for seed in range(3):
        for view, _, can_win in card_positions(seed):
            name = situation(view, read_view(view))
            seen.add(name)
            need = (view.bids[view.seat] or 0) - view.tricks_won[view.seat]
            assert name.startswith("lead" if not view.trick else "follow")
            assert ("need" in name) == (need > 0)
            assert ("over" in name) == (need < 0)
            if view.trick:
                assert ("can win" in name) == can_win, (name, view.trick, view.legal_cards)
                assert name.endswith(", last") == (len(view.trick) == 3)
    assert {"lead need", "follow need, can win", "follow made, cannot win, last"} <= seen


def test_the_breakdown_adds_up_to_the_mean_regret() -> None:
    positions = [(view, means) for view, means, _ in card_positions(7)]
    mean, _, outside = regret(positions)
    rows = by_situation(positions)
    assert sum(n for _, n, _ in rows) == len(positions)
    assert abs(sum(summed for _, _, summed in rows) - mean * len(positions)) < 1e-6
    assert outside == 0 and mean > 0
    assert [summed for _, _, summed in rows] == sorted((s for _, _, s in rows), reverse=True)
