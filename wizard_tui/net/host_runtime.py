"""What the host's rules run on: a clock, timers and bots that think off the rule code.

The host's core (``HostCore.handle``) never reads a clock, schedules a callback or starts
a task: its steps return ``StartTimer``, ``CancelTimer``, ``AskBot`` and ``CancelBot``
effects, which the host's adapter (``host_adapter.WizardHost.run_effects``) runs on a
``HostRuntime``; a timer's end and a bot's decision come back as inputs (``TimerFired``,
``BotDecided``).
``LoopRuntime`` is the real one, on the asyncio event loop (a bot that searches thinks in a
worker: ``bots.decide_async``). A test runs the same host on a runtime of its own (a
hand-moved clock, timers it fires, bots it runs), with no event loop and no socket
(``tests/net/test_host_core.py``), or feeds ``handle`` those inputs itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any, Protocol

from ..bots import Bot, decide_async
from ..game import SeatView
from ..game.codec import PlayerAction

log = logging.getLogger("wizard_tui.host")

# What a bot's thinking reports: its action, and whether the bot failed (the action is then
# the first legal move).
BotDone = Callable[[PlayerAction, bool], None]


class Cancellable(Protocol):
    def cancel(self) -> Any: ...


class HostRuntime(Protocol):
    def now(self) -> float:
        """Seconds on a monotonic clock (the time of every input the core is given; a new
        game's journal header takes it as its creation time, so count it from the epoch)."""
        ...

    def call_later(self, delay: float, fire: Callable[[], None]) -> Cancellable:
        """Call ``fire`` after ``delay`` seconds (0: as soon as the current input is done)."""
        ...

    def ask_bot(
        self,
        bot: Bot,
        view: SeatView,
        fallback: Callable[[SeatView], PlayerAction],
        done: BotDone,
    ) -> Cancellable:
        """Let ``bot`` think about ``view``: ``done`` gets its action (``fallback``'s if it
        failed), unless it is cancelled first. (Its pacing is the core's timer.)"""
        ...


class LoopRuntime:
    """The host's runtime on the running asyncio event loop. Its clock is the loop's
    (monotonic), counted from the Unix epoch as the wall clock read at its first use, so a
    time the core takes from an input can also say when a game began (its journal header)."""

    # The wall clock's time at the loop clock's zero, read at the first ``now`` (a class
    # default, so a runtime that keeps ``__init__`` of its own needs nothing more).
    _epoch: float | None = None

    def now(self) -> float:
        t = asyncio.get_running_loop().time()
        if self._epoch is None:
            self._epoch = time.time() - t
        return self._epoch + t

    def call_later(self, delay: float, fire: Callable[[], None]) -> Cancellable:
        loop = asyncio.get_running_loop()
        if delay <= 0:
            return loop.call_soon(fire)  # (the loop's next turn)
        return loop.call_later(delay, fire)

    def ask_bot(
        self,
        bot: Bot,
        view: SeatView,
        fallback: Callable[[SeatView], PlayerAction],
        done: BotDone,
    ) -> Cancellable:
        return asyncio.get_running_loop().create_task(self._think(bot, view, fallback, done))

    async def decide(self, bot: Bot, view: SeatView) -> PlayerAction:
        """The bot's thinking: off the event loop for bots that search (hard runs in a
        worker process), so the host's own table and every client keep moving meanwhile."""
        return await decide_async(bot, view)

    async def _think(
        self,
        bot: Bot,
        view: SeatView,
        fallback: Callable[[SeatView], PlayerAction],
        done: BotDone,
    ) -> None:
        # No exception here may end the host (docs/security.md, "No seat can stall the
        # table"): a bot that fails makes the first legal move, a failed move is logged.
        try:
            failed = False
            try:
                action: PlayerAction = await self.decide(bot, view)
            except Exception:
                log.exception("a bot failed: it makes the first legal move")
                action, failed = fallback(view), True
            done(action, failed)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("a bot's move failed; the game goes on")


async def cancelled(task: Cancellable | None) -> None:
    """Cancel a bot's thinking and wait for it to end (when the host closes)."""
    if task is None:
        return
    task.cancel()
    if isinstance(task, asyncio.Task):
        with contextlib.suppress(asyncio.CancelledError):
            await task


__all__ = ["BotDone", "Cancellable", "HostRuntime", "LoopRuntime", "cancelled"]
