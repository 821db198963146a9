"""A sniffer learns nothing of a hand from frame sizes (docs/security.md sections 2 and 6).

Issue 21: the state frame on a player's turn grew with its number of legal cards, so a
sniffer on the LAN learned at every play whether the player could follow suit. Every frame
is now padded to one of a few sizes (``netplay.secure.PAD_SIZES``). Here two commit-reveal
games are played, each dealt from fresh seeds (other hands), and the frames the host sends
one player are measured as a sniffer sees them: ciphertext plus the 4-byte length prefix.
In every round of the same shape in both games (the same messages in the same order:
a round where nobody chose trump in one game and somebody did in the other differs in
shape, not in hands) the sizes are the same, frame for frame, although the hands and the
payloads inside differ.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from pathlib import Path
from typing import Any

import msgpack
import pytest
from net_helpers import play_bots, running_host, seat_sessions

import netplay.secure as secure
from netplay.framing import HEADER_BYTES
from wizard_tui.net.host import HostOptions

Frames = dict[int, list[tuple[str, int, int]]]  # round -> [(type, payload, frame size)]


async def _game(tmp_path: Path, seed: int, monkeypatch: pytest.MonkeyPatch) -> tuple[Frames, Any]:
    """The frames the host sent its one remote player, by round, and the game's record."""
    frames: Frames = defaultdict(list)
    current = [0]
    split, encrypt = secure.SecureResponder._split, secure.SecureChannel.encrypt

    def host_split(self: Any) -> Any:
        channel = split(self)
        channel.host_side = True  # type: ignore[attr-defined]
        return channel

    def sniffed(self: Any, payload: bytes) -> bytes:
        wire = encrypt(self, payload)
        if getattr(self, "host_side", False):
            msg = msgpack.unpackb(payload, raw=False)
            if msg.get("t") == "round":
                current[0] = msg["round"]
            frames[current[0]].append((msg["t"], len(payload), HEADER_BYTES + len(wire)))
        return wire

    monkeypatch.setattr(secure.SecureResponder, "_split", host_split)
    monkeypatch.setattr(secure.SecureChannel, "encrypt", sniffed)
    options = HostOptions(players=3, bots=2, bot_level="random", records_dir=tmp_path)
    async with asyncio.timeout(60), running_host(options) as host:
        sessions = await seat_sessions(options.port, 1)
        assert await play_bots(sessions, "random", seed=seed) == [0]
        record = host.table.recorder.record()  # type: ignore[union-attr]
    monkeypatch.undo()
    return frames, record


async def test_frame_sizes_are_the_same_for_other_hands(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    one, record_one = await _game(tmp_path / "a", 1, monkeypatch)
    two, record_two = await _game(tmp_path / "b", 2, monkeypatch)
    compared = payloads_differ = 0
    for r in range(1, len(record_one.rounds) + 1):
        a, b = one[r], two[r]
        if [t for t, _, _ in a] != [t for t, _, _ in b]:
            continue  # another shape: a trump choice in one game only
        assert record_one.rounds[r - 1].hands != record_two.rounds[r - 1].hands
        assert [size for _, _, size in a] == [size for _, _, size in b], r
        compared += 1
        payloads_differ += [n for _, n, _ in a] != [n for _, n, _ in b]
    assert compared >= 10  # of 20 rounds
    # Without the padding the sizes would tell: the payloads inside do differ.
    assert payloads_differ >= compared // 2
    # Every state, on a player's turn or not, is one size.
    states = {
        size for frames in (one, two) for f in frames.values() for t, _, size in f if t == "state"
    }
    assert len(states) == 1, states
