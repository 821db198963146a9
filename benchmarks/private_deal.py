"""The private deal (``netplay.mental``, private-sra-x25519-v1): per-round deal time and
round-end verification time per client, for 3 to 6 players, each at its worst round
(r = 60/n: every card dealt, so the most keys released and hands opened).

    .venv/bin/python benchmarks/private_deal.py [--repeat 5] [--tcp-repeat 3] [--no-tcp]

Deal time is the critical path of the round's deal: every player's shuffle pass then
lock pass, one after the other, each checked by the relay and by the next player before
that one starts; then every key release (checked by the relay, then by every player)
and every player opening its own hand. In process, every party's work is measured for
real, one call at a time, and a discrete-event schedule gives each party its own
machine (as at a LAN table): a party starts a message when it has arrived and the party
has finished its previous one. Network hops are free there; the TCP figures add them:
a relay on 127.0.0.1 with asyncio streams and every player in a process of its own
(on this 2-core machine the players' parallel checks then compete for the cores, so
those figures are pessimistic). Round keys are drawn before the round (K0 can run while
the previous round is played); their cost is shown separately.

Verification time is one client's work once every player has revealed its round keys:
the reveal messages, re-checking every pass, every released and played key and the
final deck. The in-round work of opening the n·r played cards is shown beside it.

Baseline, measured in the same run: the commit-reveal deal of the same round
(netplay.fairdeal: n commitments, the combined seed, the shuffle, the hands).

Goal: 6 players dealt in under 150 ms and verified in under 100 ms.
"""

from __future__ import annotations

import argparse
import asyncio
import heapq
import multiprocessing
import secrets
import statistics
import struct
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import msgpack

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from netplay import fairdeal  # noqa: E402
from netplay.mental import (  # noqa: E402
    DealPlayer,
    DealRelay,
    DealSetup,
    HandOpened,
    PassAccepted,
    RoundKeys,
    RoundVerified,
    Send,
    chain_from,
    deal_round_robin,
    sra,
)
from netplay.signing import Envelope, SigningKey  # noqa: E402

ITEMS = 60
GOAL_DEAL_MS = 150.0
GOAL_VERIFY_MS = 100.0
T = TypeVar("T")


def timed(fn: Callable[..., T], *args: Any) -> tuple[T, float]:
    start = time.perf_counter()
    result = fn(*args)
    return result, time.perf_counter() - start


def make_round(n: int) -> tuple[DealSetup, list[SigningKey], list[bytes]]:
    r = ITEMS // n
    dealer = secrets.randbelow(n)
    signing = [SigningKey.generate() for _ in range(n)]
    setup = DealSetup(
        secrets.token_bytes(16),
        r,
        0,
        chain_from(dealer + 1, n),
        deal_round_robin(n, r, dealer + 1, ITEMS),
        tuple(k.public_key for k in signing),
    )
    return setup, signing, [secrets.token_bytes(32) for _ in range(n)]


# -- in process, with a schedule of one machine per party ------------------------------------


def simulate(n: int) -> dict[str, float]:
    setup, signing, secrets_ = make_round(n)
    keygen = []
    players = []
    for s in range(n):  # K0: keys and the lock pass's key objects, before the round
        start = time.perf_counter()
        players.append(DealPlayer(setup, s, signing[s], RoundKeys.derive(secrets_[s], ITEMS)))
        keygen.append(time.perf_counter() - start)
    relay = DealRelay(setup)
    free = [0.0] * n
    relay_free = 0.0
    chains_at = 0.0
    hand_at = [0.0] * n
    queue: list[tuple[float, int, int, int, Envelope]] = []  # (time, order, target, from, env)
    order = 0

    def emit(at: float, seat: int, events: list[Any]) -> None:
        nonlocal order
        for event in events:
            if isinstance(event, Send):
                order += 1
                heapq.heappush(queue, (at, order, -1, seat, event.envelope))
            elif isinstance(event, HandOpened):
                hand_at[seat] = at

    for seat in range(n):
        events, dt = timed(players[seat].start)
        free[seat] += dt
        emit(free[seat], seat, events)
    while queue:
        at, _, target, origin, env = heapq.heappop(queue)
        if target == -1:
            (recipients, events), dt = timed(relay.receive, origin, env)
            relay_free = max(relay_free, at) + dt
            if any(isinstance(e, PassAccepted) and e.index == 2 * n - 1 for e in events):
                chains_at = relay_free
            for to in recipients:
                order += 1
                heapq.heappush(queue, (relay_free, order, to, origin, env))
        else:
            events, dt = timed(players[target].receive, env)
            free[target] = max(free[target], at) + dt
            emit(free[target], target, events)
    deal = max(hand_at)
    assert all(p.hand is not None for p in players)

    # Play every card (its cost per client is the in-round opening work), then reveal.
    open_cost = [0.0] * n
    reveal_cost = [0.0] * n
    pending: list[tuple[int, Envelope]] = []
    for seat in range(n):
        for position, item in sorted(players[seat].hand.items()):  # type: ignore[union-attr]
            pending += [
                (seat, e.envelope)
                for e in players[seat].play(position, item)
                if isinstance(e, Send)
            ]
    for origin, env in pending:
        recipients, _ = relay.receive(origin, env)
        for to in recipients:
            open_cost[to] += timed(players[to].receive, env)[1]
    reveals = []
    for seat in range(n):
        events, dt = timed(players[seat].reveal)  # the client's own reveal, read back
        reveal_cost[seat] += dt
        reveals += [(seat, e.envelope) for e in events if isinstance(e, Send)]
    for origin, env in reveals:
        recipients, _ = relay.receive(origin, env)
        for to in recipients:
            _, dt = timed(players[to].receive, env)
            reveal_cost[to] += dt
    assert all(isinstance(p.view.result, RoundVerified) for p in players)
    return {
        "keygen": max(keygen),
        "deal": deal,
        "chains": chains_at,
        "verify": statistics.median(reveal_cost),
        "open": statistics.median(open_cost),
        "relay_busy": relay_free,
    }


def ladder_us() -> float:
    """One X25519 ladder (exchange with a fresh public value), now, in µs: the load gauge."""
    key = sra.private_key(sra.generate_keypair().e)
    value = sra.item_table(ITEMS)[0]
    runs = []
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(200):
            sra.apply(key, value)
        runs.append((time.perf_counter() - start) / 200 * 1e6)
    return statistics.median(runs)


def baseline(n: int) -> float:
    """The commit-reveal deal of the same round: commitments, seed, shuffle, hands."""
    r = ITEMS // n
    game_id = fairdeal.new_game_id()
    start = time.perf_counter()
    seeds = [fairdeal.new_seed() for _ in range(n)]
    commits = [fairdeal.commitment(game_id, r, s, seed) for s, seed in enumerate(seeds)]
    assert all(fairdeal.opens(c, game_id, r, s, seeds[s]) for s, c in enumerate(commits))
    deck = fairdeal.shuffle_order(fairdeal.combined_seed(game_id, r, seeds), ITEMS)
    hands = [deck[s : n * r : n] for s in range(n)]
    assert sum(len(h) for h in hands) == n * r
    return time.perf_counter() - start


# -- over a loopback TCP relay, one process per player --------------------------------------

_LEN = struct.Struct(">I")


async def _read(reader: asyncio.StreamReader) -> bytes:
    (size,) = _LEN.unpack(await reader.readexactly(4))
    return await reader.readexactly(size)


def _frame(payload: bytes) -> bytes:
    return _LEN.pack(len(payload)) + payload


def _player_process(port: int, setup: dict[str, Any], seat: int, sk: bytes, secret: bytes) -> None:
    asyncio.run(_player_main(port, DealSetup.from_json(setup), seat, sk, secret))


async def _player_main(port: int, setup: DealSetup, seat: int, sk: bytes, secret: bytes) -> None:
    player = DealPlayer(
        setup, seat, SigningKey.from_private_bytes(sk), RoundKeys.derive(secret, ITEMS)
    )
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(_frame(msgpack.packb({"t": "hello", "seat": seat})))
    await writer.drain()

    def send(events: list[Any]) -> None:
        for event in events:
            if isinstance(event, Send):
                wire = {"t": "env", **event.envelope.to_wire()}
                writer.write(_frame(msgpack.packb(wire, use_bin_type=True)))
            elif isinstance(event, HandOpened):
                writer.write(_frame(msgpack.packb({"t": "hand", "seat": seat})))

    while True:
        msg = msgpack.unpackb(await _read(reader), raw=False)
        if msg["t"] == "go":
            send(player.start())
        elif msg["t"] == "env":
            del msg["t"]
            send(player.receive(Envelope.from_wire(msg)))
        elif msg["t"] == "bye":
            break
        await writer.drain()
    writer.close()


async def _relay_round(n: int) -> float:
    setup, signing, secrets_ = make_round(n)
    relay = DealRelay(setup)
    writers: dict[int, asyncio.StreamWriter] = {}
    connected = asyncio.Event()
    dealt = asyncio.Event()
    hands: set[int] = set()

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        seat = msgpack.unpackb(await _read(reader), raw=False)["seat"]
        writers[seat] = writer
        if len(writers) == n:
            connected.set()
        try:
            while True:
                payload = await _read(reader)
                msg = msgpack.unpackb(payload, raw=False)
                if msg["t"] == "hand":
                    hands.add(seat)
                    if len(hands) == n:
                        dealt.set()
                    continue
                del msg["t"]
                recipients, _ = relay.receive(seat, Envelope.from_wire(msg))
                framed = _frame(payload)  # forwarded byte for byte
                for to in recipients:
                    writers[to].write(framed)
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.CancelledError):
            return

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    ctx = multiprocessing.get_context("fork")
    procs = [
        ctx.Process(
            target=_player_process,
            args=(port, setup.to_json(), s, signing[s].private_bytes(), secrets_[s]),
        )
        for s in range(n)
    ]
    for p in procs:
        p.start()
    await asyncio.wait_for(connected.wait(), 30)
    start = time.perf_counter()
    for w in writers.values():
        w.write(_frame(msgpack.packb({"t": "go"})))
    await asyncio.wait_for(dealt.wait(), 30)
    elapsed = time.perf_counter() - start
    for w in writers.values():
        w.write(_frame(msgpack.packb({"t": "bye"})))
        await w.drain()
    for p in procs:
        p.join(10)
    for w in writers.values():
        w.close()
    server.close()
    await server.wait_closed()
    return elapsed


# -- report ---------------------------------------------------------------------------------


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="rounds per player count")
    parser.add_argument("--tcp-repeat", type=int, default=3, help="TCP rounds per player count")
    parser.add_argument("--no-tcp", action="store_true", help="skip the loopback TCP relay")
    args = parser.parse_args()

    sra.item_table(ITEMS)  # computed once per process, like every client does
    simulate(3)  # warm-up
    print(f"private deal (private-sra-x25519-v1), medians of {args.repeat} rounds, in ms")
    print(f"one X25519 ladder here and now: {ladder_us():.0f} µs (the load gauge)")
    print("in process, network hops are free; the tcp column adds loopback relay hops")
    head = (
        f"{'n':>2} {'r':>3} {'keygen':>7} {'chains':>7} {'dealt':>7} {'tcp':>7} "
        f"{'verify':>7} {'open n·r':>9} {'baseline':>9}"
    )
    print(head)
    for n in (3, 4, 5, 6):
        runs = [simulate(n) for _ in range(args.repeat)]
        med = {k: statistics.median(r[k] for r in runs) * 1e3 for k in runs[0]}
        base = statistics.median(baseline(n) for _ in range(50)) * 1e3
        tcp = "-"
        if not args.no_tcp:
            tcp_runs = [asyncio.run(_relay_round(n)) for _ in range(args.tcp_repeat)]
            tcp = f"{statistics.median(tcp_runs) * 1e3:7.1f}"
        print(
            f"{n:>2} {ITEMS // n:>3} {med['keygen']:7.1f} {med['chains']:7.1f} "
            f"{med['deal']:7.1f} {tcp:>7} {med['verify']:7.1f} {med['open']:9.1f} {base:9.3f}"
        )
        if n == 6:
            ok_deal = "met" if med["deal"] < GOAL_DEAL_MS else "MISSED"
            ok_verify = "met" if med["verify"] < GOAL_VERIFY_MS else "MISSED"
            print(
                f"goal, 6 players: dealt < {GOAL_DEAL_MS:.0f} ms ({ok_deal}: "
                f"{med['deal']:.1f}), verified < {GOAL_VERIFY_MS:.0f} ms ({ok_verify}: "
                f"{med['verify']:.1f})"
            )
    print(
        "keygen: one player's round keys (61 pairs and the lock pass's key objects), made"
        " before the round\nchains: the 2n passes, each checked by the relay and the next"
        " player\ndealt: chains, then every release and every hand opened (the goal's"
        " figure)\ntcp: the same over a loopback TCP relay, one process per player (2 cores:"
        " pessimistic)\nverify: one client's round-end verification\nopen n·r: one client"
        " opening every card played in the round\nbaseline: the commit-reveal deal of the"
        " same round (netplay.fairdeal)"
    )


if __name__ == "__main__":
    main()
