"""Commit-reveal (docs/fairness.md): every seat commits to a seed, the seeds are revealed, and
the host computes every hand from them; nobody can stack the deck, the host sees every hand."""

from ..kind import DealKind
from .host import CommitRevealHost
from .seat import CommitRevealSeat

KIND = DealKind(
    name="commit-reveal",
    summary="fair shuffle everyone checks; the host's program sees every hand",
    host=CommitRevealHost,
    seat=CommitRevealSeat,
    forehead=True,  # the host knows every hand: it shows each seat the others' cards
    specials=True,
    moves=True,  # ... and moves the cards a Werewolf, a Juggler or a Witch moves
    forehead_specials=True,  # ... in the forehead round too
)
