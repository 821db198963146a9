"""A privately dealt attempt at a table with special cards voided for a revoke, over real
sockets on 127.0.0.1: the host finds it by its replay at the round's end, and so does every
seat's own program, from every action the host's events told it (a Witch's swap among them,
the Juggler's passes with the cards their gifts hold): each names the revoker itself, and
its own record of the void holds every action, as the host's does. Every record verifies."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from net_helpers import running_host, seat_sessions
from private_helpers import assert_partial_game_verified, play_until
from test_private_cheating import CHEATER, _dealt_again_and_played
from test_private_special_games import RevokesAPlainCard

from wizard_tui.game import TableRules
from wizard_tui.game.specials import SPECIALS, Special
from wizard_tui.net.deals.private.client_deal import ClientDeal
from wizard_tui.net.deals.private.seat import PrivateSeatHalf
from wizard_tui.net.host import HostOptions
from wizard_tui.verify import verify_record


class RevokesAfterASwap(RevokesAPlainCard):
    """Revokes once, in a round where a Witch has already swapped a card."""

    def cheat_play(self, view: Any, deal: ClientDeal, card: int) -> bool:
        if not any(give is not None for _t, _s, give, _take in view.swaps):
            return False
        return super().cheat_play(view, deal, card)


async def test_every_seat_names_a_revoke_after_a_swap_itself(tmp_path: Path) -> None:
    options = HostOptions(
        players=4,
        bots=1,
        bot_level="random",
        rules=TableRules(specials=frozenset(SPECIALS) - {Special.JUGGLER}),
        records_dir=tmp_path,
        deal="private",
    )
    async with asyncio.timeout(120), running_host(options) as host:
        sessions = await seat_sessions(options.port, 1)
        sessions += await seat_sessions(options.port, 1, cls=RevokesAfterASwap)
        sessions += await seat_sessions(options.port, 1)
        await play_until(host, sessions, lambda: _dealt_again_and_played(host), seed=13)
    cheater = sessions[CHEATER]
    assert isinstance(cheater, RevokesAfterASwap) and cheater.cheated_in is not None
    table = host.table
    assert table is not None and host.failed is None
    record = table.recorder.record()
    (void,) = record.redeals
    assert (void.round, void.attempt) == cheater.cheated_in
    assert (void.fault, void.culprit) == ("must_follow_suit", CHEATER), void.reason
    assert any(a[0] == "swap" and a[2] is not None for a in void.actions)  # the swap kept
    verify_record(record)
    assert_partial_game_verified(host, sessions)
    for session in sessions:
        half = session.seat_half
        assert isinstance(half, PrivateSeatHalf)
        (report,) = half.voids
        assert (report.our_code, report.our_culprit) == ("must_follow_suit", CHEATER)
        assert report.actions == void.actions, session.name  # every action, as the host's
        assert session.recorder is not None
        (own,) = session.recorder.record().redeals
        assert (own.culprit, own.actions) == (CHEATER, void.actions)
