"""The typed game record: its constants, its parts and ``GameRecord``, each able to say
itself as the JSON of ``docs/record-format.md`` (``to_dict``), and ``RecordError``."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from netplay.mental import PROTOCOL as PRIVATE_PROTOCOL
from netplay.mental import DealSetup
from netplay.signing import Envelope

from ..game import PlayerAction, RestrictLastBid, Suit, TableRules, actions_to_wire
from ..i18n import SOURCE_LANGUAGE, _, language
from ..phrase import Phrase

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
    ``detail`` may be given as a ``Phrase`` (``wizard_tui/phrase.py``): ``detail`` is then its
    English (what records, logs and ``str`` keep) and ``said`` the phrase, which ``shown()``
    says in the language spoken.
    """

    def __init__(
        self,
        rule: str,
        detail: str | Phrase,
        *,
        round: int | None = None,
        trick: int | None = None,
        seat: int | None = None,
        culprit: int | None = None,
    ) -> None:
        self.said = detail if isinstance(detail, Phrase) else None
        detail = detail.english() if isinstance(detail, Phrase) else detail
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

    def shown(self) -> str:
        """``str(self)`` in the language spoken: the place and the detail translated (a
        detail given as plain text shows as it is); the rule code stays, it is a code. In
        English it is ``str(self)``, byte for byte (netplay's own words included)."""
        if language() == SOURCE_LANGUAGE:
            return str(self)
        parts = []
        if self.round is not None:
            parts.append(_("round {round}").format(round=self.round))
        if self.trick is not None:
            parts.append(_("trick {trick}").format(trick=self.trick))
        if self.seat is not None:
            parts.append(_("seat {seat}").format(seat=self.seat))
        detail = self.detail if self.said is None else self.said.shown()
        where = ", ".join(parts)
        return f"{where}: {self.rule}: {detail}" if where else f"{self.rule}: {detail}"

    def __repr__(self) -> str:
        return (
            f"RecordError({self.rule!r}, {self.detail!r}, round={self.round}, "
            f"trick={self.trick}, seat={self.seat})"
        )


# An action a voided private attempt records: [kind, seat, value] (docs/record-format.md).
RedealAction = tuple[str, int, int | tuple[int, int] | None]


def redeal_action(kind: str, seat: int, value: Any) -> RedealAction:
    """A recorded action from its wire form: a swap's [give, take] (or null), else an int."""
    if kind == "swap":
        if value is None:
            return (kind, int(seat), None)
        give, take = value
        return (kind, int(seat), (int(give), int(take)))
    return (str(kind), int(seat), int(value))


def redeal_action_wire(action: RedealAction) -> list[Any]:
    """The wire form of a recorded action (``action_from_wire`` reads it)."""
    kind, seat, value = action
    return [kind, seat, list(value) if isinstance(value, tuple) else value]


@dataclass(frozen=True, slots=True)
class PlayerEntry:
    name: str
    kind: PlayerKind


@dataclass(frozen=True, slots=True)
class RecordedTrick:
    leader: int
    plays: tuple[tuple[int, int], ...]  # (seat, card) in play order
    winner: int  # a bombed trick: the seat the rules name in its place (it leads next)
    bombed: bool = False  # special cards: a Bomb was in it, so nobody took it


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
    # Special cards only (rules.specials; docs/record-format.md): the card turned up at the
    # deal (``trump_card`` is then the card on the table: 63 after a Werewolf's swap), and
    # every seat action of the round in order. ``actions`` is None in a plain game's round.
    turned_card: int | None = None
    actions: tuple[PlayerAction, ...] | None = None

    @property
    def special(self) -> bool:
        """A round of a game with special cards: it holds its actions."""
        return self.actions is not None

    def to_dict(self) -> dict[str, Any]:
        """The round as it stands in a record's ``rounds``."""
        return _round_to_dict(self)


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
    # Its trump choice and bids, in order (with special cards every action: a swap's value
    # is (give, take), or None for a kept hand).
    actions: tuple[RedealAction, ...] = ()

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
            "actions": [redeal_action_wire(a) for a in self.actions],
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


VOIDED = "void"  # Charge.why: the seat voided this attempt
UNREVEALED = "unrevealed"  # Charge.why: every card was played; the seat withheld its reveal
CHARGE_REASONS = (VOIDED, UNREVEALED)


@dataclass(frozen=True, slots=True)
class Charge:
    """Private deal: seat ``seat`` pays for attempt ``attempt`` of round ``round``
    (docs/rules.md, "Voided deals"; docs/private-deal.md section 10): it voided it
    (``why == "void"``), or withheld its reveal once every card was played
    (``"unrevealed"``, the round scored from the opens)."""

    round: int
    attempt: int
    seat: int
    why: str

    def to_dict(self) -> dict[str, Any]:
        return {"round": self.round, "attempt": self.attempt, "seat": self.seat, "why": self.why}


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
    rules: TableRules
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
    charges: tuple[Charge, ...] = ()  # private deal: who paid for a void, in order

    @property
    def private(self) -> bool:
        return self.protocol == PRIVATE_PROTOCOL

    @property
    def restrict_last_bid(self) -> RestrictLastBid:
        return self.rules.restrict_last_bid

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
            "rules": self.rules.to_wire(),
            "first_dealer": self.first_dealer,
            "rounds": [_round_to_dict(r) for r in self.rounds],
            "complete": self.complete,
            "winners": list(self.winners),
        }
        if self.private:
            doc["signing_keys"] = [k.hex() for k in self.signing_keys]
            if self.stand_ins:
                doc["stand_ins"] = [s.to_dict() for s in self.stand_ins]
            if self.charges:
                doc["charges"] = [c.to_dict() for c in self.charges]
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
    doc["hands"] = [list(h) for h in r.hands]
    if r.actions is not None:
        doc["turned_card"] = r.turned_card
    doc |= {
        "trump_card": r.trump_card,
        "trump_suit": None if r.trump_suit is None else r.trump_suit.label,
        "bids": list(r.bids),
    }
    if r.actions is not None:
        doc["actions"] = actions_to_wire(r.actions)
    doc |= {
        "tricks": [_trick_to_dict(t) for t in r.tricks],
        "tricks_won": list(r.tricks_won),
        "points": list(r.points),
        "totals": list(r.totals),
    }
    for key, value in r.extra.items():
        doc.setdefault(key, value)
    return doc


def _trick_to_dict(t: RecordedTrick) -> dict[str, Any]:
    doc: dict[str, Any] = {"leader": t.leader, "plays": [list(p) for p in t.plays]}
    doc["winner"] = t.winner
    if t.bombed:  # only ever in a game with the Bomb: a plain trick stays as it was
        doc["bombed"] = True
    return doc


def record_filename(game_id: bytes) -> str:
    return f"{game_id.hex()}.json"
