"""One seat's game at a private table with special cards: the public game plus its own hand.

With the private deal a player's program knows its own cards and nothing else of the others'
(docs/private-deal.md section 16). ``SeatSpecialGame`` is a ``HiddenSpecialGame`` (every
public rule the engine's own code) that also holds ``seat``'s own hand as the engine would:
dealt, the turned card in the Werewolf's place if it showed it, a card it gives away at a
Juggler's pass gone and the card it received added (``received``, from its gift), the card
its Witch took in place of the one it gave. So its own legal cards, its pass and swap
choices and its ``last_pass`` are the engine's (``SpecialGame.legal_plays`` and
``legal_actions`` read the held cards), and ``seat_view(game, seat)`` is the seat's full
view. It checks what a seat can check at once: its own actions against its own hand, and
that nobody else plays, or gives into a trick, a card it holds itself. Not for a forehead
round, whose seat cannot see its own card (it is refused: a ``HiddenSpecialGame`` follows
that round). Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence

from .actions import Action, Event
from .engine import Game, GameConfig, Phase
from .errors import IllegalAction, Reason
from .forehead import is_forehead_round
from .hidden_special import HIDDEN_CARD, HiddenSpecialGame
from .special_engine import SpecialGame
from .specials import Special


class SeatSpecialGame(HiddenSpecialGame):
    """The game as ``seat``'s own program follows it; see the module docstring.

    A round: ``start_round(turned_card, werewolf_holder, dealt)`` with the seat's dealt
    cards (in deal order), then ``apply`` every public action (another seat's pass as
    ``PassCard(other, HIDDEN_CARD)``, its own with its card), then ``received(card)`` once
    its gift of the pass is opened; the round ends as in ``HiddenSpecialGame``."""

    def __new__(cls, config: GameConfig | None = None, seat: int = 0) -> SeatSpecialGame:
        game = super().__new__(cls, config)  # (``Game.__new__`` takes the config alone)
        assert isinstance(game, SeatSpecialGame)
        return game

    def __init__(self, config: GameConfig, seat: int) -> None:
        super().__init__(config)
        if type(seat) is not int or not 0 <= seat < config.players:
            raise ValueError(f"there is no seat {seat!r}")
        self.seat = seat
        self._own_dealt: tuple[int, ...] = ()
        self._given: int | None = None  # the card it passed at the pass in progress
        self._waiting = False  # a pass is complete and its card not received yet

    def start_round(  # type: ignore[override]
        self, turned_card: int, werewolf_holder: int | None, dealt: Sequence[int]
    ) -> list[Event]:
        """The deal is done: ``dealt`` is this seat's hand (deal order)."""
        cards = tuple(dealt)
        if any(type(c) is not int or c not in self._deck_set for c in cards):
            raise IllegalAction(Reason.NOT_A_CARD, "a hand of cards of this game")
        if len(set(cards)) != len(cards) or turned_card in cards:
            raise IllegalAction(Reason.BAD_DECK, "a card dealt twice")
        if (Special.WEREWOLF in cards) != (werewolf_holder == self.seat):
            raise IllegalAction(Reason.NOT_A_CARD, "the Werewolf's holder shows it")
        r = self.full.round  # the round before this one
        if r < self.num_rounds and is_forehead_round(self.config.rules, self._sizes[r]):
            raise IllegalAction(Reason.WRONG_PHASE, "a forehead round: the seat sees no card")
        if r < self.num_rounds and len(cards) != self._sizes[r]:
            raise IllegalAction(Reason.BAD_DECK, "not the round's number of cards")
        events = super().start_round(turned_card, werewolf_holder)
        held = list(cards)
        if werewolf_holder == self.seat:  # as the engine deals: the turned card in its place
            held[held.index(Special.WEREWOLF)] = turned_card
        self._own_dealt = cards
        self._dealt = [cards if s == self.seat else () for s in range(self.players)]
        self._held = [held if s == self.seat else [] for s in range(self.players)]
        self._given = None
        self._waiting = False
        return events

    def apply(self, action: Action) -> list[Event]:
        if self._waiting:
            raise IllegalAction(Reason.WRONG_PHASE, "waiting for the card passed to this seat")
        return super().apply(action)

    # ----------------------------------------------------------------- its own actions

    def _play(self, seat: int, card: int, events: list[Event] | None = None) -> None:
        if seat != self.seat:
            if card in self._held[self.seat]:
                raise IllegalAction(Reason.CARD_NOT_IN_HAND, "this seat holds that card")
            super()._play(seat, card, events)
            return
        self._check_turn(Phase.PLAY, seat)
        self._check_hidden_card(card)
        super(HiddenSpecialGame, self)._play(seat, card, events)  # the engine: held, follow suit
        self._on_table.add(card)

    def _pass_card(self, seat: int, card: int, events: list[Event] | None) -> None:
        if seat != self.seat:
            super()._pass_card(seat, card, events)
            return
        self._check_turn(Phase.PASS, seat)
        self._given = self._check_held(seat, card)  # (before: the pass may complete now)
        super()._pass_card(seat, HIDDEN_CARD, events)

    def _pass_done(self) -> None:
        assert self._given is not None
        self._held[self.seat].remove(self._given)  # gone left; its card comes from the right
        self._waiting = True

    def received(self, card: int) -> None:
        """The card passed to this seat at the pass just completed (its gift, opened)."""
        if not self._waiting or self._given is None:
            raise IllegalAction(Reason.WRONG_PHASE, "no pass is waiting for its card")
        if type(card) is not int or card not in self._deck_set or card in self._on_table:
            raise IllegalAction(Reason.NOT_A_CARD, f"not a card that can be passed: {card!r}")
        if card in self._held[self.seat]:
            raise IllegalAction(Reason.CARD_NOT_IN_HAND, "this seat holds that card already")
        self._held[self.seat].append(card)
        self._last_pass[self.seat] = (self._given, card)
        self._given = None
        self._waiting = False

    @property
    def waiting_for_pass(self) -> bool:
        """A pass is complete and this seat's card from it not received yet."""
        return self._waiting

    def _swap(
        self, seat: int, give: int | None, take: int | None, events: list[Event] | None
    ) -> None:
        held = self._held[self.seat]
        if seat != self.seat:
            if give is not None and give in held:
                raise IllegalAction(Reason.CARD_NOT_IN_HAND, "this seat holds that card")
            super()._swap(seat, give, take, events)
            return
        if give is not None:
            self._check_turn(Phase.SWAP, seat)
            self._check_held(seat, give)
        super()._swap(seat, give, take, events)
        if give is not None and take is not None:
            held[held.index(give)] = take

    # The pass completes with another seat's choice: this seat's card leaves then.
    def _effect_done(self, events: list[Event] | None) -> None:
        if self._given is not None and not self._waiting and self.phase is Phase.PASS:
            self._pass_done()
        super()._effect_done(events)

    # ----------------------------------------------------------------- its own queries

    def hand(self, seat: int) -> tuple[int, ...]:
        return tuple(sorted(self._held[seat])) if seat == self.seat else ()

    def held_cards(self, seat: int) -> tuple[int, ...]:
        return tuple(self._held[seat]) if seat == self.seat else ()

    def dealt_hand(self, seat: int) -> tuple[int, ...]:
        return self._own_dealt if seat == self.seat else ()

    def last_pass(self, seat: int) -> tuple[int, int] | None:
        return self._last_pass[seat] if seat == self.seat else None

    def legal_plays(self) -> tuple[int, ...]:
        if self.turn != self.seat:
            return ()
        return SpecialGame.legal_plays(self)

    def legal_actions(self) -> list[Action]:
        if self.turn == self.seat and not self._waiting:
            return SpecialGame.legal_actions(self)
        return super().legal_actions()

    def _adopt(self, game: Game) -> None:
        super()._adopt(game)
        self._own_dealt = ()
        self._given = None
        self._waiting = False


__all__ = ["SeatSpecialGame"]
