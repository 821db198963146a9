"""Records of games with hidden bids: ``verify`` checks that every bid opens its seal, and
refuses a changed bid, a changed nonce, a changed or missing seal (docs/record-format.md)."""

from __future__ import annotations

import copy
import functools
import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from wizard_tui.bots import make_bot
from wizard_tui.game import RestrictLastBid, TableRules
from wizard_tui.record import RecordError
from wizard_tui.simulate import new_deal_set, play_game
from wizard_tui.verify import verify_document

Doc = dict[str, Any]


@functools.cache
def _record_text(deal: str) -> str:
    rng = random.Random(f"hidden-records/{deal}")
    bots = [make_bot("normal", random.Random(s)) for s in range(3)]
    rules = TableRules(RestrictLastBid.ALWAYS, hidden_bids=True)
    rounds = 4 if deal == "private" else None
    played = play_game(bots, new_deal_set(3, rng), rules, deal=deal, rounds=rounds)
    return json.dumps(played.record.to_dict())


def doc(deal: str) -> Doc:
    return copy.deepcopy(json.loads(_record_text(deal)))


def _flip(text: str) -> str:
    return ("0" if text[0] != "0" else "1") + text[1:]


def changed_bid(d: Doc) -> tuple[str, int, int]:
    rnd = d["rounds"][2]  # round 3: bids 0..3
    seat = 1
    rnd["bids"][seat] = (rnd["bids"][seat] + 1) % 4
    return "bid-seal", 3, seat


def changed_nonce(d: Doc) -> tuple[str, int, int]:
    entry = d["rounds"][1]["bid_seals"][2]
    entry["nonce"] = _flip(entry["nonce"])
    return "bid-seal", 2, 2


def changed_seal(d: Doc) -> tuple[str, int, int]:
    entry = d["rounds"][0]["bid_seals"][0]
    entry["seal"] = _flip(entry["seal"])
    return "bid-seal", 1, 0


def missing_seals(d: Doc) -> tuple[str, int, None]:
    del d["rounds"][3]["bid_seals"]
    return "bid-seals", 4, None


def one_seal_short(d: Doc) -> tuple[str, int, None]:
    d["rounds"][0]["bid_seals"].pop()
    return "bid-seals", 1, None


def malformed_seal(d: Doc) -> tuple[str, int, int]:
    d["rounds"][1]["bid_seals"][1] = {"seal": "zz", "nonce": "00"}
    return "bid-seals", 2, 1


TAMPERS: list[Callable[[Doc], tuple[str, int, int | None]]] = [
    changed_bid,
    changed_nonce,
    changed_seal,
    missing_seals,
    one_seal_short,
    malformed_seal,
]


@pytest.mark.parametrize("deal", ["commit-reveal", "private"])
def test_an_honest_record_verifies_and_ignores_the_restriction(deal: str) -> None:
    d = doc(deal)
    record = verify_document(d)
    assert record.rules.hidden_bids and d["rules"]["restrict_last_bid"] == "always"
    assert all(len(r["bid_seals"]) == 3 for r in d["rounds"])


@pytest.mark.parametrize("deal", ["commit-reveal", "private"])
@pytest.mark.parametrize("tamper", TAMPERS, ids=lambda f: f.__name__)
def test_tampering_with_a_sealed_bid_is_caught(
    deal: str, tamper: Callable[[Doc], tuple[str, int, int | None]]
) -> None:
    d = doc(deal)
    rule, r, seat = tamper(d)
    with pytest.raises(RecordError) as info:
        verify_document(d)
    assert (info.value.rule, info.value.round, info.value.seat) == (rule, r, seat)


def test_seals_are_asked_only_under_hidden_bids() -> None:
    d = doc("commit-reveal")
    del d["rules"]["hidden_bids"]
    for rnd in d["rounds"]:
        del rnd["bid_seals"]
    # The same game without hidden bids: verified as a plain game, until a bid breaks the
    # restriction it was played without.
    with pytest.raises(RecordError) as info:
        verify_document(d)
    assert info.value.rule == "bid-forbidden"


@pytest.mark.parametrize("level", ["random", "easy", "normal", "hard", "expert"])
def test_every_bot_level_plays_hidden_bids(level: str) -> None:
    """Each level plays a few rounds of hidden bids, both deals, and the records verify."""
    spec = (
        level if level in ("random", "easy", "normal") else f"{level}:budget=0.01,bid_budget=0.02"
    )
    rng = random.Random(f"levels/{level}")
    for deal in ("commit-reveal", "private"):
        bots = [make_bot(spec, random.Random(1)), make_bot("easy"), make_bot("random")]
        rules = TableRules(RestrictLastBid.AFTER_ROUND_1, hidden_bids=True)
        played = play_game(bots, new_deal_set(3, rng), rules, deal=deal, rounds=3)
        record = verify_document(played.record.to_dict())
        assert len(record.rounds) == 3 and played.decisions[0] > 0
