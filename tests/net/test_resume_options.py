"""``host --resume`` keeps a game's own ``--takeover-after`` and ``--bot-delay`` (a flag given
again wins), and ``wizard-tui games`` shows how far a privately dealt game got."""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from wizard_tui.cli import main
from wizard_tui.commands.resuming import DEFAULT_TAKEOVER, apply_game, takeover_after
from wizard_tui.game import GameConfig
from wizard_tui.net.host import HostOptions, Seat
from wizard_tui.net.journal import JournalWriter, journal_path
from wizard_tui.net.restore import game_entry
from wizard_tui.net.saved_games import find_game, games_dir, summarize

GAME_ID = bytes.fromhex("5a" * 16)


def _journal(games: Path, options: HostOptions, *entries: dict) -> Path:
    seats = [Seat("ann", "human"), Seat("bob", "human"), Seat("Merlin (random)", "bot")]
    keys = [bytes([i]) * 32 for i in range(3)] if options.deal == "private" else []
    header = game_entry(
        GAME_ID, 1.7e9, GameConfig(3, 0), seats, options, [None, None, "random"], keys
    )
    path = journal_path(games, GAME_ID)
    writer = JournalWriter.create(path, header)
    for entry in entries:
        writer.append(entry)
    writer.close()
    return path


def _args(**given: object) -> argparse.Namespace:
    base: dict[str, object] = {
        "resume": "",
        "takeover_after": None,
        "bot_delay": None,
        "records": None,
        "bind": None,
        "port": None,
    }
    return argparse.Namespace(**(base | given))


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ({}, (7.5, 0.3)),  # the game's own
        ({"takeover_after": 2.0}, (2.0, 0.3)),  # an explicit flag wins
        ({"bot_delay": 0.0}, (7.5, 0.0)),
    ],
)
def test_resume_keeps_the_games_takeover_and_bot_delay(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, given: dict, expected: tuple
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    played = HostOptions(players=3, bots=1, takeover_after=7.5, bot_delay=0.3)
    _journal(games_dir(), played, {"t": "round", "round": 1, "local": [[2, bytes(32)]]})
    args = _args(**given)
    # What a fresh ``host`` would use, before the journal is applied:
    options = HostOptions(
        players=4,
        takeover_after=takeover_after(args),
        bot_delay=0.0 if args.bot_delay is None else args.bot_delay,  # type: ignore[arg-type]
    )
    assert options.takeover_after == (DEFAULT_TAKEOVER if "takeover_after" not in given else 2.0)
    apply_game(find_game(""), args, options, None)
    assert (options.takeover_after, options.bot_delay) == expected
    assert options.players == 3


def test_games_shows_the_round_a_private_game_reached(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    keys = [bytes([i]) * 32 for i in range(3)]
    path = _journal(
        games_dir(),
        HostOptions(players=3, bots=1, deal="private"),
        {"t": "attempt", "round": 1, "attempt": 0, "keys": keys},
        {"t": "attempt", "round": 2, "attempt": 0, "keys": keys},
        {"t": "attempt", "round": 2, "attempt": 1, "keys": keys},
    )
    assert summarize(path).round_reached == 2
    assert main(["games"]) == 0
    (line,) = [line for line in capsys.readouterr().out.splitlines() if line.startswith("5a5a")]
    assert " 2/20 " in line and "unfinished" in line
