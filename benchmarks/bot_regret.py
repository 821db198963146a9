"""What the noise of sampling costs ``hard``'s decisions, by default and with the time share.

python benchmarks/bot_regret.py [--players 4] [--games 1] [--budget 0.03] [--oracle 0.6]
        [--repeats 3] [--seed 1]

Positions: every decision of the ``hard`` seat (seat 0, ``--budget``) in ``--games`` games
against the rival (``benchmarks/rival.py``, the same budget). The oracle: the same search
given ``--oracle`` seconds a decision and never stopping early, whose candidates' mean
scores stand for the truth of the search's own model. A decision's regret is the oracle's
best mean minus the oracle's mean of the card or bid chosen. Each position is decided
``--repeats`` times at ``--budget`` with the defaults (an even share of the time, a bid
settled within 1 point) and with the time share (``share_time=True``, a bid settled within
0.25), the baseline and the change in the same run; the table gives the mean regret a decision by
cards in hand, and the sum a game (points of the model a game, not points at the table).

Two oracle runs of 0.6 s disagree by about 0.04 points a card decision (4 players): the
floor below which a figure here says nothing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from rival import RivalBot  # noqa: E402

from wizard_tui.bots import HardBot  # noqa: E402
from wizard_tui.game import RestrictLastBid, SeatView  # noqa: E402
from wizard_tui.simulate import new_deal_set, play_game  # noqa: E402

BANDS = ((1, 4), (5, 8), (9, 12), (13, 20))  # cards in hand
SHARED_BID_MARGIN = 0.25  # points: with the time share, a bid settles only this close


class Recorder(HardBot):
    """``hard`` that keeps every view it decides on."""

    def __init__(self, rng: random.Random, time_budget: float) -> None:
        super().__init__(rng, time_budget=time_budget)
        self.views: list[tuple[str, SeatView]] = []

    def choose_card(self, view: SeatView) -> int:
        self.views.append(("card", view))
        return super().choose_card(view)

    def choose_bid(self, view: SeatView) -> int:
        self.views.append(("bid", view))
        return super().choose_bid(view)


def positions(players: int, games: int, budget: float, seed: str) -> list[tuple[str, SeatView]]:
    restrict = RestrictLastBid("always" if players == 3 else "never")
    out: list[tuple[str, SeatView]] = []
    for g in range(games):
        me = Recorder(random.Random(f"regret/{seed}/{g}/0"), time_budget=budget)
        rivals = [
            RivalBot(random.Random(f"regret/{seed}/{g}/{s}"), time_budget=budget)
            for s in range(1, players)
        ]
        play_game(
            [me, *rivals], new_deal_set(players, random.Random(f"regret/{seed}/{g}")), restrict
        )
        out.extend(me.views)
    return out


def decide(bot: HardBot, kind: str, view: SeatView) -> int:
    return bot.choose_card(view) if kind == "card" else bot.choose_bid(view)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--games", type=int, default=1)
    ap.add_argument("--budget", type=float, default=0.03, help="seconds a card (a bid: 3 times)")
    ap.add_argument("--oracle", type=float, default=0.6, help="the oracle's seconds a decision")
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--seed", default="1")
    a = ap.parse_args()
    start = time.perf_counter()
    views = positions(a.players, a.games, a.budget, a.seed)
    judged: list[tuple[str, SeatView, dict[int, float]]] = []
    for i, (kind, view) in enumerate(views):
        oracle = HardBot(
            random.Random(f"regret/oracle/{i}"),
            time_budget=a.oracle,
            bid_budget=a.oracle,
            min_samples=10**9,  # never settles early
            share_time=False,
        )
        decide(oracle, kind, view)
        if len(oracle.last_means) >= 2:  # a real choice was searched
            judged.append((kind, view, oracle.last_means))
    print(
        f"bot regret: {a.players} players, {a.games} games, {len(judged)} searched decisions "
        f"of {len(views)}, budget {a.budget}, oracle {a.oracle} s, repeats {a.repeats}, "
        f"seed {a.seed}"
    )
    for now in (False, True):
        by_band: dict[tuple[str, int], list[float]] = {}
        for i, (kind, view, means) in enumerate(judged):
            best = max(means.values())
            band = next(b for b, (lo, hi) in enumerate(BANDS) if lo <= len(view.hand) <= hi)
            for r in range(a.repeats):
                rng = random.Random(f"regret/{i}/{r}")
                if now:  # the time share, a bid settled within SHARED_BID_MARGIN
                    bot = HardBot(
                        rng, time_budget=a.budget, share_time=True, bid_margin=SHARED_BID_MARGIN
                    )
                else:  # the defaults: an even share of the time, every margin 1 point
                    bot = HardBot(rng, time_budget=a.budget)
                chosen = decide(bot, kind, view)
                by_band.setdefault((kind, band), []).append(best - means[chosen])
        print("  time share, bid margin 0.25:" if now else "  defaults (even share):")
        for kind in ("card", "bid"):
            cells = []
            total = 0.0
            for b, (lo, hi) in enumerate(BANDS):
                xs = by_band.get((kind, b), [])
                if xs:
                    cells.append(f"{lo}-{hi} cards {statistics.mean(xs):.3f} ({len(xs)})")
                    total += sum(xs) / a.repeats
            print(f"    {kind}: " + ", ".join(cells) + f"; a game {total / a.games:.1f}")
    print(f"  {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
