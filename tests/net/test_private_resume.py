"""A privately dealt game survives a host crash (docs/architecture.md, "crash safety").

The host journals the game's signing keys, its bots' private keys and every finished round
(its deck, actions and verified transcript). A host stopped mid-round and restored from its
journal gets every finished round back; the round that was in progress cannot go on (the
players' round keys were never the host's, its bots' were in memory): it is voided as
``lost_keys`` and dealt again with the next attempt number, every returning client is told,
discards its keys of that attempt and takes part in the redeal, and the record verifies.
The commit-reveal journals are untouched (tests/net/test_crash_resume.py).
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import sys
from pathlib import Path
from typing import Any

import pytest
from net_helpers import (
    LIMITS,
    LOOPBACK,
    CapturingSession,
    assert_own_records,
    play_bots,
    running_host,
    seat_sessions,
    wait_until,
)
from private_helpers import assert_private_game_verified, play_until
from test_crash_resume import start_host
from test_private_cheating import CASES, CHEATER, _dealt_again_and_played
from test_private_reconnect import LeavesMidTrick

from netplay import StaticIdentity
from netplay.signing import SigningKey
from wizard_tui.game import Phase
from wizard_tui.net.deals.private.host import LOST_KEYS, PrivateDealing
from wizard_tui.net.deals.private.round_secrets import SecretStore
from wizard_tui.net.host import HostOptions
from wizard_tui.net.host_adapter import WizardHost
from wizard_tui.net.hosting import hosting
from wizard_tui.net.journal import journal_path, read_journal
from wizard_tui.net.restore import RestoreError, replay
from wizard_tui.record import read_record
from wizard_tui.verify import verify_path


def _options(tmp_path: Path) -> HostOptions:
    return HostOptions(
        players=3,
        bots=1,
        bot_level="random",
        records_dir=tmp_path / "records",
        journal_dir=tmp_path / "games",
        deal="private",
    )


def _persons_turn(host: WizardHost) -> bool:
    table = host.table
    if table is None or not 0 <= table.game.turn < len(host.seats):
        return False
    seat = host.seats[table.game.turn]
    return seat is not None and seat.kind == "human"


def _mid_round(host: WizardHost, round_number: int) -> bool:
    """Round ``round_number`` or later is being played, a card of it down already."""
    table, private = host.table, host.deal_half
    if table is None or private is None or private.deal is None:
        return False
    game = table.game
    return game.round >= round_number and game.phase is Phase.PLAY and bool(game.trick)


def _voids(session: CapturingSession) -> list[dict[str, Any]]:
    return [m for m in session.received if m["t"] == "void"]


async def test_private_host_stopped_mid_round_resumes_and_redeals(tmp_path: Path) -> None:
    identity = StaticIdentity.generate()
    options = _options(tmp_path)
    stores = [SecretStore(tmp_path / f"secrets{i}") for i in range(2)]
    async with asyncio.timeout(60):
        async with hosting(
            options, bind=LOOPBACK, port=0, identity=identity, limits=LIMITS
        ) as host:
            port = options.port
            sessions = []
            for i, store in enumerate(stores):
                session = CapturingSession(
                    LOOPBACK, port, name=f"net{i}", limits=LIMITS, secret_store=store
                )
                await session.connect()
                sessions.append(session)
            game = asyncio.ensure_future(play_bots(sessions, "random", 3))
            await wait_until(lambda: _mid_round(host, 3) or game.done())
            assert not game.done(), "the game ended before the crash point"
            assert host.journal is not None and isinstance(host.deal_half, PrivateDealing)
            path = host.journal.path
            deal = host.deal_half.deal
            assert deal is not None
            cut = (deal.round, deal.attempt)
            live_rounds = list(host.table.recorder.rounds)  # type: ignore[union-attr]
        # The host is gone mid-round (no bye: the clients keep reconnecting); its journal
        # holds every round it finished, and the attempt it was dealing.
        contents = read_journal(path)
        assert contents.entries[0]["deal"] == "private"
        state = replay(contents.entries)
        assert list(state.recorder.rounds) == live_rounds
        cut_off = state.half.attempt  # type: ignore[attr-defined]
        assert cut_off is not None and (cut_off.round, cut_off.attempt) == cut
        async with hosting(
            options, bind=LOOPBACK, port=port, identity=identity, limits=LIMITS, resume=contents
        ) as host:
            assert isinstance(host.deal_half, PrivateDealing) and host.table is not None
            assert host.options.deal == "private"
            codes = await game
            await host.finished.wait()
        for session in sessions:
            await session.close()
    assert codes == [0, 0]
    assert_private_game_verified(host, sessions, redeals=1)
    (redeal,) = host.table.recorder.redeals
    assert (redeal.round, redeal.attempt, redeal.fault, redeal.culprit) == (*cut, LOST_KEYS, None)
    assert "restarted" in redeal.reason
    redealt = host.table.recorder.rounds[cut[0] - 1].private_deal
    assert redealt is not None and redealt.setup.attempt == cut[1] + 1
    for session in sessions:
        # Told of the void it missed, which ended its attempt: its keys of it are deleted.
        assert [(m["round"], m["attempt"], m["code"]) for m in _voids(session)] == [
            (*cut, LOST_KEYS)
        ]
        assert [(v.round, v.attempt) for v in session.seat_half.voids] == [cut]  # type: ignore[attr-defined]
    for store in stores:
        assert not list(store.directory.iterdir())  # every round's secret deleted
    record = read_record(host.table.record_path)  # type: ignore[arg-type]
    assert verify_path(host.table.record_path).ok  # type: ignore[arg-type]
    assert [(d.round, d.attempt) for d in record.redeals] == [cut]
    entries = read_journal(path).entries
    assert entries[-1]["t"] == "game_over"
    assert replay(entries).recorder.record() == host.table.recorder.record()


def test_private_journal_refuses_a_bot_key_of_another_seat(tmp_path: Path) -> None:
    """The host bots' private keys must open the signing keys the game announced."""
    from wizard_tui.game import GameConfig
    from wizard_tui.net.host import Seat
    from wizard_tui.net.restore import game_entry

    bot, other = SigningKey.generate(), SigningKey.generate()
    keys = [SigningKey.generate().public_key, SigningKey.generate().public_key, other.public_key]
    seats = [Seat("a", "human"), Seat("b", "human"), Seat("bot", "bot", level="random")]
    entry = game_entry(
        b"\x01" * 16,
        0.0,
        GameConfig(3, 0),
        seats,
        _options(tmp_path),
        [None, None, "random"],
        keys,
        {2: bot},
    )
    with pytest.raises(RestoreError, match="bot key"):
        replay([entry])
    entry["private"]["bot_keys"] = [[2, other.private_bytes()]]
    assert replay([entry]).header.bot_keys == {2: other.private_bytes()}


async def _kill_mid_round(
    proc: asyncio.subprocess.Process, path: Path, after_rounds: int, rng: random.Random
) -> tuple[dict[str, Any], ...]:
    """SIGKILL the host once round ``after_rounds + 1`` or later is being dealt or played;
    the journal as the kill left it."""
    while proc.returncode is None:
        entries = read_journal(path).entries
        last = entries[-1]
        if last["t"] == "attempt" and last["round"] > after_rounds:
            await asyncio.sleep(rng.uniform(0, 0.05))  # somewhere inside the round
            break
        await asyncio.sleep(0.003)
    assert proc.returncode is None, "the game ended before the kill point"
    proc.send_signal(signal.SIGKILL)
    await proc.wait()
    return read_journal(path).entries


@pytest.mark.parametrize("hidden_bids", [False, True])
async def test_sigkill_private_host_then_resume(tmp_path: Path, hidden_bids: bool) -> None:
    """``host --headless`` (the private deal, the default) killed with SIGKILL mid-round,
    twice, and restarted with ``host --resume``: the players finish, every round verified
    by them, and the record (with one ``lost_keys`` redeal per round cut) verifies. With
    hidden bids too: the rounds finished before a kill keep their seals in the record."""
    seed = int.from_bytes(os.urandom(4), "big")
    rng = random.Random(seed)
    home = tmp_path / "host"
    env = {**os.environ, "XDG_DATA_HOME": str(home)}
    records = tmp_path / "records"
    log = tmp_path / "host.log"
    args = ("--bind", LOOPBACK, "--port", "0", "--players", "3", "--bots", "1")
    args += ("--hidden-bids",) if hidden_bids else ()
    proc, port = await start_host(
        env, log, *args, "--bot-level", "random", "--records", str(records)
    )
    stores = [SecretStore(tmp_path / f"secrets{i}") for i in range(2)]
    sessions = [
        CapturingSession(LOOPBACK, port, name=f"net{i}", limits=LIMITS, secret_store=store)
        for i, store in enumerate(stores)
    ]
    for session in sessions:
        await session.connect()
    players = asyncio.get_running_loop().create_task(play_bots(sessions, "random", seed))
    games = home / "wizard-tui" / "games"
    cuts: list[tuple[int, int]] = []
    try:
        async with asyncio.timeout(90):
            while not (games.exists() and any(games.iterdir())):
                await asyncio.sleep(0.01)
            path = next(games.iterdir())
            for after_rounds in (2, 5):
                entries = await _kill_mid_round(proc, path, after_rounds, rng)
                state = replay(entries)  # the journal a SIGKILL left replays
                cut_off = state.half.attempt
                if cut_off is not None:
                    cuts.append((cut_off.round, cut_off.attempt))
                proc, resumed_port = await start_host(env, log, "--resume")
                assert resumed_port == port
            codes = await players
            failures = [v.detail for s in sessions for v in s.verifications if not v.ok]
            assert codes == [0, 0], f"seed {seed}: {codes}, {failures}"
            assert await proc.wait() == 0, f"seed {seed}: {log.read_text()}"
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        for session in sessions:
            await session.close()
    assert cuts, f"seed {seed}: no kill cut a round"  # (one between two rounds is rare)
    record_path = records / path.name.replace(".journal", ".json")
    verify = await asyncio.create_subprocess_exec(
        *(sys.executable, "-m", "wizard_tui", "verify", str(record_path)),
        env=env,
        stdout=asyncio.subprocess.PIPE,
    )
    out, _ = await verify.communicate()
    assert verify.returncode == 0, out.decode()
    record = read_record(record_path)
    assert record.private and record.complete
    assert [(d.round, d.attempt, d.fault) for d in record.redeals] == [
        (*cut, LOST_KEYS) for cut in cuts
    ]
    for session in sessions:
        assert session.all_verified, session.name
        assert [(m["round"], m["attempt"]) for m in _voids(session)] == cuts
    for store in stores:
        assert not list(store.directory.iterdir())


def _replays_to_the_live_record(host: WizardHost, journal_dir: Path) -> None:
    table = host.table
    assert table is not None
    entries = read_journal(journal_path(journal_dir, table.game_id)).entries
    assert replay(entries).recorder.record() == table.recorder.record()


async def test_journal_replays_a_stand_in_and_its_void(tmp_path: Path) -> None:
    """A player gone for good (a bot plays its seat with a key of the host's) voids the
    attempt; the journal replays to the same record: the void and the stand-in."""
    options = _options(tmp_path)
    options.players, options.takeover_after = 4, 0.05
    async with asyncio.timeout(30), running_host(options) as host:
        (leaver,) = await seat_sessions(options.port, 1, cls=LeavesMidTrick)
        others = await seat_sessions(options.port, 2)
        gone = asyncio.ensure_future(play_bots([leaver]))
        await play_bots(others, seed=1)
        await host.finished.wait()
    leaver.client.gate.set()  # type: ignore[attr-defined]  # (to a closed host)
    await leaver.close()
    await gone
    record = host.table.recorder.record()  # type: ignore[union-attr]
    assert record.redeals and record.stand_ins
    _replays_to_the_live_record(host, tmp_path / "games")


@pytest.mark.parametrize("case", ["revoke", "wrong key in an open"])
async def test_journal_replays_a_cheaters_void(tmp_path: Path, case: str) -> None:
    """A void naming a culprit, with its evidence or its public actions, replays as
    recorded."""
    options = _options(tmp_path)
    options.players = 4
    async with asyncio.timeout(60), running_host(options) as host:
        sessions = await seat_sessions(options.port, 1)
        sessions += await seat_sessions(options.port, 1, cls=CASES[case][0])
        sessions += await seat_sessions(options.port, 1)
        await play_until(host, sessions, lambda: _dealt_again_and_played(host), seed=11)
    (void,) = host.table.recorder.redeals  # type: ignore[union-attr]
    assert void.culprit == CHEATER
    _replays_to_the_live_record(host, tmp_path / "games")


async def test_host_own_table_restarts_with_the_host(tmp_path: Path) -> None:
    """The host's own table (same process as the host) restarts with it: a new client with
    the installation's signing key and round-secret store takes its seat back by token,
    joins the redeal, and the secret of the attempt the crash cut off is deleted."""
    identity = StaticIdentity.generate()
    signing_key = SigningKey.generate()  # the installation's, kept on disk
    store = SecretStore(tmp_path / "own-secrets")
    options = _options(tmp_path)

    def own_table(port: int, host_key: str, token: str | None = None) -> CapturingSession:
        session = CapturingSession(
            LOOPBACK,
            port,
            name="me",
            limits=LIMITS,
            host_key=host_key,
            identity=identity,
            server_key=identity.public_key,
            signing_key=signing_key,
            secret_store=store,
            records_dir=tmp_path / "own-records",  # its own record: what it checked stays
        )
        session.client.token = token
        return session

    async with asyncio.timeout(60):
        async with hosting(
            options, bind=LOOPBACK, port=0, identity=identity, limits=LIMITS
        ) as host:
            port = options.port
            mine = own_table(port, host.host_key)
            await mine.connect()
            friend = CapturingSession(LOOPBACK, port, name="friend", limits=LIMITS)
            await friend.connect()
            first = asyncio.ensure_future(play_bots([mine, friend], "random", 5))
            # Cut where a person must play next: were it the host's bot, it could finish the
            # round (and the reveals are the programs' own) before the host goes down.
            await wait_until(lambda: (_mid_round(host, 2) and _persons_turn(host)) or first.done())
            assert (
                not first.done()
                and isinstance(host.deal_half, PrivateDealing)
                and host.deal_half.deal
            )
            cut = (host.deal_half.deal.round, host.deal_half.deal.attempt)
            assert host.journal is not None
            path = host.journal.path
            first.cancel()  # the host's process dies, its own table with it
            await mine.close()
        assert store.load(mine.game_id, *cut) is not None  # type: ignore[arg-type]
        async with hosting(
            options,
            bind=LOOPBACK,
            port=port,
            identity=identity,
            limits=LIMITS,
            resume=read_journal(path),
        ) as host:
            mine = own_table(port, host.host_key, host.resume_token(identity.public_key))
            await mine.connect()
            codes = await play_bots([mine, friend], "random", 6)
            await host.finished.wait()
        await friend.close()
        await mine.close()
    assert codes[1] == 0  # the friend verified every round, across the restart
    assert host.table is not None and verify_path(host.table.record_path).ok  # type: ignore[arg-type]
    assert [(d.round, d.attempt, d.fault) for d in host.table.recorder.redeals] == [
        (*cut, LOST_KEYS)
    ]
    assert not list(store.directory.iterdir())  # the cut-off attempt's secret too
    # What the table checked before the restart stays checked (its record says so), never
    # "played while you were away"; its record and the friend's are whole and verify.
    earlier = [v for v in mine.verifications if v.round < cut[0]]
    assert earlier and all(v.ok and v.checked for v in earlier)
    assert all("an earlier run of this program" in v.detail for v in earlier)
    assert not any("away" in v.detail for v in mine.verifications)
    assert codes == [0, 0]
    assert_own_records(host.table.recorder.record(), [mine, friend])
    assert mine.record_path is not None and mine.record_path.parent == tmp_path / "own-records"


def test_commit_reveal_game_entry_is_as_before(tmp_path: Path) -> None:
    """A commit-reveal journal's first entry carries no deal (as every journal written
    before private games had one), and reads back as commit-reveal."""
    from wizard_tui.game import GameConfig
    from wizard_tui.net.host import Seat
    from wizard_tui.net.restore import game_entry, parse_header

    options = _options(tmp_path)
    options.deal = "commit-reveal"
    seats = [Seat("a", "human"), Seat("b", "human"), Seat("bot", "bot", level="random")]
    entry = game_entry(b"\x01" * 16, 0.0, GameConfig(3, 0), seats, options, [None, None, None])
    assert "deal" not in entry and "private" not in entry
    header = parse_header(entry)
    assert header.deal == "commit-reveal" and header.signing_keys == ()
