"""A bot sees a ``SeatView`` and nothing else: from the view (and from the bots after they have
decided) no ``Game`` and no other seat's unplayed cards can be reached by following references.
"""

from __future__ import annotations

import gc
import random
from dataclasses import dataclass

from wizard_tui.bots import LEVELS, make_bot
from wizard_tui.game import Game, Phase, SeatView, seat_view

from .helpers import decision_points, game_at_round

SKIP_TYPES = (type, type(gc), type(len))  # classes, modules, builtins: shared, not state


def reachable(root: object) -> list[object]:
    """Every object reachable from ``root`` through ``gc.get_referents`` (slots included)."""
    seen: set[int] = set()
    out: list[object] = []
    stack = [root]
    while stack:
        obj = stack.pop()
        if id(obj) in seen or isinstance(obj, SKIP_TYPES):
            continue
        seen.add(id(obj))
        out.append(obj)
        stack.extend(gc.get_referents(obj))
    return out


def leaks(root: object, game: Game, seat: int) -> list[str]:
    """What ``root`` can reach that ``seat`` must not see in ``game``'s current round."""
    found = []
    secrets = []
    for other in range(game.players):
        if other == seat:
            continue
        unplayed = frozenset(game.hand(other))
        if len(unplayed) >= 2:
            secrets.append(
                (other, unplayed, frozenset(game.dealt_hand(other)), game.hand_mask(other))
            )
    for obj in reachable(root):
        if isinstance(obj, Game):
            found.append("a Game")
        elif isinstance(obj, tuple | list | set | frozenset):
            items = frozenset(x for x in obj if type(x) is int)
            for other, unplayed, dealt, _ in secrets:
                if items and items in (unplayed, dealt):
                    found.append(f"seat {other}'s cards in a {type(obj).__name__}")
        elif type(obj) is int and obj >= 1 << 14:  # big enough not to be a score or a bid
            for other, _, _, mask in secrets:
                if obj == mask:
                    found.append(f"seat {other}'s hand mask")
    return found


def states(seed: int):
    rng = random.Random(seed)
    game = game_at_round(4, 6, dealer=1, seed=seed)
    yield from decision_points(game, rng, rounds=2)


def test_the_walk_goes_into_slots_and_finds_own_cards() -> None:
    """Control: the same walk does find this seat's own hand and would find a game."""
    game = game_at_round(3, 5, dealer=0)
    game.deal(list(range(59, -1, -1)))
    view = seat_view(game, game.turn)
    hand = frozenset(view.hand)
    assert any(
        isinstance(o, tuple) and frozenset(o) == hand and len(o) == 5 for o in reachable(view)
    )


def test_the_check_catches_a_leaky_view() -> None:
    """Control: a view-like object holding the game, or another seat's cards, is caught."""

    @dataclass(frozen=True, slots=True)
    class Leaky:
        view: SeatView
        extra: object

    game = game_at_round(3, 5, dealer=0)
    game.deal(list(range(59, -1, -1)))
    seat = game.turn
    other = (seat + 1) % 3
    view = seat_view(game, seat)
    assert leaks(view, game, seat) == []
    assert "a Game" in leaks(Leaky(view, {"back": [game]}), game, seat)
    assert leaks(Leaky(view, tuple(game.hand(other))), game, seat)
    assert game.hand_mask(other) >= 1 << 14
    assert leaks(Leaky(view, game.hand_mask(other)), game, seat)


def test_views_and_bots_reach_no_game_and_no_hidden_cards() -> None:
    bots = {
        level: make_bot(level, random.Random(1), max_samples=2)
        if level in ("hard", "expert")
        else make_bot(level, random.Random(1))
        for level in LEVELS
    }
    checked = 0
    for game, view in states(5):
        seat = view.seat
        assert leaks(view, game, seat) == [], (game.phase, view)
        if game.phase is Phase.PLAY and checked % 5 == 0:
            for bot in bots.values():
                bot.decide(view)
                assert leaks(bot, game, seat) == []
        checked += 1
    assert checked > 20
