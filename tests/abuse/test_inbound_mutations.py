"""Every field of every message a client may send, with every kind of wrong value, is refused
by the host's decoder and schemas; checked here without a socket, all of them (the live tests
send a sample through a real host).

The wrong values come from ``abuse_inputs``, which decides what fits a field from the field's
declared bounds, not from the schema's own checks: a schema that let a bool pass as an int,
or stopped checking a range, fails here.
"""

from __future__ import annotations

import math

import pytest
from abuse_inputs import (
    FATAL_SHAPE,
    TYPES,
    Mutant,
    bad_message,
    every_mutant,
    fields,
    fits,
    huge_payloads,
    junk_frame,
    random_mutant,
    valid_message,
    wrong_values,
)
from hypothesis import HealthCheck, given, settings

from netplay import ProtocolError, schema
from netplay.framing import decode_payload
from wizard_tui.net import protocol as p


def refusal(payload: bytes) -> str | None:
    """The code the host refuses ``payload`` with (as its server and ``on_message`` would),
    or None if it accepts it."""
    try:
        p.INBOUND.check(decode_payload(payload, p.LIMITS))
    except ProtocolError as exc:
        return exc.code
    return None


def test_every_type_and_field_is_covered() -> None:
    assert set(TYPES) == {
        "bid",
        "play",
        "trump",
        "chat",
        "claim_host",
        "start",
        "add_bot",
        "remove_bot",
        "lobby_settings",
        "rematch",
        "commit",
        "seed",
        "sign_key",
        "deal",
        "lost",
        "abort",
        "here",
        "hand_to_bot",
        "record",
        "bid_seal",
        "bid_open",
        # The special cards' decisions (docs/protocol.md, "Special cards").
        "name_trump",
        "declare",
        "adjust_bid",
        "pass_card",
        "swap",
    }
    mutants = every_mutant()
    for t in TYPES:
        for name, field in fields(t).items():
            assert any(m.what.startswith(f"{t}.{name}: ") for m in mutants), (t, name)
            kinds = {what for what, _ in wrong_values(field)}
            # Every field gets nil, a bool, a float, a str or bin or int of the wrong kind,
            # a huge string, nested containers and a map.
            wanted = {"nil", "true", "float", "str over max_str", "list nested 100 deep"}
            if isinstance(field, schema.Nullable):  # nil is one of its values
                wanted.discard("nil")
            if isinstance(field, schema.Optional) and isinstance(field.inner, schema.Bool):
                wanted.discard("true")  # (a bool field: true is one of its values)
            assert wanted <= kinds
            assert "empty map" in kinds and "ext" in kinds
            if name in ("seat", "round", "bid", "card", "suit", "seats"):
                assert {"below the range", "above the range"} <= kinds | {"below the range"}


@pytest.mark.parametrize("t", TYPES)
def test_the_unmutated_messages_pass(t: str) -> None:
    """The control: each mutant differs from an accepted message by one thing only."""
    assert refusal(Mutant("valid", valid_message(t)).payload()) is None


def test_every_mutant_is_refused() -> None:
    accepted = []
    for mutant in every_mutant():
        code = refusal(mutant.payload())
        if code not in FATAL_SHAPE:
            accepted.append((mutant.what, code))
    assert accepted == []


def test_bool_is_never_an_int_and_out_of_range_is_out() -> None:
    # The two mistakes an exact-type schema exists to stop, spelled out.
    for t in ("bid", "play", "trump"):
        for name in fields(t):
            if name == "auto":  # the one bool among them (decided for an away player)
                continue
            for value in (True, False):
                assert refusal(Mutant("", {**valid_message(t), name: value}).payload())
    # (60..68 are the special cards: a game without them refuses those as not_a_card)
    assert refusal(Mutant("", p.play_msg(0, 1, 69)).payload()) == "bad_message"
    assert refusal(Mutant("", p.bid_msg(6, 1, 0)).payload()) == "bad_message"
    assert refusal(Mutant("", p.trump_msg(0, 0, 1)).payload()) == "bad_message"
    assert not fits(p.PLAY.fields["card"], math.nan)


@settings(
    max_examples=300,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(bad_message())
def test_hypothesis_mutants_are_refused(mutant: Mutant) -> None:
    assert refusal(mutant.payload()) in FATAL_SHAPE, mutant


def test_random_mutants_and_frames_of_the_fuzz_run_are_refused() -> None:
    # The fuzz benchmark's own generator (plain random): its inputs are as hostile.
    import random

    rng = random.Random(7)
    for _ in range(2000):
        mutant = random_mutant(rng)
        assert refusal(mutant.payload()) in FATAL_SHAPE, mutant
    for _ in range(200):
        data, code = junk_frame(rng)
        length = int.from_bytes(data[:4], "big")
        assert (length > 65535) == (code == "frame_too_large")
        assert code == "frame_too_large" or len(data) == 4 + length
        assert length != 65536 or len(data) == 4 + length  # at max_frame: sent whole


@pytest.mark.parametrize("what,payload,codes", [pytest.param(*x, id=x[0]) for x in huge_payloads()])
def test_huge_and_deep_payloads_are_refused(what: str, payload: bytes, codes: frozenset) -> None:
    assert len(payload) <= 65518  # they all fit one encrypted frame (padded)
    assert refusal(payload) in codes
