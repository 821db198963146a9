"""The special cards on the wire (docs/protocol.md, "Special cards"): every view of random
games with all nine cards reads back as it was built, each seat's view holds only its own
pass, the events and round results read back, and the readers refuse what no honest host
sends. No socket: the wire forms alone."""

from __future__ import annotations

import random
from typing import Any

import pytest

from netplay.errors import ProtocolError
from netplay.framing import decode_payload
from wizard_tui.game import (
    Deal,
    Game,
    GameConfig,
    Phase,
    SeatView,
    TableRules,
    left_of,
    seat_view,
)
from wizard_tui.game.actions import CardsPassed, PassCard
from wizard_tui.game.specials import SPECIALS, Special, deck_cards
from wizard_tui.net import protocol as p
from wizard_tui.net.decisions import SPECIAL_PHASES

ALL = TableRules(specials=frozenset(SPECIALS), rounds=(2, 4, 6, 8, 10))


def _games(players: int, seed: int, rules: TableRules = ALL) -> Any:
    """Each position of a random game with special cards, and the events that led to it."""
    rng = random.Random(seed)
    game = Game(GameConfig(players, rng.randrange(players), rules))
    cards = list(deck_cards(rules.specials))
    events: list[Any] = []
    while game.phase is not Phase.GAME_OVER:
        yield game, events
        if game.phase is Phase.DEAL:
            rng.shuffle(cards)
            events = game.apply(Deal(tuple(cards)))
        else:
            events = game.apply(rng.choice(game.legal_actions()))
    yield game, events


def _read(wire: dict[str, Any], history: tuple[Any, ...] = ()) -> SeatView:
    return p.view_from_wire(wire, history)


@pytest.mark.parametrize("players", [3, 5])
def test_every_view_event_and_result_reads_back(players: int) -> None:
    phases: set[Phase] = set()
    passes = 0
    seats = [{"name": f"p{i}", "kind": "human", "connected": True} for i in range(players)]
    for game, events in _games(players, players):
        phases.add(game.phase)
        views = [seat_view(game, seat) for seat in range(players)]
        wires = [p.view_wire(view) for view in views]
        assert p.views_wire(game) == wires
        for seat, view in enumerate(views):
            assert _read(wires[seat], view.history) == view, (game.round, game.phase, seat)
        events_wire = [p.event_wire(e) for e in events]
        assert [p.event_from_wire(e, players) for e in events_wire] == list(events)
        for seat, payload in enumerate(p.state_payloads(game, seats, events_wire)):
            msg = decode_payload(payload, p.LIMITS)
            assert msg == {"t": "state", "view": wires[seat], "seats": seats, "events": events_wire}
        public = p.public_view_wire(game)
        watched = _read(public)
        assert watched.hand == () and watched.last_pass is None and watched.legal_choices == ()
        assert public["declared"] == wires[0]["declared"]
        passes += sum(1 for view in views if view.last_pass is not None)
    for result in game.results:
        wire = p.result_wire(result, [bytes(32)] * players)
        assert p.result_from_wire(wire, players, ALL) == (result, [bytes(32)] * players)
        assert wire["actions"]  # every action of the round, to replay it
    assert set(SPECIAL_PHASES) <= phases, phases  # (these seeds reach every decision)
    assert passes > 0


def test_a_seat_s_view_holds_its_own_pass_only() -> None:
    """Right after a pass each seat's view names the card it gave and the card it got, and
    no other seat's view holds either card: not in its hand, not in its pass."""
    checked = 0
    for seed in range(4):
        for game, events in _games(4, 20 + seed):
            if not any(isinstance(e, CardsPassed) for e in events):
                continue
            views = [_read(p.view_wire(seat_view(game, s))) for s in range(4)]
            passed = {}  # seat -> the card it passed this time: its latest PassCard
            for action in game.actions:
                if isinstance(action, PassCard):
                    passed[action.seat] = action.card
            for seat, view in enumerate(views):
                receiver = left_of(seat, 4)
                given = passed[seat]
                assert view.last_pass is not None and view.last_pass[0] == given
                assert views[receiver].last_pass is not None
                assert views[receiver].last_pass[1] == given
                assert given in views[receiver].hand and given not in view.hand
                for other in range(4):
                    if other in (seat, receiver):
                        continue
                    assert given not in views[other].hand
                    assert given not in (views[other].last_pass or ())
                checked += 1
    assert checked > 0


def test_plain_views_and_results_stay_as_they_were() -> None:
    game = Game(GameConfig(3, 0, TableRules()))
    game.apply(Deal(tuple(range(60))))
    wire = p.view_wire(seat_view(game, 0))
    assert p.SPECIAL_VIEW_KEYS.isdisjoint(wire)
    with pytest.raises(ProtocolError):  # a host that adds them to a plain game's view
        _read({**wire, "last_pass": None})


def _special_view(seat: int = 0) -> tuple[Game, dict[str, Any]]:
    game = Game(GameConfig(3, 0, ALL))
    game.apply(Deal(tuple(deck_cards(ALL.specials))))
    return game, p.view_wire(seat_view(game, seat))


@pytest.mark.parametrize(
    "change",
    [
        {"hand": [69]},  # no card has that id
        {"last_pass": [3, 3]},  # a pass gives one card and gets another
        {"last_pass": [3]},
        {"declared": [[0, 7, 1]]},  # no such seat
        {"declared": [[0, 1, 6]]},  # no such declaration
        {"turned_card": 70},
        {"swap_takes": [3], "turn": 1},  # a choice for a seat not on turn
        {"legal_choices": [0], "turn": 1},
    ],
)
def test_the_reader_refuses_what_no_host_sends(change: dict[str, Any]) -> None:
    _game, wire = _special_view()
    _read(wire)  # as sent: fine
    with pytest.raises(ProtocolError):
        _read({**wire, **change})


def test_a_watcher_s_view_shows_no_pass() -> None:
    game, _wire = _special_view()
    public = p.public_view_wire(game)
    _read(public)
    with pytest.raises(ProtocolError):
        _read({**public, "last_pass": [1, 2]})


@pytest.mark.parametrize(
    ("msg", "ok"),
    [
        ({"t": "name_trump", "seat": 0, "round": 1, "suit": -1}, True),
        ({"t": "name_trump", "seat": 0, "round": 1, "suit": 4}, False),
        ({"t": "declare", "seat": 0, "round": 1, "choice": 5}, True),
        ({"t": "declare", "seat": 0, "round": 1, "choice": 6}, False),
        ({"t": "adjust_bid", "seat": 0, "round": 1, "bid": 0}, True),
        ({"t": "pass_card", "seat": 0, "round": 1, "card": 68}, True),
        ({"t": "pass_card", "seat": 0, "round": 1, "card": 69}, False),
        ({"t": "swap", "seat": 0, "round": 1, "give": None, "take": None}, True),
        ({"t": "swap", "seat": 0, "round": 1, "give": 3, "take": 67, "auto": True}, True),
        ({"t": "swap", "seat": 0, "round": 1, "give": 3}, False),
        ({"t": "play", "seat": 0, "round": 1, "card": 68}, True),
        (
            {
                "t": "lobby_settings",
                "seats": 3,
                "bot_level": "easy",
                "restrict_last_bid": "never",
                "specials": "dragon,fairy",
            },
            True,
        ),
        (
            {
                "t": "lobby_settings",
                "seats": 3,
                "bot_level": "easy",
                "restrict_last_bid": "never",
                "specials": ["dragon", "fairy"],
            },
            False,
        ),
    ],
)
def test_the_host_s_schemas_of_the_new_messages(msg: dict[str, Any], ok: bool) -> None:
    if ok:
        p.INBOUND.check(msg)
    else:
        with pytest.raises(ProtocolError):
            p.INBOUND.check(msg)


def test_each_decision_message_is_the_action_it_names() -> None:
    from wizard_tui.game import Suit
    from wizard_tui.game.actions import AdjustBid, Declare, NameTrump, SwapCard

    for action in (
        NameTrump(1, None),
        NameTrump(1, Suit.HEARTS),
        Declare(2, 4),
        AdjustBid(0, 3),
        PassCard(1, Special.WITCH),
        SwapCard(2, None, None),
        SwapCard(2, 5, Special.DRAGON),
    ):
        msg = p.special_msg(action, 4)
        p.INBOUND.check(msg)
        assert msg["round"] == 4 and p.special_action(msg) == action


def test_a_bombed_trick_reads_back_only_in_a_game_with_special_cards() -> None:
    from wizard_tui.game import Trick

    bombed = Trick(0, (62, 5, 7), 2, True)
    wire = p.trick_wire(bombed)
    assert wire == [0, [62, 5, 7], 2, True]
    _game, view = _special_view()
    assert _read({**view, "tricks": [wire]}).tricks == (bombed,)
    plain = p.view_wire(seat_view(_plain_game(), 0))
    with pytest.raises(ProtocolError):
        _read({**plain, "tricks": [[0, [1, 5, 7], 2, True]]})


def _plain_game() -> Game:
    game = Game(GameConfig(3, 0, TableRules()))
    game.apply(Deal(tuple(range(60))))
    return game


def test_views_of_a_plain_game_carry_no_special_key_at_any_step() -> None:
    for game, _events in _games(3, 2, TableRules(rounds=(1, 2))):
        for seat in range(3):
            assert p.SPECIAL_VIEW_KEYS.isdisjoint(p.view_wire(seat_view(game, seat)))
