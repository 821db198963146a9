"""What a bot is: something that turns one seat's view into that seat's next action.

A bot is handed a ``SeatView``, a frozen snapshot holding only what its seat may
see; it never receives the ``Game``, so it cannot reach another seat's cards.

A game with special cards (``view.rules.specials``) asks for more kinds of decision
(docs/rules.md, "Special cards"); each has a method below, and a bot's plain game goes
exactly the way it always did: the special path is taken only when the table plays them.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from ..game import BLIND_CARD, Bid, ChooseTrump, Phase, Play, SeatView, Suit
from ..game.actions import AdjustBid, Declare, NameTrump, PassCard, SwapCard
from . import forehead, special_forehead, special_play

SeatAction = ChooseTrump | Bid | Play | NameTrump | Declare | AdjustBid | PassCard | SwapCard

_FOREHEAD_PHASES = (Phase.CHOOSE_TRUMP, Phase.BID, Phase.PLAY)


class Bot(ABC):
    level: str = "?"
    # True for bots whose decisions take long enough to run in a worker process
    # (``bots.runner``); they must pickle.
    offload: bool = False

    def __init__(self, rng: random.Random | None = None) -> None:
        self.rng = rng or random.Random()

    def decide(self, view: SeatView) -> SeatAction:
        """The action for ``view.seat``, which must be on turn."""
        if view.turn != view.seat:
            raise ValueError(f"seat {view.seat} is not on turn")
        if view.rules.specials:
            return self._decide_special(view)
        if view.forehead:  # its own card unseen: docs/rules.md, "The forehead round"
            return self._decide_forehead(view)
        if view.phase is Phase.CHOOSE_TRUMP:
            return ChooseTrump(view.seat, Suit(self.choose_trump(view)))
        if view.phase is Phase.BID:
            return Bid(view.seat, self.choose_bid(view))
        if view.phase is Phase.PLAY:
            return Play(view.seat, self.choose_card(view))
        raise ValueError(f"nothing to decide in phase {view.phase}")

    def _decide_forehead(self, view: SeatView) -> SeatAction:
        if view.phase is Phase.CHOOSE_TRUMP:
            return ChooseTrump(view.seat, Suit(forehead.choose_trump(view)))
        if view.phase is Phase.BID:
            return Bid(view.seat, self.forehead_bid(view))
        if view.phase is Phase.PLAY:
            return Play(view.seat, BLIND_CARD)  # the one legal move: play your card
        raise ValueError(f"nothing to decide in phase {view.phase}")

    def _decide_special(self, view: SeatView) -> SeatAction:
        seat, phase = view.seat, view.phase
        if view.forehead and phase in _FOREHEAD_PHASES:
            if phase is Phase.CHOOSE_TRUMP:
                return ChooseTrump(seat, Suit(special_forehead.choose_trump(view)))
            if phase is Phase.BID:
                return Bid(seat, self.special_forehead_bid(view))
            return Play(seat, BLIND_CARD)
        if phase is Phase.CHOOSE_TRUMP:
            return ChooseTrump(seat, Suit(self.special_trump(view)))
        if phase is Phase.BID:
            return Bid(seat, self.special_bid(view))
        if phase is Phase.PLAY:
            return Play(seat, self.special_card(view))
        if phase is Phase.NAME_TRUMP:
            suit = self.name_trump(view)
            return NameTrump(seat, None if suit < 0 else Suit(suit))
        if phase is Phase.DECLARE:
            return Declare(seat, self.declare(view))
        if phase is Phase.ADJUST_BID:
            return AdjustBid(seat, self.adjust_bid(view))
        if phase is Phase.PASS:
            return PassCard(seat, self.pass_card(view))
        if phase is Phase.SWAP:
            give, take = self.swap(view)
            return SwapCard(seat, give, take)
        raise ValueError(f"nothing to decide in phase {view.phase}")

    def forehead_bid(self, view: SeatView) -> int:
        """A forehead round's bid: 1 when winning the trick is likely enough for 1 to score
        more on average (``bots/forehead.py``)."""
        return forehead.bid_for(view, forehead.win_chance(view))

    @abstractmethod
    def choose_trump(self, view: SeatView) -> int: ...

    @abstractmethod
    def choose_bid(self, view: SeatView) -> int: ...

    @abstractmethod
    def choose_card(self, view: SeatView) -> int: ...

    # ------------------------------------------------ the special cards' decisions
    # ``normal``'s heuristics (``special_play``) unless a level plays them its own way.

    def special_trump(self, view: SeatView) -> int:
        """The suit a dealer names when the turned-up card asks for one."""
        return special_play.choose_trump(view)

    def special_bid(self, view: SeatView) -> int:
        return special_play.bid(view)

    def special_card(self, view: SeatView) -> int:
        return special_play.choose_card(view)

    def special_forehead_bid(self, view: SeatView) -> int:
        return forehead.bid_for(view, special_forehead.win_chance(view))

    def name_trump(self, view: SeatView) -> int:
        """The Werewolf's holder names trump: a suit 0..3, or -1 for no trump."""
        return special_play.name_trump(view)

    def declare(self, view: SeatView) -> int:
        """What the card just played is (a ``Declaration`` value of ``legal_choices``)."""
        return special_play.declare(view)

    def adjust_bid(self, view: SeatView) -> int:
        """The Cloud's taker: the new bid, one of ``legal_choices``."""
        return special_play.adjust_bid(view)

    def pass_card(self, view: SeatView) -> int:
        """The Juggler's pass: the card (of ``legal_cards``) given to the left."""
        return special_play.pass_card(view)

    def swap(self, view: SeatView) -> tuple[int | None, int | None]:
        """The Witch's swap: (give, take), or (None, None) to keep the hand."""
        return special_play.swap(view)
