"""The network side of a table: a ``TableSession`` that talks to a Wizard host.

It turns the host's messages into typed session updates, takes part in each round's
commit-reveal deal on its own (drawing its seed, checking its commitment, sending the
seed only once every commitment is out), and checks every finished round itself with
a ``RoundChecker``. Intents are queued, never awaited. The Textual table, the headless
network bot and the tests all use this one class.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from typing import Any

from netplay import Client, Limits, LinkState
from netplay.commit_reveal import ClientRound, CommitRevealError
from netplay.errors import ProtocolError
from netplay.fairdeal import new_seed as default_new_seed

from ..game import GameConfig, RestrictLastBid, RoundResult, SeatView, Suit
from ..record import GameRecorder, PlayerEntry
from ..session import (
    ActionRefused,
    ChatLine,
    GameFinished,
    LinkChanged,
    LobbyUpdate,
    RoundVerified,
    SeatInfo,
    SessionUpdate,
    TableUpdate,
)
from . import protocol as p
from .round_check import RoundChecker

log = logging.getLogger("wizard_tui.client")


class NetworkSession:
    def __init__(
        self,
        host: str,
        port: int,
        *,
        name: str,
        host_key: str | None = None,
        limits: Limits = p.LIMITS,
        new_seed: Callable[[], bytes] = default_new_seed,
    ) -> None:
        self.client = Client(
            host, port, protocol=p.PROTOCOL, version=p.VERSION, name=name, limits=limits
        )
        self.name = name
        self._host_key = host_key
        self._new_seed = new_seed
        self._updates: asyncio.Queue[SessionUpdate | None] = asyncio.Queue()
        self._pump: asyncio.Task[None] | None = None
        # The game as this client knows it.
        self.seat: int | None = None
        self.game_id: bytes | None = None
        self.config: GameConfig | None = None
        self.players: list[PlayerEntry] = []
        self.seats: tuple[SeatInfo, ...] = ()
        self.view: SeatView | None = None
        self.history: list[RoundResult] = []
        self.checker: RoundChecker | None = None
        self.recorder: GameRecorder | None = None
        self.verifications: list[RoundVerified] = []
        self.finished: GameFinished | None = None
        self._exchanges: dict[int, ClientRound] = {}
        self._commitments: dict[int, list[bytes]] = {}  # the vectors we accepted, by round
        self._round_views: dict[int, SeatView] = {}

    # ------------------------------------------------------------------ lifecycle

    async def connect(self) -> None:
        """Connect and join; raises ``ServerError`` if refused, ``OSError`` if unreachable."""
        welcome = await self.client.connect()
        self.seat = welcome.get("seat")
        self._pump = asyncio.get_running_loop().create_task(self._run())

    async def close(self) -> None:
        await self.client.close()
        if self._pump is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._pump

    async def updates(self) -> AsyncIterator[SessionUpdate]:
        while True:
            update = await self._updates.get()
            if update is None:
                return
            yield update

    @property
    def all_verified(self) -> bool:
        """True when every finished round of the game was checked and found right."""
        if self.config is None or self.finished is None:
            return False
        rounds = 60 // self.config.players
        ok = [v for v in self.verifications if v.ok]
        return len(ok) == rounds and len(ok) == len(self.verifications)

    # ------------------------------------------------------------------ intents

    def bid(self, bid: int) -> None:
        if self.view is not None:
            self.client.send(p.bid_msg(self.view.seat, self.view.round, bid))

    def play(self, card: int) -> None:
        if self.view is not None:
            self.client.send(p.play_msg(self.view.seat, self.view.round, card))

    def choose_trump(self, suit: Suit) -> None:
        if self.view is not None:
            self.client.send(p.trump_msg(self.view.seat, self.view.round, int(suit)))

    def chat(self, text: str) -> None:
        text = "".join(ch for ch in text if ch.isprintable())[: p.MAX_CHAT].strip()
        if text:
            self.client.send({"t": "chat", "text": text})

    def start_game(self) -> None:
        self.client.send({"t": "start"})

    def add_bot(self) -> None:
        self.client.send({"t": "add_bot"})

    def rematch(self) -> None:
        self.client.send({"t": "rematch"})

    # ------------------------------------------------------------------ receiving

    def _emit(self, update: SessionUpdate) -> None:
        self._updates.put_nowait(update)

    async def _run(self) -> None:
        try:
            async for event in self.client.events():
                if isinstance(event, LinkState):
                    self._emit(LinkChanged(event.state, event.detail))
                    continue
                try:
                    self._handle(event)
                except ProtocolError as exc:
                    # A malformed message from the host: say so, keep going.
                    log.warning("bad message from host: %s", exc.message)
                    self._emit(ActionRefused(exc.code, exc.message))
        finally:
            self._updates.put_nowait(None)

    def _handle(self, msg: dict[str, Any]) -> None:
        handler = _HANDLERS.get(msg.get("t"))  # type: ignore[arg-type]
        if handler is None:
            log.debug("ignoring message %r", msg.get("t"))
            return
        handler(self, msg)

    def _on_welcome(self, msg: dict[str, Any]) -> None:
        seat = msg.get("seat")
        if type(seat) is int:
            self.seat = seat
        if self._host_key is not None:
            self.client.send({"t": "claim_host", "key": self._host_key})

    def _on_lobby(self, msg: dict[str, Any]) -> None:
        seats = msg.get("seats")
        p._expect(type(seats) is list and len(seats) <= 6, "lobby seats")
        you = msg.get("you")
        addresses = msg.get("addresses")
        p._expect(type(addresses) is list and all(type(a) is str for a in addresses), "addresses")
        self._emit(
            LobbyUpdate(
                seats=tuple(p.seat_info_from_wire(s) for s in seats),
                my_seat=you if type(you) is int else None,
                addresses=tuple(addresses),
                port=msg.get("port") if type(msg.get("port")) is int else 0,
                is_host=msg.get("host") is True,
                can_start=msg.get("can_start") is True,
            )
        )

    def _on_game(self, msg: dict[str, Any]) -> None:
        game_id = msg.get("game_id")
        p._expect(type(game_id) is bytes and len(game_id) == 16, "game id")
        players = msg.get("players")
        p._expect(type(players) is list and 3 <= len(players) <= 6, "players")
        try:
            entries = [PlayerEntry(str(pl["name"]), pl["kind"]) for pl in players]
            config = GameConfig(len(entries), msg["first_dealer"], RestrictLastBid(msg["restrict"]))
        except (KeyError, TypeError, ValueError) as exc:
            raise ProtocolError("bad_message", f"the host sent a malformed game: {exc}") from None
        you = msg.get("you")
        if type(you) is int and 0 <= you < len(entries):
            self.seat = you
        self.game_id, self.config, self.players = game_id, config, entries
        self.history = []
        self.verifications = []
        self.finished = None
        self._exchanges.clear()
        self._commitments.clear()
        self._round_views.clear()
        self.view = None
        if self.seat is not None:
            self.checker = RoundChecker(config, self.seat)
            self.recorder = GameRecorder(game_id, entries, config)

    def _on_round(self, msg: dict[str, Any]) -> None:
        r = msg.get("round")
        p._expect(type(r) is int and 1 <= r <= 20, "round number")
        self._start_exchange(r)

    def _start_exchange(self, r: int) -> ClientRound | None:
        if self.game_id is None or self.config is None or self.seat is None:
            return None
        exchange = self._exchanges.get(r)
        if exchange is None:
            exchange = ClientRound(
                self.game_id, r, self.seat, self.config.players, new_seed=self._new_seed
            )
            self._exchanges[r] = exchange
        self.client.send(exchange.commit_message())
        return exchange

    def _on_commitments(self, msg: dict[str, Any]) -> None:
        r = msg.get("round")
        exchange = self._exchanges.get(r)  # type: ignore[arg-type]
        if exchange is None:
            return
        try:
            exchange.receive_commitments(msg)
        except CommitRevealError as exc:
            # The host changed our commitment or sent a bad vector: never reveal into it.
            self._verification(RoundVerified(exchange.round, False, exc.message))
            return
        self._commitments[exchange.round] = list(msg["commitments"])
        self.client.send(exchange.seed_message())

    def _on_state(self, msg: dict[str, Any]) -> None:
        view = p.view_from_wire(msg.get("view"), tuple(self.history))
        seats = msg.get("seats")
        p._expect(type(seats) is list, "seats")
        self.seats = tuple(s for s in (p.seat_info_from_wire(x) for x in seats) if s is not None)
        events_wire = msg.get("events")
        p._expect(type(events_wire) is list, "events")
        events = [p.event_from_wire(e, view.players) for e in events_wire]
        self.seat = view.seat
        self.view = view
        if view.round >= 1:
            self._round_views[view.round] = view
        self._emit(TableUpdate(view=view, seats=self.seats, events=tuple(e for e in events if e)))

    def _on_seats(self, msg: dict[str, Any]) -> None:
        seats = msg.get("seats")
        p._expect(type(seats) is list, "seats")
        self.seats = tuple(s for s in (p.seat_info_from_wire(x) for x in seats) if s is not None)
        if self.view is not None:
            self._emit(TableUpdate(view=self.view, seats=self.seats))

    def _on_round_end(self, msg: dict[str, Any]) -> None:
        if self.config is None:
            return
        result, seeds = p.result_from_wire(msg.get("result"), self.config.players)
        self._check_round(result, seeds)

    def _check_round(self, result: RoundResult, seeds: list[bytes]) -> None:
        self.history.append(result)
        if self.checker is not None:
            outcome = self.checker.check(
                self._exchanges.get(result.round),
                result,
                seeds,
                self._round_views.get(result.round),
            )
            self._verification(RoundVerified(outcome.round, outcome.ok, outcome.detail))
            if self.recorder is not None and outcome.ok:
                self.recorder.add_round(result, self._commitments[result.round], seeds)
        if self.view is not None:
            self.view = _with_history(self.view, tuple(self.history))

    def _verification(self, result: RoundVerified) -> None:
        self.verifications.append(result)
        self._emit(result)

    def _on_refused(self, msg: dict[str, Any]) -> None:
        self._emit(ActionRefused(str(msg.get("code", "?"))[:64], str(msg.get("message", ""))[:300]))

    def _on_error(self, msg: dict[str, Any]) -> None:
        if msg.get("fatal") is not True:  # fatal ones end the link and arrive as LinkState
            self._on_refused(msg)

    def _on_chat(self, msg: dict[str, Any]) -> None:
        seat = msg.get("seat")
        name = msg.get("name")
        text = msg.get("text")
        if type(name) is str and type(text) is str:
            self._emit(ChatLine(seat if type(seat) is int else None, name[:64], text[: p.MAX_CHAT]))

    def _on_game_over(self, msg: dict[str, Any]) -> None:
        totals = msg.get("totals")
        winners = msg.get("winners")
        p._expect(type(totals) is list and type(winners) is list, "game over")
        record = msg.get("record")
        self.finished = GameFinished(
            tuple(int(t) for t in totals),
            tuple(int(w) for w in winners),
            record if type(record) is str else None,
        )
        self._emit(self.finished)

    def _on_snapshot(self, msg: dict[str, Any]) -> None:
        game = msg.get("game")
        p._expect(type(game) is dict, "snapshot game")
        if self.game_id != game.get("game_id"):
            self._on_game(game)  # a new client, or the host started a rematch meanwhile
        assert self.config is not None
        history = msg.get("history")
        p._expect(type(history) is list, "snapshot history")
        for wire in history[len(self.history) :]:
            result, seeds = p.result_from_wire(wire, self.config.players)
            self._check_round(result, seeds)
        if msg.get("view") is not None:
            self._on_state({"view": msg["view"], "seats": msg.get("seats"), "events": []})
        deal = msg.get("deal")
        if type(deal) is dict and type(deal.get("round")) is int:
            exchange = self._exchanges.get(deal["round"])
            if exchange is None:
                return  # our seed for it is lost: the host must redeal
            if deal.get("committed") is not True:
                self.client.send(exchange.commit_message())
            elif deal.get("commitments") is not None and deal.get("seed_received") is not True:
                if deal["round"] not in self._commitments:
                    self._on_commitments(
                        {
                            "t": "commitments",
                            "round": deal["round"],
                            "commitments": deal["commitments"],
                        }
                    )
                else:
                    self.client.send(exchange.seed_message())


def _with_history(view: SeatView, history: tuple[RoundResult, ...]) -> SeatView:
    return replace(view, history=history)


_HANDLERS: dict[str, Callable[[NetworkSession, dict[str, Any]], None]] = {
    "welcome": NetworkSession._on_welcome,
    "lobby": NetworkSession._on_lobby,
    "game": NetworkSession._on_game,
    "round": NetworkSession._on_round,
    "commitments": NetworkSession._on_commitments,
    "state": NetworkSession._on_state,
    "seats": NetworkSession._on_seats,
    "round_end": NetworkSession._on_round_end,
    "refused": NetworkSession._on_refused,
    "error": NetworkSession._on_error,
    "chat": NetworkSession._on_chat,
    "game_over": NetworkSession._on_game_over,
    "snapshot": NetworkSession._on_snapshot,
}
