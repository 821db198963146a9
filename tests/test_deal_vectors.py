"""The fair deal reproduces every field of every published test vector (docs/fairness.md), and
both deals every field of the vectors of decks with special cards (deal-v1-specials.json)."""

from __future__ import annotations

import hashlib
import importlib.util
import json
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey

from netplay import fairdeal
from netplay.mental import (
    DealFault,
    DealSetup,
    audit_transcript,
    played_items,
    shown_items,
    sra,
)
from netplay.mental import protocol as proto
from netplay.signing import Envelope, SigningKey
from wizard_tui.deal import deal_round, deck_for_round, deck_from_order
from wizard_tui.game import Game, GameConfig
from wizard_tui.game.specials import Special, deck_cards
from wizard_tui.private_deal import round_setup

VECTORS = json.loads((Path(__file__).parent / "vectors" / "deal-v1-vectors.json").read_text())
CASES = VECTORS["cases"]


def _ids(case: dict) -> str:
    return f"{case['players']}p-round{case['round']}-dealer{case['dealer']}"


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_commitments(case: dict) -> None:
    game_id = bytes.fromhex(case["game_id"])
    seeds = [bytes.fromhex(s) for s in case["seeds"]]
    got = [fairdeal.commitment(game_id, case["round"], seat, s) for seat, s in enumerate(seeds)]
    assert [c.hex() for c in got] == case["commitments"]
    for seat, (commit, seed) in enumerate(zip(got, seeds, strict=True)):
        assert fairdeal.opens(commit, game_id, case["round"], seat, seed)
        assert not fairdeal.opens(commit, game_id, case["round"], (seat + 1) % len(seeds), seed)


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_combined_seed_and_stream(case: dict) -> None:
    game_id = bytes.fromhex(case["game_id"])
    seeds = [bytes.fromhex(s) for s in case["seeds"]]
    combined = fairdeal.combined_seed(game_id, case["round"], seeds)
    assert combined.hex() == case["combined_seed"]
    assert hashlib.shake_256(combined).digest(16).hex() == case["shake256_first_16_bytes"]


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_deck_hands_and_trump(case: dict) -> None:
    game_id = bytes.fromhex(case["game_id"])
    seeds = [bytes.fromhex(s) for s in case["seeds"]]
    assert list(deck_for_round(game_id, case["round"], seeds)) == case["deck"]
    dealt = deal_round(game_id, case["round"], seeds, case["dealer"], hand_size=case["round"])
    assert [list(h) for h in dealt.hands] == case["hands"]
    assert dealt.trump_card == case["trump_card"]


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_engine_deals_the_same_hands(case: dict) -> None:
    """The engine's own deal from a deck agrees with the spec's round-robin deal."""
    n, r, dealer = case["players"], case["round"], case["dealer"]
    game = Game(GameConfig(n, first_dealer=(dealer - (r - 1)) % n))
    filler = list(range(60))
    while game.round < r - 1:  # fast-forward: skip earlier rounds by replaying trivial ones
        game = _skip_round(game, filler)
    game.deal(case["deck"])
    assert game.dealer == dealer
    assert [list(game.dealt_hand(s)) for s in range(n)] == case["hands"]
    assert game.trump_card == case["trump_card"]


def _skip_round(game: Game, deck: list[int]) -> Game:
    from wizard_tui.game import Phase

    game.deal(deck)
    while game.phase is not Phase.DEAL:
        if game.phase is Phase.CHOOSE_TRUMP:
            game.choose_trump(game.turn, 0)
        elif game.phase is Phase.BID:
            game.bid(game.turn, game.legal_bids()[0])
        else:
            game.play(game.turn, game.legal_plays()[0])
    return game


def test_shuffle_is_a_permutation_for_any_size() -> None:
    for count in (0, 1, 2, 7, 60, 64):
        order = fairdeal.shuffle_order(b"seed", count)
        assert sorted(order) == list(range(count))


def test_shuffle_extends_the_stream_when_needed() -> None:
    # 300 items need more than the initial 320 bytes of stream: the result must still be
    # a permutation, and its prefix behaviour must match a single long digest.
    order = fairdeal.shuffle_order(b"long", 300)
    assert sorted(order) == list(range(300))


# -- decks with special cards (tests/vectors/deal-v1-specials.json) ------------------------------

SPECIAL_VECTORS = json.loads(
    (Path(__file__).parent / "vectors" / "deal-v1-specials.json").read_text(encoding="utf-8")
)


def _special_ids(case: dict) -> str:
    return f"{case['players']}p-round{case['round']}-{'+'.join(case['specials'])}"


def _specials(case: dict) -> frozenset[Special]:
    return frozenset(Special.parse(name) for name in case["specials"])


def _spec_shuffle(seed: bytes, cards: list[int]) -> list[int]:
    """docs/fairness.md section 5 with the table's cards, from hashlib alone."""
    deck = list(cards)
    stream, pos = hashlib.shake_256(seed).digest(1024), 0
    for i in range(len(deck) - 1, 0, -1):
        m = i + 1
        limit = 2**32 - 2**32 % m
        while True:
            x = int.from_bytes(stream[pos : pos + 4], "big")
            pos += 4
            if x < limit:
                break
        j = x % m
        deck[i], deck[j] = deck[j], deck[i]
    return deck


@pytest.mark.parametrize("case", SPECIAL_VECTORS["commit_reveal"], ids=_special_ids)
def test_special_commit_reveal_deck(case: dict) -> None:
    game_id = bytes.fromhex(case["game_id"])
    seeds = [bytes.fromhex(s) for s in case["seeds"]]
    r, specials = case["round"], _specials(case)
    cards = list(deck_cards(specials))
    assert case["cards"] == cards and len(cards) == 60 + len(specials)
    assert [fairdeal.commitment(game_id, r, s, seed).hex() for s, seed in enumerate(seeds)] == (
        case["commitments"]
    )
    combined = hashlib.sha256(
        b"wizard-tui/v1/deck" + game_id + r.to_bytes(2, "big") + b"".join(seeds)
    ).digest()
    assert combined.hex() == case["combined_seed"]
    assert hashlib.shake_256(combined).digest(16).hex() == case["shake256_first_16_bytes"]
    assert fairdeal.shuffle_order(combined, len(cards)) == case["order"]
    # Shuffling the cards themselves and mapping the shuffled indices give one deck.
    assert _spec_shuffle(combined, cards) == [cards[i] for i in case["order"]] == case["deck"]
    assert list(deck_for_round(game_id, r, seeds, specials)) == case["deck"]
    dealt = deal_round(game_id, r, seeds, case["dealer"], hand_size=r, specials=specials)
    assert [list(h) for h in dealt.hands] == case["hands"]
    assert dealt.trump_card == case["trump_card"] == case["deck"][case["players"] * r]


def test_special_vectors_cover_a_last_round_and_a_mapped_deck() -> None:
    cases = SPECIAL_VECTORS["commit_reveal"]
    # The last round deals all 60 plain cards' worth and still turns a trump card.
    assert any(c["players"] * c["round"] == 60 and c["trump_card"] is not None for c in cases)
    # Item indices past 59 that are not the card ids themselves, and such a card dealt.
    mapped = [c for c in cases if c["cards"][60:] != list(range(60, len(c["cards"])))]
    assert any(card >= 60 for c in mapped for hand in c["hands"] for card in hand)


def test_a_plain_table_deals_exactly_the_plain_deck() -> None:
    case = CASES[0]
    game_id = bytes.fromhex(case["game_id"])
    seeds = [bytes.fromhex(s) for s in case["seeds"]]
    assert list(deck_for_round(game_id, case["round"], seeds, frozenset())) == case["deck"]
    assert deck_from_order(case["deck"]) == tuple(case["deck"])
    with pytest.raises(ValueError):
        deck_from_order(case["deck"], {Special.BOMB})  # 60 indices for a deck of 61


@pytest.mark.parametrize("case", SPECIAL_VECTORS["private"], ids=_special_ids)
def test_special_private_round(case: dict) -> None:
    specials = _specials(case)
    setup = DealSetup.from_json(case["setup"])
    assert setup.digest.hex() == case["setup_digest"]
    n, r = case["players"], case["round"]
    signing = [SigningKey.from_private_bytes(bytes.fromhex(s)) for s in case["signing_seeds"]]
    want = round_setup(
        setup.game_id,
        r,
        n,
        case["dealer"],
        [k.public_key for k in signing],
        hand_size=r,
        specials=specials,
    )
    assert want == setup and setup.items == len(case["cards"]) == 60 + len(specials)
    envelopes = [Envelope.from_json(e) for e in case["envelopes"]]
    result = audit_transcript(setup, envelopes)  # every signature, pass, key and claim
    assert list(result.items) == case["items"]
    cards = case["cards"]
    assert [cards[i] for i in case["items"]] == case["deck"]
    assert [[cards[result.items[k]] for k in setup.positions_of(s)] for s in range(n)] == (
        case["hands"]
    )
    assert cards[result.items[setup.public_positions[0]]] == case["trump_card"]
    assert [[seat, cards[item]] for seat, item in played_items(setup, envelopes)] == case["plays"]


def test_special_private_round_refuses_a_plain_setup() -> None:
    case = SPECIAL_VECTORS["private"][0]
    setup = DealSetup.from_json(case["setup"])
    plain = round_setup(
        setup.game_id,
        case["round"],
        case["players"],
        case["dealer"],
        setup.signing_keys,
        hand_size=case["round"],
    )
    assert plain.items == 60 and plain.digest != setup.digest
    envelopes = [Envelope.from_json(e) for e in case["envelopes"]]
    with pytest.raises(DealFault):  # signed over another setup, and decks of 69 values
        audit_transcript(plain, envelopes)


@pytest.mark.slow  # a few seconds of ladders; every field is recomputed by the tests above
def test_the_generator_writes_the_special_vectors() -> None:
    path = Path(__file__).parent / "vectors" / "make_special_deal_vectors.py"
    spec = importlib.util.spec_from_file_location("make_special_deal_vectors", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    text = (Path(__file__).parent / "vectors" / "deal-v1-specials.json").read_text("utf-8")
    assert module.render(module.build()) == text


MOVES = SPECIAL_VECTORS["moves"]


def _x25519(scalar_hex: str, u: bytes) -> bytes:
    private = X25519PrivateKey.from_private_bytes(bytes.fromhex(scalar_hex))
    return private.exchange(X25519PublicKey.from_public_bytes(u))


def _clamped_sha256(data: bytes) -> str:
    raw = bytearray(hashlib.sha256(data).digest())
    raw[0] &= 248
    raw[31] &= 127
    raw[31] |= 64
    return bytes(raw).hex()


def test_moves_round_gift_from_the_spec_recipe() -> None:
    """docs/private-deal.md section 16, from hashlib and X25519 alone."""
    gift, setup = MOVES["gift"], DealSetup.from_json(MOVES["setup"])
    giver, recipient = gift["giver"], gift["recipient"]
    e_recipient = sra.RoundKeys.derive(
        bytes.fromhex(MOVES["round_secrets"][recipient]), setup.items
    ).global_key.e
    assert gift["recipient_global_e"] == sra.scalar_bytes(e_recipient).hex()
    b = _clamped_sha256(b"netplay/private-deal/v1/inbox" + sra.scalar_bytes(e_recipient))
    assert b == gift["inbox_scalar"]
    base = (9).to_bytes(32, "little")
    assert _x25519(b, base).hex() == gift["inbox_key"]
    e_giver = sra.RoundKeys.derive(
        bytes.fromhex(MOVES["round_secrets"][giver]), setup.items
    ).global_key.e
    a = _clamped_sha256(b"netplay/private-deal/v1/gift" + sra.scalar_bytes(e_giver) + bytes(2))
    assert a == gift["ephemeral_scalar"]
    ephemeral = _x25519(a, base)
    assert ephemeral.hex() == gift["ephemeral"]
    commit = hashlib.sha256(b"netplay/private-deal/v1/gift-commit" + ephemeral).hexdigest()
    assert commit == gift["commit"]
    shared = _x25519(a, bytes.fromhex(gift["inbox_key"]))
    assert shared == _x25519(b, ephemeral) and shared.hex() == gift["shared_key"]
    pad = hashlib.shake_256(
        b"netplay/private-deal/v1/gift-pad"
        + setup.context
        + (0).to_bytes(2, "big")
        + bytes([giver, recipient])
        + shared
    ).digest(32)
    assert pad.hex() == gift["pad"]
    value = bytes(x ^ y for x, y in zip(bytes.fromhex(gift["sealed"]), pad, strict=True))
    assert value == sra.encode_item(gift["item"])[0]
    # ...and those are the bytes the round's envelopes carry.
    bodies = [(e["from"], proto.decode_body(bytes.fromhex(e["body"]))) for e in MOVES["envelopes"]]
    assert (recipient, {"t": "inbox", "key": bytes.fromhex(gift["inbox_key"])}) in bodies
    give = next(m for s, m in bodies if s == giver and m["t"] == "give")
    assert give["commit"].hex() == commit and give["sealed"].hex() == gift["sealed"]
    assert (giver, {"t": "unlock", "pass": 0, "ephemeral": ephemeral}) in bodies


def test_moves_round_verifies_from_its_envelopes() -> None:
    setup = DealSetup.from_json(MOVES["setup"])
    assert setup.digest.hex() == MOVES["setup_digest"] and setup.items == len(MOVES["cards"])
    envelopes = [Envelope.from_json(e) for e in MOVES["envelopes"]]
    result = audit_transcript(setup, envelopes)
    assert [[g.pass_index, g.giver, g.recipient, g.item] for g in result.gifts] == MOVES["gifts"]
    assert list(result.items) == MOVES["items"]
    assert [list(x) for x in shown_items(envelopes)] == MOVES["shown"]
    assert [list(x) for x in played_items(setup, envelopes)] == MOVES["plays"]
    kinds = [proto.decode_body(e.body)["t"] for e in envelopes]
    for kind in ("show", "inbox", "give", "unlock", "open_gift", "show_gift"):
        assert kind in kinds
    # A gift sealed for another recipient holds no item under the recipient's key: the
    # record with one give's sealed bytes swapped for another's fails.
    gives = [i for i, k in enumerate(kinds) if k == "give"]
    first, second = envelopes[gives[0]], envelopes[gives[1]]
    forged = list(envelopes)
    forged[gives[0]] = Envelope(first.sender, first.seq, second.body, first.sig)
    with pytest.raises(DealFault):
        audit_transcript(setup, forged)
