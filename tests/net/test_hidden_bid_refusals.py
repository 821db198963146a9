"""Hidden bids' refusals over real sockets: a plain bid, a second seal, an opening before
every seal is in, and a bad opening (docs/rules.md, "Hidden bids"). The offender gets the
code; a bad opening's seat gets a stand-in's blind bid in its place and everyone plays on."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from net_helpers import (
    LIMITS,
    LOOPBACK,
    CapturingSession,
    assert_game_verified,
    play_bots,
    running_host,
)

from wizard_tui.game import TableRules
from wizard_tui.net import protocol as p
from wizard_tui.net.host import HostOptions
from wizard_tui.net.sealed_seat import SealedSeat
from wizard_tui.verify import verify_path

BAD_ROUND = 2


class BadOpener(CapturingSession):
    """Opens round 2's seal with a wrong nonce, and tries what the host must refuse."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.sealed_bids = SealedSeat(self._send_sealed)
        self.tried = False

    def _send_sealed(self, msg: dict[str, Any]) -> None:
        if msg["round"] == 1 and msg["t"] == "bid_seal" and not self.tried:
            self.tried = True
            self.client.send(p.bid_msg(0, 1, 0))  # a plain bid: sealed_bids
            self.client.send(msg)  # then its seal (taken)
            self.client.send({**msg, "seal": bytes(32)})  # a second one: already_sealed
            early = {"t": "bid_open", "round": 1, "attempt": 0, "bid": 0, "nonce": bytes(32)}
            self.client.send(early)  # an opening before every seal is in: not_sealing
            self.client.send({"t": "bid_seal", "round": 1, "attempt": 5, "seal": bytes(32)})
            return
        if msg["round"] == BAD_ROUND and msg["t"] == "bid_open":
            msg = {**msg, "nonce": bytes(32)}
        self.client.send(msg)


def refusals(session: CapturingSession) -> list[str]:
    return [m["code"] for m in session.received if m["t"] == "refused"]


async def test_refusals_and_a_bad_opening(tmp_path: Path) -> None:
    options = HostOptions(
        players=3,
        bots=1,
        bot_level="random",
        rules=TableRules(hidden_bids=True),
        records_dir=tmp_path,
        deal="commit-reveal",
    )
    async with asyncio.timeout(90), running_host(options) as host:
        bad = BadOpener(LOOPBACK, options.port, name="bad", limits=LIMITS)
        await bad.connect()
        good = CapturingSession(LOOPBACK, options.port, name="good", limits=LIMITS)
        await good.connect()
        codes = await play_bots([bad, good], "random", seed=4)
        await host.finished.wait()
    assert codes == [0, 0]
    assert refusals(bad) == [
        p.SEALED_BIDS,
        p.ALREADY_SEALED,
        p.NOT_SEALING,
        p.NOT_SEALING,
        p.BAD_OPENING,
    ]
    assert refusals(good) == []  # everyone else plays on, told nothing but the outcome
    reveal = next(m for m in good.received if m["t"] == "bids_open" and m["round"] == BAD_ROUND)
    assert reveal["replaced"] == [0]
    published = next(m for m in good.received if m["t"] == "bid_seals" and m["round"] == BAD_ROUND)
    assert reveal["seals"][0] != published["seals"][0]  # the stand-in's seal, not seat 0's
    assert reveal["seals"][1:] == published["seals"][1:]
    assert_game_verified(host, [bad, good])
    record = host.table.recorder.record()
    recorded = record.rounds[BAD_ROUND - 1].extra["bid_seals"][0]["seal"]
    assert bytes.fromhex(recorded) == reveal["seals"][0]
    assert host.table.record_path is not None and verify_path(host.table.record_path).ok
