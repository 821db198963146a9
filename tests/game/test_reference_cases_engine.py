"""The hand-computed tricks of test_reference_specials.py, played through the engine: the
random games rarely put a Juggler beside an 8 or a Cloud beside a 10, so the rank
boundaries and the steps' order are checked here one trick at a time.

Each case is round 1 of a game of as many players as the trick has cards: one card each,
seat 0 leads, and the turned card makes the case's trump (a card of that suit no one holds,
or an unused Jester for no trump).
"""

from __future__ import annotations

import pytest

from wizard_tui.game import Deal, Game, GameConfig, TableRules
from wizard_tui.game.actions import Bid, Declare, Play, TrickBombed, TrickWon
from wizard_tui.game.specials import Special

from .helpers import c
from .test_reference_specials import JES, TAKES, WIZ, special_deck

SHORT = {s.short_name: s for s in Special}


def parse(text: str) -> list[tuple[int, int | None]]:
    plays: list[tuple[int, int | None]] = []
    for word in text.split():
        name, _, declared = word.partition(":")
        card = int(SHORT[name]) if name in SHORT else c(name)
        choice = {"W": WIZ, "J": JES}.get(declared, "CDHS".find(declared)) if declared else None
        plays.append((card, choice))
    return plays


CASES = [row for row in TAKES if 3 <= len(row[0].split()) <= 6]


@pytest.mark.parametrize(("text", "trump", "index", "bombed"), CASES)
def test_the_engine_takes_the_trick_as_the_page_says(
    text: str, trump: int | None, index: int, bombed: bool
) -> None:
    plays = parse(text)
    n = len(plays)
    cards = [card for card, _ in plays]
    specials = {SHORT[w.partition(":")[0]] for w in text.split() if w.partition(":")[0] in SHORT}
    if specials & {Special.DRAGON, Special.FAIRY}:
        specials |= {Special.DRAGON, Special.FAIRY}
    if trump is None:
        turned = next(j for j in range(56, 60) if j not in cards)
    else:
        turned = next(s for s in range(trump * 13, trump * 13 + 13) if s not in cards)
    dealer = n - 1  # seat 0 leads
    deck = special_deck(sorted(specials), n, dealer, [[card] for card in cards], turned)
    game = Game(GameConfig(n, dealer, TableRules(specials=frozenset(specials))))
    game.apply(Deal(tuple(deck)))
    assert game.trump_suit == trump
    for seat in range(n):
        game.apply(Bid(seat, 0))
    events: list[object] = []
    for seat, (card, choice) in enumerate(plays):
        events = game.apply(Play(seat, card))
        if choice is not None:
            events = game.apply(Declare(seat, choice))
    trick_plays = tuple(enumerate(cards))
    kind = TrickBombed if bombed else TrickWon
    assert kind(0, index, trick_plays) in events, events
    assert game.results[-1].tricks_won == tuple(
        int(seat == index and not bombed) for seat in range(n)
    )
