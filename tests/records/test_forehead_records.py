"""Records of forehead games (docs/rules.md, "The forehead round"): the round is recorded as
dealt and played (the real cards, never the blind play), ``verify`` accepts them and names
the round, trick and seat of a fake."""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Callable

import msgpack
import pytest

from wizard_tui.bots import make_bot
from wizard_tui.game import TableRules
from wizard_tui.simulate import new_deal_set, play_game
from wizard_tui.verify import verify_document

from . import helpers as h


@functools.cache
def _forehead_text(players: int, deal: str) -> str:
    rng = random.Random(f"forehead-records/{players}/{deal}")
    deal_set = new_deal_set(players, rng)
    bots = [make_bot("normal", random.Random(rng.random())) for _ in range(players)]
    played = play_game(bots, deal_set, TableRules(forehead=True), deal=deal)
    return json.dumps(played.record.to_dict())


def forehead_doc(players: int, deal: str = "commit-reveal") -> h.Doc:
    """A fresh copy of a seeded forehead game's record."""
    return json.loads(_forehead_text(players, deal))


def tamper_round_one_card(doc: h.Doc) -> h.Expect:
    """A player 'played' the turned card in the forehead round."""
    rnd = doc["rounds"][0]
    seat, _ = rnd["tricks"][0]["plays"][1]
    rnd["tricks"][0]["plays"][1][1] = rnd["trump_card"]
    return ("card-not-in-hand", 1, 1, seat)


def tamper_round_one_hands(doc: h.Doc) -> h.Expect:
    """The forehead cards as recorded are not the ones the seeds dealt."""
    hands = doc["rounds"][0]["hands"]
    hands[0], hands[1] = hands[1], hands[0]
    return ("hand", 1, None, 0)


def tamper_round_one_winner(doc: h.Doc) -> h.Expect:
    trick = doc["rounds"][0]["tricks"][0]
    players = len(doc["players"])
    trick["winner"] = (trick["winner"] + 1) % players
    return ("trick-winner", 1, 1, None)


@pytest.mark.parametrize("players", [3, 5])
@pytest.mark.parametrize(
    "tamper",
    [tamper_round_one_card, tamper_round_one_hands, tamper_round_one_winner],
    ids=lambda f: f.__name__.removeprefix("tamper_"),
)
def test_a_tampered_forehead_record_is_caught(
    players: int, tamper: Callable[[h.Doc], h.Expect]
) -> None:
    doc = forehead_doc(players)
    record = verify_document(doc)  # honest before
    assert record.rules.forehead and record.complete
    assert all(0 <= card < 60 for _, card in doc["rounds"][0]["tricks"][0]["plays"])
    expected = tamper(doc)
    exc = h.failure(doc)
    assert (exc.rule, exc.round) == expected[:2]


def test_a_private_forehead_record_verifies_with_its_veiled_setup() -> None:
    doc = forehead_doc(4, "private")
    record = verify_document(doc)
    assert record.rules.forehead
    owners = doc["rounds"][0]["private_deal"]["setup"]["owners"]
    veiled = sorted(o["veiled"] for o in owners if isinstance(o, dict))
    assert veiled == [0, 1, 2, 3]  # every card of round 1, each from its holder
    assert not any(isinstance(o, dict) for o in doc["rounds"][1]["private_deal"]["setup"]["owners"])


def _drop_forehead(doc: h.Doc) -> h.Expect:
    """The rule taken out: round 1's veiled setup is no longer the game's."""
    del doc["rules"]["forehead"]
    return ("deal-setup", 1, None, None)


def _swap_forehead_hands(doc: h.Doc) -> h.Expect:
    hands = doc["rounds"][0]["hands"]
    hands[0], hands[1] = hands[1], hands[0]
    return ("hand", 1, None, 0)


@pytest.mark.parametrize(
    "tamper", [_drop_forehead, _swap_forehead_hands], ids=lambda f: f.__name__.strip("_")
)
def test_a_tampered_private_forehead_record_is_caught(tamper: Callable[[h.Doc], h.Expect]) -> None:
    doc = forehead_doc(4, "private")
    verify_document(doc)
    expected = tamper(doc)
    exc = h.failure(doc)
    assert (exc.rule, exc.round) == expected[:2]


def test_a_forged_unveil_in_a_private_forehead_record_is_caught() -> None:
    """An unveil that claims another card: its signed bytes no longer verify."""
    doc = forehead_doc(4, "private")
    envelopes = doc["rounds"][0]["private_deal"]["envelopes"]
    for envelope in envelopes:
        body = msgpack.unpackb(bytes.fromhex(envelope["body"]))
        if body["t"] == "unveil":
            body["item"] = (body["item"] + 1) % 60
            envelope["body"] = msgpack.packb(body, use_bin_type=True).hex()
            break
    else:
        raise AssertionError("no unveil in a private forehead round")
    exc = h.failure(doc)
    assert exc.round == 1 and exc.rule == "bad_signature"
