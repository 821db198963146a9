"""The commit-reveal state machines: the order of messages and every way to break it."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from netplay import commit_reveal as cr
from netplay import fairdeal
from netplay.commit_reveal import ClientRound, CommitRevealError, HostRound, Phase
from netplay.errors import ProtocolError

# Case 1 of shared/spec/deal-v1-vectors.json (3 players, round 1).
VECTOR = {
    "game_id": "4c7ba4ba4dd6068ae412bfba1172df17",
    "seeds": [
        "78b9eef13e5985368c3d130ee8c62b8a2f3f40d6e627ac9a23ad75d237cb3844",
        "3e357387b739936a53e962c7284f143de93366a933b64e6f1c46d40f268acdfc",
        "635f70e2ec63573f814be5b06e6b66d615ce5ec4b40c5491cdf23100d47a7dee",
    ],
    "commitments": [
        "ee1c8409e918edade2be8c85c892cc9bc4b66bb06beea7b265bd886c960d74dd",
        "2a0e1136ef214bf7401e8872dda00303f8ae31470080cf2f4643b35ee9b373eb",
        "f29e5152a770c41e47516790478eb50643dffd16ed189aa6a7915a8de4524034",
    ],
    "combined_seed": "9c79cbdf81e83ff3e149a9b8bb3e15f12f1c251a510fc99a53e703e2b5e94e54",
    "deck_start": [39, 43, 20, 13, 23, 21, 3, 19, 47, 6],
}
GAME_ID = bytes.fromhex(VECTOR["game_id"])
SEEDS = [bytes.fromhex(s) for s in VECTOR["seeds"]]
COMMITS = [bytes.fromhex(c) for c in VECTOR["commitments"]]


def code_of(call, *args) -> str:
    with pytest.raises(CommitRevealError) as info:
        call(*args)
    return info.value.code


def play_round() -> tuple[HostRound, ClientRound, ClientRound]:
    """Host holds seat 0; seats 1 and 2 are remote, with the vector's seeds."""
    host = HostRound(GAME_ID, 1, 3, {0: SEEDS[0]})
    one = ClientRound(GAME_ID, 1, 1, 3, new_seed=lambda: SEEDS[1])
    two = ClientRound(GAME_ID, 1, 2, 3, new_seed=lambda: SEEDS[2])
    return host, one, two


def test_a_full_round_reproduces_the_spec_vector():
    host, one, two = play_round()
    assert one.commitment == COMMITS[1]
    host.receive_commit(1, one.commit_message())
    host.receive_commit(2, two.commit_message())
    published = cr.commitments_msg(1, host.publish_commitments())
    assert published["commitments"] == COMMITS
    for client in (one, two):
        client.receive_commitments(cr.COMMITMENTS.check(published))
        host.receive_seed(client.seat, client.seed_message())
    assert host.phase is Phase.COMPLETE
    assert host.combined_seed().hex() == VECTOR["combined_seed"]
    reveal = cr.seeds_msg(1, host.seeds())
    for client in (one, two):
        combined = client.receive_seeds(reveal)
        assert combined == host.combined_seed()
        assert fairdeal.shuffle_order(combined, 60)[:10] == VECTOR["deck_start"]


def test_a_bots_only_round_is_complete_once_published():
    host = HostRound(GAME_ID, 1, 3, dict(enumerate(SEEDS)))
    assert host.vector_ready
    assert host.publish_commitments() == COMMITS
    assert host.combined_seed().hex() == VECTOR["combined_seed"]


# -- host ---------------------------------------------------------------------------------


def test_host_refuses_a_seed_before_the_vector_is_published():
    host, one, two = play_round()
    host.add_commitment(1, one.commitment)
    assert code_of(host.add_seed, 1, SEEDS[1]) == cr.OUT_OF_PHASE
    host.add_commitment(2, two.commitment)
    # Every commitment is in, but the vector is not out yet: still too early.
    assert code_of(host.add_seed, 1, SEEDS[1]) == cr.OUT_OF_PHASE
    host.publish_commitments()
    host.add_seed(1, SEEDS[1])


def test_host_publishes_only_a_complete_vector():
    host, one, _ = play_round()
    host.add_commitment(1, one.commitment)
    with pytest.raises(CommitRevealError) as info:
        host.publish_commitments()
    assert info.value.code == cr.OUT_OF_PHASE and "[2]" in info.value.message
    assert host.missing_commitments() == {2}


def test_host_refuses_commitments_after_publication():
    host, one, two = play_round()
    host.add_commitment(1, one.commitment)
    host.add_commitment(2, two.commitment)
    host.publish_commitments()
    assert code_of(host.add_commitment, 1, one.commitment) == cr.OUT_OF_PHASE


@pytest.mark.parametrize(
    ("seat", "commitment", "code"),
    [
        (3, COMMITS[1], cr.BAD_SEAT),
        (-1, COMMITS[1], cr.BAD_SEAT),
        (True, COMMITS[1], cr.BAD_SEAT),
        (0, COMMITS[0], cr.BAD_SEAT),  # the host's own seat
        (1, COMMITS[1][:31], cr.BAD_LENGTH),
        (1, COMMITS[1] + b"\x00", cr.BAD_LENGTH),
    ],
)
def test_host_refuses_bad_commitments(seat, commitment, code):
    host, _, _ = play_round()
    assert code_of(host.add_commitment, seat, commitment) == code


def test_host_refuses_duplicate_commitments_and_seeds():
    host, one, two = play_round()
    host.add_commitment(1, one.commitment)
    assert code_of(host.add_commitment, 1, one.commitment) == cr.DUPLICATE
    host.add_commitment(2, two.commitment)
    host.publish_commitments()
    host.add_seed(1, SEEDS[1])
    assert code_of(host.add_seed, 1, SEEDS[1]) == cr.DUPLICATE


def test_host_refuses_a_seed_that_does_not_open_its_commitment():
    host, one, two = play_round()
    host.add_commitment(1, one.commitment)
    host.add_commitment(2, two.commitment)
    host.publish_commitments()
    assert code_of(host.add_seed, 1, SEEDS[2]) == cr.BAD_SEED  # another seat's seed
    assert code_of(host.add_seed, 1, bytes(32)) == cr.BAD_SEED
    assert code_of(host.add_seed, 1, SEEDS[1][:16]) == cr.BAD_LENGTH
    assert host.missing_seeds() == {1, 2}
    assert code_of(host.seeds) == cr.OUT_OF_PHASE
    assert code_of(host.combined_seed) == cr.OUT_OF_PHASE


def test_host_checks_message_shape_and_round():
    host, one, _ = play_round()
    with pytest.raises(ProtocolError) as info:
        host.receive_commit(1, {"t": "commit", "round": 1, "commitment": "x" * 32})
    assert info.value.code == "bad_message"
    assert code_of(host.receive_commit, 1, cr.commit_msg(2, one.commitment)) == cr.WRONG_ROUND


# -- client -------------------------------------------------------------------------------


def test_client_keeps_its_seed_until_the_vector_is_accepted():
    _, one, _ = play_round()
    assert code_of(one.seed_to_send) == cr.OUT_OF_PHASE
    one.accept_vector(COMMITS)
    assert one.seed_to_send() == SEEDS[1]


def test_client_refuses_a_vector_with_its_commitment_changed():
    _, one, _ = play_round()
    forged = [COMMITS[0], COMMITS[2], COMMITS[2]]
    assert code_of(one.accept_vector, forged) == cr.COMMITMENT_CHANGED
    assert code_of(one.seed_to_send) == cr.OUT_OF_PHASE


@pytest.mark.parametrize(
    "vector", [COMMITS[:2], [*COMMITS, COMMITS[0]], [COMMITS[0], COMMITS[1], b"short"]]
)
def test_client_refuses_a_malformed_vector(vector):
    _, one, _ = play_round()
    assert code_of(one.accept_vector, vector) == cr.BAD_VECTOR


def test_client_accepts_the_vector_once():
    _, one, _ = play_round()
    one.accept_vector(COMMITS)
    assert code_of(one.accept_vector, COMMITS) == cr.OUT_OF_PHASE


def test_client_checks_every_revealed_seed():
    _, one, _ = play_round()
    assert code_of(one.check_reveal, SEEDS) == cr.OUT_OF_PHASE  # before the vector
    one.accept_vector(COMMITS)
    assert code_of(one.check_reveal, [SEEDS[0], bytes(32), SEEDS[2]]) == cr.SEED_CHANGED
    tampered = [SEEDS[0], SEEDS[1], bytes(32)]
    with pytest.raises(CommitRevealError) as info:
        one.check_reveal(tampered)
    assert info.value.code == cr.BAD_SEED and "seat 2" in info.value.message
    assert code_of(one.check_reveal, SEEDS[:2]) == cr.BAD_VECTOR
    assert one.check_reveal(SEEDS).hex() == VECTOR["combined_seed"]


def test_client_draws_a_fresh_seed_by_default():
    a = ClientRound(GAME_ID, 1, 0, 3)
    b = ClientRound(GAME_ID, 1, 0, 3)
    assert a.commitment != b.commitment


# -- the order property -------------------------------------------------------------------

actions = st.lists(
    st.one_of(
        st.tuples(st.just("commit"), st.integers(0, 4)),
        st.tuples(st.just("seed"), st.integers(0, 4)),
        st.tuples(st.just("publish"), st.just(0)),
    ),
    max_size=25,
)


@settings(max_examples=300, deadline=None)
@given(actions, st.sets(st.integers(0, 3), max_size=2))
def test_no_seed_is_ever_accepted_before_the_complete_vector_is_out(steps, local):
    seats = 4
    seeds = {s: bytes([s + 1]) * 32 for s in range(seats)}
    host = HostRound(GAME_ID, 7, seats, {s: seeds[s] for s in local})
    published: list[bytes] | None = None
    for kind, seat in steps:
        try:
            if kind == "commit":
                host.add_commitment(
                    seat, fairdeal.commitment(GAME_ID, 7, min(seat, 3), seeds[min(seat, 3)])
                )
            elif kind == "publish":
                published = host.publish_commitments()
            else:
                host.add_seed(seat, seeds.get(seat, bytes(32)))
                # Accepted: the full vector must already have gone out, and this seed opens it.
                assert published is not None and len(published) == seats
                assert fairdeal.opens(published[seat], GAME_ID, 7, seat, seeds[seat])
        except CommitRevealError:
            pass
    if host.phase is Phase.COMPLETE:
        assert published is not None
        assert host.seeds() == [seeds[s] for s in range(seats)]
