"""The Juggler over the network with the private deal (docs/private-deal.md section 16,
"Gifts" and "Wizard's messages"), over real sockets on 127.0.0.1: after a Juggler's trick
every seat sends its inbox, then in turn its give to its left neighbour (the card never
reaches the host, whose game learns only that the seat passed), then its unlock; each seat
learns its received card alone and plays it with an ``open_gift``. Host bots and network
bots (``join --bot``); the host's record and every joiner's own record verify.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from net_helpers import play_bots, running_host, seat_sessions
from private_helpers import assert_private_game_verified

from netplay.mental.protocol import decode_body
from wizard_tui.game import TableRules
from wizard_tui.game.actions import PassCard, Play
from wizard_tui.game.specials import SPECIALS, Special
from wizard_tui.net.deals import MOVING_SPECIALS
from wizard_tui.net.host import HostOptions

STILL = frozenset(SPECIALS) - MOVING_SPECIALS  # the six that move no card


@pytest.mark.parametrize(
    "specials", [frozenset({Special.JUGGLER}), STILL | {Special.JUGGLER, Special.WEREWOLF}]
)
async def test_a_private_game_with_the_juggler_verifies(
    tmp_path: Path, specials: frozenset[Special]
) -> None:
    options = HostOptions(
        players=3,
        bots=1,
        bot_level="easy",
        rules=TableRules(specials=specials),
        length="short",
        records_dir=tmp_path / "records",
        deal="private",
    )
    async with asyncio.timeout(90), running_host(options, rng=random.Random(3)) as host:
        sessions = await seat_sessions(options.port, 2, records_dir=tmp_path / "own")
        codes = await play_bots(sessions, "easy", seed=3)
        await host.finished.wait()
    assert codes == [0, 0]
    assert all(s.client.state == "closed" for s in sessions)
    assert_private_game_verified(host, sessions)
    table = host.table
    assert table is not None
    results = table.game.results
    passes = [a for r in results for a in r.actions if type(a) is PassCard]
    assert passes  # a Juggler's pass was made, its cards in the record
    assert {a.seat for a in passes} == {0, 1, 2}
    # A received card was played: some round's transcript holds an open_gift.
    rounds = table.recorder.record().rounds
    kinds = {
        decode_body(env.body)["t"]
        for rnd in rounds
        if rnd.private_deal is not None
        for env in rnd.private_deal.envelopes
    }
    assert {"inbox", "give", "unlock", "open_gift"} <= kinds
    assert any(type(a) is Play for r in results for a in r.actions)
