"""The host's refusals as docs/protocol.md ("Reason codes", "Which code wins") states them:
where two codes apply, the documented one wins; a deal message of the other deal protocol is
refused with ``wrong_deal`` (never the misleading ``not_ready``); and every refusal changes
nothing.

One raw netplay client per test, driven message by message, at a host on 127.0.0.1 whose
other seats are its own bots (so nothing moves unless this client does).
"""

from __future__ import annotations

import asyncio
import random
import re
from pathlib import Path
from typing import Any

import pytest
from net_helpers import LIMITS, LOOPBACK, host_state, running_host

from netplay import Client, ServerError
from netplay.fairdeal import commitment, new_seed
from netplay.signing import SigningKey
from wizard_tui.bots import make_bot
from wizard_tui.net import protocol as p
from wizard_tui.net.bot_player import play_as_bot
from wizard_tui.net.client import NetworkSession
from wizard_tui.net.deals.private.host import PrivateDealing
from wizard_tui.net.host import HostOptions
from wizard_tui.net.host_adapter import WizardHost


class Raw:
    """A seated client that sends exactly what the test says and keeps what comes back."""

    def __init__(self, port: int) -> None:
        self.client = Client(
            LOOPBACK, port, protocol=p.PROTOCOL, version=p.VERSION, name="Raw",
            reconnect=False, limits=LIMITS,
        )  # fmt: skip
        self.inbox: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.client.set_handler(self._on_event)

    def _on_event(self, event: Any) -> None:
        if isinstance(event, dict):
            self.inbox.put_nowait(event)

    async def next(self, t: str) -> dict[str, Any]:
        """The next message of type ``t`` (the others are dropped)."""
        while True:
            msg = await self.inbox.get()
            if msg["t"] == t:
                return msg

    async def refusal(self, msg: dict[str, Any], host: WizardHost) -> str:
        """Send ``msg``; the code it is refused with (and the host's game unchanged)."""
        before = _state(host)
        self.client.send(msg)
        code = (await self.next("refused"))["code"]
        assert _state(host) == before, msg
        return code


def _state(host: WizardHost) -> Any:
    if host.table is None:
        return tuple(None if s is None else (s.name, s.signing_key) for s in host.seats)
    if isinstance(host.deal_half, PrivateDealing):
        return (host.table.game.full.round, host.table.game.phase, host.deal_half.deal)
    return host_state(host)


async def test_admin_and_commit_reveal_precedence() -> None:
    options = HostOptions(
        players=3, bots=2, bot_level="random", deal=p.DEAL_COMMIT_REVEAL, bot_delay=60.0
    )
    async with asyncio.timeout(30), running_host(options) as host:
        raw = Raw(options.port)
        await raw.client.connect()
        game = await raw.next("game")  # the last seat filled: the game starts by itself
        you = game["you"]
        r = (await raw.next("round"))["round"]
        assert r == 1

        # Not the host's table: not_host, before lobby_closed (the game has begun).
        assert await raw.refusal({"t": "start"}, host) == "not_host"
        assert await raw.refusal({"t": "add_bot"}, host) == "not_host"
        assert await raw.refusal({"t": "rematch"}, host) == "not_host"
        assert await raw.refusal({"t": "claim_host", "key": "wrong"}, host) == "not_host"
        # The private deal's messages at a commit-reveal host: wrong_deal, whatever else.
        env = {"from": you, "seq": 0, "body": b"x", "sig": bytes(64)}
        for msg in (
            {"t": "sign_key", "key": bytes(32)},
            {"t": "deal", "round": r, "attempt": 0, "env": env},
            {"t": "lost", "round": 9, "attempt": 3},
            {"t": "abort", "round": r, "attempt": 0, "code": "x", "culprit": None},
        ):
            assert await raw.refusal(msg, host) == "wrong_deal", msg

        seed = new_seed()
        mine = commitment(game["game_id"], r, you, seed)
        # A seed before the commitment vector is out: out_of_phase.
        assert await raw.refusal({"t": "seed", "round": r, "seed": seed}, host) == "out_of_phase"
        # stale_round before the exchange's own checks.
        assert await raw.refusal({"t": "seed", "round": 2, "seed": seed}, host) == "stale_round"
        raw.client.send({"t": "commit", "round": r, "commitment": mine})
        published = await raw.next("commitments")  # the bots' are the host's: all in now
        assert published["commitments"][you] == mine
        # A second commit after publication: out_of_phase wins over duplicate.
        second = {"t": "commit", "round": r, "commitment": mine}
        assert await raw.refusal(second, host) == "out_of_phase"
        assert await raw.refusal({"t": "commit", "round": 2, "commitment": mine}, host) == (
            "stale_round"
        )
        wrong = {"t": "seed", "round": r, "seed": bytes(32)}
        assert await raw.refusal(wrong, host) == "bad_seed"
        raw.client.send({"t": "seed", "round": r, "seed": seed})
        await raw.next("state")  # dealt
        assert await raw.refusal({"t": "seed", "round": r, "seed": seed}, host) == "duplicate"

        # Game actions: not_your_seat before stale_round before the engine's codes.
        other = (you + 1) % 3
        assert await raw.refusal(p.bid_msg(other, 5, 0), host) == "not_your_seat"
        assert await raw.refusal(p.bid_msg(you, 5, 0), host) == "stale_round"
        assert await raw.refusal(p.bid_msg(you, r, 7), host) in {
            "not_your_turn",
            "wrong_phase",
            "bid_out_of_range",
        }

        # The host's own table: now lobby_closed for the lobby's actions, not_ready for a
        # rematch of a game still on.
        raw.client.send({"t": "claim_host", "key": host.host_key})
        assert await raw.refusal({"t": "start"}, host) == "lobby_closed"
        assert await raw.refusal({"t": "add_bot"}, host) == "lobby_closed"
        assert await raw.refusal({"t": "rematch"}, host) == "not_ready"
        await raw.client.close()


async def test_private_host_refuses_commit_reveal_messages_with_wrong_deal() -> None:
    options = HostOptions(players=3, bots=2, bot_level="random", deal=p.DEAL_PRIVATE)
    async with asyncio.timeout(30), running_host(options) as host:
        raw = Raw(options.port)
        await raw.client.connect()
        await raw.next("lobby")
        # In the lobby (no game yet), wrong_deal all the same: never not_ready.
        commit = {"t": "commit", "round": 1, "commitment": bytes(32)}
        assert await raw.refusal(commit, host) == "wrong_deal"
        assert await raw.refusal({"t": "seed", "round": 1, "seed": bytes(32)}, host) == (
            "wrong_deal"
        )
        # A deal message before the game: not_ready (no deal in progress).
        lost = {"t": "lost", "round": 1, "attempt": 0}
        assert await raw.refusal(lost, host) == "not_ready"
        key = SigningKey.generate()
        raw.client.send({"t": "sign_key", "key": key.public_key})  # the game starts
        game = await raw.next("game")
        assert game["signing_keys"][game["you"]] == key.public_key
        round_msg = await raw.next("round")
        r, attempt = round_msg["round"], round_msg["attempt"]
        assert await raw.refusal({**commit, "round": r}, host) == "wrong_deal"
        # Another key once the game began: lobby_closed; the same key again: no answer.
        assert await raw.refusal({"t": "sign_key", "key": bytes(32)}, host) == "lobby_closed"
        raw.client.send({"t": "sign_key", "key": key.public_key})  # taken, not answered:
        stale = {"t": "lost", "round": r, "attempt": attempt + 1}
        assert await raw.refusal(stale, host) == "stale_attempt"  # the next refusal is this
        await raw.client.close()


async def test_a_client_of_another_version_is_told_politely() -> None:
    """docs/protocol.md, "Versions": the secure transport and a hello naming ``wizard-tui``
    with another ``version`` (an int) get an encrypted fatal ``incompatible_version`` that
    says which side is behind, whether the hello joins or resumes, before any other check."""
    options = HostOptions(players=3, bots=2, bot_level="random", bot_delay=60.0)
    async with asyncio.timeout(30), running_host(options) as host:
        for version, which in ((p.VERSION + 1, "newer"), (p.VERSION - 1, "older")):
            for token in (None, "a-token-this-host-never-gave"):
                client = Client(
                    LOOPBACK, options.port, protocol=p.PROTOCOL, version=version,
                    name="x" * 32, token=token, reconnect=False, limits=LIMITS,
                )  # fmt: skip
                with pytest.raises(ServerError) as info:
                    await client.connect()
                assert info.value.code == "incompatible_version"
                assert f"you have {version}, {which} than this host" in info.value.message
                assert "install the same version as the host" in info.value.message
                await client.close()
        assert host.table is None and not any(s and s.kind == "human" for s in host.seats)


def test_every_refusal_code_is_documented() -> None:
    """Every code the host refuses with (its own, the engine's, the exchange's) is in
    docs/protocol.md's "Reason codes", and every code of "Which code wins" is one of them."""
    from netplay import commit_reveal
    from wizard_tui.game import Reason

    docs = (Path(__file__).resolve().parents[2] / "docs" / "protocol.md").read_text()
    section = docs.split("## Reason codes")[1].split("\n## ")[0]
    ours = {
        p.NOT_YOUR_SEAT, p.NOT_SEATED, p.NOT_HOST, p.STALE_ROUND, p.LOBBY_CLOSED, p.NOT_READY,
        p.CHAT_TOO_FAST, p.WRONG_DEAL, p.BAD_ENVELOPE, p.STALE_ATTEMPT, p.DEAL_TIMEOUT,
        "table_full",
    }  # fmt: skip
    exchange = {
        commit_reveal.OUT_OF_PHASE, commit_reveal.DUPLICATE, commit_reveal.BAD_SEED,
        commit_reveal.BAD_SEAT, commit_reveal.WRONG_ROUND, commit_reveal.BAD_LENGTH,
    }  # fmt: skip
    codes = ours | exchange | {r.value for r in Reason}
    missing = [code for code in sorted(codes) if f"`{code}`" not in section]
    assert missing == []
    order = section.split("### Which code wins")[1]
    table = order.split("| --- | --- |\n")[1].split("\n\n")[0]
    named = set(re.findall(r"`([a-z_]+)`", table))
    messages = set(p.INBOUND.by_type)
    assert named - messages - {"open", "deal"} <= codes, named - messages - codes


async def test_lobby_precedence() -> None:
    """In the lobby: not_host before anything; the host's table then gets not_ready for a
    start with fewer than 3 seated, or before a private game's signing keys are in, and
    table_full for a seventh seat."""
    options = HostOptions(players=3, bots=0, auto_start=False, deal=p.DEAL_PRIVATE)
    async with asyncio.timeout(30), running_host(options) as host:
        raw = Raw(options.port)
        await raw.client.connect()
        await raw.next("lobby")
        assert await raw.refusal({"t": "start"}, host) == "not_host"
        assert await raw.refusal({"t": "add_bot"}, host) == "not_host"
        raw.client.send({"t": "claim_host", "key": host.host_key})
        await raw.next("lobby")
        assert await raw.refusal({"t": "start"}, host) == "not_ready"  # one seated
        assert await raw.refusal({"t": "rematch"}, host) == "not_ready"
        for _ in range(5):
            raw.client.send({"t": "add_bot"})
            await raw.next("lobby")
        assert await raw.refusal({"t": "add_bot"}, host) == "table_full"
        assert await raw.refusal({"t": "start"}, host) == "not_ready"  # no signing key yet
        raw.client.send({"t": "sign_key", "key": SigningKey.generate().public_key})
        await raw.next("lobby")
        raw.client.send({"t": "start"})
        assert (await raw.next("game"))["players"][5]["kind"] == "bot"
        await raw.client.close()


async def test_an_action_after_the_game_is_not_ready() -> None:
    """docs/protocol.md, Which code wins: once the game is over a game action gets
    not_ready (the engine's game_over never comes over the wire)."""
    options = HostOptions(players=3, bots=2, bot_level="random", deal=p.DEAL_COMMIT_REVEAL)
    async with asyncio.timeout(60), running_host(options) as host:
        session = NetworkSession(LOOPBACK, options.port, name="Ann", limits=LIMITS)
        await session.connect()
        assert await play_as_bot(session, make_bot("random", random.Random(1)), quiet=True) == 0
        raw = Raw(options.port)
        raw.client.identity = session.client.identity
        raw.client.token = session.client.token
        await raw.client.connect()
        over = await raw.next("game_over")
        assert over["winners"] and host.table is not None and host.table.finished
        assert await raw.refusal(p.bid_msg(0, 20, 0), host) == "not_ready"
        assert await raw.refusal(p.play_msg(0, 20, 0), host) == "not_ready"
        await raw.client.close()
        await session.close()
