"""The Witch over the network with the private deal (docs/private-deal.md section 16), over
real sockets on 127.0.0.1: the ``swap`` intent is public, its given card comes with the
``show`` of its dealt position (nothing for a face-up card the seat took: the Werewolf's
turned card, a card an earlier swap took), the host checks the show is the intent's
``give``, and the card taken from the trick is played later with no deal message. Host
bots and network bots (``join --bot``) swap; the host's record and every joiner's own
record verify; a host stopped after a swap rebuilds the game from its journal; a seat that
lies about its swap is refused or named, and the game goes on.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest
from net_helpers import play_bots, running_host, seat_sessions, wait_until
from private_helpers import assert_private_game_verified, play_until

from netplay.mental.protocol import decode_body
from wizard_tui.game import Phase, TableRules
from wizard_tui.game.actions import NameTrump, Play, SwapCard
from wizard_tui.game.hidden_special import HiddenSpecialGame
from wizard_tui.game.specials import Special
from wizard_tui.net import protocol as p
from wizard_tui.net.deals import specials_refusal
from wizard_tui.net.host import HostOptions
from wizard_tui.net.journal import read_journal
from wizard_tui.net.restore import replay
from wizard_tui.private_special import face_up_held

WITCH = frozenset({Special.WITCH})
# The Witch with the cards that take a card face up: the Werewolf (the turned card), and the
# Vampire, which copies a turned-up Witch.
WITCH_AND_WEREWOLF = frozenset({Special.WITCH, Special.WEREWOLF, Special.VAMPIRE})


def _swaps(results: Any) -> list[tuple[int, SwapCard]]:
    return [
        (r.round, a)
        for r in results
        for a in r.actions
        if type(a) is SwapCard and a.give is not None
    ]


def test_the_private_deal_deals_the_witch() -> None:
    assert specials_refusal("private", WITCH) is None
    assert specials_refusal("private", WITCH_AND_WEREWOLF) is None


@pytest.mark.parametrize(
    ("specials", "seed"), [(WITCH, 4), (WITCH_AND_WEREWOLF, 11)], ids=["witch", "werewolf"]
)
async def test_a_private_game_with_the_witch_verifies(
    tmp_path: Path, specials: frozenset[Special], seed: int
) -> None:
    """Host bots and network bots swap (and keep their hands); the cards taken are played
    later with no deal message; every record verifies, every client checks every round."""
    options = HostOptions(
        players=4,
        bots=2,
        bot_level="normal",  # (it swaps when that scores clearly better; "easy" never does)
        rules=TableRules(specials=specials),
        records_dir=tmp_path / "records",
        deal="private",
    )
    async with asyncio.timeout(240), running_host(options, rng=random.Random(seed)) as host:
        sessions = await seat_sessions(options.port, 2, records_dir=tmp_path / "own")
        codes = await play_bots(sessions, "random", seed=seed)  # (swaps at random)
        await host.finished.wait()
    assert codes == [0, 0]
    assert all(s.client.state == "closed" for s in sessions)
    assert_private_game_verified(host, sessions)
    table = host.table
    assert table is not None
    results = table.game.results
    swaps = _swaps(results)
    # Both a network seat (0, 1: the joiners) and a host bot swapped a card.
    assert {a.seat < 2 for _, a in swaps} == {True, False}
    # A card taken from a trick was played later by its taker (no deal message for it).
    assert any(
        type(b) is Play and b.seat == a.seat and b.card == a.take
        for r in results
        for a in r.actions
        if type(a) is SwapCard and a.take is not None
        for b in r.actions[r.actions.index(a) :]
    )
    if Special.WEREWOLF in specials:
        # A face-up card a seat took was given into a Witch's trick, with no show.
        assert any(_face_up_given(r) for r in results), "no face-up card was swapped"


def _face_up_given(result: Any) -> bool:
    actions = result.actions
    for i, action in enumerate(actions):
        if type(action) is SwapCard and action.give is not None:
            if action.give in face_up_held(actions[:i], action.seat, result.turned_card):
                return True
    return False
