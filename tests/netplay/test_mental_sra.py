"""The SRA primitives on Curve25519 (netplay.mental.sra): values, keys, passes, opening.

Property tests run on small decks so that every example stays a few ladders; the
protocol tests use the full 60-item deck.
"""

from __future__ import annotations

import hashlib

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from netplay.mental import sra

FAST = settings(max_examples=30, deadline=None)

raw32 = st.binary(min_size=32, max_size=32)


@st.composite
def drawn_pairs(draw: st.DrawFn) -> sra.KeyPair:
    """One try of key generation, kept when it succeeds (about half the time)."""
    pair = sra.keypair_from_bytes(draw(raw32))
    assume(pair is not None)
    return pair  # type: ignore[return-value]


# Key pairs by rejection sampling from a drawn seed (never filtered: lists of them stay cheap).
keypairs = raw32.map(lambda seed: sra.RoundKeys.derive(seed, 1).global_key)


items = st.integers(min_value=0, max_value=59)


def table() -> tuple[bytes, ...]:
    return sra.item_table(60)


# -- values -----------------------------------------------------------------------------------


def test_item_table_is_sixty_distinct_canonical_subgroup_points() -> None:
    values = table()
    assert len(set(values)) == 60
    assert all(sra.value_problem(v) is None for v in values)
    # In the prime-order subgroup: e then its inverse d (d·e ≡ 1 mod L) gives every item
    # back. On a point with a torsion part it would not: the clamped scalars, multiples
    # of 8, drop that part (shown on the torsion twin 1/u, the point plus (0, 0)).
    pair = sra.generate_keypair()
    enc, dec = sra.private_key(pair.e), sra.private_key(pair.d)
    assert all(sra.apply(dec, sra.apply(enc, v)) == v for v in values)
    twin = pow(int.from_bytes(values[0], "little"), -1, sra.P).to_bytes(32, "little")
    assert sra.apply(dec, sra.apply(enc, twin)) == values[0] != twin


def test_item_encoding_follows_its_recipe() -> None:
    for item in (0, 1, 59):
        value, counter = sra.encode_item(item)
        for rejected in range(counter):
            u = sra.item_candidate(item, rejected)
            assert u == 0 or not sra.on_curve(u)
        data = sra.ITEM_TAG + item.to_bytes(2, "big") + counter.to_bytes(2, "big")
        u = int.from_bytes(hashlib.shake_256(data).digest(32), "little") % sra.P
        assert u == sra.item_candidate(item, counter) and sra.on_curve(u)
        fixed = sra.private_key(sra.COFACTOR_SCALAR)
        assert value == sra.apply(fixed, u.to_bytes(32, "little"))


def test_the_cofactor_scalar_is_clamped_and_fixed() -> None:
    assert sra.is_clamped(sra.COFACTOR_SCALAR)
    assert sra.clamp(hashlib.sha256(sra.COFACTOR_TAG).digest()) == sra.COFACTOR_SCALAR


def test_twist_points_fail_the_curve_test() -> None:
    # Candidates land on the curve or on its twist about half the time each.
    flags = {sra.on_curve(sra.item_candidate(0, c)) for c in range(40)}
    assert flags == {True, False}


def test_lookup_finds_items_and_refuses_others() -> None:
    values = table()
    assert [sra.lookup(v, 60) for v in values] == list(range(60))
    assert sra.lookup(sra.apply(sra.private_key(sra.generate_keypair().e), values[0]), 60) is None


def test_low_order_values_make_x25519_refuse() -> None:
    key = sra.private_key(sra.generate_keypair().e)
    for u in sra.LOW_ORDER:
        assert sra.value_problem(u) == sra.LOW_ORDER_POINT
        with pytest.raises(ValueError):
            sra.apply(key, u)


def test_non_canonical_encodings_are_the_same_point_to_x25519() -> None:
    """Why canonical form is required: u, u + p and u with bit 255 set decrypt alike."""
    key = sra.private_key(sra.generate_keypair().e)
    nine = (9).to_bytes(32, "little")
    assert sra.apply(key, (9 + sra.P).to_bytes(32, "little")) == sra.apply(key, nine)
    high = (9 | 1 << 255).to_bytes(32, "little")
    assert sra.apply(key, high) == sra.apply(key, nine)
    assert sra.value_problem((9 + sra.P).to_bytes(32, "little")) == sra.NOT_REDUCED
    assert sra.value_problem(high) == sra.HIGH_BIT


@FAST
@given(st.integers(min_value=1, max_value=sra.P - 1))
def test_canonical_values_below_p_are_accepted(u: int) -> None:
    raw = u.to_bytes(32, "little")
    assume(raw not in sra.LOW_ORDER)
    assert sra.value_problem(raw) is None


@FAST
@given(st.integers(min_value=sra.P, max_value=2**255 - 1))
def test_values_at_or_above_p_are_rejected(u: int) -> None:
    assert sra.value_problem(u.to_bytes(32, "little")) == sra.NOT_REDUCED


@FAST
@given(st.integers(min_value=0, max_value=2**255 - 1))
def test_bit_255_is_rejected(u: int) -> None:
    assert sra.value_problem((u | 1 << 255).to_bytes(32, "little")) == sra.HIGH_BIT


@FAST
@given(st.binary(max_size=40).filter(lambda b: len(b) != 32))
def test_wrong_lengths_are_rejected(raw: bytes) -> None:
    assert sra.value_problem(raw) == sra.WRONG_LENGTH


def test_zero_is_rejected() -> None:
    assert sra.value_problem(bytes(32)) == sra.LOW_ORDER_POINT
    with pytest.raises(sra.BadValue) as exc:
        sra.check_value(bytes(32))
    assert exc.value.reason == sra.LOW_ORDER_POINT
    sra.check_value(table()[0])


@FAST
@given(st.integers(min_value=0, max_value=7), st.integers(min_value=0, max_value=7))
def test_check_deck_names_the_first_duplicate(i: int, j: int) -> None:
    assume(i < j)
    values = list(table()[:8])
    values[j] = values[i]
    with pytest.raises(sra.BadValue) as exc:
        sra.check_deck(b"".join(values), 8)
    assert exc.value.reason == sra.DUPLICATE and exc.value.index == j


@FAST
@given(st.integers(min_value=0, max_value=7), st.sampled_from(sorted(sra.LOW_ORDER)))
def test_check_deck_names_a_bad_value(i: int, bad: bytes) -> None:
    values = list(table()[:8])
    values[i] = bad
    with pytest.raises(sra.BadValue) as exc:
        sra.check_deck(b"".join(values), 8)
    assert exc.value.reason == sra.LOW_ORDER_POINT and exc.value.index == i


def test_check_deck_wants_the_exact_length() -> None:
    deck = b"".join(table()[:8])
    assert sra.check_deck(deck, 8) == list(table()[:8])
    for wrong in (deck[:-1], deck + b"\x01", deck[:-32]):
        with pytest.raises(sra.BadValue):
            sra.check_deck(wrong, 8)


# -- scalars and keys ------------------------------------------------------------------------


@FAST
@given(raw32)
def test_clamping(raw: bytes) -> None:
    k = sra.clamp(raw)
    assert sra.is_clamped(k) and k < 2**255
    assert sra.clamped_rep(k) == k  # a clamped scalar is its own representative
    assert sra.scalar_from_bytes(sra.scalar_bytes(k)) == k


@FAST
@given(st.integers(min_value=0, max_value=sra.L - 1))
def test_clamped_rep_is_congruent_and_clamped_or_absent(t: int) -> None:
    rep = sra.clamped_rep(t)
    if rep is not None:
        assert sra.is_clamped(rep) and rep % sra.L == t
    else:  # no 2^254 + 8k with k < 2^251 is congruent: the one k mod L is too large
        k = ((t - 2**254) * pow(8, -1, sra.L)) % sra.L
        assert k >= 2**251


@FAST
@given(st.one_of(drawn_pairs(), keypairs))
def test_keypairs_are_clamped_inverses(pair: sra.KeyPair) -> None:
    assert sra.is_clamped(pair.e) and sra.is_clamped(pair.d)
    assert pair.e * pair.d % sra.L == 1
    assert "e=" not in repr(pair)


@FAST
@given(st.lists(st.integers(min_value=1, max_value=sra.L - 1), max_size=20))
def test_batch_inversion(values: list[int]) -> None:
    assert sra.inverses_mod_l(values) == [pow(v, -1, sra.L) for v in values]


def test_about_half_of_all_clamped_keys_have_a_clamped_inverse() -> None:
    tries = [sra.keypair_from_bytes(hashlib.sha256(bytes([i])).digest()) for i in range(200)]
    accepted = sum(p is not None for p in tries)
    assert 60 < accepted < 140


def test_scalar_from_bytes_refuses_unclamped() -> None:
    for bad in (bytes(32), b"\xff" * 32, b"\x01" * 31):
        with pytest.raises(ValueError):
            sra.scalar_from_bytes(bad)


def test_round_keys_derive_deterministically_with_clampable_locks() -> None:
    secret = bytes(range(32))
    keys = sra.RoundKeys.derive(secret, 60)
    again = sra.RoundKeys.derive(secret, 60)
    assert [p.e for p in keys.positions] == [p.e for p in again.positions]
    assert keys.permutation() == again.permutation()
    assert sorted(keys.permutation()) == list(range(60))
    assert sra.RoundKeys.derive(bytes(32), 60).global_key.e != keys.global_key.e
    d = keys.global_key.d
    assert all(sra.clamped_rep(d * p.e) is not None for p in keys.positions)
    assert all(k is not None for k in keys.lock_keys)


def test_revealed_keys_are_checked() -> None:
    keys = sra.RoundKeys.derive(bytes(32), 4)
    es = [p.e for p in keys.positions]
    again = sra.RoundKeys.from_revealed(keys.global_key.e, es)
    assert [p.d for p in again.positions] == [p.d for p in keys.positions]
    no_inverse = next(
        sra.clamp(hashlib.sha256(bytes([i])).digest())
        for i in range(256)
        if sra.keypair_from_bytes(hashlib.sha256(bytes([i])).digest()) is None
    )
    with pytest.raises(sra.BadKey) as exc:
        sra.RoundKeys.from_revealed(keys.global_key.e, [*es[:2], no_inverse, es[3]])
    assert exc.value.position == 2
    with pytest.raises(sra.BadKey) as exc:
        sra.RoundKeys.from_revealed(no_inverse, es)
    assert exc.value.position == -1
    with pytest.raises(sra.BadKey):
        sra.RoundKeys.from_revealed(keys.global_key.e + 1, es)  # not clamped


# -- the algebra -----------------------------------------------------------------------------


@FAST
@given(keypairs, keypairs, items)
def test_encryption_commutes(a: sra.KeyPair, b: sra.KeyPair, item: int) -> None:
    card = table()[item]
    ka, kb = sra.private_key(a.e), sra.private_key(b.e)
    assert sra.apply(ka, sra.apply(kb, card)) == sra.apply(kb, sra.apply(ka, card))


@FAST
@given(keypairs, items)
def test_decryption_undoes_encryption(pair: sra.KeyPair, item: int) -> None:
    card = table()[item]
    locked = sra.apply(sra.private_key(pair.e), card)
    assert locked != card
    assert sra.apply(sra.private_key(pair.d), locked) == card


@FAST
@given(st.lists(keypairs, min_size=1, max_size=6), items)
def test_apply_all_is_every_key_in_turn(pairs: list[sra.KeyPair], item: int) -> None:
    card = table()[item]
    one_by_one = card
    for pair in pairs:
        one_by_one = sra.apply(sra.private_key(pair.e), one_by_one)
    assert sra.apply_all([p.e for p in pairs], card) == one_by_one
    assert sra.open_value(one_by_one, [p.d for p in reversed(pairs)]) == card


@FAST
@given(keypairs, st.permutations(range(8)))
def test_shuffle_pass_is_a_permutation_of_the_encrypted_deck(
    pair: sra.KeyPair, perm: list[int]
) -> None:
    deck = list(table()[:8])
    out = sra.split(sra.shuffle_pass(deck, pair, perm))
    image = sra.shuffle_image(deck, pair.e)
    assert sorted(out) == sorted(image)
    assert out == [image[j] for j in perm]
    assert sra.check_deck(b"".join(out), 8) == out


def test_shuffle_pass_refuses_a_non_permutation() -> None:
    with pytest.raises(ValueError):
        sra.shuffle_pass(list(table()[:3]), sra.generate_keypair(), [0, 0, 1])


@settings(max_examples=8, deadline=None)
@given(st.lists(raw32, min_size=2, max_size=4), st.data())
def test_open_after_lock_is_the_identity(secrets_: list[bytes], data: st.DataObject) -> None:
    """Shuffle passes, then lock passes, then every position opened with every player's
    position key gives back the items, permuted by the shuffles."""
    count = 6
    players = [sra.RoundKeys.derive(s, count) for s in secrets_]
    deck = list(table()[:count])
    perms = [data.draw(st.permutations(range(count))) for _ in players]
    for keys, perm in zip(players, perms, strict=True):
        deck = sra.split(sra.shuffle_pass(deck, keys.global_key, perm))
    for keys in players:
        deck = sra.split(sra.lock_pass(deck, keys))
    opened = [
        sra.lookup(sra.open_value(v, [k.positions[pos].d for k in players]), 60)
        for pos, v in enumerate(deck)
    ]
    expected = list(range(count))
    for perm in perms:
        expected = [expected[j] for j in perm]
    assert opened == expected


def test_lock_value_without_a_clamped_product_takes_two_ladders() -> None:
    keys = [sra.keypair_from_bytes(hashlib.sha256(bytes([i])).digest()) for i in range(64)]
    pairs = [p for p in keys if p is not None]
    d, e = next((a.d, b.e) for a in pairs for b in pairs if sra.clamped_rep(a.d * b.e) is None)
    card = table()[3]
    expected = sra.apply(sra.private_key(e), sra.apply(sra.private_key(d), card))
    assert sra.lock_value(card, d, e) == expected
