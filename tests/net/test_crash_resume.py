"""A host killed with SIGKILL at random points resumes the exact game with ``--resume``.

The host is a real ``wizard-tui host --headless`` process (its own ``XDG_DATA_HOME`` under
``tmp_path``, so its identity key, journal and records stay there); the players are
in-process ``NetworkSession`` clients played by random bots, reconnecting by themselves.
After every kill the journal on disk is what the host had accepted (each entry fsynced
before anything was said about it); the test keeps it, restarts the host with ``--resume``
and at the end checks that

* the host exits 0 and its record passes ``wizard-tui verify``;
* every client verified every round itself (so the round in progress at each kill was
  restored with the very commitments and seeds it was dealt with);
* each journal read after a kill replays, and its actions are a prefix of the final
  record's actions, its commitments and seeds those of the final record: nothing accepted
  was lost or changed;
* every action a client was told about before a kill is in the final record.

Plus the journal's own unit tests: a torn last entry (cut anywhere in its frame, or with a
flipped byte) is dropped, never misread, and the journal appends cleanly after it.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from net_helpers import (
    LIMITS,
    LOOPBACK,
    CapturingSession,
    play_bots,
    running_host,
    seat_sessions,
    wait_until,
)

from netplay import StaticIdentity
from wizard_tui.cli import main
from wizard_tui.commands.resuming import choose_game
from wizard_tui.game import GameConfig, is_wizard, seat_view
from wizard_tui.net.host import HostOptions, Seat
from wizard_tui.net.hosting import hosting
from wizard_tui.net.journal import (
    MAGIC,
    JournalError,
    JournalWriter,
    encode_entry,
    journal_path,
    read_journal,
)
from wizard_tui.net.restore import game_entry, replay
from wizard_tui.net.saved_games import find_game, games_dir
from wizard_tui.record import GameRecord, read_record
from wizard_tui.verify import verify_path

CLI = [sys.executable, "-m", "wizard_tui"]
# Seconds of killing and resuming (the game then finishes undisturbed), and the most
# entries between two kills. benchmarks/crash_resume.py runs this test with more.
KILL_BUDGET = float(os.environ.get("WIZARD_CRASH_KILL_SECONDS", "28"))
KILL_GAP = int(os.environ.get("WIZARD_CRASH_KILL_GAP", "30"))


# --------------------------------------------------------------------------- the journal


def test_torn_last_entry_is_dropped_at_every_cut(tmp_path: Path) -> None:
    first = {"t": "game", "n": 1}
    entries = [{"t": "action", "i": i, "blob": bytes([i]) * 40} for i in range(3)]
    path = tmp_path / "g.journal"
    writer = JournalWriter.create(path, first)
    for entry in entries:
        writer.append(entry)
    writer.close()
    whole = path.read_bytes()
    last = encode_entry(entries[-1])
    assert whole.endswith(last)
    start = len(whole) - len(last)
    # Every way the last append can be cut short: nothing of it is read.
    for cut in range(start, len(whole)):
        path.write_bytes(whole[:cut])
        contents = read_journal(path)
        assert contents.entries == (first, *entries[:-1]), cut
        assert contents.valid_bytes == start
        assert contents.torn_bytes == cut - start
        assert (contents.torn_reason != "") == (cut > start)
    # A flipped bit anywhere in the last frame (length, checksum or payload) is caught too.
    for pos in range(start, len(whole)):
        damaged = bytearray(whole)
        damaged[pos] ^= 0x01
        path.write_bytes(bytes(damaged))
        contents = read_journal(path)
        assert contents.entries == (first, *entries[:-1]), pos
        assert contents.torn_bytes == len(whole) - start
    # Reopening cuts the torn tail off, and what is appended next reads back.
    path.write_bytes(whole[: start + 5])
    contents = read_journal(path)
    writer = JournalWriter.reopen(contents)
    writer.append({"t": "after"})
    writer.close()
    again = read_journal(path)
    assert again.entries == (first, *entries[:-1], {"t": "after"})
    assert again.torn_bytes == 0


def test_journal_file_is_private_and_not_anything_else(tmp_path: Path) -> None:
    path = journal_path(tmp_path / "games", bytes(range(16)))
    JournalWriter.create(path, {"t": "game"}).close()
    assert path.name == "000102030405060708090a0b0c0d0e0f.journal"
    assert path.stat().st_mode & 0o777 == 0o600
    assert path.read_bytes().startswith(MAGIC)
    with pytest.raises(JournalError):
        JournalWriter.create(path, {"t": "game"})  # never overwrite a game
    other = tmp_path / "record.json"
    other.write_text("{}")
    with pytest.raises(JournalError):
        read_journal(other)


# --------------------------------------------------------------------------- the crash test


def record_actions(record: GameRecord) -> list[tuple[Any, ...]]:
    """The record's game as (round, kind, seat, value), in the order it was played."""
    out: list[tuple[Any, ...]] = []
    n = len(record.players)
    for r in record.rounds:
        if r.trump_card is not None and is_wizard(r.trump_card):
            assert r.trump_suit is not None
            out.append((r.round, "trump", r.dealer, int(r.trump_suit)))
        for i in range(n):
            seat = (r.dealer + 1 + i) % n
            out.append((r.round, "bid", seat, r.bids[seat]))
        for trick in r.tricks:
            out.extend((r.round, "play", seat, card) for seat, card in trick.plays)
    return out


def journal_actions(entries: tuple[dict[str, Any], ...]) -> list[tuple[Any, ...]]:
    return [(e["round"], e["a"], e["seat"], e["v"]) for e in entries if e["t"] == "action"]


def check_deal_entries(entries: tuple[dict[str, Any], ...], record: GameRecord) -> None:
    """Every commitment and seed the journal holds is the one the final record shows."""
    for e in entries:
        if e["t"] not in ("round", "commit", "seed"):
            continue
        recorded = record.rounds[e["round"] - 1]
        if e["t"] == "round":
            for seat, seed in e["local"]:
                assert recorded.seeds[seat] == seed, (e["round"], seat)
        elif e["t"] == "commit":
            assert recorded.commitments[e["seat"]] == e["commitment"]
        else:
            assert recorded.seeds[e["seat"]] == e["seed"]


async def start_host(
    env: dict[str, str], log: Path, *args: str
) -> tuple[asyncio.subprocess.Process, int]:
    with log.open("ab") as err:
        proc = await asyncio.create_subprocess_exec(
            *CLI,
            "host",
            "--headless",
            *args,
            env=env,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.PIPE,
            stderr=err,
        )
    assert proc.stdout is not None
    while True:
        line = (await asyncio.wait_for(proc.stdout.readline(), 20)).decode()
        assert line, f"the host ended before listening; see {log}"
        if line.startswith("wizard-tui host: listening on"):
            port = int(line.rsplit(":", 1)[1])
            break
    asyncio.get_running_loop().create_task(_drain(proc))
    return proc, port


async def _drain(proc: asyncio.subprocess.Process) -> None:
    assert proc.stdout is not None
    while await proc.stdout.readline():
        pass


def seen_actions(session: CapturingSession) -> list[tuple[Any, ...]]:
    """Every action this client was told about, as (round, kind, seat, value)."""
    out = []
    r = 0
    for msg in session.received:
        if msg["t"] == "state":
            r = msg["view"]["round"]
            for ev in msg["events"]:
                if ev[0] in ("bid", "played", "trump"):
                    kind = {"bid": "bid", "played": "play", "trump": "trump"}[ev[0]]
                    out.append((r, kind, ev[1], ev[2]))
    return out


async def test_sigkill_at_random_points_then_resume(tmp_path: Path) -> None:
    seed = int.from_bytes(os.urandom(4), "big")
    rng = random.Random(seed)
    home = tmp_path / "host"
    env = {**os.environ, "XDG_DATA_HOME": str(home)}
    records = tmp_path / "records"
    log = tmp_path / "host.log"
    proc, port = await start_host(
        env,
        log,
        *("--deal", "commit-reveal"),  # the private deal's crash: test_private_resume.py
        "--bind",
        LOOPBACK,
        "--port",
        "0",
        "--players",
        "3",
        "--bots",
        "1",
        "--bot-level",
        "random",
        "--records",
        str(records),
    )
    sessions = [CapturingSession(LOOPBACK, port, name=f"net{i}", limits=LIMITS) for i in range(2)]
    for session in sessions:
        await session.connect()
    players = asyncio.get_running_loop().create_task(play_bots(sessions, "random", seed))
    games = home / "wizard-tui" / "games"
    kills: list[tuple[dict[str, Any], ...]] = []
    seen_before_kill: list[list[tuple[Any, ...]]] = []
    ended = False
    started = time.monotonic()
    try:
        async with asyncio.timeout(120):
            while not (games.exists() and any(games.iterdir())):
                await asyncio.sleep(0.01)
            path = next(games.iterdir())
            while time.monotonic() - started < KILL_BUDGET:
                target = len(read_journal(path).entries) + rng.randint(1, KILL_GAP)
                while len(read_journal(path).entries) < target and proc.returncode is None:
                    await asyncio.sleep(0.003)
                if proc.returncode is not None:
                    break  # the game ended before this kill point
                proc.send_signal(signal.SIGKILL)
                await proc.wait()
                contents = read_journal(path)
                assert contents.torn_bytes == 0  # SIGKILL cannot tear a completed write
                kills.append(contents.entries)
                seen_before_kill.append([a for s in sessions for a in seen_actions(s)])
                if any(e["t"] == "game_over" for e in contents.entries):
                    ended = True  # killed on its way out, its work done: nothing to resume
                    break
                proc, resumed_port = await start_host(env, log, "--resume")
                assert resumed_port == port  # the journal's port, so clients find it again
            codes = await players
            failures = [v.detail for s in sessions for v in s.verifications if not v.ok]
            assert codes == [0, 0], f"seed {seed}: {codes}, {failures}, kills {len(kills)}"
            status = await proc.wait()
            assert status == (-signal.SIGKILL if ended else 0), f"seed {seed}: {log.read_text()}"
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
        for session in sessions:
            await session.close()
    last = sorted({k[-1]["t"] for k in kills})
    print(f"seed {seed}: {len(kills)} kills after entries of kinds {last}")
    assert len(kills) >= 3, f"only {len(kills)} kills fitted in; is the machine very slow?"
    # A kill during a record write leaves its temporary file beside it (never the record);
    # the next resume cleans it up.
    record_path = records / path.name.replace(".journal", ".json")
    assert [p.name for p in records.iterdir()] == [record_path.name]
    verify = await asyncio.create_subprocess_exec(
        *CLI, "verify", str(record_path), env=env, stdout=asyncio.subprocess.PIPE
    )
    out, _ = await verify.communicate()
    assert verify.returncode == 0, out.decode()
    record = read_record(record_path)
    assert record.complete and not record.redeals
    final = record_actions(record)
    for i, entries in enumerate(kills):
        state = replay(entries)  # every journal left by a kill replays through the engine
        accepted = journal_actions(entries)
        assert final[: len(accepted)] == accepted, f"seed {seed}, kill {i}: actions lost"
        assert len(state.recorder.rounds) <= len(record.rounds)
        assert list(state.recorder.rounds) == list(record.rounds[: len(state.recorder.rounds)])
        check_deal_entries(entries, record)
        for action in seen_before_kill[i]:
            assert action in final, f"seed {seed}, kill {i}: {action} was announced, then lost"
    for session in sessions:
        assert session.recorder is not None
        assert session.recorder.record().rounds == record.rounds


# --------------------------------------------------------------------------- restore, exactly


def table_state(game: Any, deal: Any, recorder: Any, history: Any) -> tuple[Any, ...]:
    """What a resumed host must hold exactly: every seat's view, the deal in progress
    (commitments in, seeds in, the published vector, the host's own seeds), the record."""
    exchange = None
    if deal is not None:
        ex = deal.exchange
        exchange = (
            ex.round,
            ex.phase,
            ex.missing_commitments(),
            ex.seeds_so_far(),
            ex.remote_seats,
            deal.commitments,
            deal.seeds,
        )
    views = tuple(seat_view(game, s) for s in range(game.players))
    return (views, game.actions, exchange, recorder.record(), history)


async def test_journal_replays_to_the_live_table_at_every_step(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Durability is the crash test's business; here only the contents count.
    monkeypatch.setattr(os, "fsync", lambda fd: None)
    options = HostOptions(
        players=3,
        bots=1,
        bot_level="random",
        records_dir=tmp_path,
        journal_dir=tmp_path / "games",
    )
    compared = 0
    async with asyncio.timeout(60), running_host(options) as host:
        sessions = await seat_sessions(options.port, 2)
        game = asyncio.ensure_future(play_bots(sessions, "random", 7))
        seen = 0
        while not game.done():
            # Between two callbacks of the host: the journal must describe its table exactly.
            table, journal = host.table, host.journal
            if table is not None and journal is not None:
                entries = read_journal(journal.path).entries
                # Every step of the first rounds, then a sample (a replay costs its length).
                if len(entries) != seen and (len(entries) < 150 or len(entries) % 13 == 0):
                    seen = len(entries)
                    state = replay(entries)
                    live_deal = host.deal_half.deal  # type: ignore[attr-defined]
                    live = table_state(table.game, live_deal, table.recorder, table.history_wire)
                    restored = table_state(
                        state.game,
                        state.half.deal,  # type: ignore[attr-defined]
                        state.recorder,
                        state.history_wire,
                    )
                    assert restored == live, f"after {seen} entries"
                    compared += 1
            await asyncio.sleep(0)
        assert await game == [0, 0]
        await host.finished.wait()
        path = journal_path(options.journal_dir, host.table.game_id)  # type: ignore[union-attr, arg-type]
    assert compared > 150
    entries = read_journal(path).entries
    assert entries[-1]["t"] == "game_over"  # written when the host closed
    assert replay(entries).finished


# --------------------------------------------------------------------------- the commands


def _write_game(games: Path, game_id: bytes, *, over: bool) -> Path:
    seats = [Seat("ann", "human"), Seat("bob", "human"), Seat("Merlin (random)", "bot")]
    header = game_entry(
        game_id, 1.7e9, GameConfig(3, 0), seats, HostOptions(players=3), [None, None, "random"]
    )
    writer = JournalWriter.create(journal_path(games, game_id), header)
    writer.append({"t": "round", "round": 1, "local": [[2, bytes(32)]]})
    if over:
        writer.append({"t": "game_over", "totals": [0, 0, 0], "winners": [0, 1, 2]})
    writer.close()
    return journal_path(games, game_id)


def test_games_lists_them_and_resume_finds_the_unfinished(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    games = games_dir()
    assert games.is_relative_to(tmp_path)
    unfinished = _write_game(games, bytes.fromhex("ab" * 16), over=False)
    _write_game(games, bytes.fromhex("cd" * 16), over=True)
    (games / ("ef" * 16 + ".journal")).write_bytes(b"not a journal")

    assert main(["games"]) == 0
    out = capsys.readouterr().out
    lines = {line[:8]: line for line in out.splitlines()}
    assert "unfinished" in lines["abababab"] and "1/20" in lines["abababab"]
    assert "ann, bob, Merlin (random)" in lines["abababab"]
    assert "finished" in lines["cdcdcdcd"] and "unfinished" not in lines["cdcdcdcd"]
    assert "unreadable" in lines["efefefef"]
    assert "wizard-tui host --resume" in out

    assert find_game("").path == unfinished  # the most recent unfinished one
    assert find_game("ABAB").path == unfinished
    with pytest.raises(LookupError, match="no unfinished game"):
        find_game("cd")  # finished games are not resumed

    # A plain host only hints when it must not ask; with a terminal it asks, y/N.
    args = argparse.Namespace(resume=None, takeover_after=60.0)
    assert choose_game(args, interactive=False) is None
    assert "wizard-tui host --resume abababab" in capsys.readouterr().out
    monkeypatch.setattr(sys.stdin, "isatty", lambda: True)
    monkeypatch.setattr("builtins.input", lambda prompt: "y")
    chosen = choose_game(args, interactive=True)
    assert chosen is not None and chosen.path == unfinished
    monkeypatch.setattr("builtins.input", lambda prompt: "")
    assert choose_game(args, interactive=True) is None

    # Errors for people, not tracebacks; --forget removes only the journal asked for.
    assert main(["host", "--headless", "--resume", "99"]) == 2
    assert "no unfinished game has an id starting with '99'" in capsys.readouterr().err
    assert main(["games", "--forget", "abab"]) == 0
    assert not unfinished.exists() and len(list(games.iterdir())) == 2
    assert main(["host", "--headless", "--resume"]) == 2
    assert "no unfinished game to resume" in capsys.readouterr().err


async def test_host_stopped_mid_game_resumes_with_its_own_table(tmp_path: Path) -> None:
    """The ``hosting(..., resume=...)`` path of ``wizard-tui host --resume`` with a table: a
    host stopped mid-game says no bye, so a friend's client keeps reconnecting; the resumed
    host gives the host's own table (same static key) its seat back by token."""
    identity = StaticIdentity.generate()
    options = HostOptions(
        players=3,
        bots=1,
        bot_level="random",
        records_dir=tmp_path,
        journal_dir=tmp_path / "games",
        auto_start=False,
    )

    def own_table(port: int, host_key: str, token: str | None = None) -> CapturingSession:
        session = CapturingSession(
            LOOPBACK,
            port,
            name="me",
            limits=LIMITS,
            host_key=host_key,
            identity=identity,
            server_key=identity.public_key,
        )
        session.client.token = token
        return session

    async with asyncio.timeout(60):
        async with hosting(options, bind=LOOPBACK, port=0, identity=identity) as host:
            port = options.port
            mine = own_table(port, host.host_key)
            await mine.connect()
            friend = CapturingSession(LOOPBACK, port, name="friend", limits=LIMITS)
            await friend.connect()
            await wait_until(lambda: len(host.seats) == 3 and all(host.seats))
            mine.start_game()
            first = asyncio.ensure_future(play_bots([mine, friend], "random", 1))
            await wait_until(lambda: host.table is not None and host.table.game.round >= 3)
            assert host.journal is not None
            path = host.journal.path
            first.cancel()  # the host's own player quits the table mid-game...
            await mine.close()
        # ...and the host stopped with it, unfinished: no bye to the friend, who reconnects.
        contents = read_journal(path)
        assert contents.entries[-1]["t"] != "game_over"
        async with hosting(
            options, bind=LOOPBACK, port=port, identity=identity, resume=contents
        ) as host:
            assert host.table is not None and host.table.game.round >= 3
            token = host.resume_token(identity.public_key)
            assert token is not None
            mine = own_table(port, host.host_key, token)
            await mine.connect()
            assert mine.seat == 0
            codes = await play_bots([mine, friend], "random", 2)
            await host.finished.wait()
            table = host.table
        await friend.close()
        await mine.close()
    assert codes[1] == 0  # the friend verified every round, across the restart
    assert [w["resumed"] for w in friend.received if w["t"] == "welcome"] == [False, True]
    assert table.record_path is not None and verify_path(table.record_path).ok
    assert read_journal(path).entries[-1]["t"] == "game_over"
