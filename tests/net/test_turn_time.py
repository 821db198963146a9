"""The turn time (issue 12 item 7, ``HostOptions.turn_time``): a player who walks away does
not hold the table for ever.

A connected player who does not decide within the turn time is marked away (everyone saw
the countdown in the seat's ``takeover_in``) and a bot decides for the seat, that move and
every one after, until the player presses a key (``here``); the host's own table can hand
the seat to a bot too. Commit-reveal: the host's stand-in decides. Private deal: the
player's own program does (only it knows the hand), flagging its moves ``auto``. Either way
the game finishes and every record verifies.

Every socket is on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
from pathlib import Path
from typing import Any

import pytest
from net_helpers import (
    LIMITS,
    LOOPBACK,
    CapturingSession,
    play_bots,
    running_host,
    wait_until,
)

from wizard_tui.bots import make_bot
from wizard_tui.commands.resuming import apply_game, choose_game
from wizard_tui.game import Bid, ChooseTrump, GameConfig, Phase, Play
from wizard_tui.net.client import NetworkSession
from wizard_tui.net.host import HostOptions, Seat
from wizard_tui.net.journal import JournalWriter, journal_path, read_journal
from wizard_tui.net.restore import game_entry, parse_header
from wizard_tui.net.saved_games import games_dir
from wizard_tui.session import GameFinished, LinkChanged, TableUpdate
from wizard_tui.verify import verify_path, verify_record

CLI = [sys.executable, "-m", "wizard_tui"]


async def walks_away(session: NetworkSession, back: asyncio.Event) -> None:
    """A player who does nothing until ``back`` is set, then plays (a bot's moves)."""
    bot = make_bot("random", random.Random(7))
    answered: tuple[object, ...] | None = None
    async for update in session.updates():
        if isinstance(update, GameFinished):
            break
        if isinstance(update, LinkChanged) and update.state == "closed":
            break
        if not isinstance(update, TableUpdate) or not back.is_set():
            continue
        view = update.view
        if not view.my_turn or view.phase not in (Phase.CHOOSE_TRUMP, Phase.BID, Phase.PLAY):
            continue
        key = (view.round, view.phase, view.bids, len(view.tricks), len(view.trick))
        key = (*key, session.voided_attempts)
        if key == answered:
            continue
        answered = key
        action = bot.decide(view)
        if isinstance(action, Play):
            session.play(action.card)
        elif isinstance(action, Bid):
            session.bid(action.bid)
        elif isinstance(action, ChooseTrump):
            session.choose_trump(action.suit)
    await session.close()


def seat_wires(session: CapturingSession, seat: int) -> list[dict[str, Any]]:
    return [m["seats"][seat] for m in session.received if m["t"] in ("seats", "state")]


@pytest.mark.parametrize("deal", ["commit-reveal", "private"])
async def test_an_idle_seat_is_played_by_a_bot_until_its_player_is_back(
    tmp_path: Path, deal: str
) -> None:
    options = HostOptions(
        players=3,
        bots=1,
        bot_level="random",
        records_dir=tmp_path,
        journal_dir=tmp_path / "games",
        deal=deal,
        turn_time=0.3,
    )
    async with asyncio.timeout(90), running_host(options) as host:
        watcher = CapturingSession(
            LOOPBACK, options.port, name="watcher", limits=LIMITS, host_key=host.host_key
        )
        await watcher.connect()
        idle = CapturingSession(LOOPBACK, options.port, name="idle", limits=LIMITS)
        sent: list[dict[str, Any]] = []
        send = idle.client.send
        idle.client.send = lambda msg: (sent.append(msg), send(msg))[1]  # type: ignore[method-assign]
        await idle.connect()
        b = idle.seat
        assert b is not None
        back = asyncio.Event()
        playing = asyncio.ensure_future(play_bots([watcher]))
        away = asyncio.ensure_future(walks_away(idle, back))
        await wait_until(lambda: host.table is not None)
        table = host.table
        assert table is not None
        seat = host.seats[b]
        assert seat is not None
        await wait_until(lambda: seat.away)  # its time ran out: a bot decides for it
        await wait_until(lambda: table.finished or table.game.round >= 3)
        assert seat.away or table.finished  # it stays away while nobody presses a key
        idle.here()  # the player presses a key: the seat is theirs again
        await wait_until(lambda: not seat.away)
        # The host's table hands it to a bot again; then the player is back for good.
        watcher.client.send({"t": "hand_to_bot", "seat": b})
        await wait_until(lambda: seat.away)
        back.set()
        idle.here()
        await wait_until(lambda: not seat.away)
        codes = await playing
        await away
        await host.finished.wait()

    assert codes == [0]
    assert host.failed is None and table.finished
    verdict = verify_path(table.record_path)  # type: ignore[arg-type]
    assert verdict.ok and verdict.record is not None and verdict.record.complete, verdict.line()
    for session in (watcher, idle):
        assert session.all_verified, [v.detail for v in session.verifications if not v.ok]
        assert session.finished is not None
        assert list(session.finished.totals) == table.game.totals
        assert session.recorder is not None  # the player's own record verifies too
        verify_record(session.recorder.record())
    # Everyone saw the countdown on the connected idle seat, then the seat away.
    wires = seat_wires(watcher, b)
    counting = [w["takeover_in"] for w in wires if w["connected"] and w.get("takeover_in")]
    assert counting and all(0 < t <= 0.3 for t in counting)
    assert any(w["connected"] and w.get("takeover_in") == 0 for w in wires)
    chats = [m["text"] for m in watcher.received if m["t"] == "chat"]
    assert any("time ran out" in text for text in chats)
    assert any("the host handed the seat to a bot" in text for text in chats)
    auto = [m for m in sent if m.get("auto")]
    if deal == "commit-reveal":  # the host's stand-in decided; its journal says so
        assert host.journal is None  # (closed with the host; read it from its file)
        journals = list((tmp_path / "games").iterdir())
        entries = read_journal(journals[0]).entries
        by = {e["by"] for e in entries if e["t"] == "action" and e["seat"] == b}
        assert by == {"stand_in", "human"} and not auto
    else:  # the player's own program decided for it, flagged auto
        assert auto and all(m["t"] in ("bid", "play", "trump") for m in auto)


async def test_a_program_that_does_not_move_for_its_away_player_is_disconnected(
    tmp_path: Path,
) -> None:
    # Private deal: the host cannot decide for an away seat; a program that neither moves
    # for its player nor lets go would stall the table. After another turn time it is
    # disconnected, and the takeover goes on from there.
    class NeverAutoplays(NetworkSession):
        def _play_if_away(self) -> None:
            return

    options = HostOptions(
        players=3,
        bots=1,
        bot_level="random",
        records_dir=tmp_path,
        deal="private",
        turn_time=0.2,
        takeover_after=0.1,
    )
    async with asyncio.timeout(90), running_host(options) as host:
        watcher = NetworkSession(LOOPBACK, options.port, name="watcher", limits=LIMITS)
        await watcher.connect()
        stuck = NeverAutoplays(LOOPBACK, options.port, name="stuck", limits=LIMITS)
        await stuck.connect()
        b = stuck.seat
        assert b is not None
        playing = asyncio.ensure_future(play_bots([watcher]))
        links: list[LinkChanged] = []

        async def drain() -> None:
            async for update in stuck.updates():
                if isinstance(update, LinkChanged):
                    links.append(update)
                    if update.state == "closed":
                        break
                if isinstance(update, GameFinished):
                    break

        draining = asyncio.ensure_future(drain())
        await wait_until(lambda: any(u.state == "closed" for u in links))
        await wait_until(lambda: host.seats[b] is not None and host.seats[b].stand_in is not None)  # type: ignore[union-attr]
        codes = await playing
        await host.finished.wait()
        await stuck.close()
        await draining
    assert codes == [0]
    assert host.failed is None and host.table is not None and host.table.finished
    assert "did not move for you" in links[-1].detail
    verdict = verify_path(host.table.record_path)  # type: ignore[arg-type]
    assert verdict.ok, verdict.line()


@pytest.mark.parametrize("given", [None, 0.0, 9.0])
def test_resume_keeps_the_games_turn_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, given: float | None
) -> None:
    # The journal's header keeps --turn-time; a plain --resume puts it back, and a
    # --turn-time given with it wins (0: none).
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    game_id = bytes.fromhex("ab" * 16)
    seats = [Seat("ann", "human"), Seat("bob", "human"), Seat("Merlin (random)", "bot")]
    options = HostOptions(players=3, turn_time=25.0)
    header = game_entry(game_id, 1.7e9, GameConfig(3, 0), seats, options, [None, None, "random"])
    assert parse_header(header).turn_time == 25.0
    writer = JournalWriter.create(journal_path(games_dir(), game_id), header)
    writer.append({"t": "round", "round": 1, "local": [[2, bytes(32)]]})
    writer.close()
    args = argparse.Namespace(
        resume="abab", takeover_after=60.0, turn_time=given, records=None, bind=None, port=None
    )
    game = choose_game(args, interactive=False)
    assert game is not None
    resumed = HostOptions(players=3, turn_time=given or None)
    apply_game(game, args, resumed, None)
    assert resumed.turn_time == (25.0 if given is None else given or None)


@pytest.mark.parametrize("deal", ["commit-reveal", "private"])
async def test_a_headless_host_with_a_turn_time_finishes_around_a_walked_away_player(
    tmp_path: Path, deal: str
) -> None:
    # Processes as on separate computers: a headless host with --turn-time, a `join --bot`,
    # and a player who took a seat and never touches a key again. Both commands exit 0 and
    # every record verifies.
    def env(name: str) -> dict[str, str]:
        return {**os.environ, "XDG_DATA_HOME": str(tmp_path / name)}

    records = tmp_path / "records"
    host = await asyncio.create_subprocess_exec(
        *CLI,
        "host",
        "--headless",
        *("--deal", deal, "--turn-time", "0.3", "--bind", LOOPBACK, "--port", "0"),
        *("--players", "3", "--bots", "1", "--bot-level", "random", "--records", str(records)),
        env=env("host"),
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
    )
    joiner = None
    try:
        async with asyncio.timeout(120):
            assert host.stdout is not None
            line = (await host.stdout.readline()).decode()
            assert "listening on" in line, line
            port = int(line.rsplit(":", 1)[1])
            idle = NetworkSession(LOOPBACK, port, name="walked-away", limits=LIMITS)
            await idle.connect()
            never = asyncio.Event()
            gone = asyncio.ensure_future(walks_away(idle, never))  # never back
            joiner = await asyncio.create_subprocess_exec(
                *CLI,
                "join",
                f"{LOOPBACK}:{port}",
                *("--name", "bot", "--bot", "random", "--records", str(tmp_path / "mine")),
                env=env("joiner"),
                stdin=asyncio.subprocess.DEVNULL,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
            )
            j_out, j_err = await joiner.communicate()
            out, err = await host.communicate()
            await gone
    finally:
        for proc in (host, joiner):
            if proc is not None and proc.returncode is None:
                proc.kill()
                await proc.wait()
    assert host.returncode == 0, (out + err).decode()
    assert b"turn time:          0.3 s" in out
    assert joiner.returncode == 0, (j_out + j_err).decode()
    assert idle.all_verified, [v.detail for v in idle.verifications if not v.ok]
    (path,) = records.iterdir()
    verdict = verify_path(path)
    assert verdict.ok and verdict.record is not None and verdict.record.complete, verdict.line()
    for mine in (tmp_path / "mine").iterdir():  # the joiner's own record
        assert verify_path(mine).ok, verify_path(mine).line()
    assert idle.recorder is not None
    verify_record(idle.recorder.record())
