"""Records of forehead games (docs/rules.md, "The forehead round"): the round is recorded as
dealt and played (the real cards, never the blind play), ``verify`` accepts them and names
the round, trick and seat of a fake."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import pytest

from wizard_tui.bots import make_bot
from wizard_tui.game import TableRules
from wizard_tui.simulate import new_deal_set, play_game
from wizard_tui.verify import verify_document

from . import helpers as h


def forehead_doc(players: int, deal: str = "commit-reveal") -> h.Doc:
    rng = random.Random(f"forehead-records/{players}/{deal}")
    deal_set = new_deal_set(players, rng)
    bots = [make_bot("normal", random.Random(rng.random())) for _ in range(players)]
    played = play_game(bots, deal_set, TableRules(forehead=True), deal=deal)
    return json.loads(json.dumps(played.record.to_dict()))


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
