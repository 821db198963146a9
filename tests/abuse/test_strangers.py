"""Strangers on the LAN throw junk at a live host while three honest network bots play (one of
them through a relay that records its bytes): random bytes before, during and after the
Noise handshake, garbage inside a fresh channel, bad hellos, stolen and made-up tokens,
replays of the recorded session and of its encrypted frames, slowloris connections.

Before the channel is up the host says nothing in clear and hangs up; inside a channel it
says one encrypted fatal error and hangs up; a silent or trickling connection is cut at the
handshake deadline. The game finishes, verified, exactly as the honest clients played it,
and the host still takes new connections.
"""

from __future__ import annotations

import asyncio
import dataclasses
import random
from collections.abc import Awaitable, Callable
from pathlib import Path

import msgpack
from abuse_helpers import (
    Arena,
    Watch,
    game_problems,
    hello,
    in_channel,
    junk_mid_handshake,
    replayed_session,
    silent_stranger,
    split_frames,
    stranger_junk,
)
from abuse_inputs import FATAL_SHAPE, junk_frame, random_mutant
from abuse_inputs import stranger_junk as junk_bytes
from net_helpers import LIMITS
from netplay_helpers import SecurePeer

from netplay import StaticIdentity
from netplay.framing import encode_payload, frame
from netplay.secure import SecureInitiator, make_prologue
from wizard_tui.net import protocol as p

DEADLINE = LIMITS.handshake_timeout + 3.0  # every stranger is gone by then
# The largest payload a host takes before its welcome: sealed frames are at most 512 bytes
# then, and a payload is padded to 256 bytes, or to 1 024 from 256 on (netplay.secure).
BEFORE_WELCOME = 255

Stranger = Callable[[], Awaitable[str | None]]


def _sealed(payload: bytes) -> Callable[[SecurePeer], None]:
    return lambda peer: peer.send_sealed(payload)


def _codes_for(payload: bytes) -> frozenset[str]:
    if len(payload) > BEFORE_WELCOME:
        return frozenset({"frame_too_large"})
    try:
        is_hello = msgpack.unpackb(payload).get("t") == "hello"
    except Exception:  # not msgpack, or not a map: a shape error, as FATAL_SHAPE says
        is_hello = False
    if is_hello:  # a mutant whose type was swapped to "hello": checked as one, name first
        return FATAL_SHAPE | {"wrong_protocol", "incompatible_version"}
    return FATAL_SHAPE


def strangers(arena: Arena, rng: random.Random) -> list[Stranger]:
    port = arena.port
    out: list[Stranger] = []
    for junk in [junk_bytes(rng) for _ in range(12)]:
        out.append(lambda j=junk: stranger_junk(port, j, DEADLINE))
    for _ in range(6):
        junk = rng.choice([rng.randbytes(rng.randrange(1, 120)), frame(rng.randbytes(80))])
        out.append(lambda j=junk: junk_mid_handshake(port, j, DEADLINE))
    for _ in range(8):  # raw bytes inside the channel, not sealed
        data, _ = junk_frame(rng)
        out.append(
            lambda d=data: in_channel(
                port,
                lambda peer: peer.send_bytes(d),
                frozenset({"decrypt_failed", "frame_too_large"}),
                DEADLINE,
                f"raw junk {d[:8]!r}",
            )
        )
    for _ in range(8):  # sealed garbage where the hello belongs
        payload = random_mutant(rng).payload()
        out.append(
            lambda pl=payload: in_channel(
                port, _sealed(pl), _codes_for(pl), DEADLINE, f"garbage {pl[:12]!r}"
            )
        )
    bad_hellos = [
        (hello(), {"lobby_closed"}),  # a join once the game began
        (hello(token="made-up-token"), {"unknown_session"}),
        (hello(protocol="chess"), {"wrong_protocol"}),
        (hello(version=2), {"incompatible_version"}),
        (hello(version=True), {"incompatible_version"}),
        (hello(name=""), {"bad_message"}),
        (hello(name="\x1b[31mred"), {"bad_message"}),
        (hello(name="x" * 33), {"bad_message"}),
        (hello(token=7), {"bad_message"}),
        (hello(extra="x" * 100), {"bad_message"}),
        (hello(extra="x" * 600), {"frame_too_large"}),
        ({"t": "bid", "seat": 0, "round": 1, "bid": 0}, {"unexpected_message"}),
        ({"t": "pong"}, {"unexpected_message"}),
    ]
    for msg, codes in bad_hellos:
        payload = msgpack.packb(msg, use_bin_type=True)
        out.append(
            lambda pl=payload, c=codes: in_channel(
                port, _sealed(pl), frozenset(c), DEADLINE, f"hello {pl[:40]!r}"
            )
        )
    # A seated player's token, from another machine (another key): resumes nothing.
    token = arena.honest[1].session.client.token
    out.append(
        lambda: in_channel(
            port,
            lambda peer: peer.send(hello(token=token)),
            frozenset({"unknown_session"}),
            DEADLINE,
            "a stolen token",
        )
    )
    # Two hellos at once: the second is never read (the first is refused, then the end).
    two = encode_payload(hello())
    out.append(
        lambda: in_channel(
            port,
            lambda peer: peer.send_bytes(peer.seal(two) + peer.seal(two)),
            frozenset({"lobby_closed"}),
            DEADLINE,
            "two hellos",
        )
    )
    return out


def slowloris(arena: Arena, rng: random.Random) -> list[Callable[[], Awaitable[float]]]:
    """Connections that send nothing, or a byte every 0.3 s (of a genuine Noise message 1,
    or of junk): each is cut at the handshake deadline, without a word."""
    port = arena.port
    message_1 = frame(SecureInitiator(StaticIdentity.generate(), make_prologue(p.PROTOCOL)).start())
    return [
        lambda: silent_stranger(port, DEADLINE),
        lambda: silent_stranger(port, DEADLINE, trickle=message_1),
        # a frame header that promises 64 bytes, then junk that will take 20 s to come
        lambda: silent_stranger(port, DEADLINE, trickle=frame(rng.randbytes(64))),
    ]


async def hello_trickled(port: int) -> list[dict]:
    """Noise done, then the hello one byte every 0.3 s: the deadline covers it (an
    encrypted ``handshake_timeout``)."""
    peer = await SecurePeer.connect(port, protocol=p.PROTOCOL)
    try:
        wire = peer.seal(encode_payload(hello()))
        messages: list[dict] = []
        async with asyncio.timeout(DEADLINE):
            for byte in wire:
                if peer.reader.at_eof():
                    break
                peer.writer.write(bytes([byte]))
                await asyncio.sleep(0.3)
                while True:
                    try:
                        messages.append(await peer.receive(timeout=0.001))
                    except (TimeoutError, AssertionError):
                        break
        return messages
    finally:
        peer.writer.transport.abort()


async def _hold_before_the_end(arena: Arena, done: asyncio.Event) -> None:
    host = arena.host
    assert host is not None and host.table is not None
    last = 60 // host.table.game.players
    while not done.is_set():
        if host.table.game.round >= last:
            arena.gate.clear()
        await asyncio.sleep(0.005)
    arena.thaw()


async def test_strangers_change_nothing(tmp_path: Path) -> None:
    rng = random.Random(21)
    with Watch() as watch:
        # Every stranger here comes from 127.0.0.1: lift the per-address cap on handshakes
        # (its own test: tests/netplay/test_stall_guards.py), keep the total one.
        limits = dataclasses.replace(LIMITS, max_handshaking_per_address=LIMITS.max_handshaking)
        arena = Arena(
            tmp_path,
            players=4,
            honest=3,
            mole=False,
            seed=21,
            delay=0.002,
            proxy=True,
            limits=limits,
        )
        try:
            async with asyncio.timeout(60):
                await arena.start()
                await arena.progress()
                assert arena.proxy is not None
                # The game goes on while the strangers attack; should it get to its last
                # round first, it waits there for them.
                done = asyncio.Event()
                hold = asyncio.ensure_future(_hold_before_the_end(arena, done))
                # Six at a time: under the host's cap on connections still shaking hands.
                limit = asyncio.Semaphore(6)

                async def bounded(attack: Callable[[], Awaitable[object]]) -> object:
                    async with limit:
                        return await attack()

                slow = asyncio.gather(*(bounded(a) for a in slowloris(arena, rng)))
                trickled = asyncio.ensure_future(bounded(lambda: hello_trickled(arena.port)))
                results = await asyncio.gather(*(bounded(a) for a in strangers(arena, rng)))
                # Replays of the recorded honest player, while it still plays.
                up = bytes(arena.proxy.wire["up"])
                frames = split_frames(up)
                assert len(frames) > 5, "the relay recorded too little"
                results.append(await replayed_session(arena.port, up, DEADLINE))
                for wire in rng.sample(frames[2:], 4):  # transport frames (after 1 and 3)
                    results.append(
                        await in_channel(
                            arena.port,
                            lambda peer, w=wire: peer.send_bytes(w),
                            frozenset({"decrypt_failed"}),
                            DEADLINE,
                            "a recorded frame in another channel",
                        )
                    )
                took = await slow
                errors = await trickled
                playing = not arena.host.table.finished  # type: ignore[union-attr]
                done.set()
                await hold
                await arena.finish(60)
                # Still up and taking connections: a newcomer hears the game already began.
                after = await in_channel(
                    arena.port,
                    lambda peer: peer.send(hello()),
                    frozenset({"lobby_closed"}),
                    DEADLINE,
                    "a join after the game",
                )
                problems = game_problems(arena, watch)
        finally:
            await arena.close()
    assert [r for r in results if r is not None] == []
    assert after is None
    assert problems == []
    assert playing, "the game ended before the strangers did: slow the honest players down"
    limit_s = LIMITS.handshake_timeout
    assert all(0.9 * limit_s <= t <= limit_s + 2.0 for t in took), took  # type: ignore[union-attr]
    assert [(m["t"], m["code"]) for m in errors] == [("error", "handshake_timeout")], errors
