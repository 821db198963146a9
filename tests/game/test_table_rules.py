"""The house rules' value: its one wire form, its checks, and the named lengths."""

from __future__ import annotations

import pytest

from wizard_tui.game import (
    GameConfig,
    RestrictLastBid,
    RulesError,
    TableRules,
    length_name,
    length_rounds,
    length_text,
)


def test_the_bare_rules_keep_the_rules_object_records_always_had() -> None:
    assert TableRules().to_wire() == {"restrict_last_bid": "never"}
    assert TableRules(RestrictLastBid.ALWAYS).to_wire() == {"restrict_last_bid": "always"}


@pytest.mark.parametrize(
    "rules",
    [
        TableRules(),
        TableRules(RestrictLastBid.AFTER_ROUND_1, hidden_bids=True),
        TableRules(forehead=True, rounds=(1, 2, 4, 11)),
        TableRules(hidden_bids=True, forehead=True, rounds=(5,)),
    ],
)
def test_the_wire_form_reads_back_as_the_same_rules(rules: TableRules) -> None:
    assert TableRules.from_wire(rules.to_wire(), 3) == rules


@pytest.mark.parametrize(
    ("wire", "words"),
    [
        ({"restrict_last_bid": "sometimes"}, "not one of"),
        ({"restrict_last_bid": "never", "jokers": True}, "unknown rule jokers"),
        ({"restrict_last_bid": "never", "hidden_bids": 1}, "true or false"),
        ({"restrict_last_bid": "never", "rounds": []}, "at least one round"),
        ({"restrict_last_bid": "never", "rounds": [11]}, "1 to 10 cards"),  # 6 players
        ({"restrict_last_bid": "never", "rounds": [0]}, "not 0"),
        ({"restrict_last_bid": "never", "rounds": "1,2"}, "a list"),
        ([], "an object"),
    ],
)
def test_rules_that_cannot_be_played_are_refused_in_words(wire: object, words: str) -> None:
    with pytest.raises(RulesError, match=words):
        TableRules.from_wire(wire, 6)  # type: ignore[arg-type]


def test_named_lengths() -> None:
    assert length_rounds("full", 4) is None
    assert length_rounds("short", 3) == tuple(range(1, 11))
    assert length_rounds("short", 4) == tuple(range(1, 9))  # half of 15, rounded up
    assert length_rounds("up-and-down", 6) == (
        1,
        2,
        3,
        4,
        5,
        6,
        7,
        8,
        9,
        10,
        9,
        8,
        7,
        6,
        5,
        4,
        3,
        2,
        1,
    )
    assert length_rounds(" 1,2,4,11 ", 3) == (1, 2, 4, 11)
    for bad in ("long", "1,,2", "21", "0"):
        with pytest.raises(RulesError):
            length_rounds(bad, 3)


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_each_named_length_is_named_back(players: int) -> None:
    for name in ("full", "short", "up-and-down"):
        rules = TableRules(rounds=length_rounds(name, players))
        assert length_name(rules, players) == name
    assert length_name(TableRules(rounds=(1, 2)), players) == "list"
    for length in ("full", "short", "up-and-down", "1,3,2"):
        rules = TableRules(rounds=length_rounds(length, players))
        assert length_text(rules, players) == length


def test_a_configuration_refuses_rounds_its_table_cannot_deal() -> None:
    GameConfig(3, 0, TableRules(rounds=(20,)))
    with pytest.raises(RulesError):
        GameConfig(4, 0, TableRules(rounds=(20,)))
