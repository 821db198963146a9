"""What one seat may see: its own hand and everything public, nothing more.

Bots decide from a ``SeatView`` alone, the host sends one to each client, and the UI
renders one. Other seats' cards appear only once played (or, for whole rounds, once
the round is scored and its seeds are public).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, dataclass, fields

from .cards import Suit
from .engine import Game, Phase, RoundResult, Trick, cards_of
from .forehead import BLIND_CARD, foreheads_of, is_forehead_round
from .rules import RestrictLastBid
from .special_engine import SpecialGame
from .special_tricks import copied_card
from .specials import Special
from .table_rules import TableRules

_ROUND_PHASES = (Phase.CHOOSE_TRUMP, Phase.BID, Phase.PLAY)


@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    players: int
    num_rounds: int
    rules: TableRules  # the house rules in force
    round: int  # 0 before the first deal
    hand_size: int  # cards dealt to each player this round (0 before the first deal)
    dealer: int
    phase: Phase
    turn: int  # -1 when nobody is to act
    hand: tuple[int, ...]  # this seat's cards now, in deal order (none in a forehead round)
    # Per seat, the card this seat sees on that seat's forehead in a forehead round (its
    # unplayed card); None for this seat's own, a seat that has played, and other rounds.
    foreheads: tuple[int | None, ...]
    trump_card: int | None
    trump_suit: Suit | None
    bids: tuple[int | None, ...]
    tricks_won: tuple[int, ...]
    totals: tuple[int, ...]
    trick_leader: int  # -1 before the first lead of the round
    trick: tuple[tuple[int, int], ...]  # (seat, card) of the trick in progress
    led_suit: Suit | None
    trick_winner: int | None  # who is winning the trick in progress
    tricks: tuple[Trick, ...]  # completed tricks of this round
    history: tuple[RoundResult, ...]  # finished rounds
    # Empty unless this seat is to play; in a forehead round ``(BLIND_CARD,)``: "play your card".
    legal_cards: tuple[int, ...]
    legal_bids: tuple[int, ...]  # empty unless this seat is to bid
    forbidden_bid: int | None  # the bid the restricted last bid rules out, for this seat
    # The special cards (docs/rules.md, "Special cards"); the defaults in a plain game.
    turned_card: int | None = None  # the card turned up at the deal (None: a plain game)
    # (trick index from 0, seat, choice) of every declaration this round.
    declared: tuple[tuple[int, int, int], ...] = ()
    # For this seat on turn: in name_trump the suits 0..3 and -1 (no trump), in declare the
    # ``Declaration`` values, in adjust_bid the allowed new bids. (In pass, ``legal_cards``
    # holds the cards it may pass; in swap, the hand cards it may give.)
    legal_choices: tuple[int, ...] = ()
    swap_takes: tuple[int, ...] = ()  # in swap, for this seat: the trick cards it may take
    # (the card this seat passed, the card it received) at the round's latest pass.
    last_pass: tuple[int, int] | None = None
    # (trick index from 0, seat, card given, card taken) of every Witch's swap this round.
    swaps: tuple[tuple[int, int, int, int], ...] = ()

    @property
    def my_turn(self) -> bool:
        return self.turn == self.seat

    @property
    def restrict_last_bid(self) -> RestrictLastBid:
        return self.rules.restrict_last_bid

    @property
    def bid(self) -> int | None:
        return self.bids[self.seat]

    @property
    def forehead(self) -> bool:
        """Whether this round is played on the forehead (docs/rules.md)."""
        return is_forehead_round(self.rules, self.hand_size)

    @property
    def blind_cards(self) -> int:
        """The cards this seat holds face down: in a forehead round, its card until played."""
        if not self.forehead or self.phase not in _ROUND_PHASES:
            return 0
        played = sum(1 for s, _ in self.trick if s == self.seat) + sum(
            1 for t in self.tricks for s, _ in t.plays if s == self.seat
        )
        return self.hand_size - played

    @property
    def vampire_copies(self) -> int | None:
        """The card the Vampire plays as this round (docs/rules.md, "The Vampire"): the card
        turned up at the deal, a Jester when that was the Werewolf or the Vampire itself;
        None when the Vampire is not in this game's deck or no card is turned up."""
        if Special.VAMPIRE not in self.rules.specials or self.turned_card is None:
            return None
        return copied_card(Special.VAMPIRE, self.turned_card)

    @property
    def played_cards(self) -> tuple[int, ...]:
        """Every card played face up this round, in order."""
        done = tuple(card for t in self.tricks for _, card in t.plays)
        return done + tuple(card for _, card in self.trick)


def _positional_maker() -> Callable[..., SeatView]:
    """``new_seat_view(seat, players, ...)``: a ``SeatView`` from its fields in order, about
    twice as fast as ``SeatView(...)``, whose frozen ``__init__`` sets each field through
    ``object.__setattr__``: this calls the slots' own setters. The host builds a view after
    every action and every client checks one per message (docs/performance.md, latency)."""
    names = [f.name for f in fields(SeatView)]
    setters = {f"_set_{name}": SeatView.__dict__[name].__set__ for name in names}
    # The fields with a default (the special cards') keep it: a plain view passes none.
    defaults = {
        f"_default_{f.name}": f.default for f in fields(SeatView) if f.default is not MISSING
    }
    params = [
        name if f"_default_{name}" not in defaults else f"{name}=_default_{name}" for name in names
    ]
    body = "".join(f"\n    _set_{name}(view, {name})" for name in names)
    namespace = {"_new": object.__new__, "SeatView": SeatView, **setters, **defaults}
    header = f"def new_seat_view({', '.join(params)}):\n    view = _new(SeatView)"
    exec(f"{header}{body}\n    return view", namespace)
    made: Callable[..., SeatView] = namespace["new_seat_view"]
    return made


new_seat_view = _positional_maker()


def seat_view(game: Game, seat: int) -> SeatView:
    if type(seat) is not int or not 0 <= seat < game.players:
        raise ValueError(f"there is no seat {seat}")
    if type(game) is not Game and isinstance(game, SpecialGame):
        return _special_seat_view(game, seat)
    turn, bids = game.turn, game.bids
    bidding = game.phase is Phase.BID
    if bidding and game.config.rules.hidden_bids:
        # Hidden bids (docs/rules.md, "Hidden bids"): every seat bids at once, so a seat
        # that has not bid is on turn, and no seat sees another's bid before all are in.
        # (The engine takes the bids in the usual order; the host applies them only once
        # every seal is open, but a game played in one process applies them one by one.)
        if bids[seat] is None:
            turn = seat
        bids = tuple(bid if s == seat else None for s, bid in enumerate(bids))
    mine = turn == seat
    forehead = is_forehead_round(game.config.rules, game.hand_size) and game.phase in _ROUND_PHASES
    if forehead:  # the seat's own card is on its forehead: it sees the others' instead
        hand: tuple[int, ...] = ()
        legal: tuple[int, ...] = (BLIND_CARD,) if mine and game.phase is Phase.PLAY else ()
    else:
        held = set(cards_of(game.hand_mask(seat)))
        hand = tuple(c for c in game.dealt_hand(seat) if c in held)
        legal = tuple(game.legal_plays()) if mine and game.phase is Phase.PLAY else ()
    return new_seat_view(
        seat,
        game.players,
        game.num_rounds,
        game.config.rules,
        game.round,
        game.hand_size,
        game.dealer,
        game.phase,
        turn,
        hand,
        foreheads_of(game, seat, forehead),
        game.trump_card,
        game.trump_suit,
        bids,
        tuple(game.tricks_won),
        tuple(game.totals),
        game.trick_leader,
        game.trick,
        game.led_suit,
        game.trick_winner,
        game.tricks,
        game.results,  # history
        legal,  # legal_cards
        tuple(game.legal_bids()) if mine and bidding else (),  # legal_bids
        game.forbidden_bid() if mine else None,
    )


def _special_seat_view(game: SpecialGame, seat: int) -> SeatView:
    """``seat_view`` of a game with special cards: the plain view's fields, filled the same
    way, and the special cards' own."""
    turn, bids = game.turn, game.bids
    phase = game.phase
    bidding = phase is Phase.BID
    if bidding and game.config.rules.hidden_bids:  # as in ``seat_view``
        if bids[seat] is None:
            turn = seat
        bids = tuple(bid if s == seat else None for s, bid in enumerate(bids))
    mine = turn == seat
    forehead = is_forehead_round(game.config.rules, game.hand_size) and phase in _ROUND_PHASES
    legal: tuple[int, ...] = ()
    if forehead:
        hand: tuple[int, ...] = ()
        if mine and phase is Phase.PLAY:
            legal = (BLIND_CARD,)
    else:
        hand = game.held_cards(seat)
        if mine and phase is Phase.PLAY:
            legal = game.legal_plays()
        elif mine and phase in (Phase.PASS, Phase.SWAP):
            legal = game.hand(seat)
    return new_seat_view(
        seat,
        game.players,
        game.num_rounds,
        game.config.rules,
        game.round,
        game.hand_size,
        game.dealer,
        phase,
        turn,
        hand,
        foreheads_of(game, seat, forehead),
        game.trump_card,
        game.trump_suit,
        bids,
        tuple(game.tricks_won),
        tuple(game.totals),
        game.trick_leader,
        game.trick,
        game.led_suit,
        game.trick_winner,
        game.tricks,
        game.results,
        legal,
        tuple(game.legal_bids()) if mine and bidding else (),
        game.forbidden_bid() if mine else None,
        game.turned_card,
        game.declarations,
        game.legal_choices() if mine else (),
        game.swap_takes() if mine else (),
        game.last_pass(seat),
        game.swaps,
    )
