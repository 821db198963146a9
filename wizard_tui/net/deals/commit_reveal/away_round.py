"""A round dealt while this seat was away (``takeover.py`` on the host: a bot held the seat
and the host drew its seed), or by an earlier run of this program (it restarted): there is no
``ClientRound`` of this seat for it. ``RoundChecker`` replays it with an ``AwayRound`` instead:
every seed must open its published commitment, and the deal, the plays and the scores must
follow, as for any round. With no seed of its own in it that is consistency, not a check: the
seat reports such a round as not checked (``docs/protocol.md``, Seat takeover)."""

from __future__ import annotations

from collections.abc import Sequence

from netplay import fairdeal
from netplay.commit_reveal import BAD_SEED, BAD_VECTOR, CommitRevealError

from ....i18n import N_


class AwayRound:
    """The stand-in for a ``ClientRound`` of a round this program dealt no seed in; ``how``
    says why, for the player."""

    DRAWN = N_("the host drew your seat's seed")
    EARLIER_RUN = N_("an earlier run of this program drew your seat's seed")

    def __init__(
        self, game_id: bytes, round_number: int, commitments: Sequence[bytes], how: str = DRAWN
    ) -> None:
        self.game_id = game_id
        self.round = round_number
        self.commitments = list(commitments)
        self.how = how

    def check_reveal(self, seeds: Sequence[bytes]) -> bytes:
        """Every seed opens its seat's commitment; the combined seed they give."""
        r = self.round
        if len(seeds) != len(self.commitments):
            raise CommitRevealError(
                BAD_VECTOR, f"round {r}: {len(seeds)} seeds for {len(self.commitments)} seats"
            )
        for seat, (commitment, seed) in enumerate(zip(self.commitments, seeds, strict=True)):
            if not fairdeal.opens(commitment, self.game_id, r, seat, seed):
                raise CommitRevealError(
                    BAD_SEED, f"round {r}: the seed of seat {seat} does not match its commitment"
                )
        return fairdeal.combined_seed(self.game_id, r, list(seeds))


__all__ = ["AwayRound"]
