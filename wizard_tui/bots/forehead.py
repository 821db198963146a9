"""How every bot plays a forehead round (docs/rules.md, "The forehead round"): it sees the
others' cards, not its own, and plays its card blind.

With one card each the trick has no choices: who wins follows from the cards alone. So for
every card the bot might hold (every card it does not see) it knows whether it would win,
and bids from that chance. The levels differ in how they read it (``choose_bid``).
"""

from __future__ import annotations

from collections.abc import Sequence

from ..game import DECK_SIZE, SeatView
from ..game.engine import beats

# A bid of 1 scores 30p - 10(1 - p) on average, a bid of 0 scores 20(1 - p) - 10p:
# 1 is the better bid when the chance p of winning the trick is above 3/7.
BREAK_EVEN = 3 / 7
# How a hard bot reads an earlier bid: an opponent who can see our card bids as the
# break-even rule says with this probability (people and bots err, and gamble).
BID_TRUST = 0.85


def trick_winner(order: Sequence[int], cards: dict[int, int], trump: int | None) -> int:
    """The seat that wins a trick of one card each, played in ``order``."""
    winner = order[0]
    for seat in order[1:]:
        if beats(cards[winner], cards[seat], trump):
            winner = seat
    return winner


def _trump(view: SeatView, suit: int | None = None) -> int | None:
    if suit is not None:
        return suit
    return None if view.trump_suit is None else int(view.trump_suit)


def _order(view: SeatView) -> list[int]:
    n = view.players
    return [(view.dealer + 1 + i) % n for i in range(n)]


def _table(view: SeatView) -> dict[int, int]:
    """The cards this seat sees at the table, by seat: the others' foreheads and any card
    already played into the trick."""
    cards = {seat: card for seat, card in enumerate(view.foreheads) if card is not None}
    cards.update(dict(view.trick))
    return cards


def unseen(view: SeatView, cards: dict[int, int] | None = None) -> list[int]:
    """The cards this seat might hold: every card it does not see."""
    seen = set((cards if cards is not None else _table(view)).values())
    if view.trump_card is not None:
        seen.add(view.trump_card)
    return [card for card in range(DECK_SIZE) if card not in seen]


def win_chance(view: SeatView, suit: int | None = None, weights: bool = False) -> float:
    """The share of the cards this seat might hold with which it would win the trick
    (trump ``suit`` if given, else the round's); ``weights``: each card weighed by how well
    it explains the earlier bids (``bid_weight``)."""
    cards = _table(view)
    order = _order(view)
    trump = _trump(view, suit)
    total = won = 0.0
    for mine in unseen(view, cards):
        cards[view.seat] = mine
        w = bid_weight(view, cards, order, trump) if weights else 1.0
        total += w
        if trick_winner(order, cards, trump) == view.seat:
            won += w
    return won / total if total else 0.0


def bid_weight(
    view: SeatView, cards: dict[int, int], order: Sequence[int], trump: int | None
) -> float:
    """How likely the bids made so far are if the table's cards are ``cards`` (this seat's
    included): each earlier bidder saw every card but its own and bid by the break-even
    rule, with probability ``BID_TRUST``."""
    weight = 1.0
    for seat, bid in enumerate(view.bids):
        if bid is None or seat == view.seat:
            continue
        theirs = dict(cards)
        seen = set(theirs.values()) - {theirs[seat]}
        if view.trump_card is not None:
            seen.add(view.trump_card)
        total = won = 0
        for card in range(DECK_SIZE):
            if card in seen:
                continue
            theirs[seat] = card
            total += 1
            won += trick_winner(order, theirs, trump) == seat
        expected = 1 if total and won / total > BREAK_EVEN else 0
        weight *= BID_TRUST if bid == expected else 1 - BID_TRUST
    return weight


def bid_for(view: SeatView, chance: float, threshold: float = BREAK_EVEN) -> int:
    """The legal bid a chance of winning the trick calls for (the other if it is
    forbidden)."""
    wanted = 1 if chance > threshold else 0
    legal = list(view.legal_bids)
    if wanted in legal:
        return wanted
    return legal[0]


def best_score(chance: float) -> float:
    """What the better of the two bids scores on average."""
    return max(40 * chance - 10, 20 - 30 * chance)


def choose_trump(view: SeatView) -> int:
    """A dealer who turned a Wizard names the suit that makes its bid the surest."""
    return max(range(4), key=lambda suit: best_score(win_chance(view, suit)))


__all__ = [
    "BREAK_EVEN",
    "best_score",
    "bid_for",
    "choose_trump",
    "trick_winner",
    "unseen",
    "win_chance",
]
