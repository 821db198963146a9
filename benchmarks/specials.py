"""The special cards' engine speed: card plays per second in whole random games with special
cards, against the plain engine driven by the same loop in the same run.

Both sides play whole 4-player games by a uniformly random legal player that asks
``legal_actions()`` before every decision and ``apply``s its choice (the way a bot's search
drives a copy): the plain game with no special card, and the game with the chosen special
cards (all nine by default). The special engine is written plainly rather than for speed;
what matters is that a bot can search it (a few thousand card plays per second is plenty).

    .venv/bin/python benchmarks/specials.py [--seconds S] [--players N] [--specials all]
"""

from __future__ import annotations

import argparse
import random
import time

from wizard_tui.game import Deal, Game, GameConfig, Phase, Play, TableRules
from wizard_tui.game.specials import Special, deck_cards, parse_specials


def play_games(
    specials: frozenset[Special], players: int, seconds: float, seed: int
) -> tuple[int, int, float]:
    """(games, card plays, seconds) of random games played for about ``seconds``."""
    rng = random.Random(seed)
    deck = list(deck_cards(specials))
    config = GameConfig(players, 0, TableRules(specials=specials))
    games = plays = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        game = Game(config)
        while not game.is_over:
            if game.phase is Phase.DEAL:
                rng.shuffle(deck)
                game.apply(Deal(tuple(deck)))
                continue
            action = rng.choice(game.legal_actions())
            game.apply(action)
            plays += type(action) is Play
        games += 1
    return games, plays, time.perf_counter() - start


def copies_per_second(specials: frozenset[Special], players: int, seconds: float) -> float:
    """``copy()`` of a game in the middle of its 5th round, per second (bots search on copies)."""
    rng = random.Random(1)
    deck = list(deck_cards(specials))
    game = Game(GameConfig(players, 0, TableRules(specials=specials)))
    while game.round < 5 or len(game.tricks) < 2:
        if game.phase is Phase.DEAL:
            rng.shuffle(deck)
            game.apply(Deal(tuple(deck)))
        else:
            game.apply(rng.choice(game.legal_actions()))
    count, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        for _ in range(100):
            game.copy()
        count += 100
    return count / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--specials", default="all")
    args = parser.parse_args()
    specials = parse_specials(args.specials)
    rows = {"plain": [], "special": []}
    for run in range(3):  # alternating, so that a change in the machine's load hits both
        for name, cards in (("plain", frozenset[Special]()), ("special", specials)):
            games, plays, took = play_games(cards, args.players, args.seconds / 3, run)
            rows[name].append((games / took, plays / took))
    print(f"players: {args.players}, specials: {','.join(c.wire_name for c in sorted(specials))}")
    for name, runs in rows.items():
        best = max(runs)
        print(f"{name:8}: {best[0]:8.1f} games/s  {best[1]:10,.0f} card plays/s  (best of 3)")
    ratio = max(rows["special"])[1] / max(rows["plain"])[1]
    print(f"special / plain card plays: {ratio:.2f}x (driven by legal_actions + apply on both)")
    plain_copies = copies_per_second(frozenset(), args.players, args.seconds / 6)
    special_copies = copies_per_second(specials, args.players, args.seconds / 6)
    print(f"copy(): plain {plain_copies:,.0f}/s, special {special_copies:,.0f}/s")


if __name__ == "__main__":
    main()
