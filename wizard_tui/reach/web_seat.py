"""``python -m wizard_tui.reach.web_seat``: one browser tab's seat (``host --web``).

textual-serve runs this same command for every tab. The table opens on a screen that asks
for the player's name (and the room password when the room has one), then connects to the
game host on loopback as a player of its own: keys in a home kept for that name at this
table (so a dropped friend takes the seat back under the same name; one tab a name at a
time), the host's key pinned beforehand, its record kept in memory only.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable

from ..cli import UserError
from ..i18n import _
from ..paths import data_dir
from .seat import PASSWORD_ENV, VIA_ENV, VISITING_SEATS, SeatHome, SeatTaken, marked_name


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m wizard_tui.reach.web_seat")
    parser.add_argument("--game-port", type=int, required=True)
    parser.add_argument("--host-key", default=None)
    parser.add_argument("--need-password", action="store_true")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    host_key = bytes.fromhex(args.host_key) if args.host_key else None
    homes = data_dir() / VISITING_SEATS  # the host's data directory, before we leave it
    os.environ[VIA_ENV] = "web"
    os.environ.pop(PASSWORD_ENV, None)  # the visitor types it, or is not let in
    held: list[SeatHome] = []

    def home_for(name: str) -> None:
        """Move into ``name``'s seat home (``SeatTaken`` if another tab plays it)."""
        for old in held:  # first: the same name again must find its lock free
            old.remove()
        held.clear()
        held.append(SeatHome(args.game_port, host_key, kept_for=name, root=homes))
        home = held[0]
        os.environ.update(home.env())  # before anything asks where the data directory is

    try:
        return _run(args.game_port, args.need_password, home_for)
    finally:
        for home in held:
            home.remove()


def _run(game_port: int, need_password: bool, home_for: Callable[[str], None]) -> int:
    from ..launch import connect_session, player_keys, player_signing
    from ..net.client import NetworkSession
    from ..ui.app import WizardApp
    from ..ui.screens.entry import EntryScreen

    async def connect() -> NetworkSession:
        error, name = "", ""
        while True:
            name, password = await app.push_screen_wait(
                EntryScreen(need_password=need_password, error=error, name=name)
            )
            entered, name = name, marked_name(name, "web")
            try:
                home_for(name)
            except SeatTaken:
                said = _("{name} is at the table already: pick another name")
                error, name = said.format(name=name), entered
                continue
            identity, known_hosts = player_keys()
            signing_key, secret_store = player_signing()
            session = NetworkSession(
                "127.0.0.1",
                game_port,
                name=name,
                identity=identity,
                known_hosts=known_hosts,
                password=password,
                signing_key=signing_key,
                secret_store=secret_store,
            )
            try:
                await connect_session(session, "127.0.0.1", game_port)
            except UserError as exc:
                error, name = str(exc), entered
                continue
            app.player_name = app.sub_title = name
            return session

    app = WizardApp(connect)
    app.run()
    return app.return_code or 0


if __name__ == "__main__":
    sys.exit(main())
