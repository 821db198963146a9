"""The network side of a table: a ``TableSession`` that talks to a Wizard host.

It turns the host's messages into typed session updates, queues the player's intents (never
awaited), and keeps the player's own record and round checks. How each round's cards reach
the seat is the deal kind's seat half (``deals/seat_half.py``), chosen by the deal the host
names: it sees this session only through a ``SeatPort``. The Textual table, the headless
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
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar, Generic, TypeVar, cast

from netplay import Client, KnownHosts, Limits, LinkState, StaticIdentity
from netplay.errors import ProtocolError
from netplay.fairdeal import new_seed as default_new_seed
from netplay.signing import SigningKey

from ..game import (
    Bid,
    ChooseTrump,
    GameConfig,
    Phase,
    Play,
    PlayerAction,
    RoundResult,
    SeatView,
    Suit,
    TableRules,
)
from ..game.actions import AdjustBid, Declare, NameTrump, PassCard, SwapCard
from ..game.rules import MAX_PLAYERS, MIN_PLAYERS
from ..game.specials import SPECIALS
from ..i18n import _
from ..record import GAME_ID_BYTES, GameRecorder, PlayerEntry
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
from ..verify_special import bids_made
from . import protocol as p
from .away_player import AwayPlayer, is_away
from .deals import COMMIT_REVEAL, DealKind, find_deal_kind
from .deals.seat_half import SeatHalf, SeatSettings, SecretKeeper
from .decisions import decision_key
from .link_texts import announcement_text, link_text
from .own_record import OwnRecord
from .round_check import RoundChecker, RoundViews
from .sealed_seat import SealedSeat
from .wire_check import a_dict, a_list, bytes_of, expect, strings

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
        secret_store: SecretKeeper | None = None,
        records_dir: Path | None = None,
        watch: bool = False,
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
            watch=watch,
        )
        # A spectator (watchers.py): no seat, no deal of its own, no intent but chat; its
        # views have no hand (``ViewReader(watching=True)`` refuses one that has).
        self.watching = watch
        self.name = name
        self._host_key = host_key
        # What the player brings to every deal: a seed source, the signing key of the private
        # deal (persistent for a real player: wizard_tui.net.keys), where round secrets go.
        self.settings = SeatSettings(new_seed, signing_key or SigningKey.generate(), secret_store)
        self._updates: _Mailbox[SessionUpdate | None] = _Mailbox()
        # The game as this client knows it.
        self.seat: int | None = None
        self.game_id: bytes | None = None
        self.config: GameConfig | None = None
        self.players: list[PlayerEntry] = []
        self.seats: tuple[SeatInfo, ...] = ()
        self._seats_wire: list[Any] | None = None  # what ``seats`` was parsed from
        self.view: SeatView | None = None
        self._views = p.ViewReader(
            watching=watch
        )  # checks each state's view, the round's tricks once
        self._round_views = RoundViews()  # what each round showed: its check's evidence
        self.history: list[RoundResult] = []
        self.checker: RoundChecker | None = None
        self.recorder: GameRecorder | None = None
        self.verifications: list[RoundVerified] = []
        self.finished: GameFinished | None = None
        self._port = _SessionPort(
            self, self._round_views, emit=self._emit, verified=self._verification
        )
        # The deal's seat half: commit-reveal (what a host that names no deal deals) until
        # the host's lobby or game names another.
        self._kind: DealKind = COMMIT_REVEAL
        self.seat_half: SeatHalf = self._new_seat_half(COMMIT_REVEAL)
        self._away_player = AwayPlayer()
        # Hidden bids (sealed_seat.py): our seal and opening, and the check of every bid.
        self.sealed_bids = SealedSeat(self._send_sealed)
        # The decision (its key) an intent of ours (a bid, a card, trump) last answered: a
        # second one for it is never sent (_may_send); a refusal, a link change or a new
        # game opens it again.
        self._answered: tuple[object, ...] | None = None

    def _new_seat_half(self, kind: DealKind) -> SeatHalf:
        """The seat half of ``kind`` for this session (a test's subclass may wrap it)."""
        half: SeatHalf = kind.seat(self._port)
        return half

    def _seat_half_for(self, name: Any) -> SeatHalf | None:
        """The seat half of the deal the host named (None: commit-reveal, as hosts before
        private games named none); None for a deal this program does not know."""
        kind = _known_kind(name)
        if kind is None:
            return None
        if kind is not self._kind:
            self._kind = kind
            self.seat_half = self._new_seat_half(kind)
        return self.seat_half

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
            return _("not connected yet: no host fingerprint")
        if self._host_key is not None:  # the host's own table
            return _("host fingerprint {fp}: players who join must see the same").format(fp=fp)
        status, label = self.client.pin_status, self.client.label
        if status == "new":
            said = _(
                "host fingerprint {fp}, pinned for {host}: check that the host's screen shows "
                "the same"
            )
        elif status == "known":
            said = _("host fingerprint {fp}, matches the key pinned for {host}")
        else:
            said = _("host fingerprint {fp} (not pinned)")
        return said.format(fp=fp, host=label)

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
        ok = [v for v in self.verifications if v.ok]
        rounds = len(self.config.rules.round_sizes(self.config.players))
        return len(ok) == rounds and len(ok) == len(self.verifications)

    @property
    def voided_attempts(self) -> int:
        """Deals of this game voided so far: a decision's position moves on with each."""
        return self.seat_half.voided_attempts

    # ------------------------------------------------------------------ intents

    def _intent(self, msg: dict[str, Any]) -> None:
        """Send a seat's intent: a watcher has none (it may only chat)."""
        if not self.watching:
            self.client.send(msg)

    def bid(self, bid: int, *, auto: bool = False) -> None:
        view = self.view
        if view is None:
            return
        if view.rules.hidden_bids and self.game_id is not None and not self.watching:
            key = (view.round, self.seat_half.bid_attempt)
            if self.sealed_bids.seal(self.game_id, view.seat, key, bid, auto=auto):
                self._show_sealing()
            return
        if self._may_send(Phase.BID, auto):
            self._decision(_auto(p.bid_msg(view.seat, view.round, bid), auto))

    def _send_sealed(self, msg: dict[str, Any]) -> None:
        self.client.send(msg)

    def _show_sealing(self) -> None:
        """Hidden bids: the table redraws with who has sealed (our own bid shown to us)."""
        view = self.view
        if view is None or self.watching:
            return
        attempt = self.seat_half.bid_attempt
        self.view = view = self.sealed_bids.view_for_table(view, attempt)
        sealed = self.sealed_bids.sealed_seats(view, attempt)
        self._emit(TableUpdate(view, self.seats, sealed=sealed))

    def _on_bid_sealed(self, msg: dict[str, Any]) -> None:
        if self.config is None:
            return
        self.sealed_bids.on_sealed(msg, self.config.players, None if self.watching else self.seat)
        self._show_sealing()

    def _on_bid_seals(self, msg: dict[str, Any]) -> None:
        if self.config is None:
            return
        if self.watching or self.seat is None:
            self.sealed_bids.on_sealed(
                {**msg, "sealed": list(range(self.config.players))}, self.config.players, None
            )
            return
        problem = self.sealed_bids.on_seals(msg, self.config.players, self.seat)
        if problem is not None:
            self._bid_problem(problem)
        self._show_sealing()

    def _on_bids_open(self, msg: dict[str, Any]) -> None:
        if self.config is None or self.game_id is None:
            return
        seat = self.seat if self.seat is not None else -1
        revealed, problem = self.sealed_bids.on_reveal(msg, self.config.players, seat, self.game_id)
        if problem is not None:
            self._bid_problem(problem)
        elif self.recorder is not None:
            self.recorder.add_bid_seals(revealed.round, revealed.seals, revealed.nonces)

    def _result_seals(self, wire: Any, result: RoundResult) -> None:
        """Hidden bids: the seals and nonces a round's result carries, checked against its
        bids as made (a Cloud may have changed a scored one since: its actions say), into
        our record before the round itself (we may have missed the reveal)."""
        if self.config is None or self.game_id is None or not self.config.rules.hidden_bids:
            return
        players = self.config.players
        made = bids_made(result.actions, players) if self.config.rules.specials else None
        found = self.sealed_bids.result_seals(
            a_dict(wire, "round result"), players, self.game_id,
            self.seat_half.bid_attempt, made,
        )  # fmt: skip
        if found is None:
            return
        seals, nonces, problem = found
        if problem is not None:
            self._bid_problem(problem)
        elif self.recorder is not None:
            self.recorder.add_bid_seals(int(wire["round"]), seals, nonces)

    def _bid_problem(self, detail: str) -> None:
        """A sealed bid the host got wrong: shown, and written to our record."""
        r = self.sealed_bids.key[0] if self.sealed_bids.key is not None else 0
        self._verification(RoundVerified(r, False, detail))

    def play(self, card: int, *, auto: bool = False) -> None:
        if self.view is not None and self._may_send(Phase.PLAY, auto):
            fields = self.seat_half.play_fields(card)
            if fields is None:
                self._emit(ActionRefused("card_not_in_hand", "that card is not in your hand"))
                return
            msg = _auto(p.play_msg(self.view.seat, self.view.round, card), auto)
            msg.update(fields)
            self._decision(msg)
            self.seat_half.after_play()

    def choose_trump(self, suit: Suit, *, auto: bool = False) -> None:
        if self.view is not None and self._may_send(Phase.CHOOSE_TRUMP, auto):
            self._decision(_auto(p.trump_msg(self.view.seat, self.view.round, int(suit)), auto))

    # -- the special cards' decisions (docs/rules.md, "Special cards"; docs/protocol.md):
    # each answers the decision of its phase once, like ``bid`` and ``play``. The view's
    # ``legal_choices``, ``legal_cards`` and ``swap_takes`` say what may be chosen.

    def name_trump(self, suit: Suit | None, *, auto: bool = False) -> None:
        """The Werewolf's holder names trump: a suit, or None for no trump."""
        self._special(Phase.NAME_TRUMP, NameTrump(self._my_seat(), suit), auto)

    def declare(self, choice: int, *, auto: bool = False) -> None:
        """What the card just played is: a suit (Juggler, Cloud), Wizard or Jester
        (Shapeshifter); a ``Declaration`` value."""
        self._special(Phase.DECLARE, Declare(self._my_seat(), choice), auto)

    def adjust_bid(self, bid: int, *, auto: bool = False) -> None:
        """The Cloud's taker changes its bid by one: ``bid`` is the new bid."""
        self._special(Phase.ADJUST_BID, AdjustBid(self._my_seat(), bid), auto)

    def pass_card(self, card: int, *, auto: bool = False) -> None:
        """The Juggler's pass: ``card`` goes to the seat on the left."""
        self._special(Phase.PASS, PassCard(self._my_seat(), card), auto)

    def swap(self, give: int | None, take: int | None, *, auto: bool = False) -> None:
        """The Witch's swap: give ``give`` into the trick and take ``take`` (both None: keep
        the hand)."""
        self._special(Phase.SWAP, SwapCard(self._my_seat(), give, take), auto)

    def _my_seat(self) -> int:
        view = self.view
        return view.seat if view is not None else -1

    def _special(self, phase: Phase, action: PlayerAction, auto: bool) -> None:
        if self.view is not None and self._may_send(phase, auto):
            if self.seat_half.send_decision(action):  # (the private deal's pass: its give)
                self._answered = decision_key(self.view, self.voided_attempts)
                return
            fields = self.seat_half.special_fields(action)  # (a swap's show: private deal)
            if fields is None:
                self._emit(ActionRefused("card_not_in_hand", "that card is not in your hand"))
                return
            msg = _auto(p.special_msg(action, self.view.round), auto)
            msg.update(fields)
            self._decision(msg)
            self.seat_half.after_play()

    def act(self, action: PlayerAction, *, auto: bool = False) -> None:
        """Send ``action`` (a bot's, or the away player's) through the intent of its kind."""
        # (``auto`` passed only when set: a subclass's intent may take no ``auto``.)
        kw: dict[str, bool] = {"auto": True} if auto else {}
        if isinstance(action, Play):
            self.play(action.card, **kw)
        elif isinstance(action, Bid):
            self.bid(action.bid, **kw)
        elif isinstance(action, ChooseTrump):
            self.choose_trump(action.suit, **kw)
        elif isinstance(action, NameTrump):
            self.name_trump(action.suit, **kw)
        elif isinstance(action, Declare):
            self.declare(action.choice, **kw)
        elif isinstance(action, AdjustBid):
            self.adjust_bid(action.bid, **kw)
        elif isinstance(action, PassCard):
            self.pass_card(action.card, **kw)
        elif isinstance(action, SwapCard):
            self.swap(action.give, action.take, **kw)

    def _may_send(self, phase: Phase, auto: bool) -> bool:
        """Whether an intent of ``phase`` answers the decision the latest view asks of this
        seat, not answered yet; else it is refused here (silently for this program's own
        ``auto`` moves: nobody asked for them) and never sent. A decider's view
        can be older than the session's (its queue of updates), and a seat can have two
        deciders (the player and, while away, this program: ``away_player.py``): an intent
        for a decision gone by, or a second one for the same decision, would only be refused
        by the host, and a private deal's card cannot be taken back once opened (its key
        and sequence number are spent: every later envelope of the seat would be refused
        as out of sequence, and the seat could never play again)."""
        view = self.view
        if self.watching or view is None:
            return False
        refusal = None
        if view.phase is not phase:
            refusal = ActionRefused("wrong_phase", f"cannot do that now: {view.phase.value}")
        elif not view.my_turn:
            refusal = ActionRefused("not_your_turn", "it is not your turn")
        elif decision_key(view, self.voided_attempts) == self._answered:
            refusal = ActionRefused("not_your_turn", "this decision was answered already")
        if refusal is not None and not auto:
            self._emit(refusal)
        return refusal is None

    def _decision(self, msg: dict[str, Any]) -> None:
        """Send the intent that answers the latest view's decision."""
        assert self.view is not None
        self._answered = decision_key(self.view, self.voided_attempts)
        self._intent(msg)

    def here(self) -> None:
        """The player is at the keyboard: an away seat (the turn time ran out) is theirs
        again. A table sends it at any key press while its seat is away."""
        self._intent({"t": "here"})

    def hand_to_bot(self, seat: int) -> None:
        """Host only: a bot decides for ``seat`` until its player presses a key."""
        self._intent({"t": "hand_to_bot", "seat": seat})

    @property
    def away(self) -> bool:
        """The host marked this seat away: a bot decides for it until the player is back."""
        return is_away(self.seats, self.seat)

    def _play_if_away(self) -> None:
        # Where only this program knows the hand (the seat half says so), it decides for its
        # away player (away_player.py); else the host's bot does.
        view = self.view
        if view is None or self.watching or not self.seat_half.plays_for_away_player:
            return
        if not self.away:
            self._away_player.forget()
            return
        action = self._away_player.move(view, self.seat_half.voided_attempts)
        if action is not None:
            self.act(action, auto=True)

    def chat(self, text: str) -> None:
        text = "".join(ch for ch in text if ch.isprintable())[: p.MAX_CHAT].strip()
        if text:
            self.client.send({"t": "chat", "text": text})

    def start_game(self) -> None:
        self._intent({"t": "start"})

    def add_bot(self) -> None:
        self._intent({"t": "add_bot"})

    def remove_bot(self, seat: int) -> None:
        self._intent({"t": "remove_bot", "seat": seat})

    def lobby_settings(
        self,
        seats: int,
        bot_level: str,
        restrict_last_bid: str,
        *,
        hidden_bids: bool | None = None,
        forehead: bool | None = None,
        length: str | None = None,
        specials: Sequence[str] | None = None,
    ) -> None:
        """Change the table (the host's lobby only); a house rule left None stays as is.
        ``specials``: the special cards' wire names (``dragon``, ...; none: empty)."""
        msg: dict[str, Any] = {
            "t": "lobby_settings",
            "seats": seats,
            "bot_level": bot_level,
            "restrict_last_bid": restrict_last_bid,
        }
        for key, value in (
            ("hidden_bids", hidden_bids),
            ("forehead", forehead),
            ("length", length),
            ("specials", None if specials is None else ",".join(specials) or "none"),
        ):
            if value is not None:
                msg[key] = value
        self._intent(msg)

    def rematch(self) -> None:
        self._intent({"t": "rematch"})

    # ------------------------------------------------------------------ receiving

    def _emit(self, update: SessionUpdate) -> None:
        self._updates.put_nowait(update)

    def _on_event(self, event: dict[str, Any] | LinkState) -> None:
        if isinstance(event, LinkState):
            self._answered = None  # an intent sent as the link went down may be lost
            # Shown only (never recorded): in the player's language.
            self._emit(LinkChanged(event.state, link_text(event.detail)))
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
        kind = msg.get("t")
        if type(kind) is not str:
            log.debug("ignoring a message without a type")
            return
        handler = self._HANDLERS.get(kind)
        if handler is not None:
            handler(self, msg)
        elif kind in self.seat_half.messages and not self.watching:
            self.seat_half.on_message(msg)
        else:
            log.debug("ignoring message %r", kind)

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
        half = self._seat_half_for(msg.get("deal"))
        if half is not None and not self.watching:
            half.lobby()  # what the deal needs before the game (a private deal's signing key)
        seats = a_list(msg.get("seats"), "lobby seats", max_len=MAX_PLAYERS)
        you, port = msg.get("you"), msg.get("port")
        addresses = strings(msg.get("addresses"), "addresses")
        self._emit(
            LobbyUpdate(
                seats=tuple(p.seat_info_from_wire(s) for s in seats),
                my_seat=you if type(you) is int else None,
                addresses=tuple(addresses),
                port=port if type(port) is int else 0,
                is_host=msg.get("host") is True,
                can_start=msg.get("can_start") is True,
                fingerprint=self.host_fingerprint or "",
                **_lobby_settings(msg, len(seats)),
            )
        )

    def _on_game(self, msg: dict[str, Any]) -> None:
        game_id = bytes_of(msg.get("game_id"), GAME_ID_BYTES, "game id")
        players = a_list(msg.get("players"), "players", max_len=MAX_PLAYERS)
        expect(len(players) >= MIN_PLAYERS, "players")
        try:
            entries = [PlayerEntry(str(pl["name"]), pl["kind"]) for pl in players]
            n = len(entries)
            config = GameConfig(n, msg["first_dealer"], TableRules.from_wire(msg["rules"], n))
        except (KeyError, TypeError, ValueError) as exc:
            raise ProtocolError("bad_message", f"the host sent a malformed game: {exc}") from None
        half = self._seat_half_for(msg.get("deal"))
        if half is None:
            raise ProtocolError("bad_message", "the host's game names a deal this program lacks")
        you = msg.get("you")
        if type(you) is int and 0 <= you < len(entries):
            self.seat = you
        self.game_id, self.config, self.players = game_id, config, entries
        self.history = []
        self.verifications = []
        self.finished = None
        self._round_views.clear()
        self.view = None
        self._answered = None  # (a rematch asks round 1's decisions again)
        self._views = p.ViewReader(watching=self.watching)
        if self.watching:
            return  # nothing of the deal is a watcher's: no checker, no record of its own
        half.game(msg)
        if self.seat is not None:
            self.checker = RoundChecker(config, self.seat)
            # An earlier run of this program may have recorded this game: carry its file on.
            self.own = OwnRecord.open(
                half.recorder(game_id, entries, config),
                config,
                self.seat,
                self.records_dir,
                send=self.client.send,
                on_error=lambda text: self._emit(ChatLine(None, "record", text)),
            )
            self.recorder = self.own.recorder
        half.started()

    def _on_round(self, msg: dict[str, Any]) -> None:
        r = msg.get("round")
        expect(type(r) is int and 1 <= r <= p.MAX_ROUND, "round number")
        if self.config is not None:  # a round the game's length lacks: the host's error
            expect(cast(int, r) <= self.config.num_rounds, "round number")
        if not self.watching:
            self.seat_half.round(msg)

    def _on_state(self, msg: dict[str, Any]) -> None:
        view = self._views.read(msg.get("view"), tuple(self.history))
        self._set_seats(msg.get("seats"))
        events_wire = a_list(msg.get("events"), "events")
        events = [p.event_from_wire(e, view.players) for e in events_wire]
        if not self.watching:
            self.seat = view.seat
            self.seat_half.followed(events)
            view = self.seat_half.view_for_table(view)  # a private deal: our own hand
        self._round_views.note(view)
        sealed: tuple[int, ...] = ()
        if not self.watching and view.rules.hidden_bids:  # (our sealed bid, who has sealed)
            attempt = self.seat_half.bid_attempt
            view = self.sealed_bids.view_for_table(view, attempt)
            sealed = self.sealed_bids.sealed_seats(view, attempt)
        self.view = view
        self._emit(TableUpdate(view, self.seats, tuple(filter(None, events)), sealed))
        self._play_if_away()

    def _set_seats(self, seats: Any) -> None:
        expect(type(seats) is list, "seats")
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
        result, seeds = p.result_from_wire(
            msg.get("result"), self.config.players, self.config.rules
        )
        self.history.append(result)
        if not self.watching:
            self._result_seals(msg.get("result"), result)
            self.seat_half.round_end(result, seeds, msg)
        if self.view is not None:
            self.view = _with_history(self.view, tuple(self.history))

    def _verification(self, result: RoundVerified) -> None:
        self.verifications.append(result)
        if not result.ok and self.recorder is not None:
            # docs/fairness.md: a failure is shown to the player and written to the record.
            self.recorder.add_verification_failure(result.round, self.seat, result.detail)
            if self.own is not None:
                self.own.save()
        self._emit(result)

    def _on_refused(self, msg: dict[str, Any]) -> None:
        self._answered = None  # the decision is open again: it may be answered anew
        self._emit(ActionRefused(str(msg.get("code", "?"))[:64], str(msg.get("message", ""))[:300]))

    def _on_error(self, msg: dict[str, Any]) -> None:
        if msg.get("fatal") is not True:  # fatal ones end the link and arrive as LinkState
            self._on_refused(msg)

    def _on_chat(self, msg: dict[str, Any]) -> None:
        seat = msg.get("seat")
        name = msg.get("name")
        text = msg.get("text")
        if type(name) is str and type(text) is str:
            seat = seat if type(seat) is int else None
            watcher = msg.get("watcher") is True and seat is None
            if seat is None and not watcher:  # the host program's own words: ours to translate
                text = announcement_text(text)
            self._emit(ChatLine(seat, name[:64], text[: p.MAX_CHAT], watcher))

    def _on_game_over(self, msg: dict[str, Any]) -> None:
        totals = a_list(msg.get("totals"), "game over")
        winners = a_list(msg.get("winners"), "game over")
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
        game = a_dict(msg.get("game"), "snapshot game")
        if self.game_id != game.get("game_id"):
            self._on_game(game)  # a new client, or the host started a rematch meanwhile
        assert self.config is not None
        if self.own is not None:
            self.own.reconnected()  # a record part cut off with the link is asked again
        self.sealed_bids.reconnected()  # (hidden bids: the host says what it holds of ours)
        history = a_list(msg.get("history"), "snapshot history")
        for wire in history[len(self.history) :]:
            result, seeds = p.result_from_wire(wire, self.config.players, self.config.rules)
            self.history.append(result)
            earlier = self.own is not None and result.round in self.own.earlier
            if not self.watching:
                self.seat_half.missed_round(result, seeds, wire, earlier)
        if self.view is not None:
            self.view = _with_history(self.view, tuple(self.history))
        if msg.get("view") is not None:
            self._on_state({"view": msg["view"], "seats": msg.get("seats"), "events": []})
        if not self.watching:
            self.seat_half.snapshot(msg.get("deal"))

    # The host's messages every session handles; a deal's own go to its seat half.
    _HANDLERS: ClassVar[dict[str, Callable[[NetworkSession, dict[str, Any]], None]]] = {
        "welcome": _on_welcome,
        "lobby": _on_lobby,
        "game": _on_game,
        "round": _on_round,
        "state": _on_state,
        "seats": _on_seats,
        "round_end": _on_round_end,
        "refused": _on_refused,
        "error": _on_error,
        "chat": _on_chat,
        "game_over": _on_game_over,
        "snapshot": _on_snapshot,
        "bid_sealed": _on_bid_sealed,
        "bid_seals": _on_bid_seals,
        "bids_open": _on_bids_open,
        "record_part": lambda session, msg: session.own.on_part(msg) if session.own else None,
    }


class _SessionPort:
    """The ``SeatPort`` a session gives its seat half: the session's public facts, and what
    the half may do (the session's own emit and verification, handed over as callables)."""

    def __init__(
        self,
        session: NetworkSession,
        views: RoundViews,
        *,
        emit: Callable[[SessionUpdate], None],
        verified: Callable[[RoundVerified], None],
    ) -> None:
        self._session = session
        self._emit = emit
        self._verified = verified
        self.views = views

    @property
    def settings(self) -> SeatSettings:
        return self._session.settings

    @property
    def seat(self) -> int | None:
        return self._session.seat

    @property
    def game_id(self) -> bytes | None:
        return self._session.game_id

    @property
    def config(self) -> GameConfig | None:
        return self._session.config

    @property
    def checker(self) -> RoundChecker | None:
        return self._session.checker

    @property
    def own(self) -> OwnRecord | None:
        return self._session.own

    @property
    def shown(self) -> SeatView | None:
        return self._session.view

    def send(self, msg: dict[str, Any]) -> None:
        self._session.client.send(msg)

    def note(self, name: str, text: str) -> None:
        self._emit(ChatLine(None, name, text))

    def verified(self, result: RoundVerified) -> None:
        self._verified(result)

    def show(self, view: SeatView) -> None:
        session = self._session
        session.view = view
        self._emit(TableUpdate(view=view, seats=session.seats))


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


def _lobby_settings(msg: dict[str, Any], seats: int) -> dict[str, Any]:
    """The lobby's settings and bots' levels, where the host sent them well formed."""
    settings = msg.get("settings")
    settings = settings if type(settings) is dict else {}
    level, restrict = settings.get("bot_level"), settings.get("restrict_last_bid")
    length = settings.get("length")
    levels = msg.get("levels")
    if type(levels) is not list or len(levels) != seats:
        levels = [None] * seats
    return {
        "bot_level": level[:16] if type(level) is str else "",
        "restrict_last_bid": restrict[:32] if type(restrict) is str else "",
        "hidden_bids": settings.get("hidden_bids") is True,
        "forehead": settings.get("forehead") is True,
        "length": length[:64] if type(length) is str else "full",
        "specials": _special_names(settings.get("specials")),
        "levels": tuple(lv[:16] if type(lv) is str else None for lv in levels),
    }


def _special_names(names: Any) -> tuple[str, ...]:
    """The lobby's special cards, the names this program knows (in card order)."""
    if type(names) is not list:
        return ()
    known = {card.wire_name: card for card in SPECIALS}
    return tuple(card.wire_name for card in sorted({known[n] for n in names if n in known}))


def _known_kind(name: Any) -> DealKind | None:
    """The deal the host named: commit-reveal if it named none (hosts before private games
    did not), None if this program does not know it."""
    if name is None:
        return COMMIT_REVEAL
    try:
        return find_deal_kind(name) if type(name) is str else None
    except KeyError:
        return None


def _with_history(view: SeatView, history: tuple[RoundResult, ...]) -> SeatView:
    return replace(view, history=history)
