"""The rules of Wizard as a state machine: actions in, events out, no I/O.

``Game`` is the one authority on whose turn it is, what is legal and what happens.
The host, the bots, the verifier and the UI all ask it. Every action is checked in
full before anything changes, so a refused action leaves the game exactly as it was.

Card sets are bitmasks over card ids (bit ``c`` set = card ``c``). Inside ``Game`` a
hand is kept as five small masks, one per suit plus one for the Wizards and Jesters:
every test and update on it is then a one-digit int operation, "has the led suit" is a
single truth test, and the legal cards come from one or two table lookups. Search and
the benchmarks play whole games through ``play``/``legal_plays``, so those two are
written for speed (see the comments there); everything else is written plainly.
"""

from __future__ import annotations

import gc
from collections.abc import Iterable, Sequence
from enum import StrEnum
from operator import add
from typing import ClassVar, NamedTuple, cast

from .actions import (
    Action,
    AdjustBid,
    Bid,
    BidMade,
    CardPlayed,
    ChooseTrump,
    Deal,
    Declare,
    Event,
    GameOver,
    NameTrump,
    PassCard,
    Play,
    RoundDealt,
    RoundScored,
    SwapCard,
    TrickWon,
    TrumpChosen,
)
from .cards import DECK_SIZE, FIRST_JESTER, FIRST_WIZARD, RANKS_PER_SUIT, Suit, card_name, is_wizard
from .codec import PlayerAction
from .errors import IllegalAction, Reason
from .forehead import BLIND_CARD, is_forehead_round
from .rules import (
    MAX_ROUNDS,
    RestrictLastBid,
    check_players,
    score,
    void_charge,
    winners,
)
from .table_rules import TableRules
from .values import Value


class Phase(StrEnum):
    DEAL = "deal"  # waiting for the next round's deck
    CHOOSE_TRUMP = "choose_trump"  # a Wizard was turned up: the dealer names trump
    BID = "bid"
    PLAY = "play"
    GAME_OVER = "game_over"
    # The special cards' steps (docs/rules.md, "Special cards"): never reached without them.
    NAME_TRUMP = "name_trump"  # the Werewolf's holder names trump (a suit or none)
    DECLARE = "declare"  # the card just played asks its player for a suit, or Wizard/Jester
    ADJUST_BID = "adjust_bid"  # the Cloud's taker changes its bid by one
    PASS = "pass"  # the Juggler: each seat in turn chooses the card it passes left
    SWAP = "swap"  # the Witch's player may swap a card of its hand with one of the trick


_DEAL_PHASE = Phase.DEAL
_BID_PHASE = Phase.BID
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


def beats(winning: int, card: int, trump: int | None) -> bool:
    """Does ``card``, played later, take the trick from the card now ``winning``, with
    ``trump`` a suit 0..3 (``NO_TRUMP`` or None: no trump)? The trick rule, written plainly:
    the tables below (``BEATS``, ``BEATS_ROWS``) are built from its structure and checked
    against it cell by cell (``tests/game/test_tables.py``), and everything else uses them.

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


def _beats_rows(trump: int) -> list[bytes]:
    """The rows of ``BEATS[trump + 1]``, one per winning card, built from the structure of
    ``beats`` rather than by calling it for each of the 3,600 cells: every program that
    imports the engine pays for this (``tests/game/test_tables.py`` checks it cell by cell).
    """
    wizards_beat = b"\1" * (FIRST_JESTER - FIRST_WIZARD) + bytes(DECK_SIZE - FIRST_JESTER)
    # A suit card winning: a higher card of its suit, any trump and any Wizard beat it.
    suits = [b"\1" * RANKS_PER_SUIT if s == trump else bytes(RANKS_PER_SUIT) for s in range(4)]
    rows = []
    for suit in range(4):
        before, after = b"".join(suits[:suit]), b"".join(suits[suit + 1 :]) + wizards_beat
        rows += [
            before + bytes(rank + 1) + b"\1" * (RANKS_PER_SUIT - 1 - rank) + after
            for rank in range(RANKS_PER_SUIT)
        ]
    rows += [bytes(DECK_SIZE)] * (FIRST_JESTER - FIRST_WIZARD)  # the first Wizard wins
    # Anything but another Jester beats a lone Jester.
    rows += [b"\1" * FIRST_JESTER + bytes(DECK_SIZE - FIRST_JESTER)] * (DECK_SIZE - FIRST_JESTER)
    return rows


_ROWS_BY_TRUMP = [_beats_rows(trump) for trump in range(-1, 4)]
# BEATS[trump + 1][winning * 60 + card] == beats(winning, card, trump): a flat table keeps
# the per-card test to one lookup.
BEATS: tuple[bytes, ...] = tuple(b"".join(rows) for rows in _ROWS_BY_TRUMP)
# The same, one row per winning card, as tuples (indexing a tuple is a specialised, faster
# instruction than indexing bytes): ``Game`` keeps the current winner's row, so the test
# for each later card is ``row[card]``. ``_FIRST_ROW`` stands for "no card yet": the first
# card of a trick beats it. ``HiddenGame`` finds a trick's winner with these rows too.
BEATS_ROWS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(map(tuple, rows)) for rows in _ROWS_BY_TRUMP
)
del _ROWS_BY_TRUMP
_FIRST_ROW = (1,) * DECK_SIZE


def mask_of(cards: Iterable[int]) -> int:
    mask = 0
    for card in cards:
        mask |= 1 << card
    return mask


# A hand inside ``Game`` is five small masks ("parts"): part 0..3 holds a suit (bit r =
# rank r + 1), part 4 the Wizards and Jesters (bit k = card 52 + k). _WHERE[card] = (part, bit).
SPECIALS = 4
_PART_SHIFT = (0, 13, 26, 39, 52)  # the first card id of each part
_WHERE = tuple(
    (p, 1 << (c - _PART_SHIFT[p]))
    for c in range(DECK_SIZE)
    for p in [min(c // RANKS_PER_SUIT, SPECIALS)]
)
_SUIT_PART = (1 << RANKS_PER_SUIT) - 1
# The led-suit marker after an open trick's card: its suit, Wizard, or still open (Jester).
LED_AFTER = tuple(
    c // RANKS_PER_SUIT if c < FIRST_WIZARD else LED_WIZARD if c < FIRST_JESTER else LED_OPEN
    for c in range(DECK_SIZE)
)
# _PLACE[card] = (part, bit, card, led after it): ``_WHERE``'s entry, the card id itself and
# ``LED_AFTER``'s entry. ``_play`` takes a card's entry and checks it with one lookup: the
# entry's card is the very object ``card`` for the ints 0..59, which CPython keeps one shared
# object each of, and for nothing else (True indexes as 1, -1 from the end, but neither is
# that object).
_PLACE = tuple((part, bit, card, LED_AFTER[card]) for card, (part, bit) in enumerate(_WHERE))


def _part_table(offset: int, width: int) -> tuple[tuple[int, ...], ...]:
    """For every ``width``-bit value m, the positions of its set bits plus ``offset``, ascending.

    Built by doubling: the entries with the top bit set are the ones without it, plus that bit.
    """
    table: list[tuple[int, ...]] = [()]
    for bit in range(width):
        top = (bit + offset,)
        table += [cards + top for cards in table]
    return tuple(table)


# _CARDS[part][m]: the card ids of part ``part`` of a hand, given that part's mask m; _C0.._C4
# are the five tables by name, for the hot paths. Empty until ``_build_card_tables`` fills them.
_CARDS: tuple[tuple[tuple[int, ...], ...], ...] = ()
_C0: tuple[tuple[int, ...], ...] = ()
_C1 = _C2 = _C3 = _C4 = _C0


def _build_card_tables() -> None:
    """Fill ``_CARDS`` and ``_C0``..``_C4``. ``Game()`` and ``cards_of`` call this while
    ``_C4`` is empty; every other user of the tables is a method of a ``Game``.

    The tables are 4 x 8,192 + 256 small tuples (3 MB, about 3 ms to build): built at
    import, they were the largest cost of importing ``wizard_tui.game``, which every
    program pays (the terminal client's start-up included) whether or not it ever holds
    a ``Game``. The cyclic garbage collector is paused meanwhile: left running it wakes
    every 700 new tuples and scans them again, doubling the cost (tuples of ints hold no
    cycles).
    """
    global _CARDS, _C0, _C1, _C2, _C3, _C4
    collecting = gc.isenabled()
    gc.disable()
    try:
        tables = tuple(
            _part_table(_PART_SHIFT[p], RANKS_PER_SUIT if p < SPECIALS else 8) for p in range(5)
        )
    finally:
        if collecting:
            gc.enable()
    _CARDS = tables
    _C0, _C1, _C2, _C3, _C4 = tables  # _C4 is stored last: once it is set, all are


def cards_of(mask: int) -> tuple[int, ...]:
    """The card ids of a mask, lowest first."""
    if not _C4:
        _build_card_tables()
    return (
        _C0[mask & _SUIT_PART]
        + _C1[mask >> 13 & _SUIT_PART]
        + _C2[mask >> 26 & _SUIT_PART]
        + _C3[mask >> 39 & _SUIT_PART]
        + (_C4[mask >> 52] if mask >> 60 == 0 else _C4[mask >> 52 & 255] + _specials_of(mask))
    )


def _specials_of(mask: int) -> tuple[int, ...]:
    """The special cards' ids (60 and up) in a mask, lowest first."""
    return tuple(card for card in range(DECK_SIZE, mask.bit_length()) if mask >> card & 1)


def _join(parts: Sequence[int]) -> int:
    """A card mask from a hand's five part masks."""
    c, d, h, s, x = parts
    return c | d << 13 | h << 26 | s << 39 | x << 52


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
    winner: int  # a bombed trick's: the seat that leads next, which takes nothing
    # A Bomb was in it (docs/rules.md, "Special cards"): nobody takes it, nobody counts it.
    bombed: bool = False

    @property
    def plays(self) -> tuple[tuple[int, int], ...]:
        """(seat, card) in play order."""
        n = len(self.cards)
        return tuple(((self.leader + i) % n, c) for i, c in enumerate(self.cards))


class RoundResult(Value):
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
    # With special cards (docs/rules.md, "Special cards"): the card turned up at the deal
    # (``trump_card`` is the Werewolf if one took it), and every seat action of the round in
    # order, which with the round's deck replays it exactly. None and () in a plain game.
    turned_card: int | None
    actions: tuple[PlayerAction, ...]

    def __init__(
        self,
        round: int,
        dealer: int,
        hands: tuple[tuple[int, ...], ...],
        trump_card: int | None,
        trump_suit: Suit | None,
        bids: tuple[int, ...],
        tricks: tuple[Trick, ...],
        tricks_won: tuple[int, ...],
        points: tuple[int, ...],
        totals: tuple[int, ...],
        turned_card: int | None = None,
        actions: tuple[PlayerAction, ...] = (),
    ) -> None:
        super().__init__(
            round,
            dealer,
            hands,
            trump_card,
            trump_suit,
            bids,
            tricks,
            tricks_won,
            points,
            totals,
            turned_card,
            actions,
        )


# What ``Game._finish_round`` stores for a round, the fields of its ``RoundResult`` but the
# tricks, kept flat as the round's played cards and trick winners (see ``_round_result``).
_RoundFields = tuple[
    int,  # round
    int,  # dealer
    tuple[tuple[int, ...], ...],  # hands
    int | None,  # trump card
    Suit | None,  # trump suit
    tuple[int, ...],  # bids
    list[int],  # played cards
    list[int],  # trick winners
    tuple[int, ...],  # tricks won
    tuple[int, ...],  # points
    tuple[int, ...],  # totals
]


_BARE_RULES = TableRules()


class GameConfig(Value):
    """Who plays, who deals first, and the house rules in force (``TableRules``)."""

    players: int
    first_dealer: int
    rules: TableRules

    def __init__(
        self,
        players: int,
        first_dealer: int,
        rules: TableRules | RestrictLastBid | str = _BARE_RULES,
    ) -> None:
        check_players(players)
        if type(first_dealer) is not int or not 0 <= first_dealer < players:
            raise ValueError(f"first dealer must be a seat 0..{players - 1}")
        if not isinstance(rules, TableRules):  # the restricted last bid alone (or its name)
            rules = TableRules(RestrictLastBid(rules))
        rules.check(players)
        super().__init__(players, first_dealer, rules)

    @property
    def restrict_last_bid(self) -> RestrictLastBid:
        return self.rules.restrict_last_bid

    @property
    def num_rounds(self) -> int:
        """How many rounds the game has (its length, ``TableRules.rounds``)."""
        return len(self.rules.round_sizes(self.players))

    def round_size(self, round_number: int) -> int:
        """Cards dealt to each player in round ``round_number`` (the ordinal, 1 ..
        ``num_rounds``); ``ValueError`` for a round the game does not have."""
        sizes = self.rules.round_sizes(self.players)
        if type(round_number) is not int or not 1 <= round_number <= len(sizes):
            raise ValueError(f"the game has rounds 1..{len(sizes)}, not {round_number!r}")
        return sizes[round_number - 1]


class Game:
    """One game of Wizard. Create it, then feed it ``Deal``, ``ChooseTrump``, ``Bid`` and
    ``Play`` actions through ``apply`` (or the equivalent methods)."""

    __slots__ = (
        "_bids",
        "_built_tricks",
        "_charges",
        "_dealt",
        "_decks",
        "_hands",
        "_led",
        "_next",
        "_played",
        "_restricted",
        "_results",
        "_rows",
        "_sizes",
        "_trick_leader",
        "_win_row",
        "_win_seat",
        "_winners",
        "config",
        "dealer",
        "hand_size",
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

    # The engine of games with special cards, ``special_engine.SpecialGame``: a subclass,
    # which names itself so (``plays_specials=True``) and is imported with the package.
    _special_engine: ClassVar[type[Game] | None] = None

    def __init_subclass__(cls, *, plays_specials: bool = False) -> None:
        super().__init_subclass__()
        if plays_specials:
            Game._special_engine = cls

    def __new__(cls, config: GameConfig | None = None) -> Game:
        """``Game(config)`` with special cards in the rules is a ``SpecialGame``, the engine
        that plays them (``special_engine.py``); without, the plain ``Game`` as ever.
        (``config`` is None when unpickling or copying: the class is then given.)"""
        if cls is Game and config is not None and config.rules.specials:
            if Game._special_engine is None:  # never: the package imports it
                raise RuntimeError("the special cards' engine is not loaded")
            return _new_game(Game._special_engine)
        return _new_game(cls)

    def __init__(self, config: GameConfig) -> None:
        if not _C4:  # the first game: the hand tables are built on first use
            _build_card_tables()
        self.config = config
        self.players = n = config.players
        self._sizes = config.rules.round_sizes(n)  # cards per player, round by round
        self.num_rounds = len(self._sizes)
        self._next = tuple((seat + 1) % n for seat in range(n))  # the seat to each seat's left
        self._restricted = _RESTRICTED_ROUNDS[config.rules.last_bid_rule]
        self.phase = Phase.DEAL
        self.round = 0  # the ordinal of the round: 1 .. num_rounds
        self.hand_size = 0  # cards dealt to each player this round (0 before the first deal)
        self.dealer = (config.first_dealer - 1) % n  # advanced by each deal
        self.turn = -1
        self.totals = [0] * n
        # Finished rounds: a ``RoundResult``, or the tuple of its fields that ``_finish_round``
        # stores (see ``results``).
        self._results: list[RoundResult | _RoundFields] = []
        self._decks: list[tuple[int, ...]] = []  # every round's deck, for ``actions``
        # Charges of the round in progress or the next one (``charge``): per seat, their
        # sum; None when nobody is charged (the common case costs one test per round).
        self._charges: list[int] | None = None
        self._start_round([[0] * 5 for _ in range(n)], [()] * n, None, NO_TRUMP)

    def _start_round(
        self,
        hands: list[list[int]],
        dealt: list[tuple[int, ...]],
        trump_card: int | None,
        trump: int,
    ) -> None:
        """Every per-round slot, for a round about to be bid and played."""
        n = self.players
        self._hands = hands  # per seat, five part masks (see ``_WHERE``)
        self._dealt = dealt
        self.trump_card = trump_card
        self.trump = trump
        self._rows = BEATS_ROWS[trump + 1]
        self._bids: list[int | None] = [None] * n
        self.tricks_won = [0] * n
        # The round's tricks as two flat lists rather than a ``Trick`` per trick (``play`` is
        # the hot path of every simulation): every card played this round, in order, and the
        # winner of each completed trick. Trick k is ``_played[k * n : (k + 1) * n]``.
        self._played: list[int] = []
        self._winners: list[int] = []
        self._built_tricks: list[Trick] = []  # ``tricks``'s cache: the first few, as ``Trick``s
        self._trick_leader = -1
        self._led = LED_OPEN
        self._win_seat = -1
        self._win_row = _FIRST_ROW  # the row of BEATS for the card winning the trick so far

    # ----------------------------------------------------------------- queries

    @property
    def trump_suit(self) -> Suit | None:
        return SUIT_OR_NONE[self.trump + 1]

    @property
    def bids(self) -> tuple[int | None, ...]:
        return tuple(self._bids)

    @property
    def results(self) -> tuple[RoundResult, ...]:
        # ``_finish_round`` stores each round as a tuple of its fields; the ``RoundResult`` is
        # built here, once, on first use (a simulation never asks).
        # The ones not built yet are always the last few (every call builds them all).
        results = self._results
        for i in range(len(results) - 1, -1, -1):
            fields = results[i]
            if isinstance(fields, RoundResult):
                break
            results[i] = _round_result(*fields)
        return cast("tuple[RoundResult, ...]", tuple(results))  # every entry is built now

    @property
    def is_over(self) -> bool:
        return self.phase is _OVER_PHASE

    @property
    def winners(self) -> list[int]:
        """Seats with the highest total; meaningful once the game is over."""
        return winners(self.totals)

    def hand(self, seat: int) -> tuple[int, ...]:
        """The cards ``seat`` holds now, lowest id first."""
        c, d, h, s, x = self._hands[seat]
        return _C0[c] + _C1[d] + _C2[h] + _C3[s] + _C4[x]

    def hand_mask(self, seat: int) -> int:
        return _join(self._hands[seat])

    def dealt_hand(self, seat: int) -> tuple[int, ...]:
        """The cards ``seat`` was dealt this round, in deal order."""
        return self._dealt[seat]

    @property
    def trick(self) -> tuple[tuple[int, int], ...]:
        """The trick in progress: (seat, card) in play order."""
        n = self.players
        cards = self._played[len(self._winners) * n :]
        return tuple(((self._trick_leader + i) % n, c) for i, c in enumerate(cards))

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
        return self._win_seat if len(self._played) > len(self._winners) * self.players else None

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The tricks completed in this round."""
        # Built on first use and kept (the host asks after every action for its views).
        built, winners = self._built_tricks, self._winners
        if len(built) < len(winners):
            leader = built[-1].winner if built else self._next[self.dealer]
            new = _tricks_of(self._played, winners, leader, self.players, len(built))
            built.extend(new)
        return tuple(built)

    def legal_play_mask(self) -> int:
        """Cards the player on turn may play, as a mask (0 outside the play phase)."""
        if self.phase is not _PLAY_PHASE:
            return 0
        return legal_play_mask(_join(self._hands[self.turn]), self._led)

    def legal_plays(self) -> tuple[int, ...]:
        """Cards the player on turn may play, lowest id first (empty outside the play phase)."""
        if self.phase is not _PLAY_PHASE:
            return ()
        # Bots and benchmarks ask this before every card: following suit is two lookups
        # (the led suit's cards and the Wizards and Jesters), playing freely is five.
        hand = self._hands[self.turn]
        led = self._led
        if led >= 0 and (follow := hand[led]):
            return _CARDS[led][follow] + _C4[hand[SPECIALS]]
        c, d, h, s, x = hand
        return _C0[c] + _C1[d] + _C2[h] + _C3[s] + _C4[x]

    def forbidden_bid(self) -> int | None:
        """The one bid the player on turn may not make, under the restricted last bid."""
        # Seats bid in order from the dealer's left, so the dealer is always the last bidder.
        if (
            self.phase is not _BID_PHASE
            or self.turn != self.dealer
            or not self._restricted[self.round]
        ):
            return None
        # The bids may not add up to the round's tricks, one per card dealt to each player.
        size = self.hand_size
        forbidden = size - sum(b for b in self._bids if b is not None)
        return forbidden if 0 <= forbidden <= size else None

    def legal_bids(self) -> list[int]:
        if self.phase is not _BID_PHASE:
            return []
        bids = list(_BID_RANGES[self.hand_size])
        if self.turn == self.dealer:  # only the last bid can be restricted
            forbidden = self.forbidden_bid()
            if forbidden is not None:
                bids.remove(forbidden)
        return bids

    # The special cards' queries and actions (``SpecialGame``, docs/rules.md "Special
    # cards"), here so that code written for any ``Game`` may ask them: in a plain game
    # nothing is ever turned up by a special card's rule, declared, passed or swapped, and
    # every special action is refused (``wrong_phase``).

    @property
    def turned_card(self) -> int | None:
        """The card turned up at the deal, in a game with special cards; None here."""
        return None

    @property
    def declarations(self) -> tuple[tuple[int, int, int], ...]:
        """(trick index, seat, choice) of every declaration this round; none here."""
        return ()

    def legal_choices(self) -> tuple[int, ...]:
        """What the seat on turn may choose in a special card's phase; nothing here."""
        return ()

    def swap_takes(self) -> tuple[int, ...]:
        """The trick cards the Witch's player may take; none here."""
        return ()

    def last_pass(self, seat: int) -> tuple[int, int] | None:
        """(card passed, card received) at the round's latest Juggler's pass; None here."""
        return None

    def held_cards(self, seat: int) -> tuple[int, ...]:
        """The cards ``seat`` holds now, in the order it got them (in a plain game, the
        order they were dealt)."""
        held = set(self.hand(seat))
        return tuple(card for card in self._dealt[seat] if card in held)

    def name_trump(self, seat: int, suit: Suit | None) -> None:
        self.apply(NameTrump(seat, suit))

    def declare(self, seat: int, choice: int) -> None:
        self.apply(Declare(seat, choice))

    def adjust_bid(self, seat: int, bid: int) -> None:
        self.apply(AdjustBid(seat, bid))

    def pass_card(self, seat: int, card: int) -> None:
        self.apply(PassCard(seat, card))

    def swap(self, seat: int, give: int | None, take: int | None) -> None:
        self.apply(SwapCard(seat, give, take))

    def legal_actions(self) -> list[Action]:
        """Every action the engine would accept now (the deal is not a seat's action)."""
        if self.phase is Phase.PLAY:
            return [Play(self.turn, c) for c in self.legal_plays()]
        if self.phase is Phase.BID:
            return [Bid(self.turn, b) for b in self.legal_bids()]
        if self.phase is Phase.CHOOSE_TRUMP:
            return [ChooseTrump(self.turn, s) for s in Suit]
        return []

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
            for r in self.results
        ]
        if len(self._decks) > len(self._results):  # a round in progress
            plays: list[Plays] = [t.plays for t in self.tricks]
            plays.append(self.trick)
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
                bid = bids[seat]
                if bid is None:
                    break
                out.append(Bid(seat, bid))
            out.extend(Play(seat, card) for trick in tricks for seat, card in trick)
        return out

    def __setstate__(self, state: tuple[None, dict[str, object]]) -> None:
        """Unpickling (and ``copy.copy``) skip ``__init__``, which builds the hand tables
        on first use: a game unpickled in a fresh process must build them too."""
        if not _C4:
            _build_card_tables()
        for name, value in state[1].items():
            setattr(self, name, value)

    @classmethod
    def replay(cls, config: GameConfig, actions: Iterable[Action]) -> Game:
        game = cls(config)
        for action in actions:
            game.apply(action)
        return game

    def copy(self) -> Game:
        """An independent copy, for search: every list is copied, everything else is
        immutable and shared. Slot by slot rather than a loop over ``__slots__``, which
        is several times faster; a new slot must be added here too."""
        other: Game = _new_game(Game)
        other.config = self.config
        other.players = self.players
        other.num_rounds = self.num_rounds
        other._sizes = self._sizes
        other._next = self._next
        other._restricted = self._restricted
        other.phase = self.phase
        other.round = self.round
        other.hand_size = self.hand_size
        other.dealer = self.dealer
        other.turn = self.turn
        other.totals = self.totals[:]
        other._results = self._results[:]
        other._decks = self._decks[:]
        other._charges = None if self._charges is None else self._charges[:]
        other._hands = [hand[:] for hand in self._hands]
        other._dealt = self._dealt[:]
        other.trump_card = self.trump_card
        other.trump = self.trump
        other._rows = self._rows
        other._bids = self._bids[:]
        other.tricks_won = self.tricks_won[:]
        other._played = self._played[:]
        other._winners = self._winners[:]
        other._built_tricks = self._built_tricks[:]
        other._trick_leader = self._trick_leader
        other._led = self._led
        other._win_seat = self._win_seat
        other._win_row = self._win_row
        return other

    def charge(self, seat: int) -> int:
        """Charge ``seat`` one void (docs/rules.md, "Voided deals"): in the round in
        progress, or the next one to be dealt between rounds, it scores -10 per card of
        the round for each charge and nothing for its bid and tricks. Returns the charge."""
        if self.phase is _OVER_PHASE:
            raise IllegalAction(Reason.WRONG_PHASE, "the game is over")
        if not 0 <= seat < self.players:
            raise ValueError(f"no seat {seat}")
        r = self.round + 1 if self.phase is _DEAL_PHASE else self.round
        amount = void_charge(self._sizes[r - 1])  # per card of that round, not per ordinal
        if self._charges is None:
            self._charges = [0] * self.players
        self._charges[seat] += amount
        return amount

    @property
    def charges(self) -> tuple[int, ...]:
        """The charges waiting for the round in progress (or the next), per seat."""
        return tuple(self._charges) if self._charges is not None else (0,) * self.players

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
        elif type(action) in _SPECIAL_ACTION_PHASE:
            # A special card's action: a plain game never is in its phase.
            self._check_turn(_SPECIAL_ACTION_PHASE[type(action)], -1)
        else:
            raise IllegalAction(Reason.UNKNOWN_ACTION, f"not an action: {action!r}")
        return events

    def choose_trump(self, seat: int, suit: Suit | int) -> None:
        self._choose_trump(seat, suit, None)

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

    def _deal(self, deck: Sequence[int], events: list[Event] | None = None) -> None:
        if self.phase is not _DEAL_PHASE:
            self._check_turn(Phase.DEAL, -1)
        try:
            deck = tuple(deck)
        except TypeError:
            deck = ()  # not even a sequence: refused below like any other bad deck
        # Exactly ints (True == 1 and 1.0 == 1 would pass the set test), counted rather than
        # collected into a set, which is faster; and checked before the set, which an
        # unhashable entry would make raise TypeError.
        if (
            len(deck) != DECK_SIZE
            or list(map(type, deck)).count(int) != DECK_SIZE
            or set(deck) != FULL_DECK
        ):
            raise IllegalAction(Reason.BAD_DECK, "a deck must be a permutation of the 60 card ids")
        n = self.players
        r = self.round + 1
        size = self._sizes[r - 1]  # the schedule's cards for round r (r in the full game)
        dealer = (self.dealer + 1) % n
        dealt_count = n * size
        hands: list[list[int]] = [[]] * n
        dealt: list[tuple[int, ...]] = [()] * n
        # Card j goes to seat (dealer + 1 + j) mod n: seat s gets every n-th card from offset i.
        for i in range(n):
            seat = (dealer + 1 + i) % n
            dealt[seat] = cards = deck[i:dealt_count:n]
            hands[seat] = parts = [0, 0, 0, 0, 0]
            for card in cards:
                part, bit = _WHERE[card]
                parts[part] |= bit
        tc = deck[dealt_count] if dealt_count < DECK_SIZE else None
        chooses = tc is not None and FIRST_WIZARD <= tc < FIRST_JESTER
        self.round = r
        self.hand_size = size
        self.dealer = dealer
        self._start_round(hands, dealt, tc, NO_TRUMP if tc is None else TRUMP_OF[tc])
        if chooses:
            self.phase = Phase.CHOOSE_TRUMP
            self.turn = dealer
        else:
            self.phase = _BID_PHASE
            self.turn = (dealer + 1) % n
        self._decks.append(deck)
        if events is not None:
            events.append(RoundDealt(r, dealer, tc, self.trump_suit, chooses))

    def _choose_trump(self, seat: int, suit: Suit | int, events: list[Event] | None) -> None:
        self._check_turn(Phase.CHOOSE_TRUMP, seat)
        if type(suit) is not Suit and (type(suit) is not int or not 0 <= suit < 4):
            raise IllegalAction(Reason.NOT_A_SUIT, f"trump must be one of the four suits: {suit!r}")
        self.trump = int(suit)
        self._rows = BEATS_ROWS[self.trump + 1]
        self.phase = _BID_PHASE
        self.turn = (self.dealer + 1) % self.players
        if events is not None:
            events.append(TrumpChosen(seat, Suit(self.trump)))

    def _bid(self, seat: int, bid: int, events: list[Event] | None = None) -> None:
        # One test for the usual case (``is``: see ``_play``); ``_check_turn`` does the rest.
        if self.phase is not _BID_PHASE or seat is not self.turn:
            self._check_turn(Phase.BID, seat)
        if type(bid) is not int:
            raise IllegalAction(Reason.NOT_A_BID, f"a bid is a whole number: {bid!r}")
        if not 0 <= bid <= self.hand_size:
            raise IllegalAction(
                Reason.BID_OUT_OF_RANGE, f"bid {bid} is not between 0 and {self.hand_size}"
            )
        dealer = self.dealer
        if seat == dealer and bid == self.forbidden_bid():
            raise IllegalAction(
                Reason.BID_FORBIDDEN,
                f"the last bid may not make the total equal {self.hand_size} tricks",
            )
        self._bids[seat] = bid
        if events is not None:
            events.append(BidMade(seat, bid))
        if seat == dealer:  # the dealer bids last
            self.phase = _PLAY_PHASE
            self.turn = self._trick_leader = self._next[dealer]
        else:
            self.turn = self._next[seat]

    # ``deal(deck)``, ``bid(seat, bid)``: the same functions with no event list (as ``play``).
    deal = _deal
    bid = _bid

    def _play(self, seat: int, card: int, events: list[Event] | None = None) -> None:
        # The hot path of every simulation. ``is``: seat numbers are small ints, which CPython
        # keeps one object each of, so the seat on turn is normally the very object in
        # ``self.turn``; anything else (a wrong seat, True, 1.0) goes to the full check.
        if self.phase is not _PLAY_PHASE or seat is not self.turn:
            self._check_turn(Phase.PLAY, seat)
        # The card's place in a hand and its check in one lookup: see ``_PLACE``.
        try:
            part, bit, same, led_after = _PLACE[card]
        except (IndexError, TypeError):  # past the deck, or not an int at all
            raise IllegalAction(Reason.NOT_A_CARD, f"not a card: {card!r}") from None
        # Not the entry's own object: a card id only if a plain int in range (an int object of
        # its own, then, whose entry is still its entry).
        if same is not card and (type(card) is not int or not 0 <= card < DECK_SIZE):
            # Off the hot path: "play your card" in a forehead round (docs/rules.md) is the
            # one card the seat holds and cannot see.
            card = self._blind_card(seat, card)
            part, bit, same, led_after = _PLACE[card]
        hand = self._hands[seat]
        held = hand[part]
        led = self._led
        if not held & bit:
            raise IllegalAction(Reason.CARD_NOT_IN_HAND, f"{card_name(card)} is not in your hand")
        # A suit card off the led suit, while the hand holds the led suit (Wizards and
        # Jesters may always be played): tested in the order that settles the usual cases
        # (following suit, leading) with the fewest comparisons. 4 is ``SPECIALS`` (a literal
        # is cheaper than a name), as -1 below is ``LED_OPEN``.
        if part != led and led >= 0 and part != 4 and hand[led]:
            raise IllegalAction(
                Reason.MUST_FOLLOW_SUIT,
                f"you must follow {Suit(led).label} (or play a Wizard or Jester)",
            )
        hand[part] = held ^ bit
        if self._win_row[card]:  # it beats the card winning so far (or is the first card)
            self._win_seat = seat
            self._win_row = self._rows[card]
        self._played.append(card)
        if led == -1:  # nothing but Jesters so far: this card may set the led suit
            self._led = led_after
        if events is not None:
            events.append(CardPlayed(seat, card))
        nxt = self._next[seat]
        if nxt != self._trick_leader:
            self.turn = nxt
            return
        # Back to the leader: the trick is complete. Finished here rather than in a method
        # of its own, which would cost a call for every trick.
        winner = self._win_seat
        winners = self._winners
        winners.append(winner)
        self.tricks_won[winner] += 1
        if events is not None:
            events.append(TrickWon(len(winners) - 1, winner, self.tricks[-1].plays))
        self._led = LED_OPEN
        self._win_row = _FIRST_ROW
        self._trick_leader = self.turn = winner
        if len(winners) == self.hand_size:  # one trick per card in each hand
            self._finish_round(events)

    def _blind_card(self, seat: int, card: object) -> int:
        """The card a blind play (``BLIND_CARD``) stands for; ``not_a_card`` for any other
        value that is not a card, and for a blind play outside a forehead round."""
        if (
            type(card) is int
            and card == BLIND_CARD
            and is_forehead_round(self.config.rules, self.hand_size)
        ):
            held = self.hand(seat)
            if len(held) == 1:
                return held[0]
        if card == BLIND_CARD and type(card) is int:
            raise IllegalAction(Reason.NOT_A_CARD, "a blind play is for a forehead round only")
        raise IllegalAction(Reason.NOT_A_CARD, f"not a card: {card!r}")

    # ``play(seat, card)``: the same function with no event list, so the hot path of every
    # simulation pays for no wrapper call.
    play = _play

    def _finish_round(self, events: list[Event] | None) -> None:
        bids = cast("tuple[int, ...]", tuple(self._bids))  # every seat has bid by now
        won = tuple(self.tricks_won)
        points = tuple(map(score, bids, won))
        charges = self._charges
        if charges is not None:  # a charged seat scores its charges, and nothing else
            points = tuple(c if c else pt for c, pt in zip(charges, points, strict=True))
            self._charges = None
        totals = tuple(map(add, self.totals, points))
        self.totals = list(totals)
        # The fields of the ``RoundResult``, which ``results`` builds on first use. The round's
        # lists are stored as they are: the next deal replaces them rather than clearing them.
        self._results.append(
            (
                self.round,
                self.dealer,
                tuple(self._dealt),  # hands
                self.trump_card,
                SUIT_OR_NONE[self.trump + 1],  # trump_suit
                bids,
                self._played,
                self._winners,
                won,
                points,
                totals,
            )
        )
        self.turn = -1
        if events is not None:
            events.append(RoundScored(self.round, bids, won, points, totals))
        if self.round == self.num_rounds:
            self.phase = Phase.GAME_OVER
            if events is not None:
                events.append(GameOver(totals, tuple(self.winners)))
        else:
            self.phase = _DEAL_PHASE


def _tricks_of(
    played: Sequence[int], winners: Sequence[int], leader: int, n: int, start: int = 0
) -> list[Trick]:
    """The ``Trick``s of a round from its flat record (see ``Game._played``), from trick
    number ``start`` (counting from 0), which ``leader`` led."""
    tricks = []
    for k in range(start, len(winners)):
        winner = winners[k]
        tricks.append(Trick(leader, tuple(played[k * n : k * n + n]), winner))
        leader = winner
    return tricks


def _round_result(
    round_number: int,
    dealer: int,
    hands: tuple[tuple[int, ...], ...],
    trump_card: int | None,
    trump_suit: Suit | None,
    bids: tuple[int, ...],
    played: Sequence[int],
    winners: Sequence[int],
    won: tuple[int, ...],
    points: tuple[int, ...],
    totals: tuple[int, ...],
) -> RoundResult:
    """A ``RoundResult`` from the tuple ``Game._finish_round`` stores."""
    n = len(bids)
    tricks = tuple(_tricks_of(played, winners, (dealer + 1) % n, n))
    return RoundResult(
        round_number, dealer, hands, trump_card, trump_suit, bids, tricks, won, points, totals
    )


_new_game = object.__new__
# Per rule, per round ordinal: is the last bid restricted? (Asked for every dealer's bid.)
_RESTRICTED_ROUNDS = {
    rule: tuple(rule.applies(r) for r in range(MAX_ROUNDS + 1)) for rule in RestrictLastBid
}
_BID_RANGES = tuple(tuple(range(r + 1)) for r in range(DECK_SIZE + 1))
# The trump a turned-up card makes: its suit, or none for a Wizard (until chosen) or Jester.
TRUMP_OF = tuple(c // RANKS_PER_SUIT if c < FIRST_WIZARD else NO_TRUMP for c in range(DECK_SIZE))
SUIT_OR_NONE: tuple[Suit | None, ...] = (None, *Suit)  # indexed by trump + 1

_PHASE_VERB = {
    Phase.DEAL: "deal",
    Phase.CHOOSE_TRUMP: "choose trump",
    Phase.BID: "bid",
    Phase.PLAY: "play a card",
    Phase.GAME_OVER: "act",
    Phase.NAME_TRUMP: "name trump",
    Phase.DECLARE: "declare a card",
    Phase.ADJUST_BID: "change your bid",
    Phase.PASS: "pass a card",
    Phase.SWAP: "swap a card",
}
_PHASE_WAITING = {
    Phase.DEAL: "the next round has not been dealt",
    Phase.CHOOSE_TRUMP: "the dealer is choosing trump",
    Phase.BID: "bidding is in progress",
    Phase.PLAY: "the cards are being played",
    Phase.GAME_OVER: "the game is over",
    Phase.NAME_TRUMP: "the Werewolf's holder is naming trump",
    Phase.DECLARE: "a card just played is being declared",
    Phase.ADJUST_BID: "the Cloud's taker is changing its bid",
    Phase.PASS: "the cards are being passed",
    Phase.SWAP: "the Witch's player is swapping",
}
_SPECIAL_ACTION_PHASE: dict[type, Phase] = {
    NameTrump: Phase.NAME_TRUMP,
    Declare: Phase.DECLARE,
    AdjustBid: Phase.ADJUST_BID,
    PassCard: Phase.PASS,
    SwapCard: Phase.SWAP,
}
