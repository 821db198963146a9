"""The commit-reveal exchange of one round, as two sans-I/O state machines.

It enforces the order of messages in ``spec/deal-v1.md``: commitments first,
then the complete commitment vector goes out, and only then are seeds sent
(to the host alone) and accepted. A seed offered before the vector is out is
refused, so nobody can choose a seed after seeing others'. Nothing here knows
about cards: the result is the combined seed, from which the game shuffles
with ``fairdeal.shuffle_order``.

Messages (``r`` is the round number, ``bin32`` 32 raw bytes):

* client -> host  ``{"t": "commit", "round": r, "commitment": bin32}``
* host -> clients ``{"t": "commitments", "round": r, "commitments": [bin32, ...]}`` (by seat)
* client -> host  ``{"t": "seed", "round": r, "seed": bin32}``
* host -> clients ``{"t": "seeds", "round": r, "seeds": [bin32, ...]}`` (at round end)
"""

from __future__ import annotations

import enum
from collections.abc import Callable, Sequence
from typing import Any

from . import fairdeal
from .errors import ProtocolError
from .schema import Bin, Int, List, Message

COMMITMENT_BYTES = 32
MAX_SEATS = 64  # well inside the framing's array limit, and fits fairdeal's one-byte seat

# Error codes: the first group is a peer breaking the exchange, the second a
# failed verification (the player must be told, and it goes into the record).
OUT_OF_PHASE = "out_of_phase"
WRONG_ROUND = "wrong_round"
BAD_SEAT = "bad_seat"
DUPLICATE = "duplicate"
BAD_LENGTH = "bad_length"
BAD_SEED = "bad_seed"
BAD_VECTOR = "bad_vector"
COMMITMENT_CHANGED = "commitment_changed"
SEED_CHANGED = "seed_changed"

_ROUND = Int(0, 0xFFFF)
COMMIT = Message("commit", round=_ROUND, commitment=Bin(COMMITMENT_BYTES))
COMMITMENTS = Message(
    "commitments", round=_ROUND, commitments=List(Bin(COMMITMENT_BYTES), max_len=MAX_SEATS)
)
SEED = Message("seed", round=_ROUND, seed=Bin(fairdeal.SEED_BYTES))
SEEDS = Message("seeds", round=_ROUND, seeds=List(Bin(fairdeal.SEED_BYTES), max_len=MAX_SEATS))


class CommitRevealError(ProtocolError):
    """The exchange went wrong; ``code`` is one of this module's codes."""


def commit_msg(round_number: int, commitment: bytes) -> dict[str, Any]:
    return {"t": "commit", "round": round_number, "commitment": commitment}


def commitments_msg(round_number: int, commitments: Sequence[bytes]) -> dict[str, Any]:
    return {"t": "commitments", "round": round_number, "commitments": list(commitments)}


def seed_msg(round_number: int, seed: bytes) -> dict[str, Any]:
    return {"t": "seed", "round": round_number, "seed": seed}


def seeds_msg(round_number: int, seeds: Sequence[bytes]) -> dict[str, Any]:
    return {"t": "seeds", "round": round_number, "seeds": list(seeds)}


class Phase(enum.Enum):
    COMMITTING = "committing"  # host: collecting commitments; client: vector not yet seen
    REVEALING = "revealing"  # the vector is out; seeds may move
    COMPLETE = "complete"  # host: every seed in and checked


def _check_round(msg: dict[str, Any], round_number: int) -> None:
    if msg["round"] != round_number:
        raise CommitRevealError(
            WRONG_ROUND, f"message for round {msg['round']} during round {round_number}"
        )


class HostRound:
    """The host's side of one round.

    ``local_seeds`` are the seeds the host draws itself (its own seat and its
    bots'); every other seat is remote and must commit, then reveal.
    """

    def __init__(
        self, game_id: bytes, round_number: int, seats: int, local_seeds: dict[int, bytes]
    ) -> None:
        if not 1 <= seats <= MAX_SEATS:
            raise ValueError(f"seats must be 1..{MAX_SEATS}")
        for seat in local_seeds:
            if not 0 <= seat < seats:
                raise ValueError(f"local seat {seat} is not a seat of this game")
        self.game_id = game_id
        self.round = round_number
        self.seats = seats
        self.phase = Phase.COMMITTING
        self._commitments: dict[int, bytes] = {
            seat: fairdeal.commitment(game_id, round_number, seat, seed)
            for seat, seed in local_seeds.items()
        }
        self._seeds: dict[int, bytes] = dict(local_seeds)
        self._local = frozenset(local_seeds)

    @property
    def remote_seats(self) -> frozenset[int]:
        return frozenset(range(self.seats)) - self._local

    def missing_commitments(self) -> frozenset[int]:
        return frozenset(range(self.seats)) - self._commitments.keys()

    def missing_seeds(self) -> frozenset[int]:
        return frozenset(range(self.seats)) - self._seeds.keys()

    def receive_commit(self, seat: int, msg: dict[str, Any]) -> None:
        """Check a remote seat's ``commit`` message and record it."""
        COMMIT.check(msg)
        _check_round(msg, self.round)
        self.add_commitment(seat, msg["commitment"])

    def receive_seed(self, seat: int, msg: dict[str, Any]) -> None:
        """Check a remote seat's ``seed`` message and record it."""
        SEED.check(msg)
        _check_round(msg, self.round)
        self.add_seed(seat, msg["seed"])

    def add_commitment(self, seat: int, commitment: bytes) -> None:
        if self.phase is not Phase.COMMITTING:
            raise CommitRevealError(
                OUT_OF_PHASE, f"seat {seat} committed after the commitments were published"
            )
        self._check_remote(seat)
        if seat in self._commitments:
            raise CommitRevealError(DUPLICATE, f"seat {seat} already committed this round")
        if type(commitment) is not bytes or len(commitment) != COMMITMENT_BYTES:
            raise CommitRevealError(
                BAD_LENGTH, f"seat {seat}'s commitment must be {COMMITMENT_BYTES} bytes"
            )
        self._commitments[seat] = commitment

    @property
    def vector_ready(self) -> bool:
        return not self.missing_commitments()

    def publish_commitments(self) -> list[bytes]:
        """The complete commitment vector, by seat; from now on seeds are accepted."""
        if self.phase is Phase.COMMITTING:
            missing = self.missing_commitments()
            if missing:
                raise CommitRevealError(
                    OUT_OF_PHASE, f"still waiting for commitments from seats {sorted(missing)}"
                )
            # With no remote seat (bots only) every seed is already in.
            self.phase = Phase.COMPLETE if not self.missing_seeds() else Phase.REVEALING
        return [self._commitments[seat] for seat in range(self.seats)]

    def add_seed(self, seat: int, seed: bytes) -> None:
        if self.phase is Phase.COMMITTING:
            # The heart of the scheme: a seed sent before every commitment is fixed
            # could have been chosen after seeing the others.
            raise CommitRevealError(
                OUT_OF_PHASE, f"seat {seat} sent its seed before the commitments were published"
            )
        self._check_remote(seat)
        if seat in self._seeds:
            raise CommitRevealError(DUPLICATE, f"seat {seat} already sent its seed this round")
        if type(seed) is not bytes or len(seed) != fairdeal.SEED_BYTES:
            raise CommitRevealError(BAD_LENGTH, f"seat {seat}'s seed must be 32 bytes")
        if not fairdeal.opens(self._commitments[seat], self.game_id, self.round, seat, seed):
            raise CommitRevealError(BAD_SEED, f"seat {seat}'s seed does not match its commitment")
        self._seeds[seat] = seed
        if not self.missing_seeds():
            self.phase = Phase.COMPLETE

    def combined_seed(self) -> bytes:
        return fairdeal.combined_seed(self.game_id, self.round, self.seeds())

    def seeds_so_far(self) -> list[bytes | None]:
        """The seeds in so far, by seat, None where one is missing: what the record of a
        deal thrown away before it was complete shows."""
        return [self._seeds.get(seat) for seat in range(self.seats)]

    def seeds(self) -> list[bytes]:
        """Every seed, by seat: for the deal, and for publication when the round ends."""
        if self.phase is not Phase.COMPLETE:
            raise CommitRevealError(
                OUT_OF_PHASE, f"still waiting for seeds from seats {sorted(self.missing_seeds())}"
            )
        return [self._seeds[seat] for seat in range(self.seats)]

    def _check_remote(self, seat: int) -> None:
        if type(seat) is not int or not 0 <= seat < self.seats:
            raise CommitRevealError(BAD_SEAT, f"{seat!r} is not a seat of this game")
        if seat in self._local:
            raise CommitRevealError(BAD_SEAT, f"seat {seat} is the host's to play")


class ClientRound:
    """One remote seat's side of one round."""

    def __init__(
        self,
        game_id: bytes,
        round_number: int,
        seat: int,
        seats: int,
        *,
        new_seed: Callable[[], bytes] = fairdeal.new_seed,
    ) -> None:
        if not 0 <= seat < seats <= MAX_SEATS:
            raise ValueError(f"seat {seat} is not one of {seats} seats")
        self.game_id = game_id
        self.round = round_number
        self.seat = seat
        self.seats = seats
        self.phase = Phase.COMMITTING
        self._seed = new_seed()
        self.commitment = fairdeal.commitment(game_id, round_number, seat, self._seed)
        self._vector: list[bytes] | None = None

    def commit_message(self) -> dict[str, Any]:
        return commit_msg(self.round, self.commitment)

    def receive_commitments(self, msg: dict[str, Any]) -> None:
        COMMITMENTS.check(msg)
        _check_round(msg, self.round)
        self.accept_vector(msg["commitments"])

    def accept_vector(self, vector: Sequence[bytes]) -> None:
        """Check the published vector holds our commitment, unchanged, at our seat."""
        if self.phase is not Phase.COMMITTING:
            raise CommitRevealError(OUT_OF_PHASE, "the commitments were already published")
        if len(vector) != self.seats:
            raise CommitRevealError(
                BAD_VECTOR, f"{len(vector)} commitments published for {self.seats} seats"
            )
        for seat, commit in enumerate(vector):
            if type(commit) is not bytes or len(commit) != COMMITMENT_BYTES:
                raise CommitRevealError(BAD_VECTOR, f"the commitment of seat {seat} is malformed")
        if vector[self.seat] != self.commitment:
            raise CommitRevealError(
                COMMITMENT_CHANGED,
                f"round {self.round}: the host published a different commitment for your seat",
            )
        self._vector = list(vector)
        self.phase = Phase.REVEALING

    def seed_to_send(self) -> bytes:
        """Our seed, only once the vector with our commitment is out."""
        if self.phase is Phase.COMMITTING:
            raise CommitRevealError(
                OUT_OF_PHASE, "the seed stays secret until the commitments are published"
            )
        return self._seed

    def seed_message(self) -> dict[str, Any]:
        return seed_msg(self.round, self.seed_to_send())

    def receive_seeds(self, msg: dict[str, Any]) -> bytes:
        SEEDS.check(msg)
        _check_round(msg, self.round)
        return self.check_reveal(msg["seeds"])

    def check_reveal(self, seeds: Sequence[bytes]) -> bytes:
        """Check the published seeds against the commitments; return the combined seed."""
        if self._vector is None:
            raise CommitRevealError(OUT_OF_PHASE, "seeds published before the commitments")
        if len(seeds) != self.seats:
            raise CommitRevealError(
                BAD_VECTOR, f"round {self.round}: {len(seeds)} seeds published for {self.seats}"
            )
        if seeds[self.seat] != self._seed:
            raise CommitRevealError(
                SEED_CHANGED, f"round {self.round}: the host published a different seed for you"
            )
        for seat, seed in enumerate(seeds):
            if not fairdeal.opens(self._vector[seat], self.game_id, self.round, seat, seed):
                raise CommitRevealError(
                    BAD_SEED,
                    f"round {self.round}: the seed of seat {seat} does not match its commitment",
                )
        self.phase = Phase.COMPLETE
        return fairdeal.combined_seed(self.game_id, self.round, seeds)
