"""Games with all nine special cards (docs/rules.md, "Special cards") over real sockets on
127.0.0.1, dealt by commit-reveal, between host bots and network bots (``join --bot``'s
``play_as_bot``): the game finishes, every session ends as documented (exit code 0, its link
closed), the host's record and every joiner's own record verify; a passed card reaches its
new holder and nobody else (every message each client received is looked at); and a host
stopped mid-round, after special decisions of that round were made, resumes it exactly.

The deals are the same every run (special_helpers.fix_the_deals): these games reach every
card's decision, which the tests check rather than assume."""

from __future__ import annotations

import asyncio
import random
from collections import defaultdict
from pathlib import Path
from typing import Any

import pytest
from net_helpers import (
    LIMITS,
    LOOPBACK,
    CapturingSession,
    assert_game_verified,
    play_bots,
    running_host,
    wait_until,
)
from special_helpers import (
    ALL_NINE,
    every_view,
    fix_the_deals,
    held,
    passed,
    replayed_positions,
    seeded_sessions,
    special_options,
)

from netplay import StaticIdentity
from wizard_tui.game import Game, PlayerAction, left_of, seat_view
from wizard_tui.game.actions import AdjustBid, Declare, NameTrump, PassCard, SwapCard
from wizard_tui.net import protocol as p
from wizard_tui.net.host_adapter import WizardHost
from wizard_tui.net.hosting import hosting
from wizard_tui.net.journal import read_journal
from wizard_tui.net.restore import replay
from wizard_tui.verify import verify_path

DECISIONS = {NameTrump, Declare, AdjustBid, PassCard, SwapCard}


def _actions(game: Game) -> list[PlayerAction]:
    return [a for result in game.results for a in result.actions]


def _dealt(game: Game) -> set[int]:
    """Every card dealt into a hand or turned up in the game."""
    cards = {c for r in game.results for hand in r.hands for c in hand}
    return cards | {r.turned_card for r in game.results if r.turned_card is not None}


async def test_a_game_with_all_nine_cards_between_network_bots_verifies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fix_the_deals(monkeypatch, 3)
    options = special_options(tmp_path, players=4, bots=1, level="normal")
    async with asyncio.timeout(90), running_host(options, rng=random.Random(3)) as host:
        sessions = await seeded_sessions(options.port, 3, 3, records_dir=tmp_path / "own")
        codes = await play_bots(sessions, "easy", seed=3)
        await host.finished.wait()
    assert codes == [0, 0, 0]  # join --bot's exit status: finished, every round verified
    assert all(s.client.state == "closed" for s in sessions)
    assert_game_verified(host, sessions)  # the host's record, every joiner's own (files too)
    assert all(s.record_path is not None and s.record_path.exists() for s in sessions)
    game = host.table.game  # type: ignore[union-attr]
    assert game.config.rules.specials == ALL_NINE
    assert {type(a) for a in _actions(game)} >= DECISIONS
    assert _dealt(game) >= set(ALL_NINE)


async def test_a_passed_card_reaches_only_its_new_holder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every view any client was sent (in a ``state`` or a ``snapshot``) shows exactly the
    cards its seat held at that point of the game (replayed from the host's game, with the
    engine's own hands, not its views) and only its own latest pass; each pass shows its
    receiver the card; a pass's event names nothing but its trick; and a watcher's views
    show no pass at all."""
    fix_the_deals(monkeypatch, 8)
    options = special_options(tmp_path, players=3, bots=0, level="easy")
    async with asyncio.timeout(90), running_host(options, rng=random.Random(8)) as host:
        watcher = CapturingSession(LOOPBACK, options.port, name="w", limits=LIMITS, watch=True)
        await watcher.connect()
        sessions = await seeded_sessions(options.port, 3, 8, cls=CapturingSession)
        codes = await play_bots(sessions, "easy", seed=8)
        await host.finished.wait()
        await watcher.close()
    assert codes == [0, 0, 0]
    # The watcher's public views hold no hand, no choice and no pass.
    public = [v for m in watcher.received for v in every_view(m)]
    assert len(public) > 50
    assert all(v["hand"] == [] and v["last_pass"] is None for v in public if v["round"])
    live = host.table.game  # type: ignore[union-attr]
    n = live.players
    # What each seat really held, and its latest pass, at each position of the game.
    truth: dict[tuple[int, Any], list[tuple[frozenset[int], Any]]] = defaultdict(list)
    latest: list[Any] = [None] * n
    passes: list[tuple[int, int, int]] = []  # (round, passer, card)
    for game, events in replayed_positions(live):
        if any(type(e).__name__ == "RoundDealt" for e in events):
            latest = [None] * n
        if passed(events):
            group = [a for a in game.actions if isinstance(a, PassCard)][-n:]
            gave = {a.seat: a.card for a in group}
            latest = [[gave[s], gave[left_of(s - 2, n)]] for s in range(n)]
            passes += [(game.round, s, gave[s]) for s in range(n)]
        for seat in range(n):
            wire = p.view_wire(seat_view(game, seat))
            truth[(seat, _position(wire))].append((held(game, seat), latest[seat]))
    assert passes, "no Juggler's pass in this game: choose another seed"
    got_it: set[tuple[int, int]] = set()  # (round, card) a receiver was shown it got
    for seat, session in enumerate(sessions):
        views = 0
        for msg in session.received:
            if msg.get("t") == "state":
                for event in msg["events"]:
                    if event[0] == "passed":
                        assert len(event) == 2  # the trick index, and no card
            for view in every_view(msg):
                if view["round"] == 0:
                    continue
                assert view["seat"] == seat
                options_here = truth.get((seat, _position(view)), [])
                shown = (frozenset(view["hand"]), view["last_pass"])
                assert shown in options_here, (session.name, view["round"], view["phase"])
                if view["last_pass"] is not None:
                    got_it.add((view["round"], view["last_pass"][1]))
                views += 1
        assert views > 50
    # Each passed card was shown to its receiver as received.
    assert {(r, card) for r, _seat, card in passes} <= got_it


def _position(view: dict[str, Any]) -> tuple[Any, ...]:
    """Where in the game a view (its wire form) is: round, phase, turn, bids and tricks."""
    return (
        view["round"],
        view["phase"],
        view["turn"],
        tuple(view["bids"]),
        repr(view["tricks"]),
        tuple(view["trick"]),
        tuple(map(tuple, view["declared"])),
    )


class HoldsAfterADecision(CapturingSession):
    """Keeps back its first intent made once a special decision of the round is public (a
    declaration in its view) and the round has cards to go, of all the sessions sharing
    ``held``: the host is stopped at that point for sure. Once the link comes back its bot
    answers the same decision again (the snapshot asks for it)."""

    def __init__(self, *args: Any, held: asyncio.Event, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.held = held

    def _intent(self, msg: dict[str, Any]) -> None:
        view = self.view
        if not self.held.is_set() and view is not None and view.declared and view.hand:
            self.held.set()
            return
        super()._intent(msg)


async def test_a_host_stopped_after_special_decisions_resumes_the_round_exactly(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    fix_the_deals(monkeypatch, 5)
    identity = StaticIdentity.generate()
    options = special_options(tmp_path, players=3, bots=1, journal_dir=tmp_path / "games")
    async with asyncio.timeout(90):
        async with hosting(
            options, bind=LOOPBACK, port=0, identity=identity, limits=LIMITS
        ) as host:
            port = options.port
            held = asyncio.Event()
            sessions = await seeded_sessions(port, 2, 5, cls=HoldsAfterADecision, held=held)
            game = asyncio.ensure_future(play_bots(sessions, "easy", 5))
            await wait_until(lambda: held.is_set() or game.done())
            assert not game.done(), "the game ended before the stop"
            assert host.table is not None and host.journal is not None
            before = _table(host)
            path = host.journal.path
        contents = read_journal(path)
        r = before[0]
        # The round's special decisions are journaled, and the journal rebuilds the table.
        kinds = {e["a"] for e in contents.entries if e["t"] == "action" and e["round"] == r}
        assert kinds & set(p.SPECIAL_INTENTS), kinds
        restored = replay(contents.entries)
        assert _table_of(restored.table.game) == before
        async with hosting(
            options, bind=LOOPBACK, port=port, identity=identity, limits=LIMITS, resume=contents
        ) as host:
            codes = await game
            await host.finished.wait()
        for session in sessions:
            await session.close()
    assert codes == [0, 0]
    assert_game_verified(host, sessions)
    assert host.table is not None and host.table.record_path is not None
    assert verify_path(host.table.record_path).ok


def _table(host: WizardHost) -> tuple[Any, ...]:
    assert host.table is not None
    return _table_of(host.table.game)


def _table_of(game: Any) -> tuple[Any, ...]:
    """The round, every seat's view and the game's actions so far."""
    views = tuple(seat_view(game, s) for s in range(game.players))
    return (game.round, views, tuple(game.actions))
