"""How fast a guesser with rotating source addresses can try room passwords on one table.

    python benchmarks/guess_rate.py [--seconds 10] [--guesses 100000]

A netplay server with a room password on 127.0.0.1; a guesser connects with a wrong password
from 127.0.0.2, 127.0.0.3, ... (loopback addresses: every one is "another machine" to the
host), one connection after another, for ``--seconds`` or ``--guesses`` tries. It runs twice
in the same process: against a guess limiter that counts per address only (the baseline: the
rule before the table-wide limit, with its per-address numbers), and against the default
``GuessLimiter`` (per address and per table). It prints, for each, the guesses the host
answered (each one is a real guess at the password), the attempts it refused unanswered, and
the answered guesses per second.
"""

from __future__ import annotations

import argparse
import asyncio
import time

import netplay.client
from netplay import Client, Limits, Server
from netplay.errors import ProtocolError
from netplay.link import PushReader
from netplay.pake import BAD_PASSWORD, GuessLimiter

PROTOCOL, VERSION = "guess-bench", 1
LIMITS = Limits(handshake_timeout=2.0)


class _App:
    def on_join(self, session, hello):
        return {}

    def on_message(self, session, msg):
        pass

    def on_disconnect(self, session):
        pass

    def on_resume(self, session):
        pass


def _from(source: str):
    async def open_connection(host: str, port: int) -> tuple[PushReader, asyncio.StreamWriter]:
        loop = asyncio.get_running_loop()
        reader = PushReader(loop=loop)
        protocol = asyncio.StreamReaderProtocol(reader, loop=loop)
        transport, _ = await loop.create_connection(
            lambda: protocol, host, port, local_addr=(source, 0)
        )
        return reader, asyncio.StreamWriter(transport, protocol, reader, loop)

    return open_connection


async def run(limiter: GuessLimiter, guesses: int, seconds: float) -> tuple[int, int, float]:
    server = Server(
        _App(),  # type: ignore[arg-type]
        protocol=PROTOCOL,
        version=VERSION,
        host="127.0.0.1",
        limits=LIMITS,
        password="the real one",
        guess_limiter=limiter,
    )
    await server.start()
    answered = refused = 0
    start = time.perf_counter()
    try:
        for i in range(guesses):
            if time.perf_counter() - start > seconds:
                break
            netplay.client.open_connection = _from(f"127.0.{1 + i // 250}.{2 + i % 250}")
            client = Client(
                "127.0.0.1",
                server.port,
                protocol=PROTOCOL,
                version=VERSION,
                name="guess",
                limits=LIMITS,
                password="a wrong one",
            )
            try:
                await client.connect()
            except ProtocolError as exc:
                answered += exc.code == BAD_PASSWORD
            except OSError:
                refused += 1  # closed before any password work: no guess
            finally:
                await client.close()
    finally:
        await server.close()
    return answered, refused, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--guesses", type=int, default=100_000)
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()
    per_address_only = GuessLimiter(table_burst=10**9, table_rate=10**9)
    for name, limiter in (("per address only", per_address_only), ("default", GuessLimiter())):
        answered, refused, took = asyncio.run(run(limiter, args.guesses, args.seconds))
        print(
            f"{name:>17}: {answered} guesses answered, {refused} refused unanswered, "
            f"in {took:.1f} s: {answered / took:.1f} answered guesses / s"
        )


if __name__ == "__main__":
    main()
