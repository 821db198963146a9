"""Test helpers: name cards, build decks that deal chosen hands, reach a round, snapshot a game.

Everything here is written from RULES.md and the card-id scheme, not from the engine's tables,
so tests built on it check the engine rather than repeat it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from wizard_tui.game import Game, GameConfig, Phase, RestrictLastBid, SeatView, seat_view

WIZARDS = (52, 53, 54, 55)
JESTERS = (56, 57, 58, 59)
SUIT_LETTERS = "CDHS"  # clubs 0, diamonds 1, hearts 2, spades 3
ROUNDS = {3: 20, 4: 15, 5: 12, 6: 10}


def c(text: str) -> int:
    """A card id from a short name: ``13S``, ``1C``, ``W1``..``W4``, ``J1``..``J4``."""
    if text[0] in "WJ" and text[1:].isdigit():
        base = 52 if text[0] == "W" else 56
        index = int(text[1:])
        assert 1 <= index <= 4, text
        return base + index - 1
    rank, suit = int(text[:-1]), SUIT_LETTERS.index(text[-1])
    assert 1 <= rank <= 13, text
    return suit * 13 + rank - 1


def cs(text: str) -> list[int]:
    """Card ids from a space-separated list of names."""
    return [c(t) for t in text.split()]


def build_deck(
    players: int,
    round_number: int,
    dealer: int,
    hands: Sequence[Sequence[int]],
    trump_card: int | None = None,
) -> tuple[int, ...]:
    """A 60-card deck that deals ``hands[seat]`` (in that order) to every seat in this round.

    The deal gives card j to seat (dealer + 1 + j) % players, one card at a time, so the k-th
    card of a seat's hand sits at position k * players + (seat - dealer - 1) % players. The
    card after the deal is ``trump_card``: it is required while cards remain and forbidden in
    a round that deals all 60. The remaining positions get the unused cards, lowest first.
    """
    n, r = players, round_number
    assert len(hands) == n, "one hand per seat"
    dealt = n * r
    deck: list[int | None] = [None] * 60
    for seat, hand in enumerate(hands):
        assert len(hand) == r, f"seat {seat} needs {r} cards, got {len(hand)}"
        offset = (seat - dealer - 1) % n
        for k, card in enumerate(hand):
            deck[k * n + offset] = card
    if dealt < 60:
        assert trump_card is not None, "cards remain after the deal: name the turned card"
        deck[dealt] = trump_card
    else:
        assert trump_card is None, "the last round deals every card: there is no trump card"
    used = [x for x in deck if x is not None]
    assert len(used) == len(set(used)), f"a card appears twice: {sorted(used)}"
    assert all(0 <= x < 60 for x in used)
    rest = iter(sorted(set(range(60)) - set(used)))
    return tuple(x if x is not None else next(rest) for x in deck)


def first_dealer_for(players: int, round_number: int, dealer: int) -> int:
    """The first dealer that makes ``dealer`` deal round ``round_number``."""
    return (dealer - (round_number - 1)) % players


def play_out_round(game: Game, deck: Sequence[int] | None = None) -> None:
    """Deal (``deck`` or cards in id order) and finish the round with the first legal moves."""
    game.deal(list(range(60)) if deck is None else deck)
    finish_round(game)


def finish_round(game: Game) -> None:
    """Finish the current round with the first legal move every time."""
    start = game.round
    while game.round == start and game.phase not in (Phase.DEAL, Phase.GAME_OVER):
        if game.phase is Phase.CHOOSE_TRUMP:
            game.choose_trump(game.turn, 0)
        elif game.phase is Phase.BID:
            game.bid(game.turn, game.legal_bids()[0])
        else:
            game.play(game.turn, game.legal_plays()[0])


def game_at_round(
    players: int,
    round_number: int,
    dealer: int,
    restrict: RestrictLastBid | str = RestrictLastBid.NEVER,
) -> Game:
    """A game waiting for the deal of ``round_number``, which ``dealer`` will deal.

    Earlier rounds are played with any legal moves: they only move the game forward.
    """
    config = GameConfig(players, first_dealer_for(players, round_number, dealer), restrict)
    game = Game(config)
    while game.round < round_number - 1:
        play_out_round(game)
    assert game.phase is Phase.DEAL
    return game


def dealt_game(
    players: int,
    round_number: int,
    dealer: int,
    hands: Sequence[Sequence[int]],
    trump_card: int | None = None,
    restrict: RestrictLastBid | str = RestrictLastBid.NEVER,
) -> Game:
    """A game in round ``round_number`` just after dealing ``hands`` with ``trump_card`` up."""
    game = game_at_round(players, round_number, dealer, restrict)
    game.deal(build_deck(players, round_number, dealer, hands, trump_card))
    assert game.round == round_number and game.dealer == dealer
    return game


def bid_all(game: Game, bids: Sequence[int]) -> None:
    """Make the bids in turn order: ``bids[i]`` by the i-th bidder (dealer's left first)."""
    for b in bids:
        game.bid(game.turn, b)


def visible_cards(view: SeatView) -> set[int]:
    """Every card id a view shows for the current round: its hand, the turned card, the trick
    in progress, the completed tricks and the legal cards (finished rounds are public)."""
    cards = set(view.hand) | set(view.legal_cards)
    if view.trump_card is not None:
        cards.add(view.trump_card)
    cards.update(card for _, card in view.trick)
    cards.update(card for trick in view.tricks for card in trick.cards)
    if view.turned_card is not None:  # special cards: the card a Werewolf took is public
        cards.add(view.turned_card)
    cards.update(view.swap_takes)
    if view.last_pass is not None:
        cards.update(view.last_pass)
    return cards


def _copied(value: object) -> object:
    """A copy of every list inside ``value``; the engine's other values are immutable
    (ints, tuples, frozen dataclasses), so sharing them is safe and much faster than deepcopy."""
    if type(value) is list:
        return [_copied(item) for item in value]
    return value


def snapshot(game: Game) -> dict[str, Any]:
    """Everything observable about a game: every public query, every seat's view, every slot.

    The slots are read last: a query may fill a cache (``results`` builds the rounds'
    ``RoundResult``s on first use), which changes a slot but nothing a caller can see.
    """
    n = game.players
    snap: dict[str, Any] = dict(
        phase=game.phase,
        round=game.round,
        dealer=game.dealer,
        turn=game.turn,
        totals=list(game.totals),
        tricks_won=list(game.tricks_won),
        trump_card=game.trump_card,
        trump_suit=game.trump_suit,
        bids=game.bids,
        results=game.results,
        is_over=game.is_over,
        hands=[tuple(game.hand(s)) for s in range(n)],
        dealt=[tuple(game.dealt_hand(s)) for s in range(n)],
        trick=game.trick,
        trick_leader=game.trick_leader,
        led=game.led,
        led_suit=game.led_suit,
        trick_winner=game.trick_winner,
        tricks=game.tricks,
        legal_plays=tuple(game.legal_plays()),
        legal_bids=tuple(game.legal_bids()),
        forbidden_bid=game.forbidden_bid(),
        legal_actions=tuple(game.legal_actions()),
        actions=tuple(game.actions),
        views=[seat_view(game, s) for s in range(n)],
    )
    snap.update((f"slot.{name}", _copied(getattr(game, name))) for name in Game.__slots__)
    return snap
