"""The host's checks of the special cards' decisions (docs/protocol.md, "Special cards"),
with no socket (test_host_core's fake runtime and server): each is refused like a bid or a
play (not_your_seat, stale_round, the engine's not_your_turn and wrong_phase) and changes
nothing; an accepted one is journaled and a journal replays the table; a host bot answers
every special decision; a host with the private deal refuses special cards with the forehead
round in words; and the client sends one intent per decision."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from net_helpers import host_state
from test_host_core import FakeRuntime, FakeServer, Players, _host, _join

from netplay import Session
from wizard_tui.game import Bid, ChooseTrump, Phase, Play, TableRules, seat_view
from wizard_tui.game.specials import SPECIALS, Special
from wizard_tui.net import protocol as p
from wizard_tui.net.decisions import SPECIAL_PHASES, first_legal_move
from wizard_tui.net.host import HostCore, HostOptions
from wizard_tui.net.host_adapter import WizardHost
from wizard_tui.net.journal import read_journal
from wizard_tui.net.restore import replay

RULES = TableRules(specials=frozenset(SPECIALS))


def _msg(view: Any) -> dict[str, Any]:
    """The message of the first legal move of ``view``."""
    action = first_legal_move(view)
    if isinstance(action, Play):
        return p.play_msg(view.seat, view.round, action.card)
    if isinstance(action, Bid):
        return p.bid_msg(view.seat, view.round, action.bid)
    if isinstance(action, ChooseTrump):
        return p.trump_msg(view.seat, view.round, int(action.suit))
    return p.special_msg(action, view.round)


class SpecialPlayers(Players):
    """The two people: they answer the deal and make the first legal move in every phase
    (but those in ``idle``, who only deal)."""

    idle: tuple[Session, ...] = ()

    def on_turn(self) -> Session | None:
        table = self.host.table
        assert table is not None
        movers = [s for s in self.sessions if s not in self.idle]
        return next((s for s in movers if s.seat == table.game.turn), None)

    def move(self) -> bool:
        table = self.host.table
        assert table is not None
        session = self.on_turn()
        if session is None or table.game.phase in (Phase.DEAL, Phase.GAME_OVER):
            return False
        assert session.seat is not None
        self.host.on_message(session, _msg(seat_view(table.game, session.seat)))
        return True


def _special_table(tmp_path: Path) -> tuple[WizardHost, FakeRuntime, FakeServer, SpecialPlayers]:
    host, runtime, server = _host(tmp_path, rules=RULES, deal="commit-reveal")
    sessions = _join(host, runtime, "alice", "bob")
    return host, runtime, server, SpecialPlayers(host, server, sessions)


def _until(host: WizardHost, runtime: FakeRuntime, players: SpecialPlayers, done: Any) -> None:
    for _ in range(5000):
        players.answer()
        runtime.advance()
        if done():
            return
        if not players.move():
            runtime.advance()
    raise AssertionError("the game did not get there")


def _refusals(server: FakeServer, start: int) -> list[str]:
    return [m["code"] for _sid, m, _n in server.sent[start:] if m["t"] == "refused"]


def test_special_decisions_are_checked_like_bids_and_plays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(os, "fsync", lambda fd: None)  # (the journal's contents count here)
    host, runtime, server, players = _special_table(tmp_path)
    table = host.table
    assert table is not None
    checked: list[Phase] = []
    while not table.finished:  # every special decision of the people, the whole game
        _until(
            host,
            runtime,
            players,
            lambda: (
                table.finished
                or (table.game.phase in SPECIAL_PHASES and players.on_turn() is not None)
            ),
        )
        if table.finished:
            break
        checked.append(table.game.phase)
        mover = players.on_turn()
        assert mover is not None and mover.seat is not None
        other = next(s for s in players.sessions if s is not mover)
        assert other.seat is not None
        right = _msg(seat_view(table.game, mover.seat))
        before, start = host_state(host), len(server.sent)
        host.on_message(mover, {**right, "seat": other.seat})  # another seat's
        host.on_message(mover, {**right, "round": table.game.round + 1})  # another round
        host.on_message(other, {**right, "seat": other.seat})  # not its turn
        wrong = "declare" if right["t"] != "declare" else "adjust_bid"
        odd = {"t": wrong, "seat": mover.seat, "round": table.game.round}
        odd |= {"choice": 0} if wrong == "declare" else {"bid": 0}
        host.on_message(mover, odd)  # a decision this phase does not ask
        runtime.advance()
        assert _refusals(server, start) == [
            "not_your_seat",
            "stale_round",
            "not_your_turn",
            "wrong_phase",
        ]
        assert host_state(host) == before  # nothing changed
        taken = len(server.sent)
        host.on_message(mover, right)
        runtime.advance()
        assert host_state(host) != before and _refusals(server, taken) == []
    # (This table's deals reach these decisions of the people.)
    assert set(checked) >= {Phase.NAME_TRUMP, Phase.DECLARE, Phase.PASS}, checked
    # The host's bot answered its own special decisions; the journal holds every special
    # decision and rebuilds the table.
    entries = read_journal(next((tmp_path / "games").glob("*.journal"))).entries
    journaled = {e["a"] for e in entries if e["t"] == "action"}
    assert journaled >= {"name_trump", "declare", "pass_card"}, journaled
    bots = {e["a"] for e in entries if e["t"] == "action" and e["by"] == "bot"}
    assert bots & set(p.SPECIAL_INTENTS), bots
    restored = replay(entries)
    assert restored.game.actions == table.game.actions
    assert restored.recorder.record() == table.recorder.record()


def test_a_private_host_refuses_special_cards_with_the_forehead_round_in_words(
    tmp_path: Path,
) -> None:
    forehead = TableRules(specials=frozenset({Special.JUGGLER}), forehead=True)
    with pytest.raises(ValueError, match="into the forehead round yet"):
        HostCore(HostOptions(players=3, rules=forehead, deal="private"))
    HostCore(HostOptions(players=3, rules=RULES, deal="private"))  # every card, no forehead
    host, runtime, server = _host(tmp_path, deal="private", auto_start=False)
    (alice,) = _join(host, runtime, "alice")
    host.on_message(alice, {"t": "claim_host", "key": host.host_key})
    start = len(server.sent)
    settings = {"t": "lobby_settings", "seats": 3, "bot_level": "easy"}
    settings |= {"restrict_last_bid": "never", "specials": "juggler", "forehead": True}
    host.on_message(alice, settings)
    runtime.advance()
    refused = [m for _sid, m, _n in server.sent[start:] if m["t"] == "refused"]
    assert [m["code"] for m in refused] == ["not_ready"]
    assert "cannot deal the special cards into the forehead round" in refused[0]["message"]
    assert not host.options.rules.specials


def test_the_lobby_sets_and_shows_special_cards(tmp_path: Path) -> None:
    host, runtime, server = _host(tmp_path, deal="commit-reveal", auto_start=False)
    (alice,) = _join(host, runtime, "alice")
    host.on_message(alice, {"t": "claim_host", "key": host.host_key})
    base = {"t": "lobby_settings", "seats": 3, "bot_level": "easy", "restrict_last_bid": "never"}
    start = len(server.sent)
    host.on_message(alice, {**base, "specials": "dragon"})  # without the Fairy
    host.on_message(alice, {**base, "specials": "juggler,wizard"})  # no such card
    runtime.advance()
    assert _refusals(server, start) == ["not_ready", "not_ready"]
    host.on_message(alice, {**base, "specials": "vampire,fairy,dragon"})
    runtime.advance()
    lobby = [m for _sid, m, _n in server.sent if m["t"] == "lobby"][-1]
    assert lobby["settings"]["specials"] == ["dragon", "fairy", "vampire"]
    host.on_message(alice, {**base, "hidden_bids": True})  # left out: they stay
    runtime.advance()
    lobby = [m for _sid, m, _n in server.sent if m["t"] == "lobby"][-1]
    assert lobby["settings"]["specials"] == ["dragon", "fairy", "vampire"]
    host.on_message(alice, {**base, "specials": "none"})
    runtime.advance()
    assert not host.options.rules.specials


def _view_in(phase: Phase, seed: int = 0) -> Any:
    """A seat's view on turn in ``phase``, from a random game with all nine cards."""
    import random

    from wizard_tui.game import Deal, Game, GameConfig
    from wizard_tui.game.specials import deck_cards

    rng = random.Random(seed)
    game = Game(GameConfig(3, 0, RULES))
    cards = list(deck_cards(RULES.specials))
    while game.phase is not Phase.GAME_OVER:
        if game.phase is phase:
            return seat_view(game, game.turn)
        if game.phase is Phase.DEAL:
            rng.shuffle(cards)
            game.apply(Deal(tuple(cards)))
        else:
            game.apply(rng.choice(game.legal_actions()))
    raise AssertionError(f"no {phase} in this game")


@pytest.mark.parametrize("phase", SPECIAL_PHASES)
def test_the_client_sends_one_intent_per_special_decision(phase: Phase) -> None:
    from wizard_tui.net.client import NetworkSession

    session = NetworkSession("127.0.0.1", 1, name="me")  # never connected
    sent: list[dict[str, Any]] = []
    session.client.send = sent.append  # type: ignore[method-assign]
    view = _view_in(phase)
    session.view = view
    action = first_legal_move(view)
    session.act(action)
    session.act(action)  # the same decision again: not sent
    assert sent == [p.special_msg(action, view.round)]
    p.INBOUND.check(sent[0])
    session.act(action, auto=True)
    assert len(sent) == 1
    # A decision of another phase is not sent at all.
    other = next(ph for ph in SPECIAL_PHASES if ph is not phase)
    session.act(first_legal_move(_view_in(other)))
    assert len(sent) == 1


@pytest.mark.parametrize("phase", SPECIAL_PHASES)
def test_the_away_player_answers_every_special_decision(phase: Phase) -> None:
    from wizard_tui.net.away_player import AwayPlayer

    view = _view_in(phase, seed=1)
    action = AwayPlayer("easy").move(view, 0)
    assert action is not None and action in _legal_here(phase, seed=1)


def _legal_here(phase: Phase, seed: int) -> list[Any]:
    """The legal actions of the game ``_view_in`` stops in."""
    import random

    from wizard_tui.game import Deal, Game, GameConfig
    from wizard_tui.game.specials import deck_cards

    rng = random.Random(seed)
    game = Game(GameConfig(3, 0, RULES))
    cards = list(deck_cards(RULES.specials))
    while game.phase is not phase:
        if game.phase is Phase.DEAL:
            rng.shuffle(cards)
            game.apply(Deal(tuple(cards)))
        else:
            game.apply(rng.choice(game.legal_actions()))
    return list(game.legal_actions())


def test_a_stand_in_answers_an_away_seat_s_special_decisions(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The host's table hands Bob's seat to a bot (as a turn time would): its stand-in
    answers every decision of his, the special ones included, to the game's end."""
    monkeypatch.setattr(os, "fsync", lambda fd: None)
    host, runtime, _server, players = _special_table(tmp_path)
    alice, bob = players.sessions
    host.on_message(alice, {"t": "claim_host", "key": host.host_key})
    assert bob.seat is not None
    host.on_message(alice, {"t": "hand_to_bot", "seat": bob.seat})
    players.idle = (bob,)  # Bob's program deals, but he never presses a key again
    table = host.table
    assert table is not None
    _until(host, runtime, players, lambda: table.finished)
    entries = read_journal(next((tmp_path / "games").glob("*.journal"))).entries
    standing_in = {
        e["a"] for e in entries if e["t"] == "action" and e["seat"] == bob.seat and e["round"] > 1
    }
    bys = {e["by"] for e in entries if e["t"] == "action" and e["seat"] == bob.seat}
    assert bys == {"stand_in"}
    assert standing_in & set(p.SPECIAL_INTENTS), standing_in
