"""The Wizard host's core: a lobby, then the engine driving a game, with no I/O.

The host is the single source of truth and trusts no client. Every message is
checked against its schema (a malformed one ends that client's connection), every
action against the engine (an illegal one is refused with a reason code and changes
nothing). Each seat is sent only its own view; public events go to all. How rounds are
dealt is the deal kind's (``deals/``: commit-reveal, private), whose host half sees this
core only through ``HostPort``.

``HostCore`` reads no clock, schedules nothing, starts no task and touches no socket or
file: every input (a netplay callback, a timer that ran out, a bot's decision, a restored
host carrying on) is handled as one step (``handle``: inputs and effects,
``host_effects.py``), whose effects say what it journals, which record it writes, what it
sends, which timers it starts or cancels and which bot it asks. A transition that leads to
another within the step (a change that ends a round, whose end deals the next) is a
follow-up input the step queues and handles after, one at a time. The adapter
(``host_adapter.py``: ``WizardHost``, the netplay ``App``) runs the effects once the step
ends, the journal's entries first, then the record, the sends, and the timers and bots on
its ``HostRuntime`` (``host_runtime.py``), so journal-before-send holds by construction,
not by the order of calls.
"""

from __future__ import annotations

import logging
import random
import secrets
from collections import deque
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any, ClassVar, Self

from netplay.errors import Refused
from netplay.fairdeal import new_game_id
from netplay.ratelimit import TokenBucket
from netplay.sessions import Session

from ..bots import LEVELS, Bot, make_bot
from ..game import (
    Bid,
    ChooseTrump,
    Event,
    GameConfig,
    GameOver,
    IllegalAction,
    Phase,
    Play,
    PlayerAction,
    RestrictLastBid,
    RoundScored,
    RulesError,
    Suit,
    check_seat_play,
    length_rounds,
    length_text,
    seat_view,
)
from ..game.rules import MAX_PLAYERS, MIN_PLAYERS
from ..game.specials import parse_specials
from ..session import SeatInfo
from . import protocol as p
from .deals import find_deal_kind, forehead_refusal, specials_refusal
from .deals.host_half import DealHostHalf
from .decisions import DECIDING_PHASES, first_legal_move
from .host_effects import (
    AskBot,
    BotDecided,
    BotsMove,
    Broadcast,
    CancelBot,
    CancelTimer,
    Changed,
    CloseJournal,
    Disconnect,
    Effect,
    FollowUp,
    Forget,
    GameFinished,
    GameStarted,
    HostInput,
    Joined,
    Journal,
    JournalLost,
    Left,
    LobbyChanged,
    OpenJournal,
    Received,
    Restored,
    Resumed,
    Send,
    SendPayload,
    StartTimer,
    Stopped,
    TimerFired,
    Welcome,
    WriteRecord,
)
from .host_state import DEFAULT_DEAL_STEP_TIMEOUT, HostOptions, Seat, Table, queried
from .journal import journal_path
from .journal_facts import Decider, Fact, GameEnded, GameHeader, SeatEntry
from .record_share import part_messages, round_part
from .restore import Replayed
from .sealed_bids import SealedBids
from .takeover import Takeover
from .turn_time import TurnClock
from .watchers import Watchers, watcher_lobby

log = logging.getLogger("wizard_tui.host")

# The key of the timer that paces the bots (``options.bot_delay``), so people follow them.
BOT_PACING = ("bot",)

# Every deal kind's exchange messages (routed to the host's deal half, or refused).
DEAL_MESSAGES = ("commit", "seed", "sign_key", "deal", "lost", "abort")


class HostCore:
    """The Wizard host's lobby and game as one state machine, with no I/O: ``handle`` takes
    an input and returns the step's effects. The adapter (``host_adapter.WizardHost``)
    runs it behind a netplay server."""

    def __init__(
        self,
        options: HostOptions,
        *,
        rng: random.Random | None = None,
        deal_half: DealHostHalf | None = None,
    ) -> None:
        if not MIN_PLAYERS <= options.players <= MAX_PLAYERS:
            raise ValueError(f"a table has {MIN_PLAYERS} to {MAX_PLAYERS} seats")
        if not 0 <= options.bots <= options.players:
            raise ValueError("more bots than seats")
        if options.rules.forehead and (why := forehead_refusal(options.deal)):
            raise ValueError(why)
        if options.rules.specials and (
            why := specials_refusal(
                options.deal, options.rules.specials, forehead=options.rules.forehead
            )
        ):
            raise ValueError(why)
        self.options = options
        # What a step has done so far (its effects, in order), and the follow-up inputs it
        # queued for itself: see the module docstring.
        self._outbox: list[Effect] = []
        self._follow_ups: deque[FollowUp] = deque()
        self._clock: float | None = None  # the time of the step ``handle`` runs (None: none)
        self._journaling = False  # a journal is kept: facts are journaled (effects)
        self.host_key = secrets.token_urlsafe(24)  # proves a connection is the host's own table
        self._rng = rng or random.SystemRandom()
        # The sessions that presented the host key, by id (a session the server forgot was
        # a seated player's: the lobby is sent to the seats anyway).
        self._admins: dict[str, Session] = {}
        self.seats: list[Seat | None] = [None] * options.players
        for i in range(options.bots):
            self.seats[options.players - options.bots + i] = self._new_bot_seat()
        self.table: Table | None = None
        self.failed: str | None = None
        self._bot_asked: AskBot | None = None  # the bot asked to decide, until it answers
        self._bot_pacing = False  # the bot's pacing timer runs (it is asked once it ends)
        self._chat_buckets: dict[str, TokenBucket] = {}  # by session id
        self.restored: Replayed | None = None  # when this host came from a journal
        self._timer_fires: dict[Any, Callable[[], None]] = {}  # the core's timers, by key
        self.takeover = Takeover(self)
        self.turn_clock = TurnClock(self)
        self.watchers = Watchers(self, allowed=options.watchers)  # spectators: no seat
        if deal_half is None:
            try:
                kind = find_deal_kind(options.deal)
            except KeyError as exc:
                raise ValueError(str(exc)) from None
            deal_half = kind.host()
        # The deal kind's host half (deals/): the round's exchange, its messages and facts.
        self.deal_half: DealHostHalf = deal_half
        deal_half.attach(self)
        # Hidden bids (sealed_bids.py): the seals, their openings, the bids applied together.
        self.sealed = SealedBids(
            self,
            act=lambda table, bid, by: self.deal_half.act(table, bid, by),
            attempt=lambda table: self.deal_half.bid_attempt(table),
        )
        self._bot_seat = -1  # the seat the bot paced or asked decides for
        self._bot: Bot | None = None  # ... being this bot
        # Bumped at every change the seats are told of: a bot decides for one position, and
        # a decision finished after the position moved on (a void, a redeal) is dropped.
        self._position = 0
        self._bot_position = -1
        self._told: set[int] = set()  # seats that heard the game_over
        self._parts_sent: dict[tuple[str, int], int] = {}  # (session id, round): times

    # ------------------------------------------------------------------ one step at a time

    def handle(self, event: HostInput, now: float) -> list[Effect]:
        """One input at time ``now``, as one step: the host's state moves on, and what the
        step journals, writes, sends, and which timers and bot it starts or cancels, are
        returned in order as effects, none of them run (the adapter's ``run_effects`` runs
        them). The follow-up inputs the step queues (``Changed``, ``LobbyChanged``,
        ``BotsMove``) are handled in it, one after another, and their effects follow.
        ``Refused`` for a join the lobby does not take."""
        if self._clock is not None:
            raise RuntimeError("an input arrived inside another's step")
        self._clock = now
        try:
            if isinstance(event, Joined):  # its answer, the join's reply, comes first
                reply = self._on_join(event.session, event.hello)
                self._outbox.insert(0, Welcome(event.session, reply))
            else:
                self._dispatch(event)
            while self._follow_ups:
                follow_up = self._follow_ups.popleft()
                try:
                    self._dispatch(follow_up)
                except Exception:  # no exception in a transition ends the host
                    log.exception(
                        "the host's %s failed; the game goes on", type(follow_up).__name__
                    )
                    self._follow_ups.clear()  # (what it would have led to is not done)
        finally:
            self._clock = None
            self._follow_ups.clear()
            out, self._outbox = self._outbox, []
        return out

    def _dispatch(self, event: HostInput | FollowUp) -> None:
        if isinstance(event, Received):
            self._on_message(event.session, event.msg)
        elif isinstance(event, Left):
            self._on_disconnect(event.session)
        elif isinstance(event, Resumed):
            self._on_resume(event.session)
        elif isinstance(event, TimerFired):
            self._timer_fired(event.key)
        elif isinstance(event, BotDecided):
            self._bot_decided(event)
        elif isinstance(event, Changed):
            self._after_change(list(event.events))
        elif isinstance(event, LobbyChanged):
            self._after_join()
        elif isinstance(event, BotsMove):
            self._schedule_bot()
        elif isinstance(event, Restored):
            self._resume_play()
        elif isinstance(event, JournalLost):
            self._journaling = False
        elif isinstance(event, Stopped):
            self._stop()

    def _follow(self, event: FollowUp) -> None:
        """Queue a follow-up input of this step: it is handled once what runs now is done."""
        self._follow_ups.append(event)

    def _out(self, effect: Effect) -> None:
        if self._clock is None:
            raise RuntimeError("the host core has effects only inside a step (handle)")
        self._outbox.append(effect)

    def _time(self) -> float:
        """The step's time (``handle``'s ``now``)."""
        if self._clock is None:
            raise RuntimeError("the host core has a time only inside a step (handle)")
        return self._clock

    # ------------------------------------------------------------------ the inputs

    def _on_join(self, session: Session, hello: dict[str, Any]) -> dict[str, Any]:
        if hello.get("watch") is True:
            reply = self.watchers.join(session)
            self.start_timer(("joined", session.id), 0.0, lambda: self._watcher_in(session))
            return reply
        if self.table is not None:
            raise Refused(p.LOBBY_CLOSED, "the game has already started; ask for a rematch later")
        free = [i for i, s in enumerate(self.seats) if s is None]
        if not free:
            raise Refused(p.TABLE_FULL, "every seat is taken")
        seat = free[0]
        session.seat = seat
        self.seats[seat] = Seat(session.name, "human", session)
        # After the welcome this returns: the lobby follows it.
        self.start_timer(("joined", session.id), 0.0, self._after_join)
        self.deal_half.on_join(session)
        return {"players": len(self.seats)}

    def _after_join(self) -> None:
        self._send_lobby()
        if self.options.auto_start and all(self.seats) and self.table is None and self._ready():
            self._start_game()

    def _ready(self) -> bool:
        """The deal may need something of every player first (the private deal: its
        signing key)."""
        return self.deal_half.ready()

    def _on_message(self, session: Session, msg: dict[str, Any]) -> None:
        msg = p.INBOUND.check(msg)  # a malformed message ends the connection
        if session in self.watchers and msg["t"] != "chat":
            self._refuse(session, p.WATCHING, "a watcher can only chat")
            return
        if self.table is not None:
            self.turn_clock.heard_from(session, msg)  # an away player pressed a key
        handler = self._handlers[msg["t"]]
        handler(self, session, msg)

    def _on_disconnect(self, session: Session) -> None:
        if session in self.watchers:
            self.watchers.left(session)
            return
        if self.table is None and session.reason == "bye" and session.seat is not None:
            # Left the lobby on purpose: free the seat for someone else.
            self.seats[session.seat] = None
            self._out(Forget(session))
        elif self.table is not None and session.seat is not None:
            self.turn_clock.seat_back(session.seat)  # dropped: the takeover covers it now
            self.takeover.seat_left(session.seat)
            self.deal_half.seat_left(session.seat)
        self._send_seats()

    def _on_resume(self, session: Session) -> None:
        if session in self.watchers:
            self._watcher_in(session)
            return
        if self.table is None:
            self._send_lobby()
            return
        if session.seat is not None:
            self.takeover.seat_back(session.seat)
            self.turn_clock.seat_connected(session.seat)
        self.deal_half.before_snapshot(session)  # (a void it missed while the host was down)
        self._send_snapshot(session)
        self.sealed.snapshot(session)  # (hidden bids: who has sealed, the seals if all are in)
        self.deal_half.after_snapshot(session)  # (the round's envelopes, to resume with)
        if self.table.over_msg is not None:
            self.send(session, self.table.over_msg)  # it missed the end
            if session.seat is not None:
                self._told.add(session.seat)
        self._send_seats()

    # ------------------------------------------------------------------ lobby

    def _new_bot_seat(self) -> Seat:
        taken = {s.name.split(" (")[0] for s in self.seats if s is not None}
        name = next((n for n in BOT_NAMES if n not in taken), f"Bot {len(taken) + 1}")
        level = self.options.bot_level
        bot = make_bot(level, random.Random(self._rng.getrandbits(64)))
        return Seat(name, "bot", bot=bot, level=level)

    def lobby_message(self, session: Session) -> dict[str, Any]:
        seated = sum(s is not None for s in self.seats)
        is_admin = session.id in self._admins
        return {
            "t": "lobby",
            "seats": [p.seat_info_wire(s.info() if s else None) for s in self.seats],
            "you": session.seat,
            "host": is_admin,
            "addresses": list(self.options.addresses),
            "port": self.options.port,
            "can_start": is_admin and seated >= MIN_PLAYERS,
            # What the host's lobby can change (lobby_settings), and each seat's bot level.
            "settings": {
                "bot_level": self.options.bot_level,
                "restrict_last_bid": self.options.rules.restrict_last_bid.value,
                "hidden_bids": self.options.rules.hidden_bids,
                "forehead": self.options.rules.forehead,
                "length": self.options.length,
                # The special cards in play, by wire name in card order ([] for none).
                "specials": [card.wire_name for card in sorted(self.options.rules.specials)],
            },
            "levels": [s.level if s is not None and s.kind == "bot" else None for s in self.seats],
            "deal": self.deal_half.name,  # players of a private deal send their signing key
        }

    def _send_lobby(self) -> None:
        for seat in self.seats:
            if seat is not None and seat.session is not None:
                self.send(seat.session, self.lobby_message(seat.session))
        for session in self._admins.values():  # the host's table may not hold a seat
            if session.seat is None:
                self.send(session, self.lobby_message(session))
        self.watchers.lobby(self.lobby_message)

    def _claim_host(self, session: Session, msg: dict[str, Any]) -> None:
        # As bytes: compare_digest raises TypeError on a str with non-ASCII characters.
        if not secrets.compare_digest(msg["key"].encode(), self.host_key.encode()):
            self._refuse(session, p.NOT_HOST, "that is not this host's key")
            return
        self._admins[session.id] = session
        if self.table is None:
            self._send_lobby()

    def _require_admin(self, session: Session, what: str) -> bool:
        if session.id not in self._admins:
            self._refuse(session, p.NOT_HOST, f"only the host can {what}")
            return False
        return True

    def _add_bot(self, session: Session, msg: dict[str, Any]) -> None:
        if not self._require_admin(session, "add bots"):
            return
        if self.table is not None:
            self._refuse(session, p.LOBBY_CLOSED, "the game has already started")
            return
        if None not in self.seats:
            if len(self.seats) >= MAX_PLAYERS:
                self._refuse(session, p.TABLE_FULL, f"a table has at most {MAX_PLAYERS} seats")
                return
            self.seats.append(None)
        self.seats[self.seats.index(None)] = self._new_bot_seat()
        self._send_lobby()

    def _lobby_change(self, session: Session, what: str) -> bool:
        if not self._require_admin(session, what):
            return False
        if self.table is not None:
            self._refuse(session, p.LOBBY_CLOSED, "the game has already started")
            return False
        return True

    def _remove_bot(self, session: Session, msg: dict[str, Any]) -> None:
        if not self._lobby_change(session, "remove bots"):
            return
        seat = msg["seat"]
        if seat >= len(self.seats) or self.seats[seat] is None or self.seats[seat].kind != "bot":
            self._refuse(session, p.NOT_READY, "there is no bot in that seat")
            return
        self.seats[seat] = None
        self._send_lobby()

    def _lobby_settings(self, session: Session, msg: dict[str, Any]) -> None:
        if not self._lobby_change(session, "change the table"):
            return
        try:
            restrict = RestrictLastBid(msg["restrict_last_bid"])
        except ValueError:
            self._refuse(session, p.NOT_READY, "no such rule for the last bid")
            return
        length = msg.get("length", self.options.length)
        try:
            length_rounds(length, msg["seats"])
        except RulesError as exc:
            self._refuse(session, p.NOT_READY, str(exc))
            return
        if msg.get("forehead") and (why := forehead_refusal(self.options.deal)):
            self._refuse(session, p.NOT_READY, why)
            return
        specials = self.options.rules.specials
        if "specials" in msg:
            try:
                specials = parse_specials(msg["specials"])
            except ValueError as exc:
                self._refuse(session, p.NOT_READY, str(exc))
                return
        forehead = bool(msg.get("forehead", self.options.rules.forehead))
        if specials and (why := specials_refusal(self.options.deal, specials, forehead=forehead)):
            self._refuse(session, p.NOT_READY, why)
            return
        try:
            replace(
                self.options.rules,
                forehead=msg.get("forehead", self.options.rules.forehead),
                specials=specials,
            ).check(msg["seats"])
        except RulesError as exc:  # (the Dragon without the Fairy, the Werewolf on foreheads)
            self._refuse(session, p.NOT_READY, str(exc))
            return
        level = msg["bot_level"]
        if level not in LEVELS:
            self._refuse(session, p.NOT_READY, f"bot levels are {', '.join(LEVELS)}")
            return
        wanted = msg["seats"]
        seats = self._resized(wanted)
        if seats is None:
            seated = sum(s is not None and s.kind == "human" for s in self.seats)
            self._refuse(session, p.NOT_READY, f"{seated} players are seated: keep {seated} seats")
            return
        self.seats = seats
        self.options.rules = replace(
            self.options.rules,
            restrict_last_bid=restrict,
            hidden_bids=msg.get("hidden_bids", self.options.rules.hidden_bids),
            forehead=msg.get("forehead", self.options.rules.forehead),
            specials=specials,
        )
        self.options.length = length
        if level != self.options.bot_level:
            self.options.bot_level = level
            for i, seat in enumerate(self.seats):
                if seat is not None and seat.kind == "bot":
                    bot = make_bot(level, random.Random(self._rng.getrandbits(64)))
                    self.seats[i] = Seat(seat.name, "bot", bot=bot, level=level)
        self._send_lobby()

    def _resized(self, wanted: int) -> list[Seat | None] | None:
        """The seats grown with empty ones, or shrunk by dropping empty seats, then bots
        (the last first); None if that would drop a person."""
        seats = list(self.seats)
        while len(seats) < wanted:
            seats.append(None)
        for kind in (None, "bot"):
            i = len(seats) - 1
            while len(seats) > wanted and i >= 0:
                seat = seats[i]
                if (seat is None) if kind is None else (seat is not None and seat.kind == kind):
                    del seats[i]
                i -= 1
        if len(seats) > wanted:
            return None
        for i, seat in enumerate(seats):  # the people keep their seat numbers in order
            if seat is not None and seat.session is not None:
                seat.session.seat = i
        return seats

    def _start(self, session: Session, msg: dict[str, Any]) -> None:
        if not self._require_admin(session, "start the game"):
            return
        if self.table is not None:
            self._refuse(session, p.LOBBY_CLOSED, "the game has already started")
            return
        if sum(s is not None for s in self.seats) < MIN_PLAYERS:
            self._refuse(session, p.NOT_READY, f"Wizard needs {MIN_PLAYERS} players: add bots")
            return
        if not self._ready():
            self._refuse(session, p.NOT_READY, "a player's signing key has not arrived yet")
            return
        self._start_game()

    def _rematch(self, session: Session, msg: dict[str, Any]) -> None:
        if not self._require_admin(session, "start a rematch"):
            return
        if self.table is None or not self.table.finished:
            self._refuse(session, p.NOT_READY, "the game is not over yet")
            return
        self._start_game()

    # ------------------------------------------------------------------ the game

    def _start_game(self) -> None:
        self._end_journal()  # a rematch: the last game's journal is complete
        self._cancel_bot()  # (no decision for the last game's table ever acts on the new one)
        # Close the gaps left by empty seats: seat numbers are table order.
        self.seats = [s for s in self.seats if s is not None]
        for i, seat in enumerate(self.seats):
            assert seat is not None
            if seat.session is not None:
                seat.session.seat = i
        seats = [s for s in self.seats if s is not None]
        n = len(seats)
        rules = replace(self.options.rules, rounds=length_rounds(self.options.length, n))
        config = GameConfig(n, self._rng.randrange(n), rules)
        # The game's creation time is the step's: the input's ``now`` (HostRuntime: seconds
        # since the Unix epoch on a monotonic clock), so a fake clock's game is the same game.
        header = self._header(new_game_id(), self._time(), config, seats)
        game, recorder = self.deal_half.begin(header)
        self.table = Table(game, header.game_id, recorder, created=header.created)
        self._out(GameStarted())
        self._open_journal(header)
        for seat in self.seats:
            if seat is not None and seat.session is not None:
                self.send(seat.session, self._game_message(seat.session))
        self.watchers.game(self._game_message)
        self._start_round()

    def _header(
        self, game_id: bytes, created: float, config: GameConfig, seats: list[Seat]
    ) -> GameHeader:
        """The journal's first entry: who sits where, how their clients resume, the deal."""
        return game_header(game_id, created, config, seats, self.options, self.deal_half)

    def _game_message(self, session: Session) -> dict[str, Any]:
        assert self.table is not None
        config = self.table.game.config
        msg = {
            "t": "game",
            "you": session.seat,
            "game_id": self.table.game_id,
            "players": [{"name": s.name, "kind": s.kind} for s in self.seats if s],
            "rules": config.rules.to_wire(),
            "first_dealer": config.first_dealer,
            "deal": self.deal_half.name,  # each seat takes the part of this kind's seat half
        }
        msg |= self.deal_half.game_fields()
        return msg

    def _start_round(self) -> None:
        self.deal_half.start_round()

    def _action(self, session: Session, msg: dict[str, Any]) -> None:
        table = self.table
        if table is None or table.finished:
            self._refuse(session, p.NOT_READY, "no game is in progress")
            return
        if session.seat is None:
            self._refuse(session, p.NOT_SEATED, "you do not hold a seat")
            return
        if msg["seat"] != session.seat:
            self._refuse(
                session, p.NOT_YOUR_SEAT, f"you play seat {session.seat}, not seat {msg['seat']}"
            )
            return
        if msg["round"] != table.game.round:
            if msg["t"] == "play":
                self.deal_half.on_stale_play(session, msg)  # (a round voided meanwhile)
            self._refuse(
                session,
                p.STALE_ROUND,
                f"that was meant for round {msg['round']}; this is round {table.game.round}",
            )
            return
        holder = self.seats[session.seat]
        if holder is not None and holder.forfeited:
            self._refuse(session, p.NOT_YOUR_SEAT, "a bot plays your seat for the rest of the game")
            return
        t = msg["t"]
        if t == "bid" and table.game.config.rules.hidden_bids:
            self._refuse(session, p.SEALED_BIDS, "the bids are hidden: seal yours (bid_seal)")
            return
        if t == "play":  # in a forehead round the player cannot name its card: it plays blind
            try:
                check_seat_play(table.game.config.rules, table.game.hand_size, msg["card"])
            except IllegalAction as exc:
                self._refuse(session, exc.code, exc.message)
                return
        if t == "play" and self.deal_half.on_play(session, msg):
            return  # the deal took it (the private deal: its open goes through the relay)
        if t in p.SPECIAL_INTENTS and self.deal_half.on_special(session, msg):
            return  # the deal took it (the private deal: a swap's show goes through the relay)
        if t == "bid":
            action: PlayerAction = Bid(session.seat, msg["bid"])
        elif t == "play":
            action = Play(session.seat, msg["card"])
        elif t == "trump":
            action = ChooseTrump(session.seat, Suit(msg["suit"]))
        else:  # a special card's decision (docs/protocol.md, "Special cards")
            action = p.special_action(msg)
        try:
            events = self.deal_half.act(table, action, "human")
        except IllegalAction as exc:
            self._refuse(session, exc.code, exc.message)
            return
        self._after_change(events)

    def _chat(self, session: Session, msg: dict[str, Any]) -> None:
        now = self._time()
        bucket = self._chat_buckets.setdefault(
            session.id, TokenBucket(p.CHAT_RATE, p.CHAT_BURST, now)
        )
        if not bucket.take(now):
            self._refuse(session, p.CHAT_TOO_FAST, "you are sending chat too fast: wait a moment")
            return
        chat = {"t": "chat", "seat": session.seat, "name": session.name, "text": msg["text"]}
        if session in self.watchers:
            chat["watcher"] = True  # a spectator's: its table marks it so
        self._broadcast(chat)

    def _after_change(self, events: list[Event]) -> None:
        table = self.table
        assert table is not None
        self._send_states(events)
        for event in events:
            if isinstance(event, RoundScored):
                self._finish_round()
            elif isinstance(event, GameOver):
                self._finish_game(event)
        if table.game.phase is Phase.DEAL and not table.finished:
            self.deal_half.between_rounds()  # the next round's deal (or its reveals)
        # After whatever that queued (the new round's deal): a bot decides for the position
        # the seats were last told of.
        self._follow(BotsMove())

    def _finish_round(self) -> None:
        table = self.table
        assert table is not None
        self.sealed.round_scored(table)  # (hidden bids: the round's seals go with its result)
        self.deal_half.round_scored()  # (the round is recorded: its fact was applied)

    def _finish_game(self, event: GameOver) -> None:
        table = self.table
        assert table is not None
        table.finished = True
        path = self._write_record()
        table.over_msg = {
            "t": "game_over",
            "totals": list(event.totals),
            "winners": list(event.winners),
            "record": None if path is None else str(path),
        }
        self._broadcast(table.over_msg)
        self._told = {i for i, s in enumerate(self.seats) if s and s.info().connected}
        self._out(GameFinished())

    def _write_record(self) -> Path | None:
        """The record as it stands is written (a ``WriteRecord`` effect): where it goes."""
        table = self.table
        assert table is not None
        if self.options.records_dir is None:
            return None
        record = table.recorder.record()
        path = Path(self.options.records_dir) / record.filename
        self._out(WriteRecord(path, record))
        return path

    # ------------------------------------------------------------------ bots

    def _schedule_bot(self) -> None:
        table = self.table
        if table is None or table.finished:
            return
        if self._bot_pacing or self._bot_asked is not None:
            if self._bot_position == self._position:
                return  # a bot is deciding this very position already
            # A decision for a position that is gone (a void, a redeal): never let it act.
            self._cancel_bot()
        deciding, bot = self._deciding(table)
        if bot is None:
            return
        self._bot_seat, self._bot_position, self._bot = deciding, self._position, bot
        if self.options.bot_delay > 0:  # paced, so people can follow its moves
            self._bot_pacing = True
            self.start_timer(BOT_PACING, self.options.bot_delay, self._bot_paced)
        else:
            self._ask_bot()

    def _deciding(self, table: Table) -> tuple[int, Bot | None]:
        """The seat a bot of the host decides for now, and that bot (None: no bot's turn).
        Under hidden bids every seat bids at once: sealed_bids.py says which."""
        if self.sealed.active(table):
            return self.sealed.bot_to_ask(table, self.seats)
        game = table.game
        if game.turn < 0 or game.phase not in DECIDING_PHASES:
            return -1, None
        if self.deal_half.deciding_paused():  # (the deal's steps first: a pass's unlocks)
            return -1, None
        seat = self.seats[game.turn]
        return game.turn, seat.player_bot if seat is not None else None

    def deciding_seat(self) -> int:
        """The seat whose decision the table waits for (the turn time counts for it): the
        seat on turn, or under hidden bids the first in bidding order not sealed yet."""
        table = self.table
        if table is None or table.finished:
            return -1
        if self.sealed.active(table):
            return self.sealed.deciding_seat(table)
        return table.game.turn

    def _bot_paced(self) -> None:
        self._bot_pacing = False
        if not self._bot_still_current():
            log.info("seat %d: a bot decision for a position gone by is dropped", self._bot_seat)
            self._schedule_bot()
            return
        self._ask_bot()

    def _ask_bot(self) -> None:
        """The bot decides the position it was scheduled for: an ``AskBot`` effect."""
        table, seat, bot = self.table, self._bot_seat, self._bot
        assert table is not None and bot is not None
        view = self.deal_half.bot_view(seat, seat_view(queried(table.game), seat))
        self._bot_asked = AskBot(seat, bot, view, self._bot_position)
        self._out(self._bot_asked)

    def _cancel_bot(self) -> None:
        if self._bot_pacing:
            self._bot_pacing = False
            self.cancel_timer(BOT_PACING)
        asked, self._bot_asked = self._bot_asked, None
        if asked is None:
            return
        pending = next((i for i, e in enumerate(self._outbox) if e is asked), None)
        if pending is not None:  # asked in this very step: it never goes out
            del self._outbox[pending]
        else:
            self._out(CancelBot())

    def _bot_still_current(self) -> bool:
        bot = self._bot
        return bot is not None and self._bot_current(self._bot_seat, bot, self._bot_position)

    def _bot_current(self, seat: int, bot: Bot, position: int) -> bool:
        """The position a bot's decision was started for is still the table's, and the bot
        still decides for the seat: only then may the decision act. (A new game cancels
        every decision: ``_start_game``.)"""
        table = self.table
        return (
            table is not None
            and not table.finished
            and self._position == position
            and self._deciding(table) == (seat, bot)
        )

    def _bot_decided(self, decided: BotDecided) -> None:
        # No exception here may end the host (docs/security.md, "No seat can stall the
        # table"): a decision for a position that moved on is dropped, and a move that fails
        # is logged and lost.
        asked = self._bot_asked
        if asked is None or (asked.seat, asked.position) != (decided.seat, decided.position):
            return  # cancelled or replaced meanwhile
        self._bot_asked = None
        seat = decided.seat
        if decided.failed:
            log.error("the bot in seat %d failed: it made the first legal move", seat)
        try:
            table = self.table
            if table is None or not self._bot_current(seat, asked.bot, asked.position):
                log.info("seat %d: a bot decision for a position gone by is dropped", seat)
                self._schedule_bot()
                return
            self._bot_act(table, seat, decided.action)
        except Exception:
            log.exception("a bot's move for seat %d failed; the game goes on", seat)

    def _bot_act(self, table: Table, seat: int, action: PlayerAction) -> None:
        holder = self.seats[seat]
        assert holder is not None
        if isinstance(action, Play) and self.deal_half.bot_play(seat, action.card):
            return  # the deal took it (the private deal: the bot's open goes through the relay)
        by: Decider = "bot" if holder.bot else "stand_in"
        if isinstance(action, Bid) and self.sealed.active(table):
            self.sealed.bot_bid(table, seat, action.bid, by)  # sealed, like every seat's
            return
        try:
            events = self.deal_half.act(table, action, by)
        except IllegalAction as exc:  # a bug in a bot; never let it stall the table
            log.error("bot in seat %d chose an illegal action %r: %s", seat, action, exc)
            action = first_legal_move(seat_view(queried(table.game), seat))
            events = self.deal_half.act(table, action, by)
        self._after_change(events)

    def drop_bot_turn(self, seat: int) -> None:
        """Throw away a decision a bot is making for ``seat`` (its player came back)."""
        if (self._bot_pacing or self._bot_asked is not None) and self._bot_seat == seat:
            self._cancel_bot()

    # ------------------------------------------------------------------ crash safety
    # The journal (journal.py, restore.py): every accepted event is written, and forced to
    # the disk, before any message about it is sent.

    @property
    def journaling(self) -> bool:
        return self._journaling

    def journal_fact(self, fact: Fact) -> None:
        """Journal ``fact``: its entry is a step's effect, run before the step's sends."""
        if self._journaling:
            self._out(Journal(fact.to_wire()))

    def _open_journal(self, header: GameHeader) -> None:
        if self.options.journal_dir is None:
            return
        self._journaling = True
        self._out(
            OpenJournal(journal_path(self.options.journal_dir, header.game_id), header.to_wire())
        )

    def _end_journal(self) -> None:
        """A rematch: the last game's journal is complete (its ``game_over`` if it is over)."""
        if not self._journaling:
            return
        self._journaling = False
        self._out(CloseJournal(self.last_entry()))

    def last_entry(self) -> dict[str, Any] | None:
        """The journal's last entry, ``game_over``, once the game is over (else None). It is
        written only when the journal is closed (the host closes, after the server said its
        last words, or a rematch), so a host that dies before everyone heard the end is
        resumed to tell them."""
        table = self.table
        if table is None or not table.finished:
            return None
        game = table.game
        return GameEnded(tuple(game.totals), tuple(game.winners)).to_wire()

    def waiting_to_hear_the_end(self, now: float) -> list[int]:
        """The seats of players who have not heard the game's end and may still come back
        for it (within their takeover grace at ``now``: a restarted host's players)."""
        return [
            i
            for i, s in enumerate(self.seats)
            if s is not None
            and s.kind == "human"
            and i not in self._told
            and s.takeover_at is not None
            and s.takeover_at > now
        ]

    @classmethod
    def from_replay(cls, replayed: Replayed, options: HostOptions, **kwargs: Any) -> Self:
        """A host holding the game ``replayed`` (``restore.replay``) exactly as it was: this
        host carries on with the very deal half that replayed it (``kwargs`` go to the
        constructor). ``options`` gives what the command line may change (records directory,
        bot delay, takeover grace, addresses); the seats, the rules and the game come from
        the journal. Its ``Restored`` input, once the server listens, carries on."""
        header = replayed.header
        options.players = header.config.players
        options.bots = 0
        options.auto_start = False
        options.rules = header.config.rules
        options.length = length_text(header.config.rules, header.config.players)
        options.bot_level = header.bot_level
        options.deal = header.deal
        host = cls(options, deal_half=replayed.half, **kwargs)
        host.seats = [host._restored_seat(i, entry) for i, entry in enumerate(header.seats)]
        host.deal_half.adopt_seats()
        host.table = replayed.table
        host._journaling = not replayed.finished  # (the adapter reopens the journal)
        host.restored = replayed
        return host

    def _restored_seat(self, index: int, entry: SeatEntry) -> Seat:
        """A journaled seat: a bot re-created by level, a person as a disconnected seat
        holding its old session (its client resumes it)."""
        if entry.kind == "bot":
            level = entry.level or self.options.bot_level
            bot = make_bot(level, random.Random(self._rng.getrandbits(64)))
            return Seat(entry.name, "bot", bot=bot, level=level)
        session = None
        if entry.session_id is not None and entry.token is not None and entry.key:
            session = Session(
                id=entry.session_id, name=entry.name, token=entry.token, seat=index, key=entry.key
            )
            session.reason = "host restarted"
        return Seat(entry.name, "human", session)

    def restored_sessions(self) -> list[Session]:
        """The players' journaled sessions (their clients resume them)."""
        return [
            seat.session
            for seat in self.seats
            if seat is not None and seat.kind == "human" and seat.session is not None
        ]

    def resume_token(self, key: bytes) -> str | None:
        """The session token of the seat whose player joined with static key ``key`` (the
        host's own table, on a resumed game), or None."""
        for seat in self.seats:
            if seat is not None and seat.session is not None and seat.session.key == key:
                return seat.session.token
        return None

    def _resume_play(self) -> None:
        """The ``Restored`` input: carry on from where the journal ends. Every person's
        takeover countdown starts (none is connected yet)."""
        table = self.table
        if table is None:
            return
        for i, seat in enumerate(self.seats):
            if seat is not None and seat.kind == "human":
                self.takeover.seat_left(i)
        if table.finished:
            self._out(GameFinished())
            return
        self._write_record()
        if table.game.is_over:  # the host died between the last card and game_over
            self._finish_game(GameOver(tuple(table.game.totals), tuple(table.game.winners)))
        else:  # the deal carries on (or, private, deals again the attempt the crash cut off)
            self.deal_half.resume()
            self.sealed.resume()  # (hidden bids: every seal open, not yet applied)
        self._follow(BotsMove())

    def _stop(self) -> None:
        """The ``Stopped`` input: the host closes; no timer or bot of it acts any more."""
        self.takeover.close()
        self.turn_clock.close()
        self.deal_half.close()
        self._cancel_bot()
        for key in list(self._timer_fires):
            self.cancel_timer(key)
        self._journaling = False

    # ------------------------------------------------------------------ sending

    # -- the port a deal's host half sees (deals/host_half.py HostPort) ----------------------

    def send(self, session: Session, msg: dict[str, Any]) -> None:
        self._out(Send(session, msg))

    def send_to_seat(self, seat: int, msg: dict[str, Any]) -> None:
        holder = self.seats[seat] if 0 <= seat < len(self.seats) else None
        session = holder.session if holder is not None else None
        if session is not None and session.connected:
            self._out(Send(session, msg))

    def broadcast(self, msg: dict[str, Any]) -> None:
        self._broadcast(msg)

    def forget_session(self, session: Session) -> None:
        """The server drops ``session`` for good (a watcher that left)."""
        self._out(Forget(session))

    def disconnect(self, session: Session, code: str, message: str) -> None:
        self._out(Disconnect(session, code, message))

    def changed(self, events: list[Event]) -> None:
        """A follow-up input of this step (``Changed``): handled once the caller is done."""
        self._follow(Changed(tuple(events)))

    def send_states(self, events: list[Event]) -> None:
        self._send_states(events)

    def write_record(self) -> None:
        self._write_record()

    def lobby_changed(self) -> None:
        self._follow(LobbyChanged())

    def free_lobby_seat(self, seat: int) -> None:
        holder = self.seats[seat]
        if holder is not None and holder.session is not None:
            self._out(Forget(holder.session))
        self.seats[seat] = None

    def fail(self, reason: str) -> None:
        self.failed = reason
        self._out(GameFinished())

    def now(self) -> float:
        return self._time()

    def start_timer(self, key: Any, delay: float, fire: Callable[[], None]) -> None:
        """A ``StartTimer`` effect; ``fire`` runs in the step of its ``TimerFired``."""
        self._timer_fires[key] = fire
        self._out(StartTimer(key, delay))

    def cancel_timer(self, key: Any) -> None:
        if self._timer_fires.pop(key, None) is not None:
            self._out(CancelTimer(key))

    def _timer_fired(self, key: Any) -> None:
        fire = self._timer_fires.pop(key, None)
        if fire is None:
            return  # cancelled meanwhile
        try:
            fire()
        except Exception:  # no exception in a callback ends the host
            log.exception("the host's timer %r failed", key)

    def _broadcast(self, msg: dict[str, Any]) -> None:
        self._out(Broadcast(msg))

    def _refuse(self, session: Session, code: str, message: str) -> None:
        self._out(Send(session, {"t": "refused", "code": code, "message": message}))

    def forfeit_seat(self, index: int) -> None:
        """A bot plays human seat ``index`` for the rest of the game, its player connected
        or not (it voided too many private deals: private_host.py). Its player watches."""
        seat = self.seats[index]
        if seat is None or seat.kind != "human" or seat.forfeited:
            return
        self.takeover.cancel(index)
        seat.forfeited, seat.takeover_at = True, None
        if seat.stand_in is None:
            seat.stand_in = make_bot(
                self.options.bot_level, random.Random(self._rng.getrandbits(64))
            )
        log.warning("a bot plays seat %d (%s) for the rest of the game", index, seat.name)
        self._send_seats()

    def refuse(self, session: Session, code: str, message: str) -> None:
        """Tell ``session`` its message was refused (for the host's helpers)."""
        self._refuse(session, code, message)

    def round_in_play(self) -> int:
        """The round the game deals or plays now."""
        assert self.table is not None
        return self.deal_half.round_in_play(self.table)

    def seat_infos(self) -> list[SeatInfo]:
        return [s.info() for s in self.seats if s is not None]

    def _seats_wire(self) -> list[dict[str, Any] | None]:
        now = self._time()
        return [p.seat_info_wire(s.info(now) if s else None) for s in self.seats]

    def _send_states(self, events: list[Event]) -> None:
        table = self.table
        assert table is not None
        self._position += 1  # every change the seats hear of is a new position
        self.turn_clock.position_changed()  # (before the seats' wire form: its countdown)
        events_wire = [p.event_wire(e) for e in events]
        payloads = p.state_payloads(queried(table.game), self._seats_wire(), events_wire)
        for i, seat in enumerate(self.seats):
            if seat is not None and seat.session is not None:
                self._out(SendPayload(seat.session, payloads[i]))
        self.watchers.states(queried(table.game), self._seats_wire(), events_wire)

    def _send_seats(self) -> None:
        if self.table is None:
            self._send_lobby()
        else:
            self._broadcast({"t": "seats", "seats": self._seats_wire()})

    def _watcher_in(self, session: Session) -> None:
        """A watcher joined or came back: the lobby, or the game so far (public only)."""
        self.watchers.caught_up(session)  # what it is sent from now on follows this
        if self.table is None:
            self.send(session, watcher_lobby(self.lobby_message(session)))
            return
        self._send_snapshot(session)
        self.sealed.snapshot(session)
        if self.table.over_msg is not None:
            self.send(session, self.table.over_msg)

    def _send_snapshot(self, session: Session) -> None:
        """Everything a (re)connecting seat needs to redraw and to keep verifying."""
        table = self.table
        assert table is not None
        snapshot: dict[str, Any] = {
            "t": "snapshot",
            "game": self._game_message(session),
            "history": table.history_wire,
            "seats": self._seats_wire(),
            "view": None
            if session.seat is None
            else p.view_wire(seat_view(queried(table.game), session.seat)),
            "deal": None,
            "finished": table.finished,
        }
        if session in self.watchers:
            self.watchers.snapshot(session, snapshot, queried(table.game))
            return
        snapshot["deal"] = self.deal_half.snapshot_deal(session.seat)
        self.send(session, snapshot)

    def _record(self, session: Session, msg: dict[str, Any]) -> None:
        """A player asks for the host's record of a finished round, for its own record
        (record_share.py). Each round is sent to a connection at most twice: the answer is
        large, and a program needs it once (twice after a reconnect cut it off)."""
        table, r = self.table, msg["round"]
        part = None if table is None else round_part(table.recorder.record(), r)
        if part is None:
            self._refuse(session, p.NOT_READY, f"round {r} is not in the host's record")
            return
        key = (session.id, r)
        if self._parts_sent.get(key, 0) >= 2:
            self._refuse(session, p.NOT_READY, f"round {r} of the record was sent already")
            return
        self._parts_sent[key] = self._parts_sent.get(key, 0) + 1
        for message in part_messages(part):
            self.send(session, message)

    _handlers: ClassVar[dict[str, Callable[[HostCore, Session, dict[str, Any]], None]]] = {
        "bid": _action,
        "play": _action,
        "trump": _action,
        **dict.fromkeys(p.SPECIAL_INTENTS, _action),
        "chat": _chat,
        "claim_host": _claim_host,
        "start": _start,
        "add_bot": _add_bot,
        "remove_bot": _remove_bot,
        "lobby_settings": _lobby_settings,
        "rematch": _rematch,
        "here": lambda self, session, msg: None,  # (turn_clock.heard_from took it)
        "hand_to_bot": lambda self, session, msg: self._hand_to_bot(session, msg),
        # The deal kinds' own exchanges: the host's deal half takes its kind's messages.
        **{t: lambda self, session, msg: self._deal_message(session, msg) for t in DEAL_MESSAGES},
        "record": _record,
        "bid_seal": lambda self, session, msg: self._sealed_bid(session, msg),
        "bid_open": lambda self, session, msg: self._sealed_bid(session, msg),
    }

    def _sealed_bid(self, session: Session, msg: dict[str, Any]) -> None:
        self.sealed.on_message(session, msg)  # (refused when no sealed bid is asked)
        self.turn_clock.position_changed()  # the turn time moves to the next unsealed seat

    def _hand_to_bot(self, session: Session, msg: dict[str, Any]) -> None:
        if not self._require_admin(session, "hand a seat to a bot"):
            return
        if self.table is None or self.table.finished:
            self._refuse(session, p.NOT_READY, "no game is in progress")
            return
        if not self.turn_clock.set_away(msg["seat"], "the host handed the seat to a bot"):
            self._refuse(session, p.NOT_READY, "only a connected player's seat can be handed")

    # -- what other modules of the host (turn_time.py) call -----------------------------------

    @property
    def position(self) -> int:
        """Bumped at every change the seats hear of (a bot's decision belongs to one)."""
        return self._position

    @property
    def bot_deciding(self) -> int | None:
        """The seat a bot is deciding for (paced or asked), or None."""
        waiting = self._bot_pacing or self._bot_asked is not None
        return self._bot_seat if waiting else None

    def new_stand_in(self) -> Bot:
        """A bot of the host's level to stand in for a person."""
        return make_bot(self.options.bot_level, random.Random(self._rng.getrandbits(64)))

    def announce(self, text: str) -> None:
        """A chat line from the host program to everyone."""
        self._broadcast({"t": "chat", "seat": None, "name": "host", "text": text[: p.MAX_CHAT]})

    def seats_changed(self) -> None:
        self._send_seats()

    def bots_move(self) -> None:
        """A bot may now decide for the seat on turn (a follow-up input of this step)."""
        self._follow(BotsMove())

    def _deal_message(self, session: Session, msg: dict[str, Any]) -> None:
        half = self.deal_half
        if msg["t"] in half.messages:
            half.on_message(session, msg)
        else:  # first: whatever the game's state, this host never asks for it
            self._refuse(session, p.WRONG_DEAL, half.wrong_deal(msg["t"]))


def game_header(
    game_id: bytes,
    created: float,
    config: GameConfig,
    seats: list[Seat],
    options: HostOptions,
    deal_half: DealHostHalf,
) -> GameHeader:
    """The journal's ``game`` fact of a game starting with ``seats``."""
    entries = tuple(
        SeatEntry(
            s.name,
            s.kind,
            level=(s.level or options.bot_level) if s.kind == "bot" else None,
            session_id=s.session.id if s.session is not None else None,
            token=s.session.token if s.session is not None else None,
            key=s.session.key if s.session is not None and s.session.key else b"",
        )
        for s in seats
    )
    return GameHeader(
        game_id=game_id,
        created=created,
        config=config,
        seats=entries,
        bind=options.bind,
        port=options.port,
        records_dir=None if options.records_dir is None else str(options.records_dir),
        bot_level=options.bot_level,
        bot_delay=options.bot_delay,
        takeover_after=options.takeover_after,
        password=options.password,
        turn_time=options.turn_time,
        **deal_half.header_fields(seats),
    )


BOT_NAMES = ("Merlin", "Morgana", "Gandalf", "Circe", "Prospero", "Medea", "Radagast")


__all__ = [
    "BOT_NAMES",
    "DEAL_MESSAGES",
    "DEFAULT_DEAL_STEP_TIMEOUT",
    "HostCore",
    "HostOptions",
    "Seat",
    "Table",
    "first_legal_move",
    "game_header",
]
