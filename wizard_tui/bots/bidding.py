"""Hand evaluation for bids: per-card trick chances, the trick-count distribution, EV bids.

Each card of a hand gets a chance of taking a trick from a table indexed by the
number of players, the round size and the card's class (Wizard, Jester, trump or
plain card by *effective* rank: its rank raised by the higher cards of its suit this
seat knows are not against it). The table (``_tables.py``) was measured by
``benchmarks/bots.py calibrate`` from simulated rounds; until it exists for a table
size, a Schumacher-style estimate stands in. Treating the cards as independent gives
a trick-count distribution, and the bid is the one with the best expected score.
"""

from __future__ import annotations

from functools import cache

from ..game import cards_of
from ..game.engine import BEATS, SUIT_MASKS
from ..game.rules import score
from .beat_masks import BEAT_MASK

N_CLASSES = 41
WIZARD_CLASS = 0
JESTER_CLASS = 1


def card_class(card: int, hand: int, trump: int, trump_card: int | None) -> int:
    """0 Wizard, 1 Jester, 2..14 trump, 15..27 plain (a trump exists), 28..40 no-trump round."""
    if card >= 56:
        return JESTER_CLASS
    if card >= 52:
        return WIZARD_CLASS
    suit = card // 13
    above = SUIT_MASKS[suit] & ~((2 << card) - 1)  # same suit, higher rank
    known = hand
    if trump_card is not None:
        known |= 1 << trump_card
    eff = min(13, card % 13 + 1 + (known & above).bit_count())
    if trump < 0:
        return 27 + eff
    if suit == trump:
        return 1 + eff
    return 14 + eff


def _prior(players: int, round_size: int) -> tuple[float, ...]:
    """Schumacher's estimate: P(beat one random card) ** (players - 1), scaled to r/n a hand."""

    def beats_one(card: int, trump: int) -> float:
        table = BEATS[trump + 1]
        wins = 0
        for other in range(60):
            if other == card:
                continue
            wins += table[card * 60 + other] == 0  # leading: the other does not beat us
            wins += table[other * 60 + card] == 1  # following: we beat the other
        return wins / (2 * 59)

    def cls_p(trump: int, card: int) -> float:
        return beats_one(card, trump) ** (players - 1)

    out = [0.0] * N_CLASSES
    out[WIZARD_CLASS] = cls_p(0, 52)
    out[JESTER_CLASS] = 0.0
    for rank in range(13):
        out[2 + rank] = cls_p(0, rank)  # trump clubs
        out[15 + rank] = cls_p(1, rank)  # clubs under diamonds
        out[28 + rank] = cls_p(-1, rank)
    # Normalise: a random hand of r cards should expect r / players tricks.
    deck = [cls_p(0, c) for c in range(60)]
    scale = 1.0 / players / (sum(deck) / 60)
    return tuple(min(1.0, p * scale) for p in out)


@cache
def class_chances(players: int, round_size: int) -> tuple[float, ...]:
    try:
        from ._tables import TRICK_CHANCE
    except ImportError:  # pragma: no cover - before the first calibration
        TRICK_CHANCE = {}
    table = TRICK_CHANCE.get((players, round_size))
    if table is not None:
        return table
    return _prior(players, round_size)


def trick_chances(
    hand: int, trump: int, trump_card: int | None, players: int, round_size: int
) -> list[float]:
    chances = class_chances(players, round_size)
    return [chances[card_class(c, hand, trump, trump_card)] for c in cards_of(hand)]


def expected_tricks(
    hand: int, trump: int, trump_card: int | None, players: int, round_size: int
) -> float:
    chances = class_chances(players, round_size)
    return sum(chances[card_class(c, hand, trump, trump_card)] for c in cards_of(hand))


def lead_chance(card: int, trump: int, unseen: int, players: int) -> float:
    """The exact chance that ``card``, led in a round of one card, takes the trick.

    The other players' single cards are ``players - 1`` draws without replacement from the
    ``unseen`` cards, and each must be played; the lead holds unless one of them beats it
    (a later beater of a beater still leaves the lead beaten).
    """
    total = unseen.bit_count()
    safe = total - (unseen & BEAT_MASK[trump + 1][card]).bit_count()
    p = 1.0
    for i in range(players - 1):
        if total - i <= 0:
            break
        p *= max(0, safe - i) / (total - i)
    return p


def distribution(chances: list[float]) -> list[float]:
    """P(k tricks) for k = 0..len(chances), the cards taken as independent."""
    dist = [1.0]
    for p in chances:
        q = 1.0 - p
        nxt = [0.0] * (len(dist) + 1)
        for k, v in enumerate(dist):
            nxt[k] += v * q
            nxt[k + 1] += v * p
        dist = nxt
    return dist


def expected_score(dist: list[float], bid: int) -> float:
    return sum(p * score(bid, k) for k, p in enumerate(dist))


def best_bid(dist: list[float], legal: tuple[int, ...] | list[int]) -> int:
    """The legal bid with the best expected score; ties go to the bid nearest the mean."""
    mean = sum(k * p for k, p in enumerate(dist))
    return max(legal, key=lambda b: (round(expected_score(dist, b), 9), -abs(b - mean)))


def sure_tricks(hand: int, trump: int, out: int) -> int:
    """Tricks this hand takes whatever happens: its Wizards, and its unbroken run of top
    trumps when the other Wizards are out of play."""
    wizards = (hand >> 52 & 0xF).bit_count()
    if trump < 0 or (out >> 52 & 0xF).bit_count() + wizards < 4:
        return wizards
    run = 0
    for card in range(trump * 13 + 12, trump * 13 - 1, -1):
        if hand >> card & 1:
            run += 1
        elif not out >> card & 1:
            break
    return wizards + run


def quick_bid(
    hand: int,
    trump: int,
    trump_card: int | None,
    players: int,
    round_size: int,
    forbidden: int | None,
    scale: float = 1.0,
) -> int:
    """A cheap bid for simulated opponents: the rounded expectation (times ``scale``, how
    that player's bids compare with its hands' worth), off the forbidden bid."""
    e = scale * expected_tricks(hand, trump, trump_card, players, round_size)
    b = int(e + 0.5)
    if b == forbidden:
        up = b < round_size and (e >= b or b == 0)
        b = b + 1 if up else b - 1
    return b
