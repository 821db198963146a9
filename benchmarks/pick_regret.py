"""How far the fast ``pick`` policy's cards fall short of a long search's, and which of
its constants would close the gap.

python benchmarks/pick_regret.py collect [--players 4] [--games 8] [--budget 0.03]
        [--oracle 0.2] [--seed 1] [--jobs 2] --out FILE
python benchmarks/pick_regret.py score FILE [--set NAME=VALUE ...] [--grid] [--by-situation]

``collect``: every card decision of every seat in ``--games`` games of ``hard`` (seat 0)
against the rival, each judged by an oracle (``hard``'s search with ``--oracle`` seconds
and no early stop): the positions and each candidate's mean score, pickled to FILE.
``score``: the mean regret of ``pick`` (the oracle's best mean minus its mean of the card
``pick`` chooses) over those positions, with ``--set`` changing constants of
``wizard_tui.bots.fast`` first, or ``--grid`` trying each constant over a range beside
the defaults, or ``--by-situation`` splitting the regret by the kind of decision (leading
or following, tricks still needed or not, able to take the trick or not, last to play).
The oracle's playouts use the default ``pick``, so a lower regret is one step of policy
improvement on the search's own model, not proof of better play: an arena run decides.
"""

from __future__ import annotations

import argparse
import pickle
import random
import statistics
import sys
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from rival import RivalBot  # noqa: E402

from wizard_tui.bots import HardBot, fast  # noqa: E402
from wizard_tui.bots.hard import _representative, candidate_cards  # noqa: E402
from wizard_tui.bots.knowledge import Knowledge, read_view  # noqa: E402
from wizard_tui.game import RestrictLastBid, SeatView  # noqa: E402
from wizard_tui.simulate import new_deal_set, play_game  # noqa: E402


def keep_cards(bot: HardBot | RivalBot, views: list[SeatView]) -> None:
    """Make ``bot`` keep every card view it is asked about."""
    choose = bot.choose_card

    def keeping(view: SeatView) -> int:
        views.append(view)
        return choose(view)

    bot.choose_card = keeping  # type: ignore[method-assign]


def collect_game(args: tuple[int, int, float, float, str]) -> list[tuple[SeatView, dict]]:
    g, n, budget, oracle_s, seed = args
    views: list[SeatView] = []
    bots = []
    for s in range(n):
        rng = random.Random(f"pick-regret/{seed}/{g}/{s}")
        bot = HardBot(rng, time_budget=budget) if s == 0 else RivalBot(rng, time_budget=budget)
        keep_cards(bot, views)
        bots.append(bot)
    restrict = RestrictLastBid("always" if n == 3 else "never")
    play_game(bots, new_deal_set(n, random.Random(f"pick-regret/{seed}/{g}")), restrict)
    out = []
    for i, view in enumerate(views):
        oracle = HardBot(
            random.Random(f"pick-regret/{seed}/{g}/oracle/{i}"),
            time_budget=oracle_s,
            min_samples=10**9,
        )
        oracle.choose_card(view)
        if len(oracle.last_means) >= 2:
            out.append((view, dict(oracle.last_means)))
    return out


def pick_for(view: SeatView, k: Knowledge) -> int:
    """The card ``pick`` plays for ``view`` (``k``: what its seat knows, ``read_view``)."""
    bids = [b or 0 for b in view.bids]
    need = bids[k.seat] - view.tricks_won[k.seat]
    n_after = k.players - 1 - len(k.trick_cards)
    return fast.pick(
        k.hand, k.led, k.win_card, n_after, need, k.tricks_left, k.unseen, k.trump + 1, k.players
    )


OUTSIDE_REGRET = 10.0  # charged for a pick the search's certainty rule had ruled out


def position_regret(view: SeatView, k: Knowledge, means: dict) -> float | None:
    """The oracle's best mean minus its mean of ``pick``'s card; None when that card is
    outside the searched candidates (``k``: ``read_view(view)``)."""
    trick_mask = sum(1 << c for c in k.trick_cards)
    card = _representative(
        pick_for(view, k), candidate_cards(k.hand, k.unseen | trick_mask), k.unseen | trick_mask
    )
    if card not in means:
        return None
    return float(max(means.values()) - means[card])


def regret(positions: list[tuple[SeatView, dict]]) -> tuple[float, float, int]:
    """Mean regret a position, its standard error, and how many picks fell outside the
    searched candidates (each charged ``OUTSIDE_REGRET``)."""
    xs = [position_regret(view, read_view(view), means) for view, means in positions]
    outside = xs.count(None)
    values = [OUTSIDE_REGRET if x is None else x for x in xs]
    return statistics.mean(values), statistics.stdev(values) / len(values) ** 0.5, outside


def situation(view: SeatView, k: Knowledge) -> str:
    """The kind of decision: leading or following; tricks still needed, bid made or over
    it; able to take the trick so far; last to play (``k``: ``read_view(view)``)."""
    bids = [b or 0 for b in view.bids]
    need = bids[k.seat] - view.tricks_won[k.seat]
    goal = "need" if need > 0 else ("made" if need == 0 else "over")
    if not k.trick_cards:
        return f"lead {goal}"
    legal = fast.legal_mask(k.hand, k.led)
    able = "can win" if legal & fast.BEAT_MASK[k.trump + 1][k.win_card] else "cannot win"
    last = ", last" if len(k.trick_cards) == k.players - 1 else ""
    return f"follow {goal}, {able}{last}"


def by_situation(positions: list[tuple[SeatView, dict]]) -> list[tuple[str, int, float]]:
    """Per situation: positions and summed regret (outside picks charged as in ``regret``),
    the largest sum first."""
    sums: dict[str, list[float]] = {}
    for view, means in positions:
        k = read_view(view)
        x = position_regret(view, k, means)
        sums.setdefault(situation(view, k), []).append(OUTSIDE_REGRET if x is None else x)
    rows = [(name, len(xs), sum(xs)) for name, xs in sums.items()]
    return sorted(rows, key=lambda row: -row[2])


GRID = {
    "FOLLOW_SURE": (0.6, 0.7, 0.8, 0.9, 0.95),
    "LEAD_SURE": (0.55, 0.65, 0.75, 0.85, 0.95),
    "HELD_SCALE": (0.5, 0.7, 1.0, 1.3),
    "JESTER_LEAD": (0.0, 0.04, 0.08, 0.15, 0.3),
    "FOLLOW_TRY": (0.0, 0.1, 0.2, 0.3),
    "LEAD_TRY": (0.0, 0.1, 0.2, 0.3),
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect")
    c.add_argument("--players", type=int, default=4)
    c.add_argument("--games", type=int, default=8)
    c.add_argument("--budget", type=float, default=0.03)
    c.add_argument("--oracle", type=float, default=0.2)
    c.add_argument("--seed", default="1")
    c.add_argument("--jobs", type=int, default=2)
    c.add_argument("--out", required=True)
    s = sub.add_parser("score")
    s.add_argument("file")
    s.add_argument("--set", action="append", default=[])
    s.add_argument("--grid", action="store_true")
    s.add_argument("--by-situation", action="store_true")
    a = ap.parse_args()
    if a.cmd == "collect":
        work = [(g, a.players, a.budget, a.oracle, a.seed) for g in range(a.games)]
        positions = []
        with ProcessPoolExecutor(a.jobs, mp_context=get_context("spawn")) as pool:
            for g, got in enumerate(pool.map(collect_game, work)):
                positions.extend(got)
                print(f"game {g}: {len(got)} positions", file=sys.stderr, flush=True)
        Path(a.out).write_bytes(pickle.dumps(positions))
        print(f"{len(positions)} positions to {a.out}")
        return
    positions = pickle.loads(Path(a.file).read_bytes())
    for kv in a.set:
        name, value = kv.split("=")
        setattr(fast, name, float(value))
    mean, se, outside = regret(positions)
    print(f"{len(positions)} positions: regret {mean:.3f} ± {se:.3f} a card, {outside} outside")
    if a.by_situation:
        total = mean * len(positions)
        for name, n, summed in by_situation(positions):
            share = summed / total if total else 0.0
            print(
                f"  {name:30} {n:5} positions, {summed / n:5.2f} a card, {share:6.1%} of the regret"
            )
    if not a.grid:
        return
    base = {name: getattr(fast, name) for name in GRID}
    for name, values in GRID.items():
        cells = []
        for v in values:
            setattr(fast, name, v)
            m, _, o = regret(positions)
            cells.append(f"{v}: {m:.3f}" + (f" ({o} out)" if o else ""))
        setattr(fast, name, base[name])
        print(f"  {name}: " + ", ".join(cells))


if __name__ == "__main__":
    main()
