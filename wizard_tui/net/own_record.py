"""A player's own record of a game (``docs/record-format.md``, "A player's own record").

``OwnRecord`` keeps the ``GameRecorder`` of one seat's program and its file,
``<game id>-seat<k>.json`` in the records directory, written after every round:

* rounds are added in order, 1, 2, 3...; a privately dealt round with its voided attempts
  before it, and the ``stand_ins`` its attempts' setups imply;
* what this program saw and checked itself is recorded as it saw it (its own transcript of
  each attempt); what it could not see (a round played while it was away or restarting, an
  attempt voided while its link was down) comes from the host's record of the round
  (``record_share.py``), and the record lists it under ``from_host``;
* a restarted program carries on the file an earlier run wrote, so that the rounds that run
  checked stay checked (``earlier``) and the file is complete at the game's end;
* a round whose check failed ends the record there (its failure is in it).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from netplay.mental import DealSetup
from netplay.signing import Envelope

from ..game import GameConfig, RoundResult
from ..i18n import _
from ..record import (
    PRIVATE_PROTOCOL,
    Charge,
    GameRecord,
    GameRecorder,
    RecordedRound,
    RecordError,
    Redeal,
    read_record,
    write_record,
)
from .record_share import PartAssembler

log = logging.getLogger("wizard_tui.own_record")

FROM_HOST = "from_host"  # the extra top-level field: what came from the host's record


def own_record_name(game_id: bytes, seat: int) -> str:
    """A seat's own record file: one per seat, so that two programs of one account at one
    table (two terminals, or friends on one machine) never write the same file."""
    return f"{game_id.hex()}-seat{seat}.json"


class OwnRecord:
    """One seat's record of one game; see the module docstring."""

    def __init__(
        self,
        recorder: GameRecorder,
        seat: int,
        records_dir: Path | None,
        *,
        send: Callable[[dict[str, Any]], None],
        on_error: Callable[[str], None],
    ) -> None:
        self.recorder = recorder
        self.seat = seat
        self.records_dir = records_dir
        self.path: Path | None = None  # where it was last written
        self._send = send
        self._on_error = on_error
        self.earlier: set[int] = set()  # rounds an earlier run of this program recorded
        # The record's private form (record-format.md): its rounds are put together in order
        # from this seat's own and the host's parts; else each round is added as checked.
        self._private = recorder.protocol == PRIVATE_PROTOCOL
        self._name = own_record_name(recorder.game_id, seat)
        # Private rounds: what this program checked, what it saw voided, what the host sent.
        self._own_rounds: dict[int, tuple[RoundResult, DealSetup, list[Envelope]]] = {}
        self._own_charges: dict[int, tuple[Charge, ...]] = {}
        self._own_voids: dict[tuple[int, int], Redeal] = {}
        self._host_parts: dict[
            int, tuple[tuple[Redeal, ...], RecordedRound | None, tuple[Charge, ...]]
        ] = {}
        self._ended: set[int] = set()  # rounds known to be over
        self._failed: set[int] = set()  # rounds whose check failed: the record ends there
        self._asked: set[int] = set()
        self._parts = PartAssembler(
            len(recorder.players), self._private, recorder.config.rules.specials
        )
        from_host = recorder.extra.get(FROM_HOST)
        self._from_host_rounds: set[int] = set()
        self._from_host_redeals: set[tuple[int, int]] = set()
        if isinstance(from_host, dict):
            self._from_host_rounds = {r for r in from_host.get("rounds", []) if type(r) is int}
            self._from_host_redeals = {
                (d[0], d[1]) for d in from_host.get("redeals", []) if _pair(d)
            }

    @classmethod
    def open(
        cls,
        recorder: GameRecorder,
        config: GameConfig,
        seat: int,
        records_dir: Path | None,
        **kwargs: Any,
    ) -> OwnRecord:
        """The record of this seat: carried on from the file an earlier run of this program
        wrote for the same game and seat, if there is one, else ``recorder`` (new)."""
        earlier = _earlier_record(records_dir, own_record_name(recorder.game_id, seat), recorder)
        if earlier is None:
            return cls(recorder, seat, records_dir, **kwargs)
        own = cls(GameRecorder.carry_on(earlier, config), seat, records_dir, **kwargs)
        own.earlier = set(range(1, len(earlier.rounds) + 1)) - own._from_host_rounds
        return own

    # -- what this program saw -----------------------------------------------------------------

    def commit_reveal_round(self, r: int, add: Callable[[GameRecorder], None]) -> None:
        """A commit-reveal round this program checked (it can check every one: the seeds are
        published), added in order."""
        if r == len(self.recorder.rounds) + 1:
            add(self.recorder)
            self.save()

    def private_round(
        self,
        result: RoundResult,
        setup: DealSetup,
        transcript: list[Envelope],
        charges: Sequence[tuple[int, int, str]] = (),
    ) -> None:
        """A privately dealt round this program checked, with its own transcript and the
        charges for voids its points show (``(attempt, seat, why)``, from ``round_end``)."""
        r = result.round
        self._own_rounds[r] = (result, setup, transcript)
        self._own_charges[r] = tuple(Charge(r, a, seat, why) for a, seat, why in charges)
        self.round_over(result.round)

    def private_void(self, redeal: Redeal) -> None:
        """An attempt voided while this program took part in it, as it saw it."""
        self._own_voids[(redeal.round, redeal.attempt)] = redeal

    def round_over(self, r: int) -> None:
        """Round ``r`` is over (checked or not): record it, from the host's record where
        this program could not see it."""
        self._ended.update(range(1, r + 1))
        self._flush()

    def round_failed(self, r: int) -> None:
        """Round ``r`` failed this program's check: the record stops before it."""
        self._failed.add(r)

    def on_part(self, msg: dict[str, Any]) -> None:
        """A ``record_part`` message of the host."""
        try:
            done = self._parts.receive(msg)
        except (RecordError, ValueError, TypeError, KeyError, RecursionError) as exc:
            # Bad input from the host: that part is not recorded (the record ends before
            # its round), the game goes on.
            log.warning("the host's record part is unusable: %s", exc)
            return
        if done is not None:
            r, redeals, played, charges = done
            self._host_parts[r] = (redeals, played, charges)
            self._flush()

    @property
    def waiting(self) -> bool:
        """Rounds are over that are not recorded yet, and can be (their host part is due)."""
        r = len(self.recorder.rounds) + 1
        return self._private and r in self._ended and r not in self._failed

    def reconnected(self) -> None:
        """The link came back: parts asked for on the old one may never arrive whole."""
        self._asked.clear()
        self._parts = PartAssembler(
            len(self.recorder.players), self._private, self.recorder.config.rules.specials
        )
        self._flush()

    # -- the record ------------------------------------------------------------------------------

    def _flush(self) -> None:
        recorder, added = self.recorder, False
        while self._private:
            r = len(recorder.rounds) + 1
            if r not in self._ended or r in self._failed or not self._add_private(r):
                break
            added = True
        if added:
            recorder.derive_stand_ins()
            self._mark()
            self.save()

    def _add_private(self, r: int) -> bool:
        recorder = self.recorder
        own = self._own_rounds.get(r)
        if own is not None:
            result, setup, transcript = own
            voids = [self._own_voids.get((r, a)) for a in range(setup.attempt)]
            if all(v is not None for v in voids):
                recorder.redeals = [d for d in recorder.redeals if d.round != r]
                recorder.redeals.extend(v for v in voids if v is not None)
                self._set_charges(r, self._own_charges.get(r, ()))
                recorder.add_private_round(result, setup, transcript)
                return True
        host = self._host_parts.get(r)
        if host is None:
            if r not in self._asked:
                self._asked.add(r)
                self._send({"t": "record", "round": r})
            return False
        host_redeals, played, host_charges = host
        if played is None:
            return False
        own_setup = own[1] if own is not None else None
        use_own = (
            own_setup is not None
            and played.private_deal is not None
            and (played.private_deal.setup.attempt == own_setup.attempt)
        )
        recorder.redeals = [d for d in recorder.redeals if d.round != r]
        for d in sorted(host_redeals, key=lambda d: d.attempt):
            mine = self._own_voids.get((r, d.attempt))
            recorder.redeals.append(mine or d)
            if mine is None:
                self._from_host_redeals.add((r, d.attempt))
        if use_own and own is not None:
            self._set_charges(r, self._own_charges.get(r, host_charges))
            recorder.add_private_round(*own)
        else:
            self._set_charges(r, host_charges)
            recorder.rounds.append(played)
            self._from_host_rounds.add(r)
        return True

    def _set_charges(self, r: int, charges: Sequence[Charge]) -> None:
        """Round ``r``'s charges (docs/rules.md, "Voided deals") in place of any kept."""
        recorder = self.recorder
        recorder.charges = [c for c in recorder.charges if c.round != r]
        for c in charges:
            recorder.add_charge(c.round, c.attempt, c.seat, c.why)

    def _mark(self) -> None:
        if self._from_host_rounds or self._from_host_redeals:
            self.recorder.extra[FROM_HOST] = {
                "rounds": sorted(self._from_host_rounds),
                "redeals": [list(d) for d in sorted(self._from_host_redeals)],
            }

    def save(self) -> None:
        """Write the record (atomically) once it has a round. A disk that refuses is
        reported once and the game goes on."""
        if self.records_dir is None or not self.recorder.rounds:
            return
        try:
            self.records_dir.mkdir(parents=True, exist_ok=True)
            self.path = write_record(self.records_dir, self.recorder.record(), name=self._name)
        except OSError as exc:
            log.warning("could not write the game record in %s: %s", self.records_dir, exc)
            self._on_error(_("the game record could not be written: {error}").format(error=exc))
            self.records_dir = None


def _pair(value: object) -> bool:
    return type(value) is list and len(value) == 2 and all(type(v) is int for v in value)


def _earlier_record(
    records_dir: Path | None, name: str, recorder: GameRecorder
) -> GameRecord | None:
    """The record an earlier run wrote for this game and seat, if it is this game's."""
    if records_dir is None or not (records_dir / name).exists():
        return None
    try:
        record = read_record(records_dir / name)
    except RecordError as exc:
        log.warning("your earlier record %s is unusable (%s): starting a new one", name, exc)
        return None
    same = (
        record.game_id == recorder.game_id
        and record.players == recorder.players
        and record.protocol == recorder.protocol
        and record.signing_keys == recorder.signing_keys
        and record.first_dealer == recorder.config.first_dealer
        and record.restrict_last_bid == recorder.config.restrict_last_bid
    )
    return record if same else None


__all__ = ["FROM_HOST", "OwnRecord", "own_record_name"]
