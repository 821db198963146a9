"""The abuse arena: a live Wizard host on 127.0.0.1, honest network bot clients playing a game
on it, an attacker holding one seat (the mole), strangers, and the checks that say whether
anything the attackers did reached the game.

Used by ``tests/abuse`` (fixed, CI-sized samples) and ``benchmarks/fuzz_host.py`` (the long
random run). Every socket is on the loopback address and every loop here is bounded.

The model:

* **Honest players** are network clients (``NetworkSession``) played by random bots. Each
  logs every action it sends. They never see a refusal or a dropped link.
* **The mole** is a player at the table running hostile software: it plays its seat by the
  rules through its own bot (or the table would wait for it forever), and besides sends
  anything at all: messages of the wrong shape, out of phase, for other seats, for stale
  rounds, garbage frames, replays. Every hostile input is registered with what the host
  must answer (a refusal with one of some codes, or a fatal error with one of some codes);
  answers arrive in order on its connection, and each is checked against the registration
  of its input. After a fatal error it reconnects (with its token and key) and goes on, as
  any attacker would.
* **Strangers** open connections of their own: junk before, during and after the Noise
  handshake, replays of recorded sessions, slowloris.

At the end (``game_problems``): the host is up, no error was logged, the game finished and
every client verified every round, the record passes ``wizard-tui verify``, no honest
client saw a refusal or a dropped link, and the actions the host applied are exactly those
the honest clients sent (for the mole's seat: only actions its rule-abiding bot sent).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import random
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import msgpack
from abuse_inputs import REFUSALS
from net_helpers import LIMITS, LOOPBACK, assert_game_verified, host_state
from netplay_helpers import Proxy, SecurePeer

from netplay import Client, ProtocolError, Server, StaticIdentity
from netplay.client import ClientEvent
from netplay.commit_reveal import seed_msg
from netplay.framing import frame
from netplay.secure import HandshakeReader, SecureInitiator, make_prologue
from wizard_tui.bots import make_bot
from wizard_tui.game import Bid, ChooseTrump, Phase, Play, SeatView, seat_view
from wizard_tui.net import protocol as p
from wizard_tui.net.client import NetworkSession
from wizard_tui.net.deals.commit_reveal.host import CommitRevealHost
from wizard_tui.net.host import HostOptions
from wizard_tui.net.host_adapter import WizardHost
from wizard_tui.session import ActionRefused, GameFinished, LinkChanged, TableUpdate

ACTING = (Phase.CHOOSE_TRUMP, Phase.BID, Phase.PLAY)

# The mole comes straight back after each fatal error.
MOLE_LIMITS = dataclasses.replace(LIMITS, reconnect_delay=0.002, reconnect_max_delay=0.05)

Action = tuple[int, str, int]  # (round, "bid" | "play" | "trump", value)

PONG = msgpack.packb({"t": "pong"})

DROPPED = "(dropped)"
"""The answer when the host cuts the link without an error (a peer that does not read)."""


# -- what the host logs ---------------------------------------------------------------------


class Watch(logging.Handler):
    """Every warning or error logged by netplay or wizard_tui, and everything the event loop's
    exception handler sees (an exception in a callback or a task nobody awaited): each one is
    a crash or a bug. Strangers and the mole log nothing of their own."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.problems: list[str] = []
        self._loggers = [logging.getLogger("netplay"), logging.getLogger("wizard_tui")]
        self._previous: Any = None

    def emit(self, record: logging.LogRecord) -> None:
        text = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            text += f" [{type(record.exc_info[1]).__name__}: {record.exc_info[1]}]"
        self.problems.append(f"{record.name} {record.levelname}: {text}")

    def _loop_error(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        exc = context.get("exception")
        self.problems.append(f"event loop: {context.get('message')} {exc!r}")

    def __enter__(self) -> Watch:
        for logger in self._loggers:
            logger.addHandler(self)
        loop = asyncio.get_running_loop()
        self._previous = loop.get_exception_handler()
        loop.set_exception_handler(self._loop_error)
        return self

    def __exit__(self, *exc: object) -> None:
        for logger in self._loggers:
            logger.removeHandler(self)
        asyncio.get_running_loop().set_exception_handler(self._previous)


# -- players ----------------------------------------------------------------------------------


def decision_key(view: SeatView) -> tuple[object, ...]:
    return (view.round, view.phase, view.bids, len(view.tricks), len(view.trick))


class Player:
    """A network client played by a random bot, logging every action it sends.

    It acts on the newest view only (when no update is waiting), at most once per decision,
    and after ``gate`` is open: a test closes the gate to freeze the game (or sets ``hold``).
    A dropped link forgets the view until the snapshot after the resume brings the next one.
    """

    def __init__(
        self,
        session: NetworkSession,
        seed: int,
        gate: asyncio.Event,
        *,
        delay: float = 0.0,
        games: int = 1,
    ) -> None:
        self.session = session
        self.name = session.name
        self.bot = make_bot("random", random.Random(seed))
        self.gate = gate
        self.delay = delay
        self.games = games
        self.sent: list[Action] = []
        self.refused: list[ActionRefused] = []
        self.links: list[str] = []
        self.finished: list[GameFinished] = []
        self.task: asyncio.Task[None] | None = None
        self.on_game: Callable[[Player], None] | None = None  # called at each game's end
        # While ``hold(view)`` is true the player does not act (``holding`` says it waits):
        # a test stops the game at a decision of its choice this way.
        self.hold: Callable[[SeatView], bool] | None = None
        self.holding = False

    @property
    def seat(self) -> int | None:
        return self.session.seat

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self.run())

    async def run(self) -> None:
        session = self.session
        # Updates not read yet: NetworkSession's own queue (net/ internals until the redesign).
        updates = session._updates  # noqa: SLF001
        latest: SeatView | None = None
        answered: tuple[object, ...] | None = None
        async for update in session.updates():
            if isinstance(update, TableUpdate):
                latest = update.view
            elif isinstance(update, ActionRefused):
                self.refused.append(update)
            elif isinstance(update, LinkChanged):
                self.links.append(update.state)
                latest, answered = None, None  # the snapshot after a resume is the truth
                if update.state == "closed":
                    return
            elif isinstance(update, GameFinished):
                self.finished.append(update)
                latest = None
                if self.on_game is not None:
                    self.on_game(self)
                if len(self.finished) >= self.games:
                    return
            if updates.qsize():
                continue  # act on the newest view only
            if latest is None or not latest.my_turn or latest.phase not in ACTING:
                continue
            key = decision_key(latest)
            if key == answered:
                continue
            if self.hold is not None and self.hold(latest):
                self.holding = True
                while self.hold is not None and self.hold(latest) and not updates.qsize():
                    await asyncio.sleep(0.002)
                self.holding = False
                if updates.qsize():
                    continue
            if not self.gate.is_set() or self.delay:
                if self.delay:
                    await asyncio.sleep(self.delay)
                await self.gate.wait()
                if updates.qsize():
                    continue  # something came in meanwhile: look at it first
            if self.session.client.state != "connected":
                continue
            answered = key
            self._send(latest.round, self.bot.decide(latest))

    def _send(self, round_number: int, action: Any) -> None:
        if isinstance(action, Play):
            self.sent.append((round_number, "play", action.card))
            self.session.play(action.card)
        elif isinstance(action, Bid):
            self.sent.append((round_number, "bid", action.bid))
            self.session.bid(action.bid)
        else:
            assert isinstance(action, ChooseTrump)
            self.sent.append((round_number, "trump", int(action.suit)))
            self.session.choose_trump(action.suit)

    async def stop(self) -> None:
        if self.task is not None and not self.task.done():
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
        await self.session.close()


# -- the mole -------------------------------------------------------------------------------


@dataclass
class Expect:
    what: str
    codes: frozenset[str]
    fatal: bool


class MoleClient(Client):
    """A ``Client`` that comes back after any fatal error (an attacker would) and shows its
    owner every event first, in order."""

    observer: Callable[[ClientEvent], None] | None = None

    async def _pump(self, link: Any) -> tuple[str, str | None, bool]:
        detail, code, retry = await super()._pump(link)
        return detail, code, retry or code is not None

    def _emit(self, event: ClientEvent) -> None:
        if self.observer is not None:
            self.observer(event)
        super()._emit(event)


class MoleSession(NetworkSession):
    """The mole's session: a ``MoleClient``, and a hook around each message it handles (the
    deal-phase attacks go out right before and after the session's own commit and seed)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        old = self.client
        self.client = MoleClient(
            old.host,
            old.port,
            protocol=old.protocol,
            version=old.version,
            name=old.name,
            limits=old.limits,
            identity=old.identity,
        )
        self.hook: Callable[[dict[str, Any], bool], None] | None = None
        self.trace: deque[str] | None = None
        send = self.client.send

        def traced(msg: dict[str, Any]) -> bool:
            ok = send(msg)
            if self.trace is not None and msg.get("t") in ("commit", "seed"):
                self.trace.append(f"=> own {msg['t']} {msg['round']} {'sent' if ok else 'LOST'}")
            return ok

        self.client.send = traced  # type: ignore[method-assign]

    def _handle(self, msg: dict[str, Any]) -> None:
        if self.trace is not None and msg.get("t") in ("round", "commitments", "snapshot"):
            self.trace.append(f"<= {msg.get('t')} {msg.get('round')}")
        if self.hook is not None:
            self.hook(msg, True)
        super()._handle(msg)
        if self.hook is not None:
            self.hook(msg, False)


class Mole(Player):
    """The seated attacker. Every hostile input is registered (``Expect``) as it is queued;
    the host's answers arrive in the same order and are checked one by one in ``observe``.
    A fatal answer voids what was queued behind its input (the host reads no further).
    ``problems`` lists every answer that was not the one registered."""

    def __init__(self, session: MoleSession, seed: int, gate: asyncio.Event) -> None:
        super().__init__(session, seed, gate)
        self.msession = session
        self.rng = random.Random(seed ^ 0x5EED)
        self.expect: deque[Expect] = deque()
        self.problems: list[str] = []
        self.answers: dict[str, int] = {}
        self.log: list[tuple[str, str]] = []  # the latest answers: (code, message)
        self.trace: deque[str] = deque(maxlen=40)  # the latest inputs and answers, for reports
        self.tried = 0  # hostile inputs queued
        self.lost = 0  # queued behind a fatal one, so never read by the host
        self.fatal = 0
        self.reconnects = 0
        self.recorded: list[bytes] = []  # sealed frames it sent, for replays
        session.client.observer = self.observe  # type: ignore[attr-defined]
        session.hook = self._deal_hook
        session.trace = self.trace
        self.deal_attacks = True

    # -- answers ------------------------------------------------------------------------

    def _answer(self, code: str, fatal: bool, detail: str) -> None:
        self.trace.append(f"<- {'fatal ' if fatal else ''}{code}: {detail:.60}")
        self.answers[code] = self.answers.get(code, 0) + 1
        self.log = [*self.log[-50:], (code, detail)]
        if not self.expect:
            self.problems.append(f"unasked-for {'fatal ' if fatal else ''}{code}: {detail}")
            return
        want = self.expect.popleft()
        if want.fatal != fatal or code not in want.codes:
            self.problems.append(
                f"{want.what}: expected {'fatal ' if want.fatal else ''}{sorted(want.codes)}, "
                f"got {'fatal ' if fatal else ''}{code} ({detail:.120})"
            )

    def observe(self, event: ClientEvent) -> None:
        if isinstance(event, dict):
            if event.get("t") == "refused" or (
                event.get("t") == "error" and event.get("fatal") is not True
            ):
                self._answer(str(event.get("code")), False, str(event.get("message")))
            return
        if event.state == "connected":
            self.reconnects += 1
            return
        if event.code is None and event.state == "closed" and not self.expect:
            return  # the host said bye: the game is over
        self.fatal += 1
        self._answer(event.code or DROPPED, True, event.detail)
        self.lost += len(self.expect)
        self.expect.clear()

    @property
    def link(self) -> Any:
        client = self.session.client
        link = client.link
        if link is None or client.state != "connected" or link.closing:
            return None
        return link

    async def settled(self, timeout: float = 5.0) -> None:
        """Every registered input answered (or voided), and connected again. An input left
        unanswered was most likely taken by the host: that fails loudly."""
        try:
            async with asyncio.timeout(timeout):
                while self.expect or self.link is None:
                    await asyncio.sleep(0.002)
        except TimeoutError:
            waiting = [e.what for e in self.expect]
            raise AssertionError(
                f"no answer within {timeout:g} s to {waiting} (did the host take it?); "
                f"link {self.session.client.state}; last: {list(self.trace)[-8:]}"
            ) from None

    # -- sending ------------------------------------------------------------------------

    def send_payload(self, what: str, payload: bytes, codes: frozenset[str], fatal: bool) -> bool:
        """Queue one payload, sealed like any message, in order with the mole's own."""
        link = self.link
        if link is None or not link.send(payload):
            return False
        self.trace.append(f"-> {what}")
        self.expect.append(Expect(what, frozenset(codes), fatal))
        self.tried += 1
        return True

    def send_msg(self, what: str, msg: Any, codes: frozenset[str], fatal: bool = False) -> bool:
        brief = {k: v for k, v in msg.items() if k in ("t", "round", "seat")}
        return self.send_payload(
            f"{what} {brief}", msgpack.packb(msg, use_bin_type=True), codes, fatal
        )

    async def drained(self) -> Any:
        """The link, once every queued frame is on the wire (so raw bytes go out after them)."""
        async with asyncio.timeout(5.0):
            while True:
                link = self.link
                if link is not None and link.queued == 0:
                    return link
                await asyncio.sleep(0.001)

    async def _write(
        self, what: str, make: Callable[[Any], bytes], codes: frozenset[str] | set[str]
    ) -> None:
        """Bytes from ``make(link)`` onto the wire of the current link, once everything queued
        is out; always fatal. Sealing and writing happen in one step, so no queued frame can
        take a nonce in between."""
        link = await self.drained()
        link.writer.write(make(link))
        self.trace.append(f"-> {what}")
        self.expect.append(Expect(what, frozenset(codes), True))
        self.tried += 1

    def _seal(self, link: Any, payload: bytes) -> bytes:
        wire: bytes = link.conn.frame(payload)  # advances the link's nonce
        self.recorded = [*self.recorded[-20:], wire]
        return wire

    async def send_raw(self, what: str, data: bytes, codes: frozenset[str] | set[str]) -> None:
        """Bytes straight onto the wire, not sealed."""
        await self._write(what, lambda link: data, codes)

    async def send_sealed(self, what: str, payload: bytes, codes: frozenset[str]) -> None:
        """One payload sealed and written now, not queued (a queued empty payload would be
        the link's own end-of-stream marker)."""
        await self._write(what, lambda link: self._seal(link, payload), codes)

    async def flood(self, what: str, count: int, codes: frozenset[str] | set[str]) -> None:
        """``count`` pongs at once (they count against the message rate like any message)."""
        await self._write(
            what, lambda link: b"".join(link.conn.frame(PONG) for _ in range(count)), codes
        )

    async def replay(self) -> None:
        """A harmless pong, then the very same encrypted frame again."""

        def twice(link: Any) -> bytes:
            wire = self._seal(link, PONG)
            return wire + wire

        await self._write("a replayed frame", twice, {"decrypt_failed"})

    async def replay_old(self) -> None:
        """A frame recorded earlier on this connection or an earlier one."""
        if not self.recorded:
            await self.replay()
            return
        old = self.rng.choice(self.recorded)
        await self.send_raw("a frame from an earlier connection", old, {"decrypt_failed"})

    async def truncated(self) -> None:
        """A genuine frame cut short, the next genuine frame behind it: the cut frame's
        declared length takes in bytes of the next, which cannot authenticate."""

        def cut_short(link: Any) -> bytes:
            first, second = self._seal(link, PONG), self._seal(link, PONG)
            cut = first[: self.rng.randrange(5, len(first))]
            return cut + second + bytes(max(0, len(first) - len(cut) - len(second)))

        await self._write("a truncated frame", cut_short, {"decrypt_failed"})

    # -- attacks at the deal ---------------------------------------------------------------

    def _deal_hook(self, msg: dict[str, Any], before: bool) -> None:
        if not self.deal_attacks:
            return
        t = msg.get("t")
        r = msg.get("round")
        if type(r) is not int:
            return
        junk = self.rng.randbytes(32)
        if t == "round" and before:
            # Nothing of ours is in yet: a seed now is before the commitments.
            self.send_msg("a seed before the commitments", seed_msg(r, junk), _c("out_of_phase"))
            if r > 1:
                self.send_msg(
                    "a commit for the last round", _commit(r - 1, junk), _c("stale_round")
                )
        elif t == "round":
            # Our commitment is queued ahead of this one.
            self.send_msg("a second commit", _commit(r, junk), _c("duplicate", "out_of_phase"))
        elif t == "commitments" and not before:
            self.send_msg("a second seed", seed_msg(r, junk), _c("duplicate"))


def _c(*codes: str) -> frozenset[str]:
    return frozenset(codes)


def _commit(r: int, commitment: bytes) -> dict[str, Any]:
    return {"t": "commit", "round": r, "commitment": commitment}


# -- the arena ---------------------------------------------------------------------------


class WatchedHost(WizardHost):
    """A ``WizardHost`` that keeps a list of every disconnect it saw: (name, reason)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.disconnects: list[tuple[str, str]] = []

    def on_disconnect(self, session: Any) -> None:
        self.disconnects.append((session.name, session.reason))
        super().on_disconnect(session)


class Arena:
    """A host with a game among ``honest`` players and (optionally) the mole; the mole joins
    at a random seat. ``start`` seats everyone; the game starts when the table is full."""

    def __init__(
        self,
        records: Path,
        *,
        players: int = 4,
        honest: int = 3,
        mole: bool = True,
        seed: int = 0,
        delay: float = 0.0,
        games: int = 1,
        limits: Any = LIMITS,
        proxy: bool = False,
        admin: bool = False,
    ) -> None:
        """``proxy``: the first honest player connects through a recording relay, so its
        traffic can be replayed; ``admin``: it is the host's own table (it can ask for a
        rematch); ``delay``: seconds honest players wait before each move."""
        assert honest + mole <= players
        self.records = records
        self.players = players
        self.honest_count = honest
        self.with_mole = mole
        self.rng = random.Random(seed)
        self.seed = seed
        self.delay = delay
        self.games = games
        self.limits = limits
        self.gate = asyncio.Event()
        self.gate.set()
        self.host: WatchedHost | None = None
        self.server: Server | None = None
        self.honest: list[Player] = []
        self.mole: Mole | None = None
        self.port = 0
        self.use_proxy = proxy
        self.admin = admin
        self.proxy: Proxy | None = None

    async def start(self) -> None:
        options = HostOptions(
            players=self.players,
            bots=self.players - self.honest_count - self.with_mole,
            bot_level="random",
            records_dir=self.records,
        )
        host = WatchedHost(options, rng=random.Random(self.seed))
        server = Server(
            host, protocol=p.PROTOCOL, version=p.VERSION, host=LOOPBACK, port=0, limits=self.limits
        )
        host.server = server
        await server.start()
        options.port = self.port = server.port
        self.host, self.server = host, server
        if self.use_proxy:
            self.proxy = Proxy(self.port)
            proxy_port = await self.proxy.start()
        mole_at = self.rng.randrange(self.honest_count + 1) if self.with_mole else -1
        joined: list[Player] = []
        for i in range(self.honest_count + self.with_mole):
            if i == mole_at:
                session: NetworkSession = MoleSession(
                    LOOPBACK, self.port, name="mole", limits=MOLE_LIMITS
                )
                await session.connect()
                self.mole = Mole(session, self.seed * 31 + i, self.gate)  # type: ignore[arg-type]
                joined.append(self.mole)
            else:
                first = not self.honest
                port = proxy_port if self.proxy is not None and first else self.port
                session = NetworkSession(
                    LOOPBACK,
                    port,
                    name=f"honest{i}",
                    limits=self.limits,
                    host_key=host.host_key if self.admin and first else None,
                )
                await session.connect()
                player = Player(session, self.seed * 31 + i, self.gate, delay=self.delay)
                self.honest.append(player)
                joined.append(player)
        for player in joined:
            player.games = self.games
            player.start()

    @property
    def everyone(self) -> list[Player]:
        return [*self.honest, *([self.mole] if self.mole else [])]

    async def finish(self, timeout: float) -> None:
        """Wait for every player's last game to end (``timeout`` s at most)."""
        async with asyncio.timeout(timeout):
            await asyncio.gather(*(p.task for p in self.everyone if p.task is not None))

    async def close(self) -> None:
        self.gate.set()
        for player in self.everyone:
            await player.stop()
        if self.host is not None:
            await self.host.close()
        if self.server is not None:
            await self.server.close()
        if self.proxy is not None:
            await self.proxy.close()

    async def never_reader(self, timeout: float = 10.0) -> tuple[int, str]:
        """The mole stops reading, and provokes a refusal after refusal (a ``start``: only the
        host's table may) under the rate limit, until the host cuts it off. Then it reads
        again, notices, and resumes its seat. Returns (messages sent, the host's reason)."""
        mole, host = self.mole, self.host
        assert mole is not None and host is not None and mole.seat is not None
        await mole.settled()
        link = await mole.drained()
        session = host.seats[mole.seat].session
        client = mole.session.client
        client.observer = None  # what it reads after reading again is anybody's guess
        mole.deal_attacks = False  # nor can it tell which answers were to what
        seen = len(host.disconnects)
        link.writer.transport.pause_reading()
        payload = msgpack.packb({"t": "start"})
        sent = 0
        try:
            async with asyncio.timeout(timeout):
                while len(host.disconnects) == seen:
                    count = 500 if sent == 0 else 20  # a burst, then 400 a second
                    link.writer.write(b"".join(link.conn.frame(payload) for _ in range(count)))
                    sent += count
                    await asyncio.sleep(0.05)
        except TimeoutError:
            raise AssertionError(
                f"the host never cut off a peer that read nothing for {timeout:g} s "
                f"({sent} refusals asked for)"
            ) from None
        finally:
            link.writer.transport.resume_reading()
        async with asyncio.timeout(timeout):
            while not (session.connected and client.link is not link and mole.link):
                await asyncio.sleep(0.002)
        mole.lost += len(mole.expect)
        mole.expect.clear()
        client.observer = mole.observe  # type: ignore[attr-defined]
        mole.deal_attacks = True
        return sent, host.disconnects[seen][1]

    # -- freezing the game ------------------------------------------------------------

    async def freeze(self, timeout: float = 5.0) -> tuple[Any, ...] | None:
        """Close the gate and wait until the game stands still at a decision (the deal done,
        someone to bid, play or name trump, the mole connected and answered). Returns the
        host's state then, or None if the game is over."""
        self.gate.clear()
        host = self.host
        assert host is not None
        last: Any = None
        stable = 0
        async with asyncio.timeout(timeout):
            while True:
                await asyncio.sleep(0.004)
                table = host.table
                if table is None:
                    continue
                if table.finished:
                    return None
                state = host_state(host)
                half = host.deal_half
                deal = half.deal if isinstance(half, CommitRevealHost) else None
                ready = (
                    deal is not None
                    and deal.seeds is not None
                    and table.game.phase in ACTING
                    and (self.mole is None or (self.mole.link is not None and not self.mole.expect))
                )
                stable = stable + 1 if ready and state == last else 0
                last = state
                if stable >= 2:
                    return state

    async def freeze_at_mole(self, phase: Phase, timeout: float = 30.0) -> tuple[Any, ...] | None:
        """Let the game run until the mole is to act in ``phase``, and freeze it there."""
        mole, host = self.mole, self.host
        assert mole is not None and host is not None and host.table is not None
        mole.hold = lambda view: view.phase is phase
        self.thaw()
        try:
            async with asyncio.timeout(timeout):
                while not mole.holding and not host.table.finished:
                    await asyncio.sleep(0.002)
            return await self.freeze()
        finally:
            mole.hold = None

    def thaw(self) -> None:
        self.gate.set()

    async def progress(self, timeout: float = 5.0) -> None:
        """Wait until the host's game has moved on (or ended)."""
        host = self.host
        assert host is not None and host.table is not None
        before = host_state(host)
        async with asyncio.timeout(timeout):
            while host.table is not None and not host.table.finished and host_state(host) == before:
                await asyncio.sleep(0.002)

    # -- crafted out-of-phase messages ---------------------------------------------------

    def crafted(self, frozen: bool = True) -> list[tuple[str, dict[str, Any], frozenset[str]]]:
        """Messages of the right shape that the game in its present (frozen) state must refuse,
        with the codes that may refuse them: out of phase, for other seats, for stale rounds,
        host-only, a second commit and seed. Built from the host's own state, once the round's
        deal is done.

        ``frozen=False``: the game runs on while they travel, so only those that stay wrong
        whatever happens meanwhile, each with any refusal code (``REFUSALS``)."""
        host, mole = self.host, self.mole
        assert host is not None and host.table is not None and mole is not None
        game = host.table.game
        rng = self.rng
        r, n, me, turn, phase = game.round, game.players, mole.seat, game.turn, game.phase
        assert me is not None
        mine = list(game.dealt_hand(me))
        out: list[tuple[str, dict[str, Any], frozenset[str]]] = []
        others = [s for s in range(min(6, n + 1)) if s != me]  # a seat n is no seat at all
        other = rng.choice(others)
        seat_cards = game.dealt_hand(other) if other < n else (0,)
        out += [
            ("a bid for another seat", p.bid_msg(other, r, 0), _c("not_your_seat")),
            ("a card for another seat", p.play_msg(other, r, seat_cards[0]), _c("not_your_seat")),
            (
                "trump for another seat",
                p.trump_msg(other, r, rng.randrange(4)),
                _c("not_your_seat"),
            ),
        ]
        if turn != me:  # the very move the seat to act could make, sent by someone else
            legal = rng.choice(game.legal_actions())
            out.append(("another seat's legal move", _action_msg(legal, r), _c("not_your_seat")))
        rounds = game.num_rounds
        # Past rounds, and rounds after the game's last (up to the most a game may have): a
        # round still to come is not stale, only early, and could be current on arrival.
        last = p.MAX_ROUND
        stale = [x for x in (r - 1, 1, rounds + 1, last) if 1 <= x < r or rounds < x <= last]
        junk = rng.randbytes(32)
        if stale:  # (none in round 1 of a game of 20 rounds)
            x = rng.choice(stale)
            out += [
                ("a bid for a stale round", p.bid_msg(me, x, 0), _c("stale_round")),
                ("a card for a stale round", p.play_msg(me, x, mine[0]), _c("stale_round")),
                ("trump for a stale round", p.trump_msg(me, x, 0), _c("stale_round")),
                ("a commit for a stale round", _commit(x, junk), _c("stale_round")),
                ("a seed for a stale round", seed_msg(x, junk), _c("stale_round")),
            ]
        out += [
            ("a commit after the deal", _commit(r, junk), _c("out_of_phase")),
            ("a seed after the deal", seed_msg(r, junk), _c("duplicate")),
        ]
        wrong_phase = _c("wrong_phase")
        if phase is Phase.PLAY:
            out.append(("a bid during play", p.bid_msg(me, r, 0), wrong_phase))
            out.append(("trump during play", p.trump_msg(me, r, 1), wrong_phase))
        elif phase is Phase.BID:
            # Unfrozen, only while the mole's own bid is still to go out behind it: until the
            # host has that bid, the round cannot be in play.
            if frozen or not any(a[:2] == (r, "bid") for a in mole.sent):
                out.append(("a card during bidding", p.play_msg(me, r, mine[0]), wrong_phase))
            out.append(("trump during bidding", p.trump_msg(me, r, 2), wrong_phase))
        else:  # the dealer is to name trump
            if frozen:  # unfrozen, the bidding may have begun by the time they arrive
                out.append(("a bid before trump", p.bid_msg(me, r, 0), wrong_phase))
                out.append(("a card before trump", p.play_msg(me, r, mine[0]), wrong_phase))
            if me != game.dealer:
                trump = p.trump_msg(me, r, 0)
                out.append(("trump by a seat not the dealer", trump, _c("not_your_turn")))
        if turn == me and phase is Phase.PLAY:
            held = game.hand_mask(me)
            gone = [c for c in range(60) if not held >> c & 1]
            out.append(
                ("a card not in hand", p.play_msg(me, r, rng.choice(gone)), _c("card_not_in_hand"))
            )
            legal_plays = set(game.legal_plays())
            revokes = [c for c in mine if held >> c & 1 and c not in legal_plays]
            if revokes and frozen:  # unfrozen, the trick may end and the card be legal next
                out.append(("a revoke", p.play_msg(me, r, revokes[0]), _c("must_follow_suit")))
        if turn == me and phase is Phase.BID:
            over = game.hand_size + 1  # a bid counts the round's cards
            if over <= p.MAX_HAND:
                out.append(("a bid over the round", p.bid_msg(me, r, over), _c("bid_out_of_range")))
            forbidden = _forbidden_bid(game, me)
            if forbidden is not None:
                out.append(
                    ("the forbidden last bid", p.bid_msg(me, r, forbidden), _c("bid_forbidden"))
                )
        key = "".join(rng.choice("hostkéy€✓ ") for _ in range(rng.randrange(1, 40))).strip() or "k"
        out += [
            ("start by a player", {"t": "start"}, _c("not_host")),
            ("add_bot by a player", {"t": "add_bot"}, _c("not_host")),
            ("remove_bot by a player", {"t": "remove_bot", "seat": 0}, _c("not_host")),
            (
                "lobby_settings by a player",
                {
                    "t": "lobby_settings",
                    "seats": 6,
                    "bot_level": "hard",
                    "restrict_last_bid": "never",
                },
                _c("not_host"),
            ),
            ("rematch by a player", {"t": "rematch"}, _c("not_host")),
            ("claim_host with a wrong key", {"t": "claim_host", "key": key}, _c("not_host")),
        ]
        rng.shuffle(out)
        if not frozen:
            out = [(what, msg, REFUSALS) for what, msg, _ in out]
        return out


def _forbidden_bid(game: Any, seat: int) -> int | None:
    return seat_view(game, seat).forbidden_bid


def _action_msg(action: Any, r: int) -> dict[str, Any]:
    if isinstance(action, Play):
        return p.play_msg(action.seat, r, action.card)
    if isinstance(action, Bid):
        return p.bid_msg(action.seat, r, action.bid)
    return p.trump_msg(action.seat, r, int(action.suit))


# -- the checks ------------------------------------------------------------------------------


def applied_actions(host: WizardHost) -> dict[int, list[Action]]:
    """Every action the host's game took, by seat, in order, from its finished rounds."""
    assert host.table is not None
    game = host.table.game
    n = game.players
    out: dict[int, list[Action]] = {s: [] for s in range(n)}
    for res in game.results:
        if res.trump_card is not None and 52 <= res.trump_card < 56:
            assert res.trump_suit is not None
            out[res.dealer].append((res.round, "trump", int(res.trump_suit)))
        for seat, bid in enumerate(res.bids):
            out[seat].append((res.round, "bid", bid))
        for trick in res.tricks:
            for i, card in enumerate(trick.cards):
                out[(trick.leader + i) % n].append((res.round, "play", card))
    return out


def _subsequence(small: list[Action], big: list[Action]) -> bool:
    it = iter(big)
    return all(any(x == y for y in it) for x in small)


def game_problems(arena: Arena, watch: Watch | None = None) -> list[str]:
    """Everything that says an attacker reached the game; empty when nothing did."""
    host = arena.host
    problems: list[str] = []
    if watch is not None:
        problems += watch.problems
    if host is None or host.table is None or not host.table.finished:
        return [*problems, "the game did not finish"]
    if host.failed is not None:
        problems.append(f"host failed: {host.failed}")
    try:
        verified = [*arena.honest, *([arena.mole] if arena.mole else [])]
        assert_game_verified(host, [pl.session for pl in verified])
    except AssertionError as exc:
        problems.append(f"not verified: {exc}")
    applied = applied_actions(host)
    disconnects = getattr(host, "disconnects", [])
    for player in arena.honest:
        dropped = [reason for name, reason in disconnects if name == player.name]
        if dropped:
            problems.append(f"the host dropped {player.name}: {dropped}")
        if player.refused:
            problems.append(f"{player.name} was refused: {player.refused}")
        if player.links != ["connected"]:
            problems.append(f"{player.name}'s link: {player.links}")
        if player.seat is None or applied[player.seat] != player.sent:
            problems.append(f"{player.name}: the host applied actions it did not send")
    mole = arena.mole
    if mole is not None:
        problems += [f"mole: {x}" for x in mole.problems]
        assert mole.seat is not None
        if not _subsequence(applied[mole.seat], mole.sent):
            problems.append("the host applied an action to the mole's seat its bot did not send")
    return problems


# -- strangers ----------------------------------------------------------------------------------
# Each attack opens its own connection(s) and returns what went wrong (None: nothing). Before
# the channel is up the host must say nothing in clear and hang up; after it, it must say one
# encrypted fatal error with the expected code and hang up. Within ``deadline`` seconds: the
# handshake timeout plus a margin, so every attack ends by itself.


async def read_all(reader: asyncio.StreamReader, timeout: float) -> tuple[bytes, float]:
    """Everything until the peer hangs up: (bytes, seconds it took); an assertion fails if it
    does not hang up within ``timeout``."""
    start = time.monotonic()
    data = bytearray()
    try:
        async with asyncio.timeout(timeout):
            try:
                while chunk := await reader.read(65536):
                    data += chunk
            except ConnectionError:
                pass
    except TimeoutError:
        raise AssertionError(
            f"the host did not hang up within {timeout:g} s (it said {bytes(data[:40])!r})"
        ) from None
    return bytes(data), time.monotonic() - start


def _said(data: bytes, what: str) -> str | None:
    return None if not data else f"{what}: the host said {len(data)} bytes in clear"


async def stranger_junk(port: int, junk: bytes, deadline: float) -> str | None:
    """Random bytes before any handshake."""
    reader, writer = await asyncio.open_connection(LOOPBACK, port)
    try:
        writer.write(junk)
        data, _ = await read_all(reader, deadline)
        return _said(data, f"junk {junk[:12]!r}")
    finally:
        writer.transport.abort()


async def silent_stranger(port: int, deadline: float, trickle: bytes = b"") -> float:
    """Opens a connection and sends nothing, or ``trickle`` one byte every 0.3 s: the seconds
    until the host hung up (it must say nothing)."""
    reader, writer = await asyncio.open_connection(LOOPBACK, port)

    async def drip() -> None:
        for byte in trickle:
            await asyncio.sleep(0.3)
            writer.write(bytes([byte]))

    dripping = asyncio.get_running_loop().create_task(drip())
    try:
        data, took = await read_all(reader, deadline)
        assert not data, f"the host said {data[:40]!r} in clear"
        return took
    finally:
        dripping.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await dripping
        writer.transport.abort()


async def junk_mid_handshake(port: int, junk: bytes, deadline: float) -> str | None:
    """A genuine Noise message 1, then junk where message 3 belongs."""
    reader, writer = await asyncio.open_connection(LOOPBACK, port)
    try:
        initiator = SecureInitiator(StaticIdentity.generate(), make_prologue(p.PROTOCOL))
        writer.write(frame(initiator.start()))
        frames = HandshakeReader()
        async with asyncio.timeout(deadline):
            while frames.next_message() is None:
                chunk = await reader.read(65536)
                if not chunk:
                    return "closed before message 2"
                frames.feed(chunk)
        writer.write(junk)
        data, _ = await read_all(reader, deadline)
        return _said(frames.rest() + data, f"junk {junk[:12]!r} as message 3")
    finally:
        writer.transport.abort()


async def in_channel(
    port: int,
    send: Callable[[SecurePeer], None],
    codes: frozenset[str],
    deadline: float,
    what: str,
) -> str | None:
    """A stranger completes the Noise handshake, then does ``send``: the host must answer
    with one encrypted fatal error of one of ``codes``, then hang up."""
    peer = await SecurePeer.connect(port, protocol=p.PROTOCOL)
    try:
        send(peer)
        data, _ = await read_all(peer.reader, deadline)
        msgs = []
        with contextlib.suppress(ProtocolError):
            peer.decoder.receive_data(data)
            while (msg := peer.decoder.next_message()) is not None:
                msgs.append(msg)
        errors = [m for m in msgs if m.get("t") == "error"]
        if len(errors) != 1 or errors[0]["code"] not in codes or errors[0]["fatal"] is not True:
            return f"{what}: expected one fatal {sorted(codes)}, got {msgs}"
        return None
    finally:
        peer.writer.transport.abort()


def hello(name: str = "stranger", token: str | None = None, **changes: Any) -> dict[str, Any]:
    msg = {"t": "hello", "protocol": p.PROTOCOL, "version": p.VERSION, "name": name}
    return {**msg, "token": token, **changes}


async def replayed_session(port: int, recorded: bytes, deadline: float) -> str | None:
    """A recorded client-to-host byte stream (Noise handshake and encrypted frames) replayed
    on a fresh connection: the host answers message 1 with a fresh message 2, and the
    replayed message 3 cannot authenticate against it."""
    reader, writer = await asyncio.open_connection(LOOPBACK, port)
    try:
        writer.write(recorded)
        data, _ = await read_all(reader, deadline)
        frames = HandshakeReader(65535)
        frames.feed(data)
        count = 0
        while frames.next_message() is not None:
            count += 1
        if count > 1 or frames.rest():
            return f"a replayed session got {count} frames and more back"
        return None
    finally:
        writer.transport.abort()


def split_frames(stream: bytes) -> list[bytes]:
    """The length-prefixed frames of a byte stream, whole (prefix included)."""
    out = []
    i = 0
    while i + 4 <= len(stream):
        n = int.from_bytes(stream[i : i + 4], "big")
        if i + 4 + n > len(stream):
            break
        out.append(stream[i : i + 4 + n])
        i += 4 + n
    return out
