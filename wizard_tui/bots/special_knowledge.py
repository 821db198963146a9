"""What one seat knows in a game with special cards, read from its ``SeatView`` alone.

The deck is ``deck_cards(rules.specials)``, not the 60; a card is unseen when it is not in
this seat's hand, not played face up, and not the card on the table in the trump card's
place. Cards move between hands in such a game (the Juggler's pass, the Witch's swap, the
Werewolf taking the turned card), so:

- a void (a seat that played a plain card of another suit than the led one) holds only
  until the next pass or swap, which may bring that seat a card of the suit;
- the card this seat passed at the latest pass is known to be in its left neighbour's
  hand until that neighbour plays it (``pinned``).
"""

from __future__ import annotations

from dataclasses import dataclass

from ..game import SeatView
from ..game.cards import FIRST_WIZARD, RANKS_PER_SUIT
from ..game.specials import Special, deck_cards
from . import special_model as model


def mask(cards: object) -> int:
    m = 0
    for c in cards:  # type: ignore[attr-defined]
        m |= 1 << c
    return m


def bits(m: int) -> list[int]:
    out = []
    while m:
        low = m & -m
        out.append(low.bit_length() - 1)
        m ^= low
    return out


@dataclass(frozen=True, slots=True)
class SpecialKnowledge:
    seat: int
    players: int
    hand_size: int
    trump: int  # 0..3, -1 for no trump
    turned: int | None  # the card turned up at the deal (the Vampire copies it)
    hand: int  # mask of this seat's cards
    deck: int  # mask of every card of this table's deck
    played: int  # cards face up in this round's tricks
    unseen: int  # cards in other hands or undealt, as far as this seat knows
    counts: tuple[int, ...]  # cards each seat holds now
    voids: tuple[int, ...]  # per seat, suits it cannot have since the latest pass or swap
    pinned: tuple[int, ...]  # per seat, unseen cards known to be in that hand
    trick_seats: tuple[int, ...]  # the trick in progress
    trick_cards: tuple[int, ...]
    trick_forms: tuple[int, ...]  # each card as what it is in the trick
    tricks_left: int  # including the trick in progress
    bid: int  # this seat's bid (0 before it bids)
    won: int  # tricks this seat has taken

    @property
    def need(self) -> int:
        return self.bid - self.won

    @property
    def n_after(self) -> int:
        """Players still to play to the trick after this seat."""
        return self.players - 1 - len(self.trick_cards)

    def has_special(self, card: Special) -> bool:
        return bool(self.deck >> card & 1)

    def maybe_elsewhere(self, card: int) -> bool:
        """Whether ``card`` may be in another seat's hand (unseen, so not out of play)."""
        return bool(self.unseen >> card & 1)


def _choices(view: SeatView) -> dict[tuple[int, int], int]:
    return {(trick, seat): choice for trick, seat, choice in view.declared}


def _moves_cards(card: int, turned: int | None) -> bool:
    """Whether this card's trick is followed by cards moving between hands."""
    c = model.copied_card(card, turned)
    return c == Special.JUGGLER or c == Special.WITCH


def read_special(view: SeatView) -> SpecialKnowledge:
    n = view.players
    hand = mask(view.hand)
    deck = mask(deck_cards(view.rules.specials))
    trump = int(view.trump_suit) if view.trump_suit is not None else -1
    turned = view.turned_card
    declared = _choices(view)
    played = 0
    played_counts = [0] * n
    voids = [0] * n
    sequences = [t.plays for t in view.tricks]
    sequences.append(view.trick)
    forms: list[int] = []
    for index, plays in enumerate(sequences):
        forms = []
        moved = False
        for seat, card in plays:
            played |= 1 << card
            played_counts[seat] += 1
            led = model.led_suit(forms)
            if card < FIRST_WIZARD and led >= 0 and card // RANKS_PER_SUIT != led:
                voids[seat] |= 1 << led
            forms.append(model.form_of(card, declared.get((index, seat)), turned))
            moved = moved or _moves_cards(card, turned)
        if moved and index < len(view.tricks):
            voids = [0] * n  # cards changed hands after this trick
    table = 0
    if view.trump_card is not None:
        table |= 1 << view.trump_card
    unseen = deck & ~hand & ~played & ~table
    counts = tuple(view.hand_size - played_counts[s] for s in range(n))
    pinned = [0] * n
    if view.last_pass is not None:
        given = view.last_pass[0]
        left = (view.seat + 1) % n
        if unseen >> given & 1:
            pinned[left] |= 1 << given
    bid = view.bids[view.seat]
    return SpecialKnowledge(
        seat=view.seat,
        players=n,
        hand_size=view.hand_size,
        trump=trump,
        turned=turned,
        hand=hand,
        deck=deck,
        played=played,
        unseen=unseen,
        counts=counts,
        voids=tuple(voids),
        pinned=tuple(pinned),
        trick_seats=tuple(s for s, _ in view.trick),
        trick_cards=tuple(c for _, c in view.trick),
        trick_forms=tuple(forms),
        tricks_left=view.hand_size - len(view.tricks),
        bid=bid if bid is not None else 0,
        won=view.tricks_won[view.seat],
    )


__all__ = ["SpecialKnowledge", "bits", "mask", "read_special"]
