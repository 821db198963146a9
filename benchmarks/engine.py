"""Engine speed: full random 4-player games per second, and legal-move queries per second.

Everything goes through the engine's public API (``deal``, ``legal_bids``, ``bid``,
``legal_plays``, ``play``, ``choose_trump``), with a uniformly random legal player that asks
for the legal moves before every decision. The baseline is a straightforward pure-Python
engine (``naive_engine.py``) measured in the same run, since absolute figures drift between
runs on a shared machine.

The decks: both sides get each round's deck from the same generator,
``naive_engine.shuffle_prefix``, a partial Fisher-Yates shuffle of the positions the round
uses (its hands and the trump card). That is as uniformly random a deal as a full
``random.shuffle`` of the 60 cards, at a fraction of the cost; the engine still receives,
and checks, a full permutation of the 60 card ids.

    .venv/bin/python benchmarks/engine.py [--seconds S] [--players N] [--breakdown] [--floor]

``--breakdown`` also shows where a game's time goes: the deck shuffles and random picks
(the benchmark's own work), the deals, the other actions, and the legal-move queries.
``--floor`` also plays the same loop against ``NullGame``, an engine that does nothing:
what is left of a game's time then is the benchmark's own.
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
from naive_engine import dealt_count, shuffle_prefix

from wizard_tui.game import Game, GameConfig, Phase

DECK = list(range(60))


class NullGame:
    """A do-nothing engine with ``Game``'s calls, for ``--floor``: it goes through the phases
    of a game (a deal, the bids, the plays, round after round) but checks nothing, holds no
    cards and offers the same three cards at every turn. Played by ``engine_game``, it shows
    what a game costs the benchmark itself: the shuffles, the random picks, the loop and
    the calls."""

    CARDS = (0, 1, 2)

    def __init__(self, config: GameConfig) -> None:
        self.players = config.players
        self.rounds = 60 // config.players
        self.phase, self.round, self.turn, self.totals = Phase.DEAL, 0, 0, [0] * config.players
        self._left = 0  # actions left in this phase

    def deal(self, deck: list[int]) -> None:
        self.round += 1
        self.phase, self._left = Phase.BID, self.players

    def legal_bids(self) -> list[int]:
        return list(range(self.round + 1))

    def bid(self, seat: int, bid: int) -> None:
        self._left -= 1
        if not self._left:
            self.phase, self._left = Phase.PLAY, self.players * self.round

    def legal_plays(self) -> tuple[int, ...]:
        return self.CARDS

    def play(self, seat: int, card: int) -> None:
        self._left -= 1
        if not self._left:
            self.phase = Phase.DEAL if self.round < self.rounds else Phase.GAME_OVER

    def choose_trump(self, seat: int, suit: int) -> None:
        raise AssertionError("a null game never turns up a Wizard")


def engine_game(players: int, rng: random.Random, game_class: type = Game) -> list[int]:
    game = game_class(GameConfig(players, rng.randrange(players)))
    deck = DECK[:]
    pick = rng.random
    play, bid = game.play, game.bid
    legal_plays, legal_bids = game.legal_plays, game.legal_bids
    PLAY, BID, DEAL, CHOOSE_TRUMP = Phase.PLAY, Phase.BID, Phase.DEAL, Phase.CHOOSE_TRUMP
    while True:
        phase = game.phase
        if phase is PLAY:
            cards = legal_plays()
            play(game.turn, cards[int(pick() * len(cards))])
        elif phase is BID:
            bids = legal_bids()
            bid(game.turn, bids[int(pick() * len(bids))])
        elif phase is DEAL:
            shuffle_prefix(deck, dealt_count(players, game.round + 1), pick)
            game.deal(deck)
        elif phase is CHOOSE_TRUMP:
            game.choose_trump(game.turn, int(pick() * 4))
        else:
            return game.totals


def null_game(players: int, rng: random.Random) -> list[int]:
    return engine_game(players, rng, NullGame)


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
                shuffle_prefix(deck, dealt_count(players, game.round + 1), rng.random)
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


def record_game(players: int, rng: random.Random) -> tuple[GameConfig, list[tuple], list[tuple]]:
    """A random game as its calls (kind, *args), and (copy of the game, deck) for each deal."""
    config = GameConfig(players, rng.randrange(players))
    game = Game(config)
    deck = DECK[:]
    calls: list[tuple] = []
    deals = []
    while not game.is_over:
        if game.phase is Phase.PLAY:
            cards = game.legal_plays()
            calls.append((Phase.PLAY, game.turn, cards[int(rng.random() * len(cards))]))
            game.play(*calls[-1][1:])
        elif game.phase is Phase.BID:
            bids = game.legal_bids()
            calls.append((Phase.BID, game.turn, bids[int(rng.random() * len(bids))]))
            game.bid(*calls[-1][1:])
        elif game.phase is Phase.DEAL:
            shuffle_prefix(deck, dealt_count(players, game.round + 1), rng.random)
            deals.append((game.copy(), deck[:]))
            calls.append((Phase.DEAL, deck[:], None))
            game.deal(deck)
        else:
            calls.append((Phase.CHOOSE_TRUMP, game.turn, int(rng.random() * 4)))
            game.choose_trump(*calls[-1][1:])
    return config, calls, deals


def breakdown(players: int, repeats: int) -> None:
    """Microseconds per game for each part of ``engine_game``, fastest of ``repeats`` runs.

    The games are recorded, then replayed: their actions alone, the actions with the legal
    queries before them, and the deals alone (each on a copy of the game before it, the
    copies timed on their own and taken off); the shuffles and random picks are timed alone.
    """
    rng = random.Random(1)
    games = [record_game(players, rng) for _ in range(40)]
    PLAY, BID, DEAL = Phase.PLAY, Phase.BID, Phase.DEAL
    decisions = sum(c[0] is PLAY or c[0] is BID for _, calls, _ in games for c in calls)
    decisions /= len(games)
    rounds = len(games[0][2])

    def replay(actions: bool, queries: bool) -> None:
        for config, calls, _ in games:
            game = Game(config)
            play, bid, deal, choose = game.play, game.bid, game.deal, game.choose_trump
            legal_plays, legal_bids = game.legal_plays, game.legal_bids
            for kind, a, b in calls:
                if not actions:  # the loop alone
                    continue
                if kind is PLAY:
                    if queries:
                        legal_plays()
                    play(a, b)
                elif kind is BID:
                    if queries:
                        legal_bids()
                    bid(a, b)
                elif kind is DEAL:
                    deal(a)
                else:
                    choose(a, b)

    def deals(deal: bool) -> None:
        for _, _, dealt in games:
            for game, deck in dealt:
                if deal:
                    game.copy().deal(deck)
                else:
                    game.copy()

    def shuffles() -> None:
        deck, pick = DECK[:], rng.random
        for _ in range(len(games)):
            for r in range(1, rounds + 1):
                shuffle_prefix(deck, dealt_count(players, r), pick)

    def picks() -> None:
        pick, cards = rng.random, tuple(range(8))
        for _ in range(int(len(games) * decisions)):
            cards[int(pick() * len(cards))]

    def full() -> None:
        r = random.Random(2)
        for _ in range(len(games)):
            engine_game(players, r)

    parts = {
        "full": full,
        "loop": lambda: replay(False, False),
        "actions": lambda: replay(True, False),
        "queries": lambda: replay(True, True),
        "deals": lambda: deals(True),
        "copies": lambda: deals(False),
        "shuffles": shuffles,
        "picks": picks,
    }
    best = {name: float("inf") for name in parts}
    for _ in range(repeats):
        for name, fn in parts.items():
            start = time.perf_counter()
            fn()
            best[name] = min(best[name], (time.perf_counter() - start) / len(games) * 1e6)
    deal = best["deals"] - best["copies"]
    actions = best["actions"] - best["loop"] - deal
    queries = best["queries"] - best["actions"]
    total = best["full"]
    rest = total - best["shuffles"] - best["picks"] - deal - actions - queries
    print(f"where a game's time goes ({decisions:.0f} decisions, {rounds} deals), us per game:")
    rows = [
        ("deck shuffle before each deal (benchmark)", best["shuffles"]),
        ("random pick for each decision (benchmark)", best["picks"]),
        (f"deal(), its checks included: {deal / rounds:.1f} us each", deal),
        (f"bid(), play(), choose_trump(): {actions / decisions * 1000:.0f} ns each", actions),
        (f"legal_bids(), legal_plays(): {queries / decisions * 1000:.0f} ns each", queries),
        ("the rest: the benchmark's loop, Game()", rest),
    ]
    for label, us in rows:
        print(f"  {label:58s} {us:6.1f}  {us / total:4.0%}")
    print(f"  {'a full game, timed on its own':58s} {total:6.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per measurement")
    parser.add_argument("--repeats", type=int, default=3, help="alternating runs of each")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--breakdown", action="store_true", help="where a game's time goes")
    parser.add_argument(
        "--floor", action="store_true", help="also the benchmark's own cost, with a null engine"
    )
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
    print("decks: naive_engine.shuffle_prefix for both (a partial Fisher-Yates of the cards dealt)")
    print("goal: >= 2,500 games/s (4 players)")
    if args.floor:
        floor = statistics.median(
            games_per_second(null_game, args.players, args.seconds, i) for i in range(args.repeats)
        )
        print(
            f"a do-nothing engine in the same loop: {floor:.0f} games/s, so the benchmark's own"
            f" shuffles, picks, loop and calls take {1e6 / floor:.0f} us of a game's"
            f" {1e6 / ours_med:.0f} us"
        )
    if args.breakdown:
        breakdown(args.players, 10)


if __name__ == "__main__":
    main()
