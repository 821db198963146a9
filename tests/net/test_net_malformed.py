"""Malformed input and floods: the offender gets an error and is disconnected, alone; the
game in progress goes on for everyone else and finishes, verified.

The seated offender is a connection that resumes one seat with that seat's token, while
the game waits for that seat to play; it says what it says through a real netplay
``Client`` (so through whatever transport the client speaks), writing bytes straight into
its link. After the attacks a fresh client resumes the seat and plays the game out.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgpack
from net_helpers import (
    LIMITS,
    LOOPBACK,
    assert_game_verified,
    play_bots,
    running_host,
    seat_sessions,
    wait_until,
)

from netplay import Client, LinkState
from netplay.link import Link
from wizard_tui.bots import make_bot
from wizard_tui.net import protocol as p
from wizard_tui.net.bot_player import play_as_bot
from wizard_tui.net.client import NetworkSession
from wizard_tui.net.host import HostOptions
from wizard_tui.net.host_adapter import WizardHost
from wizard_tui.session import ChatLine, LinkChanged, TableUpdate

Attack = Callable[[Link, int, int], None]  # (link, seat, round)


def _payloads(link: Link, payloads: list[bytes]) -> None:
    """Write payloads as frames of this link's transport (sealed, if it encrypts)."""
    link.writer.write(b"".join(link.conn.frame(payload) for payload in payloads))


ATTACKS: dict[str, tuple[Attack, str]] = {
    "garbage bytes": (lambda link, seat, r: _payloads(link, [b"\xc1\xc1\xc1"]), "bad_encoding"),
    "oversized frame": (
        lambda link, seat, r: link.writer.write((LIMITS.max_frame + 1).to_bytes(4, "big")),
        "frame_too_large",
    ),
    "truncated msgpack": (
        lambda link, seat, r: _payloads(
            link, [msgpack.packb(p.play_msg(seat, r, 5), use_bin_type=True)[:-3]]
        ),
        "bad_encoding",
    ),
    "wrong types": (
        lambda link, seat, r: _payloads(
            link, [msgpack.packb({**p.play_msg(seat, r, 5), "card": "5"}, use_bin_type=True)]
        ),
        "bad_message",
    ),
    "unknown type": (
        lambda link, seat, r: _payloads(link, [msgpack.packb({"t": "teleport"})]),
        "bad_message",
    ),
    "flood": (
        lambda link, seat, r: _payloads(
            link, [msgpack.packb({"t": "pong"})] * (p.LIMITS.burst + 50)
        ),
        "rate_limited",
    ),
}


async def _closed_with(client: Client) -> LinkState:
    async for event in client.events():
        if isinstance(event, LinkState) and event.state == "closed":
            return event
    raise AssertionError("events ended without a closed state")


async def _play_until_my_turn(session: NetworkSession, min_round: int) -> None:
    """Play as a random bot; return (without acting) once it is this seat's turn to play a
    card in ``min_round`` or later, so the whole table waits for this seat."""
    bot = make_bot("random", random.Random(5))
    answered = None
    async for update in session.updates():
        if isinstance(update, TableUpdate) and update.view.my_turn:
            view = update.view
            if view.round >= min_round and view.phase.value == "play":
                return
            key = (view.round, view.phase, view.bids, len(view.tricks), len(view.trick))
            if key != answered:
                answered = key
                action = bot.decide(view)
                if hasattr(action, "card"):
                    session.play(action.card)
                elif hasattr(action, "bid"):
                    session.bid(action.bid)
                else:
                    session.choose_trump(action.suit)
    raise AssertionError("the game ended before the attack")


async def test_malformed_input_disconnects_only_the_offender(tmp_path: Path) -> None:
    options = HostOptions(players=4, bots=1, bot_level="random", records_dir=tmp_path)
    async with asyncio.timeout(30), running_host(options) as host:
        (puppet,) = await seat_sessions(options.port, 1)
        honest = await seat_sessions(options.port, 2)
        seat, token = puppet.seat, puppet.client.token
        assert seat is not None and token is not None
        links_seen: list[list[Any]] = [[] for _ in honest]
        game = asyncio.ensure_future(play_bots(honest))
        for i, session in enumerate(honest):
            _watch_links(session, links_seen[i])

        await _play_until_my_turn(puppet, min_round=2)
        round_now = host.table.game.round  # type: ignore[union-attr]
        outcomes = {}
        for name, (attack, _) in ATTACKS.items():
            attacker = Client(
                LOOPBACK, options.port, protocol=p.PROTOCOL, version=p.VERSION,
                name="attacker", token=token, reconnect=False, limits=LIMITS,
                identity=puppet.client.identity,  # a session resumes only with its key
            )  # fmt: skip
            welcome = await attacker.connect()
            assert welcome["resumed"] is True and welcome["seat"] == seat
            assert attacker._link is not None
            attack(attacker._link, seat, round_now)
            closed = await _closed_with(attacker)
            outcomes[name] = closed.code
            await attacker.close()
            # The offender's session is gone from the table; everyone else's is not.
            await wait_until(lambda: not _session(host, seat).connected)
            assert all(_session(host, s.seat).connected for s in honest)  # type: ignore[arg-type]
        await puppet.close()

        # Someone with the token takes the seat back and the game plays out.
        back = NetworkSession(LOOPBACK, options.port, name="back", limits=LIMITS)
        back.client.token = token
        back.client.identity = puppet.client.identity
        await back.connect()
        assert back.seat == seat
        await play_as_bot(back, make_bot("random", random.Random(9)), quiet=True)
        codes = await game
        await host.finished.wait()

    assert outcomes == {name: code for name, (_, code) in ATTACKS.items()}
    assert codes == [0, 0]
    assert_game_verified(host, honest)
    # The others never lost their link (until the host said bye at the end).
    assert all("reconnecting" not in states for states in links_seen), links_seen


async def test_chat_flood_reaches_no_one_else_in_bulk(tmp_path: Path) -> None:
    """A seated client floods the table with chat (each line broadcast to everyone): the
    others must not be swamped (a full send queue would cut them off)."""
    options = HostOptions(players=3, bots=1, bot_level="random", records_dir=tmp_path)
    async with asyncio.timeout(30), running_host(options) as host:
        flooder, other = await seat_sessions(options.port, 2)
        chats: list[ChatLine] = []
        links: list[Any] = []
        _watch_links(other, links, chats)
        game = asyncio.ensure_future(play_bots([other]))
        # The flooder lets its bot run too, but first sends 600 chat lines at once.
        link = flooder.client._link
        assert link is not None
        line = msgpack.packb({"t": "chat", "text": "spam " * 30})
        _payloads(link, [line] * 600)
        codes = await asyncio.gather(game, play_bots([flooder], seed=3))
        await host.finished.wait()
    assert codes[0] == [0]
    assert "reconnecting" not in links, links
    assert 0 < len(chats) <= p.CHAT_BURST
    assert_game_verified(host, [other])


def _session(host: WizardHost, seat: int) -> Any:
    found = host.seats[seat]
    assert found is not None and found.session is not None
    return found.session


def _watch_links(
    session: NetworkSession, states: list[Any], chats: list[ChatLine] | None = None
) -> None:
    """Record the link states (and chat lines) a session reports."""
    emit = session._emit

    def spy(update: Any) -> None:
        if isinstance(update, LinkChanged):
            states.append(update.state)
        elif isinstance(update, ChatLine) and chats is not None:
            chats.append(update)
        emit(update)

    session._emit = spy  # type: ignore[method-assign]


JUNK = {
    "random bytes (an absurd length)": b"\xff" * 64,
    "a frame that is not msgpack": b"\x00\x00\x00\x04\xc1\xc1\xc1\xc1",
    "an oversized first frame": (100_000).to_bytes(4, "big"),
    "a truncated frame, then silence": b"\x00\x00\x00\x10\x84\xa1t",
}


async def _junk_connection(port: int, junk: bytes) -> None:
    """Send ``junk`` on a fresh connection; return once the host has hung up."""
    reader, writer = await asyncio.open_connection(LOOPBACK, port)
    try:
        writer.write(junk)
        while await reader.read(65536):
            pass  # whatever the host says first (an error, in plain framing), then EOF
    finally:
        writer.close()


async def test_strangers_sending_junk_are_cut_off_while_a_game_runs(tmp_path: Path) -> None:
    """Before any handshake: junk on a fresh connection ends that connection (within the
    handshake timeout at the latest) and nothing else."""
    options = HostOptions(players=3, bots=1, bot_level="random", records_dir=tmp_path)
    async with asyncio.timeout(20), running_host(options) as host:
        sessions = await seat_sessions(options.port, 2)
        game = asyncio.ensure_future(play_bots(sessions))
        async with asyncio.timeout(LIMITS.handshake_timeout + 3):
            await asyncio.gather(*(_junk_connection(options.port, j) for j in JUNK.values()))
        codes = await game
        await host.finished.wait()
    assert codes == [0, 0]
    assert_game_verified(host, sessions)
