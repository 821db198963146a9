"""Helpers for the network tests of the special cards: a table with all nine, dealt the same
way every run (a fixed game id, fixed seeds for the host's bots and for every client), so a
test knows the game reaches every card's decision; and a replay of a finished round that
says, at each position, which cards every seat really held.

Every socket is on the loopback address (net_helpers)."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from net_helpers import LIMITS, LOOPBACK

from wizard_tui.game import Game, TableRules, cards_of
from wizard_tui.game.actions import CardsPassed
from wizard_tui.game.specials import SPECIALS
from wizard_tui.net.client import NetworkSession
from wizard_tui.net.host import HostOptions

ALL_NINE = frozenset(SPECIALS)


def special_options(
    tmp_path: Path, players: int, bots: int, level: str = "easy", **kwargs: Any
) -> HostOptions:
    """A commit-reveal table with all nine special cards, playing a short game."""
    return HostOptions(
        players=players,
        bots=bots,
        bot_level=level,
        rules=TableRules(specials=ALL_NINE),
        length="short",
        records_dir=tmp_path / "records",
        deal="commit-reveal",
        **kwargs,
    )


def seeds_from(seed: int) -> Callable[[], bytes]:
    """A seed source that draws the same seeds every run."""
    rng = random.Random(seed)
    return lambda: rng.randbytes(32)


def fix_the_deals(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """The host's game id and its bots' seeds the same every run (the clients' come from
    ``seeds_from``): with them every round deals the same deck."""
    ids = random.Random(seed)
    monkeypatch.setattr("wizard_tui.net.host.new_game_id", lambda: ids.randbytes(16))
    monkeypatch.setattr("wizard_tui.net.deals.commit_reveal.host.new_seed", seeds_from(seed + 1000))


async def seeded_sessions(
    port: int, count: int, seed: int, cls: type[NetworkSession] = NetworkSession, **kwargs: Any
) -> list[Any]:
    """``count`` clients in seats 0.., each drawing its seeds from its own fixed source."""
    sessions = []
    for i in range(count):
        session = cls(
            LOOPBACK,
            port,
            name=f"net{i}",
            limits=LIMITS,
            new_seed=seeds_from(seed * 100 + i),
            **kwargs,
        )
        await session.connect()
        sessions.append(session)
    return sessions


def replayed_positions(live: Game) -> Iterator[tuple[Game, list[Any]]]:
    """Each position of the game ``live`` played (the game there, and the events that led
    to it), replayed from its own action list, deals included."""
    game = Game(live.config)
    yield game, []
    for action in live.actions:
        events = game.apply(action)
        yield game, events


def held(game: Game, seat: int) -> frozenset[int]:
    """The cards ``seat`` really holds now, from the game's own hand (not a view)."""
    return frozenset(cards_of(game.hand_mask(seat)))


def passed(events: list[Any]) -> bool:
    """Whether these events moved the passed cards."""
    return any(isinstance(e, CardsPassed) for e in events)


def every_view(msg: Any) -> Iterator[dict[str, Any]]:
    """Every seat's view anywhere in a message (a map with a ``hand`` and a ``seat``)."""
    if isinstance(msg, dict):
        if "hand" in msg and "seat" in msg:
            yield msg
        for value in msg.values():
            yield from every_view(value)
    elif isinstance(msg, list):
        for value in msg:
            yield from every_view(value)


__all__ = [
    "ALL_NINE",
    "every_view",
    "fix_the_deals",
    "held",
    "passed",
    "replayed_positions",
    "seeded_sessions",
    "seeds_from",
    "special_options",
]
