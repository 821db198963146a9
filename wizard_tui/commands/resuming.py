"""``wizard-tui host --resume [GAME_ID]`` and ``--takeover-after``: the host's options for
crash safety, and choosing the game to carry on.

A plain ``wizard-tui host`` that finds an unfinished game offers to resume it: a y/N
question when it runs in a terminal with a table of its own, a one-line hint otherwise
(headless hosts and scripts never wait on a question).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..cli import UserError
from ..i18n import _
from ..net.host import HostOptions
from ..net.journal import JournalContents
from ..net.protocol import DEFAULT_PORT
from ..net.restore import RestoreError, replay
from ..net.saved_games import SavedGame, find_game, games_dir, unfinished_games

DEFAULT_TAKEOVER = 60.0


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--resume",
        nargs="?",
        const="",
        default=None,
        metavar="GAME_ID",
        help=_(
            "carry on an unfinished game exactly where it stopped (default: "
            "the most recent one; an id prefix from wizard-tui games is "
            "enough); players' programs reconnect by themselves"
        ),
    )
    parser.add_argument(
        "--takeover-after",
        type=float,
        default=None,  # resolved by takeover_after(): a resumed game keeps its own
        metavar="SECONDS",
        help=_(
            "a bot plays for a player who dropped after this long, until "
            "they are back (default: {DEFAULT_TAKEOVER:g}; a resumed game's "
            "own)"
        ).format(DEFAULT_TAKEOVER=DEFAULT_TAKEOVER),
    )


def takeover_after(args: argparse.Namespace) -> float:
    """``--takeover-after`` as given, else the default (``apply_game`` then puts a resumed
    game's own value in its place)."""
    return DEFAULT_TAKEOVER if args.takeover_after is None else args.takeover_after


def choose_game(args: argparse.Namespace, *, interactive: bool) -> SavedGame | None:
    """The game to resume: the one ``--resume`` names, or (asked, when ``interactive``) the
    most recent unfinished one. Prints a hint when it does not ask."""
    if args.takeover_after is not None and args.takeover_after < 0:
        raise UserError(_("--takeover-after must be 0 seconds or more"))
    directory = games_dir()
    if args.resume is not None:
        try:
            return find_game(args.resume, directory)
        except LookupError as exc:
            raise UserError(str(exc)) from None
    waiting = unfinished_games(directory)
    if not waiting:
        return None
    latest = waiting[0]
    more = ""
    if len(waiting) > 1:
        more = _(" (and {n} more: wizard-tui games)").format(n=len(waiting) - 1)
    if interactive and sys.stdin.isatty():
        try:
            answer = input(
                _("An unfinished game was found: {game}{more}.\nResume it? [y/N] ").format(
                    game=latest.describe(), more=more
                )
            )
        except EOFError:
            answer = ""
        return latest if answer.strip().lower() in ("y", "yes", _("y")) else None
    print(
        _(
            "note: an unfinished game can be resumed ({game}){more}:\n  "
            "wizard-tui host --resume {game_id}"
        ).format(game=latest.describe(), more=more, game_id=latest.game_id_hex[:8]),
        flush=True,
    )
    return None


def apply_game(
    game: SavedGame, args: argparse.Namespace, options: HostOptions, password: str | None
) -> tuple[str, int, JournalContents]:
    """Set ``options`` for carrying on ``game``; the address and port to listen on (the
    game's own unless ``--bind`` / ``--port`` say otherwise) and the journal."""
    header, contents = game.header, game.contents
    assert header is not None and contents is not None
    try:
        replay(contents.entries)  # refuse a journal that does not replay, before listening
    except RestoreError as exc:
        raise UserError(
            _(
                "game {game_id} cannot be resumed: {exc} (its journal: {path}; "
                "wizard-tui games --forget {game_id})"
            ).format(game_id=game.game_id_hex[:8], exc=exc, path=game.path)
        ) from None
    if header.password and password is None:
        raise UserError(
            _(
                "this game had a room password: give it again (--password or "
                "--password-prompt), or its players cannot reconnect"
            )
        )
    if args.records is None and header.records_dir is not None:
        options.records_dir = Path(header.records_dir)
    options.players = header.config.players
    if getattr(args, "turn_time", None) is None:  # not given: the game's own turn time
        options.turn_time = header.turn_time
    # The game's own pacing and takeover, unless this command line says otherwise.
    if args.takeover_after is None and header.takeover_after is not None:
        options.takeover_after = header.takeover_after
    if getattr(args, "bot_delay", None) is None:
        options.bot_delay = header.bot_delay
    bind = args.bind if args.bind is not None else (header.bind or "0.0.0.0")
    port = args.port if args.port is not None else (header.port or DEFAULT_PORT)
    return bind, port, contents
