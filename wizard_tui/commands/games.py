"""``wizard-tui games``: the games this computer hosted, finished and unfinished.

One line per game, most recently played first: the start of its id (enough for
``wizard-tui host --resume ID``), when it started, who sat at the table, the round it
reached, whether it finished, and its record. ``--forget ID`` deletes an unfinished game's
journal, so ``host`` stops offering to resume it (its record, if any, stays).
"""

from __future__ import annotations

import argparse
import datetime
from pathlib import Path

from rich.cells import cell_len

from ..cli import UserError
from ..i18n import _
from ..net.saved_games import SavedGame, find_game, games_dir, saved_games


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--dir",
        type=Path,
        default=None,
        help=_("where the journals are (default: the games folder of the user data directory)"),
    )
    parser.add_argument(
        "--forget",
        metavar="GAME_ID",
        default=None,
        help=_("delete the journal of this unfinished game (an id prefix is enough)"),
    )


def run(args: argparse.Namespace) -> int:
    directory = args.dir or games_dir()
    if args.forget is not None:
        if not args.forget.strip():
            raise UserError(_("--forget needs a game id (wizard-tui games lists them)"))
        try:
            game = find_game(args.forget, directory)
        except LookupError as exc:
            raise UserError(str(exc)) from None
        game.path.unlink()
        print(_("forgot game {game}").format(game=game.describe()))
        return 0
    games = saved_games(directory)
    if not games:
        print(_("no hosted games in {directory}").format(directory=directory))
        return 0
    print(_header())
    for game in games:
        print(_line(game))
    if any(g.status == "unfinished" for g in games):
        print(_("resume one with: wizard-tui host --resume ID  (add --headless to host it alone)"))
    return 0


def _line(game: SavedGame) -> str:
    if game.header is None:
        unreadable = _pad(_("unreadable"), 10)
        return f"{game.game_id_hex[:8]:<8}  {'?':<16}  {'?':>5}  {unreadable}  {game.problem}"
    started = datetime.datetime.fromtimestamp(game.header.created).strftime("%Y-%m-%d %H:%M")
    reached = f"{game.round_reached}/{game.rounds}"
    players = ", ".join(s.name for s in game.header.seats)
    record = game.record_path
    where = f"  {record}" if record is not None else "  " + _("(no record yet)")
    if game.problem:
        where += f"  [{game.problem}]"
    status = _pad(_("finished") if game.status == "finished" else _("unfinished"), 10)
    head = f"{game.game_id_hex[:8]:<8}  {started:<16}  {reached:>5}  {status}"
    return f"{head}  {players}{where}"


def _pad(text: str, width: int) -> str:
    """``text`` padded to ``width`` cells (a translated word is counted in cells)."""
    return text + " " * max(0, width - cell_len(text))


def _header() -> str:
    """The listing's column titles, in the language spoken, over the columns."""
    return "  ".join(
        (
            _pad(_("id"), 8),
            _pad(_("started"), 16),
            " " * max(0, 5 - cell_len(_("round"))) + _("round"),
            _pad(_("status"), 10),
            _("players / record"),
        )
    )
