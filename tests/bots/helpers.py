"""Helpers for the bot tests: reach a round, deal chosen hands, play random games."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from wizard_tui.game import Game, GameConfig, Phase, RestrictLastBid, SeatView, seat_view

WIZARDS = (52, 53, 54, 55)
JESTERS = (56, 57, 58, 59)


def card(text: str) -> int:
    """A card id from a name: ``13S`` (rank 13 of spades), ``W1``..``W4``, ``J1``..``J4``."""
    if text[0] in "WJ" and text[1:].isdigit():
        return (52 if text[0] == "W" else 56) + int(text[1:]) - 1
    return "CDHS".index(text[-1]) * 13 + int(text[:-1]) - 1


def cards(text: str) -> list[int]:
    return [card(t) for t in text.split()]


def build_deck(
    players: int,
    round_number: int,
    dealer: int,
    hands: dict[int, Sequence[int]],
    trump_card: int | None,
    rng: random.Random,
) -> list[int]:
    """A deck dealing ``hands[seat]`` to the named seats; the other seats get random cards.

    Card j goes to seat (dealer + 1 + j) % players, so a seat's k-th card sits at position
    k * players + (seat - dealer - 1) % players; position players * round is the trump card.
    """
    n, r = players, round_number
    deck: list[int | None] = [None] * 60
    for seat, hand in hands.items():
        assert len(hand) == r
        for k, c in enumerate(hand):
            deck[k * n + (seat - dealer - 1) % n] = c
    if n * r < 60:
        if trump_card is None:
            used = {c for c in deck if c is not None}
            trump_card = rng.choice([c for c in range(52) if c not in used])
        deck[n * r] = trump_card
    used = [c for c in deck if c is not None]
    assert len(used) == len(set(used)), "a card appears twice"
    rest = [c for c in range(60) if c not in set(used)]
    rng.shuffle(rest)
    it = iter(rest)
    return [c if c is not None else next(it) for c in deck]


def game_at_round(
    players: int,
    round_number: int,
    dealer: int,
    restrict: RestrictLastBid | str = RestrictLastBid.NEVER,
    seed: int = 0,
) -> Game:
    """A game waiting for the deal of ``round_number``, dealt by ``dealer``."""
    first = (dealer - (round_number - 1)) % players
    game = Game(GameConfig(players, first, restrict))
    rng = random.Random(seed)
    while game.round < round_number - 1:
        deck = list(range(60))
        rng.shuffle(deck)
        game.deal(deck)
        while game.phase not in (Phase.DEAL, Phase.GAME_OVER):
            act_randomly(game, rng)
    return game


def dealt_game(
    players: int,
    round_number: int,
    dealer: int,
    hands: dict[int, Sequence[int]],
    trump_card: int | None = None,
    restrict: RestrictLastBid | str = RestrictLastBid.NEVER,
    seed: int = 0,
) -> Game:
    game = game_at_round(players, round_number, dealer, restrict, seed)
    rng = random.Random(seed + 1)
    game.deal(build_deck(players, round_number, dealer, hands, trump_card, rng))
    assert game.dealer == dealer and game.round == round_number
    return game


def act_randomly(game: Game, rng: random.Random) -> None:
    if game.phase is Phase.CHOOSE_TRUMP:
        game.choose_trump(game.turn, rng.randrange(4))
    elif game.phase is Phase.BID:
        game.bid(game.turn, rng.choice(game.legal_bids()))
    else:
        game.play(game.turn, rng.choice(game.legal_plays()))


def decision_points(game: Game, rng: random.Random, rounds: int) -> Iterator[tuple[Game, SeatView]]:
    """Every decision of the next ``rounds`` rounds (dealing random decks), as (game, view)
    for the seat on turn; the caller's loop body runs before the game moves on at random."""
    end = game.round + rounds
    while not game.is_over:
        if game.phase is Phase.DEAL:
            if game.round >= end:
                return
            deck = list(range(60))
            rng.shuffle(deck)
            game.deal(deck)
            continue
        yield game, seat_view(game, game.turn)
        act_randomly(game, rng)
