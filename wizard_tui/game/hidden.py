"""A game whose hands nobody at the table holds: the rules from public information only.

With the private deal (``docs/private-deal.md``) the host never learns a hand: a card
becomes known when its player plays it (the deal protocol proves it was dealt to that
seat and not played before). ``HiddenGame`` is what the host runs then. It has the query
interface of ``Game`` that ``seat_view``, ``views_wire`` and the host use (every hand is
empty, nobody has legal cards), and it follows turn order, trump, bids and tricks from
the public actions alone.

Follow-suit cannot be checked while the hands are hidden. When the round's deal is
verified, its real deck (the item at every final-deck position, which is the engine's deck
order: position ``k < n·h`` to seat ``(dealer + 1 + k) mod n``, ``h`` the round's hand
size, position ``n·h`` the trump card, the undealt rest in position order) and the round's
actions are replayed through the normal engine (``finish_round``): scoring comes from
there, and a revoke is a ``Revoke`` naming the seat. The completed rounds live in that
engine (``full``), so totals, results and the record are the engine's own. The trick rule,
the led suit and the trump a turned-up card makes are the engine's tables too
(``BEATS_ROWS``, ``LED_AFTER``, ``TRUMP_OF``), and the turn passes by ``dealer_of`` and
``left_of``: no rule is written here a second time.

Pure: no I/O, no asyncio.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from .actions import (
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
from .cards import DECK_SIZE, FIRST_JESTER, FIRST_WIZARD, Suit
from .codec import PlayerAction
from .engine import (
    BEATS_ROWS,
    LED_AFTER,
    LED_OPEN,
    NO_TRUMP,
    SUIT_OR_NONE,
    TRUMP_OF,
    Game,
    GameConfig,
    Phase,
    RoundResult,
    Trick,
    beats,
    cards_of,
    legal_play_mask,
    mask_of,
)
from .errors import IllegalAction, Reason
from .forehead import BLIND_CARD, is_forehead_round
from .rules import dealer_of, left_of
from .rules import winners as _winners
from .view import SeatView


class Revoke(Exception):
    """The round's replay with its real deck refused an action (a revoke, normally)."""

    def __init__(self, action: PlayerAction, error: IllegalAction) -> None:
        super().__init__(f"seat {action.seat}: {error.message}")
        self.action = action
        self.seat = action.seat
        self.code = error.code
        self.error = error


def led_marker(cards: Sequence[int]) -> int:
    """The engine's led-suit marker for a trick's cards so far: a suit, ``LED_WIZARD``
    or ``LED_OPEN`` (nothing yet, or only Jesters): the first card that is not a Jester
    sets it, as in ``Game``."""
    for card in cards:
        led = LED_AFTER[card]
        if led != LED_OPEN:
            return led
    return LED_OPEN


class HiddenGame:
    """``Game``'s interface for a table whose hands are hidden; see the module docstring.

    A round: ``start_round(trump_card)``, then ``apply`` trump, bids and plays (a play is
    accepted on the seat's turn for a card not yet seen this round: ownership is the deal
    protocol's to prove), then ``finish_round(deck)`` once the deal is verified, or
    ``void_round()`` to throw the round away (it is dealt again)."""

    def __init__(self, config: GameConfig) -> None:
        self.config = config
        self.players = config.players
        self._sizes = config.rules.round_sizes(config.players)  # cards each, round by round
        self.num_rounds = len(self._sizes)
        self.full = Game(config)  # every completed round, replayed with its real deck
        self.round_actions: list[ChooseTrump | Bid | Play] = []
        self._reset_round()
        self.round = 0
        self.dealer = self.full.dealer
        self.phase = Phase.DEAL

    @property
    def hand_size(self) -> int:
        """Cards dealt to each player this round (0 before the first deal)."""
        return self._sizes[self.round - 1] if self.round else 0

    def _reset_round(self) -> None:
        n = self.players
        self.turn = -1
        self.trump_card: int | None = None
        self.trump = NO_TRUMP  # as ``Game.trump``: a suit 0..3 or NO_TRUMP
        self._bids: list[int | None] = [None] * n
        self.tricks_won = [0] * n
        self._tricks: list[Trick] = []
        self._trick: list[tuple[int, int]] = []
        self._seen: set[int] = set()  # cards turned up or played this round
        self.round_actions = []

    # ----------------------------------------------------------------- Game's queries

    @property
    def totals(self) -> list[int]:
        return self.full.totals

    @property
    def results(self) -> tuple[RoundResult, ...]:
        return self.full.results

    @property
    def is_over(self) -> bool:
        return self.phase is Phase.GAME_OVER

    @property
    def winners(self) -> list[int]:
        return _winners(self.full.totals)

    @property
    def trump_suit(self) -> Suit | None:
        return SUIT_OR_NONE[self.trump + 1]

    @property
    def bids(self) -> tuple[int | None, ...]:
        return tuple(self._bids)

    def hand(self, seat: int) -> tuple[int, ...]:
        return ()

    def hand_mask(self, seat: int) -> int:
        return 0

    def dealt_hand(self, seat: int) -> tuple[int, ...]:
        return ()

    @property
    def trick(self) -> tuple[tuple[int, int], ...]:
        return tuple(self._trick)

    @property
    def trick_leader(self) -> int:
        if self._trick:
            return self._trick[0][0]
        return self._tricks[-1].winner if self._tricks else self._first_leader()

    def _first_leader(self) -> int:
        return left_of(self.dealer, self.players) if self.phase is Phase.PLAY else -1

    @property
    def led(self) -> int:
        return led_marker([c for _, c in self._trick])

    @property
    def led_suit(self) -> Suit | None:
        led = self.led
        return Suit(led) if led >= 0 else None

    @property
    def trick_winner(self) -> int | None:
        if not self._trick:
            return None
        rows = BEATS_ROWS[self.trump + 1]  # the engine's table, as ``Game._play`` reads it
        seat, best = self._trick[0]
        for s, card in self._trick[1:]:
            if rows[best][card]:
                seat, best = s, card
        return seat

    @property
    def tricks(self) -> tuple[Trick, ...]:
        return tuple(self._tricks)

    def legal_play_mask(self) -> int:
        return 0

    def legal_plays(self) -> tuple[int, ...]:
        return ()  # only the player knows its hand: it works out its own legal cards

    def forbidden_bid(self) -> int | None:
        if (
            self.phase is not Phase.BID
            or self.turn != self.dealer
            or not self.config.rules.last_bid_rule.applies(self.round)
        ):
            return None
        size = self.hand_size  # the bids may not add up to the round's tricks
        forbidden = size - sum(b for b in self._bids if b is not None)
        return forbidden if 0 <= forbidden <= size else None

    def legal_bids(self) -> list[int]:
        if self.phase is not Phase.BID:
            return []
        forbidden = self.forbidden_bid()
        return [b for b in range(self.hand_size + 1) if b != forbidden]

    def legal_actions(self) -> list[Bid | ChooseTrump]:
        if self.phase is Phase.BID:
            return [Bid(self.turn, b) for b in self.legal_bids()]
        if self.phase is Phase.CHOOSE_TRUMP:
            return [ChooseTrump(self.turn, s) for s in Suit]
        return []

    # ----------------------------------------------------------------- the round

    def start_round(self, trump_card: int | None) -> list[Event]:
        """The round's deal is done: every hand is open to its own player only, and
        ``trump_card`` (None in a round dealing every card) is face up."""
        if self.phase is not Phase.DEAL or self.round != self.full.round:
            raise IllegalAction(Reason.WRONG_PHASE, "a round is already being played")
        n = self.players
        self._reset_round()
        self.round = self.full.round + 1
        self.dealer = dealer_of(self.config.first_dealer, self.round, n)
        self.trump_card = trump_card
        chooses = trump_card is not None and FIRST_WIZARD <= trump_card < FIRST_JESTER
        if trump_card is not None:
            self.trump = TRUMP_OF[trump_card]
            self._seen.add(trump_card)
        self.phase = Phase.CHOOSE_TRUMP if chooses else Phase.BID
        self.turn = self.dealer if chooses else left_of(self.dealer, n)
        return [RoundDealt(self.round, self.dealer, trump_card, self.trump_suit, chooses)]

    def apply(self, action: ChooseTrump | Bid | Play | Deal) -> list[Event]:
        """A seat's action, checked from public information; ``IllegalAction`` otherwise."""
        if type(action) is Play:
            return self._play(action)
        if type(action) is Bid:
            return self._bid(action)
        if type(action) is ChooseTrump:
            return self._choose_trump(action)
        raise IllegalAction(Reason.UNKNOWN_ACTION, f"not a seat's action here: {action!r}")

    def check_play(self, seat: int, card: int) -> None:
        """Raise ``IllegalAction`` unless ``seat`` may play ``card`` now, as far as public
        information tells (the deal protocol then proves the card is the seat's)."""
        self._check_turn(Phase.PLAY, seat)
        if card == BLIND_CARD and type(card) is int:  # "play your card": unseen by all here
            if not is_forehead_round(self.config.rules, self.hand_size):
                raise IllegalAction(Reason.NOT_A_CARD, "a blind play is for a forehead round only")
            return
        if type(card) is not int or not 0 <= card < DECK_SIZE:
            raise IllegalAction(Reason.NOT_A_CARD, f"not a card: {card!r}")
        if card in self._seen:
            raise IllegalAction(Reason.CARD_NOT_IN_HAND, "that card is already on the table")

    def _check_turn(self, phase: Phase, seat: int) -> None:
        if self.phase is not phase:
            if self.phase is Phase.GAME_OVER:
                raise IllegalAction(Reason.GAME_OVER, "the game is over")
            raise IllegalAction(Reason.WRONG_PHASE, f"cannot do that now: {self.phase.value}")
        if type(seat) is not int or not 0 <= seat < self.players:
            raise IllegalAction(Reason.NOT_A_SEAT, f"there is no seat {seat!r}")
        if seat != self.turn:
            raise IllegalAction(
                Reason.NOT_YOUR_TURN, f"it is seat {self.turn}'s turn, not seat {seat}'s"
            )

    def _choose_trump(self, action: ChooseTrump) -> list[Event]:
        self._check_turn(Phase.CHOOSE_TRUMP, action.seat)
        suit = action.suit
        if type(suit) is not Suit and (type(suit) is not int or not 0 <= suit < 4):
            raise IllegalAction(Reason.NOT_A_SUIT, f"trump must be one of the four suits: {suit!r}")
        self.trump = int(suit)
        self.phase = Phase.BID
        self.turn = left_of(self.dealer, self.players)
        self.round_actions.append(action)
        return [TrumpChosen(action.seat, Suit(self.trump))]

    def _bid(self, action: Bid) -> list[Event]:
        seat, bid = action.seat, action.bid
        self._check_turn(Phase.BID, seat)
        if type(bid) is not int:
            raise IllegalAction(Reason.NOT_A_BID, f"a bid is a whole number: {bid!r}")
        if not 0 <= bid <= self.hand_size:
            raise IllegalAction(
                Reason.BID_OUT_OF_RANGE, f"bid {bid} is not between 0 and {self.hand_size}"
            )
        if seat == self.dealer and bid == self.forbidden_bid():
            raise IllegalAction(
                Reason.BID_FORBIDDEN,
                f"the last bid may not make the total equal {self.hand_size} tricks",
            )
        self._bids[seat] = bid
        self.round_actions.append(action)
        if seat == self.dealer:
            self.phase = Phase.PLAY
            self.turn = left_of(self.dealer, self.players)
        else:
            self.turn = left_of(seat, self.players)
        return [BidMade(seat, bid)]

    def _play(self, action: Play) -> list[Event]:
        seat, card = action.seat, action.card
        self.check_play(seat, card)
        self._seen.add(card)
        self._trick.append((seat, card))
        self.round_actions.append(action)
        events: list[Event] = [CardPlayed(seat, card)]
        n = self.players
        if len(self._trick) < n:
            self.turn = left_of(seat, n)
            return events
        winner = self.trick_winner
        assert winner is not None
        trick = Trick(self._trick[0][0], tuple(c for _, c in self._trick), winner)
        self._tricks.append(trick)
        self.tricks_won[winner] += 1
        self._trick = []
        events.append(TrickWon(len(self._tricks) - 1, winner, trick.plays))
        if len(self._tricks) == self.hand_size:
            # Every card is down: the round is scored once its deal is verified.
            self.phase = Phase.DEAL
            self.turn = -1
        else:
            self.turn = winner
        return events

    @property
    def round_complete(self) -> bool:
        """Every card of the round in progress is played; it waits for ``finish_round``."""
        return self.round > self.full.round and len(self._tricks) == self.hand_size

    def finish_round(self, deck: Sequence[int]) -> list[Event]:
        """Score the round: replay it with its real ``deck`` through the engine. Raises
        ``Revoke`` (the game unchanged) if the engine refuses one of its actions."""
        if not self.round_complete:
            raise IllegalAction(Reason.WRONG_PHASE, "the round is not finished")
        game = replay_round(self.full, deck, self.round_actions)
        events: list[Event] = []
        last = game.results[-1]
        events.append(RoundScored(last.round, last.bids, last.tricks_won, last.points, last.totals))
        if game.is_over:
            events.append(GameOver(last.totals, tuple(game.winners)))
        self.full = game
        self.phase = Phase.GAME_OVER if game.is_over else Phase.DEAL
        return events

    def restore_round(
        self, deck: Sequence[int], actions: Sequence[ChooseTrump | Bid | Play]
    ) -> RoundResult:
        """Add a round scored before, from its real ``deck`` and its actions (a host restored
        from its journal). Raises ``Revoke`` or ``ValueError`` if they do not make a round."""
        if self.phase is not Phase.DEAL or self.round != self.full.round:
            raise IllegalAction(Reason.WRONG_PHASE, "a round is being played")
        self.full = replay_round(self.full, deck, actions)
        self._reset_round()
        self.round, self.dealer = self.full.round, self.full.dealer
        self.phase = Phase.GAME_OVER if self.full.is_over else Phase.DEAL
        return self.full.results[-1]

    def charge(self, seat: int) -> int:
        """Charge ``seat`` a void of the round in progress (or the next to be dealt):
        ``Game.charge``, applied when that round is scored."""
        return self.full.charge(seat)

    def void_round(self) -> None:
        """Throw the round in progress away: it will be dealt again (same round number)."""
        self._reset_round()
        self.round = self.full.round
        self.dealer = self.full.dealer
        self.phase = Phase.DEAL


def replay_round(before: Game, deck: Sequence[int], actions: Sequence[PlayerAction]) -> Game:
    """A copy of ``before`` with one more round: dealt ``deck``, then ``actions`` (with
    special cards, every seat action of the round: ``RoundResult.actions``). Raises
    ``Revoke`` for the first action the engine refuses."""
    game = before.copy()
    game.apply(Deal(tuple(deck)))
    for action in actions:
        try:
            game.apply(action)
        except IllegalAction as exc:
            raise Revoke(action, exc) from None
    if game.round != before.round + 1 or game.phase not in (Phase.DEAL, Phase.GAME_OVER):
        raise ValueError("the actions do not finish the round")
    return game


def view_with_foreheads(view: SeatView, shown: dict[int, int]) -> SeatView:
    """A view of a ``HiddenGame`` in a forehead round with the cards its seat sees on the
    others' foreheads put in (``shown``: seat -> its card, from the seat's own deal); a
    card already played is in the trick, no longer on a forehead."""
    played = set(view.played_cards)
    foreheads = tuple(
        None if seat == view.seat or card in played else card
        for seat, card in ((s, shown.get(s)) for s in range(view.players))
    )
    return replace(view, foreheads=foreheads)


def view_with_hand(view: SeatView, dealt: Sequence[int]) -> SeatView:
    """A view of a ``HiddenGame`` with its seat's own hand put in (``dealt``: the hand as
    dealt, which only the seat knows): the cards not played yet, and the legal ones when
    it is to play, as the engine would give them."""
    played = set(view.played_cards)
    hand = tuple(card for card in dealt if card not in played)
    legal: tuple[int, ...] = ()
    if view.my_turn and view.phase is Phase.PLAY:
        led = led_marker([card for _, card in view.trick])
        legal = cards_of(legal_play_mask(mask_of(hand), led))
    return replace(view, hand=hand, legal_cards=legal)


__all__ = [
    "HiddenGame",
    "Revoke",
    "beats",
    "led_marker",
    "replay_round",
    "view_with_foreheads",
    "view_with_hand",
]
