"""What a bot is: something that turns one seat's view into that seat's next action.

A bot is handed a ``SeatView``, a frozen snapshot holding only what its seat may
see; it never receives the ``Game``, so it cannot reach another seat's cards.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod

from ..game import BLIND_CARD, Bid, ChooseTrump, Phase, Play, SeatView, Suit
from . import forehead

SeatAction = ChooseTrump | Bid | Play


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
