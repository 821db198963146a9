"""A privately dealt attempt at a table with all nine special cards voided for a revoke,
over real sockets on 127.0.0.1 (the decks seeded: the same game every run): the host finds
it by its replay at the round's end, and so does every seat's own program, from every action
the host's events told it (a Witch's swap among them, the Juggler's passes with the cards
their gifts hold): each names the revoker itself, and its own record of the void holds every
action, as the host's does. Every record verifies."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest
from net_helpers import running_host, seat_sessions
from private_helpers import assert_partial_game_verified, play_until
from test_private_cheating import CHEATER, _dealt_again_and_played
from test_private_special_games import RevokesAPlainCard
from test_private_witch import SeededDeal, seeded_bots

from wizard_tui.game import TableRules
from wizard_tui.game.specials import SPECIALS
from wizard_tui.net.deals.private.client_deal import ClientDeal
from wizard_tui.net.deals.private.seat import PrivateSeatHalf
from wizard_tui.net.host import HostOptions
from wizard_tui.verify import verify_record


class RevokesAfterASwap(RevokesAPlainCard, SeededDeal):
    """Revokes once, in a round where a Witch has already swapped a card and a Juggler's
    pass has been made."""

    def cheat_play(self, view: Any, deal: ClientDeal, card: int) -> bool:
        swapped = any(give is not None for _t, _s, give, _take in view.swaps)
        if not swapped or view.last_pass is None:
            return False
        return super().cheat_play(view, deal, card)


VOID_SEED = 13  # (its decks: SeededDeal, seeded_bots)


async def test_every_seat_names_a_revoke_after_a_swap_and_a_pass_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(SeededDeal, "deal_seed", VOID_SEED)
    seeded_bots(monkeypatch, VOID_SEED)
    options = HostOptions(
        players=4,
        bots=1,
        bot_level="random",
        rules=TableRules(specials=frozenset(SPECIALS)),
        records_dir=tmp_path,
        deal="private",
    )
    async with asyncio.timeout(120), running_host(options, rng=random.Random(VOID_SEED)) as host:
        sessions = await seat_sessions(options.port, 1, cls=SeededDeal)
        sessions += await seat_sessions(options.port, 1, cls=RevokesAfterASwap)
        sessions += await seat_sessions(options.port, 1, cls=SeededDeal)
        done = lambda: _dealt_again_and_played(host)  # noqa: E731
        await play_until(host, sessions, done, seed=VOID_SEED)
    cheater = sessions[CHEATER]
    assert isinstance(cheater, RevokesAfterASwap) and cheater.cheated_in is not None
    table = host.table
    assert table is not None and host.failed is None
    record = table.recorder.record()
    (void,) = record.redeals
    assert (void.round, void.attempt) == cheater.cheated_in
    assert (void.fault, void.culprit) == ("must_follow_suit", CHEATER), void.reason
    assert any(a[0] == "swap" and a[2] is not None for a in void.actions)  # the swap kept
    assert any(a[0] == "pass_card" and a[2] >= 0 for a in void.actions)  # the pass's card
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
