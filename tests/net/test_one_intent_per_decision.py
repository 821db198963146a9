"""A seat's program sends at most one intent for each decision it is asked (``client.py``).

A seat can have two deciders in one program: its player and, while the seat is away in a
private deal, the program's own away player; and a decider may act on a view older than the
session's. An intent for a decision answered already, or gone by, is refused by the session
itself and never sent. In a private deal it matters most: a card's open cannot be taken
back, and one refused by the host left the seat's envelopes out of sequence, so that it
could never play again (the turn-time test's flaky "did not move for its away player").

Every socket is on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import pytest
from net_helpers import LIMITS, LOOPBACK, CapturingSession, running_host, wait_until

from wizard_tui.bots import make_bot
from wizard_tui.game import Bid, ChooseTrump, Phase, Play
from wizard_tui.net.client import NetworkSession
from wizard_tui.net.host import HostOptions
from wizard_tui.session import ActionRefused, GameFinished, LinkChanged, TableUpdate

_DECIDING = (Phase.CHOOSE_TRUMP, Phase.BID, Phase.PLAY)


async def two_deciders(session: NetworkSession, refused_here: list[ActionRefused]) -> None:
    """Answers every decision twice at once, as two deciders of one seat would: the second
    with another legal card where there is one. Keeps the refusals it hears."""
    bot = make_bot("random", random.Random(5))
    answered: tuple[object, ...] | None = None
    async for update in session.updates():
        if isinstance(update, GameFinished):
            break
        if isinstance(update, LinkChanged) and update.state == "closed":
            break
        if isinstance(update, ActionRefused):
            refused_here.append(update)
        if not isinstance(update, TableUpdate):
            continue
        view = update.view
        if not view.my_turn or view.phase not in _DECIDING:
            continue
        key = (view.round, view.phase, view.bids, len(view.tricks), len(view.trick))
        if key == answered:
            continue
        answered = key
        action = bot.decide(view)
        if isinstance(action, Play):
            other = next((c for c in view.legal_cards if c != action.card), action.card)
            session.play(action.card)
            session.play(other)
        elif isinstance(action, Bid):
            session.bid(action.bid)
            session.bid(action.bid)
        elif isinstance(action, ChooseTrump):
            session.choose_trump(action.suit)
            session.choose_trump(action.suit)


@pytest.mark.parametrize("deal", ["commit-reveal", "private"])
async def test_a_second_answer_to_one_decision_is_never_sent(tmp_path: Path, deal: str) -> None:
    options = HostOptions(players=3, bots=2, bot_level="random", records_dir=tmp_path, deal=deal)
    async with asyncio.timeout(60), running_host(options) as host:
        session = CapturingSession(LOOPBACK, options.port, name="twice", limits=LIMITS)
        sent: list[dict[str, Any]] = []
        send = session.client.send
        session.client.send = lambda msg: (sent.append(msg), send(msg))[1]  # type: ignore[method-assign]
        await session.connect()
        refused_here: list[ActionRefused] = []
        deciding = asyncio.ensure_future(two_deciders(session, refused_here))
        await wait_until(lambda: host.table is not None)
        table = host.table
        assert table is not None
        # Three rounds: 1 + 2 + 3 of our cards, each one's second answer refused here.
        await wait_until(lambda: table.finished or table.game.round >= 4)
        await session.close()
        await deciding
    from_host = [m for m in session.received if m["t"] in ("refused", "error")]
    assert from_host == []  # the host never had to refuse anything of ours
    intents = [m for m in sent if m["t"] in ("bid", "play", "trump")]
    for r in (1, 2, 3):  # one bid and r cards of ours each, every one sent once
        mine = [m["t"] for m in intents if m["round"] == r]
        assert mine.count("bid") == 1 and mine.count("play") == r, (r, mine)
        assert mine.count("trump") <= 1, (r, mine)
    assert len(refused_here) >= 1 + 2 + 3 + 3  # every second answer, refused by the session
    assert {r.code for r in refused_here} == {"not_your_turn"}
