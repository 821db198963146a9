"""The bots' fast core: card-play policy and whole-round playouts on bitmasks.

Hands are ints (bit ``c`` = card ``c``) and the trick rules come from lookup tables
built once from the engine's ``BEATS``, so a playout allocates almost nothing per
card. The same ``pick`` policy plays for the ``normal`` bot and for every seat in the
``hard`` bot's simulations; it uses only what its seat could know (its hand, the
cards out of play, the trick so far), never the other hands it is simulated against.
"""

from __future__ import annotations

from functools import cache

from ..game import LED_OPEN, LED_WIZARD, cards_of
from ..game.engine import SPECIAL_MASK, SUIT_MASKS
from .beat_masks import BEAT_MASK, FULL_MASK, PLAIN_MASK
from .bidding import JESTER_CLASS, WIZARD_CLASS, class_chances


def _power_row(trump: int) -> tuple[int, ...]:
    """A card's general strength: Jesters 0, plain suits 1..13, trumps 14..26, Wizards 27."""
    row = []
    for card in range(60):
        if card >= 56:
            row.append(0)
        elif card >= 52:
            row.append(27)
        elif card // 13 == trump:
            row.append(14 + card % 13)
        else:
            row.append(1 + card % 13)
    return tuple(row)


POWER: tuple[tuple[int, ...], ...] = tuple(_power_row(t) for t in range(-1, 4))

# Chances (from ``_win_chance``) at which the policy commits a card: following, the cheapest
# winner at least this likely to hold is played; failing that, the likeliest if at least
# FOLLOW_TRY; leading likewise with LEAD_SURE and LEAD_TRY.
FOLLOW_SURE = 0.8
FOLLOW_TRY = 0.0
LEAD_SURE = 0.75
LEAD_TRY = 0.0
# The chance model treats the later players' cards as free draws from the unseen cards;
# following suit makes many of them unable to beat us, so only this share counts.
HELD_SCALE = 1.0
JESTER_LEAD = 0.08  # want no tricks: lead a Jester rather than a card at least this likely to win

# ---------------------------------------------------------------------- play


def legal_mask(hand: int, led: int) -> int:
    if led >= 0:
        follow = hand & SUIT_MASKS[led]
        if follow:
            return follow | (hand & SPECIAL_MASK)
    return hand


def _win_chance(card: int, beat: tuple[int, ...], unseen: int, n_unseen: int, held: float) -> float:
    """Rough chance that none of the ``held`` unseen cards still to come beats ``card``."""
    if n_unseen <= 0:
        return 1.0
    b = (unseen & beat[card]).bit_count()
    if b == 0:
        return 1.0
    if b >= n_unseen:
        return 0.0
    chance: float = (1.0 - b / n_unseen) ** held  # a float: the base is never negative
    return chance


def pick(
    hand: int,
    led: int,
    win: int,
    n_after: int,
    need: int,
    left: int,
    unseen: int,
    t1: int,
    players: int,
) -> int:
    """The card to play.

    ``led``/``win``: the trick so far (``win`` = the winning card, -1 when leading);
    ``n_after``: players still to play after this one; ``need``: bid minus tricks won;
    ``left``: tricks left including this one; ``unseen``: cards this seat has not seen;
    ``t1``: trump + 1; ``players``: at the table.

    Needing tricks, it keeps a Wizard while some legal card loses, unless it is last to
    play and its hand is worth no more than it needs (or every trick left is needed): the
    Wizard takes any later trick as surely, and spent now it leaves the hand weaker for
    the tricks it still needs. Both rules, and ``_discard``'s, were chosen by
    ``benchmarks/pick_regret.py`` (docs/bots.md, "Against the rival: the playout
    policy").
    """
    legal = legal_mask(hand, led)
    if not legal & (legal - 1):
        return legal.bit_length() - 1
    beat = BEAT_MASK[t1]
    pw = POWER[t1]
    n_unseen = unseen.bit_count()
    held = n_after * left * HELD_SCALE  # cards in the hands of the players still to play
    if win < 0:
        return _lead(legal, need, left, beat, pw, unseen, n_unseen, held)
    threats = beat[win]
    winners = legal & threats
    if need > 0:
        if not winners:
            return _discard(legal, hand, need, left, t1, players, pw)
        cs = sorted(cards_of(winners), key=pw.__getitem__)
        losers = legal & ~threats
        keep_wizard = need < left and losers
        if n_after == 0:
            if cs[0] >= 52 and keep_wizard and _surplus(hand, need, left, t1, players) > 0:
                return _discard(losers, hand, need, left, t1, players, pw)
            return cs[0]
        best = cs[-1]
        best_p = 0.0
        for c in cs:
            p = _win_chance(c, beat, unseen, n_unseen, held)
            if p >= FOLLOW_SURE:
                if c >= 52 and keep_wizard:
                    return _discard(losers, hand, need, left, t1, players, pw)
                return c  # the cheapest card that probably holds
            if p > best_p:
                best, best_p = c, p
        if need >= left or best_p >= FOLLOW_TRY:
            return best
        return min(cards_of(legal), key=pw.__getitem__)
    losers = legal & ~threats
    if losers:
        return max(cards_of(losers), key=pw.__getitem__)  # shed the most dangerous safe card
    shed = cards_of(winners)
    if n_after == 0:
        return max(shed, key=pw.__getitem__)  # the trick is ours anyway: spend the worst card
    # Someone may still go over: offer the card most likely to be beaten.
    return min(shed, key=lambda c: _win_chance(c, beat, unseen, n_unseen, held) * 30 + pw[c])


def _surplus(hand: int, need: int, left: int, t1: int, players: int) -> float:
    """Tricks the hand is worth (``bidding.expected_tricks`` for a round of ``left`` cards,
    no trump card known) beyond the ``need`` still to take: a few table lookups, since a
    playout asks often."""
    wizard, jester, (s0, s1, s2, s3) = _worth_tables(players, left, t1)
    return (
        (hand >> 52 & 0xF).bit_count() * wizard
        + (hand >> 56).bit_count() * jester
        + s0[hand & 0x1FFF]
        + s1[hand >> 13 & 0x1FFF]
        + s2[hand >> 26 & 0x1FFF]
        + s3[hand >> 39 & 0x1FFF]
        - need
    )


@cache
def _worth_tables(
    players: int, left: int, t1: int
) -> tuple[float, float, tuple[tuple[float, ...], ...]]:
    """A Wizard's and a Jester's chance of a trick, and for each suit the tricks that every
    13-bit mask of its cards is worth, for ``players`` and a round of ``left`` cards."""
    chances = class_chances(players, left)
    kinds = [2 if t1 == 0 else (0 if suit == t1 - 1 else 1) for suit in range(4)]
    suits = tuple(_suit_worth(chances, k) for k in kinds)
    return chances[WIZARD_CLASS], chances[JESTER_CLASS], suits


def forget_tables() -> None:
    """Drop the hand-worth tables, after ``bidding``'s chances were re-measured."""
    _worth_tables.cache_clear()
    _suit_worth.cache_clear()


@cache
def _suit_worth(chances: tuple[float, ...], kind: int) -> tuple[float, ...]:
    """For every 13-bit mask of one suit's cards in a hand, the tricks they are worth:
    ``kind`` 0 the trump suit, 1 a plain suit beside a trump, 2 a suit of a no-trump round.
    A card's class is its rank raised by the higher cards of the mask (``card_class``)."""
    base = (1, 14, 27)[kind]  # card_class: 1 + eff trump, 14 + eff plain, 27 + eff no trump
    out = [0.0] * (1 << 13)
    for mask in range(1, 1 << 13):
        # The mask's lowest card has every other card of the mask above it.
        low = mask & -mask
        eff = min(13, low.bit_length() + mask.bit_count() - 1)
        out[mask] = out[mask ^ low] + chances[base + eff]
    return tuple(out)


def _discard(
    legal: int, hand: int, need: int, left: int, t1: int, players: int, pw: tuple[int, ...]
) -> int:
    """The card to give to a trick it cannot (or will not) take while it still needs tricks.

    A hand worth more than it needs sheds its strongest plain card, which could otherwise
    take a trick too many later; one that needs all it has keeps its strength and gives
    the lowest card of its longest side suit, keeping the short suits short (to trump
    them later) and its Jesters for when the bid is made."""
    plain = legal & PLAIN_MASK
    if plain and _surplus(hand, need, left, t1, players) > 0:
        return max(cards_of(plain), key=pw.__getitem__)
    best, best_key = -1, (0, 0)
    for suit in range(4):
        if suit == t1 - 1:
            continue
        m = legal & SUIT_MASKS[suit]
        if m:
            low = (m & -m).bit_length() - 1
            key = (-(hand & SUIT_MASKS[suit]).bit_count(), pw[low])
            if best < 0 or key < best_key:
                best, best_key = low, key
    if best >= 0:
        return best
    return min(cards_of(plain or legal), key=pw.__getitem__)


def _lead(
    legal: int,
    need: int,
    left: int,
    beat: tuple[int, ...],
    pw: tuple[int, ...],
    unseen: int,
    n_unseen: int,
    held: float,
) -> int:
    if need > 0:
        # Only the top card of each suit (and a Wizard) can be the best lead to win with.
        tops = []
        for m in (legal & 0x1FFF, legal & 0x3FFE000, legal & 0x7FFC000000, legal & 0xFFF8000000000):
            if m:
                tops.append(m.bit_length() - 1)
        wizards = legal >> 52 & 0xF
        if wizards:
            tops.append(52 + (wizards & -wizards).bit_length() - 1)
        if not tops:
            return legal.bit_length() - 1  # only Jesters
        chances = [(_win_chance(c, beat, unseen, n_unseen, held), c) for c in tops]
        if need >= left:
            # Every trick is needed: the surest card first (a Wizard, the boss trump, ...).
            return max(chances, key=lambda pc: (pc[0], pw[pc[1]]))[1]
        sure = [pc for pc in chances if pc[0] >= LEAD_SURE]
        if sure:
            # The cheapest card that probably wins, keeping Wizards for later.
            return min(sure, key=lambda pc: pw[pc[1]])[1]
        best = max(chances, key=lambda pc: (pc[0], -pw[pc[1]]))
        if best[0] >= LEAD_TRY:
            return best[1]
        # Nothing likely to win: give the lead away cheaply.
        return min(cards_of(legal), key=lambda c: (c >= 56, pw[c]))
    # Want no (more) tricks: lead the card least likely to win; keep Jesters for later.
    best_c = -1
    best_key = (2.0, 0)
    for m in (legal & 0x1FFF, legal & 0x3FFE000, legal & 0x7FFC000000, legal & 0xFFF8000000000):
        if m:
            c = (m & -m).bit_length() - 1
            key = (_win_chance(c, beat, unseen, n_unseen, held), -pw[c])
            if key < best_key:
                best_c, best_key = c, key
    if legal >> 56 & 0xF and best_key[0] > JESTER_LEAD:
        return 56 + ((legal >> 56) & -(legal >> 56)).bit_length() - 1
    if best_c < 0:
        return 52 + ((legal >> 52) & -(legal >> 52)).bit_length() - 1  # only Wizards (and Jesters)
    return best_c


# ------------------------------------------------------------------- playouts


def play_out(
    hands: list[int],
    t1: int,
    avail: int,
    leader: int,
    cards_in_trick: int,
    led: int,
    win: int,
    win_seat: int,
    bids: list[int],
    won: list[int],
    left: int,
) -> None:
    """Play the round to its end with ``pick`` for every seat; updates ``hands`` and ``won``.

    ``avail``: the cards not yet out of play (every hand plus the undealt cards);
    the trick in progress is described by ``leader``, ``cards_in_trick``, ``led``,
    ``win`` (-1 when none) and ``win_seat``; ``left`` counts it among the tricks left.
    """
    n = len(hands)
    beat = BEAT_MASK[t1]
    seat = (leader + cards_in_trick) % n
    while left:
        hand = hands[seat]
        card = pick(
            hand,
            led,
            win,
            n - 1 - cards_in_trick,
            bids[seat] - won[seat],
            left,
            avail & ~hand,
            t1,
            n,
        )
        bit = 1 << card
        hands[seat] = hand ^ bit
        avail ^= bit
        if win < 0 or beat[win] & bit:
            win = card
            win_seat = seat
        if led == LED_OPEN and card < 56:
            led = card // 13 if card < 52 else LED_WIZARD
        cards_in_trick += 1
        if cards_in_trick == n:
            won[win_seat] += 1
            left -= 1
            seat = win_seat
            cards_in_trick = 0
            led = LED_OPEN
            win = -1
        else:
            seat = seat + 1 if seat + 1 < n else 0


__all__ = [
    "BEAT_MASK",
    "FULL_MASK",
    "POWER",
    "legal_mask",
    "pick",
    "play_out",
]
