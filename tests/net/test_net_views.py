"""The host's fast path for the views it sends after every action gives exactly what
``view_wire(seat_view(game, seat))``, the one definition of a seat's view, gives."""

from __future__ import annotations

import random

import pytest

from netplay.framing import decode_payload
from wizard_tui.game import Deal, Game, GameConfig, Phase, RestrictLastBid, seat_view
from wizard_tui.net import protocol as p


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_views_wire_is_view_wire_of_every_seat_at_every_step(players: int) -> None:
    rng = random.Random(players)
    game = Game(GameConfig(players, rng.randrange(players), RestrictLastBid.ALWAYS))
    steps = 0
    while game.phase is not Phase.GAME_OVER:
        expected = [p.view_wire(seat_view(game, seat)) for seat in range(players)]
        assert p.views_wire(game) == expected, (game.round, game.phase, game.turn)
        if game.phase is Phase.DEAL:
            deck = list(range(60))
            rng.shuffle(deck)
            game.apply(Deal(tuple(deck)))
        else:
            game.apply(rng.choice(game.legal_actions()))
        steps += 1
    assert p.views_wire(game) == [p.view_wire(seat_view(game, s)) for s in range(players)]
    assert steps > 100


@pytest.mark.parametrize("players", [3, 6])
def test_state_payloads_decode_to_the_state_of_every_seat(players: int) -> None:
    rng = random.Random(10 + players)
    game = Game(GameConfig(players, 0, RestrictLastBid.ALWAYS))
    seats = [{"name": f"p{i}", "kind": "human", "connected": True} for i in range(players)]
    checked = 0
    while game.phase is not Phase.GAME_OVER:
        if game.phase is Phase.DEAL:
            deck = list(range(60))
            rng.shuffle(deck)
            events = game.apply(Deal(tuple(deck)))
        else:
            events = game.apply(rng.choice(game.legal_actions()))
        events_wire = [p.event_wire(e) for e in events]
        payloads = p.state_payloads(game, seats, events_wire)
        for seat, payload in enumerate(payloads):
            msg = decode_payload(payload, p.LIMITS)
            view = p.view_wire(seat_view(game, seat))
            assert msg == {"t": "state", "view": view, "seats": seats, "events": events_wire}
            assert list(msg) == ["t", "view", "seats", "events"]
            checked += 1
    assert checked > 100 * players
