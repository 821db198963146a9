"""Helpers for the private-deal network tests."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

from net_helpers import assert_own_records, play_bots, verify_path, wait_until

from wizard_tui.net.client import NetworkSession
from wizard_tui.net.host_adapter import WizardHost
from wizard_tui.record import PRIVATE_PROTOCOL, GameRecord


def _public(record: GameRecord) -> tuple[object, ...]:
    """A record without the order of its envelopes: a client appends its own envelopes
    when it sends them, the relay when it accepts them, and releases and reveals may
    arrive at the relay in any order."""
    rounds = tuple(
        (
            *(r.round, r.dealer, r.hands, r.trump_card, r.trump_suit, r.bids, r.tricks, r.totals),
            r.private_deal.setup,
            frozenset(r.private_deal.envelopes),
        )
        for r in record.rounds
        if r.private_deal is not None
    )
    return (record.game_id, record.players, record.signing_keys, record.complete, rounds)


def assert_private_game_verified(
    host: WizardHost, sessions: Sequence[NetworkSession], *, redeals: int = 0
) -> None:
    """The game finished; every client checked every round and found it right; the host's
    record is privately dealt, holds ``redeals`` voided attempts and passes ``verify``; each
    client's own record holds the same rounds and envelopes."""
    table = host.table
    assert table is not None and table.finished and host.failed is None
    players = table.game.players
    host_record = table.recorder.record()
    assert host_record.protocol == PRIVATE_PROTOCOL
    # One signing key per seat: each player's own, one of its own for each host bot.
    assert len(set(host_record.signing_keys)) == players
    assert len(host_record.redeals) == redeals
    for session in sessions:
        outcomes = [(v.round, v.ok) for v in session.verifications]
        assert outcomes == [(r, True) for r in range(1, table.game.num_rounds + 1)], (
            session.name,
            [v.detail for v in session.verifications if not v.ok],
        )
        assert session.all_verified
        assert session.finished is not None
        assert list(session.finished.totals) == table.game.totals
        assert session.recorder is not None
        assert _public(session.recorder.record()) == _public(host_record)
    assert_own_records(host_record, sessions)
    assert table.record_path is not None
    verdict = verify_path(table.record_path)
    assert verdict.ok, verdict.line()
    assert verdict.record is not None and verdict.record.complete


async def play_until(
    host: WizardHost,
    sessions: Sequence[NetworkSession],
    done: Callable[[], object],
    seed: int = 0,
) -> None:
    """Let bots play every session until ``done()`` holds (checked on the host's state) or
    the game ends; then close the sessions, which ends their bots."""
    game = asyncio.ensure_future(play_bots(sessions, "random", seed=seed))
    await wait_until(lambda: done() or host.finished.is_set() or game.done())
    for session in sessions:  # each bot ends when its session closes
        await session.close()
    await game


def assert_partial_game_verified(host: WizardHost, sessions: Sequence[NetworkSession]) -> None:
    """Every round finished so far was verified by every client, each client's record holds
    the host's rounds, and the host's record so far passes ``verify``."""
    table = host.table
    assert table is not None and host.failed is None
    record = table.recorder.record()
    for session in sessions:
        # (a client closed right after the host's last round may not have seen its end)
        outcomes = [(v.round, v.ok) for v in session.verifications]
        assert len(record.rounds) - 1 <= len(outcomes) <= len(record.rounds), session.name
        assert outcomes == [(r, True) for r in range(1, len(outcomes) + 1)], (
            session.name,
            [v.detail for v in session.verifications if not v.ok],
        )
        assert session.recorder is not None
        mine = _public(session.recorder.record())
        assert mine[4] == _public(record)[4][: len(mine[4])]
    assert_own_records(record, sessions, complete=False)
    assert table.record_path is not None
    verdict = verify_path(table.record_path)
    assert verdict.ok, verdict.line()
