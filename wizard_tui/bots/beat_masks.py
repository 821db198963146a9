"""Bitmask forms of the engine's ``BEATS`` table, shared by the bots.

A module of its own, importing nothing of the bots, so that both ``fast`` and
``bidding`` (which ``fast`` imports) can use the masks without an import cycle.
"""

from __future__ import annotations

from ..game.engine import BEATS

FULL_MASK = (1 << 60) - 1
PLAIN_MASK = (1 << 52) - 1


def _beat_row(trump: int) -> tuple[int, ...]:
    table = BEATS[trump + 1]
    row = []
    for win in range(60):
        m = 0
        for card in range(60):
            if table[win * 60 + card]:
                m |= 1 << card
        row.append(m)
    row.append(FULL_MASK)  # index 60, also reached as -1 ("no card yet"): any card takes it
    return tuple(row)


# BEAT_MASK[trump + 1][win]: the cards that would take the trick from ``win``.
BEAT_MASK: tuple[tuple[int, ...], ...] = tuple(_beat_row(t) for t in range(-1, 4))
