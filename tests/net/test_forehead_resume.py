"""The forehead round survives a player's dropped link and a host stopped mid-round, with
both deals: the returning player sees the round as before (the others' cards, its own face
down), the restarted host carries on (commit-reveal) or deals round 1 again (the private
deal: its keys are gone), and every record verifies."""

from __future__ import annotations

import asyncio
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
    seat_sessions,
    wait_until,
)
from private_helpers import assert_private_game_verified
from test_net_reconnect import DroppingSession

from netplay import StaticIdentity
from wizard_tui.game import Phase, SeatView, TableRules
from wizard_tui.net.host import HostOptions
from wizard_tui.net.host_adapter import WizardHost
from wizard_tui.net.hosting import hosting
from wizard_tui.net.journal import read_journal
from wizard_tui.verify import verify_path


class DropInTheForeheadRound(DroppingSession):
    """Drops once round 1's cards are being played."""

    def should_drop(self, view: SeatView) -> bool:
        return view.round == 1 and view.phase is Phase.PLAY


def _options(tmp_path: Path, deal: str, bots: int = 1) -> HostOptions:
    return HostOptions(
        players=3,
        bots=bots,
        bot_level="random",
        rules=TableRules(forehead=True),
        records_dir=tmp_path / "records",
        journal_dir=tmp_path / "games",
        deal=deal,
    )


def _verified(host: WizardHost, sessions: list, deal: str, redeals: int = 0) -> None:
    if deal == "private":
        assert_private_game_verified(host, sessions, redeals=redeals)
    else:
        assert_game_verified(host, sessions)


@pytest.mark.parametrize("deal", ["commit-reveal", "private"])
async def test_a_player_back_in_the_forehead_round_sees_it_as_before(
    tmp_path: Path, deal: str
) -> None:
    options = _options(tmp_path, deal)
    async with asyncio.timeout(60), running_host(options) as host:
        (dropper,) = await seat_sessions(options.port, 1, cls=DropInTheForeheadRound)
        (other,) = await seat_sessions(options.port, 1)
        codes = await play_bots([dropper, other])
        await host.finished.wait()
    assert dropper.dropped.is_set() and codes == [0, 0]
    assert dropper.dropped_view is not None and dropper.dropped_view.forehead
    back = [m["view"] for m in dropper.received if m["t"] == "snapshot"]
    assert back, "it never came back with a snapshot"
    assert all(v["hand"] == [] for v in back if v["round"] == 1)  # its card still unseen
    _verified(host, [dropper, other], deal)


class HoldsItsForeheadCard(CapturingSession):
    """Keeps back the first play of round 1 made after a card is down, of all the sessions
    sharing ``held`` (before its deal makes anything of it), so the host stops at that
    point for sure: the round's plays are otherwise over in a moment. Once the link comes
    back its table asks for the card again, and it plays it; nobody holds one again."""

    def __init__(self, *args: Any, held: asyncio.Event, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.held = held

    def play(self, card: int, *, auto: bool = False) -> None:
        view = self.view
        if not self.held.is_set() and view is not None and view.round == 1 and view.trick:
            self.held.set()
            return
        super().play(card, auto=auto)


def _mid_forehead_round(host: WizardHost) -> bool:
    """Round 1 is being played, a card of it down already."""
    table = host.table
    return (
        table is not None
        and table.game.round == 1
        and table.game.phase is Phase.PLAY
        and bool(table.game.trick)
    )


@pytest.mark.parametrize("deal", ["commit-reveal", "private"])
async def test_a_host_stopped_in_the_forehead_round_resumes(tmp_path: Path, deal: str) -> None:
    identity = StaticIdentity.generate()
    options = _options(tmp_path, deal)
    async with asyncio.timeout(90):
        async with hosting(
            options, bind=LOOPBACK, port=0, identity=identity, limits=LIMITS
        ) as host:
            port = options.port
            sessions = []
            held = asyncio.Event()
            for i in range(2):
                session = HoldsItsForeheadCard(
                    LOOPBACK, port, name=f"net{i}", limits=LIMITS, held=held
                )
                await session.connect()
                sessions.append(session)
            game = asyncio.ensure_future(play_bots(sessions, "random", 5))
            await wait_until(lambda: held.is_set() or game.done())
            assert not game.done(), "the game ended before the crash point"
            assert _mid_forehead_round(host)
            assert host.journal is not None
            path = host.journal.path
        contents = read_journal(path)
        async with hosting(
            options, bind=LOOPBACK, port=port, identity=identity, limits=LIMITS, resume=contents
        ) as host:
            codes = await game
            await host.finished.wait()
        for session in sessions:
            await session.close()
    assert codes == [0, 0]
    # The private deal's keys died with the host: round 1 is dealt again (veiled again).
    _verified(host, sessions, deal, redeals=1 if deal == "private" else 0)
    assert host.table is not None and host.table.record_path is not None
    assert verify_path(host.table.record_path).ok
    first = host.table.recorder.rounds[0]
    if first.private_deal is not None:
        assert all(o & 0x80 for o in first.private_deal.setup.owners[:3])
