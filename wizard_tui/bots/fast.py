"""The bots' fast core: card-play policy and whole-round playouts on bitmasks.

Hands are ints (bit ``c`` = card ``c``) and the trick rules come from lookup tables
built once from the engine's ``BEATS``, so a playout allocates almost nothing per
card. The same ``pick`` policy plays for the ``normal`` bot and for every seat in the
``hard`` bot's simulations; it uses only what its seat could know (its hand, the
cards out of play, the trick so far), never the other hands it is simulated against.
"""

from __future__ import annotations

from ..game import LED_OPEN, LED_WIZARD, cards_of
from ..game.engine import BEATS, SPECIAL_MASK, SUIT_MASKS

FULL_MASK = (1 << 60) - 1


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
) -> int:
    """The card to play.

    ``led``/``win``: the trick so far (``win`` = the winning card, -1 when leading);
    ``n_after``: players still to play after this one; ``need``: bid minus tricks won;
    ``left``: tricks left including this one; ``unseen``: cards this seat has not seen;
    ``t1``: trump + 1.
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
            return min(cards_of(legal), key=pw.__getitem__)  # dump the least useful card
        cs = sorted(cards_of(winners), key=pw.__getitem__)
        if n_after == 0:
            return cs[0]
        best = cs[-1]
        best_p = 0.0
        for c in cs:
            p = _win_chance(c, beat, unseen, n_unseen, held)
            if p >= FOLLOW_SURE:
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
