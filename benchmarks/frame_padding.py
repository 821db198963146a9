"""What padding every frame costs in bytes (netplay.secure.PAD_SIZES, docs/security.md).

    python benchmarks/frame_padding.py [--players 6] [--games 2]

Plays whole games on 127.0.0.1 (a host, ``players - 1`` network clients and one host bot,
random bots everywhere), commit-reveal and private deal, and counts every frame either side
sealed: the bytes on the wire as they are (padded: plaintext padded to its class, the
16-byte tag, the 4-byte length) and, measured in the same run, the bytes the same frames
would take without padding (payload, tag, length). The handshake's Noise messages are not
frames of the channel and are the same either way. Printed per deal: frames, both totals,
the ratio, and the bytes per frame.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import netplay.secure as secure  # noqa: E402
from netplay import Server  # noqa: E402
from netplay.framing import HEADER_BYTES  # noqa: E402
from netplay.noise import TAGLEN  # noqa: E402
from wizard_tui.bots import make_bot  # noqa: E402
from wizard_tui.net import protocol as p  # noqa: E402
from wizard_tui.net.bot_player import play_as_bot  # noqa: E402
from wizard_tui.net.client import NetworkSession  # noqa: E402
from wizard_tui.net.host import HostOptions  # noqa: E402
from wizard_tui.net.host_adapter import WizardHost  # noqa: E402

payloads: list[int] = []
_encrypt = secure.SecureChannel.encrypt


def _counting(self: secure.SecureChannel, payload: bytes) -> bytes:
    payloads.append(len(payload))
    return _encrypt(self, payload)


async def _game(players: int, deal: str, seed: int, records: Path) -> None:
    options = HostOptions(
        players=players, bots=1, bot_level="random", records_dir=records, deal=deal
    )
    host = WizardHost(options)
    server = Server(
        host, protocol=p.PROTOCOL, version=p.VERSION, host="127.0.0.1", port=0, limits=p.LIMITS
    )
    host.server = server
    await server.start()
    try:
        sessions = []
        for i in range(players - 1):
            session = NetworkSession("127.0.0.1", server.port, name=f"p{i}", limits=p.LIMITS)
            await session.connect()
            sessions.append(session)
        await asyncio.gather(
            *(
                play_as_bot(s, make_bot("random", random.Random(seed + i)), quiet=True)
                for i, s in enumerate(sessions)
            )
        )
    finally:
        await host.close()
        await server.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=6)
    parser.add_argument("--games", type=int, default=2)
    args = parser.parse_args()
    secure.SecureChannel.encrypt = _counting  # type: ignore[method-assign]
    print(f"{args.games} game(s) of {args.players} players; pad sizes {secure.PAD_SIZES}")
    for deal in ("commit-reveal", "private"):
        payloads.clear()
        with tempfile.TemporaryDirectory() as records:
            for g in range(args.games):
                asyncio.run(_game(args.players, deal, g, Path(records)))
        frames = len(payloads)
        bare = sum(n + TAGLEN + HEADER_BYTES for n in payloads)
        padded = sum(secure.padded_size(n) + TAGLEN + HEADER_BYTES for n in payloads)
        print(
            f"{deal:>13}: {frames} frames; unpadded {bare / 1e6:.2f} MB "
            f"({bare / frames:.0f} B/frame), padded {padded / 1e6:.2f} MB "
            f"({padded / frames:.0f} B/frame): x{padded / bare:.2f}"
        )


if __name__ == "__main__":
    main()
