"""Wizard's private deal (``docs/private-deal.md``), one round run in-process.

``round_setup`` is the setup that follows from the game: the chain starts at the
dealer's left, position ``k < n·h`` goes to seat ``(dealer + 1 + k) mod n`` (``h`` the
round's hand size), position ``n·h`` is the face-up trump card (when there is one), the rest
undealt. The deck has one item per card of the table (``deck_cards(rules.specials)``: the 60
plain cards, then the chosen special cards): item ``i`` is card ``deck_cards(...)[i]``, so in
the plain game the item at a final-deck position is the card there.

``PrivateRound`` runs one round with every seat a ``DealPlayer`` of its own (its own
signing key and round keys) and a ``DealRelay`` between them, forwarding every envelope
the way the host does on a network: the relay checks it first, then every other seat.
``simulate --deal private`` uses it, so a simulated game's transcript is exactly what a
networked private-deal game would produce. Nobody here reads another seat's keys: the
hands come from each player's own opening, the trump card from the public opening.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence

from netplay.mental import (
    UNDEALT,
    VEILED,
    DealPlayer,
    DealRelay,
    DealSetup,
    RoundFailed,
    RoundKeys,
    RoundVerified,
    Send,
    Suspect,
    Verifier,
    chain_from,
    deal_round_robin,
)
from netplay.mental.protocol import Event
from netplay.signing import Envelope, SigningKey

from .game import TableRules, is_forehead_round, left_of
from .game.specials import Special, deck_cards


def item_cards(specials: Iterable[Special] = ()) -> tuple[int, ...]:
    """The card of every item of the table's private deal: item ``i`` is card
    ``item_cards(...)[i]`` (``N = 60 + len(specials)`` items; the identity without
    special cards)."""
    return deck_cards(specials)


def item_of_card(card: int, specials: Iterable[Special] = ()) -> int:
    """The item that stands for ``card`` in the table's private deal; ValueError if the
    table's deck has no such card."""
    return item_cards(specials).index(card)


def opened_deck(view: Verifier, specials: Iterable[Special] = ()) -> tuple[int, ...] | None:
    """A round whose cards are all played, scored from what was opened (docs/private-deal.md
    section 10, "A reveal withheld"): the item at every dealt and face-up position, as the
    round opened it (each play checked against its signed claim); None unless every such
    position is open. The undealt positions, which only the missing keys open, get the
    items nobody saw, in ascending order: no rule reads them. Cards, not items: the
    table's ``specials`` say which card each item is."""
    setup = view.setup
    cards = item_cards(specials)
    if len(cards) != setup.items:
        raise ValueError(f"a deal of {setup.items} items for a deck of {len(cards)} cards")
    if view.final_deck is None or view.fault is not None:
        return None
    shown = [k for k in range(setup.items) if setup.owners[k] != UNDEALT]
    if any(k not in view.opened for k in shown):
        return None
    unseen = iter(sorted(set(range(setup.items)) - set(view.opened.values())))
    return tuple(
        cards[view.opened[k] if k in view.opened else next(unseen)] for k in range(setup.items)
    )


class PrivateDealError(Exception):
    """The in-process deal did not go through (a bug: every seat here is honest)."""


def round_setup(
    game_id: bytes,
    round_number: int,
    players: int,
    dealer: int,
    signing_keys: Sequence[bytes],
    attempt: int = 0,
    *,
    hand_size: int,
    veiled: bool = False,
    specials: Iterable[Special] = (),
) -> DealSetup:
    """The setup of round ``round_number`` (the ordinal: in every signature) that follows
    from the game (section 5), dealing ``hand_size`` cards each (the game's length decides:
    ``Game.hand_size``) from a deck of one item per card of the table (``specials``: the
    table's special cards, ``TableRules.specials``). ``veiled``: a forehead round
    (docs/rules.md), every dealt position veiled from its holder (section 15): open to every
    other seat, never to its own."""
    chosen = frozenset(specials)
    first = left_of(dealer, players)  # the seat that receives the first card
    items = len(item_cards(chosen))
    owners = deal_round_robin(players, hand_size, first, items, face_up=1)
    if veiled:
        owners = tuple(o | VEILED if o < players else o for o in owners)
    return DealSetup(
        game_id=game_id,
        round=round_number,
        attempt=attempt,
        chain=chain_from(first, players),
        owners=owners,
        signing_keys=tuple(signing_keys),
        # Cards may change hands at a table of special cards (the Werewolf, the Juggler, the
        # Witch; docs/private-deal.md section 16); never in the plain game.
        moves=bool(chosen),
    )


def veiled_round(rules: TableRules, players: int, round_number: int) -> bool:
    """Whether round ``round_number`` of a game is dealt veiled: a forehead round."""
    sizes = rules.round_sizes(players)
    return 1 <= round_number <= len(sizes) and is_forehead_round(rules, sizes[round_number - 1])


class PrivateRound:
    """One round's private deal between ``n`` in-process seats.

    >>> pr = PrivateRound(setup, signing_keys, secrets)
    >>> hands, trump = pr.deal()          # K0..K3: passes, releases, hands opened
    >>> pr.play(seat, card)               # K4, for every card played, in play order
    >>> pr.show(seat, card)               # special cards (section 16): a Werewolf face up,
    >>> pr.take_public(seat, card)        #   the trump card or a trick card into a hand,
    >>> pr.pass_cards(cards)              #   a Juggler's pass: the cards each seat received
    >>> transcript = pr.finish()          # K5: every seat reveals; the round verified
    """

    def __init__(
        self,
        setup: DealSetup,
        signing_keys: Sequence[SigningKey],
        round_secrets: Sequence[bytes] | None = None,
        *,
        specials: Iterable[Special] = (),
    ) -> None:
        n = setup.seats
        self.cards = item_cards(specials)  # item i is card self.cards[i]
        if len(self.cards) != setup.items:
            raise ValueError(f"a deal of {setup.items} items for a deck of {len(self.cards)} cards")
        if len(signing_keys) != n:
            raise ValueError(f"{len(signing_keys)} signing keys for {n} seats")
        if round_secrets is not None and len(round_secrets) != n:
            raise ValueError(f"{len(round_secrets)} round secrets for {n} seats")
        self.setup = setup
        self.players = [
            DealPlayer(
                setup,
                seat,
                signing_keys[seat],
                RoundKeys.generate(setup.items)
                if round_secrets is None
                else RoundKeys.derive(round_secrets[seat], setup.items),
            )
            for seat in range(n)
        ]
        self.relay = DealRelay(setup)
        self.trump_card: int | None = None
        # Cards that changed hands (docs/private-deal.md section 16): per seat, a card it
        # holds other than at a dealt position: a gift (pass, giver) or a face-up card (None).
        self.moved: list[dict[int, tuple[int, int] | None]] = [{} for _ in range(n)]
        self.gone: list[set[int]] = [set() for _ in range(n)]  # dealt cards given or shown
        self.passes = 0

    # -- the round -----------------------------------------------------------------------------

    def deal(self) -> tuple[tuple[tuple[int, ...], ...], int | None]:
        """Run the passes and releases; every seat opens its own hand. Returns the hands
        (per seat, in deal order) and the face-up trump card (None when all are dealt)."""
        for seat, player in enumerate(self.players):
            self._route(seat, player.start())
        hands = []
        n = self.setup.seats
        for seat, player in enumerate(self.players):
            if player.hand is None:
                raise PrivateDealError(f"seat {seat} could not open its hand: {player.halted}")
            # A veiled card (a forehead round) is seen by the others, not by its holder.
            other = self.players[(seat + 1) % n]
            hands.append(
                tuple(
                    self.cards[player.hand[k] if k in player.hand else other.veiled[k]]
                    for k in self.setup.positions_of(seat)
                )
            )
        public = self.setup.public_positions
        self.trump_card = self.cards[self.relay.view.opened[public[0]]] if public else None
        return tuple(hands), self.trump_card

    def deck(self, hands: Sequence[Sequence[int]]) -> tuple[int, ...]:
        """A deck order for the rules engine: the dealt positions and the trump card as
        opened, the undealt positions (unknown until the round's end) with the remaining
        cards in ascending order; the engine never looks at those."""
        dealt = [0] * sum(len(h) for h in hands)
        for seat, hand in enumerate(hands):
            for position, card in zip(self.setup.positions_of(seat), hand, strict=True):
                dealt[position] = card
        if self.trump_card is not None:
            dealt.append(self.trump_card)
        rest = sorted(set(self.cards) - set(dealt))
        return (*dealt, *rest)

    def take_public(self, seat: int, card: int) -> None:
        """``seat`` takes a face-up card into its hand (the Werewolf's trump card, a card
        the Witch takes from the trick): everyone saw it, so no message."""
        self.moved[seat][card] = None

    def show(self, seat: int, card: int) -> None:
        """``seat`` puts ``card`` face up without playing it (its Werewolf, the card a Witch
        gives into the trick): a ``show`` of its dealt position, a ``show_gift`` of a card it
        was given, nothing for a face-up card it took."""
        player = self.players[seat]
        if card in self.moved[seat]:
            gift = self.moved[seat].pop(card)
            if gift is not None:
                self._route(seat, player.show_gift(*gift))
            return
        position = self._dealt_position(seat, card)
        self.gone[seat].add(card)
        self._route(seat, player.show(position, self.cards.index(card)))

    def pass_cards(self, passed: Sequence[int]) -> tuple[int, ...]:
        """Every seat passes ``passed[seat]`` to its left (a Juggler's pass), privately:
        returns the card each seat received, as that seat's own player unsealed it."""
        n = self.setup.seats
        index = self.passes
        if len(passed) != n:
            raise ValueError(f"{len(passed)} cards passed by {n} seats")
        for seat, card in enumerate(passed):  # every seat must hold its card: check first
            if card not in self.moved[seat]:
                self._dealt_position(seat, card)
        for seat, player in enumerate(self.players):
            self._route(seat, player.send_inbox())  # (once per round: then it sends nothing)
        for seat, card in enumerate(passed):
            if card in self.moved[seat]:
                self.moved[seat].pop(card)
            else:
                self.gone[seat].add(card)
            player = self.players[seat]
            self._route(seat, player.give(index, left_of(seat, n), self.cards.index(card)))
        self.passes += 1
        received = []
        for seat, player in enumerate(self.players):
            giver = (seat - 1) % n
            item = player.gifts.get((index, giver))
            if item is None:
                raise PrivateDealError(f"seat {seat} did not receive its card: {player.halted}")
            self.moved[seat][self.cards[item]] = (index, giver)
            received.append(self.cards[item])
        return tuple(received)

    def _dealt_position(self, seat: int, card: int) -> int:
        player = self.players[seat]
        assert player.hand is not None
        item = self.cards.index(card) if card in self.cards else -1
        for position, held in player.hand.items():
            if held == item and card not in self.gone[seat]:
                return position
        raise PrivateDealError(f"seat {seat} does not hold card {card}")

    def play(self, seat: int, card: int) -> None:
        """``seat`` plays ``card``: its player releases the key of that card's position
        (or opens the gift it holds; a face-up card it took needs no message)."""
        if card in self.moved[seat]:
            gift = self.moved[seat].pop(card)
            if gift is not None:
                self._route(seat, self.players[seat].play_gift(*gift))
            return
        if card in self.gone[seat]:
            raise PrivateDealError(f"seat {seat} no longer holds card {card}")
        player = self.players[seat]
        assert player.hand is not None
        other = self.players[(seat + 1) % self.setup.seats]
        item = self.cards.index(card) if card in self.cards else -1
        for position in self.setup.positions_of(seat):
            if other.veiled.get(position) == item and position not in player.view.blinds:
                self._route(seat, player.play_blind(position))  # unseen: its unveiler opens it
                return
        for position, held in player.hand.items():
            if held == item and position not in player.view.opened:
                self._route(seat, player.play(position, item))
                return
        raise PrivateDealError(f"seat {seat} does not hold card {card}")

    def finish(self) -> list[Envelope]:
        """Every seat reveals its round keys; the relay's verdict must be clean. Returns
        the relay's transcript: what the record stores."""
        for seat, player in enumerate(self.players):
            self._route(seat, player.reveal())
        result = self.relay.view.result
        if not isinstance(result, RoundVerified) or result.suspects:
            raise PrivateDealError(f"the round did not verify: {self.relay.view.fault}")
        return self.relay.transcript

    # -- delivery ------------------------------------------------------------------------------

    def _route(self, seat: int, events: list[Event]) -> None:
        """Deliver every envelope ``seat`` sends, and every envelope that provokes, through
        the relay to every other seat (breadth first, as a network would)."""
        queue: deque[tuple[int, list[Event]]] = deque([(seat, events)])
        while queue:
            sender, batch = queue.popleft()
            for event in batch:
                if isinstance(event, Suspect | RoundFailed):
                    raise PrivateDealError(f"seat {sender}: {event}")
                if not isinstance(event, Send):
                    continue
                targets, relay_events = self.relay.receive(sender, event.envelope)
                for relayed in relay_events:
                    if isinstance(relayed, Suspect | RoundFailed):
                        raise PrivateDealError(f"the relay: {relayed}")
                for target in targets:
                    queue.append((target, self.players[target].receive(event.envelope)))


__all__ = [
    "PrivateDealError",
    "PrivateRound",
    "item_cards",
    "item_of_card",
    "opened_deck",
    "round_setup",
    "veiled_round",
]
