"""A forehead round with special cards (docs/rules.md, "A forehead round"): the seat sees
every card but its own, so for every card it might hold it reads the trick of one card
each (``special_model``) and counts those it would take. A declarable card is read as the
strongest it could be made (its player declares once it is face up)."""

from __future__ import annotations

from ..game import SeatView
from ..game.specials import deck_cards
from . import forehead
from . import special_model as model


def _unseen(view: SeatView, cards: dict[int, int]) -> list[int]:
    seen = set(cards.values())
    for card in (view.trump_card, view.turned_card):
        if card is not None:
            seen.add(card)
    return [c for c in deck_cards(view.rules.specials) if c not in seen]


def win_chance(view: SeatView, suit: int | None = None) -> float:
    n = view.players
    order = [(view.dealer + 1 + i) % n for i in range(n)]
    cards = {seat: card for seat, card in enumerate(view.foreheads) if card is not None}
    cards.update(dict(view.trick))
    trump = suit if suit is not None else (-1 if view.trump_suit is None else int(view.trump_suit))
    mine = _unseen(view, cards)
    if not mine:
        return 0.0
    won = 0
    for card in mine:
        cards[view.seat] = card
        turned = view.turned_card
        forms = [
            model.threat_forms(cards[s], trump, -1, turned)[0] if s in cards else model.JESTER
            for s in order
        ]
        if not model.bombed(forms) and order[model.winner_index(forms, trump)] == view.seat:
            won += 1
    return won / len(mine)


def choose_trump(view: SeatView) -> int:
    return max(range(4), key=lambda suit: forehead.best_score(win_chance(view, suit)))
