"""Helpers for the Wizard network tests: a host on 127.0.0.1 (port 0), bot clients, taps
on a session's updates, a client that keeps every message, and a snapshot of the host's
game state.

Every socket here is on the loopback address; nothing listens on or connects to anything
else.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import dataclasses
import random
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any

from netplay import Server
from wizard_tui.bots import make_bot
from wizard_tui.game import SeatView, seat_view
from wizard_tui.net import protocol as p
from wizard_tui.net.bot_player import play_as_bot
from wizard_tui.net.client import NetworkSession
from wizard_tui.net.deals.commit_reveal.host import CommitRevealHost
from wizard_tui.net.host import HostOptions
from wizard_tui.net.host_adapter import WizardHost
from wizard_tui.record import GameRecord, RecordedRound, RecordError
from wizard_tui.session import ActionRefused, SessionUpdate, TableUpdate
from wizard_tui.verify import verify_path, verify_record

LOOPBACK = "127.0.0.1"

# The protocol's limits with short waits, so closing and reconnecting take milliseconds.
LIMITS = dataclasses.replace(
    p.LIMITS, linger=0.2, reconnect_delay=0.02, reconnect_max_delay=0.1, handshake_timeout=1.5
)


@contextlib.asynccontextmanager
async def running_host(
    options: HostOptions,
    *,
    host_cls: type[WizardHost] = WizardHost,
    rng: random.Random | None = None,
) -> AsyncIterator[WizardHost]:
    """A host (of ``host_cls``, so tests can run a cheating one) on 127.0.0.1, port 0."""
    host = host_cls(options, rng=rng)
    server = Server(
        host, protocol=p.PROTOCOL, version=p.VERSION, host=LOOPBACK, port=0, limits=LIMITS
    )
    host.server = server
    await server.start()
    options.port = server.port
    try:
        yield host
    finally:
        await host.close()
        await server.close()


async def seat_sessions(
    port: int, count: int, *, cls: type[NetworkSession] = NetworkSession, **kwargs: Any
) -> list[NetworkSession]:
    """``count`` clients, connected one after another so client i holds seat i."""
    sessions = []
    for i in range(count):
        session = cls(LOOPBACK, port, name=f"net{i}", limits=LIMITS, **kwargs)
        await session.connect()
        sessions.append(session)
    return sessions


async def play_bots(
    sessions: Sequence[NetworkSession], level: str = "random", seed: int = 0
) -> list[int]:
    """Every session played by a bot until the game ends; their exit codes."""
    return list(
        await asyncio.gather(
            *(
                play_as_bot(s, make_bot(level, random.Random(seed + i)), quiet=True)
                for i, s in enumerate(sessions)
            )
        )
    )


def assert_game_verified(host: WizardHost, sessions: Sequence[NetworkSession]) -> None:
    """The game finished, every client checked every round and found it right, and the
    host's record (and each client's own record) passes ``verify``."""
    table = host.table
    assert table is not None and table.finished and host.failed is None
    for session in sessions:
        outcomes = [(v.round, v.ok) for v in session.verifications]
        assert outcomes == [(r, True) for r in range(1, table.game.num_rounds + 1)], (
            session.name,
            [v.detail for v in session.verifications if not v.ok],
        )
        assert session.all_verified
        assert session.finished is not None
        assert list(session.finished.totals) == table.game.totals
        assert session.recorder is not None
        # The client's own record, built from what it verified, is the host's record.
        assert session.recorder.record() == table.recorder.record()
    assert_own_records(table.recorder.record(), sessions)
    assert table.record_path is not None
    verdict = verify_path(table.record_path)
    assert verdict.ok, verdict.line()
    assert verdict.record is not None and verdict.record.complete


def _round_facts(rnd: RecordedRound) -> tuple[Any, ...]:
    """A round without the order of its envelopes: a client appends its own envelopes when
    it sends them, the relay when it accepts them (releases and reveals in any order)."""
    deal = rnd.private_deal
    envelopes = None if deal is None else (deal.setup, frozenset(deal.envelopes))
    dealt = (rnd.commitments, rnd.seeds) if deal is None else envelopes
    return (rnd.round, rnd.dealer, rnd.hands, rnd.trump_card, rnd.trump_suit, rnd.bids,
            rnd.tricks, rnd.tricks_won, rnd.points, rnd.totals, dealt)  # fmt: skip


def assert_own_records(
    host_record: GameRecord, sessions: Sequence[NetworkSession], *, complete: bool = True
) -> None:
    """Every participant's own record (from its file when it wrote one) passes ``verify``
    on its own and is the host's game: the same seats, keys and rules, the host's rounds
    (``complete``: all of them), and the same voided attempts and stand-ins up to its last
    round."""
    for session in sessions:
        assert session.recorder is not None, session.name
        mine = session.recorder.record()
        try:
            verify_record(mine)
        except RecordError as exc:
            raise AssertionError(f"{session.name}'s own record: {exc}") from None
        if session.record_path is not None:
            verdict = verify_path(session.record_path)
            assert verdict.ok, (session.name, verdict.line())
            assert verdict.record is not None and len(verdict.record.rounds) == len(mine.rounds)
        same = ("game_id", "players", "protocol", "signing_keys", "first_dealer")
        assert [getattr(mine, k) for k in same] == [getattr(host_record, k) for k in same]
        got = len(mine.rounds)
        if complete:
            assert got == len(host_record.rounds) and mine.complete == host_record.complete, (
                session.name,
                got,
            )
        assert [_round_facts(r) for r in mine.rounds] == [
            _round_facts(r) for r in host_record.rounds[:got]
        ], session.name
        if mine.private:

            def attempts(record: GameRecord, upto: int = got) -> list[tuple[int, int]]:
                return [(d.round, d.attempt) for d in record.redeals if d.round <= upto]

            assert attempts(mine) == attempts(host_record), session.name
            assert [s for s in mine.stand_ins if s.round <= got] == [
                s for s in host_record.stand_ins if s.round <= got
            ], session.name


async def wait_until(condition: Callable[[], object]) -> None:
    """For host-side state no message announces: poll ``condition`` until it holds (the
    test's own ``asyncio.timeout`` bounds the wait)."""
    while not condition():
        await asyncio.sleep(0.002)


class Tap:
    """Collects a session's updates so a test can await the one it needs, in order."""

    def __init__(self, session: NetworkSession) -> None:
        self.session = session
        self.updates: list[SessionUpdate] = []
        self.ended = False
        self._changed = asyncio.Event()
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        try:
            async for update in self.session.updates():
                self.updates.append(update)
                self._changed.set()
        finally:
            self.ended = True
            self._changed.set()

    def mark(self) -> int:
        return len(self.updates)

    async def wait_for(self, pred: Callable[[SessionUpdate], bool], start: int = 0) -> Any:
        """The first update from index ``start`` on that satisfies ``pred``."""
        i = start
        while True:
            while i < len(self.updates):
                if pred(self.updates[i]):
                    return self.updates[i]
                i += 1
            if self.ended:
                raise AssertionError(f"{self.session.name}'s updates ended while waiting")
            self._changed.clear()
            await self._changed.wait()

    async def refusal(self, start: int) -> ActionRefused:
        return await self.wait_for(lambda u: isinstance(u, ActionRefused), start)

    async def table_update(self, pred: Callable[[TableUpdate], bool], start: int = 0) -> Any:
        return await self.wait_for(lambda u: isinstance(u, TableUpdate) and pred(u), start)

    async def close(self) -> None:
        await self.session.close()
        await self._task


class CapturingSession(NetworkSession):
    """A ``NetworkSession`` that keeps a copy of every message the host sent it, in order."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.received: list[dict[str, Any]] = []

    def _handle(self, msg: dict[str, Any]) -> None:
        self.received.append(copy.deepcopy(msg))
        super()._handle(msg)


def host_state(host: WizardHost) -> tuple[Any, ...]:
    """Everything an accepted action or seed would change: every seat's view, the phase,
    the turn, and where the round's commit-reveal exchange stands."""
    table = host.table
    assert table is not None
    game = table.game
    half = host.deal_half  # commit-reveal's round: its host half holds it
    deal = half.deal if isinstance(half, CommitRevealHost) else None
    exchange = None
    if deal is not None:
        exchange = (
            deal.exchange.round,
            deal.exchange.phase,
            deal.exchange.missing_commitments(),
            deal.exchange.missing_seeds(),
            None if deal.commitments is None else tuple(deal.commitments),
            None if deal.seeds is None else tuple(deal.seeds),
        )
    views: tuple[SeatView, ...] = tuple(seat_view(game, s) for s in range(game.players))
    return (views, game.phase, game.turn, game.round, tuple(game.totals), exchange)
