"""The seat half of the private deal: this player's seat in every round (``docs/private-deal.md``).

The session hands the messages of the private deal here (``docs/protocol.md``, "A privately
dealt round"): the signing key in the lobby, each round's ``ClientDeal``, the relayed
envelopes, the transcript after a reconnect, voids, and the round-end check. The host's views
carry no hand in a private game: ``view_for_table`` puts this player's own hand, and its legal
cards, into every view before the table or a bot sees it; only this program knows the hand,
so it also decides for its player while the seat is away.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Sequence
from dataclasses import replace
from typing import Any, ClassVar

from netplay.mental import RELAY, DealFault, DealSetup, RoundVerified, Verifier, played_items
from netplay.signing import Envelope, SigningKey

from ....game import (
    GameConfig,
    Phase,
    RoundResult,
    SeatView,
    actions_to_wire,
    dealer_of,
    score,
    void_charge,
)
from ....game.actions import PassCard, SwapCard
from ....game.codec import PlayerAction
from ....game.hidden import view_with_foreheads, view_with_hand
from ....game.specials import Special
from ....i18n import N_, _
from ....phrase import Phrase, in_round, phrase
from ....private_deal import item_cards, opened_deck, round_setup, veiled_round
from ....private_special import opened_plays
from ....record import (
    PRIVATE_PROTOCOL,
    UNREVEALED,
    VOIDED,
    GameRecorder,
    PlayerEntry,
    RecordError,
    RedealAction,
    redeal_action,
)
from ....session import RoundVerified as RoundChecked
from ....verify import check_voided_attempt
from ... import protocol as p
from ...check_texts import DEAL_FAULTS, EARLIER_RUN, fault_phrase
from ...link_texts import announcement_text
from ...wire_check import a_list, an_int, byte_strings, expect, int_in
from ..seat_half import SeatHalf, SeatPort, SecretKeeper
from .client_deal import ClientDeal, VoidReport
from .gifts import Holding, holding, unlocks_owed, view_with_holding
from .round_moves import moves_problem
from .voids import FollowedMoves, attempt_actions, our_verdict, special_actions, void_record

log = logging.getLogger("wizard_tui.private_seat")


class PrivateSeatHalf(SeatHalf):
    """This player's part in a privately dealt game; see the module docstring."""

    messages: ClassVar[frozenset[str]] = frozenset({"deal", "transcript", "void"})
    plays_for_away_player: ClassVar[bool] = True

    def __init__(self, port: SeatPort) -> None:
        super().__init__(port)
        self.signing_keys: tuple[bytes, ...] = ()
        self.deal: ClientDeal | None = None
        self.voids: list[VoidReport] = []
        self.faults: list[Any] = []  # DealFaults our own checks found inside a round
        self._sent_key = False
        self._pruned = False  # stale round secrets deleted (once per run)
        self._pending: tuple[int, int, list[Envelope], bool] | None = None  # a transcript
        self._pending_keys: tuple[bytes, ...] = ()  # the signing keys of its attempt
        self._reported: set[tuple[int, int]] = set()
        self._raw_view: SeatView | None = None
        self._stood_in: set[int] = set()  # rounds a bot of the host played for us
        # The attempt a bot of the host plays for us as we come back: followed envelope by
        # envelope, like any seat's view, so that the round can be checked all the same.
        self._watch: Verifier | None = None
        # The views we put our own hand into: only they show what we were dealt (a view of
        # the host's, before our hand opened, shows nothing of it).
        self._merged: dict[int, SeatView] = {}  # by id; holding them keeps the ids unique
        # The attempt's public moves as the host's events told them (special cards: our own
        # replay of a voided attempt needs every action, in order).
        self._followed: FollowedMoves | None = None

    @property
    def signing_key(self) -> SigningKey:
        return self.port.settings.signing_key

    @property
    def store(self) -> SecretKeeper | None:
        return self.port.settings.secrets

    @property
    def voided_attempts(self) -> int:
        return len(self.voids)

    @property
    def bid_attempt(self) -> int:
        deal = self.deal
        return deal.attempt if deal is not None else 0

    def on_message(self, msg: dict[str, Any]) -> None:
        kind = msg.get("t")
        if kind == "deal":
            self.on_deal(msg)
        elif kind == "transcript":
            self.on_transcript(msg)
        else:
            self.on_void(msg)

    # -- lobby and game ---------------------------------------------------------------------

    def lobby(self) -> None:
        if not self._sent_key:
            self._sent_key = True
            self.port.send({"t": "sign_key", "key": self.signing_key.public_key})

    def game(self, msg: dict[str, Any]) -> None:
        self.deal, self.voids, self.faults = None, [], []
        self._pending, self._reported, self._merged = None, set(), {}
        self._stood_in, self._watch, self._followed = set(), None, None
        config = self.port.config
        players = config.players if config is not None else 0
        self.signing_keys = tuple(byte_strings(msg.get("signing_keys"), players, "signing keys"))

    def recorder(
        self, game_id: bytes, players: list[PlayerEntry], config: GameConfig
    ) -> GameRecorder:
        return GameRecorder(
            game_id, players, config, protocol=PRIVATE_PROTOCOL, signing_keys=self.signing_keys
        )

    def started(self) -> None:
        seat = self.port.seat
        keys = self.signing_keys
        if seat is not None and 0 <= seat < len(keys) and keys[seat] != self.signing_key.public_key:
            # Whoever holds the key the host announced could sign our seat's messages.
            self._report(0, phrase(N_("the host announced another signing key for your seat")))

    # -- a round ----------------------------------------------------------------------------

    def round(self, msg: dict[str, Any]) -> None:
        port = self.port
        r: int = msg["round"]
        attempt = int_in(msg.get("attempt", 0), 0, 0xFFFF, "attempt")
        if port.config is None or port.seat is None or port.game_id is None:
            return
        deal = self.deal
        if deal is not None and (deal.round, deal.attempt) == (r, attempt):
            return  # told twice
        if deal is not None and deal.voided:
            self._record_void(deal)  # before its views are forgotten
        self._forget_views(r, attempt)
        keys = self._attempt_keys(msg.get("signing_keys"))
        if not self._ours(keys, r):
            return
        self.deal = self._new_deal(r, attempt, msg.get("dealer"), keys)
        self._followed = FollowedMoves(r, attempt, port.config.round_size(r))
        self.deal.start()
        self.settle()

    def followed(self, events: Sequence[object]) -> None:
        if self._followed is not None:
            self._followed.follow(events)

    def _attempt_keys(self, wire: Any) -> tuple[bytes, ...]:
        """The signing keys of an attempt: the game's, or as the host announced them (a bot
        of the host's plays a seat whose player left)."""
        if wire is None:
            return self.signing_keys
        return tuple(byte_strings(wire, len(self.signing_keys), "signing keys"))

    def _ours(self, keys: tuple[bytes, ...], r: int) -> bool:
        """Whether we take part in this attempt: a bot of the host plays our seat when the
        host announced another key for it (we were away); we are back from the next one."""
        seat = self.port.seat
        if seat is None or keys[seat] == self.signing_key.public_key:
            return True
        if self.deal is not None:
            if self.deal.voided:
                self._record_void(self.deal)
            self._forget(self.deal)  # that attempt is over for us
        self.deal = None
        self._stood_in.add(r)
        said = _("round {round}: a bot plays your seat until this deal is over")
        self.port.note("host", said.format(round=r))
        return False

    def _forget_views(self, r: int, attempt: int) -> None:
        """A new attempt of round ``r``: what the voided one showed is no evidence about it."""
        if attempt > 0:
            self.port.views.forget(r)

    def _new_deal(
        self,
        r: int,
        attempt: int,
        dealer: Any,
        keys: tuple[bytes, ...],
        secret: bytes | None = None,
    ) -> ClientDeal:
        port = self.port
        config, seat, game_id = port.config, port.seat, port.game_id
        assert config is not None and seat is not None and game_id is not None
        n = config.players
        expected = dealer_of(config.first_dealer, r, n)
        expect(dealer is None or dealer == expected, "dealer")
        veiled = veiled_round(config.rules, n, r)  # a forehead round (docs/private-deal.md)
        size = _hand_size(config, r)
        specials = config.rules.specials
        setup = round_setup(
            game_id,
            r,
            n,
            expected,
            keys,
            attempt,
            hand_size=size,
            veiled=veiled,
            specials=specials,
        )
        deal = ClientDeal(setup, seat, self.signing_key, secret, item_cards(specials))
        if self.store is not None:
            if secret is None:
                self.store.save(game_id, r, attempt, deal.secret)
            if not self._pruned:  # this run's first deal: what earlier runs left is stale
                self._pruned = True
                self.store.prune((game_id, r, attempt))
        return deal

    def on_deal(self, msg: dict[str, Any]) -> None:
        watch = self._watch
        if watch is not None and (msg.get("round"), msg.get("attempt")) == _attempt_of(watch.setup):
            self._watch_receive(Envelope.from_wire(msg.get("env")))
            return
        deal = self.deal
        if deal is None or (msg.get("round"), msg.get("attempt")) != (deal.round, deal.attempt):
            return  # a voided attempt's last words
        deal.receive(Envelope.from_wire(msg.get("env")))
        self.settle()

    def play_fields(self, card: int) -> dict[str, Any] | None:
        deal = self.deal
        held = self._holding()
        gift = held.gifts.get(card) if held is not None else None
        if deal is not None and gift is not None:  # passed to us: the gift's open_gift
            if held is None or not held.complete or deal.fault is not None:
                return None
            try:
                return {"open": deal.play_gift(*gift).to_wire()}
            except (ValueError, DealFault):
                return None
        if self._face_up(card):
            return {}  # a face-up card we took (the Werewolf's, a Witch's): everyone saw it
        opened = self.open_card(card)  # the card's key goes with it (K4)
        return None if opened is None else {"open": opened}

    def send_decision(self, action: PlayerAction) -> bool:
        """A Juggler's pass is our give (docs/private-deal.md section 16): our inbox if
        not sent yet, then the give to our left neighbour once it can go; no card goes to
        the host."""
        deal = self.deal
        if type(action) is not PassCard or deal is None or deal.voided or deal.fault is not None:
            return False
        held = self._holding()
        if held is None or action.card not in held.hand:
            return False
        deal.pass_card(action.card)
        self.settle()
        return True

    def _holding(self, view: SeatView | None = None) -> Holding | None:
        """Our cards now (a round in which cards change hands), as our deal knows them:
        None without a deal or a hand."""
        deal = self.deal
        view = view if view is not None else self._raw_view
        if deal is None or deal.voided or deal.hand is None or view is None:
            return None
        if view.round != deal.round or not view.rules.specials or view.forehead:
            return None
        return holding(deal.player, deal.cards, deal.hand, view)

    def special_fields(self, action: PlayerAction) -> dict[str, Any] | None:
        """A Witch's swap shows the card it gives into the trick (docs/private-deal.md
        section 16): its dealt position's ``show`` (a gift's ``show_gift``), nothing for a
        face-up card we took or a kept hand."""
        if type(action) is not SwapCard or action.give is None or self._face_up(action.give):
            return {}
        deal = self.deal
        if deal is None or deal.voided or deal.fault is not None or self._pending is not None:
            return None
        try:
            return {"show": deal.show(action.give).to_wire()}
        except (ValueError, DealFault):  # (not ours to show, or our view refuses it)
            return None

    def _face_up(self, card: int) -> bool:
        """Whether ``card`` is a face-up card we took into our hand (the turned card for the
        Werewolf we showed, a card taken from a Witch's trick): in our hand now, neither at
        an unopened position dealt to us nor a gift we hold."""
        deal, view = self.deal, self._raw_view
        if deal is None or deal.voided or view is None or view.round != deal.round:
            return False
        held = self._holding()
        if held is None or deal.holds_unopened(card) or card in held.gifts:
            return False
        return card in held.hand

    def after_play(self) -> None:
        self.settle()  # our last card of the round: our reveal follows it

    def open_card(self, card: int) -> dict[str, Any] | None:
        """The wire form of the open envelope that plays ``card``; None if we cannot."""
        deal = self.deal
        if deal is None or deal.voided or deal.fault is not None or self._pending is not None:
            return None  # (a transcript still arriving: the view after it asks again)
        try:
            return deal.play(card).to_wire()
        except (ValueError, DealFault):  # (our own view refuses it: we revealed, say)
            return None

    def settle(self) -> None:
        """Send what the deal owes, report a failed check, reveal when the round is done."""
        deal = self.deal
        if deal is None:
            return
        send = self.port.send
        config = self.port.config
        if config is not None and Special.WEREWOLF in config.rules.specials and not deal.voided:
            deal.open_hand()  # our show of the Werewolf, if ours, and our inbox
        raw = self._raw_view
        if (
            not deal.voided
            and raw is not None
            and raw.round == deal.round
            and raw.phase is Phase.PASS
            and deal.hand is not None
        ):
            deal.send_inbox()  # a Juggler's pass: every seat's inbox first
        if not deal.voided:
            deal.send_give()  # our pass, once it can go
        self._send_outbox(deal)
        key = (deal.round, deal.attempt)
        problem = deal.fault or deal.suspect
        if problem is not None and deal.voided:
            self._reported.add(key)  # the host voided it already
        if problem is not None and key not in self._reported and not deal.voided:
            self._reported.add(key)
            culprit = getattr(problem, "culprit", None)
            if deal.fault is not None:
                self.faults.append(deal.fault)
            known = DEAL_FAULTS.get(problem.code)
            what = problem.code if known is None else _(known)
            if culprit is None:
                said = _("round {round}: {what}: stopping it").format(round=deal.round, what=what)
            else:
                said = _("round {round}: {what} (blame: {who}): stopping it").format(
                    round=deal.round, what=what, who=_who(culprit)
                )
            self.port.note("deal", said)
            send(
                {
                    "t": "abort",
                    "round": deal.round,
                    "attempt": deal.attempt,
                    "code": problem.code,
                    "culprit": culprit,
                }
            )
        if deal.all_played and not deal.revealed and not deal.voided:
            self._reveal(deal)
        if deal.voided and (deal.verdict is not None or deal.fault is not None):
            self._judge(deal)
        self._refresh_view(deal)

    def _send_outbox(self, deal: ClientDeal) -> None:
        for envelope in deal.outbox:
            self.port.send(p.deal_msg(deal.round, deal.attempt, envelope.to_wire()))
        deal.outbox = []

    def _pass_steps(self, deal: ClientDeal, view: SeatView) -> None:
        """A view of a Juggler's pass: our inbox goes out now (every seat's is needed
        before the first give), and our give if it waited for it."""
        if deal.voided or deal.hand is None or view.round != deal.round:
            return
        if view.phase is Phase.PASS:
            deal.send_inbox()
        deal.send_give()
        self._send_outbox(deal)

    def _reveal(self, deal: ClientDeal) -> None:
        envelope = deal.reveal()
        if envelope is not None:
            self.port.send(p.deal_msg(deal.round, deal.attempt, envelope.to_wire()))
            self.settle()

    def _refresh_view(self, deal: ClientDeal) -> None:
        """Our hand just opened after the host's view arrived (a reconnect): show it."""
        view, shown = self._raw_view, self.port.shown
        if (
            view is not None
            and view.round == deal.round
            and (deal.hand or (view.forehead and deal.foreheads))
            and shown is not None
            and not shown.hand
            and not any(card is not None for card in shown.foreheads)
        ):
            merged = self.view_for_table(view)
            if merged.hand or any(card is not None for card in merged.foreheads):
                self.port.show(merged)

    def view_for_table(self, view: SeatView) -> SeatView:
        self._raw_view = view  # as the host sent it: merged again once our hand is known
        deal = self.deal
        if (
            view.forehead
            and deal is not None
            and not deal.voided
            and deal.round == view.round
            and deal.hand is not None
        ):  # our card is veiled from us: we see the others' (docs/rules.md)
            return view_with_foreheads(view, deal.foreheads)
        if deal is None or deal.voided or deal.round != view.round or deal.hand is None:
            if view.my_turn and view.phase is Phase.PLAY:
                # We cannot play without our hand (it is still opening, or its keys are
                # lost and the round is being voided): this is no decision of ours yet.
                return replace(view, turn=-1)
            return view
        if view.rules.specials:
            self._pass_steps(deal, view)
        held = self._holding(view) if view.rules.specials else None
        if held is not None:  # (special cards: ours may have changed hands)
            waiting = not held.complete or bool(unlocks_owed(deal.player.view, deal.setup.seats))
            merged = view_with_holding(view, held)
            if waiting:
                # A pass is not unlocked yet: our hand is not known (nor may anyone play).
                # The host sends the position again once it is: that view is evidence.
                return replace(merged, turn=-1) if view.turn == view.seat else merged
        else:
            merged = view_with_hand(view, deal.hand)
        self._merged[id(merged)] = merged  # until the round's end
        return merged

    # -- voids --------------------------------------------------------------------------------

    def on_void(self, msg: dict[str, Any]) -> None:
        r, attempt = an_int(msg.get("round"), "void"), an_int(msg.get("attempt"), "void")
        code, culprit, reason = msg.get("code"), msg.get("culprit"), msg.get("reason")
        report = VoidReport(
            r,
            attempt,
            reason if type(reason) is str else "",
            code if type(code) is str else None,
            culprit if type(culprit) is int else None,
        )
        if msg.get("evidence") is not None:
            report.evidence = Envelope.from_wire(msg["evidence"])
        report.actions = self._attempt_actions(r)
        self.voids.append(report)
        reason = announcement_text(report.reason)  # (the record keeps the host's words)
        self.port.note("host", _("round {round} is void: {reason}").format(round=r, reason=reason))
        if self._watch is not None and _attempt_of(self._watch.setup) == (r, attempt):
            self._watch = None  # the round is dealt again: that attempt says nothing of it
        deal = self.deal
        if deal is None or (deal.round, deal.attempt) != (r, attempt):
            return
        deal.voided = True
        self._forget(deal)
        if msg.get("reveal") is True:
            envelope = deal.reveal()
            if envelope is not None:
                self.port.send(p.deal_msg(r, attempt, envelope.to_wire()))
        elif msg.get("evidence") is not None and deal.fault is None:
            # The envelope the host refused: our own view must refuse it too, and name its
            # culprit (its sender's signature, or the relay for what only delivery causes).
            deal.receive(Envelope.from_wire(msg["evidence"]))
            if deal.fault is None:
                report.our_code = "evidence_passes"
        self.settle()

    def _attempt_actions(self, r: int) -> tuple[RedealAction, ...]:
        """The trump choice and bids of round ``r``'s attempt in progress, as the record's
        ``actions`` (from the last view of it)."""
        trump_card = self.deal.trump_card if self.deal is not None else None
        return attempt_actions(self.port.views.last(r), trump_card)

    def _record_void(self, deal: ClientDeal) -> None:
        """A voided attempt this program took part in, for its own record: its own
        transcript, and the fault and culprit its envelopes prove (else the host's code and
        nobody blamed). Kept only if verify's check of a void accepts it; else the record
        takes the host's record of that attempt (own_record.py)."""
        own = self.port.own
        report = next(
            (v for v in reversed(self.voids) if (v.round, v.attempt) == (deal.round, deal.attempt)),
            None,
        )
        checker = self.port.checker
        if own is None or report is None or checker is None:
            return
        redeal = void_record(deal, report)
        try:
            check_voided_attempt(redeal, checker.replica, deal.round)
        except RecordError as exc:
            r, attempt = _attempt_of(deal.setup)
            log.info("round %d attempt %d: our record of the void is unusable: %s", r, attempt, exc)
            return
        own.private_void(redeal)

    def earlier_round(self, result: RoundResult) -> None:
        """A round an earlier run of this program checked and recorded (it restarted and
        took its seat back): the replica follows it, and it stays checked."""
        checker = self.port.checker
        assert checker is not None
        r = result.round
        outcome = checker.follow(result)
        said = in_round(r, phrase(EARLIER_RUN)) if outcome.ok else outcome.said
        self.port.verified(RoundChecked.of(r, outcome.ok, said))

    def _judge(self, deal: ClientDeal) -> None:
        """Our own verdict on a voided attempt, once every key is in."""
        report = next(
            (v for v in reversed(self.voids) if (v.round, v.attempt) == (deal.round, deal.attempt)),
            None,
        )
        if report is None or report.our_code is not None:
            return
        checker = self.port.checker
        replica = checker.replica if checker is not None else None
        followed = self._followed
        verdict = our_verdict(deal, replica, self.port.views.last(deal.round), followed)
        if verdict is not None:
            report.our_code, report.our_culprit = verdict
        if isinstance(deal.verdict, RoundVerified) and (
            actions := special_actions(deal, deal.verdict, followed)
        ):
            # Our record of the void holds every action, as the host's does.
            report.actions = tuple(redeal_action(*a) for a in actions_to_wire(actions))

    # -- the round's end -----------------------------------------------------------------------

    def round_end(self, result: RoundResult, seeds: list[bytes], msg: dict[str, Any]) -> None:
        self._round_end(result, charges=p.charges_from_wire(msg.get("charges"), result))

    def missed_round(
        self, result: RoundResult, seeds: list[bytes], wire: dict[str, Any], earlier: bool
    ) -> None:
        if earlier:
            self.earlier_round(result)  # this program's last run checked it
        else:
            self._round_end(result, away=True)  # it ended while we were away

    def _round_end(
        self,
        result: RoundResult,
        *,
        away: bool = False,
        charges: tuple[tuple[int, int, str], ...] | None = None,
    ) -> None:
        """Check a finished round. ``away``: it ended while our link was down (we learn of
        it from the snapshot); an attempt of ours still open was then replaced by one a bot
        of the host played for us, or its last reveals never reached us. ``charges``: the
        seats that paid for a void in it (``round_end``); from a snapshot, read off the
        points (docs/rules.md, "Voided deals")."""
        port = self.port
        r = result.round
        if charges is None:
            charges = _charges_in(result)
        checker = port.checker
        if checker is not None and checker.replica.round == r - 1:
            for _attempt, seat, _why in charges:  # the replica scores the round as the rules do
                checker.replica.charge(seat)
        deal = self.deal
        if away and deal is not None and deal.round == r and deal.verdict is None:
            self.deal = None
            self._forget(deal)
            deal = None
        if deal is None or deal.round != r or deal.voided:
            if r in self._stood_in or away:
                self._stand_in_round(result, charges)
            else:
                said = N_("this client took no part in the round's deal (lost): not checked")
                self._report(r, phrase(said))
                self._own_round_over(r)
            return
        self.deal = None
        self._forget(deal)
        verdict = deal.verdict
        withheld = sorted({seat for _, seat, why in charges if why == UNREVEALED})
        opened = None
        if verdict is None and withheld and deal.fault is None:
            # Every card was played; these seats kept their keys: the round is scored from
            # what was opened, each play checked against its signed claim (section 10).
            view = deal.player.view
            if sorted(view.missing_reveals()) == withheld:
                opened = opened_deck(view, port.config.rules.specials if port.config else ())
        if not isinstance(verdict, RoundVerified) and opened is None:
            problem = deal.fault or (verdict.fault if verdict is not None else None)
            why = phrase(N_("keys missing")) if problem is None else fault_phrase(problem)
            self._report(r, phrase(N_("the deal did not verify: {why}"), why=why), failed=True)
            return
        if result.actions and isinstance(verdict, RoundVerified):
            # A special round: every open, show and gift is a move its actions make.
            wrong = moves_problem(deal.setup, deal.transcript, verdict, deal.cards, result)
            if wrong is not None:
                self._report(r, wrong, failed=True)
                return
        elif deal.plays() != _opened_plays(result):
            self._report(r, phrase(_NOT_OPENED), failed=True)
            return
        assert checker is not None
        if isinstance(verdict, RoundVerified):
            deck = list(deal.deck_of(verdict))
        else:
            assert opened is not None
            deck = list(opened)
        shown = [v for v in port.views.dealt(r) if id(v) in self._merged]
        self._merged = {}
        last = port.views.last(r)
        outcome = checker.check_deck(deck, result, last, shown)
        port.verified(RoundChecked.of(outcome.round, outcome.ok, outcome.said))
        if port.own is not None:
            if outcome.ok:
                port.own.private_round(result, deal.setup, deal.transcript, charges)
            else:
                port.own.round_failed(r)

    def _stand_in_round(
        self, result: RoundResult, charges: tuple[tuple[int, int, str], ...] = ()
    ) -> None:
        """A round a bot of the host played for us (or that ended while we were away):
        checked in full from its envelopes if we followed it to the end; else the replica
        takes the host's record (its plays and scores still checked) and the round is
        reported as not checked, which is no failure (docs/protocol.md)."""
        r = result.round
        watch, self._watch = self._watch, None
        checker, own = self.port.checker, self.port.own
        assert checker is not None
        if watch is not None and watch.setup.round == r and watch.fault is not None:
            failed = N_("the deal a bot of the host played for you did not verify: {why}")
            self._report(r, phrase(failed, why=fault_phrase(watch.fault)), failed=True)
        elif watch is not None and watch.setup.round == r and watch.result is not None:
            self._check_watched(result, watch, charges)
        else:
            outcome = checker.follow(result)
            away = N_(
                "played while you were away (a bot of the host's played your seat): its deal "
                "not checked; the plays and scores follow"
            )
            said = in_round(r, phrase(away)) if outcome.ok else outcome.said
            self.port.verified(RoundChecked.of(r, outcome.ok, said, checked=not outcome.ok))
            if not outcome.ok and own is not None:
                own.round_failed(r)
            self._own_round_over(r)  # the record takes the host's record of it

    def _check_watched(
        self, result: RoundResult, watch: Verifier, charges: tuple[tuple[int, int, str], ...]
    ) -> None:
        """The round a bot of the host played for us, checked from every envelope of it."""
        port, r = self.port, result.round
        assert watch.result is not None and port.checker is not None
        plays = _opened_plays(result)  # (a face-up card taken is played unopened)
        cards = item_cards(port.config.rules.specials if port.config is not None else ())
        opens = [(seat, cards[item]) for seat, item in _opens(watch.setup, watch.transcript)]
        if opens != plays:
            self._report(r, phrase(_NOT_OPENED), failed=True)
            return
        deck = [cards[i] for i in watch.result.items if i is not None]
        outcome = port.checker.check_deck(deck, result, None, ())
        said = outcome.said
        if outcome.ok:
            said = phrase(N_("{detail} (a bot of the host played your seat)"), detail=said)
        port.verified(RoundChecked.of(outcome.round, outcome.ok, said))
        if port.own is not None:
            if outcome.ok:
                port.own.private_round(result, watch.setup, list(watch.transcript), charges)
            else:
                port.own.round_failed(r)

    def _watch_stand_in(self, r: int, attempt: int, transcript: list[Envelope]) -> None:
        """We are back while a bot of the host plays our seat in this attempt: the host
        sends us its envelopes from now on; follow them as a view of our own."""
        config, game_id = self.port.config, self.port.game_id
        if config is None or game_id is None:
            return
        n = config.players
        dealer = dealer_of(config.first_dealer, r, n)
        keys = self._pending_keys
        veiled = veiled_round(config.rules, n, r)
        size = _hand_size(config, r)
        setup = round_setup(
            game_id,
            r,
            n,
            dealer,
            keys,
            attempt,
            hand_size=size,
            veiled=veiled,
            specials=config.rules.specials,
        )
        self._watch = Verifier(setup)
        for envelope in transcript:
            self._watch_receive(envelope)

    def _watch_receive(self, envelope: Envelope) -> None:
        watch = self._watch
        if watch is not None and watch.fault is None and watch.result is None:
            with contextlib.suppress(DealFault):  # kept in watch.fault: the round fails
                watch.receive(envelope)

    def _report(self, r: int, detail: Phrase, *, failed: bool = False) -> None:
        """A round this program cannot vouch for. ``failed``: its check of the round
        failed, so its record ends before the round."""
        port = self.port
        if port.checker is not None:
            port.checker.broken = True
        port.verified(RoundChecked.of(r, False, in_round(r, detail)))
        if failed and port.own is not None:
            port.own.round_failed(r)

    def _own_round_over(self, r: int) -> None:
        if self.port.own is not None:
            self.port.own.round_over(r)

    def _forget(self, deal: ClientDeal) -> None:
        """The round's secret is no longer needed: delete its file (docs/private-deal.md
        section 10)."""
        game_id = self.port.game_id
        if self.store is not None and game_id is not None:
            self.store.delete(game_id, deal.round, deal.attempt)

    # -- reconnects -----------------------------------------------------------------------------

    def snapshot(self, deal: Any) -> None:
        """After a resume: the host's transcript of the round follows (``on_transcript``)."""
        if self._followed is not None:
            self._followed.complete = False  # the events before it are gone
        deal_wire = deal
        if type(deal_wire) is not dict:
            return
        r, attempt, count = (
            an_int(deal_wire.get(k), "snapshot deal") for k in ("round", "attempt", "envelopes")
        )
        expect(count >= 0, "snapshot deal")
        voiding = deal_wire.get("voiding") is True
        self._pending_keys = self._attempt_keys(deal_wire.get("signing_keys"))
        self._pending = (r, attempt, [], voiding)
        if count == 0:
            self._resume()

    def on_transcript(self, msg: dict[str, Any]) -> None:
        pending = self._pending
        if pending is None or (msg.get("round"), msg.get("attempt")) != pending[:2]:
            return
        envelopes = a_list(msg.get("envelopes"), "transcript")
        pending[2].extend(Envelope.from_wire(e) for e in envelopes)
        if msg.get("more") is not True:
            self._resume()

    def _resume(self) -> None:
        """Carry on with the round's keys we kept; without them, tell the host they are lost."""
        assert self._pending is not None
        r, attempt, transcript, voiding = self._pending
        self._pending = None
        port = self.port
        deal = self.deal
        if not self._ours(self._pending_keys, r):
            self._watch_stand_in(r, attempt, transcript)
            return
        if deal is None or (deal.round, deal.attempt) != (r, attempt):
            if deal is not None and deal.voided:
                self._record_void(deal)
            secret = None
            store, game_id = self.store, port.game_id
            if store is not None and game_id is not None:
                # Earlier attempts of the round were voided while we were away (a restarted
                # host voids the one it lost): their keys are of no more use.
                for voided in range(attempt):
                    store.delete(game_id, r, voided)
                secret = store.load(game_id, r, attempt)
            seat = port.seat
            if secret is None and any(e.sender == seat for e in transcript):
                self.deal = None
                port.send({"t": "lost", "round": r, "attempt": attempt})
                return
            if secret is None:
                self._forget_views(r, attempt)
            deal = self.deal = self._new_deal(r, attempt, None, self._pending_keys, secret)
        deal.resume(transcript)
        view = self._raw_view
        if view is not None and view.round == r:  # decide again from the resumed hand
            port.show(self.view_for_table(view))
        if voiding:
            deal.voided = True
            envelope = deal.reveal()
            if envelope is not None:
                port.send(p.deal_msg(r, attempt, envelope.to_wire()))
        self.settle()


_NOT_OPENED = N_("the plays announced are not the cards their players opened")


def _opened_plays(result: RoundResult) -> list[tuple[int, int]]:
    """(seat, card) of every play of a round that opened a card: all but those of a
    face-up card its seat took (the turned card for the Werewolf, a card from a Witch's
    trick: docs/private-deal.md section 16)."""
    if not result.actions:  # (a plain round: every play is an open)
        return [play for trick in result.tricks for play in trick.plays]
    return opened_plays(result.actions, result.turned_card)


def _hand_size(config: GameConfig, r: int) -> int:
    """Cards dealt to each player in round ``r``; a round the game lacks is the host's error."""
    expect(type(r) is int and 1 <= r <= config.num_rounds, "round number")
    return config.round_size(r)


def _charges_in(result: RoundResult) -> tuple[tuple[int, int, str], ...]:
    """The charges a round's points show, when nobody told us (a snapshot's history): a
    seat whose points are not its bid's score paid a whole number of voids."""
    unit = void_charge(len(result.hands[0]))  # -10 per card of the round
    out: list[tuple[int, int, str]] = []
    for seat, (bid, won, points) in enumerate(
        zip(result.bids, result.tricks_won, result.points, strict=True)
    ):
        if points != score(bid, won) and points < 0 and points % unit == 0:
            out.extend((0, seat, VOIDED) for _ in range(points // unit))
    return tuple(out)


def _attempt_of(setup: DealSetup) -> tuple[int, int]:
    return setup.round, setup.attempt


def _opens(setup: DealSetup, transcript: list[Envelope]) -> list[tuple[int, int]]:
    """(seat, item) of every play in a round's transcript, in order (a blind play's from
    its unveil)."""
    return played_items(setup, transcript)


def _who(culprit: int) -> str:
    return _("the relay (the host)") if culprit == RELAY else _("seat {seat}").format(seat=culprit)


__all__ = ["PrivateSeatHalf"]
