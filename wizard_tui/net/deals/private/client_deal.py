"""A client's part in a privately dealt round (``docs/private-deal.md``), sans I/O.

``ClientDeal`` is this seat in one attempt of one round: a ``DealPlayer`` with round keys
derived from one 32-byte secret, which is all a reconnect needs (``resume`` replays the
host's transcript into a new player with the same keys). It collects what
the seat half must send (``outbox``) and what it learns: its own hand, the trump card,
the plays, and at the end the verdict of the round-end verification. A check that fails
inside the round is kept in ``fault`` (the view then refuses everything: the seat half tells
the host it stops the attempt).

Its secret can be kept on disk for a restart (``round_secrets.py``).
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from netplay.mental import (
    CardOpened,
    DealFault,
    DealPlayer,
    DealSetup,
    RoundFailed,
    RoundKeys,
    RoundVerified,
    Send,
    Suspect,
)
from netplay.mental.protocol import Event, decode_body, played_items
from netplay.signing import Envelope, SigningKey

from ....game import BLIND_CARD
from ....private_special import werewolf_opening
from ....record import RedealAction
from ...private_relay import foreheads
from .gifts import all_opened, left, own_gives, passes_given, unlocks_owed
from .round_secrets import SECRET_BYTES


class ClientDeal:
    """This seat's part in one attempt of one privately dealt round."""

    def __init__(
        self,
        setup: DealSetup,
        seat: int,
        signing_key: SigningKey,
        secret: bytes | None = None,
        cards: Sequence[int] | None = None,
    ) -> None:
        self.setup = setup
        # The card of every item (``private_deal.item_cards``; the identity without special
        # cards): ``play``, ``hand``, ``trump_card``, ``plays`` and ``deck_of`` speak cards.
        self.cards = tuple(range(setup.items)) if cards is None else tuple(cards)
        if len(self.cards) != setup.items:
            raise ValueError(f"{len(self.cards)} cards for a deal of {setup.items} items")
        self.seat = seat
        self.signing_key = signing_key
        self.secret = secret if secret is not None else secrets.token_bytes(SECRET_BYTES)
        self.keys = RoundKeys.derive(self.secret, setup.items)
        self.player = DealPlayer(setup, seat, signing_key, self.keys)
        self.outbox: list[Envelope] = []
        self.fault: DealFault | None = None
        self.suspect: Suspect | None = None
        self.verdict: RoundVerified | RoundFailed | None = None
        self.voided = False
        self._pending_give: int | None = None  # a Juggler's pass chosen, its give not sent

    @property
    def round(self) -> int:
        return self.setup.round

    @property
    def attempt(self) -> int:
        return self.setup.attempt

    def start(self) -> None:
        self._guard(self.player.start)

    def resume(self, transcript: Iterable[Envelope]) -> None:
        """Rebuild the player from the relay's transcript, with the same keys; anything it
        owes now (a pass, its release) goes to ``outbox``, byte for byte as before."""
        self.fault = None
        try:
            self.player, events = DealPlayer.resume(
                self.setup, self.seat, self.signing_key, self.keys, transcript
            )
        except DealFault as fault:
            self.fault = fault
            return
        self._take(events)

    def receive(self, envelope: Envelope) -> None:
        """An envelope relayed by the host."""
        if self.fault is None:
            self._guard(lambda: self.player.receive(envelope))

    def play(self, card: int) -> Envelope:
        """The open of ``card`` (K4). ``ValueError`` if we do not hold it."""
        if card == BLIND_CARD:  # a forehead round: our veiled card, unseen
            return self._play_blind()
        hand = self.player.hand or {}
        item = self.cards.index(card) if card in self.cards else None
        position = next((k for k, held in hand.items() if held == item), None)
        if item is None or position is None or position in self.player.view.opened:
            raise ValueError(f"card {card} is not in our hand")
        if item in own_gives(self.player).values():  # a dealt card we passed on
            raise ValueError(f"card {card} was given away")
        events = self.player.play(position, item)
        envelope = next(e.envelope for e in events if isinstance(e, Send))
        self._take([e for e in events if not isinstance(e, Send)])
        return envelope

    def play_gift(self, pass_index: int, giver: int) -> Envelope:
        """The ``open_gift`` that plays the card ``giver`` gave us in pass ``pass_index``
        (docs/private-deal.md section 16). ``ValueError`` if we hold no such gift."""
        return self._one(self.player.play_gift(pass_index, giver))

    def show_gift(self, pass_index: int, giver: int) -> Envelope:
        """The ``show_gift`` that puts the card ``giver`` gave us face up, unplayed."""
        return self._one(self.player.show_gift(pass_index, giver))

    def _one(self, events: list[Event]) -> Envelope:
        envelope = next(e.envelope for e in events if isinstance(e, Send))
        self._take([e for e in events if not isinstance(e, Send)])
        return envelope

    def held_gift(self, card: int) -> tuple[int, int] | None:
        """The gift (pass, giver) by which we hold ``card`` now: the latest that brought
        it, unless we opened it or gave it on (None: it came to us otherwise)."""
        player = self.player
        item = self.cards.index(card) if card in self.cards else None
        gave = own_gives(player)
        for m, giver in sorted(player.gifts, reverse=True):
            if player.gifts[(m, giver)] != item or (m, giver) in player.view.gift_opens:
                continue
            return None if any(p > m and g == item for p, g in gave.items()) else (m, giver)
        return None

    def holds_unopened(self, card: int) -> bool:
        """Whether a position dealt to us holds ``card`` and is not opened yet (its play is
        an open, its giving into a trick a show)."""
        return self._unopened(card) is not None

    def _unopened(self, card: int) -> int | None:
        hand = self.player.hand or {}
        item = self.cards.index(card) if card in self.cards else None
        view = self.player.view
        if item in own_gives(self.player).values():
            return None  # a dealt card we passed on: its position stays unopened
        return next(
            (
                k
                for k, held in hand.items()
                if held == item and k not in view.plays and k not in view.shows
            ),
            None,
        )

    def show(self, card: int) -> Envelope:
        """The show of ``card``, given into a Witch's trick (docs/private-deal.md section
        16): of its dealt position, or of the gift that brought it (``show_gift``).
        ``ValueError`` if we hold it neither way."""
        position = self._unopened(card)
        item = self.cards.index(card) if card in self.cards else None
        if position is not None and item is not None:
            events = self.player.show(position, item)
        else:
            gift = self.held_gift(card)
            if gift is None:
                raise ValueError(f"card {card} is not ours to show")
            events = self.player.show_gift(*gift)
        envelope = next(e.envelope for e in events if isinstance(e, Send))
        self._take([e for e in events if not isinstance(e, Send)])
        return envelope

    # -- a Juggler's pass (docs/private-deal.md section 16, "Wizard's messages") ------------

    def send_inbox(self) -> None:
        """Our inbox key, once per round (before any gift to us can be sealed)."""
        if self.fault is None and self.seat not in self.player.view.inboxes:
            self._guard(self.player.send_inbox)

    def pass_card(self, card: int) -> None:
        """Our card of the pass under way goes to our left neighbour: our inbox first if
        not sent yet, then our give once our neighbour's inbox is in and the pass before
        is unlocked (until then it waits: ``send_give``). The unlock follows on its own."""
        self.send_inbox()
        self._pending_give = card
        self.send_give()

    def send_give(self) -> None:
        """The give chosen (``pass_card``), if it can go now."""
        card = self._pending_give
        view = self.player.view
        seats = self.setup.seats
        if card is None or self.fault is not None:
            return
        m = passes_given(view, seats)
        to = left(self.seat, seats)
        if (m, self.seat) in view.gives:
            self._pending_give = None  # (given already: a resumed player)
            return
        if to not in view.inboxes or unlocks_owed(view, seats) or view.passes_moved != m:
            return
        self._pending_give = None
        item = self.cards.index(card) if card in self.cards else None
        if item is not None:
            self._guard(lambda: self.player.give(m, to, item))

    @property
    def give_pending(self) -> bool:
        return self._pending_give is not None

    def _play_blind(self) -> Envelope:
        view = self.player.view
        unplayed = [
            k
            for k in self.setup.positions_of(self.seat)
            if k in self.setup.veiled_positions and k not in view.blinds
        ]
        if not unplayed or self.player.hand is None:
            raise ValueError("no card of ours is veiled and unplayed")
        events = self.player.play_blind(unplayed[0])
        envelope = next(e.envelope for e in events if isinstance(e, Send))
        self._take([e for e in events if not isinstance(e, Send)])
        return envelope

    def reveal(self) -> Envelope | None:
        """K5: our round keys, once (None if already revealed, or our view failed)."""
        if self.fault is not None or self.seat in self.player.view.revealed:
            return None
        events = self.player.reveal()
        envelope = next(e.envelope for e in events if isinstance(e, Send))
        self._take([e for e in events if not isinstance(e, Send)])
        return envelope

    # -- what we know ---------------------------------------------------------------------------

    @property
    def hand(self) -> tuple[int, ...] | None:
        """Our dealt hand in deal order, once it opened."""
        hand = self.player.hand
        if hand is None:
            return None
        cards = self.cards
        return tuple(cards[hand[k]] for k in self.setup.positions_of(self.seat) if k in hand)

    @property
    def foreheads(self) -> dict[int, int]:
        """A forehead round: seat -> the card we see on its forehead (veiled from it)."""
        return foreheads(self.setup, self.player.veiled)

    @property
    def trump_card(self) -> int | None:
        public = self.setup.public_positions
        item = self.player.view.opened.get(public[0]) if public else None
        return None if item is None else self.cards[item]

    @property
    def all_played(self) -> bool:
        """Every dealt card is open (played, or shown: the Werewolf): time for the reveals."""
        return all_opened(self.setup, self.player.view)

    def open_hand(self) -> None:
        """At a table with the Werewolf: once our hand is open, our show of the Werewolf if
        we hold it, then our inbox (``werewolf_opening``), into ``outbox``."""
        if self.fault is None:
            self._guard(lambda: werewolf_opening(self.player, self.cards))

    def holds_gift(self, card: int) -> bool:
        """Whether ``card`` came to us in a gift (a Juggler's pass): its moves are the
        gift's messages."""
        item = self.cards.index(card) if card in self.cards else None
        return item is not None and item in self.player.gifts.values()

    @property
    def revealed(self) -> bool:
        return self.seat in self.player.view.revealed

    @property
    def transcript(self) -> list[Envelope]:
        return list(self.player.view.transcript)

    def plays(self) -> list[tuple[int, int]]:
        """(seat, card) of every open, in the order we received them."""
        cards = self.cards
        return [(seat, cards[item]) for seat, item in played_items(self.setup, self.transcript)]

    def deck_of(self, verdict: RoundVerified) -> tuple[int, ...]:
        """The round's deck as cards, from its verification's items."""
        return tuple(self.cards[i] for i in verdict.items if i is not None)

    def open_of(self, seat: int, card: int) -> Envelope | None:
        for envelope in self.player.view.transcript:
            body = decode_body(envelope.body)
            if envelope.sender == seat and body["t"] == "open" and self.cards[body["item"]] == card:
                return envelope
        return None

    # -- internals -------------------------------------------------------------------------------

    def _guard(self, call: Callable[[], list[Event]]) -> None:
        try:
            events = call()
        except DealFault as fault:
            self.fault = fault
            return
        self._take(events)

    def _take(self, events: list[Event]) -> None:
        for event in events:
            if isinstance(event, Send):
                self.outbox.append(event.envelope)
            elif isinstance(event, Suspect):
                self.suspect = self.suspect or event
            elif isinstance(event, RoundVerified | RoundFailed):
                self.verdict = event
            elif isinstance(event, CardOpened):
                pass  # the host's state shows the play; the view keeps the open


@dataclass
class VoidReport:
    """A voided attempt as this client saw it: what the host said, and whom our own
    checks blame (None: nobody; ``RELAY``: the host)."""

    round: int
    attempt: int
    reason: str
    code: str | None
    culprit: int | None
    our_code: str | None = None
    our_culprit: int | None = None
    evidence: Envelope | None = None  # the envelope the host refused, if it sent one
    # the attempt's trump choice and bids (special cards: every action, once judged)
    actions: tuple[RedealAction, ...] = ()


__all__ = ["ClientDeal", "VoidReport"]
