"""What ``wizard-tui verify`` costs for a record of a game with special cards, against a plain
game's record measured in the same run.

    python benchmarks/verify_specials.py [--players 3] [--repeat 5]

Plays one whole game (the full length: 60 / players rounds) of each kind with random legal
actions, dealt by commit-reveal seeds and recorded as the host records it: the plain game
(the baseline) and the game with all nine special cards, whose rounds ``verify`` replays from
their actions. Prints, for each, the record's size and the median time of ``verify_record``
over ``--repeat`` runs, and the special game's time as a multiple of the plain one's.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from netplay import fairdeal
from wizard_tui.deal import deck_for_round
from wizard_tui.game import Deal, Game, GameConfig, Phase, TableRules
from wizard_tui.game.specials import SPECIALS, Special
from wizard_tui.record import GameRecord, GameRecorder, PlayerEntry, dumps_record
from wizard_tui.verify import verify_record


def played(players: int, specials: frozenset[Special], seed: int) -> GameRecord:
    rng = random.Random(f"bench-verify/{players}/{sorted(specials)}/{seed}")
    config = GameConfig(players, 0, TableRules(specials=specials))
    game = Game(config)
    game_id = rng.randbytes(fairdeal.GAME_ID_BYTES)
    recorder = GameRecorder(
        game_id, [PlayerEntry(f"bot {s}", "bot") for s in range(players)], config
    )
    for r in range(1, config.num_rounds + 1):
        seeds = [rng.randbytes(fairdeal.SEED_BYTES) for _ in range(players)]
        commitments = [fairdeal.commitment(game_id, r, s, seed) for s, seed in enumerate(seeds)]
        game.apply(Deal(deck_for_round(game_id, r, seeds, specials)))
        while game.phase not in (Phase.DEAL, Phase.GAME_OVER):
            game.apply(rng.choice(game.legal_actions()))
        recorder.add_round(game.results[-1], commitments, seeds)
    return recorder.record()


def median_seconds(record: GameRecord, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        verify_record(record)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=3)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    results = {}
    for name, specials in (("plain", frozenset[Special]()), ("all nine", frozenset(SPECIALS))):
        record = played(args.players, specials, 0)
        seconds = median_seconds(record, args.repeat)
        size = len(dumps_record(record).encode("utf-8"))
        results[name] = seconds
        print(
            f"{name:>9}: {len(record.rounds)} rounds, record {size / 1024:.0f} kB, "
            f"verify {seconds * 1000:.1f} ms (median of {args.repeat})"
        )
    print(f"special / plain: {results['all nine'] / results['plain']:.2f}x")


if __name__ == "__main__":
    main()
