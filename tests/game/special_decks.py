"""Helpers for the special cards' tests: name cards, build a deck that deals chosen hands and
turns up a chosen card, and start a one-round game at the first trick.

Written from docs/rules.md ("Special cards", "The deal") and the card ids, not from the
engine: a game of one round of ``size`` cards (``TableRules.rounds``), dealt by ``dealer``.
"""

from __future__ import annotations

from collections.abc import Sequence

from wizard_tui.game import Game, GameConfig, Phase, Suit, TableRules
from wizard_tui.game.actions import ChooseTrump, Declare, NameTrump, Play
from wizard_tui.game.specials import SPECIALS, Special

from .helpers import c

SHORT = {card.short_name: int(card) for card in Special}
ALL = frozenset(SPECIALS)
# The declarations in a card's name: ``JGL:H`` (a suit), ``SHP:W`` / ``SHP:J``.
CHOICE = {"C": 0, "D": 1, "H": 2, "S": 3, "W": 4, "J": 5}
SUITS = {"clubs": 0, "diamonds": 1, "hearts": 2, "spades": 3, "none": None}


def card(text: str) -> int:
    """A card id: ``5H``, ``W1``..``W4``, ``J1``..``J4``, or a special card's short name."""
    name = text.split(":")[0]
    if name in SHORT:
        return SHORT[name]
    if name == "W":
        return 52
    if name == "J":
        return 56
    return c(name)


def choice(text: str) -> int | None:
    """The declaration in a card's name (``JGL:H`` -> 2), or None."""
    return CHOICE[text.split(":")[1]] if ":" in text else None


def cards(text: str) -> list[int]:
    return [card(t) for t in text.split()]


def special_deck(
    players: int,
    dealer: int,
    hands: Sequence[Sequence[int]],
    turned: int,
    specials: frozenset[Special] = ALL,
) -> tuple[int, ...]:
    """A deck of the 60 cards and ``specials`` that deals ``hands[seat]`` to each seat (card
    j of the deck to seat (dealer + 1 + j) mod n) and turns up ``turned``; the rest of the
    deck is the unused cards, lowest first."""
    n = players
    size = len(hands[0])
    total = 60 + len(specials)
    deck: list[int | None] = [None] * total
    for seat, hand in enumerate(hands):
        assert len(hand) == size
        for k, dealt in enumerate(hand):
            deck[k * n + (seat - dealer - 1) % n] = dealt
    deck[n * size] = turned
    used = {x for x in deck if x is not None}
    assert len(used) == n * size + 1, "a card is dealt twice"
    rest = iter(sorted((set(range(60)) | {int(s) for s in specials}) - used))
    return tuple(x if x is not None else next(rest) for x in deck)


def special_game(
    hands: Sequence[Sequence[int]],
    turned: int,
    *,
    dealer: int | None = None,
    specials: frozenset[Special] = ALL,
    trump: int | None = None,
    bids: Sequence[int] | None = None,
    rules: TableRules | None = None,
) -> Game:
    """A one-round game with ``hands`` dealt and ``turned`` turned up, trump chosen or named
    (``trump``: a suit, or None for no trump) if it is asked for, and ``bids`` made (zeros
    by default): the first trick's lead is on turn. The last seat deals unless told."""
    n = len(hands)
    dealer = n - 1 if dealer is None else dealer
    rules = rules or TableRules(specials=specials, rounds=(len(hands[0]),))
    game = Game(GameConfig(n, dealer, rules))
    game.deal(special_deck(n, dealer, hands, turned, specials))
    if game.phase is Phase.CHOOSE_TRUMP:
        game.apply(ChooseTrump(game.turn, Suit(2 if trump is None else trump)))
    elif game.phase is Phase.NAME_TRUMP:
        game.apply(NameTrump(game.turn, None if trump is None else Suit(trump)))
    for bid in bids if bids is not None else [0] * n:
        game.bid(game.turn, bid)
    assert game.phase is Phase.PLAY
    return game


def play(game: Game, names: str) -> None:
    """Play the named cards in turn, declaring each that asks for it (``JGL:H``)."""
    for name in names.split():
        game.apply(Play(game.turn, card(name)))
        if game.phase is Phase.DECLARE:
            declared = choice(name)
            assert declared is not None, f"{name} needs a declaration"
            game.apply(Declare(game.turn, declared))
