"""The limits hold at their documented defaults, and a client over one is told which (in an
encrypted error once its handshake is done; before that it is just closed), while everyone
else carries on.

* The documented defaults (docs/netplay.md, docs/protocol.md) are the code's.
* ``max_connections`` (16) on a netplay server with every default: a Wizard table (at most 6
  seats, and 8 strangers still shaking hands) can never reach it.
* The rest against a live Wizard host with ``protocol.LIMITS`` exactly as shipped, while a
  game is on: ``max_handshaking`` (8) and the handshake deadline (5 s, silent, trickling and
  hello-less strangers), the frame limits (512 before the welcome, 65 536 after), the message
  rate (a burst of 1000, 500 a second) and the idle timeout (15 s: one player's program goes
  silent; the table waits for it, the others are not dropped, and it comes back).
"""

from __future__ import annotations

import asyncio
import re
import time
from pathlib import Path

import msgpack
import pytest
from abuse_helpers import Arena, Watch, game_problems, read_all
from net_helpers import LOOPBACK
from netplay_helpers import RecordingApp, SecurePeer

from netplay import Limits, LinkState, Server, StaticIdentity
from netplay.framing import frame
from netplay.secure import SecureInitiator, make_prologue
from wizard_tui.net import protocol as p

ROOT = Path(__file__).resolve().parents[2]


def _number(text: str) -> float:
    return float(re.sub(r"[\s\u202f\u2009]", "", text))


def test_the_documented_defaults_are_the_codes() -> None:
    table = (ROOT / "docs/netplay.md").read_text().split("## Limits and their defaults")[1]
    rows = re.findall(r"^\| `(\w+)` \| ([^|]+?) \|", table.split("\n## ")[0], re.M)
    documented = {name: value for name, value in rows}
    defaults = Limits()
    assert set(documented) == {f.name for f in Limits.__dataclass_fields__.values()}
    for name, value in documented.items():
        number = _number(re.sub(r"\s*(/ s|s)$", "", value.strip()))
        assert number == getattr(defaults, name), (name, value)

    wizard = (ROOT / "docs/protocol.md").read_text().split("## Limits")[1].split("\n## ")[0]
    limits = p.LIMITS
    found = {
        "rate": r"`rate` \*\*([\d ]+) / s\*\*",
        "burst": r"`burst` \*\*([\d ]+)\*\*",
        "max_frame": r"largest frame \| ([\d ]+) bytes",
        "handshake_frame": r"\(([\d ]+) before the welcome\)",
        "max_str": r"strings and bins ([\d ]+) bytes",
        "max_array": r"arrays ([\d ]+) items",
        "max_map": r"maps ([\d ]+) entries",
        "max_connections": r"connections \| ([\d ]+) past",
        "max_handshaking": r", ([\d ]+) still shaking hands",
        "send_queue": r"frames queued for one client \| ([\d ]+)",
        "handshake_timeout": r"hello within ([\d ]+) s",
        "idle_timeout": r"silence ([\d ]+) s",
        "ping_interval": r"pings every ([\d ]+) s",
    }
    for name, pattern in found.items():
        match = re.search(pattern, wizard)
        assert match, f"docs/protocol.md does not state {name}"
        assert _number(match.group(1)) == getattr(limits, name), name
    chat = re.search(r"\*\*([\d.]+) / s\*\*, \*\*(\d+)\*\* at once \(`CHAT_RATE`", wizard)
    assert chat and (float(chat.group(1)), int(chat.group(2))) == (p.CHAT_RATE, p.CHAT_BURST)
    # The Wizard host ships netplay's defaults but for the message rate.
    assert {
        name: getattr(limits, name)
        for name in Limits.__dataclass_fields__
        if getattr(limits, name) != getattr(defaults, name)
    } == {"rate": 500.0, "burst": 1000}


async def test_max_connections_at_its_default_of_16() -> None:
    app = RecordingApp()
    server = Server(app, protocol="test-game", version=3, host=LOOPBACK, port=0, limits=Limits())
    app.server = server
    await server.start()
    peers: list[SecurePeer] = []
    try:
        async with asyncio.timeout(20):
            for i in range(16):
                peers.append(await SecurePeer.connect(server.port))
                await peers[-1].hello(f"p{i}")
            extra = await SecurePeer.connect(server.port)
            peers.append(extra)
            error = await extra.receive()
            assert (error["t"], error["code"], error["fatal"]) == ("error", "server_full", True)
            assert "16 connections" in error["message"]
            assert await extra.closed_by_peer()
            for i, peer in enumerate(peers[:16]):  # the sixteen carry on
                peer.send({"t": "echo", "n": i})
                assert (await peer.receive_until("echoed"))["n"] == i
            # One leaves; the next one gets in.
            peers[0].send({"t": "bye"})
            assert await peers[0].closed_by_peer()
            late = await SecurePeer.connect(server.port)
            peers.append(late)
            assert (await late.hello("late"))["t"] == "welcome"
    finally:
        for peer in peers:
            peer.writer.transport.abort()
        await server.close()


async def _stranger(
    port: int, source: str = LOOPBACK
) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    # ``source``: another loopback address is another machine to the per-address cap.
    return await asyncio.open_connection(LOOPBACK, port, local_addr=(source, 0))


async def _closed_after(reader: asyncio.StreamReader, started: float) -> float:
    data, _ = await read_all(reader, 12.0)
    assert data == b"", f"the host said {data[:40]!r} in clear"
    return time.monotonic() - started


@pytest.mark.slow
async def test_the_limits_hold_at_their_defaults_during_a_game(tmp_path: Path) -> None:
    limits = p.LIMITS  # exactly as the host ships: 5 s handshake, 15 s idle, ...
    with Watch() as watch:
        arena = Arena(tmp_path, players=5, honest=4, seed=31, limits=limits)
        try:
            async with asyncio.timeout(60):
                await arena.start()
                mole = arena.mole
                assert mole is not None and arena.host is not None
                await arena.progress()

                # -- idle timeout: one player's program goes silent (no pongs either) --------
                sleeper = arena.honest.pop()
                link = sleeper.session.client.link
                assert link is not None
                states = []
                # The client's own event hand-off, wrapped to see its link states.
                emit = sleeper.session.client._emit  # noqa: SLF001
                sleeper.session.client._emit = lambda e: (  # type: ignore[method-assign]  # noqa: SLF001
                    states.append(e) if isinstance(e, LinkState) else None,
                    emit(e),
                )
                link.send = lambda payload: True  # type: ignore[method-assign]
                link.writer.write(link.conn.frame(msgpack.packb({"t": "pong"})))  # its last word
                silent_since = time.monotonic()

                # -- max_handshaking and the handshake deadline ------------------------------
                port = arena.port
                opened = time.monotonic()
                hello_less = await SecurePeer.connect(port, protocol=p.PROTOCOL)  # Noise, no hello
                # From seven other machines: one address holds at most 3 of the 8 slots.
                raw = [await _stranger(port, f"127.0.0.{10 + i}") for i in range(7)]
                message_1 = frame(
                    SecureInitiator(StaticIdentity.generate(), make_prologue(p.PROTOCOL)).start()
                )

                async def trickle(writer: asyncio.StreamWriter) -> None:
                    for byte in message_1[:8]:  # a byte a second: still too slow
                        writer.write(bytes([byte]))
                        await asyncio.sleep(1.0)

                dripping = asyncio.ensure_future(trickle(raw[0][1]))
                waits = [asyncio.ensure_future(_closed_after(r, opened)) for r, _ in raw]
                await asyncio.sleep(0.3)
                assert arena.host.server is not None
                ninth_at = time.monotonic()
                ninth, _ = await _stranger(port, "127.0.0.30")
                data, took = await read_all(ninth, 2.0)  # closed at once, unread
                assert data == b"" and took < 1.0
                assert time.monotonic() - ninth_at < 1.5
                error = await hello_less.receive(timeout=8.0)
                assert (error["code"], error["fatal"]) == ("handshake_timeout", True)
                assert "within 5 s" in error["message"]
                closed = await asyncio.gather(*waits)
                deadline_hit = time.monotonic() - opened
                dripping.cancel()
                for _, writer in raw:
                    writer.transport.abort()
                hello_less.writer.transport.abort()
                assert all(0.9 * 5.0 <= t <= 5.0 + 2.0 for t in closed), closed
                assert 4.5 <= deadline_hit <= 7.5

                # -- frame limits: 512 before the welcome, 65 536 after ----------------------
                reader, writer = await _stranger(port)
                writer.write((513).to_bytes(4, "big"))
                data, took = await read_all(reader, 3.0)  # before Noise: closed, no word
                assert data == b"" and took < 1.0
                writer.transport.abort()
                peer = await SecurePeer.connect(port, protocol=p.PROTOCOL)
                peer.send_bytes((513).to_bytes(4, "big"))
                error = await peer.receive()
                assert error["code"] == "frame_too_large" and "512 bytes" in error["message"]
                peer.writer.transport.abort()

                biggest = msgpack.packb({"t": "chat", "text": "x" * (65518 - 16)})
                assert len(biggest) == 65518  # padded and sealed: 65 535 bytes, the largest
                await mole.send_sealed("the largest frame", biggest, {"bad_encoding"})
                await mole.settled()
                too_large = {"frame_too_large"}
                await mole.send_raw("65 536", (65536).to_bytes(4, "big") + bytes(65536), too_large)
                await mole.settled()
                await mole.send_raw("65 537", (65537).to_bytes(4, "big"), too_large)
                await mole.settled()
                assert mole.problems == []
                assert "over the limit of 65536 bytes" in mole.log[-1][1]

                # -- the message rate: a burst of 1000, then 500 a second --------------------
                await asyncio.sleep(0.5)  # a fresh connection's bucket, full
                link = await mole.drained()
                pong = msgpack.packb({"t": "pong"})
                start = msgpack.packb({"t": "start"})
                wires = [link.conn.frame(pong) for _ in range(999)]
                link.writer.write(b"".join(wires))
                mole.send_payload("the thousandth message", start, {"not_host"}, False)
                await mole.settled()
                for _ in range(10):  # 400 a second: under the rate
                    await asyncio.sleep(0.1)
                    link.writer.write(b"".join(link.conn.frame(pong) for _ in range(40)))
                mole.send_payload("still in", start, {"not_host"}, False)
                await mole.settled()
                assert mole.fatal == 3
                await mole.flood("1100 at once", 1100, {"rate_limited"})
                await mole.settled()
                assert mole.problems == []
                assert "1000 messages at once or 500 a second" in mole.log[-1][1]

                # -- the idle timeout: the silent player is told, and comes back -------------
                async with asyncio.timeout(20):
                    while not any(s.state == "reconnecting" for s in states):
                        await asyncio.sleep(0.01)
                idle_after = time.monotonic() - silent_since
                kicked = next(s for s in states if s.state == "reconnecting")
                assert kicked.code == "idle_timeout" and "15 s" in kicked.detail, kicked
                assert 15.0 * 0.95 <= idle_after <= 15.0 + 3.0, idle_after
                assert (sleeper.name, "idle_timeout") in arena.host.disconnects
                await arena.finish(30)
                await sleeper.task  # type: ignore[misc]
                problems = game_problems(arena, watch)
                # Nobody else was dropped: only the silent player and the mole's offences.
                dropped = {name for name, _ in arena.host.disconnects}
        finally:
            await arena.close()
    assert problems == []
    assert sleeper.finished and sleeper.session.all_verified
    assert dropped == {sleeper.name, "mole"}
