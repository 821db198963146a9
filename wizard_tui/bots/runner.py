"""Run bot decisions without blocking the asyncio event loop.

``await decide_async(bot, view)`` returns the bot's action. Cheap bots (``random``,
``easy``, ``normal``: well under a millisecond) decide inline. A bot that searches
(``offload = True``: ``hard``) decides in a worker process, so neither its CPU time
nor the GIL stalls the loop. The pool is a ``ProcessPoolExecutor`` with the ``spawn``
start method, created on first use; what crosses to the worker is a pickled copy of
the bot and the ``SeatView`` (plain frozen data), and only the action comes back.
The copy gets a fresh seed drawn from the bot's own generator, so a seeded bot stays
reproducible and successive decisions differ.

If the worker process dies, the pool is rebuilt once and the decision is made again
in a thread, so a game never stalls on a broken pool.
"""

from __future__ import annotations

import asyncio
import atexit
import multiprocessing
import random
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from ..game import SeatView
from .base import Bot, SeatAction


def _decide_in_worker(bot: Bot, view: SeatView, seed: int) -> SeatAction:
    bot.rng = random.Random(seed)
    return bot.decide(view)


def _ready() -> bool:
    return True


class BotRunner:
    """Owns the worker pool. One per program is plenty: bots take turns."""

    def __init__(self, max_workers: int = 1, start_method: str = "spawn") -> None:
        self.max_workers = max_workers
        self.start_method = start_method
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> ProcessPoolExecutor:
        if self._pool is None:
            context = multiprocessing.get_context(self.start_method)
            self._pool = ProcessPoolExecutor(self.max_workers, mp_context=context)
        return self._pool

    async def warm_up(self) -> None:
        """Start the worker now (about a third of a second) rather than at the first move."""
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(self._executor(), _ready)

    async def decide(self, bot: Bot, view: SeatView) -> SeatAction:
        if not bot.offload:
            return bot.decide(view)
        seed = bot.rng.getrandbits(64)
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._executor(), _decide_in_worker, bot, view, seed)
        except BrokenProcessPool:
            self.close()
            copy = _copy_for_thread(bot, seed)
            return await asyncio.to_thread(copy.decide, view)

    def close(self) -> None:
        pool, self._pool = self._pool, None
        if pool is not None:
            pool.shutdown(wait=False, cancel_futures=True)


def _copy_for_thread(bot: Bot, seed: int) -> Bot:
    import copy

    clone = copy.copy(bot)
    clone.rng = random.Random(seed)
    return clone


_default: BotRunner | None = None


def default_runner() -> BotRunner:
    global _default
    if _default is None:
        _default = BotRunner()
        atexit.register(_default.close)
    return _default


async def decide_async(bot: Bot, view: SeatView) -> SeatAction:
    """The bot's action for ``view``, decided off the event loop when that matters."""
    return await default_runner().decide(bot, view)
