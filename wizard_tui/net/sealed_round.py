"""One round's sealed bids at the host, as plain data (the table's ``sealing``).

Hidden bids (docs/rules.md, "Hidden bids"; docs/protocol.md, "Hidden bids"): every seat's
program sends a seal of its bid; once every seal is in they are published, and each program
opens its own. ``sealed_bids.apply_sealed_fact`` is the one place a journal fact changes it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .journal_facts import Decider


@dataclass
class SealedRound:
    """The sealed bids of one attempt of one round."""

    round: int
    attempt: int
    players: int
    seals: dict[int, bytes] = field(default_factory=dict)
    opened: dict[int, tuple[int, bytes]] = field(default_factory=dict)  # seat: bid, nonce
    by: dict[int, Decider] = field(default_factory=dict)  # who decided each seat's bid
    host_decided: set[int] = field(default_factory=set)  # bids the host opens itself
    replaced: set[int] = field(default_factory=set)  # a stand-in's bid for an unopened seal
    recorded: bool = False  # the record has its seals (``GameRecorder.add_bid_seals``)

    @property
    def key(self) -> tuple[int, int]:
        return self.round, self.attempt

    @property
    def published(self) -> bool:
        """Every seal is in: they are public, and each program may open its own."""
        return len(self.seals) == self.players

    @property
    def complete(self) -> bool:
        """Every seal is open: the bids are revealed and applied in bidding order."""
        return self.published and len(self.opened) == self.players

    def bid_of(self, seat: int) -> int:
        return self.opened[seat][0]


__all__ = ["SealedRound"]
