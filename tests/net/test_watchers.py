"""Spectators (wizard_tui/net/watchers.py): a watcher sees public information only.

A watcher joins in the lobby and watches a whole game between bots; every message it got is
then inspected in order: no view holds a hand or a legal move, every card first appears in
a play (or as the turned-up trump card), and a round's hands and seeds only come with its
result, once every card of it was played. Also: the host can refuse watchers, the room
password covers them, they take no seat, they may chat and do nothing else.
"""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
from net_helpers import LIMITS, LOOPBACK, CapturingSession, Tap, play_bots, running_host

from netplay import (
    KnownHosts,
    ProtocolError,
    ServerError,
    StaticIdentity,
    load_or_create_identity,
)
from wizard_tui.cli import UserError
from wizard_tui.game import Deal, Game, GameConfig, RestrictLastBid
from wizard_tui.launch import connect_session
from wizard_tui.net import protocol as p
from wizard_tui.net.client import NetworkSession
from wizard_tui.net.host import HostOptions
from wizard_tui.net.hosting import hosting
from wizard_tui.session import ActionRefused, ChatLine, GameFinished, TableUpdate

# Keys whose values are public bytes: the game's id, commit-reveal's commitments (hashes),
# the private deal's public signing keys.
PUBLIC_BYTES = {"game_id", "commitments", "signing_keys"}
SECRET_KEYS = {"hand", "hands", "seed", "seeds", "env", "keys", "key", "evidence"}


def watcher(port: int, cls: type[NetworkSession] = CapturingSession, **kw: Any) -> Any:
    return cls(LOOPBACK, port, name="late friend", limits=LIMITS, watch=True, **kw)


def _walk(value: Any, path: tuple[str, ...] = ()) -> list[tuple[tuple[str, ...], Any]]:
    """Every (key path, leaf) of a message."""
    if isinstance(value, dict):
        return [leaf for k, v in value.items() for leaf in _walk(v, (*path, str(k)))]
    if isinstance(value, list):
        return [leaf for v in value for leaf in _walk(v, path)]
    return [(path, value)]


def assert_only_public(received: list[dict[str, Any]], players: int) -> int:
    """Inspect every message a watcher got, in order; the number of plays seen."""
    played: set[int] = set()  # every card played so far in the round in play
    trump: int | None = None
    plays = 0
    for msg in received:
        t = msg["t"]
        if t == "round_end":
            result = msg["result"]
            r = result["round"]
            dealt = {c for hand in result["hands"] for c in hand}
            # Only once the round is over: every card of its hands was played.
            assert len(dealt) == r * players and dealt <= played, (r, dealt - played)
            played, trump = set(), None
            continue
        for path, leaf in _walk(msg):
            assert not (set(path) & SECRET_KEYS) or leaf in (None, [], ()), (t, path, leaf)
            if isinstance(leaf, bytes):
                assert set(path) & PUBLIC_BYTES, (t, path)
        if t not in ("state", "snapshot"):
            continue
        view = msg["view"]
        if view is None:
            continue
        assert view["seat"] is None and view["hand"] == []
        assert view["legal_cards"] == [] and view["legal_bids"] == []
        for event in msg["events"] if t == "state" else []:
            if event[0] == "played":
                assert event[2] not in played, event  # a card is played once
                played.add(event[2])
                plays += 1
            elif event[0] == "dealt":
                trump = event[3]
        shown = set(view["trick"]) | {c for trick in view["tricks"] for c in trick[1]}
        assert shown <= played, (shown - played, msg)
        if view["trump_card"] is not None:
            assert view["trump_card"] == trump
    return plays


@pytest.mark.parametrize("deal", ["private", "commit-reveal"])
async def test_a_watcher_sees_a_whole_game_and_no_unplayed_card(tmp_path: Path, deal: str) -> None:
    options = HostOptions(players=3, bots=1, bot_level="random", records_dir=tmp_path, deal=deal)
    async with asyncio.timeout(90), running_host(options) as host:
        spectator = watcher(options.port)
        await spectator.connect()
        assert spectator.seat is None
        tap = Tap(spectator)
        seated = [
            CapturingSession(LOOPBACK, options.port, name=f"net{i}", limits=LIMITS)
            for i in range(2)
        ]
        for s in seated:
            await s.connect()
        assert [s.seat for s in seated] == [0, 1]  # the watcher took no seat
        assert await play_bots(seated, "random", seed=3) == [0, 0]
        await host.finished.wait()
        finished = await tap.wait_for(lambda u: isinstance(u, GameFinished))
        assert host.table is not None
        assert list(finished.totals) == host.table.game.totals
        # It had the whole game: the score pad holds every round.
        assert len(spectator.history) == host.table.game.num_rounds
        received = spectator.received  # type: ignore[attr-defined]
        plays = assert_only_public(received, 3)
        assert plays == 3 * sum(range(1, 21))
        # What a seated player was sent of the others: the same public messages.
        public = [m["t"] for m in received if m["t"] in ("round", "round_end", "chat")]
        theirs = [m["t"] for m in seated[0].received if m["t"] in ("round", "round_end", "chat")]  # type: ignore[attr-defined]
        assert public == theirs
        await tap.close()
        for s in seated:
            await s.close()


async def test_a_watcher_who_comes_late_gets_the_game_so_far(tmp_path: Path) -> None:
    options = HostOptions(players=3, bots=1, bot_level="random", records_dir=tmp_path)
    options.deal = "commit-reveal"
    async with asyncio.timeout(60), running_host(options) as host:
        seated = [
            NetworkSession(LOOPBACK, options.port, name=f"n{i}", limits=LIMITS) for i in range(2)
        ]
        for s in seated:
            await s.connect()
        game = asyncio.gather(*(play_bots([s], "random", seed=i) for i, s in enumerate(seated)))
        while host.table is None or host.table.game.round < 3:
            await asyncio.sleep(0.01)
        spectator = watcher(options.port)
        await spectator.connect()
        tap = Tap(spectator)
        update = await tap.table_update(lambda u: True)
        assert update.view.seat == -1 and update.view.hand == ()
        snapshot = next(m for m in spectator.received if m["t"] == "snapshot")
        assert snapshot["view"]["hand"] == [] and snapshot["deal"] is None
        # Only finished rounds in its history: never the round in play.
        assert all(
            r["round"] < snapshot["view"]["round"] or snapshot["view"]["phase"] == "deal"
            for r in snapshot["history"]
        )
        await game
        await tap.close()
        for s in seated:
            await s.close()


async def test_no_watchers_refuses_with_a_clear_code(tmp_path: Path) -> None:
    options = HostOptions(players=3, bots=0, records_dir=tmp_path, watchers=False)
    async with asyncio.timeout(10), running_host(options):
        spectator = watcher(options.port, NetworkSession)
        with pytest.raises(ServerError) as info:
            await spectator.connect()
        assert info.value.code == p.NO_WATCHERS
        player = NetworkSession(LOOPBACK, options.port, name="Ann", limits=LIMITS)
        await player.connect()
        assert player.seat == 0  # players still join
        await player.close()


async def test_watchers_are_capped_and_take_no_seat(tmp_path: Path) -> None:
    options = HostOptions(players=3, bots=0, records_dir=tmp_path)
    async with asyncio.timeout(20), running_host(options) as host:
        watchers = [watcher(options.port, NetworkSession) for _ in range(p.MAX_WATCHERS)]
        for w in watchers:
            await w.connect()
        extra = watcher(options.port, NetworkSession)
        with pytest.raises(ServerError) as info:
            await extra.connect()
        assert info.value.code == p.WATCHERS_FULL
        assert host.seats == [None, None, None]
        for w in watchers:
            await w.close()


async def test_a_wrong_room_password_refuses_a_watcher(tmp_path: Path) -> None:
    options = HostOptions(players=3, bots=0, records_dir=tmp_path)
    identity = StaticIdentity.generate()
    async with (
        asyncio.timeout(10),
        hosting(
            options, bind=LOOPBACK, port=0, limits=LIMITS, identity=identity, password="quokka-7Q"
        ),
    ):
        folder = tmp_path / "w"
        keys = {
            "identity": load_or_create_identity(folder),
            "known_hosts": KnownHosts.in_directory(folder),
        }
        wrong = watcher(options.port, NetworkSession, password="quokka-7q", **keys)
        with pytest.raises(UserError) as info:
            await connect_session(wrong, LOOPBACK, options.port)
        assert "wrong room password" in str(info.value)
        right = watcher(options.port, NetworkSession, password="quokka-7Q", **keys)
        await connect_session(right, LOOPBACK, options.port)
        assert right.seat is None
        await right.close()


async def test_a_watchers_chat_reaches_the_players_and_it_can_do_nothing_else(
    tmp_path: Path,
) -> None:
    options = HostOptions(players=3, bots=0, records_dir=tmp_path)
    async with asyncio.timeout(10), running_host(options):
        player = NetworkSession(LOOPBACK, options.port, name="Ann", limits=LIMITS)
        await player.connect()
        heard = Tap(player)
        spectator = watcher(options.port, NetworkSession)
        await spectator.connect()
        seen = Tap(spectator)
        spectator.chat("good luck!")
        line = await heard.wait_for(lambda u: isinstance(u, ChatLine) and u.text == "good luck!")
        assert line.name == "late friend" and line.seat is None and line.watcher
        # What only a seat may send is refused, as sent by a hostile watcher's program.
        mark = seen.mark()
        spectator.client.send(p.bid_msg(0, 1, 0))
        refusal = await seen.refusal(mark)
        assert isinstance(refusal, ActionRefused) and refusal.code == p.WATCHING
        await heard.close()
        await seen.close()
        assert not any(isinstance(u, TableUpdate) for u in seen.updates)


def test_a_watchers_reader_refuses_a_view_with_a_seat_or_a_hand() -> None:
    game = Game(GameConfig(3, 0, RestrictLastBid.NEVER))
    game.apply(Deal(tuple(range(60))))
    public = p.public_view_wire(game)
    assert public["hand"] == [] and public["trump_card"] == game.trump_card
    reader = p.ViewReader(watching=True)
    assert reader.read(public, ()).seat == -1
    for wrong in ({"seat": 0}, {"hand": [game.dealt_hand(0)[0]]}, {"legal_bids": [0, 1]}):
        with pytest.raises(ProtocolError):
            p.ViewReader(watching=True).read({**public, **wrong}, ())
    with pytest.raises(ProtocolError):  # a seat's reader refuses a view with no seat
        p.ViewReader().read(public, ())


class DroppingWatcher(CapturingSession):
    """A watcher whose socket just goes (no bye) at the first state of round 2; its client
    reconnects with its token, as any player's does."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.dropped = False

    def _handle(self, msg: dict[str, Any]) -> None:
        super()._handle(msg)
        if msg["t"] == "state" and not self.dropped and msg["view"]["round"] == 2:
            self.dropped = True
            link = self.client._link  # the test's subject: a link that just goes
            assert link is not None
            link.writer.transport.abort()


async def test_a_watcher_whose_link_drops_resumes_with_a_public_snapshot(tmp_path: Path) -> None:
    options = HostOptions(players=3, bots=1, bot_level="random", records_dir=tmp_path)
    options.deal, options.bot_delay = "commit-reveal", 0.01  # time for the watcher to resume
    async with asyncio.timeout(90), running_host(options) as host:
        spectator = watcher(options.port, DroppingWatcher)
        await spectator.connect()
        tap = Tap(spectator)
        seated = [
            NetworkSession(LOOPBACK, options.port, name=f"n{i}", limits=LIMITS) for i in range(2)
        ]
        for s in seated:
            await s.connect()
        assert await play_bots(seated, "random", seed=5) == [0, 0]
        await host.finished.wait()
        await tap.wait_for(lambda u: isinstance(u, GameFinished))
        assert spectator.dropped
        snapshots = [m for m in spectator.received if m["t"] == "snapshot"]
        assert len(snapshots) == 1 and snapshots[0]["deal"] is None
        assert snapshots[0]["view"]["hand"] == [] and snapshots[0]["game"]["you"] is None
        assert len(host.watchers) == 1  # the same session, not a second watcher
        await tap.close()
        for s in seated:
            await s.close()


def test_a_new_watcher_hears_nothing_before_the_game_so_far(tmp_path: Path) -> None:
    """The host sends a joining watcher its snapshot a step after the welcome; what the
    table broadcasts in between must wait, or the watcher hears of a game it has not been
    told of (a state before its ``game``). Driven by the host core, so no timing decides."""
    from test_host_core import Players, _host, _join, _session

    host, runtime, server = _host(tmp_path, deal="commit-reveal")
    alice, bob = _join(host, runtime, "alice", "bob")
    players = Players(host, server, [alice, bob])
    players.answer()  # the round's commitments: every seat's seed is asked next
    late = _session("late")
    host.on_join(late, {"watch": True})
    sent_before = len(server.sent)
    players.answer()  # the seeds: the round is dealt, and every seat is sent its state
    players.move()
    assert any(m["t"] == "state" for _, m, _ in server.sent[sent_before:])
    runtime.advance()  # the watcher's join step
    to_late = [m["t"] for sid, m, _ in server.sent if sid == late.id]
    assert to_late and to_late[0] == "snapshot", to_late
