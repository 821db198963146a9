"""A cheating host (a ``WizardHost`` test double) is caught by every honest client.

Each kind of cheating starts in round 2, so round 1 shows the clients verifying a good
round first. The clients are the real ``NetworkSession`` played by ``play_as_bot``: each must
report ``RoundVerified(ok=False)`` naming round 2 and what failed, and end non-zero.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from net_helpers import play_bots, running_host, seat_sessions

from netplay.fairdeal import new_seed
from wizard_tui.game import Event, RoundDealt
from wizard_tui.net import protocol as p
from wizard_tui.net.client import NetworkSession
from wizard_tui.net.deals.commit_reveal import host as commit_reveal_host
from wizard_tui.net.deals.commit_reveal.host import CommitRevealHost
from wizard_tui.net.host import HostOptions
from wizard_tui.net.host_adapter import WizardHost
from wizard_tui.net.host_state import Table
from wizard_tui.session import RoundVerified
from wizard_tui.verify import verify_path

ROUND = 2  # the round the host cheats in
BOT_SEAT = 3  # the host's bot holds the last seat


class ShowsAWrongCard(WizardHost):
    """(a) Each client's first view of the round shows one card it was not dealt (a card of
    another seat's hand); every later view is honest again, so the play is not disturbed."""

    def _send_states(self, events: list[Event]) -> None:
        if not any(isinstance(e, RoundDealt) and e.round == ROUND for e in events):
            super()._send_states(events)
            return
        assert self.server is not None and self.table is not None
        game = self.table.game
        views, seats = p.views_wire(game), self._seats_wire()
        events_wire = [p.event_wire(e) for e in events]
        for i, seat in enumerate(self.seats):
            if seat is not None and seat.session is not None:
                views[i]["hand"][0] = game.dealt_hand((i + 1) % game.players)[0]
                msg = {"t": "state", "view": views[i], "seats": seats, "events": events_wire}
                self.server.send(seat.session, msg)


class _SwapsASeedDeal(CommitRevealHost):
    def _deal_if_complete(self, table: Table) -> list[Event]:
        deal = self.deal
        if (
            deal is not None
            and deal.exchange.round == ROUND
            and deal.commitments is not None
            and deal.seeds is None
            and not deal.exchange.missing_seeds()
        ):
            deal.exchange._seeds[BOT_SEAT] = new_seed()
        return super()._deal_if_complete(table)


class SwapsASeed(WizardHost):
    """(b) Once every seed is in, the host replaces its bot's seed with a new one (as if it
    had ground for a better deal), deals from that, and publishes it at round end."""

    def __init__(self, options: HostOptions, *, rng: random.Random | None = None) -> None:
        super().__init__(options, rng=rng, deal_half=_SwapsASeedDeal())


class _DealsAnotherDeckDeal(CommitRevealHost):
    def _deal_if_complete(self, table: Table) -> list[Event]:
        deal = self.deal
        if deal is None or deal.exchange.round != ROUND:
            return super()._deal_if_complete(table)

        def shuffle(seed: bytes, count: int) -> list[int]:
            deck = list(range(count))
            random.Random(7).shuffle(deck)
            return deck

        with mock.patch.object(commit_reveal_host, "shuffle_order", shuffle):
            return super()._deal_if_complete(table)


class DealsAnotherDeck(WizardHost):
    """(c) The host ignores the seeds and deals from a deck of its own choosing."""

    def __init__(self, options: HostOptions, *, rng: random.Random | None = None) -> None:
        super().__init__(options, rng=rng, deal_half=_DealsAnotherDeckDeal())


class ChangesYourCommitment(WizardHost):
    """(d) Each client is sent a commitment vector whose entry for its own seat is not the
    one it committed to (and so never reveals; the round cannot go on)."""

    def _broadcast(self, msg: dict[str, Any]) -> None:
        if msg["t"] != "commitments" or msg["round"] != ROUND:
            super()._broadcast(msg)
            return
        assert self.server is not None
        for seat in self.seats:
            if seat is not None and seat.session is not None:
                vector = list(msg["commitments"])
                own = vector[seat.session.seat]  # type: ignore[index]
                vector[seat.session.seat] = bytes([own[0] ^ 1]) + own[1:]  # type: ignore[index]
                self.server.send(seat.session, {**msg, "commitments": vector})


CASES = {
    "wrong card in view": (ShowsAWrongCard, "you were dealt", True),
    "seed swapped": (SwapsASeed, f"seed of seat {BOT_SEAT} does not match its commitment", True),
    "another deck": (DealsAnotherDeck, "hand is not what the seeds deal", True),
    "own commitment changed": (
        ChangesYourCommitment,
        "the host published a different commitment for your seat",
        False,
    ),
}


@pytest.mark.parametrize("case", list(CASES))
async def test_cheating_host_is_caught_by_every_client(tmp_path: Path, case: str) -> None:
    host_cls, what, finishes = CASES[case]
    options = HostOptions(players=4, bots=1, bot_level="random", records_dir=tmp_path)
    caught: list[asyncio.Event] = []

    async with asyncio.timeout(20), running_host(options, host_cls=host_cls) as host:
        sessions = await seat_sessions(options.port, 3)
        for i, session in enumerate(sessions):
            session.records_dir = tmp_path / f"player{i}"  # each player's own record
            caught.append(asyncio.Event())
            _when_caught(session, caught[-1])
        game = asyncio.ensure_future(play_bots(sessions))
        await asyncio.gather(*(event.wait() for event in caught))
        if finishes:
            await host.finished.wait()
    # Leaving the block closed the host: a stalled game ends there for every client.
    codes = await asyncio.wait_for(game, 5)

    assert codes == [1, 1, 1]
    for session in sessions:
        first_failure = next(v for v in session.verifications if not v.ok)
        assert first_failure.round == ROUND
        assert first_failure.detail.startswith(f"round {ROUND}: "), first_failure.detail
        assert what in first_failure.detail, first_failure.detail
        assert [v.ok for v in session.verifications if v.round < ROUND] == [True] * (ROUND - 1)
        assert not session.all_verified
        assert session.recorder is not None
        written = session.recorder.record().verification_failures[0]
        assert (written.round, written.seat, written.detail) == (
            ROUND,
            session.seat,
            first_failure.detail,
        )
        # Each player's own record, written after every round, keeps the failure too.
        assert session.record_path is not None
        assert session.record_path.parent == tmp_path / f"player{session.seat}"
        own = verify_path(session.record_path).record  # type: ignore[union-attr]
        assert own is not None and own.verification_failures
        first = own.verification_failures[0]
        assert (first.round, first.seat, first.detail) == (ROUND, session.seat, written.detail)
    if case in ("seed swapped", "another deck"):
        # The host's own record keeps the evidence: ``verify`` rejects it too, and each
        # player's own copy of the bad round, as the host published it.
        assert host.table is not None and host.table.record_path is not None
        assert not verify_path(host.table.record_path).ok
        for session in sessions:
            mine = verify_path(session.record_path)  # type: ignore[arg-type]
            assert mine.failure is not None and mine.failure.round == ROUND, mine.line()


def _when_caught(session: NetworkSession, event: asyncio.Event) -> None:
    """Set ``event`` when the session reports its first failed verification."""
    emit = session._emit

    def spy(update: Any) -> None:
        if isinstance(update, RoundVerified) and not update.ok:
            event.set()
        emit(update)

    session._emit = spy  # type: ignore[method-assign]
