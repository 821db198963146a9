"""One decision of a seat's, as a key: an intent answers it once.

A seat may have more than one decider in one program: the player (or a headless bot) and,
while the seat is away in a private deal, the program's own away player (``away_player.py``).
Each decides from the views it was shown, which can lag behind the latest one. The session
(``client.py``) sends at most one intent for each decision the latest view asks for, and
deciders skip a decision they answered; both tell decisions apart by this key.
"""

from __future__ import annotations

from ..game import SeatView


def decision_key(view: SeatView, voided_attempts: int) -> tuple[object, ...]:
    """The decision ``view`` is at: its round, phase, bids so far and cards played so far,
    and the voided deals before it (a new attempt of a round asks the same decisions
    again)."""
    return (view.round, view.phase, view.bids, len(view.tricks), len(view.trick), voided_attempts)


__all__ = ["decision_key"]
