"""The deal-step timeout of a private deal (``HostOptions.deal_step_timeout``).

A player's program that stays connected but never sends a deal message it owes (its pass,
key release or reveal) would stall the round for everyone: when the timeout runs out the
host disconnects it (``deal_timeout``), a bot of the host takes the seat over, the attempt
is void and dealt again, and the game finishes with a record that verifies. A player who
only thinks long over a bid or a card owes the deal nothing and is never disconnected.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from net_helpers import play_bots, running_host, seat_sessions, wait_until
from private_helpers import assert_partial_game_verified, assert_private_game_verified

from netplay import LinkState
from wizard_tui.net import protocol as p
from wizard_tui.net.client import NetworkSession
from wizard_tui.net.deals.private.host import LOST_KEYS, PrivateDealing
from wizard_tui.net.host import HostOptions


def _private(players: int, bots: int, records: Path) -> HostOptions:
    return HostOptions(
        players=players,
        bots=bots,
        bot_level="random",
        records_dir=records,
        deal="private",
        takeover_after=0.1,
        deal_step_timeout=0.3,
    )


class SilentDealer(NetworkSession):
    """Plays like anyone, but its ``deal`` messages never leave: the deal waits on it."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.links: list[LinkState] = []
        send = self.client.send

        def swallow_deal(msg: dict[str, Any]) -> bool:
            return True if msg.get("t") == "deal" else send(msg)

        self.client.send = swallow_deal  # type: ignore[method-assign]

    def _on_event(self, event: dict[str, Any] | LinkState) -> None:
        if isinstance(event, LinkState):
            self.links.append(event)
        super()._on_event(event)


async def test_a_program_that_never_deals_is_disconnected_and_taken_over(tmp_path: Path) -> None:
    options = _private(4, 1, tmp_path)
    # The honest programs' passes never come near it, even on a loaded machine: at 0.3 s,
    # three such runs side by side on 2 cores saw honest seats cut off too.
    options.deal_step_timeout = 2.0
    async with asyncio.timeout(60), running_host(options) as host:
        (silent,) = await seat_sessions(options.port, 1, cls=SilentDealer)
        others = await seat_sessions(options.port, 2)
        gone = asyncio.ensure_future(play_bots([silent]))
        codes = await play_bots(others, seed=1)
        await host.finished.wait()
    await silent.close()
    assert await gone == [1]
    assert codes == [0, 0]
    assert [s.code for s in silent.links if s.state == "closed"] == [p.DEAL_TIMEOUT]
    assert host.seats[0] is not None and host.seats[0].stand_in is not None
    # The first attempt waited on its keys: void as lost keys and dealt again with the bot's.
    assert_private_game_verified(host, others, redeals=1)
    record = host.table.recorder.record()  # type: ignore[union-attr]
    (void,) = record.redeals
    assert void.fault == LOST_KEYS and (void.round, void.attempt) == (1, 0)
    (stand_in,) = record.stand_ins
    assert (stand_in.round, stand_in.attempt, stand_in.seat) == (1, 1, 0)


# Long enough for an honest program's deal steps on a loaded machine (at 0.3 s, runs beside
# a full test suite on 2 cores saw the honest seats cut off, and the bid never waited).
THINKING_TEST_STEP_TIMEOUT = 1.5


class SlowThinker(NetworkSession):
    """Sends every deal message at once, but takes its time over the first bid of round 2."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.waited = False
        send = self.client.send

        async def later(msg: dict[str, Any]) -> None:
            await asyncio.sleep(3 * THINKING_TEST_STEP_TIMEOUT + 0.5)  # over three timeouts
            send(msg)

        def slow_bid(msg: dict[str, Any]) -> bool:
            if msg.get("t") == "bid" and msg.get("round") == 2 and not self.waited:
                self.waited = True
                asyncio.get_running_loop().create_task(later(msg))
                return True
            return send(msg)

        self.client.send = slow_bid  # type: ignore[method-assign]


async def test_a_player_thinking_long_is_not_disconnected(tmp_path: Path) -> None:
    options = _private(3, 1, tmp_path)
    options.deal_step_timeout = THINKING_TEST_STEP_TIMEOUT
    async with asyncio.timeout(60), running_host(options) as host:
        (slow,) = await seat_sessions(options.port, 1, cls=SlowThinker)
        (other,) = await seat_sessions(options.port, 1)
        codes = await play_bots([slow, other])
        await host.finished.wait()
    assert slow.waited
    assert codes == [0, 0]
    assert all(s is not None and s.stand_in is None for s in host.seats)
    assert_private_game_verified(host, [slow, other])


async def test_a_program_cut_off_by_deal_timeout_may_come_back(tmp_path: Path) -> None:
    """docs/protocol.md, "Deal-step timeout": the client does not reconnect by itself after
    ``deal_timeout`` (a fatal code), but its session stays: a program that comes back with
    the seat's token and key (or its key alone, restarted) takes the seat back, as any
    player who left, and plays on from the next attempt."""
    options = _private(3, 1, tmp_path)
    options.deal_step_timeout = 2.0  # the honest program's passes never come near it
    async with asyncio.timeout(60), running_host(options) as host:
        (silent,) = await seat_sessions(options.port, 1, cls=SilentDealer)
        (other,) = await seat_sessions(options.port, 1)
        seat = silent.seat
        gone = asyncio.ensure_future(play_bots([silent]))
        staying = asyncio.ensure_future(play_bots([other], seed=1))
        assert await gone == [1]  # it stopped: no reconnect after a fatal code
        assert [s.code for s in silent.links if s.state == "closed"] == [p.DEAL_TIMEOUT]
        back = NetworkSession(
            "127.0.0.1", options.port, name="back", limits=silent.client.limits,
            identity=silent.client.identity, signing_key=silent.settings.signing_key,
        )  # fmt: skip
        back.client.token = silent.client.token
        await back.connect()
        assert back.seat == seat and back.client.token == silent.client.token
        playing = asyncio.ensure_future(play_bots([back], seed=2))
        holder = host.seats[seat]  # type: ignore[index]
        assert holder is not None
        # The player has the seat back, and checks a round in full.
        await wait_until(
            lambda: holder.stand_in is None and any(v.checked for v in back.verifications)
        )
        assert all(v.ok for v in back.verifications), [v.detail for v in back.verifications]
        assert not playing.done() and not staying.done()
        for task in (playing, staying):
            task.cancel()
        for session in (back, other):
            await session.close()
    await silent.close()


class Watched(NetworkSession):
    """A plain client that keeps its link states."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.links: list[LinkState] = []

    def _on_event(self, event: dict[str, Any] | LinkState) -> None:
        if isinstance(event, LinkState):
            self.links.append(event)
        super()._on_event(event)


async def test_a_program_that_lost_its_signing_key_gets_its_seat_not_the_deal(
    tmp_path: Path,
) -> None:
    """docs/protocol.md, Reconnect: a restarted program with the same static key but a new
    signing key takes its seat back, reports that the host names another key for its seat,
    sends no deal message (it cannot sign for the seat), and so is cut off by the deal-step
    timeout; a bot of the host plays the seat and the others play on, every round verified."""
    from test_private_reconnect import LeavesMidTrick

    from netplay.signing import SigningKey

    options = _private(3, 1, tmp_path)
    options.takeover_after = 0.05
    options.deal_step_timeout = 2.0  # the honest programs' passes never come near it
    async with asyncio.timeout(60), running_host(options) as host:
        (leaver,) = await seat_sessions(options.port, 1, cls=LeavesMidTrick)
        others = await seat_sessions(options.port, 1)
        staying = asyncio.ensure_future(play_bots(others, seed=1))
        dead = asyncio.ensure_future(play_bots([leaver]))  # gated: never comes back
        await leaver.dropped.wait()
        await wait_until(
            lambda: isinstance(host.deal_half, PrivateDealing) and host.deal_half.stand_in_signers
        )
        returner = Watched(
            "127.0.0.1", options.port, name="x", limits=leaver.client.limits,
            identity=leaver.client.identity, signing_key=SigningKey.generate(),
        )  # fmt: skip
        await returner.connect()
        assert returner.seat == leaver.seat
        # No bot plays for it (``join --bot`` would stop at the failure): it stays, silent.
        await wait_until(lambda: any(s.state == "closed" for s in returner.links))
        table = host.table
        assert table is not None
        done = len(table.recorder.record().rounds)
        await wait_until(lambda: len(table.recorder.record().rounds) > done)
        for session in others:
            await session.close()
        await staying
        dead.cancel()
        await leaver.close()
    failures = [v.detail for v in returner.verifications if not v.ok]
    assert any("another signing key for your seat" in d for d in failures), failures
    assert [s.code for s in returner.links if s.state == "closed"] == [p.DEAL_TIMEOUT]
    holder = host.seats[returner.seat]  # type: ignore[index]
    assert holder is not None and holder.stand_in is not None
    assert_partial_game_verified(host, others)
