"""docs/rules.md stays true: every reason code is explained, and its example tables are what
the engine does."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from wizard_tui.game import Game, GameConfig, Reason

from .helpers import JESTERS, SUIT_LETTERS, WIZARDS, bid_all, build_deck, c, game_at_round

DOC = (Path(__file__).parents[2] / "docs" / "rules.md").read_text(encoding="utf-8")


def table_after(heading: str) -> list[list[str]]:
    """The body rows of the first Markdown table after ``heading``, as lists of cells."""
    start = DOC.index(heading)
    rows = []
    for line in DOC[start:].splitlines()[1:]:
        if line.startswith("|"):
            rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
        elif rows:
            break
    return rows[2:]  # skip the header and the --- line


def test_every_reason_code_is_explained() -> None:
    documented = {
        row[0].strip("`")
        for row in table_after("The checks run in this order")
        if row[0].startswith("`")
    }
    assert documented == {reason.value for reason in Reason}


SUIT_NAMES = {"clubs": 0, "diamonds": 1, "hearts": 2, "spades": 3}


def parse_cards(text: str) -> list[int]:
    """``13 of clubs, Wizard, Jester`` -> distinct card ids (Wizards and Jesters in order)."""
    wizards, jesters = iter(WIZARDS), iter(JESTERS)
    cards = []
    for name in text.split(", "):
        if name == "Wizard":
            cards.append(next(wizards))
        elif name == "Jester":
            cards.append(next(jesters))
        else:
            rank, suit = re.fullmatch(r"(\d+) of (\w+)", name).groups()  # type: ignore[union-attr]
            cards.append(c(f"{rank}{SUIT_LETTERS[SUIT_NAMES[suit]]}"))
    return cards


WINNER_ROWS = table_after("Examples, with hearts as trump")


@pytest.mark.parametrize(("trick", "winner"), WINNER_ROWS, ids=[r[0] for r in WINNER_ROWS])
def test_trick_examples(trick: str, winner: str) -> None:
    names = trick.split(", ")
    cards = parse_cards(trick)
    named = re.sub(r"^the (first |only )?", "", winner.split(" (")[0])
    expected = names.index(named)  # the first card of that name
    n = len(cards)
    assert n >= 3
    game = Game(GameConfig(n, n - 1))
    game.deal(build_deck(n, 1, n - 1, [[card] for card in cards], c("1H")))
    bid_all(game, [0] * n)
    for seat, card in enumerate(cards):
        game.play(seat, card)
    assert game.tricks[0].winner == expected


BID_ROWS = table_after("Examples with 3 players")


def parse_allowed(text: str) -> list[int]:
    text = text.split(" (")[0]
    if " to " in text:
        low, high = text.split(" to ")
        return list(range(int(low), int(high) + 1))
    return [int(x) for x in text.split(" or ")]


@pytest.mark.parametrize(("form", "round_number", "others", "allowed"), BID_ROWS)
def test_restricted_last_bid_examples(
    form: str, round_number: str, others: str, allowed: str
) -> None:
    r = int(round_number)
    game = game_at_round(3, r, dealer=2, restrict=form.strip("`"))
    game.deal(list(range(60)))
    bid_all(game, [int(b) for b in others.split(", ")])
    assert game.turn == 2
    assert game.legal_bids() == parse_allowed(allowed)
