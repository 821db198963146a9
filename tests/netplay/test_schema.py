"""The schema helpers: exact types, ranges, lengths, unknown keys, readable errors."""

from __future__ import annotations

import pytest

from netplay.errors import BAD_MESSAGE, ProtocolError
from netplay.schema import Bin, Bool, Int, List, Message, Nullable, Optional, Record, Schemas, Str

PLAY = Message("play", card=Int(0, 59))
CHAT = Message("chat", text=Str(1, 200, printable=True), to=Optional(Nullable(Int(0, 5))))
COMMIT = Message("commit", commitment=Bin(32), seats=List(Int(0, 5), max_len=6))
INBOUND = Schemas(PLAY, CHAT, COMMIT)


def problem(schema, value) -> str:
    with pytest.raises(ProtocolError) as info:
        schema.check(value)
    assert info.value.code == BAD_MESSAGE
    return info.value.message


def test_a_valid_message_passes_and_is_returned():
    msg = {"t": "play", "card": 59}
    assert INBOUND.check(msg) is msg


@pytest.mark.parametrize("card", [True, False, 1.0, "3", None, b"\x03"])
def test_int_fields_take_only_ints(card):
    assert "play.card: expected an int" in problem(PLAY, {"t": "play", "card": card})


@pytest.mark.parametrize("card", [-1, 60, 2**70])
def test_int_ranges(card):
    assert "outside 0..59" in problem(PLAY, {"t": "play", "card": card})


def test_unknown_keys_are_refused():
    assert "unknown key 'extra'" in problem(PLAY, {"t": "play", "card": 1, "extra": 0})


def test_missing_keys_are_refused():
    assert "missing key 'card'" in problem(PLAY, {"t": "play"})


def test_optional_keys_may_be_absent_but_are_checked_when_present():
    CHAT.check({"t": "chat", "text": "hi"})
    CHAT.check({"t": "chat", "text": "hi", "to": None})
    CHAT.check({"t": "chat", "text": "hi", "to": 3})
    assert "chat.to" in problem(CHAT, {"t": "chat", "text": "hi", "to": 9})


def test_strings_check_length_and_control_characters():
    assert "length 0" in problem(CHAT, {"t": "chat", "text": ""})
    assert "control" in problem(CHAT, {"t": "chat", "text": "hi\x1b[2J"})
    assert "control" in problem(CHAT, {"t": "chat", "text": "a\u200bb"})
    assert "expected a string" in problem(CHAT, {"t": "chat", "text": b"hi"})


def test_string_choices():
    field = Record({"mode": Str(choices={"a", "b"})}, name="m")
    field.check({"mode": "a"})
    assert "not one of ['a', 'b']" in problem(field, {"mode": "c"})


def test_bin_lengths_are_exact():
    ok = {"t": "commit", "commitment": b"\x00" * 32, "seats": [0, 1]}
    COMMIT.check(ok)
    assert "expected 32 bytes, got 31" in problem(COMMIT, {**ok, "commitment": b"\x00" * 31})
    assert "expected bytes, got str" in problem(COMMIT, {**ok, "commitment": "0" * 32})
    capped = Record({"b": Bin(max_size=4)}, name="r")
    capped.check({"b": b"1234"})
    assert "over the limit of 4" in problem(capped, {"b": b"12345"})


def test_list_items_are_checked_with_their_index_in_the_path():
    ok = {"t": "commit", "commitment": b"\x00" * 32, "seats": [0, 1]}
    assert "commit.seats[1]: expected an int, got bool" in problem(
        COMMIT, {**ok, "seats": [0, True]}
    )
    assert "7 items" in problem(COMMIT, {**ok, "seats": [0] * 7})
    assert "expected a list, got dict" in problem(COMMIT, {**ok, "seats": {}})


def test_bool_is_exact():
    field = Record({"ready": Bool()}, name="r")
    field.check({"ready": True})
    assert "expected a bool, got int" in problem(field, {"ready": 1})


def test_nested_records():
    field = Message("seat", who=Record({"seat": Int(0, 5)}))
    field.check({"t": "seat", "who": {"seat": 2}})
    assert "seat.who.seat" in problem(field, {"t": "seat", "who": {"seat": 7}})
    assert "seat.who: unknown key" in problem(field, {"t": "seat", "who": {"seat": 1, "x": 1}})


def test_message_type_must_match():
    assert "play.t: expected 'play'" in problem(PLAY, {"t": "bid", "card": 1})


def test_schemas_refuse_unknown_types():
    assert "unknown message type 'cheat'" in problem(INBOUND, {"t": "cheat"})
    assert "play" in INBOUND and "cheat" not in INBOUND


def test_declaring_a_type_twice_or_t_as_a_field_is_a_bug():
    with pytest.raises(ValueError):
        Schemas(PLAY, Message("play"))
    with pytest.raises(ValueError):
        Message("x", t=Str())
    with pytest.raises(ValueError):
        Bin()
