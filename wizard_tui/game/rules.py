"""Rule constants and small pure functions: rounds per game, scoring, the bid restriction."""

from __future__ import annotations

from enum import StrEnum

from .cards import DECK_SIZE

MIN_PLAYERS = 3
MAX_PLAYERS = 6
# The most rounds a game may have (a chosen list of rounds, docs/rules.md "Game length"): a
# bound for the wire and the record (the longest named length, 3-player up-and-down, is 39).
MAX_ROUNDS = 60
MAX_HAND = DECK_SIZE // MIN_PLAYERS  # the most cards a round deals each: 20, with 3 players


class RestrictLastBid(StrEnum):
    """When the last bidder may not make the bid total equal the round's tricks (one per
    card in each hand). ``applies`` takes the round's ordinal: ``after-round-1`` exempts the
    game's first round, whatever its size."""

    NEVER = "never"
    ALWAYS = "always"
    AFTER_ROUND_1 = "after-round-1"

    def applies(self, round_number: int) -> bool:
        if self is RestrictLastBid.ALWAYS:
            return True
        if self is RestrictLastBid.AFTER_ROUND_1:
            return round_number > 1
        return False


def rounds_for(players: int) -> int:
    """60 / players rounds: 20 for 3, 15 for 4, 12 for 5, 10 for 6."""
    check_players(players)
    return DECK_SIZE // players


def dealer_of(first_dealer: int, round_number: int, players: int) -> int:
    """The dealer of round ``round_number``: the deal passes one seat to the left a round."""
    return (first_dealer + round_number - 1) % players


def left_of(seat: int, players: int) -> int:
    """The seat to the left of ``seat``: the dealer's left receives the first card, bids
    first and leads the first trick."""
    return (seat + 1) % players


def check_players(players: int) -> None:
    if type(players) is not int or not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise ValueError(
            f"Wizard is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}"
        )


def score(bid: int, tricks: int) -> int:
    """20 + 10 per trick for an exact bid; -10 per trick of difference otherwise."""
    if bid == tricks:
        return 20 + 10 * tricks
    return -10 * abs(bid - tricks)


def void_charge(hand_size: int) -> int:
    """What a seat pays for voiding a deal of a round dealing ``hand_size`` cards each
    (docs/rules.md, "Voided deals"): a bid missed by every card of the round, the least any
    honest play of the round can score."""
    return -10 * hand_size


def winners(totals: list[int] | tuple[int, ...]) -> list[int]:
    """Seats with the highest total; ties share the win."""
    best = max(totals)
    return [seat for seat, total in enumerate(totals) if total == best]
