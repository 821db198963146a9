"""Cards whose effect on the trick in progress is certain, whatever the unseen cards are.

A card that does not beat the card winning the trick can never take it (later cards only
raise the winner); a card that beats it, with no unseen card able to beat it in turn (or
nobody left to play), takes it for sure. ``hard`` uses these to never take an overtrick,
or lose a trick it needs, when a legal card avoids that for certain.
"""

from __future__ import annotations

from ..game.engine import JESTER_MASK
from .fast import BEAT_MASK


def sure_losers(legal: int, win: int, n_after: int, unseen: int, t1: int) -> int:
    """The legal cards that lose the trick in progress for certain.

    ``win``: the card winning the trick so far, -1 when leading; ``n_after``: players still
    to play after this one. Leading, only a Jester can be sure to lose: when fewer Jesters
    are unseen than players to come, someone plays a card that is not a Jester and takes it.
    """
    if win >= 0:
        return legal & ~BEAT_MASK[t1][win]
    jesters = legal & JESTER_MASK
    if jesters and n_after and (unseen & JESTER_MASK).bit_count() < n_after:
        return jesters
    return 0


def sure_winners(legal: int, win: int, n_after: int, unseen: int, t1: int) -> int:
    """The legal cards that take the trick in progress for certain."""
    beat = BEAT_MASK[t1]
    takers = legal & beat[win]  # beat[-1] is every card: leading, any card holds the trick
    if n_after == 0:
        return takers
    out = 0
    m = takers
    while m:
        low = m & -m
        card = low.bit_length() - 1
        if not unseen & beat[card]:
            out |= low
        m ^= low
    return out
