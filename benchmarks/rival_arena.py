"""Duplicate matches of a bot level (``hard`` by default) against the rival.

python benchmarks/rival_arena.py [--players 3] [--games 4] [--seed 1]
        [--restrict-last-bid always] [--bot hard] [--jobs N] [--budget S] [--first-deal D]
        [--per-deal] [--rounds]

Every deal set is played once per seat: the bot under test sits at seat k of rotation k
and the rival holds every other seat, so both play every hand. A game's difference is
the bot's final score minus the mean of the rivals' on the same deal; a deal set's is the
mean over its rotations. Prints the mean difference a game with its 95% Student t
interval over deal sets, and each side's mean score and bid hit rate. Both sides think
against the clock with the same budget (``hard``'s defaults), so on a loaded machine
both examine fewer deals; keep runs small on a shared machine. ``--budget S`` gives both
sides S seconds a card (three times that a bid) instead, for runs sized to a shared machine;
``--first-deal D`` starts at deal set D, so runs of one seed add up without overlapping.
``--per-deal`` prints each deal set's difference (to pair runs of one seed deal set by
deal set); ``--rounds`` each side's mean tricks minus bid and round score per round.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from rival import RivalBot  # noqa: E402

from wizard_tui.arena import estimate  # noqa: E402
from wizard_tui.bots import HardBot, make_bot  # noqa: E402
from wizard_tui.game import RestrictLastBid  # noqa: E402
from wizard_tui.game.rules import score  # noqa: E402
from wizard_tui.simulate import new_deal_set, play_game  # noqa: E402


def play_deal_set(args: tuple[int, int, str, str, str, float | None]) -> dict:
    """All rotations of deal set ``d``: per rotation the bot's score, the rivals' mean,
    and bids hit / rounds for both sides."""
    d, n, seed, level, restrict, budget = args
    timed = {} if budget is None else {"time_budget": budget}
    searches = isinstance(make_bot(level), HardBot)  # the levels that think against a clock
    deal_set = new_deal_set(n, random.Random(f"rival-arena/{seed}/deal/{d}"))
    out: dict = {"diffs": [], "bot": [], "rival": [], "bot_hits": 0, "rival_hits": 0, "rounds": 0}
    # Per round index: [bot's tricks - bid, bot's score, rivals' tricks - bid, rivals' score,
    # games], summed (``--rounds``).
    out["by_round"] = {}
    for k in range(n):
        bots = [
            make_bot(
                level,
                random.Random(f"rival-arena/{seed}/{d}/{k}/{s}"),
                **(timed if searches else {}),
            )
            if s == k
            else RivalBot(random.Random(f"rival-arena/{seed}/{d}/{k}/{s}"), **timed)
            for s in range(n)
        ]
        record = play_game(bots, deal_set, RestrictLastBid(restrict)).record
        totals = record.rounds[-1].totals
        rivals = [totals[s] for s in range(n) if s != k]
        mine = totals[k]
        out["diffs"].append(mine - sum(rivals) / len(rivals))
        out["bot"].append(mine)
        out["rival"].append(sum(rivals) / len(rivals))
        for i, r in enumerate(record.rounds):
            row = out["by_round"].setdefault(i + 1, [0.0] * 5)
            row[0] += r.tricks_won[k] - r.bids[k]
            row[1] += score(r.bids[k], r.tricks_won[k])
            others = [s for s in range(n) if s != k]
            row[2] += sum(r.tricks_won[s] - r.bids[s] for s in others) / len(others)
            row[3] += sum(score(r.bids[s], r.tricks_won[s]) for s in others) / len(others)
            row[4] += 1
            out["rounds"] += 1
            out["bot_hits"] += r.bids[k] == r.tricks_won[k]
            out["rival_hits"] += sum(r.bids[s] == r.tricks_won[s] for s in range(n) if s != k)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--games", type=int, default=4, help="deal sets, each played --players times")
    ap.add_argument("--seed", default="1")
    ap.add_argument(
        "--restrict-last-bid", default="always", choices=[m.value for m in RestrictLastBid]
    )
    ap.add_argument("--bot", default="hard", help="the level under test (a make_bot string)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    ap.add_argument("--budget", type=float, default=None, help="seconds a card, both sides")
    ap.add_argument("--first-deal", type=int, default=0, help="the first deal set's index")
    ap.add_argument("--per-deal", action="store_true", help="print each deal set's difference")
    ap.add_argument(
        "--rounds",
        action="store_true",
        help="print per round the mean tricks minus bid and round score of each side",
    )
    a = ap.parse_args()
    deals = range(a.first_deal, a.first_deal + a.games)
    work = [(d, a.players, a.seed, a.bot, a.restrict_last_bid, a.budget) for d in deals]
    start = time.perf_counter()
    results = []
    with ProcessPoolExecutor(max(1, a.jobs), mp_context=get_context("spawn")) as pool:
        for d, r in zip(deals, pool.map(play_deal_set, work), strict=True):
            results.append(r)
            # A line a deal set on stderr, so that a long run shows its progress and an
            # interrupted one still leaves its deal sets' differences.
            diff = sum(r["diffs"]) / len(r["diffs"])
            elapsed = time.perf_counter() - start
            print(
                f"deal set {d}: {diff:+.1f} ({len(results)}/{a.games}, {elapsed:.0f} s)",
                file=sys.stderr,
                flush=True,
            )
    seconds = time.perf_counter() - start
    per_deal = [sum(r["diffs"]) / len(r["diffs"]) for r in results]
    if a.per_deal:
        print(
            "per deal set:", " ".join(f"{d}:{x:+.1f}" for d, x in zip(deals, per_deal, strict=True))
        )
    est = estimate(per_deal)
    games = sum(len(r["diffs"]) for r in results)
    rounds = sum(r["rounds"] for r in results)
    bot_mean = sum(x for r in results for x in r["bot"]) / games
    rival_mean = sum(x for r in results for x in r["rival"]) / games
    print(
        f"{a.bot} vs rival: {a.games} deal sets x {a.players} seats = {games} games, "
        f"{a.players} players, restrict last bid {a.restrict_last_bid}, seed {a.seed}, "
        f"{seconds:.0f} s, jobs {a.jobs}, cores {os.cpu_count()}, "
        f"budget {'default' if a.budget is None else a.budget}, first deal {a.first_deal}"
    )
    print(
        f"  {a.bot}: mean score {bot_mean:.1f}, "
        f"bid hit {sum(r['bot_hits'] for r in results) / rounds:.1%}"
    )
    print(
        f"  rival: mean score {rival_mean:.1f}, "
        f"bid hit {sum(r['rival_hits'] for r in results) / (rounds * (a.players - 1)):.1%}"
    )
    interval = est.interval
    ci = "n/a (one deal set)" if interval is None else f"[{interval[0]:+.1f}, {interval[1]:+.1f}]"
    print(f"  difference a game ({a.bot} - rival): {est.mean:+.1f}, 95% CI {ci}")
    if a.rounds:
        print_rounds(a.bot, results)


def print_rounds(level: str, results: list[dict]) -> None:
    """Per round: each side's mean tricks minus bid and mean round score."""
    total: dict[int, list[float]] = {}
    for r in results:
        for i, row in r["by_round"].items():
            acc = total.setdefault(i, [0.0] * 5)
            for j, x in enumerate(row):
                acc[j] += x
    print(f"  round  {level}: tricks-bid  score   rival: tricks-bid  score")
    for i in sorted(total):
        t = total[i]
        g = t[4]
        print(f"  {i:5d}  {t[0] / g:+17.2f}  {t[1] / g:5.1f}   {t[2] / g:+17.2f}  {t[3] / g:5.1f}")


if __name__ == "__main__":
    main()
