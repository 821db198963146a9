"""The rival of ``benchmarks/rival.py``: legal play, deals consistent with what it saw."""

from __future__ import annotations

import random
import sys
from pathlib import Path

from wizard_tui.game import Phase, RestrictLastBid
from wizard_tui.simulate import new_deal_set, play_game

from .helpers import decision_points, game_at_round

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

from rival import RivalBot, rollout


def test_the_rival_plays_whole_rounds_legally() -> None:
    bots = [RivalBot(random.Random(s), max_samples=3) for s in range(3)]
    played = play_game(bots, new_deal_set(3, random.Random(1)), RestrictLastBid.ALWAYS, rounds=6)
    assert len(played.record.rounds) == 6  # play_game refuses an illegal action


def test_deals_respect_hand_sizes_voids_and_seen_cards() -> None:
    bot = RivalBot(random.Random(2))
    checked = 0
    for seed in range(4):
        rng = random.Random(seed)
        for game, view in decision_points(game_at_round(3, 9, 0, seed=seed), rng, rounds=1):
            if game.phase is not Phase.PLAY:
                continue
            k = bot._read(view)
            hands = bot._deal(view, k)
            seen = set(view.hand) | set(view.played_cards) | {view.trump_card}
            for s in range(3):
                assert len(hands[s]) == len(game.hand(s))
                if s == view.seat:
                    assert sorted(hands[s]) == sorted(view.hand)
                    continue
                assert not seen & set(hands[s])
                for suit in k["voids"][s]:
                    assert not any(c < 52 and c // 13 == suit for c in hands[s])
                    assert not any(c < 52 and c // 13 == suit for c in game.hand(s))  # true
            checked += 1
    assert checked > 20


def test_a_rollout_counts_every_trick() -> None:
    rng = random.Random(3)
    deck = list(range(60))
    for _ in range(20):
        rng.shuffle(deck)
        hands = [sorted(deck[s * 7 : s * 7 + 7]) for s in range(4)]
        won = rollout(hands, rng.randrange(-1, 4), 0, [], [2, 1, 0, 3], [0] * 4, 7)
        assert sum(won) == 7 and all(h == [] for h in hands)
