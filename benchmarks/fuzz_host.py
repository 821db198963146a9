"""The long abuse run: 100 000 hostile inputs against Wizard hosts with games in progress.

Honest network bots play; every input that broke anything is counted.

    nice .venv/bin/python benchmarks/fuzz_host.py [--inputs 100000] [--seed 1]
        [--hosts 2] [--games-per-host 20] [--max-seconds 3600]

Everything is on 127.0.0.1 and in this one process (the hosts too, so their logs and event
loop are watched directly). Each host runs games among three or two honest network bots and
the mole, a seated player running hostile software (``tests/abuse/abuse_helpers.py``); when a
game ends it is checked and the host's own table asks for a rematch, and after
``--games-per-host`` games a fresh host takes over. While a game is on, inputs are drawn at
random from every kind the CI suite (``tests/abuse``) samples:

* from the mole, answered by a refusal: messages of the right shape at the wrong time (out of
  phase, for another seat, for stale rounds, host-only), and, from its session's own hooks,
  a seed before the commitments, a second commit, a second seed;
* from the mole, answered by a fatal error (it then resumes its seat): every inbound message
  with a field of the wrong type or range, a key missing or unknown, its type swapped; raw
  and truncated frames, oversized frames, replays of its own encrypted frames, deep and huge
  msgpack, a flood over the rate limit; now and then it stops reading until it is cut off;
* from strangers: random bytes before and during the Noise handshake, garbage inside a fresh
  channel, bad hellos, stolen and made-up tokens, a recorded honest session replayed, its
  encrypted frames replayed in another channel, slowloris.

An input **broke something** if its answer was not the one it must get (including none: an
input the host took), or the host logged a warning or an error, or the event loop saw an
exception. A **game failed** if it did not finish within ``--game-timeout`` (hung), did not
verify (every client checks every round; the record must pass ``wizard-tui verify``), an
honest client was refused or lost its link, or the host applied an action no honest client
(or the mole's rule-abiding bot) sent. The goal is zero of both. Exit status 0 then.

Bounded: it stops after ``--inputs`` inputs or ``--max-seconds`` seconds, whichever first.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import shlex
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
for _path in (ROOT / "tests/netplay", ROOT / "tests/net", ROOT / "tests/abuse", ROOT):
    sys.path.insert(0, str(_path))

import msgpack  # noqa: E402
from abuse_helpers import (  # noqa: E402
    Arena,
    Mole,
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
from abuse_inputs import (  # noqa: E402
    FATAL_SHAPE,
    huge_payloads,
    junk_frame,
    random_mutant,
    random_value,
)
from abuse_inputs import stranger_junk as junk_bytes  # noqa: E402
from net_helpers import LIMITS  # noqa: E402

from netplay.commit_reveal import seed_msg  # noqa: E402
from netplay.framing import encode, encode_payload, frame  # noqa: E402
from wizard_tui.game import Phase  # noqa: E402
from wizard_tui.net import protocol as p  # noqa: E402

DEADLINE = LIMITS.handshake_timeout + 3.0
HUGE = huge_payloads()

# Kinds of input and their weights in the draw.
# A "refusal" draw sends 1 to 11 such messages at once, so it weighs less.
MOLE_KINDS = {"refusal": 6, "mutant": 20, "frame": 8, "flood": 0.3, "never_reader": 0.05}
STRANGER_KINDS = {
    "junk": 8,
    "mid_handshake": 4,
    "raw_in_channel": 4,
    "sealed_in_channel": 4,
    "bad_hello": 4,
    "stolen_token": 1,
    "replayed_session": 1,
    "replayed_frame": 1,
    "slowloris": 0.3,
}


@dataclass
class Tally:
    target: int
    stop_at: float
    tried: Counter[str] = field(default_factory=Counter)
    broken: list[str] = field(default_factory=list)
    games_ok: int = 0
    games_failed: list[str] = field(default_factory=list)
    lost: int = 0
    hosts: int = 0

    @property
    def count(self) -> int:
        return sum(self.tried.values())

    def done(self) -> bool:
        return self.count >= self.target or time.monotonic() >= self.stop_at

    def broke(self, what: str) -> None:
        self.broken.append(what)


def _weighted(rng: random.Random, kinds: dict[str, float]) -> str:
    return rng.choices(list(kinds), weights=list(kinds.values()))[0]


# -- the mole's inputs -------------------------------------------------------------------------


def _deal_done(arena: Arena) -> bool:
    table = arena.host.table if arena.host else None
    return (
        table is not None
        and not table.finished
        and table.deal is not None
        and table.deal.seeds is not None
        and table.game.phase in (Phase.CHOOSE_TRUMP, Phase.BID, Phase.PLAY)
    )


def _base(arena: Arena) -> dict[str, dict[str, Any]]:
    assert arena.host is not None and arena.host.table is not None and arena.mole is not None
    game = arena.host.table.game
    me, r = arena.mole.seat, game.round
    assert me is not None
    hand = game.dealt_hand(me) or (0,)
    return {
        "bid": p.bid_msg(me, r, 0),
        "play": p.play_msg(me, r, hand[0]),
        "trump": p.trump_msg(me, r, 0),
        "commit": {"t": "commit", "round": r, "commitment": bytes(32)},
        "seed": seed_msg(r, bytes(32)),
        "chat": {"t": "chat", "text": "hi"},
        "claim_host": {"t": "claim_host", "key": "guess"},
    }


async def mole_input(arena: Arena, kind: str, rng: random.Random, tally: Tally) -> None:
    mole = arena.mole
    assert mole is not None
    if kind == "refusal":
        if not _deal_done(arena):
            kind = "mutant"
        else:
            sent = 0
            for what, msg, codes in arena.crafted(frozen=False)[: rng.randrange(1, 12)]:
                sent += mole.send_msg(what, msg, codes)
            tally.tried["mole: refusal"] += sent
            await asyncio.sleep(0)
            return
    await mole.settled(timeout=30)  # nothing queued behind a fatal input is lost
    if kind == "mutant":
        mutant = random_mutant(rng, _base(arena) if _deal_done(arena) else None)
        mole.send_payload(mutant.what, mutant.payload(), FATAL_SHAPE, True)
    elif kind == "frame":
        await _frame_input(mole, rng)
    elif kind == "flood":
        count = rng.randrange(p.LIMITS.burst + 1, 3 * p.LIMITS.burst)
        await mole.flood(f"{count} messages at once", count, {"rate_limited"})
    elif kind == "never_reader":
        sent, reason = await arena.never_reader(timeout=30)
        if reason != "send_queue_full":
            tally.broke(f"a peer that stopped reading was dropped for {reason!r}")
        tally.tried["mole: never_reader"] += 1
        return
    tally.tried[f"mole: {kind}"] += 1
    await mole.settled(timeout=30)


async def _frame_input(mole: Mole, rng: random.Random) -> None:
    roll = rng.randrange(8)
    if roll == 0:
        data, code = junk_frame(rng)
        await mole.send_raw(f"junk {data[:8]!r}", data, {code})
    elif roll == 1:
        await mole.truncated()
    elif roll == 2:
        await mole.replay()
    elif roll == 3:
        await mole.replay_old()
    elif roll == 4:
        what, payload, codes = rng.choice(HUGE)
        await mole.send_sealed(what, payload, codes)
    elif roll == 5:
        length = rng.choice([65536, 65537, rng.randrange(65537, 2**32)])
        data = length.to_bytes(4, "big") + (bytes(length) if length == 65536 else b"")
        await mole.send_raw(f"a frame of {length} bytes", data, {"frame_too_large"})
    elif roll == 6:
        msg = {"t": "bid", "seat": 0, "round": 1, "bid": 0}
        await mole.send_raw("a plaintext message", encode(msg), {"decrypt_failed"})
    else:  # a sealed payload of random msgpack
        payload = msgpack.packb(random_value(rng), use_bin_type=True)
        await mole.send_sealed("random msgpack", payload, FATAL_SHAPE)


# -- strangers' inputs -------------------------------------------------------------------------


def stranger_input(arena: Arena, kind: str, rng: random.Random) -> Callable[[], Awaitable[Any]]:
    port = arena.port

    def sealed(payload: bytes) -> Callable[[Any], None]:
        return lambda peer: peer.send_sealed(payload)

    if kind == "junk":
        junk = junk_bytes(rng)
        return lambda: stranger_junk(port, junk, DEADLINE)
    if kind == "mid_handshake":
        junk = rng.choice([rng.randbytes(rng.randrange(1, 200)), frame(rng.randbytes(80))])
        return lambda: junk_mid_handshake(port, junk, DEADLINE)
    if kind == "raw_in_channel":
        data, _ = junk_frame(rng)
        codes = frozenset({"decrypt_failed", "frame_too_large"})
        return lambda: in_channel(port, lambda peer: peer.send_bytes(data), codes, DEADLINE, "raw")
    if kind == "sealed_in_channel":
        payload = rng.choice(
            [random_mutant(rng).payload(), msgpack.packb(random_value(rng)), rng.randbytes(40)]
        )
        # A "hello" among them is checked as one: the protocol first, then the version.
        codes = FATAL_SHAPE | {"wrong_protocol", "incompatible_version"}
        if len(payload) > 496:
            codes = frozenset({"frame_too_large"})
        return lambda: in_channel(port, sealed(payload), codes, DEADLINE, f"{payload[:20]!r}")
    if kind == "bad_hello":
        msg = hello()
        field_name = rng.choice(["protocol", "version", "name", "token", "extra"])
        msg[field_name] = random_value(rng)
        payload = msgpack.packb(msg, use_bin_type=True)
        codes = {"bad_message", "wrong_protocol", "incompatible_version", "bad_encoding"}
        if _well_formed_hello(msg):  # the draw made a join or a resume after all
            codes = {"lobby_closed", "unknown_session"}
        if len(payload) > 496:
            codes = {"frame_too_large"}
        return lambda: in_channel(
            port, sealed(payload), frozenset(codes), DEADLINE, f"hello {msg!r:.60}"
        )
    if kind == "stolen_token":
        token = rng.choice(arena.honest).session.client.token
        payload = encode_payload(hello(token=token))
        codes = frozenset({"unknown_session"})
        return lambda: in_channel(port, sealed(payload), codes, DEADLINE, "a stolen token")
    assert arena.proxy is not None
    up = bytes(arena.proxy.wire["up"])
    if kind == "replayed_session":
        return lambda: replayed_session(port, up[: rng.randrange(200, 4000)], DEADLINE)
    if kind == "replayed_frame":
        frames = split_frames(up)[2:] or [frame(rng.randbytes(40))]
        wire = rng.choice(frames)
        codes = frozenset({"decrypt_failed", "frame_too_large"})
        return lambda: in_channel(
            port, lambda peer: peer.send_bytes(wire), codes, DEADLINE, "a replayed frame"
        )
    trickle = rng.choice([b"", frame(rng.randbytes(64))])

    async def loris() -> str | None:
        took = await silent_stranger(port, DEADLINE, trickle=trickle)
        limit = LIMITS.handshake_timeout
        return None if 0.9 * limit <= took <= limit + 2 else f"a slowloris lasted {took:.2f} s"

    return loris


def _well_formed_hello(msg: dict[str, Any]) -> bool:
    name, token = msg["name"], msg["token"]
    return (
        "extra" not in msg
        and msg["protocol"] == p.PROTOCOL
        and type(msg["protocol"]) is str
        and type(msg["version"]) is int
        and msg["version"] == p.VERSION
        and type(name) is str
        and 1 <= len(name) <= 32
        and name.isprintable()
        and (
            token is None or (type(token) is str and 1 <= len(token) <= 128 and token.isprintable())
        )
    )


async def run_stranger(attack: Callable[[], Awaitable[Any]], kind: str, tally: Tally) -> None:
    try:
        problem = await attack()
    except Exception as exc:  # an attack that could not even be made is a finding too
        problem = f"{type(exc).__name__}: {exc}"
    tally.tried[f"stranger: {kind}"] += 1
    if problem is not None:
        tally.broke(f"stranger {kind}: {problem}")


# -- games and hosts ----------------------------------------------------------------------------


async def play_one_game(
    arena: Arena, watch: Watch, rng: random.Random, tally: Tally, timeout: float
) -> bool:
    """Attack until the game in progress ends; check it. False if it failed (the host is
    then replaced)."""
    host, mole = arena.host, arena.mole
    assert host is not None and mole is not None and host.table is not None
    table = host.table
    strangers: set[asyncio.Task[None]] = set()
    limit = asyncio.Semaphore(5)  # under the host's cap of 8 connections shaking hands
    started = time.monotonic()
    failure = None

    async def bounded(attack: Callable[[], Awaitable[Any]], kind: str) -> None:
        async with limit:
            await run_stranger(attack, kind, tally)

    try:
        while not table.finished and not tally.done():
            if time.monotonic() - started > timeout:
                raise TimeoutError
            if rng.random() < 0.75:
                await mole_input(arena, _weighted(rng, MOLE_KINDS), rng, tally)
            elif len(strangers) < 5:
                kind = _weighted(rng, STRANGER_KINDS)
                task = asyncio.ensure_future(bounded(stranger_input(arena, kind, rng), kind))
                strangers.add(task)
                task.add_done_callback(strangers.discard)
            else:
                await asyncio.sleep(0.001)
        await mole.settled(timeout=30)
        if strangers:
            await asyncio.gather(*strangers)
        # The game plays out (inputs may have stopped at the count).
        async with asyncio.timeout(max(1.0, timeout - (time.monotonic() - started))):
            while not table.finished or not all(
                pl.session.finished is not None and pl.session.game_id == table.game_id
                for pl in arena.everyone
            ):
                await asyncio.sleep(0.005)
    except TimeoutError:
        failure = f"hung game: not over after {timeout:g} s ({_where(arena)})"
    tally.lost += mole.lost
    mole.lost = 0
    # Inputs answered wrongly, and what the host logged.
    for problem in mole.problems:
        tally.broke(f"mole: {problem}")
    for problem in watch.problems:
        tally.broke(f"host log: {problem}")
    mole.problems.clear()
    watch.problems.clear()
    if failure is None:
        problems = game_problems(arena)
        failure = "; ".join(problems) if problems else None
    if failure is None:
        tally.games_ok += 1
    else:
        tally.games_failed.append(failure[:500])
    # The next game starts clean.
    for player in arena.everyone:
        player.sent.clear()
    host.disconnects.clear()
    if arena.proxy is not None:
        arena.proxy.wire["down"].clear()
    return failure is None


def _where(arena: Arena) -> str:
    """Where a game stands, for a report."""
    host, mole = arena.host, arena.mole
    assert host is not None and mole is not None
    table = host.table
    if table is None:
        return "no game"
    game = table.game
    deal = table.deal
    exchange = "no deal"
    if deal is not None:
        missing = deal.exchange.missing_commitments(), deal.exchange.missing_seeds()
        exchange = (
            f"deal {deal.exchange.phase.value}, waiting for commitments {sorted(missing[0])} "
            f"seeds {sorted(missing[1])}"
        )
    seats = [
        (i, s.name, s.session.connected if s.session else "bot")
        for i, s in enumerate(host.seats)
        if s
    ]
    return (
        f"round {game.round} {game.phase.value}, turn {game.turn}, {exchange}; seats {seats}; "
        f"mole at {mole.seat} waits for {[e.what for e in mole.expect]}, its link "
        f"{mole.session.client.state}; finished {[len(pl.finished) for pl in arena.everyone]}"
        f"; the mole's last inputs and answers: {list(mole.trace)}"
    )


async def run_host(
    index: int, args: argparse.Namespace, tally: Tally, records: Path, watch: Watch
) -> None:
    rng = random.Random(args.seed * 1000 + index)
    serial = 0
    while not tally.done():
        serial += 1
        tally.hosts += 1
        honest = rng.choice([2, 3])
        arena = Arena(
            records / f"h{index}-{serial}",
            players=honest + 1,
            honest=honest,
            seed=rng.getrandbits(32),
            games=10**9,
            proxy=True,
            admin=True,
        )
        try:
            await arena.start()
            for game_no in range(1, args.games_per_host + 1):
                ok = await play_one_game(arena, watch, rng, tally, args.game_timeout)
                if not ok or tally.done() or game_no == args.games_per_host:
                    break
                arena.honest[0].session.rematch()  # the host's own table asks for another
                async with asyncio.timeout(10):
                    while arena.host.table.finished:  # type: ignore[union-attr]
                        await asyncio.sleep(0.002)
        except Exception as exc:  # the harness itself failed: report it, go on
            tally.games_failed.append(f"host {index}: {type(exc).__name__}: {exc}"[:500])
            await asyncio.sleep(1.0)
        finally:
            with contextlib.suppress(Exception):
                await arena.close()
            for problem in watch.problems:
                tally.broke(f"host log: {problem}")
            watch.problems.clear()


async def report(tally: Tally, started: float, every: float) -> None:
    while True:
        await asyncio.sleep(every)
        took = time.monotonic() - started
        print(
            f"[{took:6.0f} s] inputs {tally.count:>7} / {tally.target}, broke {len(tally.broken)}, "
            f"games {tally.games_ok} ok / {len(tally.games_failed)} failed, hosts {tally.hosts}, "
            f"{tally.count / max(took, 1e-9):.0f} inputs/s",
            flush=True,
        )


async def main_async(args: argparse.Namespace) -> Tally:
    started = time.monotonic()
    tally = Tally(args.inputs, started + args.max_seconds)
    with tempfile.TemporaryDirectory(prefix="fuzz-host-") as records, Watch() as watch:
        reporter = asyncio.ensure_future(report(tally, started, args.progress))
        try:
            await asyncio.gather(
                *(run_host(i, args, tally, Path(records), watch) for i in range(args.hosts))
            )
        finally:
            reporter.cancel()
    return tally


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--inputs", type=int, default=100_000, help="hostile inputs to try")
    parser.add_argument("--seed", type=int, default=1, help="the same seed draws the same inputs")
    parser.add_argument("--hosts", type=int, default=2, help="hosts attacked at once")
    parser.add_argument("--games-per-host", type=int, default=20, help="then a fresh host")
    parser.add_argument(
        "--game-timeout", type=float, default=300.0, help="seconds after which a game is hung"
    )
    parser.add_argument("--max-seconds", type=float, default=3600.0, help="stop after this long")
    parser.add_argument("--progress", type=float, default=10.0, help="seconds between reports")
    args = parser.parse_args()
    started = time.monotonic()
    tally = asyncio.run(main_async(args))
    took = time.monotonic() - started
    print()
    print(f"inputs tried: {tally.count} in {took:.0f} s ({tally.count / took:.0f} a second)")
    for kind, count in sorted(tally.tried.items()):
        print(f"  {kind:28} {count:>7}")
    print(f"  (not counted: the mole's deal-phase messages; {tally.lost} went out behind a")
    print("   fatal input and were never read)")
    print(f"inputs that broke something: {len(tally.broken)}")
    for problem in tally.broken[:20]:
        print(f"  {problem}")
    print(f"games: {tally.games_ok} finished and verified, {len(tally.games_failed)} failed")
    for problem in tally.games_failed[:20]:
        print(f"  {problem}")
    print(f"hosts started: {tally.hosts}")
    print("rerun: nice .venv/bin/python benchmarks/fuzz_host.py " + shlex.join(sys.argv[1:]))
    return 1 if tally.broken or tally.games_failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
