"""``python -m wizard_tui.reach.web``: the browser way in (``wizard-tui host --web``).

textual-serve (optional extra ``web``) serves the table through xterm.js; every tab runs
its own ``web_seat`` process, which asks for the player's name. The page's websocket URL
comes from ``public_url``, so it is the LAN address friends' browsers can reach, never the
``0.0.0.0`` bound to. At most ``--max-sessions`` tabs play at once; more get HTTP 503.

Like the SSH server it is a child of the host: ``ready <port>`` on its first line, and it
stops (every tab's process with it) when its standard input closes.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import logging
import os
import shlex
import socket
import sys
from pathlib import Path
from typing import Any

from aiohttp import web
from aiohttp.web_runner import GracefulExit
from textual_serve.server import Server

from ..paths import data_dir
from .seat import VISITING_SEATS, forget_kept_homes

DEFAULT_WEB_PORT = 8060


class SeatWebServer(Server):
    # ``kwargs``: textual-serve's own options (host, port, public_url...), passed on.
    def __init__(self, command: str, *, max_sessions: int, **kwargs: Any) -> None:
        super().__init__(command, title="Wizard", **kwargs)
        # Our copy of the page, without the one link to the internet (a web font).
        self.templates_path = Path(__file__).with_name("templates")
        self.max_sessions = max_sessions
        self.sessions = 0

    async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
        if self.sessions >= self.max_sessions:
            raise web.HTTPServiceUnavailable(text="the table has all the browser players it takes")
        self.sessions += 1
        try:
            return await super().handle_websocket(request)
        finally:
            self.sessions -= 1

    async def on_startup(self, app: web.Application) -> None:
        pass  # no logo on the host's log: it is a child process

    def initialize_logging(self) -> None:
        logging.basicConfig(level=logging.WARNING, format="web: %(levelname)s %(message)s")

    def serve_on(self, sock: socket.socket) -> None:
        """``serve`` on a socket bound beforehand (so port 0 works and is reported)."""
        self.initialize_logging()
        os.dup2(2, 1)  # after the ready line, stdout is a pipe nobody reads: use the log
        loop = asyncio.new_event_loop()
        asyncio.set_event_loop(loop)
        loop.add_reader(sys.stdin.fileno(), _stop_when_stdin_closes)
        web.run_app(
            # textual-serve has no public hook for its aiohttp app; pinned below 2.
            self._make_app(),
            sock=sock,
            handle_signals=True,
            loop=loop,
            print=lambda *args: None,
        )


def _stop_when_stdin_closes() -> None:
    with contextlib.suppress(OSError):
        # Unbuffered, so one read returns what came (or b"" at EOF); typeshed's BinaryIO
        # has no ``raw``, which stdin's buffer (a BufferedReader) does have.
        if sys.stdin.buffer.raw.read(4096):  # type: ignore[union-attr]
            return
    raise GracefulExit()  # a SystemExit: it leaves the loop, and run_app cleans up


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m wizard_tui.reach.web")
    parser.add_argument("--bind", default="0.0.0.0")
    parser.add_argument("--port", type=int, default=DEFAULT_WEB_PORT)
    parser.add_argument("--address", default="127.0.0.1", help="the LAN address for the URL")
    parser.add_argument("--game-port", type=int, required=True)
    parser.add_argument("--host-key", default=None)
    parser.add_argument("--max-sessions", type=int, default=6)
    parser.add_argument("--need-password", action="store_true")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    seat = [sys.executable, "-m", "wizard_tui.reach.web_seat", "--game-port", str(args.game_port)]
    if args.host_key:
        seat += ["--host-key", args.host_key]
    if args.need_password:
        seat.append("--need-password")
    try:
        sock = socket.create_server((args.bind, args.port))
    except OSError as exc:
        print(f"error cannot listen on {args.bind}:{args.port}: {exc.strerror or exc}", flush=True)
        return 2
    port = sock.getsockname()[1]
    shown = f"[{args.address}]" if ":" in args.address else args.address
    server = SeatWebServer(
        shlex.join(seat),  # textual-serve runs it through a shell
        host=args.bind,
        port=port,
        public_url=f"http://{shown}:{port}",
        max_sessions=args.max_sessions,
    )
    print(f"ready {port}", flush=True)
    try:
        server.serve_on(sock)
    finally:
        forget_kept_homes(data_dir() / VISITING_SEATS, args.game_port)
    return 0


if __name__ == "__main__":
    sys.exit(main())
