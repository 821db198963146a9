"""``wizard-tui host``: host a game on the LAN (with your own table, or ``--headless``)."""

from __future__ import annotations

import argparse
import asyncio
import logging
from pathlib import Path

from netplay import IdentityError, StaticIdentity

from ..cli import UserError
from ..i18n import _
from ..net.addresses import join_hint
from ..net.host import DEFAULT_DEAL_STEP_TIMEOUT, HostOptions
from ..net.host_adapter import WizardHost
from ..net.hosting import hosting, wait_for_game
from ..net.journal import JournalContents
from ..net.keys import load_identity
from ..net.link_texts import error_text
from ..net.protocol import DEFAULT_PORT, MAX_WATCHERS
from ..net.saved_games import games_dir
from ..paths import default_records_dir
from ..reach import services
from . import options, reach_options, resuming


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--bind",
        default=None,
        help=_("address to listen on (default: every IPv4 interface; a resumed game's own)"),
    )
    parser.add_argument(
        "--port",
        type=int,
        default=None,
        help=_("TCP port (default: {DEFAULT_PORT}; a resumed game's own)").format(
            DEFAULT_PORT=DEFAULT_PORT
        ),
    )
    parser.add_argument(
        "--players", type=int, default=4, help=_("seats at the table, 3-6 (default: 4)")
    )
    parser.add_argument(
        "--bots", type=int, default=0, help=_("how many of the seats bots take (default: 0)")
    )
    options.add_bot_level(parser)
    options.add_name(parser)
    options.add_rules(parser)
    options.add_deal(parser)
    parser.add_argument(
        "--records",
        type=Path,
        default=None,
        help=_("directory for game records (default: the user data directory)"),
    )
    parser.add_argument(
        "--headless",
        action="store_true",
        help=_(
            "host without a table of your own: the game starts when every "
            "seat is filled and the command exits 0 when it ends"
        ),
    )
    parser.add_argument(
        "--bot-delay",
        type=float,
        default=None,
        help=_("seconds a bot waits before it acts (default: 0 headless, 0.6 with a table)"),
    )
    parser.add_argument(
        "--give-up-after",
        type=float,
        default=600.0,
        help=_("headless: end with an error when a player stays disconnected this long (seconds)"),
    )
    parser.add_argument(
        "--deal-step-timeout",
        type=float,
        default=DEFAULT_DEAL_STEP_TIMEOUT,
        metavar="SECONDS",
        help=_(
            "private deal: disconnect a player whose program does not send a "
            "deal message it owes within this long, so a bot can take the "
            "seat over (0: wait forever; default: "
            "{DEFAULT_DEAL_STEP_TIMEOUT:g})"
        ).format(DEFAULT_DEAL_STEP_TIMEOUT=DEFAULT_DEAL_STEP_TIMEOUT),
    )
    parser.add_argument(
        "--turn-time",
        type=float,
        default=None,
        metavar="SECONDS",
        help=_(
            "a connected player on turn who has not decided within this long "
            "is marked away and a bot decides for them until they press a "
            "key (default: no limit; 0: none; a resumed game keeps its own)"
        ),
    )
    parser.add_argument(
        "--no-watchers",
        action="store_true",
        help=_(
            "refuse spectators (by default up to {n} friends may watch with "
            "'join --watch'; they take no seat and see no hand)"
        ).format(n=MAX_WATCHERS),
    )
    options.add_password(parser, host=True)
    resuming.add_arguments(parser)
    options.add_table_looks(parser)
    reach_options.add_host_arguments(parser)
    parser.set_defaults(default_port=None)  # the settings file's port (config.py)


def chosen_port(args: argparse.Namespace) -> int:
    """--port, else the settings file's port, else the default (a resumed game: its own)."""
    if args.port is not None:
        return int(args.port)
    return int(getattr(args, "default_port", None) or DEFAULT_PORT)


def run(args: argparse.Namespace) -> int:
    if not 3 <= args.players <= 6:
        raise UserError(_("a table has 3 to 6 seats: use --players 3..6"))
    if not 0 <= args.bots <= args.players:
        raise UserError(
            _("--bots must be between 0 and --players ({players})").format(players=args.players)
        )
    options.check_length(args)
    options.check_specials(args)
    bind = args.bind if args.bind is not None else "0.0.0.0"
    port = chosen_port(args)
    if not 0 <= port < 65536:
        raise UserError(_("--port must be 0..65535"))
    if args.deal_step_timeout < 0:
        raise UserError(_("--deal-step-timeout must be 0 seconds or more"))
    if args.turn_time is not None and args.turn_time < 0:
        raise UserError(_("--turn-time must be 0 seconds or more"))
    if (problem := reach_options.check(args)) is not None:
        raise UserError(problem)
    if args.ssh_sessions is None:
        args.ssh_sessions = args.players
    host_options = HostOptions(
        players=args.players,
        bots=args.bots,
        bot_level=args.bot_level,
        rules=options.house_rules(args, options.restrict_mode(args)),
        length=args.length,
        records_dir=args.records or default_records_dir(),
        bot_delay=args.bot_delay if args.bot_delay is not None else (0.0 if args.headless else 0.6),
        auto_start=args.headless,
        journal_dir=games_dir(),
        takeover_after=resuming.takeover_after(args),
        deal=options.chosen_deal(args),
        deal_step_timeout=args.deal_step_timeout or None,
        turn_time=args.turn_time or None,
        watchers=not args.no_watchers,
    )
    game = resuming.choose_game(args, interactive=not args.headless)
    password = options.room_password(args)
    if args.room_code:
        assert password is not None
        print(
            _("room code: {password}  (players join with: --password {password})").format(
                password=password
            ),
            flush=True,
        )
        args.room_code_made = password  # the host's own table shows it in its lobby
    resume = None
    if game is not None:
        bind, port, resume = resuming.apply_game(game, args, host_options, password)
    args.bind, args.port = bind, port  # what the table shows friends, too
    try:
        identity = load_identity()  # the host's key: players pin it
    except IdentityError as exc:
        raise UserError(error_text(exc)) from None
    if args.headless:
        return asyncio.run(
            _run_headless(host_options, args, identity, password, bind, port, resume)
        )
    from ..launch import run_hosted_table

    return run_hosted_table(
        host_options,
        bind=bind,
        port=port,
        args=args,
        identity=identity,
        password=password,
        resume=resume,
    )


def _round_in_play(host: WizardHost) -> int:
    """The round a resumed host deals or plays now (a private host redeals the round the
    crash cut off; a hidden game counts only the rounds it finished until it is dealt)."""
    return host.round_in_play()


async def _run_headless(
    host_options: HostOptions,
    args: argparse.Namespace,
    identity: StaticIdentity,
    password: str | None,
    bind: str,
    port: int,
    resume: JournalContents | None,
) -> int:
    logging.basicConfig(level=logging.WARNING, format="%(levelname)s %(name)s: %(message)s")
    try:
        async with hosting(
            host_options,
            bind=bind,
            port=port,
            identity=identity,
            password=password,
            resume=resume,
        ) as host:
            port = host_options.port
            print(
                _("wizard-tui host: listening on {bind}:{port}").format(bind=bind, port=port),
                flush=True,
            )
            for address in host_options.addresses:
                hint = join_hint(address, port, DEFAULT_PORT)
                print(_("  friends join with:  wizard-tui join {hint}").format(hint=hint))
            print(_("  host fingerprint:   {fingerprint}").format(fingerprint=identity.fingerprint))
            print(
                _("  deal:               {deal}").format(deal=host_options.deal)
            )  # (resumed: the journal's)
            if host_options.rules.specials:
                names = ", ".join(c.wire_name for c in sorted(host_options.rules.specials))
                print(_("  special cards:      {names}").format(names=names))
            if host_options.turn_time is not None:
                print(
                    _("  turn time:          {turn_time:g} s, then a bot plays").format(
                        turn_time=host_options.turn_time
                    )
                )
            print(_("  (joining players see it too: it must match what they are shown)"))
            if password is not None:
                print(_("  room password:      required"))
            if args.room_code:
                print(_("  room code:          {password}").format(password=password))
            if resume is not None and host.table is not None:
                gid, r = host.table.game_id.hex(), _round_in_play(host)
                print(
                    _("resumed game {game} in round {r}: players reconnect by themselves").format(
                        game=gid[:8], r=r
                    )
                )
            else:
                print(
                    _("waiting for {n} player(s)...").format(n=args.players - args.bots),
                    flush=True,
                )
            async with services.serving(
                services.settings_from_args(args, bind),
                game_port=port,
                host_key=identity.public_key,
                password=password,
                addresses=host_options.addresses,
                announce=services.Announce(
                    args.name, identity.fingerprint, services.seats_taken(host)
                ),
            ) as reach:
                for line in reach.lines:
                    print(f"  {line}", flush=True)
                if (qr := reach.qr_code()) is not None:
                    print(qr, flush=True)
                ok = await wait_for_game(host, give_up_after=args.give_up_after)
            table = host.table
            if ok and table is not None:
                print(
                    _("game over: totals {totals}, winners {winners}").format(
                        totals=table.game.totals, winners=table.game.winners
                    )
                )
                if table.record_path is not None:
                    print(_("record: {record_path}").format(record_path=table.record_path))
                return 0
            print(
                _("wizard-tui host: the game could not finish: {failed}").format(
                    failed=host.failed
                ),
                flush=True,
            )
            return 1
    except OSError as exc:
        raise UserError(str(exc)) from None
