"""The network side of a table: a ``TableSession`` that talks to a Wizard host.

It turns the host's messages into typed session updates, takes part in each round's
commit-reveal deal on its own (drawing its seed, checking its commitment, sending the
seed only once every commitment is out), and checks every finished round itself with
a ``RoundChecker``. Intents are queued, never awaited. The Textual table, the headless
network bot and the tests all use this one class.

The connection is encrypted and authenticated (netplay's Noise XX): ``identity`` is this
player's static key, ``known_hosts`` pins each host's key on first use and refuses a changed
one loudly (``HostKeyChanged`` from ``connect``, or a closed link on a reconnect), and
``password`` is the room password if the host set one. After the first welcome the session
tells the player the host's fingerprint (``host_fingerprint``; a ``ChatLine`` from seat None
when it pinned or checked the key, or is the host's own table; every ``LobbyUpdate``), so it
can be compared with the host's screen.
"""

from __future__ import annotations

import asyncio
import logging
from collections import deque
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, Generic, TypeVar

from netplay import Client, KnownHosts, Limits, LinkState, StaticIdentity
from netplay.commit_reveal import ClientRound, CommitRevealError
from netplay.errors import ProtocolError
from netplay.fairdeal import new_seed as default_new_seed
from netplay.signing import SigningKey

from ..game import Bid, ChooseTrump, GameConfig, Play, RestrictLastBid, RoundResult, SeatView, Suit
from ..record import PRIVATE_PROTOCOL, GameRecorder, PlayerEntry
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
from .away_player import AwayPlayer, is_away
from .own_record import OwnRecord
from .private_client import SecretStore
from .private_session import PrivateSeat
from .round_check import RoundChecker, cards_shown
from .takeover import AwayRound

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
        identity: StaticIdentity | None = None,
        known_hosts: KnownHosts | None = None,
        password: str | None = None,
        server_key: bytes | None = None,
        signing_key: SigningKey | None = None,
        secret_store: SecretStore | None = None,
        records_dir: Path | None = None,
    ) -> None:
        # host_key: the secret that makes this table the host's own (claim_host);
        # server_key: the host's static public key when known in advance (checked like a pin).
        # records_dir: where this player's own record of the game is written after every
        # round (None: kept in memory only, as on the host's own table, whose host writes it).
        self.records_dir = records_dir
        self.own: OwnRecord | None = None  # this seat's record of the game in progress
        self.client = Client(
            host,
            port,
            protocol=p.PROTOCOL,
            version=p.VERSION,
            name=name,
            limits=limits,
            identity=identity,
            known_hosts=known_hosts,
            password=password,
            server_key=server_key,
        )
        self.name = name
        self._host_key = host_key
        self._new_seed = new_seed
        self._updates: _Mailbox[SessionUpdate | None] = _Mailbox()
        # The game as this client knows it.
        self.seat: int | None = None
        self.game_id: bytes | None = None
        self.config: GameConfig | None = None
        self.players: list[PlayerEntry] = []
        self.seats: tuple[SeatInfo, ...] = ()
        self._seats_wire: list[Any] | None = None  # what ``seats`` was parsed from
        self.view: SeatView | None = None
        self._views = p.ViewReader()  # checks each state's view, the round's tricks once
        self.history: list[RoundResult] = []
        self.checker: RoundChecker | None = None
        self.recorder: GameRecorder | None = None
        self.verifications: list[RoundVerified] = []
        self.finished: GameFinished | None = None
        self._exchanges: dict[int, ClientRound] = {}
        self._commitments: dict[int, list[bytes]] = {}  # the vectors we accepted, by round
        # Rounds the host dealt for this seat while a bot held it (takeover.py), and those
        # of them whose commitments are still to come.
        self._away: dict[int, AwayRound] = {}
        self._away_pending: set[int] = set()
        self._round_views: dict[int, SeatView] = {}
        # Per round, each view whose cards or trump card differed from the view before it.
        self._dealt_views: dict[int, list[SeatView]] = {}
        self._last_shown: tuple[int, frozenset[int], int | None] | None = None
        # The private deal (docs/private-deal.md): this player's signing key (persistent
        # for a real player: wizard_tui.net.keys) and its part in each round.
        self.private = PrivateSeat(self, signing_key or SigningKey.generate(), secret_store)
        self._away_player = AwayPlayer()

    # ------------------------------------------------------------------ lifecycle

    async def connect(self) -> None:
        """Connect and join; raises ``ServerError`` if refused, ``OSError`` if unreachable."""
        # Each event is handled as the client decodes it, with no task hop in between.
        self.client.set_handler(self._on_event)
        welcome = await self.client.connect()
        self.seat = welcome.get("seat")

    async def close(self) -> None:
        await self.client.close()

    async def updates(self) -> AsyncIterator[SessionUpdate]:
        while True:
            update = await self._updates.get()
            if update is None:
                return
            yield update

    @property
    def host_fingerprint(self) -> str | None:
        """The host's key fingerprint as the handshake proved it, once connected."""
        return self.client.server_fingerprint

    def host_key_notice(self) -> str:
        """One line for the player about the host's key: compare it with the host's screen."""
        fp = self.client.server_fingerprint
        if fp is None:
            return "not connected yet: no host fingerprint"
        if self._host_key is not None:  # the host's own table
            return f"host fingerprint {fp}: players who join must see the same"
        status = self.client.pin_status
        if status == "new":
            return (
                f"host fingerprint {fp}, pinned for {self.client.label}: "
                "check that the host's screen shows the same"
            )
        if status == "known":
            return f"host fingerprint {fp}, matches the key pinned for {self.client.label}"
        return f"host fingerprint {fp} (not pinned)"

    @property
    def record_path(self) -> Path | None:
        """Where this player's own record was last written."""
        return None if self.own is None else self.own.path

    async def record_settled(self, timeout: float = 10.0) -> bool:
        """Wait (up to ``timeout`` s, while the link is up) until this player's record holds
        every round that is over: the host's parts of rounds it missed may still be on the
        way when the game ends. True once it does."""
        loop = asyncio.get_running_loop()
        end = loop.time() + timeout
        while self.own is not None and self.own.waiting:
            if loop.time() >= end or self.client.state == "closed":
                return False
            await asyncio.sleep(0.02)
        return True

    @property
    def all_verified(self) -> bool:
        """True when every finished round of the game was checked and found right."""
        if self.config is None or self.finished is None:
            return False
        rounds = 60 // self.config.players
        ok = [v for v in self.verifications if v.ok]
        return len(ok) == rounds and len(ok) == len(self.verifications)

    # ------------------------------------------------------------------ intents

    def bid(self, bid: int, *, auto: bool = False) -> None:
        if self.view is not None:
            self.client.send(_auto(p.bid_msg(self.view.seat, self.view.round, bid), auto))

    def play(self, card: int, *, auto: bool = False) -> None:
        if self.view is not None:
            msg = _auto(p.play_msg(self.view.seat, self.view.round, card), auto)
            if self.private.active:
                opened = self.private.open_card(card)  # the card's key goes with it (K4)
                if opened is None:
                    self._emit(ActionRefused("card_not_in_hand", "that card is not in your hand"))
                    return
                msg["open"] = opened
            self.client.send(msg)
            self.private.settle()  # our last card of the round: our reveal follows it

    def choose_trump(self, suit: Suit, *, auto: bool = False) -> None:
        if self.view is not None:
            self.client.send(_auto(p.trump_msg(self.view.seat, self.view.round, int(suit)), auto))

    def here(self) -> None:
        """The player is at the keyboard: an away seat (the turn time ran out) is theirs
        again. A table sends it at any key press while its seat is away."""
        self.client.send({"t": "here"})

    def hand_to_bot(self, seat: int) -> None:
        """Host only: a bot decides for ``seat`` until its player presses a key."""
        self.client.send({"t": "hand_to_bot", "seat": seat})

    @property
    def away(self) -> bool:
        """The host marked this seat away: a bot decides for it until the player is back."""
        return is_away(self.seats, self.seat)

    def _play_if_away(self) -> None:
        # A private deal: only this program knows the hand, so it decides for its away
        # player (away_player.py); commit-reveal: the host's bot does.
        view = self.view
        if view is None or not self.private.active:
            return
        if not self.away:
            self._away_player.forget()
            return
        action = self._away_player.move(view, len(self.private.voids))
        if isinstance(action, Play):
            self.play(action.card, auto=True)
        elif isinstance(action, Bid):
            self.bid(action.bid, auto=True)
        elif isinstance(action, ChooseTrump):
            self.choose_trump(action.suit, auto=True)

    def chat(self, text: str) -> None:
        text = "".join(ch for ch in text if ch.isprintable())[: p.MAX_CHAT].strip()
        if text:
            self.client.send({"t": "chat", "text": text})

    def start_game(self) -> None:
        self.client.send({"t": "start"})

    def add_bot(self) -> None:
        self.client.send({"t": "add_bot"})

    def remove_bot(self, seat: int) -> None:
        self.client.send({"t": "remove_bot", "seat": seat})

    def lobby_settings(self, seats: int, bot_level: str, restrict_last_bid: str) -> None:
        self.client.send(
            {
                "t": "lobby_settings",
                "seats": seats,
                "bot_level": bot_level,
                "restrict_last_bid": restrict_last_bid,
            }
        )

    def rematch(self) -> None:
        self.client.send({"t": "rematch"})

    # ------------------------------------------------------------------ receiving

    def _emit(self, update: SessionUpdate) -> None:
        self._updates.put_nowait(update)

    def _on_event(self, event: dict[str, Any] | LinkState) -> None:
        if isinstance(event, LinkState):
            self._emit(LinkChanged(event.state, event.detail))
            if event.state == "closed":  # always the client's last event
                self._updates.put_nowait(None)
            return
        try:
            self._handle(event)
        except ProtocolError as exc:
            # A malformed message from the host: say so, keep going.
            log.warning("bad message from host: %s", exc.message)
            self._emit(ActionRefused(exc.code, exc.message))

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
        pinning = self.client.pin_status in ("new", "known") or self._host_key is not None
        if msg.get("resumed") is not True and pinning:
            # A note from this program (seat None), not a player's chat. A session made
            # without known hosts (tests, scripts) pins nothing and has nothing to report.
            self._emit(ChatLine(None, "host key", self.host_key_notice()))
        if self._host_key is not None:
            self.client.send({"t": "claim_host", "key": self._host_key})

    def _on_lobby(self, msg: dict[str, Any]) -> None:
        if msg.get("deal") == p.DEAL_PRIVATE:
            self.private.lobby()  # our signing key, once
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
                fingerprint=self.host_fingerprint or "",
                **_lobby_settings(msg, len(seats)),
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
        self._away.clear()
        self._away_pending.clear()
        self._round_views.clear()
        self._dealt_views.clear()
        self._last_shown = None
        self.view = None
        self._views = p.ViewReader()
        self.private.game(msg, len(entries))
        if self.seat is not None:
            self.checker = RoundChecker(config, self.seat)
            if self.private.active:
                recorder = GameRecorder(
                    game_id,
                    entries,
                    config,
                    protocol=PRIVATE_PROTOCOL,
                    signing_keys=self.private.signing_keys,
                )
            else:
                recorder = GameRecorder(game_id, entries, config)
            # An earlier run of this program may have recorded this game: carry its file on.
            self.own = OwnRecord.open(
                recorder,
                config,
                self.seat,
                self.records_dir,
                send=self.client.send,
                on_error=lambda text: self._emit(ChatLine(None, "record", text)),
            )
            self.recorder = self.own.recorder

    def _on_round(self, msg: dict[str, Any]) -> None:
        r = msg.get("round")
        p._expect(type(r) is int and 1 <= r <= 20, "round number")
        if self.private.active:
            self.private.round(msg)
            return
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
            if r in self._away_pending:
                self._away_round(r, msg.get("commitments"))  # type: ignore[arg-type]
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
        view = self._views.read(msg.get("view"), tuple(self.history))
        self._set_seats(msg.get("seats"))
        events_wire = msg.get("events")
        p._expect(type(events_wire) is list, "events")
        events = [p.event_from_wire(e, view.players) for e in events_wire]
        self.seat = view.seat
        view = self.private.merge(view)  # our own hand, which only we know
        self.view = view
        if view.round >= 1:
            self._round_views[view.round] = view
            shown = _deal_shown(view)
            if shown != self._last_shown:
                self._last_shown = shown
                self._dealt_views.setdefault(view.round, []).append(view)
        self._emit(TableUpdate(view, self.seats, tuple(filter(None, events))))
        self._play_if_away()

    def _set_seats(self, seats: Any) -> None:
        p._expect(type(seats) is list, "seats")
        if seats != self._seats_wire:  # the same in nearly every state: parse it once
            self.seats = tuple(s for s in map(p.seat_info_from_wire, seats) if s is not None)
            self._seats_wire = seats

    def _on_seats(self, msg: dict[str, Any]) -> None:
        self._set_seats(msg.get("seats"))
        if self.view is not None:
            self._emit(TableUpdate(view=self.view, seats=self.seats))
            self._play_if_away()

    def _on_round_end(self, msg: dict[str, Any]) -> None:
        if self.config is None:
            return
        result, seeds = p.result_from_wire(msg.get("result"), self.config.players)
        if self.private.active:
            self.history.append(result)
            self.private.round_end(result, charges=p.charges_from_wire(msg.get("charges"), result))
            if self.view is not None:
                self.view = _with_history(self.view, tuple(self.history))
            return
        self._check_round(result, seeds)

    def _check_round(self, result: RoundResult, seeds: list[bytes]) -> None:
        self.history.append(result)
        away = self._away.get(result.round)
        if self.checker is not None:
            outcome = self.checker.check(
                away or self._exchanges.get(result.round),  # type: ignore[arg-type]
                result,
                seeds,
                self._round_views.get(result.round),
                self._dealt_views.get(result.round, ()),
            )
            detail = outcome.detail
            checked = True
            if outcome.ok and self.own is not None and result.round in self.own.earlier:
                # Not away: this program restarted, and its last run checked the round
                # live and recorded it (own_record.py). It stays checked.
                detail = (
                    f"round {outcome.round}: checked by an earlier run of this program "
                    "(it is in your record)"
                )
            elif away is not None:
                detail += f" (dealt while you were away: {away.how})"
                # No seed of ours is in this deal and its commitments reached us only with
                # or after it, so they prove nothing: consistent is all it can be, never
                # "checked" (docs/protocol.md, Seat takeover). A mismatch is still a failure.
                checked = not outcome.ok
                if outcome.ok:
                    detail = (
                        f"round {outcome.round}: dealt while you were away ({away.how}): "
                        "its commitments came after the deal, so the deal is not checked; "
                        "the hands, plays and scores are consistent"
                    )
            self._verification(RoundVerified(outcome.round, outcome.ok, detail, checked))
            # Recorded as published, verified or not (a failure is in the record too, and
            # ``verify`` then finds it again); not without the commitments we saw.
            commitments = self._commitments.get(result.round)
            if commitments is not None:
                self.record_round(result.round, lambda r: r.add_round(result, commitments, seeds))
        if self.view is not None:
            self.view = _with_history(self.view, tuple(self.history))

    def _verification(self, result: RoundVerified) -> None:
        self.verifications.append(result)
        if not result.ok and self.recorder is not None:
            # docs/fairness.md: a failure is shown to the player and written to the record.
            self.recorder.add_verification_failure(result.round, self.seat, result.detail)
            self.save_record()
        self._emit(result)

    def record_round(self, round_number: int, add: Callable[[GameRecorder], None]) -> None:
        """Add a finished commit-reveal round to this player's own record (``add(recorder)``)
        and write it; rounds run 1, 2, 3... (own_record.py)."""
        if self.own is not None:
            self.own.commit_reveal_round(round_number, add)

    def save_record(self) -> None:
        """Write this player's own record (atomically), once it has a round."""
        if self.own is not None:
            self.own.save()

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
        if self.view is not None:
            # The last round's result came after the last state (round_end): the table's
            # final view must hold it, or its score pad stops a round short.
            self._emit(TableUpdate(view=self.view, seats=self.seats))
        self._emit(self.finished)

    def _on_snapshot(self, msg: dict[str, Any]) -> None:
        game = msg.get("game")
        p._expect(type(game) is dict, "snapshot game")
        if self.game_id != game.get("game_id"):
            self._on_game(game)  # a new client, or the host started a rematch meanwhile
        assert self.config is not None
        if self.own is not None:
            self.own.reconnected()  # a record part cut off with the link is asked again
        history = msg.get("history")
        p._expect(type(history) is list, "snapshot history")
        for wire in history[len(self.history) :]:
            result, seeds = p.result_from_wire(wire, self.config.players)
            if self.private.active:
                self.history.append(result)
                if self.own is not None and result.round in self.own.earlier:
                    self.private.earlier_round(result)  # this program's last run checked it
                else:
                    self.private.round_end(result, away=True)  # it ended while we were away
                continue
            earlier = self.own is not None and result.round in self.own.earlier
            self._missed_round(result.round, wire, earlier)
            self._check_round(result, seeds)
        if msg.get("view") is not None:
            self._on_state({"view": msg["view"], "seats": msg.get("seats"), "events": []})
        deal = msg.get("deal")
        if self.private.active:
            self.private.snapshot(deal)
            return
        if type(deal) is dict and type(deal.get("round")) is int:
            r = deal["round"]
            p._expect(1 <= r <= p.MAX_ROUND, "snapshot deal round")
            if deal.get("drawn") is True:  # a bot held our seat when this round was dealt
                self._exchanges.pop(r, None)
                self._away_pending.add(r)
                if deal.get("commitments") is not None:
                    self._on_commitments(
                        {"t": "commitments", "round": r, "commitments": deal["commitments"]}
                    )
                return
            exchange = self._exchanges.get(r)
            if exchange is None:
                if deal.get("committed") is not True:
                    # The round began while we were away: draw a seed and commit now.
                    self._start_exchange(r)
                elif deal.get("commitments") is not None and deal.get("seed_received") is True:
                    # An earlier run of this program dealt it (this one restarted and came
                    # back by its key): replay it as a round dealt away (not checked).
                    self._away_round(r, deal["commitments"], AwayRound.EARLIER_RUN)
                return  # else our seed for it is lost: the host must redeal
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

    # -- rounds dealt while this seat was away (takeover.py) ----------------------------------

    def _on_redeal(self, msg: dict[str, Any]) -> None:
        """The host threw a deal away (a seat that had to reveal was taken over): forget our
        seed for it, so the new deal gets a fresh one, and keep the discarded deal."""
        r = msg.get("round")
        if type(r) is not int:
            return
        self._exchanges.pop(r, None)
        self._commitments.pop(r, None)
        commitments, seeds = msg.get("commitments"), msg.get("seeds")
        if (
            self.recorder is not None
            and type(commitments) is list
            and type(seeds) is list
            and len(commitments) == len(seeds) == len(self.recorder.players)
            and all(type(c) is bytes and len(c) == 32 for c in commitments)
            and all(s is None or (type(s) is bytes and len(s) == 32) for s in seeds)
        ):
            reason = msg.get("reason")
            self.recorder.add_redeal(r, commitments, seeds, reason if type(reason) is str else "")
            self.save_record()

    def _missed_round(self, r: int, wire: dict[str, Any], earlier: bool = False) -> None:
        """A round that ended while we were away: if our program took no part in its deal
        (no seed of ours, or the host redealt it), check it with its commitments.
        ``earlier``: an earlier run of this program played it (it is in our record)."""
        commitments = wire.get("commitments")
        if r in self._away or type(commitments) is not list or self.seat is None:
            return
        exchange = self._exchanges.get(r)
        if exchange is None or (
            len(commitments) > self.seat and commitments[self.seat] != exchange.commitment
        ):
            self._exchanges.pop(r, None)
            self._away_round(r, commitments, AwayRound.EARLIER_RUN if earlier else AwayRound.DRAWN)

    def _away_round(self, r: int, commitments: Any, how: str = AwayRound.DRAWN) -> None:
        if self.game_id is None or self.config is None:
            return
        p._expect(
            type(commitments) is list
            and len(commitments) == self.config.players
            and all(type(c) is bytes and len(c) == 32 for c in commitments),
            "commitments",
        )
        self._away_pending.discard(r)
        self._away[r] = AwayRound(self.game_id, r, commitments, how)
        self._commitments[r] = list(commitments)


T = TypeVar("T")


class _Mailbox(Generic[T]):
    """The updates for the player's task, in order: an unbounded FIFO that wakes its one
    reader. What ``asyncio.Queue`` does here with several calls per update (its counters,
    its event, its lists of waiters), on the path of every message (docs/performance.md,
    latency), in one append and at most one future."""

    def __init__(self) -> None:
        self._items: deque[T] = deque()
        self._waiter: asyncio.Future[None] | None = None

    def put_nowait(self, item: T) -> None:
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None:
            self._waiter = None
            if not waiter.done():
                waiter.set_result(None)

    async def get(self) -> T:
        while not self._items:
            self._waiter = asyncio.get_running_loop().create_future()
            await self._waiter
        return self._items.popleft()

    def qsize(self) -> int:
        return len(self._items)


def _auto(msg: dict[str, Any], auto: bool) -> dict[str, Any]:
    if auto:
        msg["auto"] = True  # decided by this program for its away player
    return msg


def _deal_shown(view: SeatView) -> tuple[int, frozenset[int], int | None]:
    return view.round, cards_shown(view), view.trump_card


def _lobby_settings(msg: dict[str, Any], seats: int) -> dict[str, Any]:
    """The lobby's settings and bots' levels, where the host sent them well formed."""
    settings = msg.get("settings")
    settings = settings if type(settings) is dict else {}
    level, restrict = settings.get("bot_level"), settings.get("restrict_last_bid")
    levels = msg.get("levels")
    if type(levels) is not list or len(levels) != seats:
        levels = [None] * seats
    return {
        "bot_level": level[:16] if type(level) is str else "",
        "restrict_last_bid": restrict[:32] if type(restrict) is str else "",
        "levels": tuple(lv[:16] if type(lv) is str else None for lv in levels),
    }


def _with_history(view: SeatView, history: tuple[RoundResult, ...]) -> SeatView:
    return replace(view, history=history)


_HANDLERS: dict[str, Callable[[NetworkSession, dict[str, Any]], None]] = {
    "welcome": NetworkSession._on_welcome,
    "lobby": NetworkSession._on_lobby,
    "game": NetworkSession._on_game,
    "round": NetworkSession._on_round,
    "commitments": NetworkSession._on_commitments,
    "redeal": NetworkSession._on_redeal,
    "state": NetworkSession._on_state,
    "seats": NetworkSession._on_seats,
    "round_end": NetworkSession._on_round_end,
    "refused": NetworkSession._on_refused,
    "error": NetworkSession._on_error,
    "chat": NetworkSession._on_chat,
    "game_over": NetworkSession._on_game_over,
    "snapshot": NetworkSession._on_snapshot,
    "deal": lambda session, msg: session.private.on_deal(msg),
    "transcript": lambda session, msg: session.private.on_transcript(msg),
    "void": lambda session, msg: session.private.on_void(msg),
    "record_part": lambda session, msg: session.own.on_part(msg) if session.own else None,
}
