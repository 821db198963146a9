"""Decisions off the event loop: the hard bot thinks in a worker process, the loop runs on."""

from __future__ import annotations

import asyncio
import pickle
import random
import time

from wizard_tui.bots import BotRunner, decide_async, make_bot
from wizard_tui.game import Phase

from .helpers import decision_points, game_at_round


def late_view():
    """A view with history, a trick in progress and several legal cards."""
    rng = random.Random(2)
    game = game_at_round(3, 12, dealer=0, seed=2)
    for g, view in decision_points(game, rng, rounds=1):
        if g.phase is Phase.PLAY and view.trick and len(view.legal_cards) > 2 and view.tricks:
            return g, view
    raise AssertionError("no such state")


def test_views_pickle_whole() -> None:
    _game, view = late_view()
    assert pickle.loads(pickle.dumps(view)) == view
    assert view.history and view.tricks  # the parts most likely to trip pickling are there


async def test_hard_decides_in_a_worker_without_blocking_the_loop() -> None:
    game, view = late_view()
    runner = BotRunner()
    try:
        await runner.warm_up()
        bot = make_bot("hard", random.Random(3), time_budget=0.4, min_samples=10**6)
        ticks = 0
        done = False

        async def ticker() -> None:
            nonlocal ticks
            while not done:
                await asyncio.sleep(0.01)
                ticks += 1

        task = asyncio.create_task(ticker())
        start = time.perf_counter()
        action = await runner.decide(bot, view)
        elapsed = time.perf_counter() - start
        done = True
        await task
        assert action in game.legal_actions()
        # The search ran its budget (min_samples keeps it from stopping early) while the
        # loop kept ticking: a blocking call would leave ticks near zero.
        assert elapsed >= 0.3
        assert ticks >= 10
    finally:
        runner.close()


async def test_cheap_bots_decide_inline_and_the_default_runner_works() -> None:
    game, view = late_view()
    for level in ("random", "easy", "normal"):
        action = await decide_async(make_bot(level, random.Random(1)), view)
        assert action in game.legal_actions()


async def test_a_broken_pool_falls_back_to_a_thread() -> None:
    game, view = late_view()
    runner = BotRunner()
    try:
        await runner.warm_up()
        pool = runner._pool
        assert pool is not None
        for proc in list(pool._processes.values()):  # simulate a crashed worker
            proc.kill()
            proc.join()
        bot = make_bot("hard", random.Random(3), max_samples=3)
        action = await runner.decide(bot, view)
        assert action in game.legal_actions()
        assert runner._pool is None  # the broken pool was dropped; the next call makes a new one
    finally:
        runner.close()


def test_seeded_decisions_are_reproducible_across_the_process_boundary() -> None:
    _game, view = late_view()

    async def twice() -> list:
        runner = BotRunner()
        try:
            out = []
            for _ in range(2):
                bot = make_bot("hard", random.Random(9), max_samples=5, time_budget=5.0)
                out.append(await runner.decide(bot, view))
            return out
        finally:
            runner.close()

    a, b = asyncio.run(twice())
    assert a == b
