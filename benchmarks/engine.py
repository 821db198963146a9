"""Engine speed: full random 4-player games per second, and legal-move queries per second.

Everything goes through the engine's public API (``deal``, ``legal_bids``, ``bid``,
``legal_plays``, ``play``), with a uniformly random legal player. The baseline is a
straightforward pure-Python engine (``naive_engine.py``) measured in the same run, since
absolute figures drift between runs on a shared machine.

    .venv/bin/python benchmarks/engine.py [--seconds S] [--players N]
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))

import naive_engine

from wizard_tui.game import Game, GameConfig, Phase

DECK = list(range(60))
PLAY, BID, DEAL, CHOOSE_TRUMP = Phase.PLAY, Phase.BID, Phase.DEAL, Phase.CHOOSE_TRUMP


def engine_game(players: int, rng: random.Random) -> list[int]:
    game = Game(GameConfig(players, rng.randrange(players)))
    deck = DECK[:]
    pick = rng.random
    play, bid = game.play, game.bid
    legal_plays, legal_bids = game.legal_plays, game.legal_bids
    while True:
        phase = game.phase
        if phase is PLAY:
            cards = legal_plays()
            play(game.turn, cards[int(pick() * len(cards))])
        elif phase is BID:
            bids = legal_bids()
            bid(game.turn, bids[int(pick() * len(bids))])
        elif phase is DEAL:
            rng.shuffle(deck)
            game.deal(deck)
        elif phase is CHOOSE_TRUMP:
            game.choose_trump(game.turn, int(pick() * 4))
        else:
            return game.totals


def games_per_second(play_one, players: int, seconds: float, seed: int) -> float:
    rng = random.Random(seed)
    count = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        for _ in range(20):
            play_one(players, rng)
        count += 20
    return count / elapsed


def legal_queries_per_second(players: int, seconds: float) -> float:
    """Legal-play queries over a pool of mid-trick positions from real random games."""
    rng = random.Random(7)
    positions = []
    while len(positions) < 500:
        game = Game(GameConfig(players, 0))
        deck = DECK[:]
        while not game.is_over:
            if game.phase is Phase.DEAL:
                rng.shuffle(deck)
                game.deal(deck)
            elif game.phase is Phase.CHOOSE_TRUMP:
                game.choose_trump(game.turn, 0)
            elif game.phase is Phase.BID:
                game.bid(game.turn, rng.choice(game.legal_bids()))
            else:
                if rng.random() < 0.1:
                    positions.append(game.copy())
                game.play(game.turn, rng.choice(game.legal_plays()))
    count = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        for position in positions:
            position.legal_plays()
        count += len(positions)
    return count / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per measurement")
    parser.add_argument("--repeats", type=int, default=3, help="alternating runs of each")
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    ours, naive = [], []
    for i in range(args.repeats):  # alternate, so both see the same machine load
        ours.append(games_per_second(engine_game, args.players, args.seconds, i))
        naive.append(games_per_second(naive_engine.play_game, args.players, args.seconds, i))
    ours_med, naive_med = statistics.median(ours), statistics.median(naive)
    queries = legal_queries_per_second(args.players, args.seconds)
    print(f"players: {args.players}, {args.repeats} alternating runs of {args.seconds:g} s each")
    print(
        f"wizard_tui.game : {ours_med:8.0f} games/s  (runs: {', '.join(f'{x:.0f}' for x in ours)})"
    )
    naive_runs = ", ".join(f"{x:.0f}" for x in naive)
    print(f"naive baseline  : {naive_med:8.0f} games/s  (runs: {naive_runs})")
    print(f"ratio           : {ours_med / naive_med:8.2f}x the baseline")
    print(f"legal-play queries: {queries:,.0f} per second")
    print("goal: >= 2,500 games/s (4 players)")


if __name__ == "__main__":
    main()
