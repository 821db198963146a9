"""Whole games of another length (docs/rules.md, "Game length") over real sockets on
127.0.0.1, with both deals: network bot clients and host bots, every client checking every
round itself, and the host's record and every joiner's own record (its file included)
passing ``verify`` with the length's rounds, each dealing its scheduled cards."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from net_helpers import assert_game_verified, play_bots, running_host, seat_sessions
from private_helpers import assert_private_game_verified

from wizard_tui.game import RestrictLastBid, TableRules, length_rounds
from wizard_tui.net.host import HostOptions
from wizard_tui.net.host_adapter import WizardHost
from wizard_tui.verify import verify_path


def _assert_schedule(host: WizardHost, length: str, players: int, joined: Path) -> None:
    """The host's record and each joiner's file hold the length's rounds, dealt to size."""
    table = host.table
    assert table is not None and table.record_path is not None
    sizes = length_rounds(length, players)
    assert sizes is not None
    own_files = sorted(joined.glob("*.json"))
    assert len(own_files) == players - host.options.bots
    for path in (table.record_path, *own_files):
        verdict = verify_path(path)
        assert verdict.ok, verdict.line()
        record = verdict.record
        assert record is not None and record.complete
        assert record.rules.rounds == sizes
        assert [len(r.hands[0]) for r in record.rounds] == list(sizes)
        assert [len(r.tricks) for r in record.rounds] == list(sizes)
        # A round dealing every card turns no trump up; every other round does.
        turned = [r.trump_card is not None for r in record.rounds]
        assert turned == [size * players < 60 for size in sizes]


@pytest.mark.parametrize(
    ("players", "host_bots", "length", "restrict"),
    [
        (3, 1, "short", RestrictLastBid.AFTER_ROUND_1),
        (6, 3, "up-and-down", RestrictLastBid.ALWAYS),
    ],
)
async def test_commit_reveal_game_of_a_length_verifies(
    tmp_path: Path, players: int, host_bots: int, length: str, restrict: RestrictLastBid
) -> None:
    options = HostOptions(
        players=players,
        bots=host_bots,
        bot_level="random",
        rules=TableRules(restrict),
        length=length,
        records_dir=tmp_path / "host",
        deal="commit-reveal",
    )
    async with asyncio.timeout(60), running_host(options) as host:
        sessions = await seat_sessions(
            options.port, players - host_bots, records_dir=tmp_path / "joined"
        )
        codes = await play_bots(sessions, "random", seed=players)
        await host.finished.wait()
        assert codes == [0] * len(sessions)
        assert_game_verified(host, sessions)
    _assert_schedule(host, length, players, tmp_path / "joined")


@pytest.mark.parametrize(
    ("players", "host_bots", "length"),
    [
        (3, 1, "1,3,2"),  # up, then down: a chosen list
        (3, 2, "2,20,1"),  # a round of the whole deck (no trump card) in the middle
    ],
)
async def test_private_game_of_a_length_verifies(
    tmp_path: Path, players: int, host_bots: int, length: str
) -> None:
    options = HostOptions(
        players=players,
        bots=host_bots,
        bot_level="random",
        rules=TableRules(RestrictLastBid.AFTER_ROUND_1),
        length=length,
        records_dir=tmp_path / "host",
        deal="private",
    )
    async with asyncio.timeout(60), running_host(options) as host:
        sessions = await seat_sessions(
            options.port, players - host_bots, records_dir=tmp_path / "joined"
        )
        codes = await play_bots(sessions, "random", seed=players)
        await host.finished.wait()
        assert codes == [0] * len(sessions)
        assert_private_game_verified(host, sessions)
    _assert_schedule(host, length, players, tmp_path / "joined")
