"""What one seat can infer from its ``SeatView``: cards still unseen, who holds how many, voids.

Everything here is computed from the view alone (the public record of the round plus
this seat's own hand), so the bots that use it cannot know more than a person in
the same seat.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..game import LED_OPEN, LED_WIZARD, SeatView, mask_of
from ..game.cards import FIRST_JESTER, FIRST_WIZARD, RANKS_PER_SUIT

FULL_MASK = (1 << 60) - 1


@dataclass(frozen=True, slots=True)
class Knowledge:
    seat: int
    players: int
    hand_size: int  # cards dealt to each player this round (the game's length decides)
    trump: int  # 0..3, or -1 for no trump
    hand: int  # this seat's cards, as a mask
    played: int  # cards played face up this round (completed tricks and the trick in progress)
    out: int  # cards known not to be in anyone's hand: played, plus the turned-up trump card
    unseen: int  # cards this seat has not seen: in other hands or undealt
    counts: tuple[int, ...]  # cards each seat holds now
    voids: tuple[int, ...]  # per seat, a 4-bit mask of the suits it has shown it cannot follow
    trick_cards: tuple[int, ...]  # the trick in progress, in play order
    trick_leader: int
    led: int  # LED_OPEN, LED_WIZARD or a suit
    win_card: int  # the card winning the trick in progress, -1 before the lead
    win_seat: int
    tricks_left: int  # including the trick in progress


def trick_led(cards: tuple[int, ...] | list[int]) -> int:
    """The led-suit marker after these cards: the first non-Jester sets it."""
    for card in cards:
        if card < FIRST_JESTER:
            return card // RANKS_PER_SUIT if card < FIRST_WIZARD else LED_WIZARD
    return LED_OPEN


def read_view(view: SeatView) -> Knowledge:
    """Gather what ``view.seat`` knows, in the bitmask form the bots compute with."""
    n = view.players
    hand = mask_of(view.hand)
    trump = int(view.trump_suit) if view.trump_suit is not None else -1
    played_counts = [0] * n
    voids = [0] * n
    played = 0
    sequences = [t.plays for t in view.tricks]
    sequences.append(view.trick)
    for plays in sequences:
        led = LED_OPEN
        for seat, card in plays:
            played |= 1 << card
            played_counts[seat] += 1
            if card < FIRST_WIZARD:
                suit = card // RANKS_PER_SUIT
                if led >= 0 and suit != led:
                    voids[seat] |= 1 << led  # did not follow with a plain card: void in led
                if led == LED_OPEN:
                    led = suit
            elif card < FIRST_JESTER and led == LED_OPEN:
                led = LED_WIZARD
    out = played
    if view.trump_card is not None:
        out |= 1 << view.trump_card
    unseen = FULL_MASK & ~out & ~hand
    counts = tuple(view.hand_size - played_counts[s] for s in range(n))
    trick_cards = tuple(card for _, card in view.trick)
    win_card = -1
    win_seat = -1
    if view.trick:
        win_seat = view.trick_winner if view.trick_winner is not None else -1
        for seat, card in view.trick:
            if seat == win_seat:
                win_card = card
    return Knowledge(
        seat=view.seat,
        players=n,
        hand_size=view.hand_size,
        trump=trump,
        hand=hand,
        played=played,
        out=out,
        unseen=unseen,
        counts=counts,
        voids=tuple(voids),
        trick_cards=trick_cards,
        trick_leader=view.trick_leader,
        led=trick_led(trick_cards),
        win_card=win_card,
        win_seat=win_seat,
        tricks_left=view.hand_size - len(view.tricks),
    )
