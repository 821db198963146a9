"""The host core (``host.py``) behind a netplay server: the netplay ``App`` of a Wizard game.

``HostCore`` does no I/O: it takes an input and returns a step's effects. ``WizardHost`` is
that core with the world around it. It turns the server's callbacks (a join, a message, a
link dropped or back), its runtime's timers and bots' answers (``host_runtime.py``) into the
core's inputs, at the runtime's time, and runs each step's effects once the step ends
(``run_effects``): the journal's entries first (each appended and forced to the disk), then
the record, then the sends, and last the timers and bots. So nothing is sent before what it
tells of is on the disk. It owns the journal's file and the event the commands wait on for
the game's end (``finished``), and it reads a journal back to restore a host
(``from_journal``).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from netplay import Server, Session

from ..game.codec import PlayerAction
from ..record import record_filename, write_record
from .deals.host_half import DealHostHalf
from .host import HostCore, first_legal_move
from .host_effects import (
    AskBot,
    BotDecided,
    Broadcast,
    CancelBot,
    CancelTimer,
    CloseJournal,
    Disconnect,
    Effect,
    Forget,
    GameFinished,
    GameStarted,
    HostInput,
    Joined,
    Journal,
    JournalLost,
    Left,
    OpenJournal,
    Received,
    Restored,
    Resumed,
    Send,
    SendPayload,
    StartTimer,
    Stopped,
    TimerFired,
    Welcome,
    WriteRecord,
)
from .host_runtime import Cancellable, HostRuntime, LoopRuntime, cancelled
from .host_state import HostOptions
from .journal import JournalContents, JournalError, JournalWriter
from .restore import replay_journal

log = logging.getLogger("wizard_tui.host")


class WizardHost(HostCore):
    """The netplay ``App`` of a Wizard game: the host core run on a ``HostRuntime`` (the
    event loop's, unless given). Attach a ``Server`` before it runs."""

    def __init__(
        self,
        options: HostOptions,
        *,
        rng: random.Random | None = None,
        deal_half: DealHostHalf | None = None,
        runtime: HostRuntime | None = None,
    ) -> None:
        super().__init__(options, rng=rng, deal_half=deal_half)
        self.runtime: HostRuntime = runtime or LoopRuntime()
        self.server: Server | None = None
        self.journal: JournalWriter | None = None  # the game's journal, once opened
        self.finished = asyncio.Event()  # set at a GameFinished effect, cleared at GameStarted
        self.on_game_over: Callable[[], None] | None = None  # called at a GameFinished effect
        self._timers: dict[Any, Cancellable] = {}  # the runtime's timers, by the core's keys
        self._bot_task: Cancellable | None = None  # the runtime's thinking bot
        self._stalled_since: float | None = None

    def step(self, event: HostInput) -> None:
        """One input, now: the core's step, then its effects."""
        self.run_effects(self.handle(event, self.runtime.now()))

    # ------------------------------------------------------------------ netplay callbacks

    def on_join(self, session: Session, hello: dict[str, Any]) -> dict[str, Any]:
        effects = self.handle(Joined(session, hello), self.runtime.now())
        welcome = effects.pop(0)
        assert isinstance(welcome, Welcome)
        if effects:  # after the welcome, which netplay sends once this returns
            self.runtime.call_later(0.0, lambda: self.run_effects(effects))
        return welcome.reply

    def on_message(self, session: Session, msg: dict[str, Any]) -> None:
        self.step(Received(session, msg))

    def on_disconnect(self, session: Session) -> None:
        self.step(Left(session))

    def on_resume(self, session: Session) -> None:
        self.step(Resumed(session))

    # ------------------------------------------------------------------ running effects

    def run_effects(self, effects: list[Effect]) -> None:
        """Run a step's effects: its journal entries first (each forced to the disk), then
        the record it writes, then its sends, in order. So nothing is sent before what it
        tells of is on the disk."""
        for effect in effects:
            if isinstance(effect, OpenJournal | Journal | CloseJournal):
                self._run_journal(effect)
        for effect in effects:  # (after the journal: a record holds only journaled rounds)
            if isinstance(effect, WriteRecord):
                self._run_write_record(effect)
        server = self.server
        for effect in effects if server is not None else ():
            assert server is not None
            if isinstance(effect, Send):
                server.send(effect.session, effect.msg)
            elif isinstance(effect, SendPayload):
                server.send_payload(effect.session, effect.payload)
            elif isinstance(effect, Broadcast):
                server.broadcast(effect.msg)
            elif isinstance(effect, Disconnect):
                server.error(effect.session, effect.code, effect.message, fatal=True)
            elif isinstance(effect, Forget):
                server.forget(effect.session)
        for effect in effects:  # last: a timer of no delay fires once the sends are out
            if isinstance(effect, StartTimer | CancelTimer | AskBot | CancelBot):
                self._run_timing(effect)
            elif isinstance(effect, GameStarted):
                self.finished.clear()
            elif isinstance(effect, GameFinished):
                self.finished.set()
                if self.on_game_over is not None:
                    self.on_game_over()

    def _run_timing(self, effect: StartTimer | CancelTimer | AskBot | CancelBot) -> None:
        """The runtime's timers and bots: what they report comes back as an input
        (``TimerFired``, ``BotDecided``), a step of its own."""
        if isinstance(effect, StartTimer | CancelTimer):
            timer = self._timers.pop(effect.key, None)
            if timer is not None:
                timer.cancel()
            if isinstance(effect, StartTimer):
                key = effect.key
                self._timers[key] = self.runtime.call_later(
                    effect.delay, lambda: self._timer_due(key)
                )
            return
        task, self._bot_task = self._bot_task, None
        if task is not None:
            task.cancel()
        if isinstance(effect, AskBot):
            asked = effect

            def done(action: PlayerAction, failed: bool) -> None:
                self._bot_task = None
                self.step(BotDecided(asked.seat, asked.position, action, failed))

            self._bot_task = self.runtime.ask_bot(effect.bot, effect.view, first_legal_move, done)

    def _timer_due(self, key: Any) -> None:
        self._timers.pop(key, None)
        self.step(TimerFired(key))

    def _run_write_record(self, effect: WriteRecord) -> None:
        """The record's I/O. A record that cannot be written is not fatal: everyone is told
        (the journal still holds the game)."""
        try:
            effect.path.parent.mkdir(parents=True, exist_ok=True)
            path = write_record(effect.path.parent, effect.record, name=effect.path.name)
        except OSError as exc:
            log.error("could not write the game record: %s", exc)
            self._tell_everyone(f"record not saved: {exc}")
            return
        table = self.table
        if table is not None and table.game_id == effect.record.game_id:
            table.record_path = path

    def _run_journal(self, effect: OpenJournal | Journal | CloseJournal) -> None:
        """The journal's I/O. A journal that cannot be written is given up (the core is told,
        ``JournalLost``: the game goes on, and everyone is told a crash would end it)."""
        if isinstance(effect, OpenJournal):
            try:
                self.journal = JournalWriter.create(effect.path, effect.header)
            except JournalError as exc:
                log.error("%s: this game cannot be resumed after a crash", exc)
                self.step(JournalLost())
            return
        journal = self.journal
        if isinstance(effect, CloseJournal):
            self.journal = None
            if journal is not None:
                _seal(journal, effect.last)
            return
        if journal is None:
            return
        try:
            journal.append(effect.entry)
        except (OSError, JournalError) as exc:
            log.error("could not write the journal %s: %s", journal.path, exc)
            journal.close()
            self.journal = None
            self.step(JournalLost())
            self._tell_everyone(f"journal not saved ({exc}): a crash now would end this game")

    def _tell_everyone(self, text: str) -> None:
        """A chat line of the host program's own trouble, straight to the server (it is
        about the step whose effects are being run)."""
        if self.server is not None:
            self.server.broadcast({"t": "chat", "seat": None, "name": "host", "text": text})

    def close_journal(self) -> None:
        """Close the game's journal; once the game is over it gets its ``game_over`` entry
        (``HostCore.last_entry``)."""
        journal, self.journal = self.journal, None
        if journal is not None:
            _seal(journal, self.last_entry())

    # ------------------------------------------------------------------ a restored host

    @classmethod
    def from_journal(
        cls,
        journal: JournalContents | Path,
        options: HostOptions,
        *,
        rng: random.Random | None = None,
        runtime: HostRuntime | None = None,
    ) -> WizardHost:
        """A host holding the game of ``journal`` (a path or ``JournalContents``) exactly as
        it was, appending to the same journal: ``restore.replay_journal`` replays its facts
        through the deal kind's host half, and the host carries on with that very half
        (``HostCore.from_replay``). Call ``adopt_sessions`` once its server exists, so
        players can resume, and ``resume_play`` once it listens."""
        contents, replayed = replay_journal(journal)
        host = cls.from_replay(replayed, options, rng=rng, runtime=runtime)
        host.journal = None if replayed.finished else JournalWriter.reopen(contents)
        if options.records_dir is not None:
            # A record write the crash cut short leaves its temporary file (never the record).
            pattern = f".{record_filename(replayed.header.game_id)}.*.tmp"
            for leftover in Path(options.records_dir).glob(pattern):
                with contextlib.suppress(OSError):
                    leftover.unlink()
        return host

    def adopt_sessions(self) -> None:
        """Once the server is attached: give it back the restored players' sessions, so
        their clients resume."""
        assert self.server is not None
        for session in self.restored_sessions():
            if session not in self.server.sessions:
                self.server.sessions.restore(session)

    def resume_play(self) -> None:
        """Once the server listens: the core's ``Restored`` input (the takeover countdowns
        start, and the game carries on from where the journal ends)."""
        self.step(Restored())

    # ------------------------------------------------------------------ the end

    def stalled_for(self) -> float:
        """Seconds the game has been waiting on a disconnected seat (0 if it is not)."""
        now = self.runtime.now()
        table = self.table
        waiting = (
            table is not None
            and not table.finished
            and any(
                s is not None and s.kind == "human" and not s.info().connected and not s.stand_in
                for s in self.seats
            )
        )
        if not waiting:
            self._stalled_since = None
            return 0.0
        if self._stalled_since is None:
            self._stalled_since = now
        return now - self._stalled_since

    async def farewell(self, limit: float = 15.0) -> None:
        """After the game: wait (up to ``limit`` seconds, enough for a client's reconnect
        backoff) for players who are reconnecting within their takeover grace to hear the
        end (a restarted host's players)."""
        now = self.runtime.now
        end = now() + limit
        while now() < end and self.waiting_to_hear_the_end(now()):
            await asyncio.sleep(0.05)

    async def close(self) -> None:
        """The core stops (``Stopped``), every timer and bot of the runtime is cancelled,
        and the journal is closed (sealed if the game is over)."""
        self.step(Stopped())
        for timer in self._timers.values():
            timer.cancel()
        self._timers.clear()
        task, self._bot_task = self._bot_task, None
        await cancelled(task)
        self.close_journal()


def _seal(journal: JournalWriter, last: dict[str, Any] | None) -> None:
    try:
        if last is not None:
            journal.append(last)
    except (OSError, JournalError) as exc:
        log.error("could not write the journal %s: %s", journal.path, exc)
    finally:
        journal.close()


__all__ = ["WizardHost"]
