"""Game records (``docs/record-format.md``): build one from the engine, write it, read it back.

A record is one JSON document holding everything needed to re-check a whole game offline:
seats, rules, every round's commitments, seeds, hands, trump, bids, plays and scores. This
module owns its shape and nothing else: ``GameRecorder`` collects finished rounds (the host
and ``simulate`` both use it), ``write_record`` writes atomically after every round, and
``read_record``/``parse_record`` turn untrusted JSON into a typed ``GameRecord`` or raise a
``RecordError`` that names where the document is wrong. Whether the game it describes was
played by the rules is ``wizard_tui.verify``'s job.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from netplay.errors import ProtocolError
from netplay.mental import PROTOCOL as PRIVATE_PROTOCOL
from netplay.mental import DealSetup
from netplay.signing import Envelope

from .game import DECK_SIZE, GameConfig, RestrictLastBid, RoundResult, Suit, rounds_for, winners

FORMAT = "wizard-tui/record/v1"
PROTOCOL = "commit-reveal-v1"
PROTOCOLS = (PROTOCOL, PRIVATE_PROTOCOL)  # the deal of fairness.md, the private deal
SIGNING_KEY_BYTES = 32
GAME_ID_BYTES = 16
HASH_BYTES = 32  # seeds and commitments
# A complete 3-player record is about 60 kB; anything far beyond that is not a record.
MAX_RECORD_BYTES = 16 * 1024 * 1024

PlayerKind = Literal["human", "bot"]
PLAYER_KINDS: tuple[str, ...] = ("human", "bot")
SUIT_NAMES: tuple[str, ...] = tuple(s.label for s in Suit)


class RecordError(ValueError):
    """A record that cannot be read, is malformed, or (from ``verify``) breaks a rule.

    ``rule`` is a short stable code (``missing-field``, ``commitment``, ``must-follow-suit``,
    ...); ``round`` is 1-based, ``trick`` is 1-based within its round, ``seat`` is 0-based.
    ``culprit``: for a private deal's faults, the seat to blame, ``RELAY`` (-1: the host
    that relayed and recorded the round) or None when nobody can be named.
    """

    def __init__(
        self,
        rule: str,
        detail: str,
        *,
        round: int | None = None,
        trick: int | None = None,
        seat: int | None = None,
        culprit: int | None = None,
    ) -> None:
        super().__init__(detail)
        self.rule = rule
        self.detail = detail
        self.round = round
        self.trick = trick
        self.seat = seat
        self.culprit = culprit

    @property
    def location(self) -> str:
        """``round 3, trick 2, seat 1``: only the parts that apply."""
        parts = []
        if self.round is not None:
            parts.append(f"round {self.round}")
        if self.trick is not None:
            parts.append(f"trick {self.trick}")
        if self.seat is not None:
            parts.append(f"seat {self.seat}")
        return ", ".join(parts)

    def __str__(self) -> str:
        where = self.location
        return f"{where}: {self.rule}: {self.detail}" if where else f"{self.rule}: {self.detail}"

    def __repr__(self) -> str:
        return (
            f"RecordError({self.rule!r}, {self.detail!r}, round={self.round}, "
            f"trick={self.trick}, seat={self.seat})"
        )


# --------------------------------------------------------------------------- the typed record


@dataclass(frozen=True, slots=True)
class PlayerEntry:
    name: str
    kind: PlayerKind


@dataclass(frozen=True, slots=True)
class RecordedTrick:
    leader: int
    plays: tuple[tuple[int, int], ...]  # (seat, card) in play order
    winner: int


@dataclass(frozen=True, slots=True)
class PrivateDealRecord:
    """A privately dealt round's ``private_deal``: its setup and every accepted envelope,
    in the relay's order (docs/private-deal.md section 11)."""

    setup: DealSetup
    envelopes: tuple[Envelope, ...]

    def to_dict(self) -> dict[str, Any]:
        return {
            "setup": self.setup.to_json(),
            "envelopes": [e.to_json() for e in self.envelopes],
        }


@dataclass(frozen=True, slots=True)
class RecordedRound:
    round: int
    dealer: int
    commitments: tuple[bytes, ...]  # index = seat; () for a private deal
    seeds: tuple[bytes, ...]  # index = seat; () for a private deal
    hands: tuple[tuple[int, ...], ...]  # index = seat, in deal order
    trump_card: int | None
    trump_suit: Suit | None
    bids: tuple[int, ...]
    tricks: tuple[RecordedTrick, ...]
    tricks_won: tuple[int, ...]
    points: tuple[int, ...]
    totals: tuple[int, ...]
    extra: Mapping[str, Any] = field(default_factory=dict)  # fields other writers added
    private_deal: PrivateDealRecord | None = None  # protocol private-sra-x25519-v1 only


@dataclass(frozen=True, slots=True)
class Redeal:
    """A deal the host threw away (extra field ``redeals``): a commit-reveal deal after
    its commitments were published, or a voided attempt of a private deal."""

    round: int
    # commit-reveal: 1 for the first discarded deal of that round, 2 for the next, ...;
    # private deal: the voided attempt's own number (its setup's ``attempt``, from 0).
    attempt: int
    reason: str
    commitments: tuple[bytes, ...] = ()
    seeds: tuple[bytes | None, ...] = ()  # None: that seat's seed was never revealed
    # Private deal only (docs/private-deal.md section 11):
    private_deal: PrivateDealRecord | None = None
    fault: str | None = None  # the failure code that ended the attempt, if any
    culprit: int | None = None  # the seat blamed (-1: the relay), if any
    evidence: Envelope | None = None  # a refused envelope that shows the fault, if any
    actions: tuple[tuple[str, int, int], ...] = ()  # its trump choice and bids, in order

    def to_dict(self) -> dict[str, Any]:
        if self.private_deal is None:
            return {
                "round": self.round,
                "attempt": self.attempt,
                "reason": self.reason,
                "commitments": [c.hex() for c in self.commitments],
                "seeds": [None if s is None else s.hex() for s in self.seeds],
            }
        return {
            "round": self.round,
            "attempt": self.attempt,
            "reason": self.reason,
            "private_deal": self.private_deal.to_dict(),
            "fault": self.fault,
            "culprit": self.culprit,
            "evidence": None if self.evidence is None else self.evidence.to_json(),
            "actions": [list(a) for a in self.actions],
        }


@dataclass(frozen=True, slots=True)
class StandIn:
    """Private deal: from ``round``/``attempt`` on, seat ``seat`` signs with ``key`` (a bot
    of the host's playing for a player who left), or again with its own key (``None``)."""

    round: int
    attempt: int
    seat: int
    key: bytes | None

    def to_dict(self) -> dict[str, Any]:
        key = None if self.key is None else self.key.hex()
        return {"round": self.round, "attempt": self.attempt, "seat": self.seat, "key": key}


@dataclass(frozen=True, slots=True)
class VerificationFailure:
    """A failed round-end check seen during play (extra field ``verification_failures``)."""

    round: int
    seat: int | None  # the seat whose check failed; None for the host's own check
    detail: str


@dataclass(frozen=True, slots=True)
class GameRecord:
    game_id: bytes
    players: tuple[PlayerEntry, ...]
    restrict_last_bid: RestrictLastBid
    first_dealer: int
    rounds: tuple[RecordedRound, ...]
    complete: bool
    winners: tuple[int, ...]
    redeals: tuple[Redeal, ...] = ()
    verification_failures: tuple[VerificationFailure, ...] = ()
    extra: Mapping[str, Any] = field(default_factory=dict)  # fields other writers added
    protocol: str = PROTOCOL
    signing_keys: tuple[bytes, ...] = ()  # per seat, Ed25519 public keys (private deal only)
    stand_ins: tuple[StandIn, ...] = ()  # private deal: seats whose key changed, in order

    @property
    def private(self) -> bool:
        return self.protocol == PRIVATE_PROTOCOL

    @property
    def filename(self) -> str:
        return record_filename(self.game_id)

    def to_dict(self) -> dict[str, Any]:
        """The JSON-ready document of ``docs/record-format.md``."""
        doc: dict[str, Any] = {
            "format": FORMAT,
            "game_id": self.game_id.hex(),
            "protocol": self.protocol,
            "players": [{"name": p.name, "kind": p.kind} for p in self.players],
            "rules": {"restrict_last_bid": self.restrict_last_bid.value},
            "first_dealer": self.first_dealer,
            "rounds": [_round_to_dict(r) for r in self.rounds],
            "complete": self.complete,
            "winners": list(self.winners),
        }
        if self.private:
            doc["signing_keys"] = [k.hex() for k in self.signing_keys]
            if self.stand_ins:
                doc["stand_ins"] = [s.to_dict() for s in self.stand_ins]
        if self.redeals:
            doc["redeals"] = [d.to_dict() for d in self.redeals]
        if self.verification_failures:
            doc["verification_failures"] = [
                {"round": f.round, "seat": f.seat, "detail": f.detail}
                for f in self.verification_failures
            ]
        for key, value in self.extra.items():
            doc.setdefault(key, value)
        return doc


def _round_to_dict(r: RecordedRound) -> dict[str, Any]:
    doc: dict[str, Any] = {"round": r.round, "dealer": r.dealer}
    if r.private_deal is not None:
        doc["private_deal"] = r.private_deal.to_dict()
    else:
        doc["commitments"] = [c.hex() for c in r.commitments]
        doc["seeds"] = [s.hex() for s in r.seeds]
    doc |= {
        "hands": [list(h) for h in r.hands],
        "trump_card": r.trump_card,
        "trump_suit": None if r.trump_suit is None else r.trump_suit.label,
        "bids": list(r.bids),
        "tricks": [
            {"leader": t.leader, "plays": [list(p) for p in t.plays], "winner": t.winner}
            for t in r.tricks
        ],
        "tricks_won": list(r.tricks_won),
        "points": list(r.points),
        "totals": list(r.totals),
    }
    for key, value in r.extra.items():
        doc.setdefault(key, value)
    return doc


# --------------------------------------------------------------------------- building


def recorded_round(
    result: RoundResult,
    commitments: Sequence[bytes],
    seeds: Sequence[bytes],
    private_deal: PrivateDealRecord | None = None,
) -> RecordedRound:
    """One finished round of the engine, with the commitments and seeds that dealt it (or,
    privately dealt, with its setup and transcript and no commitments or seeds)."""
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
        tricks=tuple(RecordedTrick(t.leader, t.plays, t.winner) for t in result.tricks),
        tricks_won=result.tricks_won,
        points=result.points,
        totals=result.totals,
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

    def add_round(
        self, result: RoundResult, commitments: Sequence[bytes], seeds: Sequence[bytes]
    ) -> None:
        if result.round != len(self.rounds) + 1:
            raise ValueError(f"round {result.round} recorded after {len(self.rounds)} rounds")
        if self.protocol != PROTOCOL:
            raise ValueError("commitments and seeds recorded for a private deal")
        self.rounds.append(recorded_round(result, commitments, seeds))

    def add_private_round(
        self, result: RoundResult, setup: DealSetup, envelopes: Sequence[Envelope]
    ) -> None:
        """A privately dealt round: its setup and the relay's transcript of it."""
        if self.protocol != PRIVATE_PROTOCOL:
            raise ValueError("a private deal recorded in a commit-reveal game")
        if result.round != len(self.rounds) + 1:
            raise ValueError(f"round {result.round} recorded after {len(self.rounds)} rounds")
        deal = PrivateDealRecord(setup, tuple(envelopes))
        self.rounds.append(recorded_round(result, (), (), deal))

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
                actions=tuple((str(k), int(s), int(v)) for k, s, v in actions),
            )
        )

    def add_stand_in(self, round_number: int, attempt: int, seat: int, key: bytes | None) -> None:
        """Private deal: seat ``seat`` signs with ``key`` from this attempt on (None: with
        the player's own key again)."""
        self.stand_ins.append(StandIn(round_number, attempt, seat, key))

    def add_verification_failure(self, round_number: int, seat: int | None, detail: str) -> None:
        self.verification_failures.append(VerificationFailure(round_number, seat, detail))

    def record(self) -> GameRecord:
        """The record so far: ``complete`` once every round is in, ``winners`` then too."""
        complete = len(self.rounds) == rounds_for(self.config.players)
        return GameRecord(
            game_id=self.game_id,
            players=self.players,
            restrict_last_bid=self.config.restrict_last_bid,
            first_dealer=self.config.first_dealer,
            rounds=tuple(self.rounds),
            complete=complete,
            winners=tuple(winners(self.rounds[-1].totals)) if complete else (),
            redeals=tuple(self.redeals),
            verification_failures=tuple(self.verification_failures),
            protocol=self.protocol,
            signing_keys=self.signing_keys,
            stand_ins=tuple(self.stand_ins),
        )


# --------------------------------------------------------------------------- writing


def record_filename(game_id: bytes) -> str:
    return f"{game_id.hex()}.json"


def dumps_record(record: GameRecord | Mapping[str, Any]) -> str:
    """The record as JSON text: one line per trick, so a person can read it and diff it."""
    doc = record.to_dict() if isinstance(record, GameRecord) else record
    return _dump(doc, 0) + "\n"


def _dump(value: Any, level: int) -> str:
    flat = json.dumps(value, ensure_ascii=False)
    if not isinstance(value, dict | list) or _is_flat(value) or len(flat) <= 72:
        return flat
    pad = "  " * (level + 1)
    if isinstance(value, dict):
        items = [f"{pad}{json.dumps(k)}: {_dump(v, level + 1)}" for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + "  " * level + "}"
    items = [pad + _dump(v, level + 1) for v in value]
    return "[\n" + ",\n".join(items) + "\n" + "  " * level + "]"


def _is_flat(value: dict | list) -> bool:
    """Lists of numbers or of number pairs, and tricks, stay on one line."""
    if isinstance(value, dict):  # a trick, an envelope
        return ("plays" in value and "winner" in value) or ("sig" in value and "body" in value)
    return all(
        not isinstance(v, dict | list) or (isinstance(v, list) and _is_flat(v)) for v in value
    )


def write_record(
    directory: str | os.PathLike[str],
    record: GameRecord,
    *,
    name: str | None = None,
    fsync: bool = True,
) -> Path:
    """Write ``record`` as ``directory/<game_id hex>.json`` (or ``name``) atomically.

    The text goes to a temporary file beside the target, which then replaces it in one
    rename, so a reader never sees half a record, even if the host dies mid-write.
    ``fsync=False`` skips forcing the data to disk (for bulk simulation).
    """
    folder = Path(directory)
    target = folder / (name or record.filename)
    data = dumps_record(record).encode("utf-8")
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as out:
            # mkstemp makes the file private; a record holds only public data once written.
            os.fchmod(out.fileno(), 0o644)
            out.write(data)
            if fsync:
                out.flush()
                os.fsync(out.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return target


# --------------------------------------------------------------------------- reading


def read_record(path: str | os.PathLike[str]) -> GameRecord:
    """Read and parse one record file; every problem is a ``RecordError``, never a traceback."""
    try:
        with open(path, "rb") as f:
            data = f.read(MAX_RECORD_BYTES + 1)
    except IsADirectoryError:
        raise RecordError("unreadable", "is a directory, not a record file") from None
    except FileNotFoundError:
        raise RecordError("unreadable", "no such file") from None
    except OSError as exc:
        raise RecordError("unreadable", exc.strerror or str(exc)) from None
    if len(data) > MAX_RECORD_BYTES:
        raise RecordError("unreadable", f"larger than {MAX_RECORD_BYTES} bytes: not a record")
    return parse_record(loads_record(data))


def loads_record(data: bytes | str) -> object:
    """Decode JSON text, explaining empty, truncated or malformed documents."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise RecordError("json", f"not UTF-8 text (byte {exc.start})") from None
    if not data.strip():
        raise RecordError("json", "the file is empty")
    try:
        return json.loads(data)
    except json.JSONDecodeError as exc:
        # An unterminated string also means the text ran out before the string closed.
        if exc.pos >= len(data.rstrip()) or exc.msg.startswith("Unterminated string"):
            raise RecordError(
                "json", f"the JSON document ends early (truncated file?) at line {exc.lineno}"
            ) from None
        raise RecordError(
            "json", f"malformed JSON at line {exc.lineno}, column {exc.colno}: {exc.msg}"
        ) from None
    except (ValueError, RecursionError) as exc:
        raise RecordError("json", f"malformed JSON: {exc}") from None


_TOP_FIELDS = (
    "format",
    "game_id",
    "protocol",
    "players",
    "rules",
    "first_dealer",
    "rounds",
    "complete",
    "winners",
)
_ROUND_FIELDS = (
    "round",
    "dealer",
    "commitments",
    "seeds",
    "hands",
    "trump_card",
    "trump_suit",
    "bids",
    "tricks",
    "tricks_won",
    "points",
    "totals",
)
_PRIVATE_ROUND_FIELDS = tuple(
    "private_deal" if k == "commitments" else k for k in _ROUND_FIELDS if k != "seeds"
)
_EXTRA_TOP = ("redeals", "verification_failures")


class _Reader:
    """Typed access to untrusted JSON; every complaint names its JSON path and place."""

    def __init__(self, round_number: int | None = None) -> None:
        self.round = round_number

    def fail(self, rule: str, detail: str, **where: int | None) -> RecordError:
        return RecordError(rule, detail, round=where.pop("round", self.round), **where)

    def obj(self, value: object, path: str, **where: int | None) -> dict[str, Any]:
        if type(value) is not dict:
            raise self.fail(
                "wrong-type", f"{path} must be an object, found {_kind(value)}", **where
            )
        return value

    def get(self, obj: dict[str, Any], key: str, path: str, **where: int | None) -> Any:
        if key not in obj:
            raise self.fail("missing-field", f"{path} has no field {key!r}", **where)
        return obj[key]

    def integer(self, value: object, path: str, **where: int | None) -> int:
        if type(value) is not int:
            raise self.fail(
                "wrong-type", f"{path} must be an integer, found {_show(value)}", **where
            )
        return value

    def seat(self, value: object, n: int, path: str, **where: int | None) -> int:
        seat = self.integer(value, path, **where)
        if not 0 <= seat < n:
            raise self.fail("bad-value", f"{path} is {seat}, not a seat 0..{n - 1}", **where)
        return seat

    def card(self, value: object, path: str, **where: int | None) -> int:
        card = self.integer(value, path, **where)
        if not 0 <= card < DECK_SIZE:
            raise self.fail("bad-value", f"{path} is {card}, not a card id 0..59", **where)
        return card

    def string(self, value: object, path: str, **where: int | None) -> str:
        if type(value) is not str:
            raise self.fail("wrong-type", f"{path} must be a string, found {_show(value)}", **where)
        return value

    def hexbytes(self, value: object, size: int, path: str, **where: int | None) -> bytes:
        text = self.string(value, path, **where)
        if len(text) != 2 * size or not all(c in "0123456789abcdefABCDEF" for c in text):
            raise self.fail(
                "bad-value", f"{path} must be {2 * size} hex digits, found {_show(text)}", **where
            )
        return bytes.fromhex(text)

    def array(
        self, value: object, path: str, length: int | None = None, **where: int | None
    ) -> list[Any]:
        if type(value) is not list:
            raise self.fail("wrong-type", f"{path} must be a list, found {_kind(value)}", **where)
        if length is not None and len(value) != length:
            raise self.fail(
                "wrong-length", f"{path} has {len(value)} entries, expected {length}", **where
            )
        return value

    def per_seat(self, value: object, n: int, path: str) -> list[Any]:
        return self.array(value, path, n)


def parse_record(doc: object) -> GameRecord:
    """Check a decoded JSON value against the record format and return it typed.

    Checks shapes, types, hex lengths, enum values, per-seat list lengths and id ranges;
    not whether the game was played by the rules (``wizard_tui.verify`` does that).
    """
    rd = _Reader()
    top = rd.obj(doc, "the record")
    fmt = rd.get(top, "format", "the record")
    if fmt != FORMAT:
        raise RecordError("format", f"format is {_show(fmt)}, expected {FORMAT!r}")
    for key in _TOP_FIELDS:
        rd.get(top, key, "the record")
    protocol = top["protocol"]
    if protocol not in PROTOCOLS:
        expected = " or ".join(map(repr, PROTOCOLS))
        raise RecordError("protocol", f"protocol is {_show(protocol)}, expected {expected}")
    private = protocol == PRIVATE_PROTOCOL
    game_id = rd.hexbytes(top["game_id"], GAME_ID_BYTES, "game_id")

    players_raw = rd.array(top["players"], "players")
    players = []
    for seat, raw in enumerate(players_raw):
        p = rd.obj(raw, f"players[{seat}]", seat=seat)
        name = rd.string(rd.get(p, "name", f"players[{seat}]", seat=seat), f"players[{seat}].name")
        kind = rd.get(p, "kind", f"players[{seat}]", seat=seat)
        if kind not in PLAYER_KINDS:
            raise RecordError(
                "bad-value", f"players[{seat}].kind is {_show(kind)}, not human or bot", seat=seat
            )
        players.append(PlayerEntry(name, kind))
    n = len(players)
    if not 3 <= n <= 6:
        raise RecordError("players", f"{n} players: Wizard is played by 3 to 6")

    rules = rd.obj(top["rules"], "rules")
    restrict_raw = rd.get(rules, "restrict_last_bid", "rules")
    try:
        restrict = RestrictLastBid(restrict_raw)
    except ValueError:
        choices = ", ".join(m.value for m in RestrictLastBid)
        raise RecordError(
            "bad-value", f"rules.restrict_last_bid is {_show(restrict_raw)}, not one of {choices}"
        ) from None

    first_dealer = rd.seat(top["first_dealer"], n, "first_dealer")
    signing_keys: tuple[bytes, ...] = ()
    if private:
        keys_raw = rd.per_seat(rd.get(top, "signing_keys", "the record"), n, "signing_keys")
        signing_keys = tuple(
            rd.hexbytes(k, SIGNING_KEY_BYTES, f"signing_keys[{s}]", seat=s)
            for s, k in enumerate(keys_raw)
        )
    rounds = tuple(
        _parse_round(raw, i, n, private) for i, raw in enumerate(rd.array(top["rounds"], "rounds"))
    )
    complete = top["complete"]
    if type(complete) is not bool:
        raise RecordError("wrong-type", f"complete must be true or false, found {_show(complete)}")
    winners_raw = rd.array(top["winners"], "winners")
    winner_seats = tuple(rd.seat(w, n, f"winners[{i}]") for i, w in enumerate(winners_raw))

    redeals = _parse_redeals(top.get("redeals", []), n, private)
    failures = _parse_failures(top.get("verification_failures", []), n)
    stand_ins = _parse_stand_ins(top.get("stand_ins", []), n) if private else ()
    known = (*_TOP_FIELDS, *_EXTRA_TOP, *(("signing_keys", "stand_ins") if private else ()))
    extra = {k: v for k, v in top.items() if k not in known}
    return GameRecord(
        game_id=game_id,
        players=tuple(players),
        restrict_last_bid=restrict,
        first_dealer=first_dealer,
        rounds=rounds,
        complete=complete,
        winners=winner_seats,
        redeals=redeals,
        verification_failures=failures,
        extra=extra,
        protocol=protocol,
        signing_keys=signing_keys,
        stand_ins=stand_ins,
    )


def _parse_stand_ins(raw: object, n: int) -> tuple[StandIn, ...]:
    rd = _Reader()
    out = []
    for i, entry in enumerate(rd.array(raw, "stand_ins")):
        at = f"stand_ins[{i}]"
        d = rd.obj(entry, at)
        for key in ("round", "attempt", "seat", "key"):
            rd.get(d, key, at)
        key_hex = d["key"]
        out.append(
            StandIn(
                rd.integer(d["round"], f"{at}.round"),
                rd.integer(d["attempt"], f"{at}.attempt"),
                rd.seat(d["seat"], n, f"{at}.seat"),
                None if key_hex is None else rd.hexbytes(key_hex, SIGNING_KEY_BYTES, f"{at}.key"),
            )
        )
    return tuple(out)


def _parse_round(raw: object, index: int, n: int, private: bool = False) -> RecordedRound:
    at = f"rounds[{index}]"
    rd = _Reader(index + 1)  # failures name the round by its position in the list
    r = rd.obj(raw, at)
    fields = _PRIVATE_ROUND_FIELDS if private else _ROUND_FIELDS
    for key in fields:
        rd.get(r, key, at)
    number = rd.integer(r["round"], f"{at}.round")
    dealer = rd.seat(r["dealer"], n, f"{at}.dealer")

    def seat_list(key: str) -> list[Any]:
        return rd.per_seat(r[key], n, f"{at}.{key}")

    commitments: tuple[bytes, ...] = ()
    seeds: tuple[bytes, ...] = ()
    private_deal = None
    if private:
        private_deal = _parse_private_deal(rd, r["private_deal"], f"{at}.private_deal")
    else:
        commitments = tuple(
            rd.hexbytes(c, HASH_BYTES, f"{at}.commitments[{s}]", seat=s)
            for s, c in enumerate(seat_list("commitments"))
        )
        seeds = tuple(
            rd.hexbytes(c, HASH_BYTES, f"{at}.seeds[{s}]", seat=s)
            for s, c in enumerate(seat_list("seeds"))
        )
    hands = tuple(
        tuple(
            rd.card(c, f"{at}.hands[{s}][{k}]", seat=s)
            for k, c in enumerate(rd.array(h, f"{at}.hands[{s}]", seat=s))
        )
        for s, h in enumerate(seat_list("hands"))
    )
    trump_card = None if r["trump_card"] is None else rd.card(r["trump_card"], f"{at}.trump_card")
    suit_raw = r["trump_suit"]
    if suit_raw is None:
        trump_suit = None
    elif suit_raw in SUIT_NAMES:
        trump_suit = Suit(SUIT_NAMES.index(suit_raw))
    else:
        raise rd.fail(
            "bad-value",
            f"{at}.trump_suit is {_show(suit_raw)}, not one of {', '.join(SUIT_NAMES)} or null",
        )

    def ints(key: str) -> tuple[int, ...]:
        return tuple(
            rd.integer(v, f"{at}.{key}[{s}]", seat=s) for s, v in enumerate(seat_list(key))
        )

    bids = ints("bids")
    tricks = []
    for t, raw_trick in enumerate(rd.array(r["tricks"], f"{at}.tricks")):
        tat = f"{at}.tricks[{t}]"
        trick = rd.obj(raw_trick, tat, trick=t + 1)
        leader = rd.seat(rd.get(trick, "leader", tat, trick=t + 1), n, f"{tat}.leader", trick=t + 1)
        plays = []
        for k, play in enumerate(
            rd.array(rd.get(trick, "plays", tat, trick=t + 1), f"{tat}.plays")
        ):
            pat = f"{tat}.plays[{k}]"
            pair = rd.array(play, pat, 2, trick=t + 1)
            seat = rd.seat(pair[0], n, f"{pat}[0]", trick=t + 1)
            plays.append((seat, rd.card(pair[1], f"{pat}[1]", trick=t + 1, seat=seat)))
        winner = rd.seat(rd.get(trick, "winner", tat, trick=t + 1), n, f"{tat}.winner", trick=t + 1)
        tricks.append(RecordedTrick(leader, tuple(plays), winner))
    return RecordedRound(
        round=number,
        dealer=dealer,
        commitments=commitments,
        seeds=seeds,
        hands=hands,
        trump_card=trump_card,
        trump_suit=trump_suit,
        bids=bids,
        tricks=tuple(tricks),
        tricks_won=ints("tricks_won"),
        points=ints("points"),
        totals=ints("totals"),
        extra={k: v for k, v in r.items() if k not in fields},
        private_deal=private_deal,
    )


def _parse_private_deal(rd: _Reader, raw: object, at: str) -> PrivateDealRecord:
    """``private_deal``: the setup (checked for shape here, against the game by
    ``verify``) and the envelopes (their signatures are ``verify``'s too)."""
    deal = rd.obj(raw, at)
    setup_raw = rd.obj(rd.get(deal, "setup", at), f"{at}.setup")
    try:
        setup = DealSetup.from_json(setup_raw)
    except ProtocolError as exc:
        raise rd.fail("bad-value", f"{at}.setup: {exc.message}") from None
    envelopes = []
    for i, env in enumerate(rd.array(rd.get(deal, "envelopes", at), f"{at}.envelopes")):
        try:
            envelopes.append(Envelope.from_json(env))
        except ProtocolError as exc:
            raise rd.fail("bad-value", f"{at}.envelopes[{i}]: {exc.message}") from None
    return PrivateDealRecord(setup, tuple(envelopes))


def _parse_redeals(raw: object, n: int, private: bool = False) -> tuple[Redeal, ...]:
    rd = _Reader()
    out = []
    for i, entry in enumerate(rd.array(raw, "redeals")):
        at = f"redeals[{i}]"
        d = rd.obj(entry, at)
        if private:
            out.append(_parse_private_redeal(rd, d, at, n))
            continue
        for key in ("round", "attempt", "reason", "commitments", "seeds"):
            rd.get(d, key, at)
        round_number = rd.integer(d["round"], f"{at}.round")
        commitments = tuple(
            rd.hexbytes(c, HASH_BYTES, f"{at}.commitments[{s}]", round=round_number, seat=s)
            for s, c in enumerate(rd.array(d["commitments"], f"{at}.commitments", n))
        )
        seeds = tuple(
            None
            if s is None
            else rd.hexbytes(s, HASH_BYTES, f"{at}.seeds[{k}]", round=round_number, seat=k)
            for k, s in enumerate(rd.array(d["seeds"], f"{at}.seeds", n))
        )
        out.append(
            Redeal(
                round_number,
                rd.integer(d["attempt"], f"{at}.attempt"),
                rd.string(d["reason"], f"{at}.reason"),
                commitments,
                seeds,
            )
        )
    return tuple(out)


def _parse_private_redeal(rd: _Reader, d: dict[str, Any], at: str, n: int) -> Redeal:
    """A voided attempt of a private deal (docs/private-deal.md section 11)."""
    for key in ("round", "attempt", "reason", "private_deal", "fault", "culprit"):
        rd.get(d, key, at)
    round_number = rd.integer(d["round"], f"{at}.round")
    fault = d["fault"]
    if fault is not None:
        fault = rd.string(fault, f"{at}.fault")
    culprit = d["culprit"]
    if culprit is not None:
        culprit = rd.integer(culprit, f"{at}.culprit")
        if not -1 <= culprit < n:
            raise rd.fail("bad-value", f"{at}.culprit is {culprit}: a seat, or -1 (the relay)")
    evidence = None
    if d.get("evidence") is not None:
        try:
            evidence = Envelope.from_json(d["evidence"])
        except ProtocolError as exc:
            raise rd.fail("bad-value", f"{at}.evidence: {exc.message}") from None
    actions = []
    for k, raw in enumerate(rd.array(d.get("actions", []), f"{at}.actions")):
        item = rd.array(raw, f"{at}.actions[{k}]")
        if len(item) != 3 or item[0] not in ("trump", "bid"):
            raise rd.fail("bad-value", f"{at}.actions[{k}] is not [trump|bid, seat, value]")
        actions.append(
            (
                item[0],
                rd.seat(item[1], n, f"{at}.actions[{k}][1]"),
                rd.integer(item[2], f"{at}.actions[{k}][2]"),
            )
        )
    return Redeal(
        round_number,
        rd.integer(d["attempt"], f"{at}.attempt"),
        rd.string(d["reason"], f"{at}.reason"),
        private_deal=_parse_private_deal(rd, d["private_deal"], f"{at}.private_deal"),
        fault=fault,
        culprit=culprit,
        evidence=evidence,
        actions=tuple(actions),
    )


def _parse_failures(raw: object, n: int) -> tuple[VerificationFailure, ...]:
    rd = _Reader()
    out = []
    for i, entry in enumerate(rd.array(raw, "verification_failures")):
        at = f"verification_failures[{i}]"
        f = rd.obj(entry, at)
        for key in ("round", "seat", "detail"):
            rd.get(f, key, at)
        seat = None if f["seat"] is None else rd.seat(f["seat"], n, f"{at}.seat")
        out.append(
            VerificationFailure(
                rd.integer(f["round"], f"{at}.round"), seat, rd.string(f["detail"], f"{at}.detail")
            )
        )
    return tuple(out)


def _kind(value: object) -> str:
    names = {dict: "an object", list: "a list", str: "a string", bool: "a boolean"}
    if value is None:
        return "null"
    return names.get(type(value), f"the number {value!r}" if type(value) in (int, float) else "?")


def _show(value: object) -> str:
    """A short, safe rendering of an unexpected value for an error message."""
    text = json.dumps(value, ensure_ascii=True) if _jsonable(value) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _jsonable(value: object) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return True
