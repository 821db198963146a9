"""The private deal at a Wizard host (``HostOptions.deal == "private"``).

``PrivateDealing`` drives the ``HiddenGame`` (``host.table.game``, which knows no hand) from
each attempt's ``HostDeal`` (``private_relay.py``): the round starts when every key is
released, a play counts once the relay accepted its open, the round is scored once every seat
revealed and its replay with the opened deck passed, and any failure voids the attempt and
deals the round again, visibly (``docs/protocol.md``, "A privately dealt round").
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from netplay import Session
from netplay.errors import ProtocolError
from netplay.mental import (
    DealFault,
    EnvelopeRefused,
    RoundFailed,
    RoundVerified,
)
from netplay.mental.protocol import (
    DUPLICATE_ITEM,
    NOT_AN_ITEM,
    OWN_COLLISION,
    RELAY,
    decode_body,
)
from netplay.mental.protocol import Phase as DealPhase
from netplay.signing import Envelope, SigningKey

from ..game import Bid, IllegalAction, Phase, Play, SeatView
from ..game.hidden import HiddenGame, Revoke, replay_round, view_with_hand
from ..private_deal import opened_deck, round_setup
from ..record import UNREVEALED, VOIDED, Redeal
from . import protocol as p
from .private_relay import HostDeal

if TYPE_CHECKING:
    from .host import WizardHost

log = logging.getLogger("wizard_tui.private_host")


# Voids of one round nobody pays for (only the host's own failures: a restart, a relay
# fault) before the host gives the game up. Voids a seat pays for cannot end the game: after
# MAX_CHARGES of them a bot of the host plays the seat (docs/rules.md, "Voided deals").
MAX_ATTEMPTS = 8
MAX_CHARGES = 2
EARLY_REVEAL = "early_reveal"  # void code: a seat revealed its keys before the round's end
LOST_KEYS = "lost_keys"  # void code: a seat's round keys are gone (an abort, not a cheat)
SUSPECT_CODES = (NOT_AN_ITEM, DUPLICATE_ITEM, OWN_COLLISION)  # settled by everyone's reveals


@dataclass
class _Void:
    """An attempt being voided: why, and whom the host blames so far."""

    reason: str
    code: str | None
    culprit: int | None
    evidence: Envelope | None
    actions: list[list[Any]]  # the attempt's public trump and bid actions, for the record
    charged: int | None = None  # the seat that pays, unless the reveals name another
    reveals: bool = False  # every seat was asked to reveal: the verdict names who pays


class PrivateDealing:
    """The private deal at a Wizard host (``HostOptions.deal == "private"``).

    It owns the round's ``HostDeal`` and drives the ``HiddenGame`` (``host.table.game``)
    from it: the round starts when every key is released, a play counts once the relay
    accepted its open, the round is scored once every seat revealed and the replay with
    the real deck passed, and any failure voids the attempt and deals the round again.
    """

    def __init__(self, host: WizardHost) -> None:
        self.host = host
        self.deal: HostDeal | None = None
        self.signing_keys: tuple[bytes, ...] = ()
        self.bot_signers: dict[int, SigningKey] = {}
        self.voiding: _Void | None = None
        # Seats a bot of the host plays for a player who left (takeover.py): a signing key
        # of the host's for each, used from the next attempt on; and the seats whose player
        # is back, released when the attempt in progress ends (their keys are the bot's).
        self.stand_in_signers: dict[int, SigningKey] = {}
        self._returning: set[int] = set()
        self._keys_in_use: tuple[bytes, ...] = ()
        # A restored host's void of the attempt the crash cut off: told to each player
        # that comes back (they were away when it was announced), until the round is over.
        self._restart_void: dict[str, Any] | None = None
        self._told_void: set[int] = set()
        # The deal-step timers (HostOptions.deal_step_timeout): per seat whose program owes
        # the deal a message, the step it owes (attempt, what) and the timer of that wait.
        self._step_timers: dict[int, tuple[tuple[Any, ...], asyncio.TimerHandle]] = {}
        # Who paid for voids (docs/rules.md, "Voided deals"): per seat in this game; this
        # round's charges as (attempt, seat, why), sent with its result; the seats that
        # withheld their reveal once every card was played; voids nobody paid for.
        self.charge_counts: dict[int, int] = {}
        self.round_charges: list[tuple[int, int, str]] = []
        self.withheld: set[int] = set()
        self._uncharged = 0
        self._scored_deck: tuple[int, ...] | None = None

    @property
    def game(self) -> HiddenGame:
        table = self.host.table
        assert table is not None and isinstance(table.game, HiddenGame)
        return table.game

    # -- lobby -----------------------------------------------------------------------------

    def ready(self) -> bool:
        """Every player sent its signing key (a game cannot start without them)."""
        return all(s is None or s.kind == "bot" or s.signing_key for s in self.host.seats)

    def on_sign_key(self, session: Session, msg: dict[str, Any]) -> None:
        host = self.host
        seat = host.seats[session.seat] if session.seat is not None else None
        if seat is None:
            host._refuse(session, p.NOT_SEATED, "you do not hold a seat")
            return
        if host.table is not None:
            if seat.signing_key != msg["key"]:
                host._refuse(session, p.LOBBY_CLOSED, "signing keys are fixed when the game starts")
            return
        seat.signing_key = msg["key"]
        host._after_join()

    def start_game(self) -> tuple[bytes, ...]:
        """The game's signing keys, per seat: each player's own; a fresh one per bot."""
        keys = []
        self.bot_signers = {}
        for i, seat in enumerate(self.host.seats):
            assert seat is not None
            if seat.kind == "bot":
                signer = SigningKey.generate()
                self.bot_signers[i] = signer
                keys.append(signer.public_key)
            else:
                assert seat.signing_key is not None
                keys.append(seat.signing_key)
        self.signing_keys = self._keys_in_use = tuple(keys)
        self.deal = None
        self.voiding = None
        self.stand_in_signers, self._returning = {}, set()
        self.charge_counts, self.round_charges, self.withheld = {}, [], set()
        self._uncharged = 0
        return self.signing_keys

    def game_fields(self) -> dict[str, Any]:
        return {"deal": p.DEAL_PRIVATE, "signing_keys": list(self.signing_keys)}

    # -- a round ---------------------------------------------------------------------------

    def start_round(self, attempt: int = 0) -> None:
        host = self.host
        table = host.table
        assert table is not None
        game = self.game
        n, r = game.players, game.full.round + 1
        dealer = (game.full.dealer + 1) % n
        for seat in sorted(self._returning):  # their players are back: they play from now on
            self._release(seat)
        keys = self._current_keys()
        for seat, (old, new) in enumerate(zip(self._keys_in_use, keys, strict=True)):
            if old != new:  # visibly, in the record too
                own = new == self.signing_keys[seat]
                table.recorder.add_stand_in(r, attempt, seat, None if own else new)
        self._keys_in_use = keys
        host.journal_event({"t": "attempt", "round": r, "attempt": attempt, "keys": list(keys)})
        setup = round_setup(table.game_id, r, n, dealer, keys, attempt)
        self.deal = deal = HostDeal(setup, {**self.bot_signers, **self.stand_in_signers})
        self.voiding = None
        self.withheld = set()
        host._broadcast(
            {
                "t": "round",
                "round": r,
                "dealer": dealer,
                "attempt": attempt,
                "signing_keys": list(keys),
            }
        )
        self._step(deal, deal.start)

    def _current_keys(self) -> tuple[bytes, ...]:
        keys = list(self.signing_keys)
        for seat, signer in self.stand_in_signers.items():
            keys[seat] = signer.public_key
        return tuple(keys)

    # -- seats taken over by a bot (takeover.py) ----------------------------------------------

    def seat_taken_over(self, seat: int) -> None:
        """A bot plays ``seat`` from now on. Its player's keys are gone with it: an attempt
        that still needs them is void, and dealt again with a key of the host's for the
        seat (the record lists it under ``stand_ins``)."""
        self.stand_in_signers.setdefault(seat, SigningKey.generate())
        self._returning.discard(seat)
        deal = self.deal
        if deal is None or self.voiding is not None or seat in deal.relay.view.revealed:
            return
        if deal.setup.signing_keys[seat] == self.stand_in_signers[seat].public_key:
            return  # the bot already plays it in this attempt
        name = self.host.seats[seat].name  # type: ignore[union-attr]
        if self._all_played():
            self._withhold(seat, f"{name} (seat {seat}) left without revealing its keys")
            return
        reason = f"{name} (seat {seat}) left: a bot plays the seat"
        self.void(reason, LOST_KEYS, None, None, charged=seat)

    def seat_back(self, seat: int) -> bool:
        """The player of ``seat`` is back. True: the bot must finish the attempt in
        progress (its keys are the bot's); the player takes over at the next one."""
        holder = self.host.seats[seat]
        if seat not in self.stand_in_signers or (holder is not None and holder.forfeited):
            return False
        deal = self.deal
        if (
            deal is not None
            and deal.setup.signing_keys[seat] == self.stand_in_signers[seat].public_key
        ):
            self._returning.add(seat)
            deal.watchers.add(seat)  # the transcript so far follows in on_resume
            return True
        del self.stand_in_signers[seat]
        return False

    def _release(self, seat: int) -> None:
        self._returning.discard(seat)
        self.stand_in_signers.pop(seat, None)
        holder = self.host.seats[seat]
        if holder is not None and holder.stand_in is not None:
            holder.stand_in = None
            self.host.drop_bot_turn(seat)
            self.host._send_seats()

    def round_moved(self) -> None:
        """The hidden game is between rounds, or its round's cards are all down."""
        game = self.game
        deal = self.deal
        if game.round_complete and deal is not None:
            self._step(deal, deal.reveal_bots)  # K5; remote seats reveal by themselves
        elif deal is None and game.phase is Phase.DEAL:
            # On the loop's next turn: the bots' keys and passes of the new deal then do not
            # add to the round-end work (the verification, scoring, record) in one stall.
            asyncio.get_running_loop().call_soon(self._start_next, self.host.table)

    def _start_next(self, table: object) -> None:
        game = self.game
        if self.host.table is table and self.deal is None and game.phase is Phase.DEAL:
            self.start_round(0)

    def on_deal(self, session: Session, msg: dict[str, Any]) -> None:
        deal = self._current(session, msg)
        if deal is None:
            return
        if session.seat in self.withheld:
            self.host.refuse(session, p.BAD_ENVELOPE, "you gave your round keys up as lost")
            return
        envelope = Envelope.from_wire(msg["env"])  # the schema checked it already
        if _kind(envelope) == "open":
            self.host._refuse(session, p.BAD_ENVELOPE, "a card's open goes in its play message")
            return
        if self._refused(session, lambda: deal.deliver(session.seat, envelope)):  # type: ignore[arg-type]
            return
        self._step(deal, lambda: None)

    def _refused(self, session: Session, send: Any) -> bool:
        """Hand an envelope to the relay; True if it was dropped as proving nothing
        (``EnvelopeRefused``): the sender is told, the round goes on, nobody is blamed."""
        try:
            send()
        except EnvelopeRefused as refused:
            self.host.refuse(session, p.BAD_ENVELOPE, f"{refused.code}: {refused.detail}"[:200])
            return True
        except DealFault:
            pass  # kept in deal.fault: _progress voids
        return False

    def on_lost(self, session: Session, msg: dict[str, Any]) -> None:
        deal = self._current(session, msg)
        if deal is None or self.voiding is not None:
            return
        seat = session.seat
        assert seat is not None
        if seat in deal.relay.view.revealed or seat in self.withheld:
            return
        name = self.host.seats[seat].name  # type: ignore[union-attr]
        if self._all_played():
            self._withhold(seat, f"{name} (seat {seat}) lost the round's keys after every card")
            return
        reason = f"{name} (seat {seat}) lost the round's keys"
        self.void(reason, LOST_KEYS, None, None, charged=seat)

    def on_abort(self, session: Session, msg: dict[str, Any]) -> None:
        """A player's own check failed inside the round (its view then refuses everything):
        the attempt ends. The host cannot confirm whom it blames, so the record names no
        culprit; a suspect is settled by everyone's reveals."""
        deal = self._current(session, msg)
        if deal is None or self.voiding is not None:
            return
        seat, code, culprit = session.seat, msg["code"], msg["culprit"]
        assert seat is not None
        if seat in deal.relay.view.revealed or seat in self.withheld:
            return
        blame = "" if culprit is None else f", blaming {_who(culprit)}"
        reason = f"seat {seat} stopped the round: its check found {code}{blame}"
        if self._all_played():
            # Everything the round needs is open and checked by the relay: nothing is void.
            self._withhold(seat, reason + " after every card was played")
            return
        # The host cannot confirm it: the seat pays, unless everyone's reveals (asked for a
        # suspect) name the one who cheated.
        self.void(reason, code, None, None, reveals=code in SUSPECT_CODES, charged=seat)

    def on_play(self, session: Session, msg: dict[str, Any]) -> None:
        """A remote seat's play: its turn (public state), then its open through the relay."""
        host = self.host
        deal = self.deal
        seat, card = session.seat, msg["card"]
        assert seat is not None
        self.take_stray_open(session, msg)
        if deal is None or self.voiding is not None:
            host._refuse(session, p.NOT_READY, "no deal is in progress")
            return
        try:
            self.game.check_play(seat, card)
        except IllegalAction as exc:
            host._refuse(session, exc.code, exc.message)
            return
        if "open" not in msg:
            host._refuse(session, p.BAD_ENVELOPE, "a play of a private deal carries its open")
            return
        envelope = Envelope.from_wire(msg["open"])
        try:
            body = decode_body(envelope.body)
        except ProtocolError:
            body = None  # signed garbage: the relay names its sender
        if body is not None and (body["t"] != "open" or body["item"] != card):
            host._refuse(session, p.BAD_ENVELOPE, "the open is not this card's")
            return
        before = len(deal.plays)
        if self._refused(session, lambda: deal.deliver(seat, envelope)):
            return
        self._play_through(deal, seat, card, lambda: None, before)

    def take_stray_open(self, session: Session, msg: dict[str, Any]) -> None:
        """A play that comes after the host voided the attempt: the seat opened the card
        before it heard of the void, and its reveal (K5) is numbered after that open, so
        the relay takes the open (not the play) to keep the seat's sequence whole."""
        deal, seat = self.deal, session.seat
        if deal is None or self.voiding is None or "open" not in msg or seat is None:
            return
        if seat in deal.relay.view.revealed or seat in deal.bots:
            return
        envelope = Envelope.from_wire(msg["open"])
        if not self._refused(session, lambda: deal.deliver(seat, envelope)):
            self._flush(deal)
            self._progress(deal)

    def bot_view(self, seat: int, view: SeatView) -> SeatView:
        """What a bot of the host decides from: the public view and its own hand."""
        deal = self.deal
        if deal is None or seat not in deal.bots or view.round != deal.round:
            return view
        return view_with_hand(view, deal.bot_hand(seat))

    def bot_play(self, seat: int, card: int) -> None:
        deal = self.deal
        if deal is None or self.voiding is not None:
            return
        self._play_through(deal, seat, card, lambda: deal.bot_play(seat, card))

    def _play_through(
        self, deal: HostDeal, seat: int, card: int, send: Any, before: int | None = None
    ) -> None:
        before = len(deal.plays) if before is None else before
        with contextlib.suppress(DealFault):  # kept in deal.fault: _progress voids
            send()
        self._flush(deal)
        if deal.fault is None and deal.suspect is None and len(deal.plays) > before:
            opened = deal.plays[-1]
            if opened.seat == seat and opened.item == card:
                self.host._after_change(self.game.apply(Play(seat, card)))
        self._progress(deal)
        self._watch_steps()

    def _current(self, session: Session, msg: dict[str, Any]) -> HostDeal | None:
        host = self.host
        table, deal = host.table, self.deal
        if table is None or table.finished or deal is None:
            host._refuse(session, p.NOT_READY, "no deal is in progress")
            return None
        if session.seat is None:
            host._refuse(session, p.NOT_SEATED, "you do not hold a seat")
            return None
        if (msg["round"], msg["attempt"]) != (deal.round, deal.attempt):
            host._refuse(
                session,
                p.STALE_ATTEMPT,
                f"round {msg['round']} attempt {msg['attempt']} is not being dealt",
            )
            return None
        if deal.setup.signing_keys[session.seat] != self.signing_keys[session.seat]:
            # A bot of the host plays this seat in this attempt: the player has no say in it.
            host.refuse(session, p.NOT_YOUR_SEAT, "a bot of the host plays your seat in this deal")
            return None
        return deal

    # -- driving the game from the deal -------------------------------------------------------

    def _step(self, deal: HostDeal, action: Any) -> None:
        with contextlib.suppress(DealFault):  # kept in deal.fault: _progress voids
            action()
        self._flush(deal)
        self._progress(deal)
        self._watch_steps()

    def _flush(self, deal: HostDeal) -> None:
        """Send the relayed envelopes to their seats (a seat away gets the transcript when
        it comes back)."""
        out, deal.outbox = deal.outbox, []
        server = self.host.server
        for seat, envelope in out:
            holder = self.host.seats[seat]
            session = holder.session if holder is not None else None
            if server is not None and session is not None and session.connected:
                server.send(session, p.deal_msg(deal.round, deal.attempt, envelope.to_wire()))

    def _progress(self, deal: HostDeal) -> None:
        if deal is not self.deal:
            return  # an older attempt: whatever it did is settled
        game = self.game
        if self.voiding is not None:
            if deal.verdict is not None or deal.fault is not None:
                self._complete_void()
            return
        if deal.fault is not None:
            fault = deal.fault
            evidence = fault.evidence or deal.fault_envelope
            paying = fault.culprit if fault.culprit is not None and fault.culprit >= 0 else None
            self.void(
                f"{fault.code}: {fault.detail}",
                fault.code,
                fault.culprit,
                evidence,
                charged=paying,
            )
        elif (early := self._early_reveal(deal)) is not None:
            reason = f"seat {early} revealed its keys before the round's end"
            self.void(reason, EARLY_REVEAL, None, None, charged=early)
        elif self.withheld and game.round_complete and deal.verdict is None:
            if set(deal.relay.view.revealed) | self.withheld == set(range(deal.setup.seats)):
                self._finish_unrevealed(deal)
        elif deal.suspect is not None:
            suspect = deal.suspect
            self.void(f"{suspect.code}: {suspect.detail}", suspect.code, None, None, reveals=True)
        elif deal.verdict is not None:
            self._finish(deal)
        elif deal.dealt and game.phase is Phase.DEAL and game.round == game.full.round:
            self.host._after_change(game.start_round(deal.trump_card))

    def _finish(self, deal: HostDeal) -> None:
        """Every seat revealed: score the round, or void it naming the culprit."""
        verdict = deal.verdict
        if isinstance(verdict, RoundFailed):
            fault = verdict.fault
            culprit = fault.culprit
            self.void(
                f"round-end check: {fault.code}: {fault.detail}",
                fault.code,
                culprit,
                fault.evidence,
                charged=culprit if culprit is not None and culprit >= 0 else None,
            )
            return
        assert isinstance(verdict, RoundVerified)
        self._score(tuple(i for i in verdict.items if i is not None))

    def _score(self, deck: tuple[int, ...]) -> None:
        try:
            events = self.game.finish_round(deck)
        except Revoke as exc:
            # The proof is in the transcript already: the deck opened with every revealed
            # key, and the seat's signed open of the card (docs/private-deal.md section 11).
            reason = f"seat {exc.seat} revoked: {exc.error.message}"
            self.void(reason, exc.code, exc.seat, None, charged=exc.seat)
            return
        self._scored_deck = deck
        self.host._after_change(events)

    # -- who pays for a void (docs/rules.md, "Voided deals") -----------------------------------

    def _all_played(self) -> bool:
        """Every card of the attempt is down: the round is scored from what was opened."""
        return self.voiding is None and self.game.round_complete

    def _early_reveal(self, deal: HostDeal) -> int | None:
        """A remote seat that revealed its keys while the round is still being played."""
        if self.game.round_complete:
            return None
        return next((s for s in sorted(deal.relay.view.revealed) if s not in deal.bots), None)

    def _withhold(self, seat: int, reason: str) -> None:
        """``seat`` will not reveal although every card is played: it pays, and the round is
        scored from the opens once every other seat revealed (docs/private-deal.md
        section 10)."""
        deal = self.deal
        assert deal is not None
        self.withheld.add(seat)
        log.warning("round %d attempt %d: %s", deal.round, deal.attempt, reason)
        self._chat(f"round {deal.round}: {reason}: scored from the cards played")
        self._progress(deal)
        self._watch_steps()

    def _finish_unrevealed(self, deal: HostDeal) -> None:
        deck = opened_deck(deal.relay.view)
        assert deck is not None  # every card was played through the relay
        try:
            replay_round(self.game.full, deck, self.game.round_actions)
        except Revoke:
            self._score(deck)  # voids the attempt: the revoker pays, not the withholders
            return
        for seat in sorted(self.withheld):
            self._charge(deal.round, deal.attempt, seat, UNREVEALED)
        self._score(deck)

    def _charge(self, r: int, attempt: int, seat: int, why: str) -> None:
        """``seat`` pays ``void_charge(r)`` in round ``r``; at its MAX_CHARGES-th charge of
        the game a bot of the host takes its seat for the rest of the game."""
        host = self.host
        table = host.table
        assert table is not None
        amount = self.game.charge(seat)
        table.recorder.add_charge(r, attempt, seat, why)
        host.journal_event(
            {"t": "charge", "round": r, "attempt": attempt, "seat": seat, "why": why}
        )
        self.round_charges.append((attempt, seat, why))
        count = self.charge_counts[seat] = self.charge_counts.get(seat, 0) + 1
        name = host.seats[seat].name  # type: ignore[union-attr]
        self._chat(f"{name} (seat {seat}) scores {amount} in round {r} for it")
        holder = host.seats[seat]
        if count >= MAX_CHARGES and holder is not None and holder.kind == "human":
            self.stand_in_signers.setdefault(seat, SigningKey.generate())
            self._returning.discard(seat)
            host.forfeit_seat(seat)
            self._chat(f"{name} voided {count} deals: a bot plays the seat to the end")

    def _chat(self, text: str) -> None:
        self.host._broadcast({"t": "chat", "seat": None, "name": "host", "text": text[:200]})

    def record_round(self) -> None:
        """The round was scored: record it with its transcript and publish the result."""
        host = self.host
        table, deal = host.table, self.deal
        assert table is not None and deal is not None
        result = self.game.results[-1]
        table.recorder.add_private_round(result, deal.setup, deal.transcript)
        self._journal_round(deal)
        self._restart_void = None
        wire = p.result_wire(result, None)
        table.history_wire.append(wire)
        message: dict[str, Any] = {"t": "round_end", "result": wire}
        if self.round_charges:  # who paid for a void this round (docs/protocol.md)
            message["charges"] = [list(c) for c in self.round_charges]
        host._broadcast(message)
        self.round_charges, self.withheld, self._uncharged = [], set(), 0
        self._scored_deck = None
        self.deal = None
        self._watch_steps()
        host._write_record()

    # -- deal-step timeouts (HostOptions.deal_step_timeout) ---------------------------------------
    # A connected player's program that owes the deal a message (docs/protocol.md, "A privately
    # dealt round": its pass, its key release, its reveal) and does not send it in time is
    # disconnected (`deal_timeout`): the seat is then one that left, and the takeover path
    # (takeover.py, seat_taken_over) goes on from there. The host's bots never time out.

    def owed_steps(self) -> dict[int, tuple[Any, ...]]:
        """The seats whose program owes the deal a message now, each with the step it owes."""
        deal = self.deal
        if deal is None or deal.fault is not None:
            return {}
        view = deal.relay.view
        phase = view.phase
        attempt = (deal.round, deal.attempt)
        owed: dict[int, tuple[Any, ...]] = {}
        if self.voiding is not None or (phase is DealPhase.PLAY and self.game.round_complete):
            owed = {s: (*attempt, "reveal") for s in view.missing_reveals()}
        elif phase in (DealPhase.SHUFFLE, DealPhase.LOCK) and view.turn is not None:
            owed = {view.turn: (*attempt, "pass", view.passes_done)}
        elif phase is DealPhase.RELEASE:
            owed = {
                s: (*attempt, "release") for s in range(deal.setup.seats) if s not in view.released
            }
        return {
            s: step for s, step in owed.items() if s not in deal.bots and s not in self.withheld
        }

    def _watch_steps(self) -> None:
        """Start the timer of each step newly owed; stop those of steps no longer owed."""
        timeout = self.host.options.deal_step_timeout
        owed = self.owed_steps() if timeout is not None else {}
        for seat in list(self._step_timers):
            if owed.get(seat) != self._step_timers[seat][0]:
                self._step_timers.pop(seat)[1].cancel()
        if timeout is None:
            return
        loop = asyncio.get_running_loop()
        for seat, step in owed.items():
            if seat not in self._step_timers:
                timer = loop.call_later(timeout, self._step_timed_out, seat, step)
                self._step_timers[seat] = (step, timer)

    def resume_step_timer(self) -> None:
        """A player is back: a step it owes whose wait ran out while it was away gets a new
        wait (it replays the transcript first); one still running goes on, so leaving and
        coming back does not stretch it."""
        self._watch_steps()

    def _step_timed_out(self, seat: int, step: tuple[Any, ...]) -> None:
        entry = self._step_timers.get(seat)
        if entry is None or entry[0] != step:
            return
        del self._step_timers[seat]
        host, server = self.host, self.host.server
        holder = host.seats[seat] if seat < len(host.seats) else None
        session = holder.session if holder is not None else None
        if self.owed_steps().get(seat) != step or server is None or session is None:
            return
        if not session.connected:
            return  # it left: its takeover countdown runs; it gets a new wait if it is back
        log.warning("seat %d (%s) did not send its deal step %r in time", seat, session.name, step)
        if step[-1] == "reveal" and self._all_played():
            self._withhold(seat, f"{session.name} (seat {seat}) did not reveal its keys in time")
        server.error(
            session,
            p.DEAL_TIMEOUT,
            "your program did not take its turn in the deal in time",
            fatal=True,
        )
        text = f"{session.name}'s program did not take its turn in the deal: it was disconnected"
        host._broadcast({"t": "chat", "seat": None, "name": "host", "text": text[:200]})

    def close(self) -> None:
        for _, timer in self._step_timers.values():
            timer.cancel()
        self._step_timers.clear()

    # -- voids ----------------------------------------------------------------------------------

    def void(
        self,
        reason: str,
        code: str | None,
        culprit: int | None,
        evidence: Envelope | None,
        *,
        reveals: bool = False,
        charged: int | None = None,
    ) -> None:
        """End this attempt, visibly; with ``reveals`` every seat reveals its keys first,
        so that the round-end verification names whoever caused it. ``charged``: the seat
        that pays for the void (unless the verification names another)."""
        host = self.host
        deal, game = self.deal, self.game
        assert deal is not None
        actions = [_action_wire(a) for a in game.round_actions if not isinstance(a, Play)]
        reveals = reveals and deal.fault is None and self._all_connected()
        self.voiding = _Void(reason, code, culprit, evidence, actions, charged, reveals)
        if game.round > game.full.round:
            game.void_round()
        log.warning("round %d attempt %d void: %s", deal.round, deal.attempt, reason)
        host._broadcast(
            {
                "t": "void",
                "round": deal.round,
                "attempt": deal.attempt,
                "reason": reason[:200],
                "code": code,
                "culprit": culprit,
                "reveal": reveals,
                # The refused envelope, signed by its sender: every client checks it itself.
                "evidence": None if evidence is None else evidence.to_wire(),
            }
        )
        host._send_states([])
        if reveals:
            self._step(deal, deal.reveal_bots)  # the verdict completes the void
        else:
            self._complete_void()

    def seat_left(self, seat: int) -> None:
        """A seat's link dropped: a void waiting for its reveal goes on without it. A player
        that came back while its stand-in finished an attempt and left again before that
        attempt ended is no longer returning: the stand-in keeps the seat (and its key) for
        the attempts after it, as if the player had never come back (without this, the next
        attempt would wait for a pass only the absent player could make)."""
        deal = self.deal
        if seat in self._returning:
            self._returning.discard(seat)
            if deal is not None:
                deal.watchers.discard(seat)
        if self.voiding is not None and deal is not None and seat not in deal.relay.view.revealed:
            self._complete_void()

    def _all_connected(self) -> bool:
        return all(
            s is not None
            and (
                s.kind == "bot"
                or s.stand_in is not None
                or (s.session is not None and s.session.connected)
            )
            for s in self.host.seats
        )

    def _complete_void(self) -> None:
        host = self.host
        table, deal, void = host.table, self.deal, self.voiding
        assert table is not None and deal is not None and void is not None
        code, culprit, charged = void.code, void.culprit, void.charged
        if isinstance(deal.verdict, RoundFailed):
            code, culprit = deal.verdict.fault.code, deal.verdict.fault.culprit
            void.evidence = deal.verdict.fault.evidence
            charged = culprit if culprit is not None and culprit >= 0 else None
        elif deal.fault is not None and deal.fault.culprit is not None and deal.fault.culprit >= 0:
            charged = deal.fault.culprit  # its signed envelope broke the round while voiding
        elif void.reveals and deal.verdict is None:
            # A seat that did not reveal when asked is the one that keeps the check from
            # running: it pays rather than the one that raised the suspect.
            missing = [s for s in deal.relay.view.missing_reveals() if s not in deal.bots]
            charged = missing[0] if missing else charged
        table.recorder.add_private_redeal(
            deal.round,
            deal.setup,
            deal.transcript,
            void.reason,
            fault=code,
            culprit=culprit,
            evidence=void.evidence,
            actions=void.actions,
        )
        self._journal_void(deal.round, deal.attempt, table.recorder.redeals[-1])
        self.deal = self.voiding = None
        who = "" if culprit is None else " (blame: " + _who(culprit) + ")"
        self._chat(f"round {deal.round} is dealt again: {void.reason}{who}")
        if charged is not None:
            self._charge(deal.round, deal.attempt, charged, VOIDED)
        else:
            self._uncharged += 1
        host._write_record()
        if self._uncharged >= MAX_ATTEMPTS:
            host.failed = f"round {deal.round} was voided {MAX_ATTEMPTS} times by the host"
            host.finished.set()
            return
        self.start_round(deal.attempt + 1)

    # -- crash safety (restore.py) ------------------------------------------------------------

    def _journal_round(self, deal: HostDeal) -> None:
        """A scored round, whole: a restored host rebuilds it from its deck and actions."""
        from .restore import actions_wire

        if self.host.journal is None:
            return  # (no journal: spare the transcript's copy)
        assert self._scored_deck is not None
        entry = {
            "t": "private_round",
            "round": deal.round,
            "attempt": deal.attempt,
            "deck": list(self._scored_deck),
            "actions": actions_wire(self.game.round_actions),
            "envelopes": [e.to_wire() for e in deal.transcript],
        }
        self.host.journal_event(entry)

    def _journal_void(self, r: int, attempt: int, redeal: Redeal) -> None:
        """A voided attempt, with what the record keeps of it."""
        record = redeal.private_deal
        if record is None or self.host.journal is None:
            return
        entry = {
            "t": "void",
            "round": r,
            "attempt": attempt,
            "reason": redeal.reason,
            "fault": redeal.fault,
            "culprit": redeal.culprit,
            "evidence": None if redeal.evidence is None else redeal.evidence.to_wire(),
            "actions": [list(a) for a in redeal.actions],
            "envelopes": [e.to_wire() for e in record.envelopes],
        }
        self.host.journal_event(entry)

    def restore(
        self,
        signing_keys: tuple[bytes, ...],
        bot_signers: dict[int, SigningKey],
        keys_in_use: tuple[bytes, ...],
    ) -> None:
        """A host rebuilt from its journal: the game's keys as they were. Stand-ins are not
        restored: every player gets a seat of its own back, and a new stand-in if it does
        not come back in time."""
        self.signing_keys, self.bot_signers = signing_keys, bot_signers
        self._keys_in_use = keys_in_use or signing_keys
        self.deal = self.voiding = None

    def resume(self, cut_off: tuple[int, int, tuple[bytes, ...]] | None, next_attempt: int) -> None:
        """Carry on after a restore. The attempt the crash cut off (``cut_off``) cannot go
        on: the players' round keys were never the host's, and its bots' were in memory. It
        is voided as lost keys, visibly, and the round is dealt again (section 10)."""
        table = self.host.table
        self.charge_counts = {}
        this_round = self.game.full.round + 1
        for charge in table.recorder.charges if table is not None else ():
            self.charge_counts[charge.seat] = self.charge_counts.get(charge.seat, 0) + 1
            if charge.round == this_round:  # told with the round's result
                self.round_charges.append((charge.attempt, charge.seat, charge.why))
        for seat, count in self.charge_counts.items():  # it voided too many deals already
            holder = self.host.seats[seat]
            if count >= MAX_CHARGES and holder is not None and holder.kind == "human":
                self.stand_in_signers.setdefault(seat, SigningKey.generate())
                self.host.forfeit_seat(seat)
        if cut_off is not None:
            r, attempt, keys = cut_off
            self._void_cut_off(r, attempt, keys)
            next_attempt = attempt + 1
        self.start_round(next_attempt)

    def _void_cut_off(self, r: int, attempt: int, keys: tuple[bytes, ...]) -> None:
        host, game = self.host, self.game
        table = host.table
        assert table is not None
        reason = "the host restarted: the round's keys are gone"
        dealer = (game.full.dealer + 1) % game.players
        setup = round_setup(table.game_id, r, game.players, dealer, keys, attempt)
        # The host kept no envelope of the attempt: the record shows its setup, no more.
        table.recorder.add_private_redeal(r, setup, [], reason, fault=LOST_KEYS)
        self._journal_void(r, attempt, table.recorder.redeals[-1])
        host._write_record()
        log.warning("round %d attempt %d void: %s", r, attempt, reason)
        self._restart_void = {
            "t": "void",
            "round": r,
            "attempt": attempt,
            "reason": reason,
            "code": LOST_KEYS,
            "culprit": None,
            "reveal": False,
            "evidence": None,
        }
        self._told_void = set()
        host._broadcast(self._restart_void)

    def tell_restart_void(self, session: Session) -> None:
        """A player back after the restart hears of the void it missed, before its
        snapshot: its client discards that attempt's keys and joins the redeal."""
        msg, server = self._restart_void, self.host.server
        if msg is None or server is None or session.seat is None or session.seat in self._told_void:
            return
        self._told_void.add(session.seat)
        server.send(session, msg)

    # -- reconnects -------------------------------------------------------------------------------

    def snapshot_deal(self, seat: int | None) -> dict[str, Any] | None:
        deal = self.deal
        if deal is None:
            return None
        return {
            "round": deal.round,
            "attempt": deal.attempt,
            "envelopes": len(deal.transcript),
            "voiding": self.voiding is not None,
            "signing_keys": list(deal.setup.signing_keys),
        }

    def send_transcript(self, session: Session) -> None:
        """The round's envelopes so far, after a snapshot: a reconnecting player replays them
        (``DealPlayer.resume``) and carries on with the keys it kept."""
        deal, server = self.deal, self.host.server
        if deal is None or server is None:
            return
        chunk: list[dict[str, Any]] = []
        size = 0
        transcript = deal.transcript
        for i, envelope in enumerate(transcript):
            chunk.append(envelope.to_wire())
            size += len(envelope.body) + 100
            last = i == len(transcript) - 1
            if size > TRANSCRIPT_CHUNK or len(chunk) >= 100 or last:
                server.send(
                    session,
                    {
                        "t": "transcript",
                        "round": deal.round,
                        "attempt": deal.attempt,
                        "envelopes": chunk,
                        "more": not last,
                    },
                )
                chunk, size = [], 0


TRANSCRIPT_CHUNK = 24_000  # bytes of envelopes per transcript message, well inside a frame


def _kind(envelope: Envelope) -> str | None:
    try:
        return decode_body(envelope.body)["t"]
    except ProtocolError:
        return None


def _action_wire(action: Any) -> list[Any]:
    if isinstance(action, Bid):
        return ["bid", action.seat, action.bid]
    return ["trump", action.seat, int(action.suit)]


def _who(culprit: int) -> str:
    return "the relay" if culprit == RELAY else f"seat {culprit}"


__all__ = ["EARLY_REVEAL", "LOST_KEYS", "MAX_ATTEMPTS", "MAX_CHARGES", "PrivateDealing"]
