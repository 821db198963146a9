"""Wiring for the interactive commands: a host and/or a network session, then the table.

``play`` and ``host`` run a Wizard host in this process and connect this player's
table to it over loopback, exactly as a friend's table connects over the LAN: one
path for solo and LAN games. ``join`` connects to someone else's host.

Every connection is encrypted. A LAN host and a joining player use this
installation's static key from the data directory; a joining player pins the
host's key on first use (``known_hosts.json``). The host's own table checks the
host's key directly; a solo game uses throwaway keys on loopback.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TypedDict

from netplay import IdentityError, KnownHosts, StaticIdentity
from netplay.errors import NetplayError, ServerError
from netplay.signing import SigningKey

from .cli import UserError
from .commands.options import chosen_deal
from .game import RestrictLastBid, TableRules
from .i18n import _
from .net.addresses import WILDCARDS, join_hint
from .net.client import NetworkSession
from .net.deals.private.round_secrets import SecretStore
from .net.host import HostOptions
from .net.hosting import hosting
from .net.journal import JournalContents
from .net.keys import (
    claim_player_dir,
    load_identity,
    load_known_hosts,
    load_signing_key,
    round_secrets_dir,
)
from .net.link_texts import error_text, link_text
from .net.protocol import DEFAULT_PORT, LOBBY_CLOSED, TABLE_FULL
from .paths import default_joined_records_dir, default_records_dir
from .reach import services


class _TableOptions(TypedDict):
    """The options of ``run_table_async`` that come from the command line."""

    name: str
    ascii: bool
    bell: bool
    theme: str | None
    join_command: Callable[[str, int], str]


def _table_options(args: argparse.Namespace) -> _TableOptions:
    code = getattr(args, "room_code_made", None)  # host --room-code: the lobby shows it
    return {
        "name": args.name,
        "ascii": args.ascii,
        "bell": args.bell,
        "theme": getattr(args, "theme", None),  # from the settings file (config.py)
        "join_command": _join_command
        if code is None
        else lambda address, port: f"{_join_command(address, port)} --password {code}",
    }


def _join_command(address: str, port: int) -> str:
    """What the lobby tells friends to type: the port only when it is not the default."""
    return f"wizard-tui join {join_hint(address, port, DEFAULT_PORT)}"


class TableFull(UserError):
    """Every seat is taken, or the game is under way: the player may watch instead
    (``join --watch``)."""

    def __init__(self, refusal: str, command: str) -> None:
        hint = _("{refusal}; you can watch the game: {command}")
        super().__init__(hint.format(refusal=refusal, command=command))
        self.refusal = refusal


async def connect_session(session: NetworkSession, host: str, port: int) -> NetworkSession:
    """Connect ``session``; every failure becomes a ``UserError`` that says what to do."""
    try:
        await session.connect()
    except ServerError as exc:
        said = _("the host said no: {message}").format(message=link_text(exc.message))
        if exc.code in (TABLE_FULL, LOBBY_CLOSED) and not session.watching:
            watch = f"wizard-tui join {join_hint(host, port, DEFAULT_PORT)} --watch"
            raise TableFull(said, watch) from None
        raise UserError(said) from None
    except NetplayError as exc:
        # HostKeyChanged (printed in full: it is meant to be loud), a room password
        # refused or missing, a failed secure handshake, an unreadable known-hosts file.
        raise UserError(error_text(exc)) from None
    except (OSError, TimeoutError) as exc:
        raise UserError(
            _("cannot reach {host}:{port}: {exc}").format(
                host=host, port=port, exc=link_text(str(exc))
            )
        ) from None
    return session


async def _connect(
    host: str,
    port: int,
    name: str,
    host_key: str | None = None,
    *,
    identity: StaticIdentity | None = None,
    known_hosts: KnownHosts | None = None,
    password: str | None = None,
    server_key: bytes | None = None,
    token: str | None = None,
    persistent: bool = True,
    records_dir: Path | None = None,
    slot: Path | None = None,
    watch: bool = False,
) -> NetworkSession:
    # watch: join as a spectator (no seat; net/watchers.py).
    # persistent: the signing key and round secrets of ``slot`` (a joining player's own
    # directory) or of the installation (the host's own table); the solo table's
    # throwaway ones otherwise.
    signing_key, store = player_signing(slot) if persistent else (None, None)
    session = NetworkSession(
        host,
        port,
        name=name,
        host_key=host_key,
        identity=identity,
        known_hosts=known_hosts,
        password=password,
        server_key=server_key,
        records_dir=records_dir,
        signing_key=signing_key,
        secret_store=store,
        watch=watch,
    )
    session.client.token = token  # a resumed game: take back our seat, not a new one
    return await connect_session(session, host, port)


def _yes(question: str) -> bool:
    """Asks on the terminal; Enter alone means yes."""
    try:
        answer = input(question)
    except EOFError:
        return False
    return answer.strip().lower() in ("", "y", "yes", _("y"))


def player_signing(slot: Path | None = None) -> tuple[SigningKey, SecretStore]:
    """The signing key and round-secret store (the private deal) of ``slot`` (a player
    directory this program holds: ``claim_player``), else of the installation (the host's
    own table)."""
    try:
        store = SecretStore(round_secrets_dir(slot), exclusive=slot is not None)
        if slot is None:
            store.prune()  # only secrets long stale: another program may share the folder
        return load_signing_key(slot), store
    except IdentityError as exc:
        raise UserError(error_text(exc)) from None


def claim_player() -> Path:
    """A player directory of this program's own (keys.claim_player_dir), or a
    ``UserError``: two programs of one account at one table are two players."""
    try:
        return claim_player_dir()
    except IdentityError as exc:
        raise UserError(error_text(exc)) from None


def player_keys(slot: Path | None = None) -> tuple[StaticIdentity, KnownHosts]:
    """The static key of ``slot`` (else the installation's) and the pinned hosts, or a
    ``UserError`` saying why not."""
    try:
        return load_identity(slot), load_known_hosts()
    except IdentityError as exc:
        raise UserError(error_text(exc)) from None


async def _hosted_table(
    options: HostOptions,
    bind: str,
    port: int,
    args: argparse.Namespace,
    identity: StaticIdentity | None = None,
    password: str | None = None,
    resume: JournalContents | None = None,
) -> int:
    from .ui.app import run_table_async

    try:
        async with hosting(
            options, bind=bind, port=port, identity=identity, password=password, resume=resume
        ) as host:
            assert host.server is not None
            local = "127.0.0.1" if bind in WILDCARDS else bind
            token = None
            if resume is not None:
                token = host.resume_token(host.server.identity.public_key)
                if token is None:
                    raise UserError(_("you had no seat in this game: resume it with --headless"))
            session = await _connect(
                local,
                options.port,
                args.name,
                host.host_key,
                identity=identity,
                password=password,
                # Our own host: its key is known, nothing to pin.
                server_key=host.server.identity.public_key,
                token=token,
                persistent=identity is not None,  # the solo table keeps nothing
                # The table's own record too, so that what it checked stays checked when
                # the host restarts (``--resume``) and its table with it.
                records_dir=default_joined_records_dir() if identity is not None else None,
            )
            async with services.serving(
                services.settings_from_args(args, bind),
                game_port=options.port,
                host_key=host.server.identity.public_key,
                password=password,
                addresses=options.addresses,
                announce=services.Announce(
                    args.name, host.server.identity.fingerprint, services.seats_taken(host)
                ),
            ) as reach:
                return await run_table_async(
                    session,
                    **_table_options(args),
                    hosting=True,
                    solo=identity is None,  # play: a loopback game against bots
                    reach_lines=reach.lines,
                    web_url=reach.web_url,
                )
    except OSError as exc:
        raise UserError(str(exc)) from None


def run_solo_table(args: argparse.Namespace) -> int:
    """A game against ``players - 1`` bots on a loopback-only host."""
    options = HostOptions(
        players=args.players,
        bots=args.players - 1,
        bot_level=args.bot_level,
        rules=TableRules(
            RestrictLastBid(args.restrict_last_bid or "never"),
            hidden_bids=bool(getattr(args, "hidden_bids", False)),
            forehead=bool(getattr(args, "forehead", False)),
            specials=frozenset(getattr(args, "specials", None) or ()),
        ),
        length=getattr(args, "length", "full"),
        records_dir=default_records_dir(),
        bot_delay=args.bot_delay,
        auto_start=True,
        deal=chosen_deal(args),
    )
    return asyncio.run(_hosted_table(options, "127.0.0.1", 0, args))


def run_hosted_table(
    options: HostOptions,
    *,
    bind: str,
    port: int,
    args: argparse.Namespace,
    identity: StaticIdentity | None = None,
    password: str | None = None,
    resume: JournalContents | None = None,
) -> int:
    """Host on the LAN and sit at the table; the lobby starts the game (or ``resume``: a
    journaled game goes on where it stopped)."""
    return asyncio.run(_hosted_table(options, bind, port, args, identity, password, resume))


def joined_records(args: argparse.Namespace) -> Path | None:
    """``join``'s own record of the game: ``--records DIR``, else the user data directory's
    ``joined`` folder; ``--no-records`` keeps it in memory only."""
    if getattr(args, "no_records", False):
        return None
    return getattr(args, "records", None) or default_joined_records_dir()


def run_joined_table(
    host: str, port: int, *, args: argparse.Namespace, password: str | None = None
) -> int:
    from .ui.app import run_table_async

    slot = claim_player()
    identity, known_hosts = player_keys(slot)
    watching = bool(getattr(args, "watch", False))

    async def connected(watch: bool) -> NetworkSession:
        return await _connect(
            host,
            port,
            args.name,
            identity=identity,
            known_hosts=known_hosts,
            password=password,
            records_dir=None if watch else joined_records(args),
            slot=slot,
            watch=watch,
        )

    async def main() -> int:
        try:
            session = await connected(watching)
        except TableFull as exc:
            question = _("{refusal}.\nWatch the game? [Y/n] ").format(refusal=exc.refusal)
            if not (sys.stdin.isatty() and _yes(question)):
                raise UserError(str(exc)) from None
            session = await connected(True)  # a late friend watches (net/watchers.py)
        # The table shows the host's fingerprint (its journal and the lobby).
        return await run_table_async(session, **_table_options(args))

    return asyncio.run(main())
