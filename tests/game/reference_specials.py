"""A second implementation of the special cards' rules, written from docs/rules.md ("Special
cards") alone, to check the engine against (tests/game/test_properties_specials.py).

It shares nothing with the engine's code: it imports the card ids (``Special``), the
declarations, ``Suit`` and the action values (plain data, the words both sides speak), and
works everything else out from the page, as plainly as it can. Speed does
not matter here; being easy to check against the page does.

``RefGame`` is a whole game as a state machine: feed it the same deals and actions as the
engine and compare what it says is legal, who takes each trick, the hands, bids and scores.
The functions above it are the rules one by one; ``test_reference_specials.py`` checks them
against hand-computed cases from the page (and ``test_reference_cases_engine.py`` plays
those cases through the engine).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from wizard_tui.game.actions import (
    AdjustBid,
    Bid,
    ChooseTrump,
    Declare,
    NameTrump,
    PassCard,
    Play,
    SwapCard,
)
from wizard_tui.game.cards import Suit
from wizard_tui.game.specials import FORM_DECLARATIONS, SUIT_DECLARATIONS, Declaration, Special

WIZARDS = frozenset(range(52, 56))
JESTERS = frozenset(range(56, 60))
A_JESTER = 56  # what a Vampire with nothing to copy plays as

# What a card is in its trick ("Who takes a trick": each card is read as what it is).
SUIT, WIZARD, JESTER, DRAGON, FAIRY, BOMB, WITCH = (
    "suit",
    "wizard",
    "jester",
    "dragon",
    "fairy",
    "bomb",
    "witch",
)


@dataclass(frozen=True)
class Reading:
    """A played card as it counts in its trick."""

    kind: str
    suit: int | None = None  # for kind SUIT
    rank: float = 0.0  # for kind SUIT: 1..13, 7.5 for a Juggler, 9.75 for a Cloud
    effect: Special | None = None  # the after-trick effect it brings: Cloud, Juggler or Witch


# ------------------------------------------------------------------- the cards


def vampire_copy(turned: int) -> int:
    """The card a Vampire plays as: the card turned up at the deal, or a Jester when that
    card is a Werewolf or the Vampire itself ("The Vampire")."""
    if turned in (Special.WEREWOLF, Special.VAMPIRE):
        return A_JESTER
    return turned


def declarations_for(card: int, turned: int) -> tuple[int, ...]:
    """What its player must declare when it plays ``card`` (nothing for most cards)."""
    if card in (Special.JUGGLER, Special.CLOUD):
        return tuple(int(d) for d in SUIT_DECLARATIONS)
    if card == Special.SHAPESHIFTER:
        return tuple(int(d) for d in FORM_DECLARATIONS)
    if card == Special.VAMPIRE:
        return declarations_for(vampire_copy(turned), turned)
    return ()


def read(card: int, choice: int | None, turned: int) -> Reading:
    """What ``card`` is in its trick, ``choice`` being its player's declaration."""
    if card < 52:
        return Reading(SUIT, card // 13, card % 13 + 1)
    if card in WIZARDS:
        return Reading(WIZARD)
    if card in JESTERS:
        return Reading(JESTER)
    if card == Special.DRAGON:
        return Reading(DRAGON)
    if card == Special.FAIRY:
        return Reading(FAIRY)
    if card == Special.BOMB:
        return Reading(BOMB)
    if card == Special.JUGGLER:
        assert choice in SUIT_DECLARATIONS
        return Reading(SUIT, choice, 7.5, Special.JUGGLER)
    if card == Special.CLOUD:
        assert choice in SUIT_DECLARATIONS
        return Reading(SUIT, choice, 9.75, Special.CLOUD)
    if card == Special.SHAPESHIFTER:
        assert choice in FORM_DECLARATIONS
        return Reading(WIZARD if choice == Declaration.WIZARD else JESTER)
    if card == Special.WITCH:
        return Reading(WITCH, effect=Special.WITCH)
    if card == Special.VAMPIRE:
        # "with its rank and its effect": the copy brings the copied card's effect along
        return read(vampire_copy(turned), choice, turned)
    raise ValueError(f"{card} is never played")  # the Werewolf


# ------------------------------------------------------------------- the trick


def led_suit(readings: Sequence[Reading]) -> int | None:
    """The first suit card's suit, unless a Wizard or a Dragon comes before any suit card."""
    for reading in readings:
        if reading.kind == SUIT:
            return reading.suit
        if reading.kind in (WIZARD, DRAGON):
            return None
    return None


def legal_cards(hand: Sequence[int], readings: Sequence[Reading]) -> set[int]:
    """Follow the led suit if you can; Wizards, Jesters and special cards always go (in hand
    a special card belongs to no suit)."""
    led = led_suit(readings)
    follow = {card for card in hand if card < 52 and card // 13 == led}
    if not follow:
        return set(hand)
    return follow | {card for card in hand if card >= 52}


def take(readings: Sequence[Reading], trump: int | None) -> tuple[int, bool]:
    """The index (in play order) of the card that takes the trick, or with a Bomb in it the
    card whose player leads next; and whether the trick is bombed."""
    bombed = any(r.kind == BOMB for r in readings)
    counted = [i for i, r in enumerate(readings) if r.kind != BOMB]

    def first(kind: str) -> int | None:
        return next((i for i in counted if readings[i].kind == kind), None)

    dragon, fairy, wizard = first(DRAGON), first(FAIRY), first(WIZARD)
    if dragon is not None:
        return (fairy if fairy is not None else dragon), bombed
    if wizard is not None:
        return wizard, bombed
    suited = [i for i in counted if readings[i].kind == SUIT]
    if suited:
        trumps = [i for i in suited if readings[i].suit == trump]
        led = led_suit(readings)
        pool = trumps or [i for i in suited if readings[i].suit == led]
        best = max(readings[i].rank for i in pool)
        return next(i for i in pool if readings[i].rank == best), bombed  # equal: first
    for kind in (JESTER, FAIRY, WITCH):
        found = first(kind)
        if found is not None:
            return found, bombed
    raise AssertionError("a trick of nothing but Bombs")  # at most two, and 3+ players


# ------------------------------------------------------------------- trump


CHOOSE = "choose"  # the dealer names a suit


def trump_of(turned: int) -> int | str | None:
    """The trump a turned card makes: a suit, None for no trump, or CHOOSE."""
    if turned < 52:
        return turned // 13
    if turned in JESTERS or turned in (Special.FAIRY, Special.BOMB, Special.WITCH):
        return None
    return CHOOSE  # a Wizard, and the specials that rank or name a suit


def score(bid: int, won: int) -> int:
    return 20 + 10 * won if bid == won else -10 * abs(bid - won)


# ------------------------------------------------------------------- a game


@dataclass
class Played:
    seat: int
    card: int
    choice: int | None = None  # its declaration, once made
    reading: Reading | None = None  # what it is, once declared


@dataclass(frozen=True)
class TrickDone:
    leader: int
    plays: tuple[tuple[int, int], ...]  # (seat, card) in play order, as played
    next_leader: int  # the taker, or for a bombed trick the seat that leads next
    bombed: bool


@dataclass(frozen=True)
class RoundDone:
    bids: tuple[int, ...]  # as scored, after any Cloud change
    tricks_won: tuple[int, ...]
    points: tuple[int, ...]
    totals: tuple[int, ...]


class RefGame:
    """A game with special cards, from docs/rules.md. ``deal`` starts each round; ``apply``
    takes the seats' actions; ``legal_actions`` lists what the seat on ``turn`` may do."""

    def __init__(
        self,
        players: int,
        first_dealer: int,
        sizes: Sequence[int],
        restricted: str = "never",  # the restricted last bid as played ("never" if hidden)
    ) -> None:
        self.n = players
        self.first_dealer = first_dealer
        self.sizes = tuple(sizes)
        self.restricted = restricted
        self.round = 0
        self.totals = [0] * players
        self.phase = "deal"
        self.turn = -1
        self.rounds: list[RoundDone] = []

    # -- the round's start

    def deal(self, deck: Sequence[int]) -> None:
        assert self.phase == "deal"
        n = self.n
        self.round += 1
        self.h = h = self.sizes[self.round - 1]
        self.dealer = (self.first_dealer + self.round - 1) % n
        self.hands: list[list[int]] = [[] for _ in range(n)]
        for j in range(n * h):
            self.hands[(self.dealer + 1 + j) % n].append(deck[j])
        self.turned = deck[n * h]  # a special card's deck always has cards left over
        self.trump_card = self.turned
        self.trump: int | None = None
        self.bids: list[int | None] = [None] * n
        self.won = [0] * n
        self.leader = (self.dealer + 1) % n
        self.trick: list[Played] = []
        self.done: list[TrickDone] = []
        self.declared: list[tuple[int, int, int]] = []
        self.effects: list[tuple[Special, int]] = []  # still to come: (effect, seat)
        self.passing: dict[int, int] = {}
        self.pass_order: list[int] = []
        self.last_pass: dict[int, tuple[int, int]] = {}
        self.swap_trick: list[int] = []  # the cards of the trick a Witch swaps with
        self.swap_keep: int = -1  # the card causing the swap, which cannot be taken
        self.witch_cards: list[int] = []  # the cards of the swaps still to come, in order
        holder = next((s for s in range(n) if Special.WEREWOLF in self.hands[s]), None)
        if holder is not None:
            # Its holder lays it in the trump card's place, takes the turned card into hand
            # (everyone sees it), then names trump, replacing any dealer's choice.
            hand = self.hands[holder]  # the hand keeps its order: the card takes its place
            hand[hand.index(Special.WEREWOLF)] = self.turned
            self.trump_card = int(Special.WEREWOLF)
            self.phase, self.turn = "name_trump", holder
            return
        trump = trump_of(self.turned)
        if trump == CHOOSE:
            self.phase, self.turn = "choose_trump", self.dealer
            return
        assert not isinstance(trump, str)
        self.trump = trump
        self._start_bids()

    def _start_bids(self) -> None:
        self.phase, self.turn = "bid", (self.dealer + 1) % self.n

    # -- what is legal

    def legal_bids(self) -> set[int]:
        legal = set(range(self.h + 1))
        last = sum(b is None for b in self.bids) == 1
        applies = self.restricted == "always" or (
            self.restricted == "after-round-1" and self.round > 1
        )
        if last and applies:
            legal.discard(self.h - sum(b for b in self.bids if b is not None))
        return legal

    def readings(self) -> list[Reading]:
        return [p.reading for p in self.trick if p.reading is not None]

    def legal_actions(self) -> set[object]:
        seat, phase = self.turn, self.phase
        if phase == "choose_trump":
            return {ChooseTrump(seat, Suit(s)) for s in range(4)}
        if phase == "name_trump":
            return {NameTrump(seat, Suit(s)) for s in range(4)} | {NameTrump(seat, None)}
        if phase == "bid":
            return {Bid(seat, b) for b in self.legal_bids()}
        if phase == "play":
            return {Play(seat, c) for c in legal_cards(self.hands[seat], self.readings())}
        if phase == "declare":
            card = self.trick[-1].card
            return {Declare(seat, d) for d in declarations_for(card, self.turned)}
        if phase == "adjust_bid":
            bid = self.bids[seat]
            assert bid is not None
            return {AdjustBid(seat, b) for b in (bid - 1, bid + 1)}  # both in range here
        if phase == "pass":
            return {PassCard(seat, c) for c in self.hands[seat]}
        if phase == "swap":
            return {
                SwapCard(seat, give, take)
                for give in self.hands[seat]
                for take in self.swap_takes()
            } | {SwapCard(seat, None, None)}
        return set()

    def swap_takes(self) -> set[int]:
        """The trick's cards a Witch's player may take: any but the card causing the swap."""
        return {card for card in self.swap_trick if card != self.swap_keep}

    # -- taking an action

    def apply(self, action: object) -> None:
        assert action in self.legal_actions(), (action, self.phase, self.turn)
        if isinstance(action, ChooseTrump):
            self.trump = int(action.suit)
            self._start_bids()
        elif isinstance(action, NameTrump):
            self.trump = None if action.suit is None else int(action.suit)
            self._start_bids()
        elif isinstance(action, Bid):
            self.bids[action.seat] = action.bid
            if None in self.bids:
                self.turn = (self.turn + 1) % self.n
            else:
                self.phase, self.turn = "play", self.leader
        elif isinstance(action, Play):
            self.hands[action.seat].remove(action.card)
            self.trick.append(Played(action.seat, action.card))
            if declarations_for(action.card, self.turned):
                self.phase = "declare"  # the same seat declares
            else:
                self.trick[-1].reading = read(action.card, None, self.turned)
                self._next_card()
        elif isinstance(action, Declare):
            played = self.trick[-1]
            played.choice = action.choice
            played.reading = read(played.card, action.choice, self.turned)
            self.declared.append((len(self.done), action.seat, action.choice))
            self._next_card()
        elif isinstance(action, AdjustBid):
            self.bids[action.seat] = action.bid
            self._next_effect()
        elif isinstance(action, PassCard):
            self.passing[action.seat] = action.card
            if len(self.passing) < self.n:
                self.turn = self.pass_order[len(self.passing)]
                return
            for seat, card in self.passing.items():  # every card moves at once
                self.hands[seat].remove(card)
            for seat, card in self.passing.items():
                left = (seat + 1) % self.n
                self.hands[left].append(card)  # a passed card comes last
                self.last_pass[left] = (self.passing[left], card)
            self._next_effect()
        elif isinstance(action, SwapCard):
            if action.give is not None and action.take is not None:
                hand = self.hands[action.seat]
                hand[hand.index(action.give)] = action.take
                self.swap_trick[self.swap_trick.index(action.take)] = action.give
            self._next_effect()
        else:
            raise AssertionError(f"not a seat's action: {action!r}")

    def _next_card(self) -> None:
        if len(self.trick) < self.n:
            self.phase, self.turn = "play", (self.trick[-1].seat + 1) % self.n
            return
        readings = self.readings()
        index, bombed = take(readings, self.trump)
        taker = self.trick[index].seat
        if not bombed:
            self.won[taker] += 1
        plays = tuple((p.seat, p.card) for p in self.trick)
        self.done.append(TrickDone(self.leader, plays, taker, bombed))
        self.swap_trick = [p.card for p in self.trick]
        causes = [(p.seat, p.card, r.effect) for p, r in zip(self.trick, readings, strict=True)]
        # After a trick: every Cloud, then every Juggler, then every Witch ("After a trick").
        self.effects = [] if bombed else [(e, taker) for _, _, e in causes if e is Special.CLOUD]
        if any(self.hands):  # after the last trick nobody holds a card: only the Cloud
            for effect in (Special.JUGGLER, Special.WITCH):
                self.effects += [(e, seat) for seat, _, e in causes if e is effect]
        self.witch_cards = [card for _, card, e in causes if e is Special.WITCH]
        self.leader = taker
        self.trick = []
        self._next_effect()

    def _next_effect(self) -> None:
        while self.effects:
            effect, seat = self.effects.pop(0)
            if effect is Special.CLOUD:
                bid = self.bids[seat]
                assert bid is not None
                ways = [b for b in (bid - 1, bid + 1) if 0 <= b <= self.h]
                if len(ways) == 1:  # a bid of 0 or of every card: made for it
                    self.bids[seat] = ways[0]
                    continue
                self.phase, self.turn = "adjust_bid", seat
                return
            if effect is Special.JUGGLER:
                self.passing = {}
                self.pass_order = [(self.leader + i) % self.n for i in range(self.n)]
                self.phase, self.turn = "pass", self.pass_order[0]
                return
            # the Witch (or a Vampire copying it): this card stays in the trick
            self.swap_keep = self.witch_cards.pop(0)
            self.phase, self.turn = "swap", seat
            return
        if len(self.done) < self.h:
            self.phase, self.turn = "play", self.leader
            return
        self._score()

    def _score(self) -> None:
        bids = tuple(b for b in self.bids if b is not None)
        points = tuple(score(b, w) for b, w in zip(bids, self.won, strict=True))
        self.totals = [t + p for t, p in zip(self.totals, points, strict=True)]
        self.rounds.append(RoundDone(bids, tuple(self.won), points, tuple(self.totals)))
        self.phase = "game_over" if self.round == len(self.sizes) else "deal"
        self.turn = -1
