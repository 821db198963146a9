"""``GameRecorder``: a record built round by round from the engine's results, as the host
and ``simulate`` play."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from netplay.mental import PROTOCOL as PRIVATE_PROTOCOL
from netplay.mental import DealSetup
from netplay.signing import Envelope

from ..game import GameConfig, RoundResult, winners
from .model import (
    GAME_ID_BYTES,
    PROTOCOL,
    PROTOCOLS,
    Charge,
    GameRecord,
    PlayerEntry,
    PrivateDealRecord,
    RecordedRound,
    RecordedTrick,
    Redeal,
    StandIn,
    VerificationFailure,
    redeal_action,
)


def recorded_round(
    result: RoundResult,
    commitments: Sequence[bytes],
    seeds: Sequence[bytes],
    private_deal: PrivateDealRecord | None = None,
) -> RecordedRound:
    """One finished round of the engine, with the commitments and seeds that dealt it (or,
    privately dealt, with its setup and transcript and no commitments or seeds). A round of a
    game with special cards (its result holds the round's actions) keeps its actions and the
    card turned up at the deal."""
    special = bool(result.actions)  # every special round has its bids at least; plain: ()
    return RecordedRound(
        round=result.round,
        dealer=result.dealer,
        commitments=tuple(commitments),
        seeds=tuple(seeds),
        private_deal=private_deal,
        hands=result.hands,
        trump_card=result.trump_card,
        trump_suit=result.trump_suit,
        bids=result.bids,
        tricks=tuple(RecordedTrick(t.leader, t.plays, t.winner, t.bombed) for t in result.tricks),
        tricks_won=result.tricks_won,
        points=result.points,
        totals=result.totals,
        turned_card=result.turned_card if special else None,
        actions=tuple(result.actions) if special else None,
    )


class GameRecorder:
    """Collects a game's record round by round; the host writes it after every round.

    >>> recorder = GameRecorder(game_id, players, game.config)
    >>> recorder.add_round(game.results[-1], commitments, seeds)   # after each round
    >>> write_record(directory, recorder.record())
    """

    def __init__(
        self,
        game_id: bytes,
        players: Sequence[PlayerEntry],
        config: GameConfig,
        *,
        protocol: str = PROTOCOL,
        signing_keys: Sequence[bytes] = (),
    ) -> None:
        if protocol not in PROTOCOLS:
            raise ValueError(f"unknown deal protocol {protocol!r}")
        if (protocol == PRIVATE_PROTOCOL) != bool(signing_keys) or (
            signing_keys and len(signing_keys) != config.players
        ):
            raise ValueError("a private deal's record needs one signing key per seat, and only it")
        if len(game_id) != GAME_ID_BYTES:
            raise ValueError(f"a game id is {GAME_ID_BYTES} bytes, got {len(game_id)}")
        if len(players) != config.players:
            raise ValueError(f"{len(players)} player entries for {config.players} seats")
        self.game_id = game_id
        self.players = tuple(players)
        self.config = config
        self.protocol = protocol
        self.signing_keys = tuple(signing_keys)
        self.rounds: list[RecordedRound] = []
        self.redeals: list[Redeal] = []
        self.verification_failures: list[VerificationFailure] = []
        self.stand_ins: list[StandIn] = []
        self.extra: dict[str, Any] = {}  # extra top-level fields (docs/record-format.md)
        self.charges: list[Charge] = []
        # Fields a round gets once it is recorded, given before its end (``add_bid_seals``).
        self._round_extras: dict[int, dict[str, Any]] = {}

    @classmethod
    def carry_on(cls, record: GameRecord, config: GameConfig) -> GameRecorder:
        """A recorder that goes on from ``record`` (a file an earlier run of this program
        wrote): its rounds, voided attempts, failures, stand-ins and extra fields."""
        recorder = cls(
            record.game_id,
            record.players,
            config,
            protocol=record.protocol,
            signing_keys=record.signing_keys,
        )
        recorder.rounds = list(record.rounds)
        recorder.redeals = list(record.redeals)
        recorder.verification_failures = list(record.verification_failures)
        recorder.stand_ins = list(record.stand_ins)
        recorder.extra = dict(record.extra)
        recorder.charges = list(record.charges)
        return recorder

    def derive_stand_ins(self) -> None:
        """Private deal: the ``stand_ins`` that the recorded attempts' setups imply, in
        order (a player's own record, which sees every attempt's signing keys in its setup;
        the host records them as it deals)."""
        attempts = sorted(
            [(d.round, d.attempt, d.private_deal.setup) for d in self.redeals if d.private_deal]
            + [(r.round, r.private_deal.setup.attempt, r.private_deal.setup)
               for r in self.rounds if r.private_deal]
        )  # fmt: skip
        keys, changes = self.signing_keys, []
        for r, attempt, setup in attempts:
            for seat, (old, new) in enumerate(zip(keys, setup.signing_keys, strict=True)):
                if old != new:
                    own = new == self.signing_keys[seat]
                    changes.append(StandIn(r, attempt, seat, None if own else new))
            keys = setup.signing_keys
        self.stand_ins = changes

    def add_round(
        self, result: RoundResult, commitments: Sequence[bytes], seeds: Sequence[bytes]
    ) -> None:
        if result.round != len(self.rounds) + 1:
            raise ValueError(f"round {result.round} recorded after {len(self.rounds)} rounds")
        if self.protocol != PROTOCOL:
            raise ValueError("commitments and seeds recorded for a private deal")
        self._check_special(result)
        self.rounds.append(self._with_extras(recorded_round(result, commitments, seeds)))

    def add_private_round(
        self, result: RoundResult, setup: DealSetup, envelopes: Sequence[Envelope]
    ) -> None:
        """A privately dealt round: its setup and the relay's transcript of it."""
        if self.protocol != PRIVATE_PROTOCOL:
            raise ValueError("a private deal recorded in a commit-reveal game")
        if result.round != len(self.rounds) + 1:
            raise ValueError(f"round {result.round} recorded after {len(self.rounds)} rounds")
        self._check_special(result)
        deal = PrivateDealRecord(setup, tuple(envelopes))
        self.rounds.append(self._with_extras(recorded_round(result, (), (), deal)))

    def _check_special(self, result: RoundResult) -> None:
        """A game with special cards is recorded with each round's actions, without which
        no one could replay it; a plain game's round has none."""
        if bool(self.config.rules.specials) != bool(result.actions):
            want = "its actions" if self.config.rules.specials else "no actions"
            raise ValueError(f"round {result.round}'s result must hold {want} for this game")
        if result.actions and result.turned_card is None:
            raise ValueError(f"round {result.round}'s result lacks its turned card")

    def add_bid_seals(
        self, round_number: int, seals: Sequence[bytes], nonces: Sequence[bytes]
    ) -> None:
        """Hidden bids: the round's seals and the nonces that opened them, per seat (its
        ``bid_seals``), given when the bids are revealed; the round carries them once it is
        recorded. A later call for the round (a redealt attempt) replaces them."""
        if len(seals) != self.config.players or len(nonces) != self.config.players:
            raise ValueError("one seal and one nonce per seat")
        wire = [{"seal": s.hex(), "nonce": n.hex()} for s, n in zip(seals, nonces, strict=True)]
        self._round_extras.setdefault(round_number, {})["bid_seals"] = wire

    def _with_extras(self, recorded: RecordedRound) -> RecordedRound:
        extras = self._round_extras.pop(recorded.round, None)
        return recorded if not extras else replace(recorded, extra={**recorded.extra, **extras})

    def add_redeal(
        self,
        round_number: int,
        commitments: Sequence[bytes],
        seeds: Sequence[bytes | None],
        reason: str,
    ) -> None:
        """Record a deal that was thrown away after commitments were fixed."""
        attempt = 1 + sum(d.round == round_number for d in self.redeals)
        self.redeals.append(Redeal(round_number, attempt, reason, tuple(commitments), tuple(seeds)))

    def add_private_redeal(
        self,
        round_number: int,
        setup: DealSetup,
        envelopes: Sequence[Envelope],
        reason: str,
        *,
        fault: str | None = None,
        culprit: int | None = None,
        evidence: Envelope | None = None,
        actions: Sequence[Sequence[Any]] = (),
    ) -> None:
        """Record a voided attempt of a private deal: whatever it produced, and why."""
        if self.protocol != PRIVATE_PROTOCOL:
            raise ValueError("a private deal recorded in a commit-reveal game")
        self.redeals.append(
            Redeal(
                round_number,
                setup.attempt,
                reason,
                private_deal=PrivateDealRecord(setup, tuple(envelopes)),
                fault=fault,
                culprit=culprit,
                evidence=evidence,
                actions=tuple(redeal_action(k, s, v) for k, s, v in actions),
            )
        )

    def add_stand_in(self, round_number: int, attempt: int, seat: int, key: bytes | None) -> None:
        """Private deal: seat ``seat`` signs with ``key`` from this attempt on (None: with
        the player's own key again)."""
        self.stand_ins.append(StandIn(round_number, attempt, seat, key))

    def add_charge(self, round_number: int, attempt: int, seat: int, why: str) -> None:
        """Private deal: ``seat`` pays for attempt ``attempt`` of the round (``Charge``)."""
        self.charges.append(Charge(round_number, attempt, seat, why))

    def add_verification_failure(self, round_number: int, seat: int | None, detail: str) -> None:
        self.verification_failures.append(VerificationFailure(round_number, seat, detail))

    def record(self) -> GameRecord:
        """The record so far: ``complete`` once every round is in, ``winners`` then too."""
        complete = len(self.rounds) == self.config.num_rounds  # every round of its length
        return GameRecord(
            game_id=self.game_id,
            players=self.players,
            rules=self.config.rules,
            first_dealer=self.config.first_dealer,
            rounds=tuple(self.rounds),
            complete=complete,
            winners=tuple(winners(self.rounds[-1].totals)) if complete else (),
            redeals=tuple(self.redeals),
            verification_failures=tuple(self.verification_failures),
            protocol=self.protocol,
            signing_keys=self.signing_keys,
            stand_ins=tuple(self.stand_ins),
            extra=dict(self.extra),
            charges=tuple(self.charges),
        )
