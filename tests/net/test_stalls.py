"""No seat can stall or kill the table (issue 12 items 4, 13; issue 21 item 3).

* A bot's decision for a position that is no longer the table's (a well-timed ``lost`` voids
  the attempt while the bot waits out its pacing delay) is dropped, never applied: the
  host used to die with ``ValueError: seat N is not on turn``.
* No exception in a bot task or a message handler ends the host: it costs that one action,
  is logged, and the game goes on.

Every socket is on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from net_helpers import (
    LIMITS,
    LOOPBACK,
    CapturingSession,
    assert_game_verified,
    assert_own_records,
    play_bots,
    running_host,
    seat_sessions,
    wait_until,
)
from private_helpers import assert_private_game_verified
from test_net_reconnect import GatedClient

from netplay import LinkState
from netplay.pake import ROOM_CODE_ALPHABET, PakeError
from wizard_tui.bots import make_bot
from wizard_tui.bots.base import Bot
from wizard_tui.game import SeatView
from wizard_tui.net import protocol as p
from wizard_tui.net.client import NetworkSession
from wizard_tui.net.deals.private.host import PrivateDealing
from wizard_tui.net.host import HostOptions
from wizard_tui.net.host_adapter import WizardHost
from wizard_tui.net.host_runtime import LoopRuntime
from wizard_tui.verify import verify_path

CLI = [sys.executable, "-m", "wizard_tui"]


class HeldPacing(LoopRuntime):
    """Bots' thinking that, once armed, lasts until the test lets it end."""

    def __init__(self) -> None:
        self.armed = False
        self.waiting = asyncio.Event()  # a bot is held in its delay
        self.release = asyncio.Event()

    async def decide(self, bot: Bot, view: SeatView) -> Any:
        if self.armed:
            self.armed = False
            self.waiting.set()
            await self.release.wait()
        return await super().decide(bot, view)


class PacedByTheTest(WizardHost):
    """A host whose bots' pacing delay, once armed, lasts until the test lets it end: the
    test can change the table while a bot's decision is pending, deterministically."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.pacing = HeldPacing()
        super().__init__(*args, runtime=self.pacing, **kwargs)

    @property
    def armed(self) -> bool:
        return self.pacing.armed

    @armed.setter
    def armed(self, value: bool) -> None:
        self.pacing.armed = value

    @property
    def waiting(self) -> asyncio.Event:
        return self.pacing.waiting

    @property
    def release(self) -> asyncio.Event:
        return self.pacing.release


def _private(records: Path) -> HostOptions:
    return HostOptions(players=3, bots=1, bot_level="random", records_dir=records, deal="private")


async def test_a_bot_decision_for_a_voided_position_is_dropped(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    # The host bot is on turn and waits out its delay; a player sends `lost` then, which voids
    # the attempt (the turn is nobody's until the new attempt is dealt). When the delay ends
    # the bot's decision belongs to a position gone by: it is dropped, and the bot decides
    # again once it is on turn in the new attempt.
    options = _private(tmp_path)
    caplog.set_level(logging.INFO, logger="wizard_tui.host")
    async with asyncio.timeout(60), running_host(options, host_cls=PacedByTheTest) as host:
        assert isinstance(host, PacedByTheTest)
        sessions = await seat_sessions(options.port, 2)
        host.armed = True
        game = asyncio.ensure_future(play_bots(sessions))
        await host.waiting.wait()
        private = host.deal_half
        assert private is not None and private.deal is not None
        r, attempt = private.deal.round, private.deal.attempt
        sessions[0].client.send({"t": "lost", "round": r, "attempt": attempt})
        await wait_until(lambda: private.deal is not None and private.deal.attempt == attempt + 1)
        assert host.table is not None and host.table.game.turn != host._bot_seat
        host.release.set()
        codes = await game
        await host.finished.wait()
    assert codes == [0, 0]
    assert host.failed is None
    assert_private_game_verified(host, sessions, redeals=1)
    assert any("position gone by is dropped" in m for m in caplog.messages)


class FailsOnce(Bot):
    """A bot whose first decision raises (a bug in a bot): it must cost that one move."""

    level = "random"

    def __init__(self) -> None:
        super().__init__(random.Random(1))
        self.inner = make_bot("random", random.Random(2))
        self.failed = False

    def decide(self, view: SeatView) -> Any:
        if not self.failed:
            self.failed = True
            raise RuntimeError("injected bot failure")
        return self.inner.decide(view)

    def choose_trump(self, view: SeatView) -> int:
        raise NotImplementedError

    def choose_bid(self, view: SeatView) -> int:
        raise NotImplementedError

    def choose_card(self, view: SeatView) -> int:
        raise NotImplementedError


@pytest.mark.parametrize("deal", ["commit-reveal", "private"])
async def test_an_exception_in_a_bot_task_does_not_end_the_host(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, deal: str
) -> None:
    options = HostOptions(players=3, bots=1, bot_level="random", records_dir=tmp_path, deal=deal)
    async with asyncio.timeout(60), running_host(options) as host:
        bot_seat = next(i for i, s in enumerate(host.seats) if s is not None and s.bot)
        broken = FailsOnce()
        host.seats[bot_seat].bot = broken  # type: ignore[union-attr]
        sessions = await seat_sessions(options.port, 2)
        codes = await play_bots(sessions)
        await host.finished.wait()
    assert broken.failed
    assert codes == [0, 0]
    assert any("injected bot failure" in r.exc_text for r in caplog.records if r.exc_text)
    if deal == "private":
        assert_private_game_verified(host, sessions)
    else:
        assert_game_verified(host, sessions)


async def test_an_exception_in_a_message_handler_does_not_end_the_host(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    # A bug in the chat handler: the chat is lost (the sender is told), the game goes on.
    def broken_chat(host: WizardHost, session: Any, msg: dict[str, Any]) -> None:
        raise RuntimeError("injected handler failure")

    monkeypatch.setitem(WizardHost._handlers, "chat", broken_chat)
    options = HostOptions(players=3, bots=1, bot_level="random", records_dir=tmp_path)
    async with asyncio.timeout(60), running_host(options) as host:
        sessions = await seat_sessions(options.port, 2)
        game = asyncio.ensure_future(play_bots(sessions))
        await wait_until(lambda: host.table is not None and host.table.game.round >= 2)
        sessions[0].chat("hello")
        codes = await game
        await host.finished.wait()
    assert codes == [0, 0]
    assert any("injected handler failure" in r.exc_text for r in caplog.records if r.exc_text)
    assert_game_verified(host, sessions)


# -- item 5: a restart while the host still holds the old, half-open connection -------------


async def _join_bot(port: int, data_home: Path, name: str) -> asyncio.subprocess.Process:
    env = {**os.environ, "XDG_DATA_HOME": str(data_home)}
    return await asyncio.create_subprocess_exec(
        *CLI,
        "join",
        f"{LOOPBACK}:{port}",
        *("--name", name, "--bot", "random", "--records", str(data_home / "records")),
        env=env,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )


class FreezingRelay:
    """A TCP relay between one joiner and the host. Frozen, it swallows bytes both ways and
    never passes a hang-up on: the host's end stays open and silent, as behind a laptop
    that slept or a machine that died with no FIN ever sent."""

    def __init__(self, target_port: int) -> None:
        self.target_port = target_port
        self.frozen = False
        self._ends: list[asyncio.StreamWriter] = []
        self._tasks: set[asyncio.Task[None]] = set()
        self._server: asyncio.Server | None = None

    async def start(self) -> int:
        self._server = await asyncio.start_server(self._accept, LOOPBACK, 0)
        return int(self._server.sockets[0].getsockname()[1])

    def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.create_task(self._relay(reader, writer))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        host_reader, host_writer = await asyncio.open_connection(LOOPBACK, self.target_port)
        self._ends += [writer, host_writer]
        await asyncio.gather(self._pipe(reader, host_writer), self._pipe(host_reader, writer))

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(ConnectionError):
            while data := await reader.read(65536):
                if not self.frozen:
                    writer.write(data)
        if not self.frozen:
            writer.transport.abort()  # a live network passes the hang-up on

    async def close(self) -> None:
        for end in self._ends:
            end.transport.abort()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        if self._server is not None:
            self._server.close()
            await self._server.wait_closed()


@pytest.mark.parametrize("deal", ["commit-reveal", "private"])
async def test_a_restart_beside_a_half_open_connection_gets_the_seat_back(
    tmp_path: Path, deal: str
) -> None:
    # A joiner's connection goes half-open (the network between freezes: the host's end
    # stays open, nothing arrives, no FIN) and its program dies; a new run with the same
    # data directory (so the same player identity and static key, now that the old run's
    # lock on it is gone) joins: the host's silent old connection is replaced and the new
    # run plays the seat to the end.
    options = HostOptions(
        players=3, bots=1, bot_level="random", records_dir=tmp_path / "host", deal=deal
    )
    home = tmp_path / "joiner"
    frozen = restarted = None
    relay = FreezingRelay(0)
    async with asyncio.timeout(90), running_host(options) as host:
        try:
            relay.target_port = options.port
            (stayer,) = await seat_sessions(options.port, 1)
            frozen = await _join_bot(await relay.start(), home, "sleeper")
            await wait_until(lambda: host.table is not None)
            game = asyncio.ensure_future(play_bots([stayer]))
            await wait_until(lambda: host.table is not None and host.table.game.round >= 2)
            relay.frozen = True
            frozen.kill()
            await frozen.wait()
            seat = next(i for i, s in enumerate(host.seats) if s and s.name == "sleeper")
            held = host.seats[seat].session  # type: ignore[union-attr]
            assert held is not None and held.connected  # the host cannot tell it froze
            restarted = await _join_bot(options.port, home, "sleeper")
            out, err = await restarted.communicate()
            assert await game == [0]
            await host.finished.wait()
        finally:
            for proc in (frozen, restarted):
                if proc is not None and proc.returncode is None:
                    proc.kill()
                    await proc.wait()
            await relay.close()
    assert restarted.returncode == 0, (out + err).decode()
    assert b"game over" in out
    assert host.failed is None and host.table is not None and host.table.finished
    assert host.seats[seat].session is held and held.connected is False  # the game's end
    assert host.table.record_path is not None
    verdict = verify_path(host.table.record_path)
    assert verdict.ok and verdict.record is not None and verdict.record.complete, verdict.line()
    assert stayer.all_verified
    for path in (home / "records").iterdir():  # the joiner's own record, both runs'
        mine = verify_path(path)
        assert mine.ok and mine.record is not None and mine.record.complete, (path, mine.line())


# -- issue 21 item 5: a joiner that never sends what it owes before the game starts -----------


class NeverReady(NetworkSession):
    """Answers pings and takes a seat, but its signing key never leaves."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.links: list[LinkState] = []
        send = self.client.send

        def swallow_sign_key(msg: dict[str, Any]) -> bool:
            return True if msg.get("t") == "sign_key" else send(msg)

        self.client.send = swallow_sign_key  # type: ignore[method-assign]

    def _on_event(self, event: dict[str, Any] | LinkState) -> None:
        if isinstance(event, LinkState):
            self.links.append(event)
        super()._on_event(event)


async def test_a_joiner_that_never_sends_its_signing_key_is_unseated(tmp_path: Path) -> None:
    options = HostOptions(
        players=3,
        bots=1,
        bot_level="random",
        records_dir=tmp_path,
        deal="private",
        deal_step_timeout=0.3,
    )
    async with asyncio.timeout(60), running_host(options) as host:
        (honest,) = await seat_sessions(options.port, 1)
        (stalling,) = await seat_sessions(options.port, 1, cls=NeverReady)
        assert isinstance(stalling, NeverReady)
        assert all(host.seats) and host.table is None  # full, and it cannot start
        await wait_until(lambda: any(s.state == "closed" for s in stalling.links))
        assert host.table is None and host.seats.count(None) == 1  # its seat is free again
        (late,) = await seat_sessions(options.port, 1)
        codes = await play_bots([honest, late])
        await host.finished.wait()
    closed = [s for s in stalling.links if s.state == "closed"]
    assert closed[-1].code == p.LOBBY_TIMEOUT and "signing key" in closed[-1].detail
    assert codes == [0, 0]
    assert_private_game_verified(host, [honest, late])


async def test_host_room_code_is_made_up_printed_and_required(tmp_path: Path) -> None:
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "host")}
    host = await asyncio.create_subprocess_exec(
        *CLI,
        "host",
        "--headless",
        "--room-code",
        *("--bind", LOOPBACK, "--port", "0", "--players", "3", "--bots", "2"),
        *("--bot-level", "random", "--records", str(tmp_path / "records")),
        env=env,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    try:
        async with asyncio.timeout(60):
            assert host.stdout is not None
            lines = [(await host.stdout.readline()).decode() for _ in range(2)]
            code = lines[0].split()[2]
            assert lines[0].startswith("room code: ") and len(code) == 8, lines
            assert set(code) <= set(ROOM_CODE_ALPHABET)
            port = int(lines[1].rsplit(":", 1)[1])
            wrong = NetworkSession(LOOPBACK, port, name="guess", limits=LIMITS, password="x")
            with pytest.raises(PakeError):
                await wrong.connect()
            player = NetworkSession(LOOPBACK, port, name="player", limits=LIMITS, password=code)
            await player.connect()
            assert await play_bots([player]) == [0]
            out, err = await host.communicate()
    finally:
        if host.returncode is None:
            host.kill()
            await host.wait()
    assert host.returncode == 0, (out + err).decode()
    assert f"room code:          {code}" in out.decode()


# -- item 4: drop, return while the stand-in finishes its attempt, drop again ----------------


class Cuttable(CapturingSession):
    """A real client whose link the test cuts (no bye, no FIN handshake: the socket just
    goes) and whose reconnects wait for ``gate``."""

    def __init__(self, host: str, port: int, **kwargs: Any) -> None:
        super().__init__(host, port, **kwargs)
        self.client = GatedClient(
            host, port, protocol=p.PROTOCOL, version=p.VERSION, name=self.name, limits=LIMITS
        )

    def cut(self) -> None:
        self.client.gate.clear()  # type: ignore[attr-defined]
        link = self.client._link
        assert link is not None
        link.writer.transport.abort()


@pytest.mark.parametrize("deal", ["private", "commit-reveal"])
async def test_drop_return_drop_does_not_switch_the_takeover_off(tmp_path: Path, deal: str) -> None:
    # The player drops, a stand-in takes the seat over; the player comes back while the
    # stand-in still finishes its attempt (private deal: its keys are the bot's), and drops
    # again before that attempt ends. The stand-in must keep the seat: the next attempt must
    # not wait for a pass only the absent player could make.
    options = HostOptions(
        players=3,
        bots=1,
        bot_level="random",
        records_dir=tmp_path,
        deal=deal,
        takeover_after=0.2,
        bot_delay=0.05,  # the stand-in's attempt lasts long enough to come back during it
    )
    async with asyncio.timeout(90), running_host(options) as host:
        leaver = Cuttable(LOOPBACK, options.port, name="leaver", limits=LIMITS)
        await leaver.connect()
        (stayer,) = await seat_sessions(options.port, 1)
        b = leaver.seat
        assert b is not None
        game = asyncio.ensure_future(play_bots([leaver, stayer]))
        table = host.table
        await wait_until(lambda: host.table is not None and host.table.game.round >= 2)
        table = host.table
        assert table is not None
        seat = host.seats[b]
        assert seat is not None
        leaver.cut()
        await wait_until(lambda: seat.stand_in is not None)  # taken over
        if isinstance(
            host.deal_half, PrivateDealing
        ):  # the attempt in progress is the stand-in's own
            private = host.deal_half
            await wait_until(
                lambda: (
                    private.deal is not None
                    and private.deal.setup.signing_keys[b] != private.signing_keys[b]
                )
            )
        stood_in = table.game.round
        leaver.client.gate.set()  # type: ignore[attr-defined]
        await wait_until(lambda: seat.session is not None and seat.session.connected)
        await wait_until(lambda: leaver.client.state == "connected")
        leaver.cut()  # gone again before the stand-in's attempt ended
        await wait_until(lambda: seat.session is not None and not seat.session.connected)
        # The game goes on without the player: two more rounds are played for it.
        await wait_until(lambda: table.finished or table.game.round >= stood_in + 2)
        assert seat.stand_in is not None or table.finished
        leaver.client.gate.set()  # type: ignore[attr-defined]
        codes = await game
        await host.finished.wait()
    assert codes == [0, 0]
    assert host.failed is None and table.finished
    verdict = verify_path(table.record_path)  # type: ignore[arg-type]
    assert verdict.ok and verdict.record is not None and verdict.record.complete, verdict.line()
    for session in (leaver, stayer):
        assert session.all_verified, [v.detail for v in session.verifications if not v.ok]
        assert session.finished is not None
        assert list(session.finished.totals) == table.game.totals
        assert session.recorder is not None
    # Each player's own record verifies and holds what the host's does, redeals included.
    assert_own_records(table.recorder.record(), [leaver, stayer])


def test_the_host_tables_lobby_shows_the_room_code() -> None:
    from wizard_tui.launch import _table_options

    args = argparse.Namespace(name="ann", ascii=False, bell=False, room_code_made="ABCD2345")
    join = _table_options(args)["join_command"]
    assert join("10.0.0.2", 16060) == "wizard-tui join 10.0.0.2 --password ABCD2345"  # type: ignore[operator]
    plain = _table_options(argparse.Namespace(name="ann", ascii=False, bell=False))
    assert plain["join_command"]("10.0.0.2", 16061) == "wizard-tui join 10.0.0.2:16061"  # type: ignore[operator]
