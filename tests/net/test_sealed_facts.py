"""The journal facts of hidden bids and the one function that applies them (live and when
a journal is replayed): each round trips through its wire form, and a fact that does not
follow is refused, leaving what was applied before."""

from __future__ import annotations

import pytest

from wizard_tui.bid_seal import bid_seal
from wizard_tui.game import Game, GameConfig, TableRules
from wizard_tui.net.host_state import Table
from wizard_tui.net.journal_facts import BidOpened, BidSealed, parse_fact
from wizard_tui.net.sealed_bids import apply_sealed_fact
from wizard_tui.record import GameRecorder, PlayerEntry

GAME_ID = bytes(range(16))
NONCES = [bytes([s + 1]) * 32 for s in range(3)]
BIDS = [1, 0, 1]
SEALS = [bid_seal(GAME_ID, 1, 0, s, b, NONCES[s]) for s, b in enumerate(BIDS)]


def table() -> Table:
    config = GameConfig(3, 0, TableRules(hidden_bids=True))
    players = [PlayerEntry(f"p{s}", "human") for s in range(3)]
    return Table(Game(config), GAME_ID, GameRecorder(GAME_ID, players, config))


def sealed(seat: int, *, host: bool = False) -> BidSealed:
    if host:
        return BidSealed(1, 0, seat, SEALS[seat], "bot", BIDS[seat], NONCES[seat])
    return BidSealed(1, 0, seat, SEALS[seat])


FACTS = [
    sealed(0),
    sealed(2, host=True),
    BidSealed(1, 0, 1, SEALS[1], "stand_in", 0, NONCES[1], True),
    BidOpened(1, 0, 0, 1, NONCES[0]),
]


@pytest.mark.parametrize("fact", FACTS, ids=repr)
def test_each_fact_round_trips(fact: BidSealed | BidOpened) -> None:
    assert parse_fact(fact.to_wire()) == fact


def test_the_seals_then_the_openings_complete_the_round_and_its_record() -> None:
    t = table()
    for fact in (sealed(0), sealed(2, host=True), sealed(1)):
        state = apply_sealed_fact(t, fact)
    assert state.published and not state.complete and set(state.opened) == {2}
    apply_sealed_fact(t, BidOpened(1, 0, 0, 1, NONCES[0]))
    state = apply_sealed_fact(t, BidOpened(1, 0, 1, 0, NONCES[1]))
    assert state.complete and [state.bid_of(s) for s in range(3)] == BIDS
    assert state.recorded  # the recorder holds the seals for the round once it is recorded


@pytest.mark.parametrize(
    ("before", "fact"),
    [
        ([sealed(0)], sealed(0)),  # a second seal
        ([sealed(0)], BidOpened(1, 0, 0, 1, NONCES[0])),  # an opening before every seal
        ([sealed(0), sealed(1), sealed(2)], BidOpened(1, 0, 0, 0, NONCES[0])),  # wrong bid
        ([sealed(0), sealed(1), sealed(2)], BidOpened(1, 0, 0, 1, NONCES[1])),  # wrong nonce
        ([], BidSealed(1, 0, 0, SEALS[1], "bot", 0, NONCES[1])),  # the host's own, not opening
        ([sealed(0)], BidSealed(1, 0, 0, SEALS[0], "stand_in", 1, NONCES[0], True)),  # early
        ([], BidSealed(1, 0, 3, SEALS[0])),  # no such seat
    ],
)
def test_a_fact_that_does_not_follow_is_refused(
    before: list[BidSealed | BidOpened], fact: BidSealed | BidOpened
) -> None:
    t = table()
    for earlier in before:
        apply_sealed_fact(t, earlier)
    state = t.sealing
    kept = None if state is None else (dict(state.seals), dict(state.opened))
    with pytest.raises(ValueError):
        apply_sealed_fact(t, fact)
    after = None if t.sealing is None else (dict(t.sealing.seals), dict(t.sealing.opened))
    assert after == kept or (kept is None and after == ({}, {}))
