"""A client's ``ViewReader`` checks the round's completed tricks once and reuses them: it must
still give exactly the view that one view alone gives, and refuse every malformed view."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from netplay.errors import ProtocolError
from wizard_tui.game import Deal, Game, GameConfig, Phase, SeatView, seat_view
from wizard_tui.net import protocol as p
from wizard_tui.net.round_check import cards_shown


def _game_views(players: int, seat: int, seed: int) -> list[dict[str, Any]]:
    """The wire view ``seat`` gets after every step of a random game."""
    rng = random.Random(seed)
    game = Game(GameConfig(players, rng.randrange(players)))
    views = []
    while game.phase is not Phase.GAME_OVER:
        if game.phase is Phase.DEAL:
            deck = list(range(60))
            rng.shuffle(deck)
            game.apply(Deal(tuple(deck)))
        else:
            game.apply(rng.choice(game.legal_actions()))
        views.append(p.view_wire(seat_view(game, seat)))
    return views


def _plays_shown(view: SeatView) -> frozenset[int]:
    """``cards_shown`` as it was first written, through ``Trick.plays``."""
    mine = {card for trick in view.tricks for s, card in trick.plays if s == view.seat}
    mine.update(card for s, card in view.trick if s == view.seat)
    mine.update(view.hand)
    return frozenset(mine)


@pytest.mark.parametrize("players", [3, 4, 6])
def test_a_stream_of_views_reads_as_each_view_alone(players: int) -> None:
    reader = p.ViewReader()
    for wire in _game_views(players, players - 1, seed=players):
        view = reader.read(wire, ())
        assert view == p.view_from_wire(wire, ())
        assert cards_shown(view) == _plays_shown(view)


def test_a_changed_earlier_trick_is_checked_again() -> None:
    views = [w for w in _game_views(3, 0, seed=7) if len(w["tricks"]) >= 2]
    reader = p.ViewReader()
    reader.read(views[0], ())
    bad = copy.deepcopy(views[1])
    bad["tricks"][0][1][0] = 60  # not a card
    with pytest.raises(ProtocolError):
        reader.read(bad, ())
    swapped = copy.deepcopy(views[1])
    first = swapped["tricks"][0]
    first[1][0], first[1][1] = first[1][1], first[1][0]  # the host rewrites history
    assert reader.read(swapped, ()).tricks[0].cards == tuple(first[1])
    assert reader.read(views[1], ()) == p.view_from_wire(views[1], ())


@pytest.mark.parametrize(
    ("key", "value"),
    [
        ("tricks", [[0, [1, 2, 3], 0], [0, [1, 2], "x"]]),
        ("tricks", "not a list"),
        ("phase", "dancing"),
        ("phase", ["play"]),
        ("rules", {"restrict_last_bid": "sometimes"}),
        ("rules", {"restrict_last_bid": "never", "jokers": True}),
        ("rules", {"restrict_last_bid": "never", "rounds": [21]}),
        ("rules", "never"),
        ("trump_suit", 4),
        ("led", True),
        ("seat", 3),
        ("bids", [0, 1]),
        ("bids", [0, 1, 21]),
        ("players", 7),
        ("players", 4),  # its seats and lists no longer fit
        ("round", 99),
        ("dealer", -1),
        ("trump_card", 60),
        ("tricks_won", [0, 0, 0, 0]),
        ("totals", [0, 0, 1 << 40]),
        ("totals", "0 0 0"),
    ],
)
def test_malformed_views_are_refused_after_good_ones(key: str, value: Any) -> None:
    views = _game_views(3, 1, seed=3)
    reader = p.ViewReader()
    for wire in views[:40]:
        reader.read(wire, ())
    with pytest.raises(ProtocolError):
        reader.read({**views[40], key: value}, ())
    assert reader.read(views[41], ()) == p.view_from_wire(views[41], ())


def test_a_refused_new_trick_is_not_kept() -> None:
    views = _game_views(3, 2, seed=5)
    k = next(i for i, w in enumerate(views) if len(w["tricks"]) == 1)
    reader = p.ViewReader()
    reader.read(views[k - 1], ())
    bad = copy.deepcopy(views[k])
    bad["tricks"][0][2] = 9  # no such seat
    with pytest.raises(ProtocolError):
        reader.read(bad, ())
    assert reader.read(views[k], ()).tricks == p.view_from_wire(views[k], ()).tricks


@pytest.mark.parametrize("key", ["players", "seat", "round", "dealer", "bids", "totals"])
def test_a_refused_value_is_refused_again_and_never_kept(key: str) -> None:
    # The fields the reader checks once per change: a bad one is refused every time it
    # comes (it is never taken for the good value it replaced), and the good one after it
    # reads as the view alone does.
    views = _game_views(4, 1, seed=11)
    reader = p.ViewReader()
    good = views[30]
    reader.read(good, ())
    bad_value: Any = {"bids": [99] * 4, "totals": [1 << 40] * 4}.get(key, 99)
    for _ in range(2):
        with pytest.raises(ProtocolError):
            reader.read({**good, key: bad_value}, ())
    assert reader.read(views[31], ()) == p.view_from_wire(views[31], ())
    assert reader.read(good, ()) == p.view_from_wire(good, ())
