"""The host's journal facts: one typed entry per kind the host journals, with its msgpack form.

This is the journal's schema, in one place. ``journal.py`` frames and checksums the maps;
this module says what is inside them. The live host builds a fact, journals ``to_wire()``
and applies the fact to its table; ``restore.py`` reads the maps back with ``parse_fact``
and applies the very same facts through the same code (the deal kinds' ``apply``), so a
restored table is the live one replayed, not re-implemented. (``bin`` is raw bytes.)

=================  ============================================================================
``game``           first entry (``GameHeader``): ``v`` (1), ``game_id`` bin 16, ``created``
                   (unix time), ``config`` {``players``, ``first_dealer``, ``restrict``},
                   ``seats`` [one per seat: {``name``, ``kind``, ``level`` (bots), ``session``
                   {``id``, ``token``, ``key`` bin 32} or nil}], ``host`` {``bind``, ``port``,
                   ``records_dir``, ``bot_level``, ``bot_delay``, ``takeover_after``,
                   ``password`` (bool), ``turn_time``}; a private game adds ``deal``
                   ``"private"`` and ``private`` {``signing_keys`` [bin 32 per seat],
                   ``bot_keys`` [[seat, Ed25519 private key bin 32], ...]}
``round``          commit-reveal: a round's deal begins (``RoundBegan``): ``round``, ``local``
                   [[seat, seed bin 32], ...] (the seeds the host drew)
``commit``         a remote seat's commitment was accepted: ``round``, ``seat``, ``commitment``
``commitments``    the vector was published: ``round``, ``commitments`` [bin 32]
``seed``           a remote seat's seed was accepted: ``round``, ``seat``, ``seed``
``action``         an accepted action: ``round``, ``a`` (``trump`` | ``bid`` | ``play``),
                   ``seat``, ``v``, ``by`` (``human`` | ``bot`` | ``stand_in``)
``bid_seal``       hidden bids: a seat's seal was accepted: ``round``, ``attempt``, ``seat``,
                   ``seal`` bin 32, ``by``; a bid the host decided adds ``bid``, ``nonce`` bin
                   32 and ``replaces`` (a stand-in's bid in place of a seal never opened)
``bid_open``       hidden bids: a player's program opened its seal: ``round``, ``attempt``,
                   ``seat``, ``bid``, ``nonce`` bin 32
``round_end``      a round was scored: ``round``, ``totals``
``redeal``         the round's deal was thrown away: ``round``, ``reason``, ``commitments``
                   (nil if never published), ``seeds`` [bin | nil] (nil likewise)
``attempt``        private deal: an attempt of a round is dealt: ``round``, ``attempt``,
                   ``keys`` (the signing keys it uses: a stand-in's differ from the game's)
``void``           the attempt was voided: ``round``, ``attempt``, ``reason``, ``fault``,
                   ``culprit``, ``evidence`` (envelope or nil), ``actions``, ``envelopes``
``charge``         a seat pays for a void: ``round``, ``attempt``, ``seat``, ``why``
``private_round``  the attempt was verified and scored: ``round``, ``attempt``, ``deck`` (the
                   opened deck, in deal order), ``actions`` [[kind, seat, value]],
                   ``envelopes`` (its transcript, as recorded)
``game_over``      ``totals``, ``winners``: written when the host closes after the end
=================  ============================================================================

The on-disk form is the one every earlier version wrote, so old journals still resume.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, TypeAlias

from netplay.signing import Envelope, SigningKey

from ..game import GameConfig, RestrictLastBid, TableRules, action_from_wire, action_to_wire
from ..game.codec import PlayerAction
from ..record import PlayerEntry

VERSION = 1
COMMIT_REVEAL = "commit-reveal"  # a header without ``deal`` (every journal before private games)
PRIVATE = "private"

Decider = Literal["human", "bot", "stand_in"]


class FactError(ValueError):
    """A map that is not the fact its type names."""


def _bytes(value: Any, size: int | None = None) -> bytes:
    if type(value) is not bytes or (size is not None and len(value) != size):
        raise FactError(f"expected {size or 'some'} bytes, got {type(value).__name__}")
    return value


def _opt_envelope(value: Any) -> Envelope | None:
    return None if value is None else Envelope.from_wire(value)


# --------------------------------------------------------------------------- the header


@dataclass(frozen=True, slots=True)
class SeatEntry:
    name: str
    kind: str  # "human" | "bot"
    level: str | None = None  # bots
    session_id: str | None = None  # humans: what their client resumes with
    token: str | None = None
    key: bytes = b""

    def to_wire(self) -> dict[str, Any]:
        entry: dict[str, Any] = {"name": self.name, "kind": self.kind}
        if self.kind == "bot":
            entry["level"] = self.level
        if self.key and self.session_id is not None:
            entry["session"] = {"id": self.session_id, "token": self.token, "key": self.key}
        return entry


@dataclass(frozen=True, slots=True)
class GameHeader:
    """The ``game`` entry: who sits where, how their clients resume, how the game deals."""

    game_id: bytes
    created: float
    config: GameConfig
    seats: tuple[SeatEntry, ...]
    bind: str = ""
    port: int = 0
    records_dir: str | None = None
    bot_level: str = "normal"
    bot_delay: float = 0.0
    takeover_after: float | None = None
    password: bool = False
    deal: str = COMMIT_REVEAL
    turn_time: float | None = None  # (HostOptions.turn_time; absent from older journals)
    signing_keys: tuple[bytes, ...] = ()  # private deal: every seat's public key
    bot_keys: dict[int, bytes] = field(default_factory=dict)  # its host bots' private keys

    t: ClassVar[str] = "game"

    @property
    def players(self) -> tuple[PlayerEntry, ...]:
        return tuple(PlayerEntry(s.name, "bot" if s.kind == "bot" else "human") for s in self.seats)

    def to_wire(self) -> dict[str, Any]:
        game: dict[str, Any] = {
            "t": "game",
            "v": VERSION,
            "game_id": self.game_id,
            "created": self.created,
            "config": {
                "players": self.config.players,
                "first_dealer": self.config.first_dealer,
                "restrict": self.config.restrict_last_bid.value,
            },
            "seats": [s.to_wire() for s in self.seats],
            "host": {
                "bind": self.bind,
                "port": self.port,
                "records_dir": self.records_dir,
                "bot_level": self.bot_level,
                "bot_delay": self.bot_delay,
                "takeover_after": self.takeover_after,
                "password": self.password,
                "turn_time": self.turn_time,
            },
        }
        if self.config.rules != TableRules(self.config.restrict_last_bid):  # house rules on
            game["config"]["rules"] = self.config.rules.to_wire()
        if self.deal != COMMIT_REVEAL:  # (a commit-reveal entry is as it always was)
            game["deal"] = self.deal
        if self.signing_keys:  # a deal that signs (the private deal's keys)
            game["private"] = {
                "signing_keys": list(self.signing_keys),
                "bot_keys": [[i, k] for i, k in sorted(self.bot_keys.items())],
            }
        return game

    @classmethod
    def from_wire(cls, entry: Mapping[str, Any]) -> GameHeader:
        """The ``game`` entry; ``FactError`` (or KeyError/TypeError/ValueError) if it is
        not one."""
        if entry["t"] != "game":
            raise FactError("the journal does not start with its game")
        if entry["v"] != VERSION:
            raise FactError(f"journal version {entry['v']} (this program reads {VERSION})")
        c = entry["config"]
        rules = (
            TableRules.from_wire(c["rules"], c["players"])
            if "rules" in c
            else TableRules(RestrictLastBid(c["restrict"]))
        )
        config = GameConfig(c["players"], c["first_dealer"], rules)
        seats = []
        for s in entry["seats"]:
            session = s.get("session") or {}
            seats.append(
                SeatEntry(
                    name=str(s["name"]),
                    kind=s["kind"],
                    level=s.get("level"),
                    session_id=session.get("id"),
                    token=session.get("token"),
                    key=bytes(session.get("key", b"")),
                )
            )
        if len(seats) != config.players:
            raise FactError(f"{len(seats)} seats for {config.players} players")
        h = entry["host"]
        game_id = entry["game_id"]
        if type(game_id) is not bytes or len(game_id) != 16:
            raise FactError("the game id is not 16 bytes")
        deal = entry.get("deal", COMMIT_REVEAL)
        if type(deal) is not str:
            raise FactError("the deal is not a name")
        keys: tuple[bytes, ...] = ()
        bot_keys: dict[int, bytes] = {}
        if "private" in entry:
            keys, bot_keys = _private_keys(entry["private"], config.players)
        return cls(
            game_id=game_id,
            created=float(entry["created"]),
            config=config,
            seats=tuple(seats),
            bind=str(h.get("bind") or ""),
            port=int(h.get("port") or 0),
            records_dir=h.get("records_dir"),
            bot_level=str(h.get("bot_level") or "normal"),
            bot_delay=float(h.get("bot_delay") or 0.0),
            takeover_after=h.get("takeover_after"),
            password=bool(h.get("password")),
            turn_time=None if h.get("turn_time") is None else float(h["turn_time"]),
            deal=deal,
            signing_keys=keys,
            bot_keys=bot_keys,
        )


def _private_keys(raw: dict[str, Any], players: int) -> tuple[tuple[bytes, ...], dict[int, bytes]]:
    keys = tuple(bytes(k) for k in raw["signing_keys"])
    if len(keys) != players or any(len(k) != 32 for k in keys):
        raise FactError("the signing keys are not 32 bytes per seat")
    bot_keys = {int(seat): bytes(k) for seat, k in raw["bot_keys"]}
    for seat, k in bot_keys.items():
        if not 0 <= seat < players or SigningKey.from_private_bytes(k).public_key != keys[seat]:
            raise FactError(f"the bot key of seat {seat} is not its signing key")
    return keys, bot_keys


# --------------------------------------------------------------------------- commit-reveal


@dataclass(frozen=True, slots=True)
class RoundBegan:
    round: int
    local: tuple[tuple[int, bytes], ...]  # the seeds the host drew, by seat

    t: ClassVar[str] = "round"

    def to_wire(self) -> dict[str, Any]:
        return {"t": self.t, "round": self.round, "local": [[i, x] for i, x in self.local]}

    @classmethod
    def from_wire(cls, e: Mapping[str, Any]) -> RoundBegan:
        return cls(int(e["round"]), tuple((int(i), _bytes(x)) for i, x in e["local"]))


@dataclass(frozen=True, slots=True)
class CommitAccepted:
    round: int
    seat: int
    commitment: bytes

    t: ClassVar[str] = "commit"

    def to_wire(self) -> dict[str, Any]:
        return {"t": self.t, "round": self.round, "seat": self.seat, "commitment": self.commitment}

    @classmethod
    def from_wire(cls, e: Mapping[str, Any]) -> CommitAccepted:
        return cls(e["round"], e["seat"], _bytes(e["commitment"]))


@dataclass(frozen=True, slots=True)
class CommitmentsPublished:
    round: int
    commitments: tuple[bytes, ...]

    t: ClassVar[str] = "commitments"

    def to_wire(self) -> dict[str, Any]:
        return {"t": self.t, "round": self.round, "commitments": list(self.commitments)}

    @classmethod
    def from_wire(cls, e: Mapping[str, Any]) -> CommitmentsPublished:
        return cls(e["round"], tuple(_bytes(c) for c in e["commitments"]))


@dataclass(frozen=True, slots=True)
class SeedAccepted:
    round: int
    seat: int
    seed: bytes

    t: ClassVar[str] = "seed"

    def to_wire(self) -> dict[str, Any]:
        return {"t": self.t, "round": self.round, "seat": self.seat, "seed": self.seed}

    @classmethod
    def from_wire(cls, e: Mapping[str, Any]) -> SeedAccepted:
        return cls(e["round"], e["seat"], _bytes(e["seed"]))


@dataclass(frozen=True, slots=True)
class ActionTaken:
    round: int
    action: PlayerAction
    by: Decider

    t: ClassVar[str] = "action"

    def to_wire(self) -> dict[str, Any]:
        kind, seat, value = action_to_wire(self.action)
        return {
            "t": self.t,
            "round": self.round,
            "a": kind,
            "seat": seat,
            "v": value,
            "by": self.by,
        }

    @classmethod
    def from_wire(cls, e: Mapping[str, Any]) -> ActionTaken:
        by = e.get("by", "human")
        if by not in ("human", "bot", "stand_in"):
            raise FactError(f"unknown decider {by!r}")
        return cls(e["round"], action_from_wire([e["a"], e["seat"], e["v"]]), by)


@dataclass(frozen=True, slots=True)
class BidSealed:
    """Hidden bids (sealed_bids.py): a seat's seal was accepted. ``bid`` and ``nonce`` only
    for a bid the host decided (its bot's, or a stand-in's), which the host opens itself;
    ``replaces``: a stand-in's bid in place of a seal its player's program could not open."""

    round: int
    attempt: int
    seat: int
    seal: bytes
    by: Decider = "human"
    bid: int | None = None
    nonce: bytes | None = None
    replaces: bool = False

    t: ClassVar[str] = "bid_seal"

    def to_wire(self) -> dict[str, Any]:
        wire: dict[str, Any] = {
            "t": self.t,
            "round": self.round,
            "attempt": self.attempt,
            "seat": self.seat,
            "seal": self.seal,
            "by": self.by,
        }
        if self.bid is not None:
            wire |= {"bid": self.bid, "nonce": self.nonce, "replaces": self.replaces}
        return wire

    @classmethod
    def from_wire(cls, e: Mapping[str, Any]) -> BidSealed:
        by = e.get("by", "human")
        if by not in ("human", "bot", "stand_in"):
            raise FactError(f"unknown decider {by!r}")
        bid, nonce = e.get("bid"), e.get("nonce")
        if (bid is None) != (nonce is None) or (bid is not None and type(bid) is not int):
            raise FactError("a bid the host decided comes with its nonce")
        return cls(
            e["round"],
            e["attempt"],
            e["seat"],
            _bytes(e["seal"], 32),
            by,
            bid,
            None if nonce is None else _bytes(nonce, 32),
            e.get("replaces", False) is True,
        )


@dataclass(frozen=True, slots=True)
class BidOpened:
    """Hidden bids: a player's program opened its seal (every seal was in)."""

    round: int
    attempt: int
    seat: int
    bid: int
    nonce: bytes

    t: ClassVar[str] = "bid_open"

    def to_wire(self) -> dict[str, Any]:
        return {
            "t": self.t,
            "round": self.round,
            "attempt": self.attempt,
            "seat": self.seat,
            "bid": self.bid,
            "nonce": self.nonce,
        }

    @classmethod
    def from_wire(cls, e: Mapping[str, Any]) -> BidOpened:
        return cls(e["round"], e["attempt"], e["seat"], e["bid"], _bytes(e["nonce"], 32))


@dataclass(frozen=True, slots=True)
class RoundEnded:
    round: int
    totals: tuple[int, ...]

    t: ClassVar[str] = "round_end"

    def to_wire(self) -> dict[str, Any]:
        return {"t": self.t, "round": self.round, "totals": list(self.totals)}

    @classmethod
    def from_wire(cls, e: Mapping[str, Any]) -> RoundEnded:
        return cls(e["round"], tuple(e["totals"]))


@dataclass(frozen=True, slots=True)
class Redealt:
    """The round's deal was thrown away (a seat that had to reveal was taken over). Its
    map is also the ``redeal`` message every client is sent."""

    round: int
    reason: str
    commitments: tuple[bytes, ...] | None  # None: never published
    seeds: tuple[bytes | None, ...] | None

    t: ClassVar[str] = "redeal"

    def to_wire(self) -> dict[str, Any]:
        return {
            "t": self.t,
            "round": self.round,
            "reason": self.reason,
            "commitments": None if self.commitments is None else list(self.commitments),
            "seeds": None if self.seeds is None else list(self.seeds),
        }

    @classmethod
    def from_wire(cls, e: Mapping[str, Any]) -> Redealt:
        commitments = e["commitments"]
        seeds = e["seeds"]
        return cls(
            e["round"],
            str(e["reason"]),
            None if commitments is None else tuple(_bytes(c) for c in commitments),
            None if seeds is None else tuple(None if s is None else _bytes(s) for s in seeds),
        )


# --------------------------------------------------------------------------- the private deal


@dataclass(frozen=True, slots=True)
class AttemptBegan:
    round: int
    attempt: int
    keys: tuple[bytes, ...]

    t: ClassVar[str] = "attempt"

    def to_wire(self) -> dict[str, Any]:
        return {"t": self.t, "round": self.round, "attempt": self.attempt, "keys": list(self.keys)}

    @classmethod
    def from_wire(cls, e: Mapping[str, Any]) -> AttemptBegan:
        return cls(e["round"], e["attempt"], tuple(bytes(k) for k in e["keys"]))


@dataclass(frozen=True, slots=True)
class AttemptVoided:
    round: int
    attempt: int
    reason: str
    fault: str | None
    culprit: int | None
    evidence: Envelope | None
    actions: tuple[tuple[Any, ...], ...]  # its public trump and bid actions, [kind, seat, value]
    envelopes: tuple[Envelope, ...]

    t: ClassVar[str] = "void"

    def to_wire(self) -> dict[str, Any]:
        return {
            "t": self.t,
            "round": self.round,
            "attempt": self.attempt,
            "reason": self.reason,
            "fault": self.fault,
            "culprit": self.culprit,
            "evidence": None if self.evidence is None else self.evidence.to_wire(),
            "actions": [list(a) for a in self.actions],
            "envelopes": [e.to_wire() for e in self.envelopes],
        }

    @classmethod
    def from_wire(cls, e: Mapping[str, Any]) -> AttemptVoided:
        return cls(
            e["round"],
            e["attempt"],
            str(e["reason"]),
            e["fault"],
            e["culprit"],
            _opt_envelope(e["evidence"]),
            tuple(tuple(a) for a in e["actions"]),
            tuple(Envelope.from_wire(w) for w in e["envelopes"]),
        )


@dataclass(frozen=True, slots=True)
class SeatCharged:
    round: int
    attempt: int
    seat: int
    why: str  # record.VOIDED | record.UNREVEALED

    t: ClassVar[str] = "charge"

    def to_wire(self) -> dict[str, Any]:
        return {
            "t": self.t,
            "round": self.round,
            "attempt": self.attempt,
            "seat": self.seat,
            "why": self.why,
        }

    @classmethod
    def from_wire(cls, e: Mapping[str, Any]) -> SeatCharged:
        return cls(e["round"], e["attempt"], int(e["seat"]), e["why"])


@dataclass(frozen=True, slots=True)
class PrivateRoundScored:
    round: int
    attempt: int
    deck: tuple[int, ...]
    actions: tuple[PlayerAction, ...]
    envelopes: tuple[Envelope, ...]

    t: ClassVar[str] = "private_round"

    def to_wire(self) -> dict[str, Any]:
        return {
            "t": self.t,
            "round": self.round,
            "attempt": self.attempt,
            "deck": list(self.deck),
            "actions": [action_to_wire(a) for a in self.actions],
            "envelopes": [e.to_wire() for e in self.envelopes],
        }

    @classmethod
    def from_wire(cls, e: Mapping[str, Any]) -> PrivateRoundScored:
        return cls(
            e["round"],
            e["attempt"],
            tuple(e["deck"]),
            tuple(action_from_wire(a) for a in e["actions"]),
            tuple(Envelope.from_wire(w) for w in e["envelopes"]),
        )


# --------------------------------------------------------------------------- the end


@dataclass(frozen=True, slots=True)
class GameEnded:
    totals: tuple[int, ...]
    winners: tuple[int, ...]

    t: ClassVar[str] = "game_over"

    def to_wire(self) -> dict[str, Any]:
        return {"t": self.t, "totals": list(self.totals), "winners": list(self.winners)}

    @classmethod
    def from_wire(cls, e: Mapping[str, Any]) -> GameEnded:
        return cls(tuple(e["totals"]), tuple(e["winners"]))


Fact: TypeAlias = (
    RoundBegan
    | CommitAccepted
    | CommitmentsPublished
    | SeedAccepted
    | ActionTaken
    | BidSealed
    | BidOpened
    | RoundEnded
    | Redealt
    | AttemptBegan
    | AttemptVoided
    | SeatCharged
    | PrivateRoundScored
    | GameEnded
)

_PARSERS: dict[str, Callable[[Mapping[str, Any]], Fact]] = {
    cls.t: cls.from_wire
    for cls in (
        RoundBegan,
        CommitAccepted,
        CommitmentsPublished,
        SeedAccepted,
        ActionTaken,
        BidSealed,
        BidOpened,
        RoundEnded,
        Redealt,
        AttemptBegan,
        AttemptVoided,
        SeatCharged,
        PrivateRoundScored,
        GameEnded,
    )
}


def parse_fact(entry: Mapping[str, Any]) -> Fact:
    """The fact a journal map (after the header) holds. Raises ``FactError``, KeyError,
    TypeError or ValueError (and ``ProtocolError`` for a malformed envelope) if it is none."""
    parser = _PARSERS.get(entry["t"])
    if parser is None:
        raise FactError(f"unknown entry {entry['t']!r}")
    return parser(entry)


def fact_kinds() -> tuple[str, ...]:
    """Every entry type after the header, as journaled."""
    return tuple(_PARSERS)


def actions_of(facts: Sequence[Fact]) -> list[ActionTaken]:
    """The action facts among ``facts`` (what ``wizard-tui games`` and tests look at)."""
    return [f for f in facts if isinstance(f, ActionTaken)]


__all__ = [
    "COMMIT_REVEAL",
    "PRIVATE",
    "VERSION",
    "ActionTaken",
    "AttemptBegan",
    "AttemptVoided",
    "BidOpened",
    "BidSealed",
    "CommitAccepted",
    "CommitmentsPublished",
    "Decider",
    "Fact",
    "FactError",
    "GameEnded",
    "GameHeader",
    "PrivateRoundScored",
    "Redealt",
    "RoundBegan",
    "RoundEnded",
    "SeatCharged",
    "SeatEntry",
    "SeedAccepted",
    "fact_kinds",
    "parse_fact",
]
