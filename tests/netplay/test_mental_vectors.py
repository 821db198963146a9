"""tests/vectors/private-deal-v1.json: every field reproduced from the spec's recipes.

Most checks recompute a field from the fields before it with the primitives (or with
hashlib alone, where the spec needs nothing else); the round is then verified from its
recorded envelopes only, and the generator must still write the file byte for byte.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest

from netplay.mental import protocol as proto
from netplay.mental import sra
from netplay.signing import Envelope, SigningKey, signature_input, verify

VECTORS = Path(__file__).resolve().parents[1] / "vectors"
DATA: dict[str, Any] = json.loads((VECTORS / "private-deal-v1.json").read_text(encoding="utf-8"))
ROUND = DATA["round"]


def b(text: str) -> bytes:
    return bytes.fromhex(text)


def k(text: str) -> int:
    return int.from_bytes(b(text), "little")


def test_constants() -> None:
    c = DATA["constants"]
    assert DATA["protocol"] == proto.PROTOCOL == "private-sra-x25519-v1"
    assert int(c["p"], 16) == 2**255 - 19
    assert int(c["l"], 16) == 2**252 + 27742317777372353535851937790883648493
    assert c["a"] == 486662
    raw = hashlib.sha256(c["cofactor_tag"].encode()).digest()
    clamped = bytearray(raw)
    clamped[0] &= 248
    clamped[31] &= 127
    clamped[31] |= 64
    assert (
        c["cofactor_scalar"] == bytes(clamped).hex() == sra.scalar_bytes(sra.COFACTOR_SCALAR).hex()
    )
    tags = [c[t] for t in ("item_tag", "cofactor_tag", "key_tag", "permutation_tag", "setup_tag")]
    tags += [c["deck_tag"], c["message_tag"]]
    assert all(t.startswith("netplay/private-deal/v1/") for t in tags) and len(set(tags)) == 7
    assert c["envelope_label"] == "netplay/v1/envelope"
    assert {b(u) for u in c["low_order"]} == set(sra.LOW_ORDER)


@pytest.mark.parametrize("entry", DATA["items"], ids=lambda e: f"item{e['item']}")
def test_item_encoding(entry: dict[str, Any]) -> None:
    item, counter = entry["item"], entry["counter"]
    p, a = sra.P, sra.A
    for ctr in range(counter + 1):  # hashlib and pow only: the recipe of the spec
        data = (
            DATA["constants"]["item_tag"].encode()
            + item.to_bytes(2, "big")
            + ctr.to_bytes(2, "big")
        )
        u = int.from_bytes(hashlib.shake_256(data).digest(32), "little") % p
        square = u != 0 and pow((u**3 + a * u * u + u) % p, (p - 1) // 2, p) == 1
        assert square == (ctr == counter)
    assert u.to_bytes(32, "little") == b(entry["u"])
    assert sra.encode_item(item) == (b(entry["value"]), counter)
    fixed = sra.private_key(sra.COFACTOR_SCALAR)
    assert sra.apply(fixed, b(entry["u"])) == b(entry["value"])


def test_item_table_is_the_starting_deck() -> None:
    table = b"".join(b(e["value"]) for e in DATA["items"])
    assert table == b"".join(sra.item_table(60)) == b(ROUND["decks"][0])


@pytest.mark.parametrize("entry", DATA["keygen"], ids=lambda e: e["bytes"][:8])
def test_keygen(entry: dict[str, Any]) -> None:
    e = sra.clamp(b(entry["bytes"]))
    assert sra.scalar_bytes(e).hex() == entry["e"]
    pair = sra.keypair_from_bytes(b(entry["bytes"]))
    if entry["d"] is None:
        assert pair is None
        t = pow(e, -1, sra.L)
        assert ((t - 2**254) * pow(8, -1, sra.L)) % sra.L >= 2**251  # no clamped inverse
    else:
        d = k(entry["d"])
        assert pair == sra.KeyPair(e, d) and e * d % sra.L == 1 and sra.is_clamped(d)


def test_keygen_vectors_show_both_outcomes() -> None:
    assert {e["d"] is None for e in DATA["keygen"]} == {True, False}


def test_round_keys() -> None:
    entry = DATA["round_keys"]
    keys = sra.RoundKeys.derive(b(entry["secret"]), entry["items"])
    assert sra.scalar_bytes(keys.global_key.e).hex() == entry["global"]["e"]
    assert sra.scalar_bytes(keys.global_key.d).hex() == entry["global"]["d"]
    assert [(sra.scalar_bytes(p.e).hex(), sra.scalar_bytes(p.d).hex()) for p in keys.positions] == [
        (p["e"], p["d"]) for p in entry["positions"]
    ]
    assert keys.permutation() == entry["permutation"]


def setup() -> proto.DealSetup:
    return proto.DealSetup.from_json(ROUND["setup"])


def test_round_setup() -> None:
    s = setup()
    assert s.digest.hex() == ROUND["setup_digest"]
    n, items = s.seats, s.items
    owners = bytes(s.owners)
    expected = hashlib.sha256(
        proto.SETUP_TAG
        + s.game_id
        + s.round.to_bytes(2, "big")
        + s.attempt.to_bytes(2, "big")
        + bytes([n])
        + items.to_bytes(2, "big")
        + bytes(s.chain)
        + owners
        + b"".join(s.signing_keys)
    ).digest()
    assert expected.hex() == ROUND["setup_digest"]
    assert ROUND["context"] == (s.game_id.hex() + "0003" + "0000" + ROUND["setup_digest"])
    keys = [SigningKey.from_private_bytes(b(seed)).public_key for seed in ROUND["signing_seeds"]]
    assert tuple(keys) == s.signing_keys


def test_round_passes_from_keys_and_permutations() -> None:
    s = setup()
    keys = {seat: sra.RoundKeys.derive(b(ROUND["round_secrets"][seat]), 60) for seat in range(3)}
    decks = [b(d) for d in ROUND["decks"]]
    assert len(decks) == 7
    for index in range(6):
        seat = s.pass_seat(index)
        before = sra.split(decks[index])
        if index < 3:
            perm = ROUND["permutations"][str(seat)]
            assert perm == keys[seat].permutation()
            assert sra.shuffle_pass(before, keys[seat].global_key, perm) == decks[index + 1]
        else:
            assert sra.lock_pass(before, keys[seat]) == decks[index + 1]
    for deck, digest in zip(decks, ROUND["deck_hashes"], strict=True):
        assert hashlib.sha256(proto.DECK_TAG + deck).hexdigest() == digest


def test_round_envelopes_are_signed_exactly() -> None:
    s = setup()
    signers = [SigningKey.from_private_bytes(b(seed)) for seed in ROUND["signing_seeds"]]
    for entry in ROUND["envelopes"]:
        env = Envelope.from_json(entry)
        data = signature_input(proto.MESSAGE_TAG, s.context, env.sender, env.seq, env.body)
        assert signers[env.sender].sign(data) == env.sig  # Ed25519 is deterministic
        assert verify(s.signing_keys[env.sender], proto.MESSAGE_TAG, s.context, env)


def test_round_messages_in_relay_order() -> None:
    bodies = [proto.decode_body(b(e["body"])) for e in ROUND["envelopes"]]
    kinds = [m["t"] for m in bodies]
    assert kinds == ["shuffle"] * 3 + ["lock"] * 3 + ["release"] * 3 + ["open"] * 9 + ["reveal"] * 3
    for i, m in enumerate(bodies[:6]):
        assert m["prev"].hex() == ROUND["deck_hashes"][i]
        assert m["deck"].hex() == ROUND["decks"][i + 1]
    senders = [e["from"] for e in ROUND["envelopes"]]
    assert senders[:6] == [1, 2, 0, 1, 2, 0]


def test_round_released_keys_hands_and_plays() -> None:
    s = setup()
    keys = {seat: sra.RoundKeys.derive(b(ROUND["round_secrets"][seat]), 60) for seat in range(3)}
    for seat, released in ROUND["released"].items():
        expected = {
            str(p): sra.scalar_bytes(keys[int(seat)].positions[p].d).hex()
            for p in s.released_by(int(seat))
        }
        assert released == expected
    final = sra.split(b(ROUND["decks"][6]))
    opened = {}
    for position, value in enumerate(final):
        ds = [keys[seat].positions[position].d for seat in s.chain]
        opened[position] = sra.lookup(sra.open_value(value, ds), 60)
    assert ROUND["items"] == [opened[p] for p in range(60)]
    for seat, hand in ROUND["hands"].items():
        assert {int(p) for p in hand} == set(s.positions_of(int(seat)))
        assert all(opened[int(p)] == item for p, item in hand.items())
    assert ROUND["public"] == {str(p): opened[p] for p in s.public_positions}
    assert [[seat, pos, opened[pos]] for seat, pos, _ in ROUND["plays"]] == ROUND["plays"]


def test_round_verifies_from_its_envelopes_alone() -> None:
    envelopes = [Envelope.from_json(e) for e in ROUND["envelopes"]]
    result = proto.audit_transcript(setup(), envelopes)
    assert list(result.items) == ROUND["items"]


def test_a_changed_vector_fails_to_verify() -> None:
    envelopes = [Envelope.from_json(e) for e in ROUND["envelopes"]]
    envelopes[4], envelopes[5] = envelopes[5], envelopes[4]
    with pytest.raises(proto.DealFault):
        proto.audit_transcript(setup(), envelopes)


def test_the_generator_writes_this_file() -> None:
    spec = importlib.util.spec_from_file_location(
        "make_private_deal_vectors", VECTORS / "make_private_deal_vectors.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.render(module.build()) == (VECTORS / "private-deal-v1.json").read_text(
        encoding="utf-8"
    )
