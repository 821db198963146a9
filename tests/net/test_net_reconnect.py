"""A client whose connection drops abruptly comes back with its token and plays on.

The netplay client reconnects by itself; the host gives it back its seat and a snapshot,
and the game finishes with every round verified by every client.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from net_helpers import (
    LIMITS,
    CapturingSession,
    assert_game_verified,
    play_bots,
    running_host,
    seat_sessions,
)

from netplay import Client
from wizard_tui.game import Phase, SeatView
from wizard_tui.net import protocol as p
from wizard_tui.net.deals.commit_reveal.host import CommitRevealHost
from wizard_tui.net.host import HostOptions


class GatedClient(Client):
    """A netplay client that, once its link dropped, reconnects only when ``gate`` opens."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.gate = asyncio.Event()
        self.gate.set()

    async def _open(self) -> Any:
        if self.state == "reconnecting":
            await self.gate.wait()
        return await super()._open()


class DroppingSession(CapturingSession):
    """Cuts its own connection (no bye: the socket just goes) the first time ``should_drop``
    says so on a new view; everything else is the real client."""

    def __init__(self, host: str, port: int, **kwargs: Any) -> None:
        super().__init__(host, port, **kwargs)
        self.client = GatedClient(
            host, port, protocol=p.PROTOCOL, version=p.VERSION, name=self.name, limits=LIMITS
        )
        self.dropped_view: SeatView | None = None
        self.snapshot_view: SeatView | None = None
        self.dropped = asyncio.Event()

    def should_drop(self, view: SeatView) -> bool:
        raise NotImplementedError

    def _handle(self, msg: dict[str, Any]) -> None:
        super()._handle(msg)
        if msg["t"] == "snapshot":
            self.snapshot_view = self.view
        elif msg["t"] == "state" and self.dropped_view is None:
            assert self.view is not None
            if self.should_drop(self.view):
                self.dropped_view = self.view
                link = self.client._link
                assert link is not None
                link.writer.transport.abort()
                self.dropped.set()


class DropMidTrick(DroppingSession):
    """Drops when it is to play into a trick already led (round 2 or later)."""

    def should_drop(self, view: SeatView) -> bool:
        return view.round >= 2 and view.my_turn and view.phase is Phase.PLAY and bool(view.trick)


class DropAfterLastCard(DroppingSession):
    """Drops right after playing its last card of a round while others still have to play,
    so the round ends, and the next one begins, while it is away."""

    def should_drop(self, view: SeatView) -> bool:
        return (
            view.round >= 2
            and view.phase is Phase.PLAY
            and not view.hand
            and any(seat == self.seat for seat, _ in view.trick)
            and len(view.trick) < view.players
        )


def _welcomes(session: CapturingSession) -> list[dict[str, Any]]:
    return [m for m in session.received if m["t"] == "welcome"]


async def test_drop_mid_trick_resumes_seat_snapshot_and_view(tmp_path: Path) -> None:
    options = HostOptions(players=4, bots=1, bot_level="random", records_dir=tmp_path)
    async with asyncio.timeout(20), running_host(options) as host:
        (dropper,) = await seat_sessions(options.port, 1, cls=DropMidTrick)
        others = await seat_sessions(options.port, 2)
        session_id, seat = dropper.client.session, dropper.seat
        codes = await play_bots([dropper, *others])
        await host.finished.wait()

    assert dropper.dropped.is_set(), "the game never reached the point of the drop"
    first, again = _welcomes(dropper)
    assert first["resumed"] is False and again["resumed"] is True
    assert again["session"] == session_id and again["seat"] == seat == dropper.seat
    after = dropper.received[dropper.received.index(again) + 1 :]
    assert after and after[0]["t"] == "snapshot"
    # Nobody could move while it was this seat's turn: the snapshot shows the same table.
    assert dropper.snapshot_view == dropper.dropped_view
    assert codes == [0, 0, 0]
    assert_game_verified(host, [dropper, *others])


async def test_drop_across_a_round_boundary_commits_on_return(tmp_path: Path) -> None:
    """The client misses the end of its round and the start of the next (the host's
    ``round`` message): the snapshot must bring it back into the deal, so it commits."""
    options = HostOptions(players=3, bots=1, bot_level="random", records_dir=tmp_path)
    async with asyncio.timeout(20), running_host(options) as host:
        started: list[int] = []
        round_started = asyncio.Event()
        half = host.deal_half
        assert isinstance(half, CommitRevealHost)
        start_round = half.start_round

        def spy() -> None:
            start_round()
            assert half.deal is not None
            started.append(half.deal.exchange.round)
            round_started.set()

        half.start_round = spy  # type: ignore[method-assign]
        dropper = (await seat_sessions(options.port, 1, cls=DropAfterLastCard))[0]
        dropper.client.gate.clear()  # type: ignore[attr-defined]
        other = (await seat_sessions(options.port, 1))[0]
        game = asyncio.ensure_future(play_bots([dropper, other]))
        await dropper.dropped.wait()
        assert dropper.dropped_view is not None
        dropped_in = dropper.dropped_view.round
        while dropped_in + 1 not in started:
            round_started.clear()
            await round_started.wait()
        dropper.client.gate.set()  # type: ignore[attr-defined]
        codes = await game
        await host.finished.wait()

    snapshot = next(m for m in dropper.received if m["t"] == "snapshot")
    assert snapshot["deal"]["round"] == dropped_in + 1
    assert snapshot["deal"]["committed"] is False
    assert len(snapshot["history"]) == dropped_in  # it missed that round's end
    assert codes == [0, 0]
    assert_game_verified(host, [dropper, other])
