"""Deal the cards a seat has not seen into the other hands, consistently with what it saw.

A sample gives every other seat exactly as many cards as it holds, never a card
already out of play or in our hand, and never a card of a suit that seat has shown
it is void in. Cards nobody holds (the undealt rest of the deck) are a sink with no
constraint. Cards are placed most-constrained first, each in a seat chosen in
proportion to its free places, which is uniform when nothing is known and close to
it otherwise; a dead end (rare, only with several voids) restarts, and after a few
restarts an exact flow-based assignment guarantees an answer.
"""

from __future__ import annotations

import random

from ..game import cards_of
from .knowledge import Knowledge

_RESTARTS = 20


def sample_hands(k: Knowledge, rng: random.Random) -> list[int]:
    """Hands for every seat: ours as it is, the others drawn from ``k.unseen``."""
    n = k.players
    others = [s for s in range(n) if s != k.seat]
    pool = list(cards_of(k.unseen))
    caps = [k.counts[s] for s in others]
    sink = len(pool) - sum(caps)
    if sink < 0:
        raise ValueError("the other seats hold more cards than are unseen")
    if not any(k.voids[s] for s in others):
        return _unconstrained(k, others, pool, caps, rng)
    for _ in range(_RESTARTS):
        hands = _try_constrained(k, others, pool, caps, sink, rng)
        if hands is not None:
            return hands
    return _by_flow(k, others, pool, caps, sink, rng)


def _unconstrained(
    k: Knowledge, others: list[int], pool: list[int], caps: list[int], rng: random.Random
) -> list[int]:
    rng.shuffle(pool)
    hands = [0] * k.players
    hands[k.seat] = k.hand
    i = 0
    for seat, cap in zip(others, caps, strict=True):
        m = 0
        for c in pool[i : i + cap]:
            m |= 1 << c
        hands[seat] = m
        i += cap
    return hands


def _allowed(k: Knowledge, others: list[int], card: int) -> list[int]:
    """Indexes into ``others`` that may hold ``card``, plus ``len(others)`` for the sink."""
    if card >= 52:
        return [*range(len(others)), len(others)]
    bit = 1 << (card // 13)
    return [i for i, s in enumerate(others) if not k.voids[s] & bit] + [len(others)]


def _try_constrained(
    k: Knowledge,
    others: list[int],
    pool: list[int],
    caps: list[int],
    sink: int,
    rng: random.Random,
) -> list[int] | None:
    rng.shuffle(pool)
    options = [(c, _allowed(k, others, c)) for c in pool]
    options.sort(key=lambda co: len(co[1]))  # most constrained first; stable keeps it random
    free = [*caps, sink]
    masks = [0] * len(others)
    sink_index = len(others)
    for card, allowed in options:
        total = 0
        for i in allowed:
            total += free[i]
        if total == 0:
            return None
        x = rng.randrange(total)
        for i in allowed:
            x -= free[i]
            if x < 0:
                break
        free[i] -= 1
        if i != sink_index:
            masks[i] |= 1 << card
    hands = [0] * k.players
    hands[k.seat] = k.hand
    for i, seat in enumerate(others):
        hands[seat] = masks[i]
    return hands


def _by_flow(
    k: Knowledge,
    others: list[int],
    pool: list[int],
    caps: list[int],
    sink: int,
    rng: random.Random,
) -> list[int]:
    """An exact assignment: a max flow from card groups (four suits, specials) to seats."""
    groups: list[list[int]] = [[] for _ in range(5)]
    for c in pool:
        groups[4 if c >= 52 else c // 13].append(c)
    seats = [*caps, sink]
    m = len(seats)
    allowed = [
        [i for i in range(m) if i == m - 1 or g == 4 or not k.voids[others[i]] & (1 << g)]
        for g in range(5)
    ]
    # flow[g][i]: how many cards of group g go to seat index i.
    flow = [[0] * m for _ in range(5)]
    left_g = [len(g) for g in groups]
    left_s = list(seats)

    def augment(g: int, seen: set[int]) -> bool:
        # Find a seat with room for one more card of group g, moving other groups' cards along.
        order = allowed[g][:]
        rng.shuffle(order)
        for i in order:
            if i in seen:
                continue
            seen.add(i)
            if left_s[i] > 0:
                left_s[i] -= 1
                flow[g][i] += 1
                return True
            for h in range(5):
                if flow[h][i] > 0 and h != g:
                    # Move one card of group h from seat i elsewhere, then take its place.
                    flow[h][i] -= 1
                    if augment(h, seen):
                        flow[g][i] += 1
                        return True
                    flow[h][i] += 1
        return False

    for g in range(5):
        while left_g[g]:
            if not augment(g, set()):
                raise ValueError("no deal is consistent with the voids observed")
            left_g[g] -= 1
    hands = [0] * k.players
    hands[k.seat] = k.hand
    for g in range(5):
        cards = groups[g]
        rng.shuffle(cards)
        j = 0
        for i in range(m - 1):
            for c in cards[j : j + flow[g][i]]:
                hands[others[i]] |= 1 << c
            j += flow[g][i]
    return hands
