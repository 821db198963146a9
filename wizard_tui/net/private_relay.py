"""The host's side of one attempt of a privately dealt round: the relay and the bots.

The host never holds a remote player's keys. ``HostDeal`` runs a ``DealRelay`` (a direct view:
the first check of every envelope, and the round's transcript) and one ``DealPlayer`` per bot
it seats (and per seat a bot plays for an absent player), each with a signing key of its own;
the host player's own table is a client like any other. Every envelope a seat sends goes
through ``deliver``: the relay checks it, then it goes byte for byte to every other seat (the
remote ones through ``outbox``, which the host sends after each call; the bots at once,
breadth first, so that every seat sees the relay's order).

What the game needs to know comes out as attributes: ``trump_card`` once the deal is done
(``dealt``), ``plays`` (each ``CardOpened``), ``verdict`` once every seat revealed,
``suspect`` when something only cheating causes was seen (the attempt must be voided with
reveals), ``fault`` when an envelope failed a check (its culprit is named already).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence

from netplay.mental import (
    CardOpened,
    DealFault,
    DealPlayer,
    DealRelay,
    DealSetup,
    EnvelopeRefused,
    GiftOpened,
    PublicOpened,
    RoundFailed,
    RoundVerified,
    Send,
    Suspect,
)
from netplay.mental.protocol import Event
from netplay.mental.protocol import Phase as DealPhase
from netplay.signing import Envelope, SigningKey

from ..game import BLIND_CARD
from ..game.specials import Special
from ..private_special import werewolf_opening


def foreheads(setup: DealSetup, veiled: Mapping[int, int]) -> dict[int, int]:
    """The others' veiled cards a seat opened (position -> item) as seat -> card."""
    shown: dict[int, int] = {}
    for position, item in veiled.items():
        holder = setup.holder(position)
        if holder is not None:
            shown[holder] = item
    return shown


class HostDeal:
    """One attempt of one round's private deal at the host; see the module docstring."""

    def __init__(
        self,
        setup: DealSetup,
        bot_keys: Mapping[int, SigningKey],
        cards: Sequence[int] | None = None,
        *,
        werewolf: bool = False,
    ) -> None:
        self.setup = setup
        # The card of every item (``private_deal.item_cards``; the identity without special
        # cards): ``trump_card``, ``bot_hand``, ``bot_play`` and ``card_of`` speak cards.
        self.cards = tuple(range(setup.items)) if cards is None else tuple(cards)
        if len(self.cards) != setup.items:
            raise ValueError(f"{len(self.cards)} cards for a deal of {setup.items} items")
        self.relay = DealRelay(setup)
        # A table with the Werewolf: each bot shows it if dealt it, then sends its inbox, as
        # soon as its hand is open (docs/private-deal.md section 16).
        self.werewolf = werewolf
        # The bots are the host's own seats: re-auditing their own relay's round would prove
        # nothing to anyone and stall the host's loop (and a table in its process) at every
        # round end. The relay's audit (``verdict``) stands for them.
        self.bots = {
            seat: DealPlayer(setup, seat, key, audit=False) for seat, key in bot_keys.items()
        }
        self.outbox: list[tuple[int, Envelope]] = []  # (remote seat, envelope) to send
        # Seats a bot plays here whose player is back: it follows the attempt (every envelope
        # goes to it too) and checks the round like any seat, from the next one it plays.
        self.watchers: set[int] = set()
        self.trump_card: int | None = None
        self.plays: list[CardOpened] = []  # a gift played: position -1
        self.gift_opens: list[GiftOpened] = []  # every gift opened to everyone (section 16)
        self.bot_gave: dict[tuple[int, int], int] = {}  # (bot seat, pass) -> item it gave
        self.suspect: Suspect | None = None
        self.fault: DealFault | None = None
        self.verdict: RoundVerified | RoundFailed | None = None
        self.fault_envelope: Envelope | None = None  # the refused envelope, if one

    @property
    def round(self) -> int:
        return self.setup.round

    @property
    def attempt(self) -> int:
        return self.setup.attempt

    @property
    def dealt(self) -> bool:
        """Every key is released: each seat holds its hand, the trump card is face up."""
        return self.relay.view.phase is DealPhase.PLAY and self.fault is None

    @property
    def transcript(self) -> list[Envelope]:
        return self.relay.transcript

    @property
    def all_played(self) -> bool:
        """Every dealt card is open: each seat's program reveals its keys now (a decision
        may still follow the last card: a Cloud's change of its bid)."""
        setup = self.setup
        dealt = sum(1 for k in range(setup.items) if setup.holder(k) is not None)
        view = self.relay.view
        # A gift opened counts for the dealt position its card left unopened, unless that
        # card was face up already (the turned card a Werewolf's holder took and passed).
        face_up = set(view.opened.values())
        gifts = sum(1 for g in self.gift_opens if g.item not in face_up)
        return len(view.plays) + len(view.shows) + gifts == dealt

    @property
    def inboxes_in(self) -> bool:
        """Every seat's inbox is accepted (at a table with the Werewolf the round starts
        then: a holder's show came before its inbox)."""
        return len(self.relay.view.inboxes) == self.setup.seats

    @property
    def werewolf_holder(self) -> int | None:
        """The seat that showed the Werewolf (None if nobody did)."""
        view = self.relay.view
        for position, (seat, _key, _env) in view.shows.items():
            item = view.opened.get(position)
            if item is not None and self.cards[item] == Special.WEREWOLF:
                return seat
        return None

    def start(self) -> None:
        """K0/K1: the bots take their turn in the chain (when the chain starts with one)."""
        for seat, player in self.bots.items():
            self._route(seat, player.start())

    def deliver(self, seat: int, envelope: Envelope) -> None:
        """An envelope from remote seat ``seat``'s connection. Raises ``DealFault`` (also
        kept in ``fault``) if the relay refuses it; nothing is forwarded then. Raises
        ``EnvelopeRefused`` (not kept) for one that proves nothing against its signer."""
        self._route(seat, [Send(envelope)])

    def bot_hand(self, seat: int) -> tuple[int, ...]:
        """A bot's dealt hand, in deal order (empty until its hand opened)."""
        player = self.bots[seat]
        if player.hand is None:
            return ()
        # (A veiled card, a forehead round's, is not the bot's to see.)
        cards = self.cards
        return tuple(
            cards[player.hand[k]] for k in self.setup.positions_of(seat) if k in player.hand
        )

    def card_of(self, item: int) -> int:
        """The card an item of this deal stands for."""
        return self.cards[item]

    def item_of(self, card: int) -> int | None:
        """The item that stands for ``card``; None if the table's deck has no such card."""
        try:
            return self.cards.index(card)
        except ValueError:
            return None

    def bot_foreheads(self, seat: int) -> dict[int, int]:
        """What a bot sees on the others' foreheads: seat -> card (a forehead round)."""
        return foreheads(self.setup, self.bots[seat].veiled)

    def bot_play(self, seat: int, card: int) -> None:
        """A bot plays ``card``: its player sends the open of that card's position."""
        player = self.bots[seat]
        assert player.hand is not None
        if card == BLIND_CARD:  # its veiled card: its unveiler opens it to all
            position = next(k for k in self.setup.positions_of(seat) if k not in player.hand)
            self._route(seat, player.play_blind(position))
            return
        item = self.cards.index(card)  # (the bot chose it from its own hand)
        gift = self._held_gift(seat, item)
        if gift is not None:  # a card passed to it: its open_gift (section 16)
            self._route(seat, player.play_gift(*gift))
            return
        position = next(k for k, held in player.hand.items() if held == item)
        self._route(seat, player.play(position, item))

    def _held_gift(self, seat: int, item: int) -> tuple[int, int] | None:
        """The gift (pass, giver) by which the bot in ``seat`` holds ``item``: the latest
        it received, unless it opened it or gave it on (None: a card it was dealt)."""
        player = self.bots[seat]
        for m, giver in sorted(player.gifts, reverse=True):
            if player.gifts[(m, giver)] != item or (m, giver) in player.view.gift_opens:
                continue
            if any(p > m and given == item for (s, p), given in self.bot_gave.items() if s == seat):
                return None  # it gave that card on
            return (m, giver)
        return None

    def bot_send_inboxes(self) -> None:
        """A Juggler's pass begins: every bot sends its inbox (once per round)."""
        for seat, player in self.bots.items():
            if seat not in self.relay.view.inboxes and self.fault is None:
                self._route(seat, player.send_inbox())

    def bot_give(self, seat: int, pass_index: int, to: int, card: int) -> None:
        """The bot in ``seat`` gives ``card`` to ``to`` in pass ``pass_index`` (its inbox
        first if not sent yet); its unlock follows on its own once every give is in."""
        player = self.bots[seat]
        if seat not in self.relay.view.inboxes:
            self._route(seat, player.send_inbox())
        self.bot_gave[(seat, pass_index)] = self.cards.index(card)
        self._route(seat, player.give(pass_index, to, self.cards.index(card)))

    def bot_show(self, seat: int, card: int) -> None:
        """A bot gives ``card`` into a Witch's trick: its player shows the card's dealt
        position (or, for a card passed to it, the gift: ``show_gift``)."""
        player = self.bots[seat]
        assert player.hand is not None
        item = self.cards.index(card)  # (the bot chose it from its own hand)
        gift = self._held_gift(seat, item)
        if gift is not None:  # a card passed to it
            self._route(seat, player.show_gift(*gift))
            return
        view = player.view
        position = next(
            (
                k
                for k, held in player.hand.items()
                if held == item and k not in view.plays and k not in view.shows
            ),
            None,
        )
        assert position is not None  # (a card it holds: dealt, or passed to it)
        self._route(seat, player.show(position, item))

    def reveal_bots(self) -> None:
        """K5 for every bot that has not revealed yet."""
        for seat, player in self.bots.items():
            if seat not in self.relay.view.revealed and self.fault is None:
                self._route(seat, player.reveal())

    def _route(self, seat: int, events: list[Event]) -> None:
        self._route_one(seat, events)
        sent = self.werewolf
        while sent and self.fault is None:  # a bot's hand opened: its opening, one by one
            sent = False
            for bot_seat, bot in self.bots.items():
                if bot.halted is None and self.fault is None:
                    batch = werewolf_opening(bot, self.cards)
                    if batch:
                        self._route_one(bot_seat, batch)
                        sent = True

    def _route_one(self, seat: int, events: list[Event]) -> None:
        queue: deque[tuple[int, list[Event]]] = deque([(seat, events)])
        while queue:
            sender, batch = queue.popleft()
            for event in batch:
                if isinstance(event, Suspect):  # a bot's own view saw it
                    self.suspect = self.suspect or event
                if not isinstance(event, Send):
                    continue
                env = event.envelope
                try:
                    targets, relay_events = self.relay.receive(sender, env)
                except EnvelopeRefused:
                    raise  # dropped: it proves nothing, and the round goes on without it
                except DealFault as fault:
                    self.fault = self.fault or fault
                    self.fault_envelope = env
                    raise
                for relayed in relay_events:
                    self._note(relayed)
                self.outbox.extend((watcher, env) for watcher in self.watchers)
                for target in targets:
                    bot = self.bots.get(target)
                    if bot is None:
                        self.outbox.append((target, env))
                    elif bot.halted is None and self.fault is None:
                        try:
                            queue.append((target, bot.receive(env)))
                        except DealFault as fault:  # the relay accepted it: a host bug
                            self.fault = self.fault or fault
                            raise

    def _note(self, event: Event) -> None:
        if isinstance(event, PublicOpened):
            self.trump_card = self.cards[event.item]
        elif isinstance(event, CardOpened):
            self.plays.append(event)
        elif isinstance(event, GiftOpened):
            self.gift_opens.append(event)
            if event.played:  # the play of a card passed to its seat
                self.plays.append(CardOpened(event.seat, -1, event.item))
        elif isinstance(event, Suspect):
            self.suspect = self.suspect or event
        elif isinstance(event, RoundVerified | RoundFailed):
            self.verdict = event


# -- the host's game side ---------------------------------------------------------------------


__all__ = ["HostDeal"]
