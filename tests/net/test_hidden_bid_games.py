"""Whole games with hidden bids (docs/rules.md, "Hidden bids") over real sockets on
127.0.0.1, both deals: network bot clients and the host's bots seal, open and verify; the
host's record and every joiner's own record pass ``verify``, with every bid opening its seal.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from net_helpers import assert_game_verified, play_bots, running_host, seat_sessions
from private_helpers import assert_private_game_verified

from wizard_tui.bid_seal import opens_bid
from wizard_tui.game import RestrictLastBid, TableRules
from wizard_tui.net.host import HostOptions


def assert_bids_open_their_seals(host_record: object) -> None:
    """Every round holds one seal and nonce per seat, and each bid opens its seal (what
    ``verify`` checks too; here read from the record's own fields)."""
    record = host_record
    for rnd in record.rounds:  # type: ignore[attr-defined]
        seals = rnd.extra["bid_seals"]
        attempt = rnd.private_deal.setup.attempt if rnd.private_deal is not None else 0
        for seat, entry in enumerate(seals):
            assert opens_bid(
                bytes.fromhex(entry["seal"]),
                record.game_id,  # type: ignore[attr-defined]
                rnd.round,
                attempt,
                seat,
                rnd.bids[seat],
                bytes.fromhex(entry["nonce"]),
            )


@pytest.mark.parametrize(
    ("deal", "players", "host_bots", "level"),
    [
        ("commit-reveal", 3, 1, "random"),
        ("commit-reveal", 4, 2, "easy"),
        ("private", 3, 1, "random"),
        ("private", 4, 2, "easy"),
    ],
)
async def test_hidden_bid_game_verifies(
    tmp_path: Path, deal: str, players: int, host_bots: int, level: str
) -> None:
    options = HostOptions(
        players=players,
        bots=host_bots,
        bot_level=level,
        # The restriction is given and ignored: hidden bids never restrict the last bid.
        rules=TableRules(RestrictLastBid.ALWAYS, hidden_bids=True),
        records_dir=tmp_path,
        deal=deal,
    )
    async with asyncio.timeout(90), running_host(options) as host:
        sessions = await seat_sessions(
            options.port, players - host_bots, records_dir=tmp_path / "joined"
        )
        codes = await play_bots(sessions, level, seed=players)
        await host.finished.wait()
        assert codes == [0] * len(sessions)
        if deal == "private":
            assert_private_game_verified(host, sessions)
        else:
            assert_game_verified(host, sessions)
        record = host.table.recorder.record()
        assert record.rules.hidden_bids
        assert_bids_open_their_seals(record)
        for session in sessions:
            assert session.record_path is not None  # its own file, verified above
            assert session.recorder is not None
            assert_bids_open_their_seals(session.recorder.record())
