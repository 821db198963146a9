"""Commutative encryption of deck items on Curve25519 (SRA), through ``cryptography``'s X25519.

A value is a 32-byte X25519 u-coordinate; encrypting it with a key ``e`` is the X25519
function ``X25519(e, u)``, the x-coordinate of ``e·P``. Keys commute, and on the
prime-order subgroup (order ``L``) a key ``d`` with ``d·e ≡ 1 (mod L)`` undoes ``e``.
X25519 clamps its scalar (``2^254 + 8k``, ``0 <= k < 2^251``), so only keys whose
inverse also has a clamped representative are used (``keypair_from_bytes``).

Everything here is normative for ``private-sra-x25519-v1`` (docs/private-deal.md):
the item encoding, canonical values, key generation, the passes and the opening. It is
deterministic given keys and permutations, so tests and test vectors fix them. Decks are
``bytes`` of ``32 * items``; keys are ints (scalars) and are turned into
``X25519PrivateKey`` objects only where a ladder needs one.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property, lru_cache

from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey

from .. import fairdeal

P = 2**255 - 19
"""The field prime of Curve25519."""
L = 2**252 + 27742317777372353535851937790883648493
"""The order of the prime-order subgroup."""
A = 486662
"""The Montgomery coefficient: the curve is ``v^2 = u^3 + A u^2 + u``."""

POINT_BYTES = 32
SCALAR_BYTES = 32
MAX_ITEMS = 128  # a deck of 128 values is 4096 bytes, the framing's longest bin

ITEM_TAG = b"netplay/private-deal/v1/item"
COFACTOR_TAG = b"netplay/private-deal/v1/cofactor-clear"
KEY_TAG = b"netplay/private-deal/v1/key"
PERMUTATION_TAG = b"netplay/private-deal/v1/permutation"

_INV8 = pow(8, -1, L)
_CLAMP_BASE = 1 << 254
_K_LIMIT = 1 << 251

# The canonical u-coordinates of every point whose multiple by a clamped scalar is the
# identity (orders 1, 2, 4 and 8 on the curve and its twist): X25519 returns all zeros
# for them, which ``cryptography`` refuses with ValueError.
LOW_ORDER = frozenset(
    u.to_bytes(32, "little")
    for u in (
        0,
        1,
        325606250916557431795983626356110631294008115727848805560023387167927233504,
        39382357235489614581723060781553021112529911719440698176882885853963445705823,
        P - 1,
    )
)


# -- values ---------------------------------------------------------------------------------


class BadValue(ValueError):
    """A 32-byte value that is not a canonical, usable u-coordinate; ``reason`` says why."""

    def __init__(self, reason: str, message: str, index: int | None = None) -> None:
        super().__init__(message)
        self.reason = reason
        self.index = index


# ``BadValue.reason`` codes.
WRONG_LENGTH = "wrong-length"
HIGH_BIT = "high-bit"  # bit 255 set
NOT_REDUCED = "not-reduced"  # u >= p
LOW_ORDER_POINT = "low-order"  # 0, 1, p-1 and the two points of order 8
DUPLICATE = "duplicate"


def value_problem(u: bytes) -> str | None:
    """Why ``u`` is not a canonical u-coordinate to accept from a peer, or None if it is.

    Canonical: exactly 32 bytes, little-endian, bit 255 clear, ``0 < u < p``, and not a
    low-order point. (``u`` and ``u + p``, or ``u`` with bit 255 set, are the same point
    to X25519: accepting both would let a duplicate pass a byte-wise distinctness check.)
    """
    if type(u) is not bytes or len(u) != POINT_BYTES:
        return WRONG_LENGTH
    if u[31] & 0x80:
        return HIGH_BIT
    if int.from_bytes(u, "little") >= P:
        return NOT_REDUCED
    if u in LOW_ORDER:
        return LOW_ORDER_POINT
    return None


def check_value(u: bytes) -> None:
    problem = value_problem(u)
    if problem is not None:
        raise BadValue(problem, f"not a canonical curve value ({problem})")


def split(deck: bytes) -> list[bytes]:
    """The 32-byte values of a deck, in order."""
    return [deck[i : i + POINT_BYTES] for i in range(0, len(deck), POINT_BYTES)]


def check_deck(deck: bytes, items: int) -> list[bytes]:
    """The values of ``deck`` if it holds ``items`` canonical, distinct values; else
    ``BadValue`` naming the first bad position (``index``)."""
    if type(deck) is not bytes or len(deck) != POINT_BYTES * items:
        raise BadValue(WRONG_LENGTH, f"a deck of {items} values is {POINT_BYTES * items} bytes")
    values = split(deck)
    seen: set[bytes] = set()
    for index, u in enumerate(values):
        problem = value_problem(u)
        if problem is not None:
            raise BadValue(problem, f"position {index}: not a canonical value ({problem})", index)
        if u in seen:
            raise BadValue(DUPLICATE, f"position {index}: a duplicate value", index)
        seen.add(u)
    return values


# -- scalars --------------------------------------------------------------------------------


def clamp(raw: bytes) -> int:
    """RFC 7748 clamping of 32 bytes, as an int: ``2^254 + 8k``."""
    if len(raw) != SCALAR_BYTES:
        raise ValueError("a scalar is 32 bytes")
    k = int.from_bytes(raw, "little")
    return (k & ~7 & ((1 << 255) - 1)) | _CLAMP_BASE


def is_clamped(k: int) -> bool:
    return type(k) is int and k >> 254 == 1 and k & 7 == 0


def clamped_rep(t: int) -> int | None:
    """The clamped scalar ``c`` with ``c ≡ t (mod L)``, or None; it is unique if it exists."""
    k = ((t - _CLAMP_BASE) * _INV8) % L
    return _CLAMP_BASE + 8 * k if k < _K_LIMIT else None


def scalar_bytes(k: int) -> bytes:
    return k.to_bytes(SCALAR_BYTES, "little")


def scalar_from_bytes(raw: bytes) -> int:
    """A clamped scalar from its 32 little-endian bytes; ValueError if it is not clamped."""
    if type(raw) is not bytes or len(raw) != SCALAR_BYTES:
        raise ValueError("a scalar is 32 bytes")
    k = int.from_bytes(raw, "little")
    if not is_clamped(k):
        raise ValueError("not a clamped scalar")
    return k


def inverses_mod_l(values: Sequence[int]) -> list[int]:
    """``v^-1 mod L`` for every ``v`` (none ≡ 0), with one inversion (Montgomery's trick)."""
    prefix = [1]
    for v in values:
        prefix.append(prefix[-1] * v % L)
    inv = pow(prefix[-1], -1, L)
    out = [0] * len(values)
    for i in range(len(values) - 1, -1, -1):
        out[i] = inv * prefix[i] % L
        inv = inv * values[i] % L
    return out


def inverse(e: int) -> int | None:
    """The clamped decryption key of the clamped key ``e``, or None if it has none."""
    return clamped_rep(pow(e, -1, L))


@dataclass(frozen=True, slots=True)
class KeyPair:
    """An encryption key ``e`` and its decryption key ``d``: both clamped, ``d·e ≡ 1 (mod L)``."""

    e: int
    d: int

    def __repr__(self) -> str:  # keys are secret until revealed
        return "KeyPair(...)"


def keypair_from_bytes(raw: bytes) -> KeyPair | None:
    """One try of key generation: ``e = clamp(raw)``, kept if its inverse is clampable."""
    e = clamp(raw)
    d = inverse(e)
    return None if d is None else KeyPair(e, d)


def generate_keypair(randbytes: Callable[[int], bytes] = secrets.token_bytes) -> KeyPair:
    """A fresh key pair by rejection sampling (about two tries on average)."""
    while True:
        pair = keypair_from_bytes(randbytes(SCALAR_BYTES))
        if pair is not None:
            return pair


def _candidate(secret: bytes, index: int, counter: int) -> bytes:
    data = KEY_TAG + secret + index.to_bytes(2, "big") + counter.to_bytes(4, "big")
    return hashlib.shake_256(data).digest(SCALAR_BYTES)


class BadKey(ValueError):
    """A revealed key that is not clamped or has no clamped inverse; ``position`` is -1 for
    the global key."""

    def __init__(self, position: int) -> None:
        where = "the global key" if position < 0 else f"the key of position {position}"
        super().__init__(f"{where} is not clamped or has no clamped inverse")
        self.position = position


@dataclass(frozen=True, eq=False)
class RoundKeys:
    """One player's keys for one round: a global pair and one pair per deck position.

    ``derive`` makes them from a 32-byte ``secret``, so a player that must reconnect
    keeps only the secret. Position keys are drawn so that ``d_global·e_position``
    always has a clamped representative: the lock pass is then one ladder per value.
    """

    global_key: KeyPair
    positions: tuple[KeyPair, ...]
    secret: bytes | None = field(default=None, repr=False)

    @classmethod
    def derive(cls, secret: bytes, items: int) -> RoundKeys:
        if type(secret) is not bytes or len(secret) != 32:
            raise ValueError("a round secret is 32 bytes")
        if not 1 <= items <= MAX_ITEMS:
            raise ValueError(f"items must be 1..{MAX_ITEMS}")
        global_key = _derive_pair(secret, 0, None)
        positions = tuple(_derive_pair(secret, 1 + k, global_key.d) for k in range(items))
        return cls(global_key, positions, secret)

    @classmethod
    def generate(cls, items: int) -> RoundKeys:
        return cls.derive(secrets.token_bytes(32), items)

    @classmethod
    def from_revealed(cls, e_global: int, e_positions: Sequence[int]) -> RoundKeys:
        """The keys another player revealed (the ``d``'s recomputed); ValueError naming
        the first key that is not clamped or has no clamped inverse (``-1``: the global
        key, else the position)."""
        es = [e_global, *e_positions]
        for index, e in enumerate(es):
            if not is_clamped(e):
                raise BadKey(index - 1)
        pairs = []
        for index, (e, e_inv) in enumerate(zip(es, inverses_mod_l(es), strict=True)):
            d = clamped_rep(e_inv)
            if d is None:
                raise BadKey(index - 1)
            pairs.append(KeyPair(e, d))
        return cls(pairs[0], tuple(pairs[1:]))

    @property
    def items(self) -> int:
        return len(self.positions)

    @cached_property
    def lock_keys(self) -> tuple[X25519PrivateKey | None, ...]:
        """Per position, the ladder key of the lock pass, ``d_global·e_k`` clamped (None
        where that has no clamped form, which ``derive`` never draws). Made once, ahead of
        the round: building a key object costs about as much as a ladder."""
        d = self.global_key.d
        return tuple(_lock_key(d, pair.e) for pair in self.positions)

    def permutation(self) -> list[int]:
        """The shuffle pass's permutation, derived from the secret like the keys: a player
        that redoes its pass after a reconnect signs the same bytes again."""
        if self.secret is None:
            raise ValueError("revealed keys carry no secret")
        return derived_permutation(self.secret, self.items)

    def __repr__(self) -> str:
        return f"RoundKeys(items={self.items})"


def _derive_pair(secret: bytes, index: int, lock_with: int | None) -> KeyPair:
    for counter in range(1 << 32):
        e = clamp(_candidate(secret, index, counter))
        # The cheap test first: the inverse costs a modular inversion.
        if lock_with is not None and clamped_rep(lock_with * e) is None:
            continue
        d = inverse(e)
        if d is not None:
            return KeyPair(e, d)
    raise AssertionError("unreachable: a quarter of all candidates are accepted")


# -- ladders --------------------------------------------------------------------------------


def private_key(k: int) -> X25519PrivateKey:
    return X25519PrivateKey.from_private_bytes(k.to_bytes(SCALAR_BYTES, "little"))


def apply(key: X25519PrivateKey, u: bytes) -> bytes:
    """``X25519(key, u)``; ValueError if the result is the identity (a low-order ``u``)."""
    return key.exchange(X25519PublicKey.from_public_bytes(u))


def apply_all(scalars: Sequence[int], u: bytes) -> bytes:
    """``u`` under every key of ``scalars`` (clamped ints), with as few ladders as we can.

    On the prime-order subgroup only the product mod ``L`` matters: one ladder with its
    clamped representative if there is one, else one key applied alone and one ladder
    with the rest, else key by key. (On other points, which no honest step produces,
    the result depends on the grouping; docs/private-deal.md says why that is harmless.)
    """
    if len(scalars) == 1:
        return apply(private_key(scalars[0]), u)
    product = 1
    for k in scalars:
        product = product * k % L
    rep = clamped_rep(product)
    if rep is not None:
        return apply(private_key(rep), u)
    for k in scalars:
        rest = clamped_rep(product * pow(k, -1, L))
        if rest is not None:
            return apply(private_key(rest), apply(private_key(k), u))
    for k in scalars:
        u = apply(private_key(k), u)
    return u


# -- items ----------------------------------------------------------------------------------

COFACTOR_SCALAR = clamp(hashlib.sha256(COFACTOR_TAG).digest())
"""The fixed public clamped scalar that moves a hashed point into the prime-order subgroup."""


def _legendre_square(x: int) -> bool:
    return pow(x, (P - 1) // 2, P) == 1


def item_candidate(item: int, counter: int) -> int:
    """``u = SHAKE-256(ITEM_TAG || u16be(item) || u16be(counter))[:32]`` as a little-endian
    int, reduced mod p."""
    data = ITEM_TAG + item.to_bytes(2, "big") + counter.to_bytes(2, "big")
    return int.from_bytes(hashlib.shake_256(data).digest(32), "little") % P


def on_curve(u: int) -> bool:
    """``u^3 + A u^2 + u`` is a non-zero square mod p: ``u`` is on the curve, not the twist."""
    return _legendre_square((u * u * u + A * u * u + u) % P)


def encode_item(item: int) -> tuple[bytes, int]:
    """The encoding of item ``item`` and the counter that produced it.

    Hash to a u-coordinate, keep the first on the curve, and multiply by the fixed
    clamped ``COFACTOR_SCALAR`` (a multiple of 8) into the prime-order subgroup; nobody
    knows a discrete-log relation between two items' encodings.
    """
    if not 0 <= item <= 0xFFFF:
        raise ValueError("an item number is 0..65535")
    fixed = private_key(COFACTOR_SCALAR)
    for counter in range(0x10000):
        u = item_candidate(item, counter)
        if u == 0 or not on_curve(u):
            continue
        try:
            return apply(fixed, u.to_bytes(32, "little")), counter
        except ValueError:  # a low-order point: the product is the identity
            continue
    raise AssertionError("unreachable: half of all candidates are on the curve")


@lru_cache(maxsize=8)
def item_table(items: int) -> tuple[bytes, ...]:
    """The encodings of items ``0..items-1``: the starting deck ``D_0``, in item order."""
    if not 1 <= items <= MAX_ITEMS:
        raise ValueError(f"items must be 1..{MAX_ITEMS}")
    table = tuple(encode_item(i)[0] for i in range(items))
    if len(set(table)) != items:  # would need a SHA-3 collision; checked all the same
        raise AssertionError("two items share an encoding")
    return table


@lru_cache(maxsize=8)
def item_index(items: int) -> dict[bytes, int]:
    return {value: i for i, value in enumerate(item_table(items))}


def lookup(value: bytes, items: int) -> int | None:
    """The item whose encoding is ``value``, or None: a value that opens to no item is
    proof that somebody cheated."""
    return item_index(items).get(value)


# -- passes ---------------------------------------------------------------------------------


def random_permutation(count: int, rng: secrets.SystemRandom | None = None) -> list[int]:
    """A uniform permutation of ``range(count)`` from the operating system's generator."""
    order = list(range(count))
    (rng or secrets.SystemRandom()).shuffle(order)
    return order


def derived_permutation(secret: bytes, count: int) -> list[int]:
    """Fisher-Yates of ``fairdeal.shuffle_order`` driven by SHA-256(PERMUTATION_TAG || secret)."""
    return fairdeal.shuffle_order(hashlib.sha256(PERMUTATION_TAG + secret).digest(), count)


def check_permutation(perm: Sequence[int], count: int) -> None:
    if len(perm) != count or sorted(perm) != list(range(count)):
        raise ValueError(f"not a permutation of 0..{count - 1}")


def shuffle_pass(deck: Sequence[bytes], key: KeyPair, perm: Sequence[int]) -> bytes:
    """Encrypt every value under ``key.e`` and permute: ``out[i] = X25519(e, deck[perm[i]])``."""
    check_permutation(perm, len(deck))
    enc = private_key(key.e)
    encrypted = [apply(enc, u) for u in deck]
    return b"".join(encrypted[j] for j in perm)


def shuffle_image(deck: Sequence[bytes], e: int) -> list[bytes]:
    """Every value of ``deck`` under ``e``, in the deck's order (the verifier's side)."""
    enc = private_key(e)
    return [apply(enc, u) for u in deck]


def lock_value(u: bytes, global_d: int, position_e: int) -> bytes:
    """Remove the global key from ``u`` and add a position key."""
    rep = clamped_rep(global_d * position_e)
    if rep is not None:
        return apply(private_key(rep), u)
    return apply(private_key(position_e), apply(private_key(global_d), u))


def _lock_key(global_d: int, position_e: int) -> X25519PrivateKey | None:
    rep = clamped_rep(global_d * position_e)
    return None if rep is None else private_key(rep)


def lock_pass(deck: Sequence[bytes], keys: RoundKeys) -> bytes:
    """``out[k] = X25519(d_global·e_k, deck[k])`` for every position ``k``."""
    if len(deck) != keys.items:
        raise ValueError(f"a deck of {len(deck)} values for keys of {keys.items} positions")
    d = keys.global_key.d
    out = []
    for u, pair, key in zip(deck, keys.positions, keys.lock_keys, strict=True):
        out.append(apply(key, u) if key is not None else lock_value(u, d, pair.e))
    return b"".join(out)


def open_value(value: bytes, decryption_keys: Iterable[int]) -> bytes:
    """A final-deck value with every player's decryption key of its position removed."""
    return apply_all(list(decryption_keys), value)
