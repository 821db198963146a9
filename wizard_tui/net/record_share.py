"""The host's record of one finished round, published to a player on request, for the
player's own record (``docs/record-format.md``, "A player's own record").

A player's program records what it saw and checked itself. What it could not see (a round
played while it was away or restarting, an attempt voided while its link was down) it asks
the host for with ``{"t": "record", "round": r}``; the host answers with the round's part
of its own record: ``{"round", "redeals", "played", "charges"}`` in the record's JSON form, as UTF-8
JSON text cut into ``record_part`` messages (each bin within netplay's ``max_bin``, each
message well within a frame). ``PartAssembler`` puts them back together on the player's
side. The text is the host's word only: ``wizard-tui verify`` checks it in the player's
record like everything else, and the record lists what came from the host (``from_host``).
"""

from __future__ import annotations

import json
from typing import Any

from ..game.specials import Special
from ..record import (
    Charge,
    GameRecord,
    RecordedRound,
    RecordError,
    Redeal,
    parse_charges,
    parse_round_part,
)

CHUNK_BYTES = 4000  # one bin: inside netplay's Limits.max_bin (4096)
CHUNKS_PER_MESSAGE = 12  # ~48 KB of text per message: inside a 64 KB frame
MAX_PART_BYTES = 8 << 20  # a round of a 6-player game is ~0.3 MB as JSON: more is damage


def round_part(record: GameRecord, round_number: int) -> dict[str, Any] | None:
    """The part of ``record`` that holds round ``round_number`` (None: not finished yet)."""
    if not 1 <= round_number <= len(record.rounds):
        return None
    return {
        "round": round_number,
        "redeals": [d.to_dict() for d in record.redeals if d.round == round_number],
        "played": record.rounds[round_number - 1].to_dict(),
        "charges": [c.to_dict() for c in record.charges if c.round == round_number],
    }


def part_messages(part: dict[str, Any]) -> list[dict[str, Any]]:
    """``part`` as ``record_part`` messages, in order (``more`` false on the last)."""
    data = json.dumps(part, separators=(",", ":")).encode("utf-8")
    chunks = [data[i : i + CHUNK_BYTES] for i in range(0, len(data), CHUNK_BYTES)] or [b""]
    groups = [chunks[i : i + CHUNKS_PER_MESSAGE] for i in range(0, len(chunks), CHUNKS_PER_MESSAGE)]
    r = part["round"]
    return [
        {"t": "record_part", "round": r, "chunks": group, "more": i < len(groups) - 1}
        for i, group in enumerate(groups)
    ]


class PartAssembler:
    """The player's side: ``record_part`` messages back into round parts."""

    def __init__(
        self, players: int, private: bool, specials: frozenset[Special] = frozenset()
    ) -> None:
        self.players = players
        self.private = private
        self.specials = specials  # the game's special cards: its rounds hold their actions
        self._text: dict[int, bytearray] = {}

    def receive(
        self, msg: dict[str, Any]
    ) -> tuple[int, tuple[Redeal, ...], RecordedRound | None, tuple[Charge, ...]] | None:
        """The round part once its last message is in (None before). ``RecordError`` for
        a part that is not a round of a record."""
        r, chunks = msg.get("round"), msg.get("chunks")
        if type(r) is not int or type(chunks) is not list:
            raise RecordError("bad-value", "a record part without its round or chunks")
        buffer = self._text.setdefault(r, bytearray())
        for chunk in chunks:
            if type(chunk) is not bytes:
                raise RecordError("bad-value", "a record part's chunk is not bytes")
            buffer += chunk
        if len(buffer) > MAX_PART_BYTES:
            del self._text[r]
            raise RecordError("bad-value", f"the host's part of round {r} is too large")
        if msg.get("more") is True:
            return None
        text = bytes(self._text.pop(r))
        try:
            doc = json.loads(text.decode("utf-8"))
        except (UnicodeDecodeError, ValueError, RecursionError) as exc:
            raise RecordError("json", f"the host's part of round {r} is not JSON: {exc}") from None
        redeals, played = parse_round_part(doc, self.players, self.private, self.specials)
        if played is not None and played.round != r:
            raise RecordError("round-number", f"asked for round {r}, got {played.round}")
        charges = parse_charges(doc.get("charges", []), self.players) if self.private else ()
        if any(c.round != r for c in charges):
            raise RecordError("round-number", f"a charge of another round in round {r}'s part")
        return r, redeals, played, charges


__all__ = ["PartAssembler", "part_messages", "round_part"]
