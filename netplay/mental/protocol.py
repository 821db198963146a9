"""The private deal of one round, as sans-I/O state machines: a player, a verifier, a relay.

Protocol ``private-sra-x25519-v1`` (docs/private-deal.md). Every message is a body
(msgpack) in an Ed25519 ``Envelope`` signed by its sender over the round's context;
the relay (the host) forwards envelopes byte for byte and never holds a key.

* ``Verifier`` is one party's view of the round: it checks each envelope as it
  arrives (signature, per-sender sequence, shape, turn, hash chain, canonical and
  distinct values) and, once every player has revealed its round keys, the whole round.
  The first failure raises ``DealFault`` naming the culprit: a seat, or ``RELAY``
  when a relayed view received something an honest relay would have refused.
* ``DealPlayer`` is one seat: its keys, its passes when its turn comes, its key
  releases, its hand, its plays and its reveal. It verifies everything it receives.
* ``DealRelay`` is the host's forwarding side: the first verifier of every envelope
  and the keeper of the transcript. It holds no keys, and so never more than every
  other player sees.

All calls return a list of events; ``Send`` events carry envelopes to transmit.
Nothing here knows about cards: items are 0..N-1 and deck positions are assigned to
seats (or face up) by ``DealSetup.owners``.
"""

from __future__ import annotations

import enum
import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, cast

import msgpack

from ..errors import ProtocolError
from ..framing import decode_payload
from ..schema import Bin, Field, Int, List, Message, Schemas
from ..signing import (
    BAD_SIGNATURE,
    EQUIVOCATION,
    PUBLIC_KEY_BYTES,
    SEQ_GAP,
    SEQ_REPLAY,
    UNKNOWN_SENDER,
    Envelope,
    EnvelopeError,
    Opener,
    Sealer,
    SigningKey,
)
from . import moves, sra

PROTOCOL = "private-sra-x25519-v1"
MESSAGE_TAG = b"netplay/private-deal/v1/message"
SETUP_TAG = b"netplay/private-deal/v1/setup"
DECK_TAG = b"netplay/private-deal/v1/deck"
GAME_ID_BYTES = 16
MAX_SEATS = 64

PUBLIC = 0xFF
"""``owners`` value of a position turned face up (Wizard's trump card): everyone opens it."""
UNDEALT = 0xFE
# ``VEILED | j``: dealt to seat ``j`` but open to every other seat and never to ``j`` until
# it plays it ("open to all but one"; docs/private-deal.md section 15).
VEILED = 0x80
"""``owners`` value of a position nobody receives this round."""
RELAY = -1
"""``DealFault.culprit`` when the relay delivered what an honest relay would have refused."""

# -- fault codes (DealFault.code) ------------------------------------------------------------
# Envelope checks, from netplay.signing: bad_signature, unknown_sender, seq_gap, seq_replay,
# equivocation, bad_envelope; and:
WRONG_SENDER = "wrong_sender"  # the relay got an envelope signed for another seat
MALFORMED = "malformed"  # the body is not a message of this protocol
OUT_OF_ORDER = "out_of_order"  # a valid message at a moment the protocol does not allow
NOT_YOUR_TURN = "not_your_turn"  # a pass signed by a seat the chain does not name for it
CHAIN_MISMATCH = "chain_mismatch"  # a message names a deck other than the one we hold
BAD_DECK = "bad_deck"  # a deck of the wrong size, or with a non-canonical value
DUPLICATE_VALUE = "duplicate_value"  # a deck that holds one value twice
BAD_RELEASE = "bad_release"  # the wrong positions, or a key that is not clamped
NOT_OWNER = "not_owner"  # a play of a position dealt to someone else
ALREADY_OPEN = "already_open"  # a play of a position already open
WRONG_CLAIM = "wrong_claim"  # a play that opens to another item than the one claimed
BAD_ROUND_KEY = "bad_round_key"  # a revealed key that is not clamped or has no inverse
SHUFFLE_MISMATCH = "shuffle_mismatch"  # a shuffle pass is not a permutation of the input
LOCK_MISMATCH = "lock_mismatch"  # a lock pass differs from its keys at a position
RELEASED_KEY_MISMATCH = "released_key_mismatch"  # a released key is not the revealed one's
PLAYED_KEY_MISMATCH = "played_key_mismatch"  # a played key is not the revealed one's
NOT_A_DECK = "not_a_deck"  # the final deck does not open to a permutation (cannot happen
# when every pass checked out; kept so that no inconsistency passes silently)

# Suspect codes: found inside the round; whom to blame is known once keys are revealed.
NOT_AN_ITEM = "not_an_item"
DUPLICATE_ITEM = "duplicate_item"
VEIL_MISMATCH = "veil_mismatch"  # a veil pass is not its input under the sender's keys
NOT_UNVEILER = "not_unveiler"  # an unveil of a position by a seat the setup does not name
OWN_COLLISION = "own_collision"  # our own pass would repeat a value: an earlier pass cheated
# Cards that change hands (section 16): gifts, and held positions shown to everyone.
BAD_INBOX = "bad_inbox"  # a second inbox, or one that is not a canonical value
BAD_GIFT = "bad_gift"  # a give to itself or to no seat
ALREADY_GIVEN = "already_given"  # a second give, or unlock, of one seat in one pass
BAD_UNLOCK = "bad_unlock"  # an unlock that does not open its give's commitment
INBOX_MISMATCH = "inbox_mismatch"  # round end: an inbox key is not the revealed one's
GIFT_MISMATCH = "gift_mismatch"  # round end: a sealed gift holds no item for its recipient


class DealFault(ProtocolError):
    """A check of the private deal failed; ``culprit`` is the seat to blame, ``RELAY``,
    or None when no party can be named. ``evidence`` is the envelope that shows it (its
    sender's signature makes it proof for anyone holding the setup)."""

    def __init__(
        self,
        code: str,
        detail: str,
        *,
        culprit: int | None,
        evidence: Envelope | None = None,
        pass_index: int | None = None,
        position: int | None = None,
    ) -> None:
        who = (
            "the relay" if culprit == RELAY else "nobody" if culprit is None else f"seat {culprit}"
        )
        super().__init__(code, f"{detail} (blame: {who})")
        self.detail = detail
        self.culprit = culprit
        self.evidence = evidence
        self.pass_index = pass_index
        self.position = position


class EnvelopeRefused(DealFault):
    """The relay's own view refused an envelope that proves nothing against its signer:
    a bad or foreign signature, another seat's ``from``, a gap or a replay in ``seq``, a
    message at the wrong moment, a pass on a deck we do not hold. Anyone can make such an
    envelope (or only the delivery can cause it), so it neither halts the round nor names
    anyone: it is dropped, never forwarded, and the sender still owes its message."""


# What a relayed view blames on the relay (and so proves nothing about the signer).
UNPROVEN = frozenset(
    {
        WRONG_SENDER,
        UNKNOWN_SENDER,
        BAD_SIGNATURE,
        SEQ_GAP,
        SEQ_REPLAY,
        OUT_OF_ORDER,
        CHAIN_MISMATCH,
    }
)


# -- the setup of one round --------------------------------------------------------------------


def chain_from(first: int, seats: int) -> tuple[int, ...]:
    """The pass order: every seat once, starting at ``first`` (Wizard: the dealer's left)."""
    return tuple((first + i) % seats for i in range(seats))


def deal_round_robin(
    seats: int, per_seat: int, first: int, items: int, face_up: int = 1
) -> tuple[int, ...]:
    """``owners`` of a deal one item at a time from ``first``, then ``face_up`` positions
    turned up (as far as the deck goes); the rest undealt."""
    dealt = seats * per_seat
    if dealt > items:
        raise ValueError(f"{seats} x {per_seat} is more than {items} items")
    return tuple(
        (first + k) % seats if k < dealt else PUBLIC if k < dealt + face_up else UNDEALT
        for k in range(items)
    )


@dataclass(frozen=True)
class DealSetup:
    """What every party knows before the deal: the round, the pass order, which position
    goes to whom, and every seat's Ed25519 public key. Its ``digest`` is in every
    signature, so parties that disagree about any of it cannot accept each other's
    messages."""

    game_id: bytes
    round: int
    attempt: int
    chain: tuple[int, ...]
    owners: tuple[int, ...]
    signing_keys: tuple[bytes, ...]
    # Whether cards may change hands in the round (section 16): shows and gifts. Off, the
    # round accepts exactly the messages of sections 7 to 15, and its digest is theirs.
    moves: bool = False

    def __post_init__(self) -> None:
        n = len(self.signing_keys)
        if type(self.moves) is not bool:
            raise ValueError("moves is a bool")
        if type(self.game_id) is not bytes or len(self.game_id) != GAME_ID_BYTES:
            raise ValueError(f"the game id is {GAME_ID_BYTES} bytes")
        if not (0 <= self.round <= 0xFFFF and 0 <= self.attempt <= 0xFFFF):
            raise ValueError("round and attempt are 0..65535")
        if not 2 <= n <= MAX_SEATS:
            raise ValueError(f"2..{MAX_SEATS} seats")
        if sorted(self.chain) != list(range(n)):
            raise ValueError("the chain must name every seat once")
        if not 1 <= len(self.owners) <= sra.MAX_ITEMS:
            raise ValueError(f"1..{sra.MAX_ITEMS} items")
        for owner in self.owners:
            if not (0 <= owner & ~VEILED < n or owner in (PUBLIC, UNDEALT)):
                raise ValueError(f"owner {owner} is not a seat, VEILED | seat, PUBLIC or UNDEALT")
        for key in self.signing_keys:
            if type(key) is not bytes or len(key) != PUBLIC_KEY_BYTES:
                raise ValueError("a signing key is 32 bytes")
        object.__setattr__(self, "chain", tuple(self.chain))
        object.__setattr__(self, "owners", tuple(self.owners))
        object.__setattr__(self, "signing_keys", tuple(self.signing_keys))

    @property
    def seats(self) -> int:
        return len(self.signing_keys)

    @property
    def items(self) -> int:
        return len(self.owners)

    @cached_property
    def digest(self) -> bytes:
        """SHA-256(SETUP_TAG || game_id || u16be(round) || u16be(attempt) || u8(n) ||
        u16be(N) || chain (n bytes) || owners (N bytes) || signing keys (32 bytes each)
        [|| u8(1) when moves are allowed])."""
        return hashlib.sha256(
            b"".join(
                (
                    SETUP_TAG,
                    self.game_id,
                    self.round.to_bytes(2, "big"),
                    self.attempt.to_bytes(2, "big"),
                    bytes([self.seats]),
                    self.items.to_bytes(2, "big"),
                    bytes(self.chain),
                    bytes(self.owners),
                    *self.signing_keys,
                    b"\x01" if self.moves else b"",
                )
            )
        ).digest()

    @cached_property
    def context(self) -> bytes:
        """The signature context: game_id || u16be(round) || u16be(attempt) || digest."""
        return (
            self.game_id
            + self.round.to_bytes(2, "big")
            + self.attempt.to_bytes(2, "big")
            + self.digest
        )

    def positions_of(self, seat: int) -> tuple[int, ...]:
        """Every position dealt to ``seat``, veiled ones included."""
        return self._positions[seat]

    @cached_property
    def _positions(self) -> tuple[tuple[int, ...], ...]:
        return tuple(
            tuple(k for k in range(self.items) if self.holder(k) == seat)
            for seat in range(self.seats)
        )

    def holder(self, position: int) -> int | None:
        """The seat ``position`` is dealt to (veiled or not), or None."""
        owner = self.owners[position]
        if owner in (PUBLIC, UNDEALT):
            return None
        return owner & ~VEILED

    @cached_property
    def veiled_positions(self) -> tuple[int, ...]:
        return tuple(
            k for k, o in enumerate(self.owners) if o not in (PUBLIC, UNDEALT) and o & VEILED
        )

    @cached_property
    def veil_entries(self) -> tuple[tuple[int, int], ...]:
        """The values of the veil passes, in order: ``(position, seat)`` for every veiled
        position and every seat but its holder; entry ``(k, x)`` ends under every key of
        ``k`` but ``x``'s, which ``x`` alone can then remove."""
        return tuple(
            (k, x) for k in self.veiled_positions for x in range(self.seats) if x != self.holder(k)
        )

    def unveiler(self, position: int) -> int:
        """Who opens a veiled position to everyone when its holder plays it: the seat after
        the holder in the chain (its holder cannot: it never sees the card)."""
        holder = self.holder(position)
        assert holder is not None
        return self.chain[(self.chain.index(holder) + 1) % self.seats]

    @cached_property
    def public_positions(self) -> tuple[int, ...]:
        return tuple(k for k, o in enumerate(self.owners) if o == PUBLIC)

    def released_by(self, seat: int) -> tuple[int, ...]:
        """The positions whose keys ``seat`` releases after the lock pass: every position
        dealt to another seat, and every face-up one; ascending."""
        return tuple(
            k
            for k, o in enumerate(self.owners)
            if o != seat and o != UNDEALT and (o == PUBLIC or not o & VEILED)
        )

    def pass_seat(self, index: int) -> int:
        """The seat of pass ``index``: 0..n-1 shuffle, n..2n-1 lock, both in chain order."""
        return self.chain[index % self.seats]

    def to_json(self) -> dict[str, Any]:
        return {
            "protocol": PROTOCOL,
            "game_id": self.game_id.hex(),
            "round": self.round,
            "attempt": self.attempt,
            "chain": list(self.chain),
            "owners": [_owner_json(o) for o in self.owners],
            "signing_keys": [k.hex() for k in self.signing_keys],
            **({"moves": True} if self.moves else {}),
        }

    @classmethod
    def from_json(cls, value: Any) -> DealSetup:
        try:
            if value["protocol"] != PROTOCOL:
                raise ValueError(f"protocol {value['protocol']!r} is not {PROTOCOL!r}")
            return cls(
                bytes.fromhex(value["game_id"]),
                _json_int(value["round"]),
                _json_int(value["attempt"]),
                tuple(_json_int(s) for s in value["chain"]),
                tuple(_owner_from_json(o) for o in value["owners"]),
                tuple(bytes.fromhex(k) for k in value["signing_keys"]),
                _moves_json(value),
            )
        except (KeyError, TypeError, ValueError) as exc:
            raise ProtocolError(MALFORMED, f"not a private-deal setup: {exc}") from None


def _owner_json(owner: int) -> Any:
    if owner == PUBLIC:
        return "public"
    if owner == UNDEALT:
        return None
    return {"veiled": owner & ~VEILED} if owner & VEILED else owner


def _owner_from_json(value: Any) -> int:
    if value == "public":
        return PUBLIC
    if value is None:
        return UNDEALT
    if type(value) is dict and set(value) == {"veiled"}:
        return VEILED | _json_int(value["veiled"])
    return _json_int(value)


def _moves_json(value: Any) -> bool:
    """A setup's ``"moves"``: absent (no moves), or ``true``."""
    if "moves" not in value:
        return False
    if value["moves"] is not True:
        raise ValueError("moves is true when present")
    return True


def _json_int(value: Any) -> int:
    if type(value) is not int:
        raise ValueError(f"expected an int, got {value!r:.20}")
    return value


def deck_hash(deck: bytes) -> bytes:
    """SHA-256(DECK_TAG || deck): how messages name the deck they build on."""
    return hashlib.sha256(DECK_TAG + deck).digest()


# -- messages ----------------------------------------------------------------------------------

_POS = Int(0, sra.MAX_ITEMS - 1)
_DECK = Bin(max_size=32 * sra.MAX_ITEMS)
# "pass" is a keyword in Python: these two fields go in as a mapping.
_PASS_FIELDS: dict[str, Field] = {"pass": Int(0, MAX_SEATS - 1), "prev": Bin(32), "deck": _DECK}
SHUFFLE = Message("shuffle", **_PASS_FIELDS)
LOCK = Message("lock", **_PASS_FIELDS)
RELEASE = Message("release", final=Bin(32), positions=List(_POS, max_len=sra.MAX_ITEMS), keys=_DECK)
OPEN = Message("open", position=_POS, item=_POS, key=Bin(32))
REVEAL = Message("reveal", key=Bin(32), keys=_DECK)
# Veiled positions (section 15): the veil passes, a holder's blind play, its unveiling.
_VALUES = Bin(max_size=32 * MAX_SEATS * sra.MAX_ITEMS)
_VEIL_FIELDS: dict[str, Field] = {"pass": Int(0, MAX_SEATS - 1), "prev": Bin(32), "values": _VALUES}
VEIL = Message("veil", **_VEIL_FIELDS)
BLIND = Message("blind", position=_POS)
UNVEIL = Message("unveil", position=_POS, item=_POS, key=Bin(32))
# Cards that change hands (section 16).
_MOVE = Int(0, 0xFFFF)
_SEAT = Int(0, MAX_SEATS - 1)
INBOX = Message("inbox", key=Bin(32))
_GIVE_FIELDS: dict[str, Field] = {"pass": _MOVE, "to": _SEAT, "commit": Bin(32), "sealed": Bin(32)}
_UNLOCK_FIELDS: dict[str, Field] = {"pass": _MOVE, "ephemeral": Bin(32)}
GIVE = Message("give", **_GIVE_FIELDS)
UNLOCK = Message("unlock", **_UNLOCK_FIELDS)
SHOW = Message("show", position=_POS, item=_POS, key=Bin(32))
_GIFT_OPEN_FIELDS: dict[str, Field] = {"pass": _MOVE, "giver": _SEAT, "item": _POS, "key": Bin(32)}
OPEN_GIFT = Message("open_gift", **_GIFT_OPEN_FIELDS)
SHOW_GIFT = Message("show_gift", **_GIFT_OPEN_FIELDS)
MOVE_MESSAGES = frozenset(m.t for m in (INBOX, GIVE, UNLOCK, SHOW, OPEN_GIFT, SHOW_GIFT))
MESSAGES = Schemas(
    SHUFFLE,
    LOCK,
    RELEASE,
    OPEN,
    REVEAL,
    VEIL,
    BLIND,
    UNVEIL,
    INBOX,
    GIVE,
    UNLOCK,
    SHOW,
    OPEN_GIFT,
    SHOW_GIFT,
)


def _pack(body: dict[str, Any]) -> bytes:
    return msgpack.packb(body, use_bin_type=True)


def shuffle_body(pass_index: int, prev: bytes, deck: bytes) -> bytes:
    return _pack({"t": "shuffle", "pass": pass_index, "prev": prev, "deck": deck})


def lock_body(pass_index: int, prev: bytes, deck: bytes) -> bytes:
    return _pack({"t": "lock", "pass": pass_index, "prev": prev, "deck": deck})


def release_body(final: bytes, keys: dict[int, int]) -> bytes:
    positions = sorted(keys)
    blob = b"".join(sra.scalar_bytes(keys[k]) for k in positions)
    return _pack({"t": "release", "final": final, "positions": positions, "keys": blob})


def open_body(position: int, item: int, key: int) -> bytes:
    return _pack({"t": "open", "position": position, "item": item, "key": sra.scalar_bytes(key)})


def veil_body(pass_index: int, prev: bytes, values: bytes) -> bytes:
    return _pack({"t": "veil", "pass": pass_index, "prev": prev, "values": values})


def blind_body(position: int) -> bytes:
    return _pack({"t": "blind", "position": position})


def unveil_body(position: int, item: int, key: int) -> bytes:
    return _pack({"t": "unveil", "position": position, "item": item, "key": sra.scalar_bytes(key)})


def inbox_body(key: bytes) -> bytes:
    return _pack({"t": "inbox", "key": key})


def give_body(pass_index: int, to: int, commit: bytes, sealed: bytes) -> bytes:
    return _pack({"t": "give", "pass": pass_index, "to": to, "commit": commit, "sealed": sealed})


def unlock_body(pass_index: int, ephemeral: bytes) -> bytes:
    return _pack({"t": "unlock", "pass": pass_index, "ephemeral": ephemeral})


def show_body(position: int, item: int, key: int) -> bytes:
    return _pack({"t": "show", "position": position, "item": item, "key": sra.scalar_bytes(key)})


def gift_open_body(kind: str, pass_index: int, giver: int, item: int, key: bytes) -> bytes:
    """``kind`` is ``"open_gift"`` (the recipient plays it) or ``"show_gift"`` (shows it)."""
    return _pack({"t": kind, "pass": pass_index, "giver": giver, "item": item, "key": key})


def reveal_body(keys: sra.RoundKeys) -> bytes:
    blob = b"".join(sra.scalar_bytes(p.e) for p in keys.positions)
    return _pack({"t": "reveal", "key": sra.scalar_bytes(keys.global_key.e), "keys": blob})


def decode_body(body: bytes) -> dict[str, Any]:
    """The message in ``body``, checked strictly; ``ProtocolError`` otherwise."""
    return MESSAGES.check(decode_payload(body))


# -- events ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Send:
    """Transmit this envelope (to the relay, which forwards it to every other seat)."""

    envelope: Envelope


@dataclass(frozen=True)
class PassAccepted:
    """Pass ``index`` (0..n-1 shuffle, n..2n-1 lock) by ``seat`` checked out."""

    index: int
    seat: int


@dataclass(frozen=True)
class PublicOpened:
    """A face-up position opened: every player's key for it was released."""

    position: int
    item: int


@dataclass(frozen=True)
class HandOpened:
    """Our own positions opened (``DealPlayer`` only): position -> item, in deal order."""

    cards: dict[int, int]


@dataclass(frozen=True)
class VeiledOpened:
    """The veiled positions of others opened to us (``DealPlayer`` only): position ->
    item. (Our own veiled positions never open to us before they are played.)"""

    cards: dict[int, int]


@dataclass(frozen=True)
class BlindPlayed:
    """``seat`` played its veiled ``position`` blind; its unveiler opens it next."""

    seat: int
    position: int


@dataclass(frozen=True)
class CardOpened:
    """``seat`` played the item at ``position``."""

    seat: int
    position: int
    item: int


@dataclass(frozen=True)
class Suspect:
    """Something that only cheating causes, seen inside the round, whose culprit the keys
    will show: the round must end now, every player revealing its keys
    (``DealPlayer.reveal``), and the verification names who did it."""

    code: str
    position: int | None
    detail: str


@dataclass(frozen=True)
class CardShown:
    """``seat`` opened its ``position`` to everyone without playing it (section 16)."""

    seat: int
    position: int
    item: int


@dataclass(frozen=True)
class GiftSealed:
    """``giver`` sealed its gift of pass ``pass_index`` to ``recipient`` (nobody else can
    see what it is; it opens to the recipient once every seat of the pass has given)."""

    pass_index: int
    giver: int
    recipient: int


@dataclass(frozen=True)
class GiftsUnlocked:
    """Every seat's gift of pass ``pass_index`` is unlocked: the cards have moved."""

    pass_index: int


@dataclass(frozen=True)
class GiftReceived:
    """Our gift from ``giver`` at pass ``pass_index`` is ``item`` (``DealPlayer`` only)."""

    pass_index: int
    giver: int
    item: int


@dataclass(frozen=True)
class GiftOpened:
    """``seat`` opened to everyone the gift it received from ``giver`` at pass
    ``pass_index``: it played it (``played``) or showed it."""

    seat: int
    pass_index: int
    giver: int
    item: int
    played: bool


@dataclass(frozen=True)
class Gift:
    """A verified gift: ``giver`` passed ``item`` to ``recipient`` at pass ``pass_index``."""

    pass_index: int
    giver: int
    recipient: int
    item: int


@dataclass(frozen=True)
class RoundVerified:
    """Every player revealed its keys and every check passed. ``items[k]`` is the item at
    final position ``k`` (None where the lock passes never finished: a voided round);
    ``suspects`` repeats what was seen inside the round, if anything (with every check
    passing, a suspect raised by a player was unfounded). ``gifts``: every unlocked gift,
    by pass then giver; whether each giver held what it gave is the game's to check."""

    items: tuple[int | None, ...]
    suspects: tuple[Suspect, ...]
    gifts: tuple[Gift, ...] = ()


@dataclass(frozen=True)
class RoundFailed:
    """Every player revealed its keys and a check failed: ``fault`` names the culprit."""

    fault: DealFault


Event = (
    Send
    | PassAccepted
    | PublicOpened
    | HandOpened
    | VeiledOpened
    | BlindPlayed
    | CardOpened
    | CardShown
    | GiftSealed
    | GiftsUnlocked
    | GiftReceived
    | GiftOpened
    | Suspect
    | RoundVerified
    | RoundFailed
)


# -- the verifier ------------------------------------------------------------------------------


class Phase(enum.Enum):
    SHUFFLE = "shuffle"  # passes 0..n-1
    LOCK = "lock"  # passes n..2n-1
    VEIL = "veil"  # veil passes, only when the setup has veiled positions (section 15)
    RELEASE = "release"  # waiting for every player's key release
    PLAY = "play"  # every key released: hands open, positions open as they are played
    VERIFIED = "verified"  # every player revealed, every check passed
    FAILED = "failed"


class Verifier:
    """One party's view of a round's private deal; see the module docstring.

    ``relayed``: the envelopes reach us through the relay (every client). A bad
    signature, a gap, or a message that is only wrong because of when it arrived is then
    the relay's fault, because the relay checks each envelope before forwarding it. The
    relay's own view (``relayed=False``) blames the sender of such an envelope.

    ``audit``: re-check the whole round once every key is revealed (``RoundVerified`` or
    ``RoundFailed``). Only a party that trusts another view in the same process to do it
    may turn it off: the host's own bots, whose relay audits the round anyway.
    """

    def __init__(self, setup: DealSetup, *, relayed: bool = True, audit: bool = True) -> None:
        self.setup = setup
        self.relayed = relayed
        self.audit = audit
        self.opener = Opener(MESSAGE_TAG, setup.context, setup.signing_keys)
        table = sra.item_table(setup.items)
        start = b"".join(table)
        self.decks: list[bytes] = [start]
        self.values: list[list[bytes]] = [list(table)]
        self.hashes: list[bytes] = [deck_hash(start)]
        self.pass_envelopes: list[Envelope] = []
        self.released: dict[int, dict[int, int]] = {}
        self.release_envelopes: dict[int, Envelope] = {}
        self.opened: dict[int, int] = {}  # position -> item, face-up and played
        self.plays: dict[int, tuple[int, int, Envelope]] = {}  # position -> (seat, key, env)
        self.revealed: dict[int, sra.RoundKeys] = {}
        self.reveal_envelopes: dict[int, Envelope] = {}
        # The veil passes (section 15): the value of every ``setup.veil_entries`` entry
        # before pass 0 and after each pass, their hashes, and the passes' envelopes.
        self.veils: list[list[bytes]] = []
        self.veil_hashes: list[bytes] = []
        self.veil_envelopes: list[Envelope] = []
        self.blinds: dict[int, Envelope] = {}  # veiled position -> its holder's blind play
        # Cards that change hands (section 16).
        self.shows: dict[int, tuple[int, int, Envelope]] = {}  # position -> (seat, key, env)
        self.inboxes: dict[int, tuple[bytes, Envelope]] = {}  # seat -> (R, env)
        # (pass, giver) -> (recipient, commit, sealed, env); its unlock: (A, env)
        self.gives: dict[tuple[int, int], tuple[int, bytes, bytes, Envelope]] = {}
        self.unlocks: dict[tuple[int, int], tuple[bytes, Envelope]] = {}
        # (pass, giver) -> (recipient, K, played, env): the gift opened to everyone
        self.gift_opens: dict[tuple[int, int], tuple[int, bytes, bool, Envelope]] = {}
        self.passes_moved = 0  # passes whose every gift is unlocked
        self.suspects: list[Suspect] = []
        self.transcript: list[Envelope] = []
        self.result: RoundVerified | None = None
        self.fault: DealFault | None = None

    # -- state ---------------------------------------------------------------------------------

    @property
    def passes_done(self) -> int:
        return len(self.decks) - 1

    @property
    def phase(self) -> Phase:
        n = self.setup.seats
        if self.fault is not None:
            return Phase.FAILED
        if self.result is not None:
            return Phase.VERIFIED
        if self.passes_done < n:
            return Phase.SHUFFLE
        if self.passes_done < 2 * n:
            return Phase.LOCK
        if self.setup.veil_entries and self.veils_done < n:
            return Phase.VEIL
        if len(self.released) < n:
            return Phase.RELEASE
        return Phase.PLAY

    @property
    def turn(self) -> int | None:
        """The seat whose pass is next (a veil pass's too), or None once all are done."""
        n = self.setup.seats
        if self.passes_done < 2 * n:
            return self.setup.pass_seat(self.passes_done)
        if self.setup.veil_entries and self.veils_done < n:
            return self.setup.chain[self.veils_done]
        return None

    @property
    def veils_done(self) -> int:
        return max(0, len(self.veils) - 1)

    def veiled_value(self, position: int, seat: int) -> bytes | None:
        """Once the veil passes are done: ``position``'s value under every key but
        ``seat``'s (which opens it with ``seat``'s own key), or None."""
        if self.phase is Phase.VEIL or not self.veils or self.veils_done < self.setup.seats:
            return None
        return self.veils[-1][self.setup.veil_entries.index((position, seat))]

    @property
    def final_deck(self) -> list[bytes] | None:
        return self.values[-1] if self.passes_done == 2 * self.setup.seats else None

    def keys_released_for(self, position: int) -> list[int]:
        """The decryption keys of ``position`` released so far, in chain order."""
        return [
            self.released[s][position]
            for s in self.setup.chain
            if s in self.released and position in self.released[s]
        ]

    def missing_reveals(self) -> list[int]:
        return [s for s in range(self.setup.seats) if s not in self.revealed]

    # -- input ---------------------------------------------------------------------------------

    def receive(self, envelope: Envelope, *, own: bool = False) -> list[Event]:
        """Check one envelope and take it in; ``DealFault`` if it cannot be accepted.

        The envelope that completes the reveals is accepted whatever the verdict: the
        round's verification is then a ``RoundVerified`` or ``RoundFailed`` event.
        ``own``: an envelope we signed ourselves a moment ago (``DealPlayer``): its
        signature is not checked again. After a fault every call raises it again.
        """
        if self.fault is not None:
            raise self.fault
        try:
            return self._receive(envelope, own)
        except DealFault as fault:
            if not self.relayed and fault.code in UNPROVEN:
                # Nothing was taken in yet: the round goes on as if it never came.
                raise EnvelopeRefused(
                    fault.code, fault.detail, culprit=fault.culprit, evidence=envelope
                ) from None
            self.fault = fault
            raise

    def _receive(self, env: Envelope, own: bool) -> list[Event]:
        if self.result is not None:
            raise self._order(env, "a message after the round was verified")
        try:
            if own:
                if env.seq != self.opener.expected_seq(env.sender):
                    raise EnvelopeError(
                        SEQ_GAP, "own envelope out of sequence", sender=env.sender, seq=env.seq
                    )
            else:
                self.opener.check(env)
        except EnvelopeError as exc:
            if exc.code == EQUIVOCATION:  # two signed versions: only the sender makes them
                culprit = exc.sender
            else:
                culprit = RELAY if self.relayed else exc.sender
            raise DealFault(exc.code, exc.message, culprit=culprit, evidence=env) from None
        try:
            msg = decode_body(env.body)
        except ProtocolError as exc:
            raise DealFault(
                MALFORMED,
                f"seat {env.sender} signed a malformed message: {exc.message}",
                culprit=env.sender,
                evidence=env,
            ) from None
        if env.sender in self.revealed:
            raise self._order(env, f"seat {env.sender} sent a message after its reveal")
        if msg["t"] in MOVE_MESSAGES and not self.setup.moves:
            raise DealFault(
                MALFORMED,
                f"seat {env.sender} signed a {msg['t']} in a round where no card changes hands",
                culprit=env.sender,
                evidence=env,
            )
        handler = {
            "shuffle": self._on_pass,
            "lock": self._on_pass,
            "release": self._on_release,
            "open": self._on_open,
            "reveal": self._on_reveal,
            "veil": self._on_veil,
            "blind": self._on_blind,
            "unveil": self._on_unveil,
            "show": self._on_show,
            "inbox": self._on_inbox,
            "give": self._on_give,
            "unlock": self._on_unlock,
            "open_gift": self._on_gift_open,
            "show_gift": self._on_gift_open,
        }[msg["t"]]
        events = handler(env, msg)
        self.opener.accepted[env.sender].append(env)
        self.transcript.append(env)
        if len(self.revealed) == self.setup.seats and self.result is None and self.audit:
            try:
                events.append(self._audit())
            except DealFault as fault:
                # A result, not a refused input: the reveal stands (the relay forwards it,
                # so that everyone reaches the same verdict) and the round failed.
                self.fault = fault
                events.append(RoundFailed(fault))
        return events

    def _order(self, env: Envelope, detail: str) -> DealFault:
        return DealFault(
            OUT_OF_ORDER, detail, culprit=RELAY if self.relayed else env.sender, evidence=env
        )

    def _signed(self, code: str, env: Envelope, detail: str, **where: Any) -> DealFault:
        return DealFault(code, detail, culprit=env.sender, evidence=env, **where)

    def _on_pass(self, env: Envelope, msg: dict[str, Any]) -> list[Event]:
        n = self.setup.seats
        index = msg["pass"] + (n if msg["t"] == "lock" else 0)
        sender = env.sender
        if msg["pass"] >= n or self.setup.pass_seat(index) != sender:
            raise self._signed(
                NOT_YOUR_TURN,
                env,
                f"seat {sender} signed {msg['t']} pass {msg['pass']}, which is not its turn",
                pass_index=index,
            )
        if index < self.passes_done:
            raise self._signed(
                NOT_YOUR_TURN,
                env,
                f"seat {sender} signed its {msg['t']} pass twice",
                pass_index=index,
            )
        if index > self.passes_done:
            raise self._order(env, f"{msg['t']} pass {msg['pass']} before pass {self.passes_done}")
        if msg["prev"] != self.hashes[index]:
            raise DealFault(
                CHAIN_MISMATCH,
                f"seat {sender}'s {msg['t']} pass {msg['pass']} builds on a deck we were not shown",
                culprit=RELAY if self.relayed else sender,
                evidence=env,
                pass_index=index,
            )
        deck = msg["deck"]
        try:
            values = sra.check_deck(deck, self.setup.items)
        except sra.BadValue as exc:
            code = DUPLICATE_VALUE if exc.reason == sra.DUPLICATE else BAD_DECK
            raise self._signed(
                code,
                env,
                f"seat {sender}'s {msg['t']} pass {msg['pass']}: {exc}",
                pass_index=index,
                position=exc.index,
            ) from None
        self.decks.append(deck)
        self.values.append(values)
        self.hashes.append(deck_hash(deck))
        self.pass_envelopes.append(env)
        if index == 2 * n - 1 and self.setup.veil_entries:  # F is known: the veils start
            final = self.values[-1]
            start = [final[k] for k, _ in self.setup.veil_entries]
            self.veils.append(start)
            self.veil_hashes.append(deck_hash(b"".join(start)))
        return [PassAccepted(index, sender)]

    def _on_veil(self, env: Envelope, msg: dict[str, Any]) -> list[Event]:
        n, sender, index = self.setup.seats, env.sender, msg["pass"]
        if not self.setup.veil_entries or index >= n or self.setup.chain[index] != sender:
            raise self._signed(
                NOT_YOUR_TURN, env, f"seat {sender} signed veil pass {index}, not its turn"
            )
        if not self.veils or index != self.veils_done:
            if self.veils and index < self.veils_done:
                raise self._signed(NOT_YOUR_TURN, env, f"seat {sender} signed its veil twice")
            raise self._order(env, f"veil pass {index} before its turn")
        if msg["prev"] != self.veil_hashes[-1]:
            raise DealFault(
                CHAIN_MISMATCH,
                f"seat {sender}'s veil pass {index} builds on values we were not shown",
                culprit=RELAY if self.relayed else sender,
                evidence=env,
            )
        # (Values may repeat: the entries of one position are equal until their keys differ.)
        blob = msg["values"]
        values = sra.split(blob) if len(blob) == 32 * len(self.setup.veil_entries) else []
        if not values or any(sra.value_problem(u) for u in values):
            raise self._signed(BAD_DECK, env, f"seat {sender}'s veil pass {index} is malformed")
        self.veils.append(values)
        self.veil_hashes.append(deck_hash(msg["values"]))
        self.veil_envelopes.append(env)
        return [PassAccepted(2 * n + index, sender)]

    def _on_blind(self, env: Envelope, msg: dict[str, Any]) -> list[Event]:
        sender, position = env.sender, msg["position"]
        if position not in self.setup.veiled_positions or self.setup.holder(position) != sender:
            raise self._signed(
                NOT_OWNER, env, f"seat {sender} played blind a position not veiled from it"
            )
        if position in self.blinds:
            raise self._signed(ALREADY_OPEN, env, f"seat {sender} played position {position} twice")
        if self.phase is not Phase.PLAY:
            raise self._order(env, f"seat {sender} played before every key was released")
        self.blinds[position] = env
        return [BlindPlayed(sender, position)]

    def _on_unveil(self, env: Envelope, msg: dict[str, Any]) -> list[Event]:
        sender, position = env.sender, msg["position"]
        if position not in self.setup.veiled_positions or self.setup.unveiler(position) != sender:
            raise self._signed(
                NOT_UNVEILER, env, f"seat {sender} unveiled position {position}, not its to open"
            )
        if position in self.plays:
            raise self._signed(ALREADY_OPEN, env, f"seat {sender} unveiled {position} twice")
        if position not in self.blinds:
            raise self._order(env, f"seat {sender} unveiled position {position} before its play")
        try:
            key = sra.scalar_from_bytes(msg["key"])
        except ValueError:
            raise self._signed(
                BAD_RELEASE, env, f"seat {sender}'s key for position {position} is not clamped"
            ) from None
        value = self.veiled_value(position, sender)
        assert value is not None  # the play phase: the veils are done
        item = sra.lookup(sra.open_value(value, [key]), self.setup.items)
        holder = self.setup.holder(position)
        assert holder is not None
        event: Event
        if item is None:
            event = self._suspect(NOT_AN_ITEM, position, f"position {position} opens to no item")
        elif item in self.opened.values():
            event = self._suspect(DUPLICATE_ITEM, position, f"position {position} opens twice")
        elif item != msg["item"]:
            raise self._signed(
                WRONG_CLAIM,
                env,
                f"seat {sender} claimed item {msg['item']} at position "
                f"{position}, whose keys open item {item}",
                position=position,
            )
        else:
            self.opened[position] = item
            event = CardOpened(holder, position, item)
        self.plays[position] = (sender, key, env)
        return [event]

    def _on_release(self, env: Envelope, msg: dict[str, Any]) -> list[Event]:
        sender = env.sender
        if sender in self.released:
            raise self._signed(BAD_RELEASE, env, f"seat {sender} released its keys twice")
        if self.final_deck is None:
            raise self._order(env, f"seat {sender} released keys before the lock passes ended")
        if msg["final"] != self.hashes[-1]:
            raise DealFault(
                CHAIN_MISMATCH,
                f"seat {sender} released keys for a final deck we were not shown",
                culprit=RELAY if self.relayed else sender,
                evidence=env,
            )
        expected = self.setup.released_by(sender)
        blob = msg["keys"]
        if tuple(msg["positions"]) != expected or len(blob) != 32 * len(expected):
            raise self._signed(
                BAD_RELEASE, env, f"seat {sender} released keys for the wrong positions"
            )
        keys: dict[int, int] = {}
        for i, position in enumerate(expected):
            try:
                keys[position] = sra.scalar_from_bytes(blob[32 * i : 32 * i + 32])
            except ValueError:
                raise self._signed(
                    BAD_RELEASE,
                    env,
                    f"seat {sender}'s key for position {position} is not a clamped scalar",
                    position=position,
                ) from None
        self.released[sender] = keys
        self.release_envelopes[sender] = env
        events: list[Event] = []
        if len(self.released) == self.setup.seats:
            for position in self.setup.public_positions:
                events.append(self._open(position, self.keys_released_for(position)))
        return events

    def _open(self, position: int, keys: list[int], seat: int | None = None) -> Event:
        """Open a final-deck position: a ``PublicOpened``/``CardOpened``, or a ``Suspect``."""
        final = self.final_deck
        assert final is not None
        item = sra.lookup(sra.open_value(final[position], keys), self.setup.items)
        if item is None:
            return self._suspect(NOT_AN_ITEM, position, f"position {position} opens to no item")
        if item in self.opened.values():
            return self._suspect(
                DUPLICATE_ITEM, position, f"position {position} opens to item {item} again"
            )
        self.opened[position] = item
        if seat is None:
            return PublicOpened(position, item)
        return CardOpened(seat, position, item)

    def _suspect(self, code: str, position: int | None, detail: str) -> Suspect:
        suspect = Suspect(code, position, detail)
        self.suspects.append(suspect)
        return suspect

    def _on_open(self, env: Envelope, msg: dict[str, Any]) -> list[Event]:
        sender, position = env.sender, msg["position"]
        if position >= self.setup.items or self.setup.owners[position] != sender:
            raise self._signed(
                NOT_OWNER,
                env,
                f"seat {sender} played position {position}, not dealt to it",
                position=position,
            )
        if position in self.plays or position in self.shows:
            raise self._signed(
                ALREADY_OPEN,
                env,
                f"seat {sender} opened position {position} twice",
                position=position,
            )
        if len(self.released) < self.setup.seats:
            raise self._order(env, f"seat {sender} played before every key was released")
        try:
            key = sra.scalar_from_bytes(msg["key"])
        except ValueError:
            raise self._signed(
                BAD_RELEASE,
                env,
                f"seat {sender}'s key for position {position} is not a clamped scalar",
                position=position,
            ) from None
        keys = self.keys_released_for(position)
        keys.append(key)
        event = self._open(position, keys, sender)
        if isinstance(event, CardOpened) and event.item != msg["item"]:
            raise self._signed(
                WRONG_CLAIM,
                env,
                f"seat {sender} claimed item {msg['item']} at position "
                f"{position}, whose keys open item {event.item}",
                position=position,
            )
        if msg["t"] == "show":
            self.shows[position] = (sender, key, env)
            if isinstance(event, CardOpened):
                event = CardShown(sender, position, event.item)
            return [event]
        self.plays[position] = (sender, key, env)
        return [event]

    # -- cards that change hands (section 16) --------------------------------------------------

    def _on_show(self, env: Envelope, msg: dict[str, Any]) -> list[Event]:
        """A held position opened to everyone, not played: checked as an open."""
        return self._on_open(env, msg)

    def _require_play(self, env: Envelope) -> None:
        if len(self.released) < self.setup.seats:
            raise self._order(env, f"seat {env.sender} moved a card before every key was released")

    def _on_inbox(self, env: Envelope, msg: dict[str, Any]) -> list[Event]:
        sender = env.sender
        self._require_play(env)
        if sender in self.inboxes:
            raise self._signed(BAD_INBOX, env, f"seat {sender} sent a second inbox key")
        if sra.value_problem(msg["key"]) is not None:
            raise self._signed(BAD_INBOX, env, f"seat {sender}'s inbox key is not canonical")
        self.inboxes[sender] = (msg["key"], env)
        return []

    def _on_give(self, env: Envelope, msg: dict[str, Any]) -> list[Event]:
        sender, index, to = env.sender, msg["pass"], msg["to"]
        self._require_play(env)
        if to >= self.setup.seats or to == sender:
            raise self._signed(BAD_GIFT, env, f"seat {sender} gave a card to {to}")
        if (index, sender) in self.gives or index < self.passes_moved:
            raise self._signed(ALREADY_GIVEN, env, f"seat {sender} gave twice in pass {index}")
        if index > self.passes_moved:
            raise self._order(env, f"a give of pass {index} during pass {self.passes_moved}")
        if to not in self.inboxes:
            raise self._order(env, f"seat {sender} gave to seat {to}, which has no inbox yet")
        self.gives[(index, sender)] = (to, msg["commit"], msg["sealed"], env)
        return [GiftSealed(index, sender, to)]

    def _on_unlock(self, env: Envelope, msg: dict[str, Any]) -> list[Event]:
        sender, index = env.sender, msg["pass"]
        self._require_play(env)
        if (index, sender) in self.unlocks:
            raise self._signed(ALREADY_GIVEN, env, f"seat {sender} unlocked pass {index} twice")
        give = self.gives.get((index, sender))
        if give is None:  # its own give precedes it in its sequence: nobody else can cause it
            raise self._signed(BAD_UNLOCK, env, f"seat {sender} unlocked a gift it never gave")
        if any((index, s) not in self.gives for s in range(self.setup.seats)):
            raise self._order(env, f"seat {sender} unlocked pass {index} before every seat gave")
        ephemeral = msg["ephemeral"]
        if sra.value_problem(ephemeral) is not None or moves.commitment(ephemeral) != give[1]:
            raise self._signed(
                BAD_UNLOCK, env, f"seat {sender}'s unlock of pass {index} opens no commitment"
            )
        self.unlocks[(index, sender)] = (ephemeral, env)
        if all((index, s) in self.unlocks for s in range(self.setup.seats)):
            self.passes_moved += 1
            return [GiftsUnlocked(index)]
        return []

    def gift_pad(self, index: int, giver: int, key: bytes) -> bytes:
        """The pad of ``giver``'s gift of pass ``index`` under the shared key ``key``."""
        recipient = self.gives[(index, giver)][0]
        return moves.pad(self.setup.context, index, giver, recipient, key)

    def _on_gift_open(self, env: Envelope, msg: dict[str, Any]) -> list[Event]:
        sender, index, giver = env.sender, msg["pass"], msg["giver"]
        self._require_play(env)
        give = self.gives.get((index, giver))
        if give is None:  # (a relay could deliver it before the give: prove nothing yet)
            raise self._order(env, f"seat {sender} opened a gift we have not seen given")
        if give[0] != sender:
            raise self._signed(NOT_OWNER, env, f"seat {sender} opened a gift not given to it")
        if (index, giver) in self.gift_opens:
            raise self._signed(ALREADY_OPEN, env, f"seat {sender} opened a gift twice")
        if (index, giver) not in self.unlocks:
            raise self._order(env, f"seat {sender} opened a gift before its unlock")
        item = moves.unseal(give[2], self.gift_pad(index, giver, msg["key"]), self.setup.items)
        if item is None or item != msg["item"]:
            raise self._signed(
                WRONG_CLAIM,
                env,
                f"seat {sender} claimed item {msg['item']} for seat {giver}'s gift of pass "
                f"{index}, which its key opens to {'no item' if item is None else item}",
            )
        played = msg["t"] == "open_gift"
        self.gift_opens[(index, giver)] = (sender, msg["key"], played, env)
        return [GiftOpened(sender, index, giver, item, played)]

    def _on_reveal(self, env: Envelope, msg: dict[str, Any]) -> list[Event]:
        sender = env.sender
        blob = msg["keys"]
        if len(blob) != 32 * self.setup.items:
            raise self._signed(
                BAD_ROUND_KEY,
                env,
                f"seat {sender} revealed {len(blob) // 32} position keys, not {self.setup.items}",
            )
        try:
            e_global = sra.scalar_from_bytes(msg["key"])
            e_positions = [sra.scalar_from_bytes(blob[i : i + 32]) for i in range(0, len(blob), 32)]
            keys = sra.RoundKeys.from_revealed(e_global, e_positions)
        except sra.BadKey as exc:
            raise self._signed(
                BAD_ROUND_KEY,
                env,
                f"seat {sender} revealed a bad key: {exc}",
                position=None if exc.position < 0 else exc.position,
            ) from None
        except ValueError:
            raise self._signed(
                BAD_ROUND_KEY, env, f"seat {sender} revealed a key that is not clamped"
            ) from None
        self.revealed[sender] = keys
        self.reveal_envelopes[sender] = env
        return []

    # -- round end -----------------------------------------------------------------------------

    def _audit(self) -> RoundVerified:
        """Re-check every pass, every released and played key, and the final deck, with
        every player's revealed keys; the first failure in protocol order is raised."""
        setup, n = self.setup, self.setup.seats
        keys = self.revealed
        for index in range(self.passes_done):
            seat = setup.pass_seat(index)
            before, after = self.values[index], self.values[index + 1]
            env = self.pass_envelopes[index]
            if index < n:
                image = sra.shuffle_image(before, keys[seat].global_key.e)
                if sorted(image) != sorted(after):
                    raise self._signed(
                        SHUFFLE_MISMATCH,
                        env,
                        f"seat {seat}'s shuffle pass {index} is not its "
                        "input under its revealed key, reordered",
                        pass_index=index,
                    )
            else:
                d = keys[seat].global_key.d
                for position, (u, out) in enumerate(zip(before, after, strict=True)):
                    if sra.lock_value(u, d, keys[seat].positions[position].e) != out:
                        raise self._signed(
                            LOCK_MISMATCH,
                            env,
                            f"seat {seat}'s lock pass {index - n} is wrong at position {position}",
                            pass_index=index,
                            position=position,
                        )
        entries = setup.veil_entries
        for index, env in enumerate(self.veil_envelopes):
            seat = setup.chain[index]
            before, after = self.veils[index], self.veils[index + 1]
            for (position, x), u, out in zip(entries, before, after, strict=True):
                d = keys[seat].positions[position].d
                if out != (u if x == seat else sra.open_value(u, [d])):
                    raise self._signed(
                        VEIL_MISMATCH,
                        env,
                        f"seat {seat}'s veil pass {index} is wrong at position {position}",
                        position=position,
                    )
        for seat, released in self.released.items():
            for position, d in released.items():
                if d != keys[seat].positions[position].d:
                    raise self._signed(
                        RELEASED_KEY_MISMATCH,
                        self.release_envelopes[seat],
                        f"seat {seat} released a wrong key for position {position}",
                        position=position,
                    )
        for position, (seat, d, env) in (*self.plays.items(), *self.shows.items()):
            if d != keys[seat].positions[position].d:
                raise self._signed(
                    PLAYED_KEY_MISMATCH,
                    env,
                    f"seat {seat} opened position {position} with a wrong key",
                    position=position,
                )
        gifts = self._audit_gifts()
        items: list[int | None] = [None] * setup.items
        final = self.final_deck
        if final is not None:
            for position, value in enumerate(final):
                item = self.opened.get(position)
                if item is None:  # not opened inside the round: open it now
                    d_keys = [keys[s].positions[position].d for s in setup.chain]
                    item = sra.lookup(sra.open_value(value, d_keys), setup.items)
                items[position] = item
            if sorted(i for i in items if i is not None) != list(range(setup.items)):
                raise DealFault(
                    NOT_A_DECK, "the final deck does not open to every item once", culprit=None
                )
            for position, (seat, _, env) in (*self.plays.items(), *self.shows.items()):
                claimed = decode_body(env.body)["item"]
                if claimed != items[position]:
                    raise self._signed(
                        WRONG_CLAIM,
                        env,
                        f"seat {seat} claimed item {claimed} at position "
                        f"{position}, which holds item {items[position]}",
                        position=position,
                    )
        self.result = RoundVerified(tuple(items), tuple(self.suspects), gifts)
        return self.result

    def _audit_gifts(self) -> tuple[Gift, ...]:
        """Section 16's round-end checks: every inbox key, every unlocked gift under its
        recipient's revealed inbox key, every gift's opening key."""
        keys = self.revealed
        inbox = {seat: moves.inbox_secret(keys[seat].global_key.e) for seat in self.inboxes}
        for seat, (key, env) in self.inboxes.items():
            if moves.public_point(inbox[seat]) != key:
                raise self._signed(
                    INBOX_MISMATCH, env, f"seat {seat}'s inbox key is not its revealed one"
                )
        gifts = []
        for (index, giver), (ephemeral, _) in sorted(self.unlocks.items()):
            recipient, _, sealed, give_env = self.gives[(index, giver)]
            try:
                shared = moves.shared_key(inbox[recipient], ephemeral)
            except ValueError:  # a low-order ephemeral: no key, so no item
                shared = b""
            item = (
                moves.unseal(sealed, self.gift_pad(index, giver, shared), self.setup.items)
                if shared
                else None
            )
            if item is None:
                raise self._signed(
                    GIFT_MISMATCH,
                    give_env,
                    f"seat {giver}'s gift of pass {index} holds no item for seat {recipient}",
                )
            opened = self.gift_opens.get((index, giver))
            if opened is not None and opened[1] != shared:
                raise self._signed(
                    PLAYED_KEY_MISMATCH,
                    opened[3],
                    f"seat {recipient} opened seat {giver}'s gift of pass {index} with a wrong key",
                )
            gifts.append(Gift(index, giver, recipient, item))
        return tuple(gifts)


# -- a player ----------------------------------------------------------------------------------


class DealPlayer:
    """One seat of the private deal: its keys never leave it except as the protocol says.

    It sends its shuffle and lock passes when its turn comes, releases the keys of the
    positions dealt to others (and the face-up ones) once the lock passes are done,
    opens its own hand, sends a position's key when it plays that position, and reveals
    its round keys at the end (or to void the round).

    ``audit=False``: skip the round-end verification (``Verifier``), for a player whose
    round the relay in the same process verifies anyway (the host's bots); every check
    of an envelope as it arrives still runs.
    """

    def __init__(
        self,
        setup: DealSetup,
        seat: int,
        signing_key: SigningKey,
        keys: sra.RoundKeys | None = None,
        *,
        audit: bool = True,
    ) -> None:
        if not 0 <= seat < setup.seats:
            raise ValueError(f"seat {seat} is not a seat of this deal")
        if signing_key.public_key != setup.signing_keys[seat]:
            raise ValueError(f"the signing key is not seat {seat}'s")
        self.setup = setup
        self.seat = seat
        self.keys = keys if keys is not None else sra.RoundKeys.generate(setup.items)
        if self.keys.items != setup.items or self.keys.secret is None:
            raise ValueError("a player needs its own round keys (RoundKeys.derive) for this deck")
        self.keys.lock_keys  # noqa: B018 -- K0: the lock pass's key objects, made ahead
        self.view = Verifier(setup, relayed=True, audit=audit)
        self.sealer = Sealer(signing_key, MESSAGE_TAG, setup.context, seat)
        self.hand: dict[int, int] | None = None
        # The others' veiled positions opened to us (section 15), once the hand is open.
        self.veiled: dict[int, int] = {}
        self.unveiled: set[int] = set()  # veiled positions we opened to all at their play
        # Gifts we received (section 16): (pass, giver) -> item, once unlocked.
        self.gifts: dict[tuple[int, int], int] = {}
        self.halted: Suspect | None = None

    @classmethod
    def resume(
        cls,
        setup: DealSetup,
        seat: int,
        signing_key: SigningKey,
        keys: sra.RoundKeys,
        transcript: Iterable[Envelope],
    ) -> tuple[DealPlayer, list[Event]]:
        """A player rebuilt after a reconnect from its kept ``keys`` and the relay's
        transcript of the round so far; the events include anything it must send now."""
        player = cls(setup, seat, signing_key, keys)
        events: list[Event] = []
        for env in transcript:
            events.extend(player.view.receive(env))
        player.sealer.next_seq = player.view.opener.expected_seq(seat)
        events.extend(player._advance())
        return player, events

    def start(self) -> list[Event]:
        """Begin: the first seat of the chain sends its shuffle pass."""
        return self._advance()

    def receive(self, envelope: Envelope) -> list[Event]:
        """An envelope relayed from another seat; ``DealFault`` if it fails a check."""
        events = self.view.receive(envelope)
        events.extend(self._advance())
        return events

    def play(self, position: int, item: int) -> list[Event]:
        """Play our ``position`` (which holds ``item``): release its key."""
        if self.hand is None or self.hand.get(position) != item:
            raise ValueError(f"position {position} does not hold item {item} in our hand")
        return self._send(open_body(position, item, self.keys.positions[position].d))

    def play_blind(self, position: int) -> list[Event]:
        """Play our veiled ``position``, which we cannot see (its unveiler opens it)."""
        if position not in self.setup.veiled_positions or self.setup.holder(position) != self.seat:
            raise ValueError(f"position {position} is not veiled from us")
        return self._send(blind_body(position))

    def reveal(self) -> list[Event]:
        """Reveal our round keys: at the round's end, or to void it."""
        return self._send(reveal_body(self.keys))

    # -- cards that change hands (section 16) --------------------------------------------------

    def show(self, position: int, item: int) -> list[Event]:
        """Open our ``position`` (which holds ``item``) to everyone without playing it: a
        card put face up, or given into a trick. Its key goes out as with a play."""
        if self.hand is None or self.hand.get(position) != item:
            raise ValueError(f"position {position} does not hold item {item} in our hand")
        if position in self.view.plays or position in self.view.shows:
            raise ValueError(f"position {position} is open already")
        self._check_moves()
        return self._send(show_body(position, item, self.keys.positions[position].d))

    @property
    def inbox_key(self) -> bytes:
        """Our inbox key ``R`` of this round (section 16)."""
        return moves.public_point(moves.inbox_secret(self.keys.global_key.e))

    def send_inbox(self) -> list[Event]:
        """Publish our inbox key, once per round, before anyone can give us a card; a
        second call sends nothing."""
        self._check_moves()
        if self.seat in self.view.inboxes:
            return []
        return self._send(inbox_body(self.inbox_key))

    def give(self, pass_index: int, to: int, item: int) -> list[Event]:
        """Give ``item`` (one we hold, whatever way it came to us) to seat ``to`` in pass
        ``pass_index``, sealed to its inbox key; the unlock follows on its own once every
        seat has given in that pass."""
        self._check_moves()
        inbox = self.view.inboxes.get(to)
        if inbox is None:
            raise ValueError(f"seat {to} has no inbox key yet")
        if pass_index != self.view.passes_moved or (pass_index, self.seat) in self.view.gives:
            raise ValueError(f"we cannot give in pass {pass_index} now")
        if not 0 <= item < self.setup.items:
            raise ValueError(f"item {item} is not an item of this deck")
        secret = moves.gift_secret(self.keys.global_key.e, pass_index)
        ephemeral = moves.public_point(secret)
        shared = moves.shared_key(secret, inbox[0])
        pad = moves.pad(self.setup.context, pass_index, self.seat, to, shared)
        sealed = moves.seal(sra.item_table(self.setup.items)[item], pad)
        events = self._send(give_body(pass_index, to, moves.commitment(ephemeral), sealed))
        events.extend(self._advance())
        return events

    def play_gift(self, pass_index: int, giver: int) -> list[Event]:
        """Play the card ``giver`` gave us in pass ``pass_index``."""
        return self._open_gift("open_gift", pass_index, giver)

    def show_gift(self, pass_index: int, giver: int) -> list[Event]:
        """Open the card ``giver`` gave us in pass ``pass_index`` to everyone, unplayed."""
        return self._open_gift("show_gift", pass_index, giver)

    def _open_gift(self, kind: str, pass_index: int, giver: int) -> list[Event]:
        item = self.gifts.get((pass_index, giver))
        if item is None:
            raise ValueError(f"we hold no gift of seat {giver} from pass {pass_index}")
        shared = self._gift_key(pass_index, giver)
        return self._send(gift_open_body(kind, pass_index, giver, item, shared))

    def _check_moves(self) -> None:
        if not self.setup.moves:
            raise ValueError("no card changes hands in this round (DealSetup.moves)")

    def _gift_key(self, pass_index: int, giver: int) -> bytes:
        ephemeral = self.view.unlocks[(pass_index, giver)][0]
        return moves.shared_key(moves.inbox_secret(self.keys.global_key.e), ephemeral)

    def _unlocks_owed(self) -> list[int]:
        """Passes we gave in whose every gift is given, and which we have not unlocked."""
        view, n = self.view, self.setup.seats
        return [
            index
            for (index, giver) in view.gives
            if giver == self.seat
            and (index, giver) not in view.unlocks
            and all((index, s) in view.gives for s in range(n))
        ]

    def _gifts_to_open(self) -> list[tuple[int, int]]:
        view = self.view
        return [
            key for key in view.unlocks if view.gives[key][0] == self.seat and key not in self.gifts
        ]

    def _receive_gift(self, pass_index: int, giver: int) -> list[Event]:
        """Unseal a gift to us: a ``GiftReceived``, or a suspect if it holds no item (its
        giver sealed nothing, or to another key: the round-end check says which)."""
        sealed = self.view.gives[(pass_index, giver)][2]
        try:
            shared = self._gift_key(pass_index, giver)
        except ValueError:
            item = None
        else:
            pad = moves.pad(self.setup.context, pass_index, giver, self.seat, shared)
            item = moves.unseal(sealed, pad, self.setup.items)
        if item is None:
            self.halted = self.view._suspect(  # noqa: SLF001  (the view's player, in this module)
                NOT_AN_ITEM, None, f"seat {giver}'s gift of pass {pass_index} holds no item"
            )
            return [self.halted]
        self.gifts[(pass_index, giver)] = item
        return [GiftReceived(pass_index, giver, item)]

    # -- internals -----------------------------------------------------------------------------

    def _send(self, body: bytes) -> list[Event]:
        envelope = self.sealer.seal(body)
        events: list[Event] = [Send(envelope)]
        events.extend(self.view.receive(envelope, own=True))
        return events

    def _advance(self) -> list[Event]:
        events: list[Event] = []
        view = self.view
        while self.halted is None and self.seat not in view.revealed:
            phase = view.phase
            if phase is Phase.VEIL and view.turn == self.seat:
                events.extend(self._send(self._veil_body()))
            elif phase in (Phase.SHUFFLE, Phase.LOCK) and view.turn == self.seat:
                body = self._pass_body()
                if body is None:  # it halted the round (mypy keeps the loop's "is None")
                    events.append(cast("Suspect", self.halted))
                    break
                events.extend(self._send(body))
            elif phase in (Phase.RELEASE, Phase.PLAY) and self.seat not in view.released:
                d = {k: self.keys.positions[k].d for k in self.setup.released_by(self.seat)}
                events.extend(self._send(release_body(view.hashes[-1], d)))
            elif phase is Phase.PLAY and self.hand is None:
                events.extend(self._open_hand())  # (then any unveil owed: a resumed player)
            elif phase is Phase.PLAY and (owed := self._unveils_owed()):
                k = owed[0]
                self.unveiled.add(k)
                item = self.veiled[k]
                events.extend(self._send(unveil_body(k, item, self.keys.positions[k].d)))
            elif phase is Phase.PLAY and (passes := self._unlocks_owed()):
                index = passes[0]
                secret = moves.gift_secret(self.keys.global_key.e, index)
                events.extend(self._send(unlock_body(index, moves.public_point(secret))))
            elif phase is Phase.PLAY and (gifts := self._gifts_to_open()):
                events.extend(self._receive_gift(*gifts[0]))
            else:
                break
        return events

    def _unveils_owed(self) -> list[int]:
        """Veiled positions played blind that we must open to everyone now."""
        view = self.view
        return [
            k
            for k in view.blinds
            if k not in view.plays
            and k not in self.unveiled
            and k in self.veiled
            and self.setup.unveiler(k) == self.seat
        ]

    def _veil_body(self) -> bytes:
        """Our veil pass: our key of each entry's position on every entry but our own."""
        view, me = self.view, self.seat
        out = [
            u if x == me else sra.open_value(u, [self.keys.positions[k].d])
            for (k, x), u in zip(self.setup.veil_entries, view.veils[-1], strict=True)
        ]
        return veil_body(view.veils_done, view.veil_hashes[-1], b"".join(out))

    def _pass_body(self) -> bytes | None:
        view, n = self.view, self.setup.seats
        index = view.passes_done
        before = view.values[-1]
        if index < n:
            deck = sra.shuffle_pass(before, self.keys.global_key, self.keys.permutation())
            make = shuffle_body
        else:
            deck = sra.lock_pass(before, self.keys)
            make = lock_body
        # Honest passes of distinct values in the prime-order subgroup stay distinct. A
        # repeat means our input carried a doctored value: never sign it, end the round.
        if len(set(sra.split(deck))) != self.setup.items:
            self.halted = Suspect(
                OWN_COLLISION, None, f"pass {index} would repeat a value: an earlier pass cheated"
            )
            self.view.suspects.append(self.halted)
            return None
        return make(index % n, view.hashes[-1], deck)

    def _open_hand(self) -> list[Event]:
        view = self.view
        cards: dict[int, int] = {}
        suspects: list[Suspect] = []
        final = view.final_deck
        veiled = self.setup.veiled_positions
        for position in self.setup.positions_of(self.seat):
            if position in veiled:
                continue  # open to everyone but us: we play it blind
            keys = view.keys_released_for(position)
            keys.append(self.keys.positions[position].d)
            assert final is not None  # known in the play phase, the only one this runs in
            value = sra.open_value(final[position], keys)
            item = sra.lookup(value, self.setup.items)
            # (A resumed player's own plays are open already: at their own positions.)
            seen_elsewhere = any(i == item and k != position for k, i in view.opened.items())
            if item is None or item in cards.values() or seen_elsewhere:
                suspects.append(
                    view._suspect(  # noqa: SLF001  (the view's player, in this module)
                        NOT_AN_ITEM if item is None else DUPLICATE_ITEM,
                        position,
                        f"our position {position} opens to "
                        + ("no item" if item is None else f"item {item}, seen elsewhere"),
                    )
                )
                continue
            cards[position] = item
        others: dict[int, int] = {}
        for position in veiled:
            if self.setup.holder(position) == self.seat:
                continue
            partial = view.veiled_value(position, self.seat)
            if partial is None:
                continue
            item = sra.lookup(
                sra.open_value(partial, [self.keys.positions[position].d]), self.setup.items
            )
            seen = set(cards.values()) | set(others.values()) | set(view.opened.values())
            if item is None or (item in seen and view.opened.get(position) != item):
                suspects.append(
                    view._suspect(  # noqa: SLF001  (the view's player, in this module)
                        NOT_AN_ITEM if item is None else DUPLICATE_ITEM,
                        position,
                        f"veiled position {position} opens to "
                        + ("no item" if item is None else f"item {item}, seen elsewhere"),
                    )
                )
                continue
            others[position] = item
        if suspects:
            self.halted = suspects[0]
            return list[Event](suspects)
        self.hand = cards
        self.veiled = others
        if veiled:
            return [HandOpened(dict(cards)), VeiledOpened(dict(others))]
        return [HandOpened(dict(cards))]


# -- the relay ---------------------------------------------------------------------------------


class DealRelay:
    """The host's side of the deal: it checks every envelope first, keeps the transcript
    and says whom to forward each one to. It holds no player's keys: the host's own
    seat and its bots are ``DealPlayer`` objects of their own, routed like remote ones."""

    def __init__(self, setup: DealSetup) -> None:
        self.setup = setup
        self.view = Verifier(setup, relayed=False)

    @property
    def transcript(self) -> list[Envelope]:
        """Every accepted envelope in order: what a reconnecting player replays, and what
        the game record stores."""
        return list(self.view.transcript)

    def receive(self, link_seat: int, envelope: Envelope) -> tuple[list[int], list[Event]]:
        """An envelope that arrived on ``link_seat``'s connection: the seats to forward
        it to (byte for byte), and the events of the host's own view."""
        if envelope.sender != link_seat:
            # Refused, not a fault of the round: a relayed view (and ``wizard-tui verify``)
            # cannot tell this envelope from one the relay misdelivered.
            raise EnvelopeRefused(
                WRONG_SENDER,
                f"seat {link_seat} sent an envelope of seat {envelope.sender}",
                culprit=link_seat,
                evidence=envelope,
            )
        events = self.view.receive(envelope)
        return [s for s in range(self.setup.seats) if s != link_seat], events


def played_items(setup: DealSetup, envelopes: Iterable[Envelope]) -> list[tuple[int, int]]:
    """(seat, item) of every play in a transcript, in order: each open by its sender, and
    each unveil for the holder of its veiled position (who played it blind). The envelopes
    must be accepted ones (they decode)."""
    out = []
    for envelope in envelopes:
        body = decode_body(envelope.body)
        if body["t"] in ("open", "open_gift"):
            out.append((envelope.sender, body["item"]))
        elif body["t"] == "unveil":
            holder = setup.holder(body["position"])
            assert holder is not None  # an accepted unveil is of a veiled position
            out.append((holder, body["item"]))
    return out


def shown_items(envelopes: Iterable[Envelope]) -> list[tuple[int, int]]:
    """(seat, item) of every card opened to everyone without being played (a ``show`` of
    a held position, a ``show_gift`` of a received card), in order (section 16)."""
    out = []
    for envelope in envelopes:
        body = decode_body(envelope.body)
        if body["t"] in ("show", "show_gift"):
            out.append((envelope.sender, body["item"]))
    return out


def audit_transcript(setup: DealSetup, envelopes: Sequence[Envelope]) -> RoundVerified:
    """Check a whole recorded round offline (``wizard-tui verify``): the result, or the
    first ``DealFault`` (a failure the record cannot explain is blamed on ``RELAY``,
    the host that wrote it)."""
    view = Verifier(setup, relayed=True)
    for env in envelopes:
        view.receive(env)
    if view.fault is not None:
        raise view.fault
    if view.result is None:
        raise DealFault(
            OUT_OF_ORDER,
            "the round ends before every seat revealed its keys "
            f"(missing: {view.missing_reveals()})",
            culprit=None,
        )
    return view.result
