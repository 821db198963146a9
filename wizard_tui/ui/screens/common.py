"""Small helpers the table and the overlay screens share (kept apart so the overlays, and
the widgets only they use, load when first opened)."""

from __future__ import annotations

from ...game import Phase, Trick
from ...session import TableUpdate
from ..widgets.scorepad import ScorePad


def scorepad_data(pad: ScorePad, update: TableUpdate | None, checks: dict[int, bool]) -> None:
    """Hand the score pad what it draws, from the latest table update."""
    if update is None:
        return
    view = update.view
    pad.names = tuple(s.name for s in update.seats)
    pad.history = view.history
    pad.sizes = view.rules.round_sizes(view.players)
    playing = view.phase in (Phase.CHOOSE_TRUMP, Phase.BID, Phase.PLAY) and view.round > 0
    pad.current = (view.round, view.bids, view.tricks_won) if playing else None
    pad.checks = checks


def last_trick(update: TableUpdate) -> tuple[int, Trick] | None:
    """The most recent completed trick and its number: this round's, else the last round's."""
    view = update.view
    if view.tricks:
        return len(view.tricks), view.tricks[-1]
    if view.history and view.history[-1].tricks:
        return len(view.history[-1].tricks), view.history[-1].tricks[-1]
    return None
