"""Under hidden bids no bid is seen by anyone, the host's program included, before every bid
is sealed (docs/rules.md, "Hidden bids"), here with the private deal.

The host keeps every message each client sent it, as packed bytes, with whether the round's
seals were all in when it came, and after each one checks its own state: no bid applied to
its game and no opening held but its own bots' until every seal is in. Every client keeps
every message the host sent it. After the game, with each round's nonces from the record:
no nonce of a player's bid reached the host before that round's seals were all in (without
it the seal cannot be opened, nor a bid tried against it), and each did afterwards (so the
search would have found it); before its round's seals were published no client, nor a
watcher, was told anything of another's bid (no view with another's bid, no bid event, no
opening).
"""

from __future__ import annotations

import asyncio
import copy
from pathlib import Path
from typing import Any

import msgpack
from net_helpers import LIMITS, LOOPBACK, CapturingSession, play_bots, running_host, seat_sessions
from private_helpers import assert_private_game_verified

from wizard_tui.game import RestrictLastBid, TableRules
from wizard_tui.net.host import HostOptions
from wizard_tui.net.host_adapter import WizardHost


class SealWatchingHost(WizardHost):
    """Keeps each inbound message (packed) with the round and whether its seals were all
    in when it came; checks after each that it holds no bid it should not."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.inbound: list[tuple[int | None, bytes, int, bool]] = []
        self.checks = 0

    def on_message(self, session: Any, msg: dict[str, Any]) -> None:
        table = self.table
        r = table.game.round if table is not None else 0
        sealing = table.sealing if table is not None else None
        published = sealing is not None and sealing.round == r and sealing.published
        raw = msgpack.packb(copy.deepcopy(msg), use_bin_type=True)
        self.inbound.append((session.seat, raw, r, published))
        super().on_message(session, msg)
        self._check_no_bid_held()

    def _check_no_bid_held(self) -> None:
        table = self.table
        if table is None or table.sealing is None or table.game.round != table.sealing.round:
            return
        state = table.sealing
        if state.published:
            return
        assert set(state.opened) == state.host_decided  # its own bots' bids, nothing else
        assert all(b is None for b in table.game.bids)  # nothing applied yet
        self.checks += 1


def _others_bid_shown(msg: dict[str, Any], seat: int) -> bool:
    """Whether a message from the host tells ``seat`` anything of another seat's bid."""
    t = msg["t"]
    if t in ("bids_open", "round_end"):
        return True
    view = msg.get("view") if t in ("state", "snapshot") else None
    others = [] if view is None else [b for s, b in enumerate(view["bids"]) if s != seat]
    if view is not None and view["phase"] == "bid" and any(b is not None for b in others):
        return True
    return any(e[0] == "bid" for e in msg.get("events", []))


async def test_no_bid_is_seen_before_every_seal_is_in(tmp_path: Path) -> None:
    options = HostOptions(
        players=4,
        bots=1,
        bot_level="random",
        rules=TableRules(RestrictLastBid.ALWAYS, hidden_bids=True),
        records_dir=tmp_path,
        deal="private",
    )
    async with asyncio.timeout(90), running_host(options, host_cls=SealWatchingHost) as host:
        sessions = await seat_sessions(options.port, 3, cls=CapturingSession)
        watcher = CapturingSession(LOOPBACK, options.port, name="w", limits=LIMITS, watch=True)
        await watcher.connect()
        assert await play_bots(sessions, "random", seed=11) == [0, 0, 0]
        await host.finished.wait()
        await watcher.close()
        assert_private_game_verified(host, sessions)
    assert isinstance(host, SealWatchingHost) and host.checks >= 3 * 10
    record = host.table.recorder.record()  # type: ignore[union-attr]
    bot_seat = 3
    for rnd in record.rounds:
        nonces = [bytes.fromhex(e["nonce"]) for e in rnd.extra["bid_seals"]]
        for seat in range(3):  # the players' nonces (the host drew its bot's itself)
            before = [raw for s, raw, r, done in host.inbound if r == rnd.round and not done]
            after = [raw for s, raw, r, done in host.inbound if r == rnd.round and done]
            assert not any(nonces[seat] in raw for raw in before), (rnd.round, seat)
            assert any(nonces[seat] in raw for raw in after), (rnd.round, seat)
        assert nonces[bot_seat] not in b"".join(raw for _, raw, _, _ in host.inbound)
    for session in [*sessions, watcher]:
        seat = session.seat if session.seat is not None else -1  # (the watcher: no seat)
        published: set[int] = set()
        for msg in session.received:
            if msg["t"] == "bid_seals":
                assert len(msg["seals"]) == 4
                published.add(msg["round"])
            r = _message_round(msg)
            if r is None or r in published:
                continue
            if msg["t"] == "round_end":
                continue  # (an earlier round's end)
            assert not _others_bid_shown(msg, seat), (session.name, r, msg["t"])
        assert published == {rnd.round for rnd in record.rounds}


def _message_round(msg: dict[str, Any]) -> int | None:
    """The round a host message is about while its bids are made, if it is one."""
    if msg["t"] in ("bid_sealed", "bid_seals", "bids_open"):
        return int(msg["round"])
    view = msg.get("view") if msg["t"] in ("state", "snapshot") else None
    if view is not None and view["phase"] == "bid":
        return int(view["round"])
    return None
