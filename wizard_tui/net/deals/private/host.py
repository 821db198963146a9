"""The host half of the private deal (``HostOptions.deal == "private"``).

``PrivateDealing`` (the deal kind's ``PrivateHost``, ``deals/private/``) drives the
``HiddenGame`` (the table's game, which knows no hand) from
each attempt's ``HostDeal`` (``private_relay.py``): the round starts when every key is
released, a play counts once the relay accepted its open, the round is scored once every seat
revealed and its replay with the opened deck passed, and any failure voids the attempt and
deals the round again, visibly (``docs/protocol.md``, "A privately dealt round").

It sees the host core only through its ``HostPort`` (``deals/host_half.py``). Its journal
facts (``attempt``, ``void``, ``charge``, ``private_round``) are applied by ``apply``, the same
code for the live host and for a restored one replaying its journal.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from netplay import Session
from netplay.errors import ProtocolError
from netplay.mental import (
    DealFault,
    DealSetup,
    EnvelopeRefused,
    RoundFailed,
    RoundVerified,
)
from netplay.mental.protocol import (
    BAD_GIFT,
    DUPLICATE_ITEM,
    NOT_AN_ITEM,
    OWN_COLLISION,
    RELAY,
    decode_body,
)
from netplay.mental.protocol import Phase as DealPhase
from netplay.signing import Envelope, SigningKey

from ....game import (
    BLIND_CARD,
    Bid,
    ChooseTrump,
    Event,
    Game,
    IllegalAction,
    Phase,
    Play,
    Reason,
    SeatView,
    dealer_of,
)
from ....game.actions import PassCard, SwapCard
from ....game.codec import PlayerAction, action_to_wire
from ....game.hidden import HiddenGame, Revoke, replay_round, view_with_foreheads, view_with_hand
from ....game.hidden_special import HIDDEN_CARD, HiddenSpecialGame
from ....game.specials import Special
from ....private_deal import item_cards, opened_deck, round_setup, veiled_round
from ....record import PRIVATE_PROTOCOL, UNREVEALED, VOIDED, GameRecorder
from ... import protocol as p
from ...host_state import Seat, Table, queried
from ...journal_facts import (
    PRIVATE,
    AttemptBegan,
    AttemptVoided,
    Decider,
    Fact,
    GameHeader,
    PrivateRoundScored,
    SeatCharged,
)
from ...private_relay import HostDeal
from ..host_half import DealHostBase
from .gifts import holding, left, passes_of, view_with_holding
from .passes import give_refusal, owed_pass_steps, pass_cards, pass_waits, void_actions
from .witch import needs_show, swap_refusal

# The table's game: it knows no hand.
PrivateGame = HiddenGame | HiddenSpecialGame


def plain_actions(actions: Sequence[PlayerAction]) -> list[ChooseTrump | Bid | Play]:
    """A private round's actions without special cards: trump, bids and plays only;
    ValueError for any other."""
    plain: list[ChooseTrump | Bid | Play] = []
    for action in actions:
        if not isinstance(action, ChooseTrump | Bid | Play):
            raise ValueError(f"a private round holds no {action!r}")
        plain.append(action)
    return plain


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
    # The attempt's public actions, for the record (a pass's card is put in once the
    # reveals verified the gifts: ``passes.void_actions``).
    actions: list[PlayerAction]
    charged: int | None = None  # the seat that pays, unless the reveals name another
    reveals: bool = False  # every seat was asked to reveal: the verdict names who pays


class PrivateDealing(DealHostBase):
    """The private deal at a Wizard host (``HostOptions.deal == "private"``).

    It owns the round's ``HostDeal`` and drives the ``HiddenGame`` (the table's game)
    from it: the round starts when every key is released, a play counts once the relay
    accepted its open, the round is scored once every seat revealed and the replay with
    the real deck passed, and any failure voids the attempt and deals the round again.
    """

    name: ClassVar[str] = PRIVATE
    messages: ClassVar[frozenset[str]] = frozenset({"sign_key", "deal", "lost", "abort"})
    # Nobody but the player's own program knows its hand: it decides for an away seat.
    host_decides_for_away: ClassVar[bool] = False

    def __init__(self) -> None:
        super().__init__()
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
        # The journal's view of the round (``apply``): the attempt being dealt (its setup),
        # and the number the next attempt of the round gets.
        self.attempt: DealSetup | None = None
        self.next_attempt = 0
        self._last_charge = 0
        # A restored host's void of the attempt the crash cut off: told to each player
        # that comes back (they were away when it was announced), until the round is over.
        self._restart_void: dict[str, Any] | None = None
        self._told_void: set[int] = set()
        # The deal-step timers (HostOptions.deal_step_timeout): per seat whose program owes
        # the deal a message, the step it owes (attempt, what); its timer is the core's.
        self._step_timers: dict[int, tuple[Any, ...]] = {}
        # Who paid for voids (docs/rules.md, "Voided deals"): per seat in this game; this
        # round's charges as (attempt, seat, why), sent with its result; the seats that
        # withheld their reveal once every card was played; voids nobody paid for.
        self.charge_counts: dict[int, int] = {}
        self.round_charges: list[tuple[int, int, str]] = []
        self.withheld: set[int] = set()
        self._uncharged = 0

    @property
    def game(self) -> PrivateGame:
        table = self.port.table
        assert table is not None and isinstance(table.game, HiddenGame | HiddenSpecialGame)
        return table.game

    # -- a game, and its journal facts: applied live and when replaying -----------------------

    def header_fields(self, seats: Sequence[Seat]) -> dict[str, Any]:
        """The game's signing keys, per seat: each player's own; a fresh one per bot (its
        private key goes into the journal: a restored bot must sign as before)."""
        keys: list[bytes] = []
        bot_keys: dict[int, bytes] = {}
        for i, seat in enumerate(seats):
            if seat.kind == "bot":
                signer = SigningKey.generate()
                bot_keys[i] = signer.private_bytes()
                keys.append(signer.public_key)
            else:
                assert seat.signing_key is not None
                keys.append(seat.signing_key)
        return {"deal": PRIVATE, "signing_keys": tuple(keys), "bot_keys": bot_keys}

    def begin(
        self, header: GameHeader
    ) -> tuple[Game | HiddenGame | HiddenSpecialGame, GameRecorder]:
        if len(header.signing_keys) != header.config.players:
            raise ValueError("a privately dealt game has a signing key per seat")
        self.signing_keys = self._keys_in_use = header.signing_keys
        self.bot_signers = {
            seat: SigningKey.from_private_bytes(k) for seat, k in header.bot_keys.items()
        }
        self.deal = self.voiding = self.attempt = None
        self.next_attempt = 0
        self.stand_in_signers, self._returning = {}, set()
        self.charge_counts, self.round_charges, self.withheld = {}, [], set()
        self._uncharged = 0
        recorder = GameRecorder(
            header.game_id,
            header.players,
            header.config,
            protocol=PRIVATE_PROTOCOL,
            signing_keys=header.signing_keys,
        )
        if header.config.rules.specials:
            return HiddenSpecialGame(header.config), recorder
        return HiddenGame(header.config), recorder

    def apply(self, table: Table, fact: Fact) -> list[Event]:
        game = table.game
        assert isinstance(game, HiddenGame | HiddenSpecialGame)
        if isinstance(fact, SeatCharged):  # before the round's score
            r = fact.round
            if r != game.full.round + 1 or fact.why not in (VOIDED, UNREVEALED):
                raise ValueError(f"a charge in round {r} after round {game.full.round}")
            self._last_charge = game.charge(fact.seat)
            table.recorder.add_charge(r, fact.attempt, fact.seat, fact.why)
            return []
        if isinstance(fact, AttemptBegan):
            r, attempt = fact.round, fact.attempt
            if game.phase is not Phase.DEAL or r != game.full.round + 1:
                raise ValueError(f"round {r} is dealt after round {game.full.round}")
            if self.attempt is not None or attempt != self.next_attempt:
                raise ValueError(f"attempt {attempt} of round {r} follows no attempt")
            own = self.signing_keys
            for seat, (old, new) in enumerate(zip(self._keys_in_use, fact.keys, strict=True)):
                if old != new:  # a stand-in's key, or the player's own again: in the record
                    table.recorder.add_stand_in(r, attempt, seat, None if new == own[seat] else new)
            self._keys_in_use = fact.keys
            dealer = dealer_of(game.config.first_dealer, r, game.players)
            veiled = veiled_round(game.config.rules, game.players, r)  # a forehead round
            self.attempt = round_setup(
                table.game_id,
                r,
                game.players,
                dealer,
                fact.keys,
                attempt,
                hand_size=game.config.round_size(r),
                veiled=veiled,
                specials=game.config.rules.specials,
            )
            return []
        if not isinstance(fact, AttemptVoided | PrivateRoundScored):
            raise ValueError(f"a {fact.t} entry in a privately dealt game")
        setup = self.attempt
        if setup is None or (setup.round, setup.attempt) != (fact.round, fact.attempt):
            raise ValueError(f"no attempt {fact.attempt} of round {fact.round} is in progress")
        events: list[Event] = []
        if isinstance(fact, AttemptVoided):
            table.recorder.add_private_redeal(
                fact.round,
                setup,
                fact.envelopes,
                fact.reason,
                fault=fact.fault,
                culprit=fact.culprit,
                evidence=fact.evidence,
                actions=fact.actions,
            )
            self.next_attempt = fact.attempt + 1
        else:
            if game.round_complete and isinstance(game, HiddenSpecialGame):
                # live: every play is in; the deck and the passes' cards score it
                passes = passes_of(fact.actions, game.players)
                events = game.finish_round(fact.deck, passes)  # (Revoke: nothing changed)
                result = game.results[-1]
            elif game.round_complete:  # live: every play is in, the deck scores it
                events = game.finish_round(fact.deck)  # (Revoke: nothing changed)
                result = game.results[-1]
            elif isinstance(game, HiddenSpecialGame):  # replaying: rebuilt from deck, actions
                result = game.restore_round(fact.deck, fact.actions)
            else:
                result = game.restore_round(fact.deck, plain_actions(fact.actions))
            table.recorder.add_private_round(result, setup, fact.envelopes)
            table.history_wire.append(p.result_wire(result, None))
            self.next_attempt = 0
        self.attempt = None
        return events

    # -- lobby -----------------------------------------------------------------------------

    def ready(self) -> bool:
        """Every player sent its signing key (a game cannot start without them)."""
        return all(s is None or s.kind == "bot" or s.signing_key for s in self.port.seats)

    def on_join(self, session: Session) -> None:
        timeout = self.port.options.deal_step_timeout
        if timeout is not None:
            # What a joiner owes before the game starts (its signing key) has a time limit
            # too: a joiner that never sends it would keep the game from ever starting.
            key = ("lobby_step", session.id)
            self.port.start_timer(key, timeout, lambda: self._lobby_step_due(session))

    def _lobby_step_due(self, session: Session) -> None:
        """A joiner's time to send its signing key ran out: if it still has not, its seat is
        freed for someone else and it is told why."""
        port = self.port
        index = session.seat
        seat = port.seats[index] if index is not None and index < len(port.seats) else None
        if port.table is not None or seat is None or seat.session is not session:
            return  # the game started (it sent its key), or the seat is someone else's now
        if seat.signing_key is not None or index is None:
            return
        timeout = port.options.deal_step_timeout
        log.warning("seat %d (%s) sent no signing key in %g s: freed", index, seat.name, timeout)
        port.disconnect(
            session,
            p.LOBBY_TIMEOUT,
            f"your program did not send its signing key within {timeout:g} s: "
            "your seat was given up (join again)",
        )
        port.free_lobby_seat(index)
        text = f"{seat.name}'s program did not get ready: the seat is free again"
        port.broadcast({"t": "chat", "seat": None, "name": "host", "text": text[:200]})
        port.lobby_changed()

    def on_message(self, session: Session, msg: dict[str, Any]) -> None:
        t = msg["t"]
        if t == "sign_key":
            self.on_sign_key(session, msg)
        elif t == "deal":
            self.on_deal(session, msg)
        elif t == "abort":
            self.on_abort(session, msg)
        else:
            self.on_lost(session, msg)

    def wrong_deal(self, t: str) -> str:
        return f"this host deals privately: no {t} is ever asked"

    def on_sign_key(self, session: Session, msg: dict[str, Any]) -> None:
        port = self.port
        seat = port.seats[session.seat] if session.seat is not None else None
        if seat is None:
            port.refuse(session, p.NOT_SEATED, "you do not hold a seat")
            return
        if port.table is not None:
            if seat.signing_key != msg["key"]:
                port.refuse(session, p.LOBBY_CLOSED, "signing keys are fixed when the game starts")
            return
        seat.signing_key = msg["key"]
        port.lobby_changed()

    def game_fields(self) -> dict[str, Any]:
        return {"deal": p.DEAL_PRIVATE, "signing_keys": list(self.signing_keys)}

    # -- a round ---------------------------------------------------------------------------

    def start_round(self, attempt: int = 0) -> None:
        port = self.port
        game = self.game
        r = game.full.round + 1
        for seat in sorted(self._returning):  # their players are back: they play from now on
            self._release(seat)
        keys = self._current_keys()
        self._record(AttemptBegan(r, attempt, keys))
        setup = self.attempt
        assert setup is not None
        dealer = dealer_of(game.config.first_dealer, r, game.players)
        signers = {**self.bot_signers, **self.stand_in_signers}
        specials = game.config.rules.specials
        self.deal = deal = HostDeal(
            setup, signers, item_cards(specials), werewolf=Special.WEREWOLF in specials
        )

        self.voiding = None
        self.withheld = set()
        port.broadcast(
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
        name = self._name(seat)
        if self._all_played():
            self._withhold(seat, f"{name} (seat {seat}) left without revealing its keys")
            return
        reason = f"{name} (seat {seat}) left: a bot plays the seat"
        self.void(reason, LOST_KEYS, None, None, charged=seat)

    def seat_back(self, seat: int) -> bool:
        """The player of ``seat`` is back. True: the bot must finish the attempt in
        progress (its keys are the bot's); the player takes over at the next one."""
        holder = self.port.seats[seat]
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
        holder = self.port.seats[seat]
        if holder is not None and holder.stand_in is not None:
            holder.stand_in = None
            self.port.drop_bot_turn(seat)
            self.port.seats_changed()

    def between_rounds(self) -> None:
        """The hidden game is between rounds, or its round's cards are all down."""
        game = self.game
        deal = self.deal
        if game.round_complete and deal is not None:
            self._step(deal, deal.reveal_bots)  # K5; remote seats reveal by themselves
        elif deal is None and game.phase is Phase.DEAL:
            # A timer of no delay (the loop's next turn): the bots' keys and passes of the
            # new deal then do not add to the round-end work (the verification, scoring,
            # record) in one stall. (The table cannot change before it fires: only a
            # finished game is replaced, and this one is not.)
            self.port.start_timer(("next_round",), 0.0, self._start_next)

    def _start_next(self) -> None:
        table, game = self.port.table, self.game
        if table is None or table.finished:
            return
        if self.deal is None and game.phase is Phase.DEAL:
            self.start_round(0)

    def on_deal(self, session: Session, msg: dict[str, Any]) -> None:
        deal = self._current(session, msg)
        if deal is None:
            return
        if session.seat in self.withheld:
            self.port.refuse(session, p.BAD_ENVELOPE, "you gave your round keys up as lost")
            return
        envelope = Envelope.from_wire(msg["env"])  # the schema checked it already
        kind = _kind(envelope)
        if kind in ("open", "blind", "open_gift"):
            self.port.refuse(session, p.BAD_ENVELOPE, "a card's open goes in its play message")
            return
        seat = session.seat
        assert seat is not None  # (_current checked it)
        game = self.game
        if kind == "give":  # a Juggler's pass: the host's game learns only that it passed
            refusal = (
                give_refusal(deal, game, seat, decode_body(envelope.body))
                if isinstance(game, HiddenSpecialGame)
                else "no card is passed at this table"
            )
            if refusal is not None:
                self.port.refuse(session, Reason.NOT_YOUR_TURN, refusal)
                return
        waited = self._pass_waits()
        if self._refused(session, lambda: deal.deliver(seat, envelope)):
            return
        if kind == "give" and deal.fault is None and isinstance(game, HiddenSpecialGame):
            self._flush(deal)
            self.port.changed(game.apply(PassCard(seat, HIDDEN_CARD)))
        self._step(deal, lambda: None)
        self._pass_resumes(waited)

    def _refused(self, session: Session, send: Any) -> bool:
        """Hand an envelope to the relay; True if it was dropped as proving nothing
        (``EnvelopeRefused``): the sender is told, the round goes on, nobody is blamed."""
        try:
            send()
        except EnvelopeRefused as refused:
            self.port.refuse(session, p.BAD_ENVELOPE, f"{refused.code}: {refused.detail}"[:200])
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
        name = self._name(seat)
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

    def on_play(self, session: Session, msg: dict[str, Any]) -> bool:
        """A remote seat's play: its turn (public state), then its open through the relay."""
        self._on_play(session, msg)
        return True

    def on_stale_play(self, session: Session, msg: dict[str, Any]) -> None:
        self.take_stray_open(session, msg)  # a round voided meanwhile

    def _on_play(self, session: Session, msg: dict[str, Any]) -> None:
        port = self.port
        seat, card = session.seat, msg["card"]
        assert seat is not None
        self.take_stray_open(session, msg)
        deal = self.deal  # (after: a stray open may have completed a void, dealing anew)
        if deal is None or self.voiding is not None:
            port.refuse(session, p.NOT_READY, "no deal is in progress")
            return
        if self._pass_waits():
            port.refuse(session, p.NOT_READY, "the pass is not unlocked yet: wait")
            return
        if self._hid_the_werewolf(seat, card):
            self.take_stray_open(session, msg)  # its open, which the reveal follows
            return
        try:
            self.game.check_play(seat, card)
        except IllegalAction as exc:
            port.refuse(session, exc.code, exc.message)
            return
        if self._taken(seat, card):  # face up when it was taken: no deal message
            self.port.changed(self.game.apply(Play(seat, card)))
            self._pass_begins(deal)
            self._watch_steps()
            return
        if "open" not in msg:
            port.refuse(session, p.BAD_ENVELOPE, "a play of a private deal carries its open")
            return
        envelope = Envelope.from_wire(msg["open"])
        try:
            body = decode_body(envelope.body)
        except ProtocolError:
            body = None  # signed garbage: the relay names its sender
        blind = card == BLIND_CARD  # a forehead round: the play of an unseen card
        # (A card passed to the seat: its open is the gift's, ``open_gift``.)
        if body is not None and (
            (body["t"] != "blind")
            if blind
            else (body["t"] not in ("open", "open_gift") or body["item"] != deal.item_of(card))
        ):
            port.refuse(session, p.BAD_ENVELOPE, "the open is not this card's")
            return
        before = len(deal.plays)
        if self._refused(session, lambda: deal.deliver(seat, envelope)):
            return
        self._play_through(deal, seat, card, lambda: None, before)

    def _hid_the_werewolf(self, seat: int, card: int) -> bool:
        """``seat`` would play the Werewolf, which nobody showed: it held it and kept it
        hidden, and the round cannot go on (the Werewolf is never played). The attempt is
        voided with every seat's reveals, which prove it (``check_werewolf_shown``), the
        seat charged."""
        deal, game = self.deal, self.game
        if (
            deal is None
            or not deal.werewolf
            or card != Special.WEREWOLF
            or deal.werewolf_holder is not None
            or game.phase is not Phase.PLAY
            or game.turn != seat
        ):
            return False
        reason = f"seat {seat} held the Werewolf and did not show it"
        self.void(
            reason,
            Reason.WRONG_PHASE,
            seat,
            None,
            reveals=True,
            charged=seat,
            then=Play(seat, card),
        )
        return True

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
        if view.forehead:  # it sees the others' cards, not its own
            return view_with_foreheads(view, deal.bot_foreheads(seat))
        if isinstance(self.game, HiddenSpecialGame):
            held = holding(deal.bots[seat], deal.cards, deal.bot_hand(seat), view)
            return view_with_holding(view, held)
        return view_with_hand(view, deal.bot_hand(seat))

    def bot_play(self, seat: int, card: int) -> bool:
        """A bot's play goes through the relay too (its open), never straight to the game."""
        deal = self.deal
        if deal is not None and self.voiding is None and self._taken(seat, card):
            self.port.changed(self.game.apply(Play(seat, card)))
            self._pass_begins(deal)
            self._watch_steps()
        elif deal is not None and self.voiding is None:
            self._play_through(deal, seat, card, lambda: deal.bot_play(seat, card))
        return True

    def act(self, table: Table, action: PlayerAction, by: Decider) -> list[Event]:
        # Trump and bids are public: the hidden game takes them; the round is journaled
        # whole once scored (``private_round``), since its keys cannot survive a crash.
        # (With special cards: the declarations, the Cloud's change and the Werewolf's
        # holder naming trump are public too; a Witch's swap is, once its given card is
        # shown: a bot of the host's shows it here, a remote seat's comes in ``on_special``.)
        # A Juggler's pass is a give: a bot's goes through the relay, and the game learns
        # only that it passed.
        game = table.game
        if isinstance(action, PassCard) and isinstance(game, HiddenSpecialGame):
            return self._bot_pass(game, action, by)
        if type(action) is SwapCard and action.give is not None:
            return self._bot_swap(action)
        events = queried(table.game).apply(action)
        if self.deal is not None:
            self._pass_begins(self.deal)  # (a Juggler declared: its trick is complete)
        return events

    def _bot_pass(self, game: HiddenSpecialGame, action: PassCard, by: Decider) -> list[Event]:
        deal, seat = self.deal, action.seat
        if by == "human" or deal is None or seat not in deal.bots:
            raise IllegalAction(
                Reason.UNKNOWN_ACTION, "a pass of a private deal is its give (a deal message)"
            )
        if game.phase is not Phase.PASS or game.turn != seat or self._pass_waits():
            raise IllegalAction(Reason.NOT_YOUR_TURN, "it is not this bot's turn to pass")
        m = game.passes_made()
        with contextlib.suppress(DealFault):  # kept in deal.fault: _progress voids
            deal.bot_give(seat, m, left(seat, game.players), action.card)
        self._flush(deal)
        if deal.fault is not None:
            self._progress(deal)
            return []
        events = game.apply(PassCard(seat, HIDDEN_CARD))
        self._watch_steps()
        return events  # (the table hears of it; with an unlock owed, nobody is asked yet)

    # -- a Juggler's pass (passes.py) ------------------------------------------------------------

    def _pass_waits(self) -> bool:
        deal, game = self.deal, self.game
        return deal is not None and isinstance(game, HiddenSpecialGame) and pass_waits(deal, game)

    def _pass_begins(self, deal: HostDeal) -> None:
        """A play finished a trick with a Juggler: the pass begins, and every bot sends its
        inbox (a remote seat sends its own when it sees the phase)."""
        if deal is self.deal and self.game.phase is Phase.PASS and deal.fault is None:
            with contextlib.suppress(DealFault):
                deal.bot_send_inboxes()
            self._flush(deal)

    def _pass_resumes(self, waited: bool) -> None:
        """The table waited for a pass's inboxes or unlocks, and no longer does: the seat
        on turn is asked now (its turn time starts, a bot decides)."""
        if waited and self.deal is not None and self.voiding is None and not self._pass_waits():
            self.port.send_states([])
            self.port.bots_move()

    # -- the Witch's swap (docs/private-deal.md section 16; witch.py) ---------------------------

    def _taken(self, seat: int, card: int) -> bool:
        """Whether ``seat`` holds ``card`` face up (the turned card its Werewolf took, a card
        it took from a Witch's trick): its play needs no deal message."""
        deal = self.deal
        if deal is None or not isinstance(self.game, HiddenSpecialGame):
            return False
        return not needs_show(self.game.round_actions, seat, card, deal.trump_card)

    def on_special(self, session: Session, msg: dict[str, Any]) -> bool:
        """A remote seat's swap: checked as the engine would from public information, then
        its show of the card given through the relay, then the swap is the game's."""
        if msg["t"] != "swap":
            return False
        port, seat = self.port, session.seat
        assert seat is not None  # (the core checked it)
        deal, game = self.deal, self.game
        if deal is None or self.voiding is not None or not isinstance(game, HiddenSpecialGame):
            port.refuse(session, p.NOT_READY, "no deal is in progress")
            return True
        action = SwapCard(seat, msg["give"], msg["take"])
        try:
            game.check_swap(seat, action.give, action.take)
        except IllegalAction as exc:
            port.refuse(session, exc.code, exc.message)
            return True
        show = msg.get("show")
        envelope = None if show is None else Envelope.from_wire(show)
        refusal = swap_refusal(deal, game.round_actions, seat, action.give, envelope)
        if refusal is not None:
            port.refuse(session, p.BAD_ENVELOPE, refusal)
            return True
        if envelope is not None and self._refused(session, lambda: deal.deliver(seat, envelope)):
            return True
        self._swap_through(deal, action)
        return True

    def _bot_swap(self, action: SwapCard) -> list[Event]:
        """A bot of the host's swap: its show of the card given (unless face up), then the
        game's. ``IllegalAction`` for a swap the game refuses (the core's fallback then)."""
        deal, game = self.deal, self.game
        seat, give = action.seat, action.give
        assert give is not None and isinstance(game, HiddenSpecialGame)
        if deal is None or self.voiding is not None or seat not in deal.bots:
            raise IllegalAction(Reason.WRONG_PHASE, "only its own program shows a seat's card")
        game.check_swap(seat, give, action.take)
        if needs_show(game.round_actions, seat, give, deal.trump_card):
            with contextlib.suppress(DealFault):  # kept in deal.fault: _progress voids
                deal.bot_show(seat, give)
        return self._swap_through(deal, action, bot=True)

    def _swap_through(self, deal: HostDeal, action: SwapCard, *, bot: bool = False) -> list[Event]:
        """The swap's show (if any) went to the relay: relay it on, and the swap is the
        game's unless the show broke the round (the attempt is voided then). A bot's
        events go back to the core (``act``); a remote seat's go out here."""
        self._flush(deal)
        if deal.fault is not None or deal.suspect is not None:
            self._progress(deal)
            self._watch_steps()
            return []
        game = self.game
        assert isinstance(game, HiddenSpecialGame)
        events = game.apply(action)
        if bot:
            return events
        self.port.changed(events)
        self._watch_steps()
        return []

    def _play_through(
        self, deal: HostDeal, seat: int, card: int, send: Any, before: int | None = None
    ) -> None:
        before = len(deal.plays) if before is None else before
        with contextlib.suppress(DealFault):  # kept in deal.fault: _progress voids
            send()
        self._flush(deal)
        if deal.fault is None and deal.suspect is None and len(deal.plays) > before:
            opened = deal.plays[-1]
            if opened.seat == seat and deal.card_of(opened.item) == card:
                # The play is the game's: its change (a follow-up input) tells the seats, and
                # after the last card moves the deal on (between_rounds: the reveals).
                self.port.changed(self.game.apply(Play(seat, card)))
                self._pass_begins(deal)
                self._watch_steps()
                return
        self._take_unveiled(deal)  # (a blind play: the game's once its unveiler opened it)
        self._progress(deal)
        self._watch_steps()

    def _take_unveiled(self, deal: HostDeal) -> None:
        """A card played blind (a forehead round) is the game's once its unveiler opened it:
        its holder, on turn since its blind play, plays that card."""
        if deal is not self.deal or deal.fault is not None or deal.suspect is not None:
            return
        veiled = deal.setup.veiled_positions
        game = self.game
        for opened in deal.plays:
            card = deal.card_of(opened.item)
            if (
                opened.position in veiled
                and game.phase is Phase.PLAY
                and game.turn == opened.seat
                and card not in [c for _, c in game.trick]
                and card not in {c for t in game.tricks for c in t.cards}
            ):
                self.port.changed(game.apply(Play(opened.seat, card)))

    def _current(self, session: Session, msg: dict[str, Any]) -> HostDeal | None:
        port = self.port
        table, deal = port.table, self.deal
        if table is None or table.finished or deal is None:
            port.refuse(session, p.NOT_READY, "no deal is in progress")
            return None
        if session.seat is None:
            port.refuse(session, p.NOT_SEATED, "you do not hold a seat")
            return None
        if (msg["round"], msg["attempt"]) != (deal.round, deal.attempt):
            port.refuse(
                session,
                p.STALE_ATTEMPT,
                f"round {msg['round']} attempt {msg['attempt']} is not being dealt",
            )
            return None
        if deal.setup.signing_keys[session.seat] != self.signing_keys[session.seat]:
            # A bot of the host plays this seat in this attempt: the player has no say in it.
            port.refuse(session, p.NOT_YOUR_SEAT, "a bot of the host plays your seat in this deal")
            return None
        return deal

    # -- driving the game from the deal -------------------------------------------------------

    def _step(self, deal: HostDeal, action: Any) -> None:
        with contextlib.suppress(DealFault):  # kept in deal.fault: _progress voids
            action()
        self._flush(deal)
        self._take_unveiled(deal)  # (an unveil from a remote seat)
        self._progress(deal)
        self._watch_steps()

    def _flush(self, deal: HostDeal) -> None:
        """Send the relayed envelopes to their seats (a seat away gets the transcript when
        it comes back)."""
        out, deal.outbox = deal.outbox, []
        for seat, envelope in out:
            self.port.send_to_seat(seat, p.deal_msg(deal.round, deal.attempt, envelope.to_wire()))

    def _progress(self, deal: HostDeal) -> None:
        # Always the attempt in progress: a change the deal makes is the host's follow-up
        # input, handled after this returns, so nothing here ever runs for an older one.
        assert deal is self.deal, "the deal moved on under its own step"
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
            if game.round_complete or isinstance(deal.verdict, RoundFailed):
                self._finish(deal)
            # (else every card is down and verified, and a decision follows the last one,
            # a Cloud's change: between_rounds comes back here once it is made)
        elif deal.dealt and game.phase is Phase.DEAL and game.round == game.full.round:
            turned = deal.trump_card
            if isinstance(game, HiddenSpecialGame):
                assert turned is not None  # (a round with special cards always turns one up)
                if not deal.werewolf:
                    self.port.changed(game.start_round(turned))
                elif deal.inboxes_in:  # every seat sent its inbox, a holder its show before
                    holder = deal.werewolf_holder
                    self.port.changed(game.start_round(turned, holder))
            else:
                self.port.changed(game.start_round(turned))

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
        deck = tuple(deal.card_of(i) for i in verdict.items if i is not None)
        game = self.game
        if not verdict.gifts or not isinstance(game, HiddenSpecialGame):
            self._score(deck)
            return
        passes, culprit = pass_cards(verdict, deal.cards, deal.setup.seats)
        if culprit is None and len(passes) != game.passes_made():
            culprit = next(  # a give of a pass that never came (the host relays none)
                g.giver for g in verdict.gifts if g.pass_index >= game.passes_made()
            )
        if culprit is not None:
            reason = f"seat {culprit}'s gifts are not a pass to its left"
            self.void(reason, BAD_GIFT, culprit, None, charged=culprit)
            return
        self._score(deck, game.resolved_actions(passes))

    def _score(self, deck: tuple[int, ...], actions: Sequence[PlayerAction] | None = None) -> None:
        """Score the round from its real ``deck``; ``actions``: the round's, every pass's
        card in (by default the game's own, which then has no pass)."""
        deal = self.deal
        assert deal is not None
        game = self.game
        actions = tuple(game.round_actions) if actions is None else tuple(actions)
        fact = PrivateRoundScored(deal.round, deal.attempt, deck, actions, tuple(deal.transcript))
        try:
            events = self._record(fact)  # a scored round, whole: a restored host rebuilds it
        except Revoke as exc:
            # The proof is in the transcript already: the deck opened with every revealed
            # key, and the seat's signed open of the card (docs/private-deal.md section 11).
            reason = f"seat {exc.seat} revoked: {exc.error.message}"
            self.void(reason, exc.code, exc.seat, None, charged=exc.seat)
            return
        self.port.changed(events)

    # -- who pays for a void (docs/rules.md, "Voided deals") -----------------------------------

    def _all_played(self) -> bool:
        """Every card of the attempt is down: the round is scored from what was opened.
        (Not a round with a gift: a given position is opened only by the reveals.)"""
        deal = self.deal
        gifts = deal is not None and bool(deal.relay.view.gives)
        return self.voiding is None and self.game.round_complete and not gifts

    def _early_reveal(self, deal: HostDeal) -> int | None:
        """A remote seat that revealed its keys while cards of the round are still to be
        played. (A seat's program reveals once every card is open, even if a decision
        follows the last card: a Cloud's change of its bid.)"""
        if self.game.round_complete or deal.all_played:
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
        deck = opened_deck(deal.relay.view, self.game.config.rules.specials)
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
        port = self.port
        self._record(SeatCharged(r, attempt, seat, why))
        amount = self._last_charge
        self.round_charges.append((attempt, seat, why))
        count = self.charge_counts[seat] = self.charge_counts.get(seat, 0) + 1
        name = self._name(seat)
        self._chat(f"{name} (seat {seat}) scores {amount} in round {r} for it")
        holder = port.seats[seat]
        if count >= MAX_CHARGES and holder is not None and holder.kind == "human":
            self.stand_in_signers.setdefault(seat, SigningKey.generate())
            self._returning.discard(seat)
            port.forfeit_seat(seat)
            self._chat(f"{name} voided {count} deals: a bot plays the seat to the end")

    def _name(self, seat: int) -> str:
        holder = self.port.seats[seat]
        return holder.name if holder is not None else f"seat {seat}"

    def _chat(self, text: str) -> None:
        self.port.broadcast({"t": "chat", "seat": None, "name": "host", "text": text[:200]})

    def round_scored(self) -> None:
        """The round was scored (and recorded: ``apply``): publish the result."""
        port = self.port
        table = port.table
        assert table is not None
        self._restart_void = None
        message: dict[str, Any] = {"t": "round_end", "result": table.history_wire[-1]}
        if self.round_charges:  # who paid for a void this round (docs/protocol.md)
            message["charges"] = [list(c) for c in self.round_charges]
        port.broadcast(message)
        self.round_charges, self.withheld, self._uncharged = [], set(), 0
        self.deal = None

        self._watch_steps()
        port.write_record()

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
        elif phase is DealPhase.VEIL and view.turn is not None:
            owed = {view.turn: (*attempt, "veil", view.veils_done)}
        elif phase is DealPhase.PLAY and (
            blinds := [k for k in view.blinds if k not in view.plays]
        ):
            owed = {deal.setup.unveiler(k): (*attempt, "unveil", k) for k in blinds}
        elif (
            phase is DealPhase.PLAY
            and isinstance(self.game, HiddenSpecialGame)
            and (steps := owed_pass_steps(deal, self.game))
        ):  # a Juggler's pass: the inboxes, then the unlocks once every give is in
            owed = {s: (*attempt, what, self.game.passes_made()) for s, what in steps.items()}
        elif phase is DealPhase.PLAY and deal.werewolf and not deal.inboxes_in:
            # (a table with the Werewolf: the round starts once every seat sent its inbox)
            owed = {
                s: (*attempt, "inbox") for s in range(deal.setup.seats) if s not in view.inboxes
            }
        elif phase is DealPhase.RELEASE:
            owed = {
                s: (*attempt, "release") for s in range(deal.setup.seats) if s not in view.released
            }
        return {
            s: step for s, step in owed.items() if s not in deal.bots and s not in self.withheld
        }

    def _watch_steps(self) -> None:
        """Start the timer of each step newly owed; stop those of steps no longer owed."""
        timeout = self.port.options.deal_step_timeout
        owed = self.owed_steps() if timeout is not None else {}
        port = self.port
        for seat in list(self._step_timers):
            if owed.get(seat) != self._step_timers[seat]:
                del self._step_timers[seat]
                port.cancel_timer(("deal_step", seat))
        if timeout is None:
            return
        for seat, step in owed.items():
            if seat not in self._step_timers:
                self._step_timers[seat] = step
                port.start_timer(("deal_step", seat), timeout, self._timeout_of(seat, step))

    def _timeout_of(self, seat: int, step: tuple[Any, ...]) -> Callable[[], None]:
        return lambda: self._step_timed_out(seat, step)

    def _step_timed_out(self, seat: int, step: tuple[Any, ...]) -> None:
        if self._step_timers.get(seat) != step:
            return
        del self._step_timers[seat]
        port = self.port
        holder = port.seats[seat] if seat < len(port.seats) else None
        session = holder.session if holder is not None else None
        if self.owed_steps().get(seat) != step or session is None:
            return
        if not session.connected:
            return  # it left: its takeover countdown runs; it gets a new wait if it is back
        log.warning("seat %d (%s) did not send its deal step %r in time", seat, session.name, step)
        if step[-1] == "reveal" and self._all_played():
            self._withhold(seat, f"{session.name} (seat {seat}) did not reveal its keys in time")
        port.disconnect(
            session, p.DEAL_TIMEOUT, "your program did not take its turn in the deal in time"
        )
        text = f"{session.name}'s program did not take its turn in the deal: it was disconnected"
        port.broadcast({"t": "chat", "seat": None, "name": "host", "text": text[:200]})

    def close(self) -> None:
        for seat in self._step_timers:
            self.port.cancel_timer(("deal_step", seat))
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
        then: Play | None = None,
    ) -> None:
        """End this attempt, visibly; with ``reveals`` every seat reveals its keys first,
        so that the round-end verification names whoever caused it. ``charged``: the seat
        that pays for the void (unless the verification names another). ``then``: a play
        the game refused that the record keeps, since its open is in the transcript (the
        Werewolf, played by a seat that hid it)."""
        port = self.port
        deal, game = self.deal, self.game
        assert deal is not None
        # The record's actions of a voided attempt: its trump choice and bids (the plays are
        # the transcript's opens); with special cards every action in order, plays included
        # (a declaration or a Cloud's change comes between them: docs/record-format.md).
        special = isinstance(game, HiddenSpecialGame)
        actions = [a for a in game.round_actions if special or not isinstance(a, Play)]
        if then is not None:
            actions.append(then)

        reveals = reveals and deal.fault is None and self._all_connected()
        self.voiding = _Void(reason, code, culprit, evidence, actions, charged, reveals)
        if game.round > game.full.round:
            game.void_round()
        log.warning("round %d attempt %d void: %s", deal.round, deal.attempt, reason)
        port.broadcast(
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
        port.send_states([])
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
            for s in self.port.seats
        )

    def _complete_void(self) -> None:
        port = self.port
        table, deal, void = port.table, self.deal, self.voiding
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
        fact = AttemptVoided(
            deal.round,
            deal.attempt,
            void.reason,
            code,
            culprit,
            void.evidence,
            tuple(
                tuple(action_to_wire(a))
                for a in void_actions(void.actions, deal.verdict, deal.cards, deal.setup.seats)
            ),
            tuple(deal.transcript),
        )
        self._record(fact)  # a voided attempt, with what the record keeps of it
        self.deal = self.voiding = None
        who = "" if culprit is None else " (blame: " + _who(culprit) + ")"
        self._chat(f"round {deal.round} is dealt again: {void.reason}{who}")
        if charged is not None:
            self._charge(deal.round, deal.attempt, charged, VOIDED)
        else:
            self._uncharged += 1
        port.write_record()
        if self._uncharged >= MAX_ATTEMPTS:
            port.fail(f"round {deal.round} was voided {MAX_ATTEMPTS} times by the host")
            return
        self.start_round(deal.attempt + 1)

    # -- crash safety (restore.py) ------------------------------------------------------------

    def resume(self) -> None:
        """Carry on after a restore (this half replayed the journal). The attempt the crash
        cut off cannot go on: the players' round keys were never the host's, and its bots'
        were in memory. It is voided as lost keys, visibly, and the round is dealt again
        (section 10). Stand-ins are not restored: every player gets a seat of its own back,
        and a new stand-in if it does not come back in time."""
        table = self.port.table
        self.charge_counts = {}
        this_round = self.game.full.round + 1
        for charge in table.recorder.charges if table is not None else ():
            self.charge_counts[charge.seat] = self.charge_counts.get(charge.seat, 0) + 1
            if charge.round == this_round:  # told with the round's result
                self.round_charges.append((charge.attempt, charge.seat, charge.why))
        for seat, count in self.charge_counts.items():  # it voided too many deals already
            holder = self.port.seats[seat]
            if count >= MAX_CHARGES and holder is not None and holder.kind == "human":
                self.stand_in_signers.setdefault(seat, SigningKey.generate())
                self.port.forfeit_seat(seat)
        if self.attempt is not None:
            self._void_cut_off(self.attempt)
        self.start_round(self.next_attempt)

    def adopt_seats(self) -> None:
        """A restored host's seats hold the game's signing keys again."""
        for seat, key in zip(self.port.seats, self.signing_keys, strict=False):
            if seat is not None and seat.kind == "human":
                seat.signing_key = key

    def _void_cut_off(self, setup: DealSetup) -> None:
        port = self.port
        r, attempt = setup.round, setup.attempt
        reason = "the host restarted: the round's keys are gone"
        # The host kept no envelope of the attempt: the record shows its setup, no more.
        self._record(AttemptVoided(r, attempt, reason, LOST_KEYS, None, None, (), ()))
        port.write_record()
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
        port.broadcast(self._restart_void)

    def before_snapshot(self, session: Session) -> None:
        """A player back after the restart hears of the void it missed, before its
        snapshot: its client discards that attempt's keys and joins the redeal."""
        msg = self._restart_void
        if msg is None or session.seat is None or session.seat in self._told_void:
            return
        self._told_void.add(session.seat)
        self.port.send(session, msg)

    def after_snapshot(self, session: Session) -> None:
        self.send_transcript(session)  # the round's envelopes, to resume with
        # A step it owes whose wait ran out while it was away gets a new wait (it replays
        # the transcript first); one still running goes on, so leaving and coming back
        # does not stretch it.
        self._watch_steps()

    def deciding_paused(self) -> bool:
        """A void is under way, or the table waits for a pass's inboxes or unlocks."""
        return self.voiding is not None or self._pass_waits()

    def bid_attempt(self, table: Table) -> int:
        deal = self.deal
        return deal.attempt if deal is not None else 0

    def round_in_play(self, table: Table) -> int:
        """A hidden game counts only the rounds it finished until the round is dealt (a
        restored host redeals the round the crash cut off)."""
        deal = self.deal
        return deal.round if deal is not None else self.game.full.round + 1

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
        deal = self.deal
        if deal is None:
            return
        chunk: list[dict[str, Any]] = []
        size = 0
        transcript = deal.transcript
        for i, envelope in enumerate(transcript):
            chunk.append(envelope.to_wire())
            size += len(envelope.body) + 100
            last = i == len(transcript) - 1
            if size > TRANSCRIPT_CHUNK or len(chunk) >= 100 or last:
                self.port.send(
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


def _who(culprit: int) -> str:
    return "the relay" if culprit == RELAY else f"seat {culprit}"


PrivateHost = PrivateDealing  # the name the deal kind's registry gives it

__all__ = [
    "EARLY_REVEAL",
    "LOST_KEYS",
    "MAX_ATTEMPTS",
    "MAX_CHARGES",
    "PrivateDealing",
    "PrivateHost",
]
