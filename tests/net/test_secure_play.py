"""Wizard over the encrypted transport: host and player identities, pinning the host's key,
the room password, and the command-line programs that load keys from the data directory.

Every socket is on 127.0.0.1. Key files live under ``tmp_path`` (the subprocesses get their
own ``XDG_DATA_HOME``), never in the user's data directory.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import stat
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from net_helpers import LIMITS, LOOPBACK, Tap, assert_game_verified, play_bots

from netplay import (
    HostKeyChanged,
    KnownHosts,
    StaticIdentity,
    host_label,
    load_or_create_identity,
)
from wizard_tui.cli import UserError
from wizard_tui.launch import connect_session
from wizard_tui.net.client import NetworkSession
from wizard_tui.net.host import HostOptions
from wizard_tui.net.host_adapter import WizardHost
from wizard_tui.net.hosting import hosting
from wizard_tui.session import ChatLine, LobbyUpdate

PASSWORD = "quokka-7Q"
FINGERPRINT = r"[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}"


@contextlib.asynccontextmanager
async def secure_host(
    options: HostOptions, identity: StaticIdentity, password: str | None = None
) -> AsyncIterator[WizardHost]:
    async with hosting(
        options, bind=LOOPBACK, port=0, limits=LIMITS, identity=identity, password=password
    ) as host:
        yield host


def player(tmp_path: Path, name: str, port: int, **kwargs) -> NetworkSession:
    """A session with its own static key and known-hosts file, as ``wizard-tui join`` has."""
    folder = tmp_path / name
    return NetworkSession(
        LOOPBACK,
        port,
        name=name,
        limits=LIMITS,
        identity=load_or_create_identity(folder),
        known_hosts=KnownHosts.in_directory(folder),
        **kwargs,
    )


class Recorder:
    """A loopback TCP forwarder that keeps every byte it relays."""

    def __init__(self, target: int) -> None:
        self.target = target
        self.wire = bytearray()
        self._server: asyncio.Server | None = None
        self._tasks: set[asyncio.Task[None]] = set()

    async def start(self) -> int:
        self._server = await asyncio.start_server(self._accept, LOOPBACK, 0)
        return self._server.sockets[0].getsockname()[1]

    def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.ensure_future(self._relay(reader, writer))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _relay(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection(LOOPBACK, self.target)

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            with contextlib.suppress(ConnectionError):
                while data := await src.read(65536):
                    self.wire += data
                    dst.write(data)
            with contextlib.suppress(OSError):
                dst.write_eof()

        try:
            await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))
        finally:
            writer.transport.abort()
            up_writer.transport.abort()

    async def close(self) -> None:
        assert self._server is not None
        self._server.close()
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)


# Long names: a 3-byte name turns up in ~100 KB of ciphertext by chance now and then.
NAMES = ("Annabel Ravenwood", "Bartholomew Quill", "Cydonia Fairweather")


async def test_a_whole_game_over_the_encrypted_transport_verifies(tmp_path: Path) -> None:
    host_identity = StaticIdentity.generate()
    options = HostOptions(players=4, bots=1, bot_level="random", records_dir=tmp_path / "rec")
    async with asyncio.timeout(30), secure_host(options, host_identity, PASSWORD) as host:
        recorder = Recorder(options.port)
        relayed = await recorder.start()
        try:
            sessions = [
                player(tmp_path, NAMES[0], relayed, password=PASSWORD),  # every byte recorded
                player(tmp_path, NAMES[1], options.port, password=PASSWORD),
                player(tmp_path, NAMES[2], options.port, password=PASSWORD),
            ]
            for session in sessions:
                await session.connect()
            assert [s.seat for s in sessions] == [0, 1, 2]
            assert {s.host_fingerprint for s in sessions} == {host_identity.fingerprint}
            assert {s.client.pin_status for s in sessions} == {"new"}
            codes = await play_bots(sessions, "random", seed=11)
            await host.finished.wait()
        finally:
            await recorder.close()
        assert codes == [0, 0, 0]
        assert_game_verified(host, sessions)
        # The host knows each player by the key its handshake proved.
        assert host.server is not None
        assert {(x.name, x.key) for x in host.server.sessions} == {
            (s.name, s.client.identity.public_key) for s in sessions
        }
        table = host.table
        assert table is not None
        # Nothing of the game is readable on the wire: not the names, not the game id, not
        # one seed or commitment, not the password.
        wire = bytes(recorder.wire)
        assert len(wire) > 10_000
        needles = [*(n.encode() for n in NAMES), PASSWORD.encode(), table.game_id]
        for recorded in table.recorder.rounds:
            needles += [*recorded.seeds, *recorded.commitments]
        assert [n for n in needles if n in wire] == []


async def test_a_joining_player_sees_the_host_fingerprint(tmp_path: Path) -> None:
    host_identity = StaticIdentity.generate()
    fp = host_identity.fingerprint
    options = HostOptions(players=3, bots=0, records_dir=tmp_path)
    async with asyncio.timeout(10), secure_host(options, host_identity) as host:
        first = player(tmp_path, "Ann", options.port)
        await first.connect()
        tap = Tap(first)
        note = await tap.wait_for(lambda u: isinstance(u, ChatLine))
        assert note.seat is None  # from this program, not a player
        assert note.text == (
            f"host fingerprint {fp}, pinned for {host_label(LOOPBACK, options.port)}: "
            "check that the host's screen shows the same"
        )
        lobby = await tap.wait_for(lambda u: isinstance(u, LobbyUpdate))
        assert lobby.fingerprint == fp
        await tap.close()

        # Next time the pin is there: the key matches it.
        again = player(tmp_path, "Ann", options.port)
        await again.connect()
        assert again.client.pin_status == "known"
        assert f"host fingerprint {fp}, matches the key pinned" in again.host_key_notice()
        await again.close()

        # The host's own table checks the key it knows and says it is the host's.
        assert host.server is not None
        own = NetworkSession(
            LOOPBACK,
            options.port,
            name="Host",
            limits=LIMITS,
            host_key=host.host_key,
            server_key=host.server.identity.public_key,
        )
        await own.connect()
        own_tap = Tap(own)
        note = await own_tap.wait_for(lambda u: isinstance(u, ChatLine))
        assert note.text == f"host fingerprint {fp}: players who join must see the same"
        await own_tap.close()


async def test_a_changed_host_key_is_refused_loudly(tmp_path: Path) -> None:
    options = HostOptions(players=3, bots=0, records_dir=tmp_path)
    async with asyncio.timeout(10), secure_host(options, StaticIdentity.generate()) as host:
        assert host.server is not None
        session = player(tmp_path, "Ann", options.port)
        label = host_label(LOOPBACK, options.port)
        earlier = StaticIdentity.generate()  # the key this address had when we pinned it
        session.client.known_hosts.pin(label, earlier.public_key)  # type: ignore[union-attr]
        with pytest.raises(UserError) as info:
            await connect_session(session, LOOPBACK, options.port)
        text = str(info.value)
        assert f"THE HOST KEY OF {label.upper()} HAS CHANGED" in text
        assert f"pinned fingerprint:  {earlier.fingerprint}" in text
        assert f"offered fingerprint: {host.server.fingerprint}" in text
        assert "Not joining." in text
        assert not any(seat is not None for seat in host.seats)  # it never took a seat
        # The raw exception, for programs.
        again = player(tmp_path, "Ann", options.port)
        with pytest.raises(HostKeyChanged):
            await again.connect()


@pytest.mark.parametrize(
    ("given", "expected"),
    [("quokka-7q", "wrong room password"), (None, "this game has a room password")],
    ids=["wrong", "missing"],
)
async def test_a_wrong_room_password_is_refused(
    tmp_path: Path, given: str | None, expected: str
) -> None:
    options = HostOptions(players=3, bots=0, records_dir=tmp_path)
    async with asyncio.timeout(10), secure_host(options, StaticIdentity.generate(), PASSWORD):
        session = player(tmp_path, "Ann", options.port, password=given)
        with pytest.raises(UserError) as info:
            await connect_session(session, LOOPBACK, options.port)
        assert expected in str(info.value)
        right = player(tmp_path, "Bob", options.port, password=PASSWORD)
        await connect_session(right, LOOPBACK, options.port)
        assert right.seat == 0  # the refused player never took a seat
        await right.close()


# -- the command-line programs -------------------------------------------------------------

CLI = [sys.executable, "-m", "wizard_tui"]


async def _line(stream: asyncio.StreamReader, pattern: str) -> re.Match[str]:
    seen = []
    while line := (await stream.readline()).decode():
        seen.append(line)
        if match := re.search(pattern, line):
            return match
    raise AssertionError(f"no line matching {pattern!r} in {seen!r}")


async def _run(*args: str, data: Path, stdin: bytes | None = None) -> tuple[int, str, str]:
    proc = await asyncio.create_subprocess_exec(
        *CLI, *args,
        env={**os.environ, "XDG_DATA_HOME": str(data)},
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, err = await proc.communicate(stdin)
    assert proc.returncode is not None
    return proc.returncode, out.decode(), err.decode()


async def test_cli_host_prints_its_fingerprint_and_join_checks_it(tmp_path: Path) -> None:
    host_data, player_data = tmp_path / "host-data", tmp_path / "player-data"
    procs: list[asyncio.subprocess.Process] = []
    try:
        async with asyncio.timeout(40):
            host = await asyncio.create_subprocess_exec(
                *CLI, "host", "--headless", "--bind", LOOPBACK, "--port", "0",
                "--players", "3", "--bots", "1", "--records", str(tmp_path / "rec"),
                "--password-prompt",
                env={**os.environ, "XDG_DATA_HOME": str(host_data)},
                stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
            )  # fmt: skip
            procs.append(host)
            assert host.stdin is not None and host.stdout is not None
            host.stdin.write(f"{PASSWORD}\n".encode())  # --password-prompt, scripted
            await host.stdin.drain()
            port = int((await _line(host.stdout, r"listening on 127\.0\.0\.1:(\d+)"))[1])
            printed = (await _line(host.stdout, rf"host fingerprint:\s+({FINGERPRINT})"))[1]
            await _line(host.stdout, r"room password:\s+required")

            # The printed fingerprint is the key the host keeps in its data directory.
            key_file = host_data / "wizard-tui" / "netplay-static-key.pem"
            assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
            assert stat.S_IMODE(key_file.parent.stat().st_mode) == 0o700
            assert load_or_create_identity(key_file.parent).fingerprint == printed

            # A joining bot is told the same fingerprint, and pins it.
            join = await asyncio.create_subprocess_exec(
                *CLI, "join", f"127.0.0.1:{port}", "--bot", "random", "--name", "p0",
                "--password", PASSWORD,
                env={**os.environ, "XDG_DATA_HOME": str(player_data)},
                stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
            )  # fmt: skip
            procs.append(join)
            assert join.stdout is not None
            told = await _line(join.stdout, rf"host fingerprint ({FINGERPRINT}), pinned for")
            assert told[1] == printed
            pins = KnownHosts.in_directory(player_data / "wizard-tui")
            assert pins.labels() == [f"127.0.0.1:{port}"]

            # A wrong password, from a script on stdin, is refused.
            code, _, err = await _run(
                "join", f"127.0.0.1:{port}", "--bot", "random", "--password-prompt",
                data=player_data, stdin=b"not-the-password\n",
            )  # fmt: skip
            assert code == 2 and "wrong room password" in err, err

            # A player who pinned another key for this address refuses, loudly.
            elsewhere = tmp_path / "elsewhere"
            KnownHosts.in_directory(elsewhere / "wizard-tui").pin(
                f"127.0.0.1:{port}", StaticIdentity.generate().public_key
            )
            code, _, err = await _run(
                "join", f"127.0.0.1:{port}", "--bot", "random", "--password", PASSWORD,
                data=elsewhere,
            )  # fmt: skip
            assert code == 2, err
            assert "HAS CHANGED" in err and f"offered fingerprint: {printed}" in err
    finally:
        for proc in procs:
            if proc.returncode is None:
                proc.kill()
            await proc.wait()
