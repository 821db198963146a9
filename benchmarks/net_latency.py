"""Action-to-table latency of a Wizard host with 6 network clients, beside its floor.

    python benchmarks/net_latency.py [--games 6] [--floor-actions 2400] [--think 0.003]

What is timed: from the moment an action (a bid, a trump choice or a card) has reached the
host (decoded, just before the game handles it) until the last of the 6 clients has
processed the ``state`` message that action caused (decoded it, checked and rebuilt the
view, handed the update on). Clocks: ``time.monotonic_ns`` is system-wide on Linux, so
stamps taken in different processes compare directly.

Process layout, like a real LAN table: the host runs in this process and each of the 6
clients is a process of its own (a ``NetworkSession`` played by a random bot), all on
127.0.0.1. The floor uses the same layout: a bare asyncio server in this process with no
game logic, and 6 receiver processes. It speaks the same framing (``netplay.framing``)
with the same cipher as every netplay connection (``netplay.secure.SecureChannel``,
ChaCha20-Poly1305 keyed per connection, without the handshake), and fans out a message of
the size of a real ``state`` message (encoded once, sealed per receiver, as
``Server.broadcast`` does). In both, the seat whose turn it is waits ``--think`` seconds
before it acts, so each action's fan-out is over before the next action starts (an open
loop, as in ``perf-floors.md``). The floor runs before, between and after the games, and
its figures are all its runs together: on a shared machine whose load drifts, both then
see the same conditions.

Goal: median within 2x of the floor, p99 within 3x.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import secrets
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from netplay import Server, Session  # noqa: E402
from netplay.framing import FrameDecoder, FrameEncoder, encode_payload  # noqa: E402
from netplay.link import PushReader  # noqa: E402
from netplay.noise import CipherState  # noqa: E402
from netplay.secure import SecureChannel  # noqa: E402
from wizard_tui.bots import make_bot  # noqa: E402
from wizard_tui.game import Bid, Deal, Game, GameConfig, Phase, Play, seat_view  # noqa: E402
from wizard_tui.net import protocol as p  # noqa: E402
from wizard_tui.net.client import NetworkSession  # noqa: E402
from wizard_tui.net.host import HostOptions  # noqa: E402
from wizard_tui.net.host_adapter import WizardHost  # noqa: E402
from wizard_tui.session import GameFinished, TableUpdate  # noqa: E402

PLAYERS = 6
LOOPBACK = "127.0.0.1"
ACTIONS = ("bid", "play", "trump")


# ----------------------------------------------------------------------------- the game


class TimedHost(WizardHost):
    """Notes when each action arrived, for every ``state`` fan-out it causes."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.arrivals: dict[str, list[tuple[str | None, int, int]]] = {}
        self._arrival: tuple[str | None, int] = (None, 0)
        self._pending: list[tuple[str, str | None, int]] = []

    def on_message(self, session: Any, msg: dict[str, Any]) -> None:
        self._arrival = (msg.get("t"), time.monotonic_ns())
        try:
            super().on_message(session, msg)
        finally:
            self._arrival = (None, 0)

    def _send_states(self, events: list[Any]) -> None:
        assert self.table is not None
        super()._send_states(events)
        self._pending.append((self.table.game_id.hex(), *self._arrival))

    def run_effects(self, effects: list[Any]) -> None:  # notes when all six are sent
        super().run_effects(effects)  # (a step's sends leave when it ends)
        sent = time.monotonic_ns()
        for game_id, kind, arrived in self._pending:
            self.arrivals.setdefault(game_id, []).append((kind, arrived, sent))
        self._pending.clear()


_last_read = [0]  # when this process last read bytes from a netplay link


def _stamp_reads() -> None:
    # Every chunk a client's link reads passes through its PushReader, pulled or pushed.
    feed = PushReader.feed_data

    def stamped(self: PushReader, data: bytes) -> None:
        _last_read[0] = time.monotonic_ns()
        feed(self, data)

    PushReader.feed_data = stamped  # type: ignore[method-assign]


class TimedSession(NetworkSession):
    """Notes when it has processed each ``state`` message, per game (and when the bytes
    that carried it were read)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.stamps: dict[str, list[tuple[int, int]]] = {}

    def _handle(self, msg: dict[str, Any]) -> None:
        super()._handle(msg)
        if msg.get("t") == "state" and self.game_id is not None:
            stamp = (_last_read[0], time.monotonic_ns())
            self.stamps.setdefault(self.game_id.hex(), []).append(stamp)


async def wizard_client(port: int, index: int, games: int, think: float) -> None:
    _stamp_reads()
    session = TimedSession(LOOPBACK, port, name=f"bench{index}")
    await session.connect()
    bot = make_bot("random", random.Random(index))
    answered = None
    finished = 0
    async for update in session.updates():
        if isinstance(update, TableUpdate):
            view = update.view
            if not view.my_turn or view.phase not in (Phase.CHOOSE_TRUMP, Phase.BID, Phase.PLAY):
                continue
            key = (view.round, view.phase, view.bids, len(view.tricks), len(view.trick))
            if key == answered:
                continue
            answered = key
            await asyncio.sleep(think)
            action = bot.decide(view)
            if isinstance(action, Play):
                session.play(action.card)
            elif isinstance(action, Bid):
                session.bid(action.bid)
            else:
                session.choose_trump(action.suit)
        elif isinstance(update, GameFinished):
            finished += 1
            if finished == games:
                break
    await session.close()
    print(json.dumps(session.stamps), flush=True)


async def run_wizard(games: int, think: float) -> tuple[list[float], dict[str, list[float]]]:
    options = HostOptions(players=PLAYERS, bot_level="random", records_dir=None)
    host = TimedHost(options)
    server = Server(host, protocol=p.PROTOCOL, version=p.VERSION, host=LOOPBACK, limits=p.LIMITS)
    host.server = server
    await server.start()
    played = 0
    all_done = asyncio.Event()

    # The host program's own table asks for each rematch (the same seats): a session that
    # presented the host key, in process (it holds no seat and is sent nothing it needs).
    admin = Session(id="bench-admin", name="bench", token="bench-admin")
    host.on_message(admin, {"t": "claim_host", "key": host.host_key})

    def game_over() -> None:
        nonlocal played
        played += 1
        if played < games:
            rematch = {"t": "rematch"}
            asyncio.get_running_loop().call_soon(host.on_message, admin, rematch)
        else:
            all_done.set()

    host.on_game_over = game_over
    procs = [
        await _spawn("wizard-client", server.port, i, games=games, think=think)
        for i in range(PLAYERS)
    ]
    outputs = await asyncio.gather(*(proc.communicate() for proc in procs))
    await all_done.wait()
    await host.close()
    await server.close()
    stamps = [json.loads(_last_line(out)) for out, _ in outputs]
    latencies = []
    parts: dict[str, list[float]] = {
        "host: action in -> 6 states sent": [],
        "action in -> first client read": [],
        "action in -> last client read": [],
        "client: read -> processed (each)": [],
    }
    for game_id, arrivals in host.arrivals.items():
        per_client = [s[game_id] for s in stamps]
        assert all(len(c) == len(arrivals) for c in per_client), "clients missed states"
        for k, (kind, arrived, sent) in enumerate(arrivals):
            if kind in ACTIONS:
                latencies.append((max(c[k][1] for c in per_client) - arrived) / 1000)
                # The host writes each state as it is ready, so clients read (and compete
                # for the cores) before the last one is out: these overlap.
                parts["host: action in -> 6 states sent"].append((sent - arrived) / 1000)
                first_read = min(c[k][0] for c in per_client)
                last_read = max(c[k][0] for c in per_client)
                parts["action in -> first client read"].append((first_read - arrived) / 1000)
                parts["action in -> last client read"].append((last_read - arrived) / 1000)
                parts["client: read -> processed (each)"] += [
                    (c[k][1] - c[k][0]) / 1000 for c in per_client
                ]
    return latencies, parts


# ----------------------------------------------------------------------------- the floor


def sample_state() -> dict[str, Any]:
    """A real ``state`` message of a 6-seat game: round 5, two cards into a trick."""
    rng = random.Random(1)
    game = Game(GameConfig(PLAYERS, 0))
    while True:
        deck = list(range(60))
        rng.shuffle(deck)
        game.apply(Deal(tuple(deck)))
        while game.phase in (Phase.CHOOSE_TRUMP, Phase.BID, Phase.PLAY):
            if game.round == 5 and len(game.trick) == 2:
                seats = [
                    {"name": f"bench{i}", "kind": "human", "connected": True}
                    for i in range(PLAYERS)
                ]
                view = p.view_wire(seat_view(game, game.turn))
                return {"t": "state", "view": view, "seats": seats, "events": [], "seq": 0}
            game.apply(game.legal_actions()[0])


def _channel(send_key: bytes, receive_key: bytes) -> SecureChannel:
    return SecureChannel(CipherState(send_key), CipherState(receive_key))


async def floor_client(port: int, index: int, think: float, keys: str) -> None:
    down, up = (bytes.fromhex(k) for k in keys.split(":"))
    channel = _channel(up, down)
    encoder, decoder = FrameEncoder(channel), FrameDecoder(p.LIMITS, cipher=channel)
    reader, writer = await asyncio.open_connection(LOOPBACK, port)
    writer.write(bytes([index]))
    stamps: list[int] = []
    acting: list[asyncio.Task[None]] = []

    async def act(seq: int) -> None:
        await asyncio.sleep(think)
        action = {"t": "play", "seat": index, "round": 1, "card": seq % 60}
        writer.write(encoder.frame(encode_payload(action)))

    while data := await reader.read(65536):
        decoder.receive_data(data)
        while (msg := decoder.next_message()) is not None:
            if msg["t"] == "end":
                writer.close()
                print(json.dumps(stamps), flush=True)
                return
            stamps.append(time.monotonic_ns())
            if msg["seq"] % PLAYERS == index:
                acting.append(asyncio.ensure_future(act(msg["seq"])))
    raise SystemExit("the floor server hung up early")


async def run_floor(actions: int, think: float) -> list[float]:
    template = sample_state()
    keys = [(secrets.token_bytes(32), secrets.token_bytes(32)) for _ in range(PLAYERS)]
    peers: dict[int, tuple[asyncio.StreamWriter, FrameEncoder]] = {}
    arrivals: list[int] = [0]
    ready = asyncio.Event()
    done = asyncio.Event()

    def fan_out(seq: int) -> None:
        template["seq"] = seq
        payload = encode_payload(template)  # once, then sealed per receiver
        for writer, encoder in peers.values():
            writer.write(encoder.frame(payload))

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        index = (await reader.readexactly(1))[0]
        down, up = keys[index]
        channel = _channel(down, up)
        peers[index] = (writer, FrameEncoder(channel))
        decoder = FrameDecoder(p.LIMITS, cipher=channel)
        if len(peers) == PLAYERS:
            ready.set()
        while data := await reader.read(65536):
            decoder.receive_data(data)
            while decoder.next_message() is not None:
                arrivals.append(time.monotonic_ns())
                if len(arrivals) > actions:
                    done.set()
                else:
                    fan_out(len(arrivals) - 1)

    server = await asyncio.start_server(handle, LOOPBACK, 0)
    port = server.sockets[0].getsockname()[1]
    procs = [
        await _spawn(
            "floor-client", port, i, think=think, keys=f"{keys[i][0].hex()}:{keys[i][1].hex()}"
        )
        for i in range(PLAYERS)
    ]
    await ready.wait()
    fan_out(0)
    await done.wait()
    end = encode_payload({"t": "end"})
    for writer, encoder in peers.values():
        writer.write(encoder.frame(end))
    outputs = await asyncio.gather(*(proc.communicate() for proc in procs))
    server.close()
    stamps = [json.loads(_last_line(out)) for out, _ in outputs]
    return [
        (max(s[k] for s in stamps) - arrivals[k]) / 1000
        for k in range(1, actions + 1)
        if all(len(s) > k for s in stamps)
    ]


# ----------------------------------------------------------------------------- driver


async def _spawn(role: str, port: int, index: int, **kwargs: Any) -> asyncio.subprocess.Process:
    args = [sys.executable, __file__, "--role", role, "--port", str(port), "--index", str(index)]
    for key, value in kwargs.items():
        args += [f"--{key.replace('_', '-')}", str(value)]
    return await asyncio.create_subprocess_exec(
        *args, stdout=asyncio.subprocess.PIPE, env={**os.environ, "PYTHONHASHSEED": "0"}
    )


def _last_line(out: bytes) -> str:
    return out.decode().strip().splitlines()[-1]


def summary(samples: list[float]) -> dict[str, float]:
    cuts = statistics.quantiles(samples, n=100, method="inclusive")
    return {
        "n": len(samples),
        "median": statistics.median(samples),
        "p90": cuts[89],
        "p99": cuts[98],
        "max": max(samples),
    }


def show(name: str, s: dict[str, float]) -> str:
    return (
        f"{name:<28} n={s['n']:<5.0f} median {s['median']:8.0f} µs   p90 {s['p90']:8.0f} µs   "
        f"p99 {s['p99']:8.0f} µs   max {s['max']:8.0f} µs"
    )


async def main_async(args: argparse.Namespace) -> None:
    # The machine is shared and its load drifts: floor and game take turns, so both see
    # the same conditions (floor, game, floor, game, ..., floor).
    chunk = max(50, args.floor_actions // (args.games + 1))
    floor: list[float] = []
    wizard: list[float] = []
    parts: dict[str, list[float]] = {}
    for _ in range(args.games):
        floor += await run_floor(chunk, args.think)
        latencies, game_parts = await run_wizard(1, args.think)
        wizard += latencies
        for name, samples in game_parts.items():
            parts.setdefault(name, []).extend(samples)
    floor += await run_floor(chunk, args.think)
    f, w = summary(floor), summary(wizard)
    print(
        f"{PLAYERS} clients, each its own process; host/server in this one; "
        f"think {args.think}s; {args.games} games between {args.games + 1} floor runs"
    )
    print(show("floor (bare fan-out x6)", f))
    print(show("wizard host (action->6)", w))
    ratio_med, ratio_p99 = w["median"] / f["median"], w["p99"] / f["p99"]
    print(f"ratio: median {ratio_med:.2f}x (goal <= 2x), p99 {ratio_p99:.2f}x (goal <= 3x)")
    print("where the wizard time goes (medians):")
    for name, samples in parts.items():
        print(f"  {name:<38} {statistics.median(samples):8.0f} µs")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    # Six games and 2,400 floor samples (about 35 s): with three and 1,200, the medians of runs
    # on this shared machine scattered by about 0.25x around their mean (docs/performance.md).
    parser.add_argument("--games", type=int, default=6, help="6-seat games to time (default 6)")
    parser.add_argument("--floor-actions", type=int, default=2400, help="floor samples in all")
    parser.add_argument("--think", type=float, default=0.003, help="seconds before acting")
    parser.add_argument("--role", choices=["main", "wizard-client", "floor-client"], default="main")
    parser.add_argument("--port", type=int)
    parser.add_argument("--index", type=int)
    parser.add_argument("--keys", default="")
    args = parser.parse_args()
    if args.role == "wizard-client":
        asyncio.run(wizard_client(args.port, args.index, args.games, args.think))
    elif args.role == "floor-client":
        asyncio.run(floor_client(args.port, args.index, args.think, args.keys))
    else:
        asyncio.run(main_async(args))


if __name__ == "__main__":
    main()
