"""Seat takeover: a player who drops is counted down, then a bot plays the seat until the
player comes back and takes it back, between one action and the next.

* mid-trick: the countdown is shown to the others, a bot plays, the client comes back while
  the bot is deciding for its seat (that decision is thrown away), and the game finishes
  with every round verified by every client;
* before revealing its seed: the deal cannot finish, so after the grace period the host
  deals the round again, drawing that seat's seed itself; the redeal is announced and
  recorded, and the returning client checks that round as one dealt while it was away;
* a headless host whose player never comes back still finishes the game and exits 0.

Every socket is on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
from pathlib import Path
from typing import Any

from net_helpers import (
    LIMITS,
    LOOPBACK,
    CapturingSession,
    assert_own_records,
    play_bots,
    running_host,
    wait_until,
)

from netplay import Client
from wizard_tui.game import Phase, SeatView
from wizard_tui.net import protocol as p
from wizard_tui.net.host import HostOptions
from wizard_tui.net.host_adapter import WizardHost
from wizard_tui.net.journal import read_journal
from wizard_tui.verify import verify_path

CLI = [sys.executable, "-m", "wizard_tui"]


class GatedClient(Client):
    """Once its link dropped, reconnects only when ``gate`` is set."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.gate = asyncio.Event()

    async def _open(self) -> Any:
        if self.state == "reconnecting":
            await self.gate.wait()
        return await super()._open()


class Dropper(CapturingSession):
    """Cuts its own connection (the socket just goes) the first time ``drop_on`` says so."""

    def __init__(self, host: str, port: int, **kwargs: Any) -> None:
        super().__init__(host, port, **kwargs)
        self.client = GatedClient(
            host, port, protocol=p.PROTOCOL, version=p.VERSION, name=self.name, limits=LIMITS
        )
        self.dropped = asyncio.Event()
        self.dropped_round = 0

    def drop_on(self, msg: dict[str, Any]) -> bool:
        raise NotImplementedError

    def _handle(self, msg: dict[str, Any]) -> None:
        if not self.dropped.is_set() and self.drop_on(msg):
            self.received.append(msg)
            self.dropped_round = msg["round"] if "round" in msg else msg["view"]["round"]
            link = self.client._link
            assert link is not None
            link.writer.transport.abort()
            self.dropped.set()
            return  # never handled: as if it had not arrived
        super()._handle(msg)


class DropOnTurnMidTrick(Dropper):
    def drop_on(self, msg: dict[str, Any]) -> bool:
        if msg["t"] != "state":
            return False
        view: SeatView = p.view_from_wire(msg["view"], ())
        return view.round >= 2 and view.my_turn and view.phase is Phase.PLAY and bool(view.trick)


class DropBeforeRevealing(Dropper):
    """Drops when the commitments of round 2 are published, before it sends its seed."""

    def drop_on(self, msg: dict[str, Any]) -> bool:
        return msg["t"] == "commitments" and msg["round"] == 2


async def seat(cls: type[CapturingSession], port: int, name: str) -> CapturingSession:
    session = cls(LOOPBACK, port, name=name, limits=LIMITS)
    await session.connect()
    return session


def actions_by(journal: Path, seat: int) -> list[str]:
    """Who decided each of ``seat``'s actions, in order: human, bot or stand_in."""
    entries = read_journal(journal).entries
    return [e["by"] for e in entries if e["t"] == "action" and e["seat"] == seat]


def seat_wires(session: CapturingSession, seat: int) -> list[dict[str, Any]]:
    return [
        m["seats"][seat] for m in session.received if m["t"] in ("seats", "state") and m["seats"]
    ]


def assert_finished_and_verified(host: WizardHost, sessions: list[CapturingSession]) -> None:
    table = host.table
    assert table is not None and table.finished and host.failed is None
    for session in sessions:
        assert session.all_verified, [v.detail for v in session.verifications if not v.ok]
        assert session.recorder is not None
        assert session.recorder.record().rounds == table.recorder.record().rounds
    assert_own_records(table.recorder.record(), sessions)
    assert table.record_path is not None
    verdict = verify_path(table.record_path)
    assert verdict.ok, verdict.line()


async def test_bot_plays_a_dropped_seat_and_hands_it_back(tmp_path: Path) -> None:
    # Three network players and no bots of the host's: only a stand-in waits bot_delay, so a
    # stand-in's decision is in flight for a whole second, long enough to come back during it.
    options = HostOptions(
        players=3,
        bot_level="random",
        records_dir=tmp_path,
        journal_dir=tmp_path / "games",
        takeover_after=0.3,
        bot_delay=1.0,
    )
    async with asyncio.timeout(60), running_host(options) as host:
        watcher = await seat(CapturingSession, options.port, "watcher")
        dropper = await seat(DropOnTurnMidTrick, options.port, "dropper")
        other = await seat(CapturingSession, options.port, "other")
        b = dropper.seat
        assert b is not None
        game = asyncio.ensure_future(play_bots([watcher, dropper, other]))
        await dropper.dropped.wait()
        assert host.table is not None and host.journal is not None
        journal = host.journal.path
        await wait_until(lambda: host.seats[b].stand_in is not None)  # type: ignore[union-attr]
        # The stand-in played for the seat at least once, and is deciding its next move.
        await wait_until(lambda: "stand_in" in actions_by(journal, b))
        await wait_until(lambda: host.bot_deciding == b)
        stood_in = actions_by(journal, b).count("stand_in")
        dropper.client.gate.set()  # type: ignore[attr-defined]
        await wait_until(lambda: host.seats[b].stand_in is None)  # type: ignore[union-attr]
        assert host.bot_deciding != b  # that decision was dropped
        codes = await game
        await host.finished.wait()

    assert codes == [0, 0, 0]
    assert_finished_and_verified(host, [watcher, dropper, other])
    by = actions_by(journal, b)
    assert by.count("stand_in") == stood_in >= 1  # nothing the bot decided after the return
    first = by.index("stand_in")
    assert set(by[first : first + stood_in]) == {"stand_in"}
    assert set(by[:first] + by[first + stood_in :]) == {"human"}
    # The others saw the seat go away with a countdown, then a bot in it, then its player.
    wires = seat_wires(watcher, b)
    countdowns = [w["takeover_in"] for w in wires if w.get("takeover_in")]
    assert countdowns and all(0 < t <= 0.3 for t in countdowns)
    playing = [i for i, w in enumerate(wires) if w.get("takeover_in") == 0]
    assert playing and all(not wires[i]["connected"] for i in playing)
    assert wires[-1] == {"name": "dropper", "kind": "human", "connected": True}


async def test_a_restarted_program_takes_its_seat_back_by_its_key(tmp_path: Path) -> None:
    # The dropper's program "dies" mid-trick (its socket goes, it never reconnects) and a
    # new program with the same static key (the identity kept on disk) but no token joins:
    # it gets the same seat back from the bot, catches up from the snapshot and finishes.
    options = HostOptions(
        players=3, bot_level="random", records_dir=tmp_path, takeover_after=0.3, bot_delay=0.05
    )
    async with asyncio.timeout(60), running_host(options) as host:
        watcher = await seat(CapturingSession, options.port, "watcher")
        dropper = await seat(DropOnTurnMidTrick, options.port, "dropper")
        dropper.records_dir = tmp_path / "mine"  # the record file the new run carries on
        other = await seat(CapturingSession, options.port, "other")
        b = dropper.seat
        assert b is not None
        staying = asyncio.ensure_future(play_bots([watcher, other]))
        dead = asyncio.ensure_future(play_bots([dropper]))  # gated: never comes back
        await dropper.dropped.wait()
        await wait_until(lambda: host.seats[b].stand_in is not None)  # type: ignore[union-attr]
        returner = CapturingSession(
            LOOPBACK,
            options.port,
            name="new name",
            limits=LIMITS,
            identity=dropper.client.identity,
            records_dir=tmp_path / "mine",
        )
        await returner.connect()
        assert returner.seat == b
        assert host.seats[b].name == "dropper"  # type: ignore[union-attr]
        await wait_until(lambda: host.seats[b].stand_in is None)  # type: ignore[union-attr]
        codes = await play_bots([returner]) + await staying
        await host.finished.wait()
        dead.cancel()
        await dropper.close()

    assert codes == [0, 0, 0]
    assert host.table is not None and host.table.finished and host.failed is None
    assert returner.view is not None and returner.view.phase is Phase.GAME_OVER
    assert returner.recorder is not None and returner.recorder.record().rounds
    assert all(v.ok for v in returner.verifications)
    # Every round up to the one it dropped in was dealt by its earlier run. Those that run
    # finished it checked and recorded: they stay checked; the one it dropped in has no
    # seed this program kept (consistent, not checked: docs/protocol.md). The new run
    # carried on the same record file, whole at the end.
    earlier = [v.round for v in returner.verifications if "an earlier run of" in v.detail]
    assert earlier == list(range(1, dropper.dropped_round + 1)), earlier
    unchecked = [v.round for v in returner.verifications if not v.checked]
    assert unchecked == [dropper.dropped_round], unchecked
    assert returner.record_path == dropper.record_path and returner.record_path is not None
    assert_own_records(host.table.recorder.record(), [returner, watcher, other])
    verdict = verify_path(host.table.record_path)  # type: ignore[arg-type]
    assert verdict.ok, verdict.line()


async def test_seat_taken_over_before_revealing_is_redealt(tmp_path: Path) -> None:
    options = HostOptions(
        players=3,
        bots=1,
        bot_level="random",
        records_dir=tmp_path,
        journal_dir=tmp_path / "games",
        takeover_after=0.2,
    )
    async with asyncio.timeout(60), running_host(options) as host:
        dropper = await seat(DropBeforeRevealing, options.port, "dropper")
        other = await seat(CapturingSession, options.port, "other")
        b = dropper.seat
        assert b is not None
        game = asyncio.ensure_future(play_bots([dropper, other]))
        await dropper.dropped.wait()
        table = host.table
        assert table is not None and host.journal is not None
        journal = host.journal.path
        # Without the seed the round cannot be dealt; after the grace period it is redealt.
        await wait_until(lambda: table.game.round == 2)
        dropper.client.gate.set()  # type: ignore[attr-defined]
        codes = await game
        await host.finished.wait()

    assert codes == [0, 0]
    assert_finished_and_verified(host, [dropper, other])
    record = table.recorder.record()
    (redeal,) = record.redeals
    assert redeal.round == 2 and redeal.attempt == 1 and "seat" in redeal.reason
    assert redeal.seeds[b] is None and redeal.seeds[1 - b] is not None
    assert other.recorder is not None and other.recorder.record().redeals == record.redeals
    assert any(m["t"] == "redeal" for m in other.received)
    # The redealt round's deal is not the discarded one, and the returning client checked it
    # as a round dealt while it was away.
    assert record.rounds[1].commitments != redeal.commitments
    (checked,) = [v for v in dropper.verifications if v.round == 2]
    assert checked.ok and "away" in checked.detail and "not checked" in checked.detail
    assert not checked.checked  # its commitments came after the deal: they prove nothing
    rounds = [e["round"] for e in read_journal(journal).entries if e["t"] == "round"]
    assert rounds.count(2) == 2


async def test_headless_host_finishes_for_a_player_who_never_returns(tmp_path: Path) -> None:
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "host")}
    join_env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "joiner")}
    records = tmp_path / "records"
    host = await asyncio.create_subprocess_exec(
        *CLI,
        "host",
        "--headless",
        *("--deal", "commit-reveal"),  # (the private takeover: test_private_reconnect.py)
        "--bind",
        LOOPBACK,
        "--port",
        "0",
        "--players",
        "3",
        "--bots",
        "1",
        "--bot-level",
        "random",
        "--takeover-after",
        "0.5",
        "--give-up-after",
        "5",
        "--records",
        str(records),
        env=env,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    leaver = None
    try:
        async with asyncio.timeout(60):
            assert host.stdout is not None
            line = (await host.stdout.readline()).decode()
            assert "listening on" in line, line
            port = int(line.rsplit(":", 1)[1])
            stayer = await seat(CapturingSession, port, "stayer")
            leaver = await asyncio.create_subprocess_exec(
                *CLI,
                "join",
                f"{LOOPBACK}:{port}",
                "--name",
                "leaver",
                "--bot",
                "random",
                env=join_env,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
            )
            game = asyncio.ensure_future(play_bots([stayer]))
            await wait_until(lambda: stayer.view is not None and stayer.view.round >= 2)
            leaver.send_signal(signal.SIGKILL)  # gone for good, mid-game
            await leaver.wait()
            out, err = await host.communicate()
            assert await game == [0]
    finally:
        for proc in (host, leaver):
            if proc is not None and proc.returncode is None:
                proc.kill()
                await proc.wait()
    assert host.returncode == 0, (out + err).decode()
    assert b"game over" in out
    (path,) = records.iterdir()
    verdict = verify_path(path)
    assert verdict.ok, verdict.line()
    assert any(m["t"] == "chat" and "bot plays for leaver" in m["text"] for m in stayer.received)
