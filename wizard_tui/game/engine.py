"""The rules of Wizard as a state machine: actions in, events out, no I/O.

``Game`` is the one authority on whose turn it is, what is legal and what happens.
The host, the bots, the verifier and the UI all ask it. Every action is checked in
full before anything changes, so a refused action leaves the game exactly as it was.

Hands and legal plays are bitmasks over card ids (bit ``c`` set = card ``c``): the
strong bot simulates thousands of tricks per decision through this class, so the
hot paths (``play``, ``legal_play_mask``) avoid allocation.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import NamedTuple

from .actions import (
    Action,
    Bid,
    BidMade,
    CardPlayed,
    ChooseTrump,
    Deal,
    Event,
    GameOver,
    Play,
    RoundDealt,
    RoundScored,
    TrickWon,
    TrumpChosen,
)
from .cards import DECK_SIZE, FIRST_JESTER, FIRST_WIZARD, RANKS_PER_SUIT, Suit, card_name, is_wizard
from .errors import IllegalAction, Reason
from .rules import RestrictLastBid, check_players, rounds_for, score, winners


class Phase(StrEnum):
    DEAL = "deal"  # waiting for the next round's deck
    CHOOSE_TRUMP = "choose_trump"  # a Wizard was turned up: the dealer names trump
    BID = "bid"
    PLAY = "play"
    GAME_OVER = "game_over"


_DEAL_PHASE = Phase.DEAL
_PLAY_PHASE = Phase.PLAY
_OVER_PHASE = Phase.GAME_OVER

# Led-suit markers besides a suit 0..3.
LED_OPEN = -1  # nothing but Jesters so far: the next card sets the led suit
LED_WIZARD = -2  # a Wizard was led: everyone plays freely

NO_TRUMP = -1

SUIT_MASKS = tuple(((1 << RANKS_PER_SUIT) - 1) << (s * RANKS_PER_SUIT) for s in range(4))
WIZARD_MASK = 0b1111 << FIRST_WIZARD
JESTER_MASK = 0b1111 << FIRST_JESTER
SPECIAL_MASK = WIZARD_MASK | JESTER_MASK
FULL_DECK = frozenset(range(DECK_SIZE))
_BIT = tuple(1 << c for c in range(DECK_SIZE))


def _beats(winning: int, card: int, trump: int) -> bool:
    """Does ``card``, played later, take the trick from the card now ``winning``?

    The card now winning is always the first Wizard, or a card of the led suit or
    trump, or (only Jesters so far) the first Jester; that is what makes this
    pairwise test enough.
    """
    if winning >= FIRST_JESTER:
        return card < FIRST_JESTER  # anything but another Jester beats a lone Jester
    if winning >= FIRST_WIZARD:
        return False  # the first Wizard wins
    if card >= FIRST_JESTER:
        return False
    if card >= FIRST_WIZARD:
        return True
    w_suit, c_suit = winning // RANKS_PER_SUIT, card // RANKS_PER_SUIT
    if c_suit == w_suit:
        return card > winning
    return c_suit == trump


# BEATS[trump + 1][winning * 60 + card]: a flat table keeps the per-card test to one lookup.
BEATS: tuple[bytes, ...] = tuple(
    bytes(_beats(w, c, trump) for w in range(DECK_SIZE) for c in range(DECK_SIZE))
    for trump in range(-1, 4)
)


def mask_of(cards: Iterable[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


# The card ids in each 12-bit slice of a mask: five lookups replace a loop over bits.
_CHUNK_BITS = 12
_CHUNK_MASK = (1 << _CHUNK_BITS) - 1


def _chunk_table(offset: int) -> tuple[tuple[int, ...], ...]:
    """For every 12-bit value m, the positions of its set bits plus ``offset``, ascending.

    Built by recurrence (m's lowest bit, then the table entry without it), which keeps
    start-up cheap: every program that imports the engine pays for these tables.
    """
    table: list[tuple[int, ...]] = [()]
    for m in range(1, 1 << _CHUNK_BITS):
        low = m & -m
        table.append((low.bit_length() - 1 + offset, *table[m ^ low]))
    return tuple(table)


_C0, _C1, _C2, _C3, _C4 = (_chunk_table(k * _CHUNK_BITS) for k in range(DECK_SIZE // _CHUNK_BITS))


def cards_of(mask: int) -> tuple[int, ...]:
    """The card ids of a mask, lowest first."""
    return (
        _C0[mask & _CHUNK_MASK]
        + _C1[mask >> 12 & _CHUNK_MASK]
        + _C2[mask >> 24 & _CHUNK_MASK]
        + _C3[mask >> 36 & _CHUNK_MASK]
        + _C4[mask >> 48]
    )


def legal_play_mask(hand: int, led: int) -> int:
    """Which cards of ``hand`` may be played when the led suit is ``led``."""
    if led >= 0:
        follow = hand & SUIT_MASKS[led]
        if follow:
            return follow | (hand & SPECIAL_MASK)
    return hand


class Trick(NamedTuple):
    """A completed trick. A NamedTuple: the engine builds one per trick, so it must be cheap."""

    leader: int
    cards: tuple[int, ...]  # in play order, the first led by ``leader``
    winner: int

    @property
    def plays(self) -> tuple[tuple[int, int], ...]:
        """(seat, card) in play order."""
        n = len(self.cards)
        return tuple(((self.leader + i) % n, c) for i, c in enumerate(self.cards))


@dataclass(frozen=True, slots=True)
class RoundResult:
    """Everything public about a finished round, plus the dealt hands (public once scored)."""

    round: int
    dealer: int
    hands: tuple[tuple[int, ...], ...]  # index = seat, in deal order
    trump_card: int | None
    trump_suit: Suit | None
    bids: tuple[int, ...]
    tricks: tuple[Trick, ...]
    tricks_won: tuple[int, ...]
    points: tuple[int, ...]
    totals: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class GameConfig:
    players: int
    first_dealer: int
    restrict_last_bid: RestrictLastBid = RestrictLastBid.NEVER

    def __post_init__(self) -> None:
        check_players(self.players)
        if type(self.first_dealer) is not int or not 0 <= self.first_dealer < self.players:
            raise ValueError(f"first dealer must be a seat 0..{self.players - 1}")
        object.__setattr__(self, "restrict_last_bid", RestrictLastBid(self.restrict_last_bid))


class Game:
    """One game of Wizard. Create it, then feed it ``Deal``, ``ChooseTrump``, ``Bid`` and
    ``Play`` actions through ``apply`` (or the equivalent methods)."""

    __slots__ = (
        "_beats",
        "_bids",
        "_dealt",
        "_decks",
        "_hands",
        "_led",
        "_results",
        "_trick_cards",
        "_trick_leader",
        "_tricks",
        "_win_card",
        "_win_seat",
        "config",
        "dealer",
        "num_rounds",
        "phase",
        "players",
        "round",
        "totals",
        "tricks_won",
        "trump",
        "trump_card",
        "turn",
    )

    def __init__(self, config: GameConfig) -> None:
        self.config = config
        self.players = config.players
        self.num_rounds = rounds_for(config.players)
        self.phase = Phase.DEAL
        self.round = 0
        self.dealer = (config.first_dealer - 1) % config.players  # advanced by each deal
        self.turn = -1
        self.totals = [0] * self.players
        self._results: list[RoundResult] = []
        self._decks: list[tuple[int, ...]] = []  # every round's deck, for ``actions``
        self._reset_round_state()

    def _reset_round_state(self) -> None:
        n = self.players
        self._hands = [0] * n
        self._dealt: list[Sequence[int]] = [()] * n
        self.trump_card: int | None = None
        self.trump = NO_TRUMP
        self._beats = BEATS[0]
        self._bids: list[int | None] = [None] * n
        self.tricks_won = [0] * n
        self._tricks: list[Trick] = []
        self._trick_cards: list[int] = []
        self._trick_leader = -1
        self._led = LED_OPEN
        self._win_seat = -1
        self._win_card = -1

    # ----------------------------------------------------------------- queries

    @property
    def trump_suit(self) -> Suit | None:
        return None if self.trump == NO_TRUMP else Suit(self.trump)

    @property
    def bids(self) -> tuple[int | None, ...]:
        return tuple(self._bids)

    @property
    def results(self) -> tuple[RoundResult, ...]:
        return tuple(self._results)

    @property
    def is_over(self) -> bool:
        return self.phase is _OVER_PHASE

    @property
    def winners(self) -> list[int]:
        """Seats with the highest total; meaningful once the game is over."""
        return winners(self.totals)

    def hand(self, seat: int) -> tuple[int, ...]:
        """The cards ``seat`` holds now, lowest id first."""
        return cards_of(self._hands[seat])

    def hand_mask(self, seat: int) -> int:
        return self._hands[seat]

    def dealt_hand(self, seat: int) -> tuple[int, ...]:
        """The cards ``seat`` was dealt this round, in deal order."""
        return self._dealt[seat]

    @property
    def trick(self) -> tuple[tuple[int, int], ...]:
        """The trick in progress: (seat, card) in play order."""
        n = self.players
        return tuple(((self._trick_leader + i) % n, c) for i, c in enumerate(self._trick_cards))

    @property
    def trick_leader(self) -> int:
        return self._trick_leader

    @property
    def led_suit(self) -> Suit | None:
        return Suit(self._led) if self._led >= 0 else None

    @property
    def led(self) -> int:
        """The led-suit marker: a suit 0..3, ``LED_OPEN`` or ``LED_WIZARD``."""
        return self._led

    @property
    def trick_winner(self) -> int | None:
        """The seat whose card currently wins the trick in progress."""
        return self._win_seat if self._trick_cards else None

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The tricks completed in this round."""
        return tuple(self._tricks)

    def legal_play_mask(self) -> int:
        """Cards the player on turn may play, as a mask (0 outside the play phase)."""
        if self.phase is not _PLAY_PHASE:
            return 0
        return legal_play_mask(self._hands[self.turn], self._led)

    def legal_plays(self) -> tuple[int, ...]:
        """Cards the player on turn may play, lowest id first (empty outside the play phase)."""
        if self.phase is not _PLAY_PHASE:
            return ()
        # legal_play_mask and cards_of, inlined: bots and benchmarks call this per decision.
        hand = self._hands[self.turn]
        led = self._led
        if led >= 0 and hand & SUIT_MASKS[led]:
            hand &= SUIT_MASKS[led] | SPECIAL_MASK
        return (
            _C0[hand & _CHUNK_MASK]
            + _C1[hand >> 12 & _CHUNK_MASK]
            + _C2[hand >> 24 & _CHUNK_MASK]
            + _C3[hand >> 36 & _CHUNK_MASK]
            + _C4[hand >> 48]
        )

    def forbidden_bid(self) -> int | None:
        """The one bid the player on turn may not make, under the restricted last bid."""
        if self.phase is not Phase.BID or not self._is_restricted_last_bid():
            return None
        forbidden = self.round - sum(b for b in self._bids if b is not None)
        return forbidden if 0 <= forbidden <= self.round else None

    def legal_bids(self) -> list[int]:
        if self.phase is not Phase.BID:
            return []
        forbidden = self.forbidden_bid()
        return [b for b in range(self.round + 1) if b != forbidden]

    def legal_actions(self) -> list[Action]:
        """Every action the engine would accept now (the deal is not a seat's action)."""
        if self.phase is Phase.PLAY:
            return [Play(self.turn, c) for c in self.legal_plays()]
        if self.phase is Phase.BID:
            return [Bid(self.turn, b) for b in self.legal_bids()]
        if self.phase is Phase.CHOOSE_TRUMP:
            return [ChooseTrump(self.turn, s) for s in Suit]
        return []

    def _is_restricted_last_bid(self) -> bool:
        return (
            self.config.restrict_last_bid.applies(self.round)
            and sum(b is None for b in self._bids) == 1
        )

    @property
    def actions(self) -> list[Action]:
        """The game so far as a list of actions; ``Game.replay`` rebuilds it.

        Derived from the decks and the rounds' public record rather than logged per
        action, which keeps ``play`` cheap.
        """
        Plays = Sequence[tuple[int, int]]
        rounds: list[tuple[int, int | None, Suit | None, Sequence[int | None], list[Plays]]]
        rounds = [
            (r.dealer, r.trump_card, r.trump_suit, r.bids, [t.plays for t in r.tricks])
            for r in self._results
        ]
        if len(self._decks) > len(self._results):  # a round in progress
            plays = [t.plays for t in self._tricks] + [self.trick]
            rounds.append((self.dealer, self.trump_card, self.trump_suit, self._bids, plays))
        n = self.players
        out: list[Action] = []
        for deck, (dealer, trump_card, trump_suit, bids, tricks) in zip(
            self._decks, rounds, strict=True
        ):
            out.append(Deal(deck))
            if trump_card is not None and is_wizard(trump_card) and trump_suit is not None:
                out.append(ChooseTrump(dealer, trump_suit))
            for i in range(n):
                seat = (dealer + 1 + i) % n
                if bids[seat] is None:
                    break
                out.append(Bid(seat, bids[seat]))  # type: ignore[arg-type]
            out.extend(Play(seat, card) for trick in tricks for seat, card in trick)
        return out

    @classmethod
    def replay(cls, config: GameConfig, actions: Iterable[Action]) -> Game:
        game = cls(config)
        for action in actions:
            game.apply(action)
        return game

    def copy(self) -> Game:
        """An independent copy, for search. The action log is shared-nothing too."""
        other = Game.__new__(Game)
        for name in Game.__slots__:
            value = getattr(self, name)
            if type(value) is list:
                value = value.copy()
            setattr(other, name, value)
        return other

    # ----------------------------------------------------------------- actions

    def apply(self, action: Action) -> list[Event]:
        """Carry out one action and return what happened, or raise ``IllegalAction``."""
        events: list[Event] = []
        if type(action) is Play:
            self._play(action.seat, action.card, events)
        elif type(action) is Bid:
            self._bid(action.seat, action.bid, events)
        elif type(action) is ChooseTrump:
            self._choose_trump(action.seat, action.suit, events)
        elif type(action) is Deal:
            self._deal(action.deck, events)
        else:
            raise IllegalAction(Reason.UNKNOWN_ACTION, f"not an action: {action!r}")
        return events

    def deal(self, deck: Sequence[int]) -> None:
        self._deal(deck, None)

    def choose_trump(self, seat: int, suit: Suit | int) -> None:
        self._choose_trump(seat, suit, None)

    def bid(self, seat: int, bid: int) -> None:
        self._bid(seat, bid, None)

    # The checks come first in every method below; nothing is written until they pass.

    def _check_turn(self, phase: Phase, seat: int) -> None:
        if self.phase is not phase:
            if self.phase is Phase.GAME_OVER:
                raise IllegalAction(Reason.GAME_OVER, "the game is over")
            raise IllegalAction(
                Reason.WRONG_PHASE,
                f"cannot {_PHASE_VERB[phase]} now: {_PHASE_WAITING[self.phase]}",
            )
        if type(seat) is not int or not 0 <= seat < self.players:
            raise IllegalAction(Reason.NOT_A_SEAT, f"there is no seat {seat!r}")
        if seat != self.turn:
            raise IllegalAction(
                Reason.NOT_YOUR_TURN, f"it is seat {self.turn}'s turn, not seat {seat}'s"
            )

    def _deal(self, deck: Sequence[int], events: list[Event] | None) -> None:
        if self.phase is not Phase.DEAL:
            self._check_turn(Phase.DEAL, -1)
        try:
            deck = tuple(deck)
        except TypeError:
            deck = ()  # not even a sequence: refused below like any other bad deck
        # Types before the set: an unhashable entry would make set() raise TypeError.
        if len(deck) != DECK_SIZE or set(map(type, deck)) != {int} or set(deck) != FULL_DECK:
            raise IllegalAction(Reason.BAD_DECK, "a deck must be a permutation of the 60 card ids")
        self._reset_round_state()
        n = self.players
        self.round += 1
        self.dealer = (self.dealer + 1) % n
        r = self.round
        dealt_count = n * r
        # Card j goes to seat (dealer + 1 + j) mod n: seat s gets every n-th card from offset i.
        for i in range(n):
            seat = (self.dealer + 1 + i) % n
            cards = deck[i:dealt_count:n]
            self._dealt[seat] = cards
            self._hands[seat] = sum(map(_BIT.__getitem__, cards))
        self.trump_card = tc = deck[dealt_count] if dealt_count < DECK_SIZE else None
        chooses = tc is not None and FIRST_WIZARD <= tc < FIRST_JESTER
        if tc is not None and tc < FIRST_WIZARD:
            self.trump = tc // RANKS_PER_SUIT
        self._beats = BEATS[self.trump + 1]
        if chooses:
            self.phase = Phase.CHOOSE_TRUMP
            self.turn = self.dealer
        else:
            self.phase = Phase.BID
            self.turn = (self.dealer + 1) % n
        self._decks.append(deck)
        if events is not None:
            events.append(RoundDealt(r, self.dealer, tc, self.trump_suit, chooses))

    def _choose_trump(self, seat: int, suit: Suit | int, events: list[Event] | None) -> None:
        self._check_turn(Phase.CHOOSE_TRUMP, seat)
        if type(suit) is not Suit and (type(suit) is not int or not 0 <= suit < 4):
            raise IllegalAction(Reason.NOT_A_SUIT, f"trump must be one of the four suits: {suit!r}")
        self.trump = int(suit)
        self._beats = BEATS[self.trump + 1]
        self.phase = Phase.BID
        self.turn = (self.dealer + 1) % self.players
        if events is not None:
            events.append(TrumpChosen(seat, Suit(self.trump)))

    def _bid(self, seat: int, bid: int, events: list[Event] | None) -> None:
        self._check_turn(Phase.BID, seat)
        if type(bid) is not int:
            raise IllegalAction(Reason.NOT_A_BID, f"a bid is a whole number: {bid!r}")
        if not 0 <= bid <= self.round:
            raise IllegalAction(
                Reason.BID_OUT_OF_RANGE, f"bid {bid} is not between 0 and {self.round}"
            )
        if bid == self.forbidden_bid():
            raise IllegalAction(
                Reason.BID_FORBIDDEN,
                f"the last bid may not make the total equal {self.round} tricks",
            )
        self._bids[seat] = bid
        if events is not None:
            events.append(BidMade(seat, bid))
        if seat == self.dealer:  # the dealer bids last
            self.phase = Phase.PLAY
            self.turn = self._trick_leader = (self.dealer + 1) % self.players
        else:
            self.turn = (seat + 1) % self.players

    def _play(self, seat: int, card: int, events: list[Event] | None = None) -> None:
        # The hot path of every simulation: one combined test, then the reasons only on refusal.
        if (
            self.phase is not _PLAY_PHASE
            or seat != self.turn
            or type(seat) is not int  # True == 1 and 1.0 == 1: equality alone lets them through
            or type(card) is not int
            or not 0 <= card < DECK_SIZE
        ):
            self._check_turn(Phase.PLAY, seat)
            raise IllegalAction(Reason.NOT_A_CARD, f"not a card: {card!r}")
        hand = self._hands[seat]
        bit = _BIT[card]
        led = self._led
        if led >= 0 and hand & SUIT_MASKS[led]:
            legal = hand & (SUIT_MASKS[led] | SPECIAL_MASK)
        else:
            legal = hand
        if not legal & bit:
            if not hand & bit:
                raise IllegalAction(
                    Reason.CARD_NOT_IN_HAND, f"{card_name(card)} is not in your hand"
                )
            raise IllegalAction(
                Reason.MUST_FOLLOW_SUIT,
                f"you must follow {Suit(led).label} (or play a Wizard or Jester)",
            )
        self._hands[seat] = hand ^ bit
        cards = self._trick_cards
        if not cards or self._beats[self._win_card * DECK_SIZE + card]:
            self._win_seat = seat
            self._win_card = card
        cards.append(card)
        if led == LED_OPEN and card < FIRST_JESTER:
            self._led = card // RANKS_PER_SUIT if card < FIRST_WIZARD else LED_WIZARD
        if events is not None:
            events.append(CardPlayed(seat, card))
        if len(cards) < self.players:
            self.turn = (seat + 1) % self.players
        else:
            self._finish_trick(events)

    # ``play(seat, card)``: the same function with no event list, so the hot path of every
    # simulation pays for no wrapper call.
    play = _play

    def _finish_trick(self, events: list[Event] | None) -> None:
        winner = self._win_seat
        trick = Trick(self._trick_leader, tuple(self._trick_cards), winner)
        self._tricks.append(trick)
        self.tricks_won[winner] += 1
        if events is not None:
            events.append(TrickWon(len(self._tricks) - 1, winner, trick.plays))
        self._trick_cards = []
        self._led = LED_OPEN
        self._trick_leader = self.turn = winner
        if len(self._tricks) == self.round:
            self._finish_round(events)

    def _finish_round(self, events: list[Event] | None) -> None:
        bids = tuple(b for b in self._bids if b is not None)
        won = tuple(self.tricks_won)
        points = tuple(score(b, t) for b, t in zip(bids, won, strict=True))
        self.totals = [t + p for t, p in zip(self.totals, points, strict=True)]
        result = RoundResult(
            round=self.round,
            dealer=self.dealer,
            hands=tuple(self._dealt),
            trump_card=self.trump_card,
            trump_suit=self.trump_suit,
            bids=bids,
            tricks=tuple(self._tricks),
            tricks_won=won,
            points=points,
            totals=tuple(self.totals),
        )
        self._results.append(result)
        self.turn = -1
        if events is not None:
            events.append(RoundScored(self.round, bids, won, points, result.totals))
        if self.round == self.num_rounds:
            self.phase = Phase.GAME_OVER
            if events is not None:
                events.append(GameOver(result.totals, tuple(self.winners)))
        else:
            self.phase = Phase.DEAL


_PHASE_VERB = {
    Phase.DEAL: "deal",
    Phase.CHOOSE_TRUMP: "choose trump",
    Phase.BID: "bid",
    Phase.PLAY: "play a card",
    Phase.GAME_OVER: "act",
}
_PHASE_WAITING = {
    Phase.DEAL: "the next round has not been dealt",
    Phase.CHOOSE_TRUMP: "the dealer is choosing trump",
    Phase.BID: "bidding is in progress",
    Phase.PLAY: "the cards are being played",
    Phase.GAME_OVER: "the game is over",
}
