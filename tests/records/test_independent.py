"""The verifier against a record writer built from the specs alone (``independent_writer``)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from wizard_tui.verify import verify_document

from . import helpers as h
from . import independent_writer as iw

VECTORS = json.loads((Path(__file__).parents[1] / "vectors" / "deal-v1-vectors.json").read_text())[
    "cases"
]


@pytest.mark.parametrize("case", VECTORS, ids=lambda c: f"{c['players']}p-r{c['round']}")
def test_the_independent_writer_reproduces_the_deal_vectors(case: dict) -> None:
    gid = bytes.fromhex(case["game_id"])
    seeds = [bytes.fromhex(s) for s in case["seeds"]]
    r, n = case["round"], case["players"]
    assert [iw.commit(gid, r, s, seed).hex() for s, seed in enumerate(seeds)] == case["commitments"]
    combined = iw.combined(gid, r, seeds)
    assert combined.hex() == case["combined_seed"]
    assert hashlib.shake_256(combined).digest(16).hex() == case["shake256_first_16_bytes"]
    deck = iw.deck_order(gid, r, seeds)
    assert deck == case["deck"]
    assert iw.deal(deck, n, r, case["dealer"]) == (case["hands"], case["trump_card"])


@pytest.mark.parametrize("mode", iw.RESTRICT_MODES)
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_verify_accepts_independent_records(players: int, mode: str) -> None:
    doc = h.indie_doc(players, mode, seed=1)
    assert iw.problems(doc) == []
    verify_document(doc)


@pytest.mark.parametrize("mode", iw.RESTRICT_MODES)
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_project_records_pass_the_independent_check(players: int, mode: str) -> None:
    assert iw.problems(h.sim_doc(players, mode)) == []


def test_independent_check_is_not_blind() -> None:
    """The cross-check above can fail: it sees the tampering verify sees."""
    for tamper in (h.tamper_revoke, h.tamper_points, h.tamper_seed, h.tamper_leader):
        doc = h.sim_doc(4)
        tamper(doc)
        assert iw.problems(doc)


@pytest.mark.parametrize("mode", ["always", "after-round-1"])
def test_forbidden_last_bid_in_an_independent_record(mode: str) -> None:
    doc = h.indie_doc(5, mode, seed=2)
    expected = h.tamper_forbidden_last_bid(doc, first_round=1 if mode == "always" else 2)
    assert h.where(h.failure(doc)) == expected


def _int_leaves(value: Any, path: tuple = ()) -> list[tuple]:
    """The paths to every integer in a JSON document."""
    if type(value) is int:
        return [path]
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in _int_leaves(v, (*path, k))]
    if isinstance(value, list):
        return [p for k, v in enumerate(value) for p in _int_leaves(v, (*path, k))]
    return []


_DOC = h.indie_doc(4, "after-round-1", seed=3)
# Bids are the one choice a record states that nothing else pins down: a bid that misses by
# the same amount on the other side (bid 2 or 0, one trick won) scores the same.
_LEAVES = [p for p in _int_leaves(_DOC) if "bids" not in p]
assert len(_LEAVES) > 1000


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(index=st.integers(0, len(_LEAVES) - 1), delta=st.integers(-3, 3).filter(bool))
def test_any_changed_number_is_caught(index: int, delta: int) -> None:
    """Every number in a record but the bids follows from the seeds, the other numbers and
    the cards the players chose. Change any one and the record must fail."""
    doc = json.loads(json.dumps(_DOC))
    *parents, last = _LEAVES[index]
    target = doc
    for key in parents:
        target = target[key]
    target[last] += delta
    h.failure(doc)
