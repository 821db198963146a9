"""One decision of a seat's, as a key: an intent answers it once.

A seat may have more than one decider in one program: the player (or a headless bot) and,
while the seat is away in a private deal, the program's own away player (``away_player.py``).
Each decides from the views it was shown, which can lag behind the latest one. The session
(``client.py``) sends at most one intent for each decision the latest view asks for, and
deciders skip a decision they answered; both tell decisions apart by this key.

Here too: the phases in which a seat decides, and the first legal move of a view (what a
bot that failed, or a stand-in with no answer for a phase, does so the table moves on).
"""

from __future__ import annotations

from ..game import Bid, ChooseTrump, Phase, Play, PlayerAction, SeatView, Suit
from ..game.actions import AdjustBid, Declare, NameTrump, PassCard, SwapCard
from ..game.codec import NO_TRUMP_WIRE

# The special cards' decisions (docs/rules.md, "Special cards").
SPECIAL_PHASES = (Phase.NAME_TRUMP, Phase.DECLARE, Phase.ADJUST_BID, Phase.PASS, Phase.SWAP)
# Every phase in which the seat on turn decides something.
DECIDING_PHASES = (Phase.CHOOSE_TRUMP, Phase.BID, Phase.PLAY, *SPECIAL_PHASES)


def decision_key(view: SeatView, voided_attempts: int) -> tuple[object, ...]:
    """The decision ``view`` is at: its round, phase, bids so far and cards played so far,
    and the voided deals before it (a new attempt of a round asks the same decisions
    again); with special cards also the seat's latest pass (two Jugglers' passes after one
    trick are two decisions: the first one's cards tell them apart)."""
    return (
        view.round,
        view.phase,
        view.bids,
        len(view.tricks),
        len(view.trick),
        voided_attempts,
        view.last_pass,
    )


def first_legal_move(view: SeatView) -> PlayerAction:
    """The first legal move of ``view`` (a bot that failed still moves the game on)."""
    seat, phase = view.seat, view.phase
    if phase is Phase.PLAY and view.legal_cards:
        return Play(seat, view.legal_cards[0])
    if phase is Phase.BID and view.legal_bids:
        return Bid(seat, view.legal_bids[0])
    if phase is Phase.CHOOSE_TRUMP:
        return ChooseTrump(seat, Suit.CLUBS)
    if phase is Phase.PASS and view.legal_cards:
        return PassCard(seat, view.legal_cards[0])
    if phase is Phase.SWAP:
        return SwapCard(seat, None, None)  # keeping the hand is always allowed
    if view.legal_choices:
        choice = view.legal_choices[0]
        if phase is Phase.NAME_TRUMP:
            return NameTrump(seat, None if choice == NO_TRUMP_WIRE else Suit(choice))
        if phase is Phase.DECLARE:
            return Declare(seat, choice)
        if phase is Phase.ADJUST_BID:
            return AdjustBid(seat, choice)
    raise ValueError(f"seat {seat} has no legal move in phase {phase}")


__all__ = ["DECIDING_PHASES", "SPECIAL_PHASES", "decision_key", "first_legal_move"]
