"""What a game with special cards costs the host and a client per action, beside a plain game.

    python benchmarks/special_views.py [--players 6] [--games 20]

Per action of random games (the engine's random legal actions, 6 seats by default), in one
process: the host's ``state`` payloads for every seat (``protocol.state_payloads``: a plain
game splices one view, a game with special cards builds each seat's view on its own, so no
seat's pass is ever in another's view) and one client's read of its view
(``ViewReader.read``). The plain game, measured in the same run on the same machine, is the
baseline. No socket: the wire forms alone.
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

from wizard_tui.game import Deal, Game, GameConfig, Phase, TableRules  # noqa: E402
from wizard_tui.game.specials import SPECIALS, deck_cards  # noqa: E402
from wizard_tui.net import protocol as p  # noqa: E402


def per_action(rules: TableRules, players: int, games: int, seed: int) -> tuple[float, float]:
    """Median µs per action: the host's payloads for every seat, and one client's read."""
    rng = random.Random(seed)
    seats = [{"name": f"p{i}", "kind": "human", "connected": True} for i in range(players)]
    host_us: list[float] = []
    read_us: list[float] = []
    for _ in range(games):
        game = Game(GameConfig(players, rng.randrange(players), rules))
        reader = p.ViewReader()
        cards = list(deck_cards(rules.specials))
        while game.phase is not Phase.GAME_OVER:
            if game.phase is Phase.DEAL:
                rng.shuffle(cards)
                events = game.apply(Deal(tuple(cards)))
            else:
                events = game.apply(rng.choice(game.legal_actions()))
            events_wire = [p.event_wire(e) for e in events]
            t0 = time.perf_counter_ns()
            p.state_payloads(game, seats, events_wire)
            t1 = time.perf_counter_ns()
            wire = p.views_wire(game)[0]
            t2 = time.perf_counter_ns()
            reader.read(wire, ())
            t3 = time.perf_counter_ns()
            host_us.append((t1 - t0) / 1000)
            read_us.append((t3 - t2) / 1000)
    return statistics.median(host_us), statistics.median(read_us)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()
    plain = per_action(TableRules(), args.players, args.games, 1)
    special = per_action(TableRules(specials=frozenset(SPECIALS)), args.players, args.games, 1)
    print(f"{args.players} seats, {args.games} random games each, median per action:")
    print(
        f"  plain game (baseline): host payloads {plain[0]:7.1f} us, client read {plain[1]:6.1f} us"
    )
    print(
        f"  all nine special cards: host payloads {special[0]:7.1f} us, client read "
        f"{special[1]:6.1f} us  ({special[0] / plain[0]:.1f}x, {special[1] / plain[1]:.1f}x)"
    )


if __name__ == "__main__":
    main()
