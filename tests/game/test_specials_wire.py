"""The special cards' names, deck and wire forms (docs/rules.md, "Special cards")."""

from __future__ import annotations

import pytest

from wizard_tui.game.actions import AdjustBid, Declare, NameTrump, PassCard, SwapCard
from wizard_tui.game.cards import Suit
from wizard_tui.game.codec import action_from_wire, action_to_wire
from wizard_tui.game.specials import SPECIALS, Special, deck_cards, parse_specials
from wizard_tui.game.table_rules import RulesError, TableRules


@pytest.mark.parametrize(
    "action",
    [
        NameTrump(1, None),
        NameTrump(0, Suit.HEARTS),
        Declare(2, 4),
        AdjustBid(0, 3),
        PassCard(1, 64),
        SwapCard(0, None, None),
        SwapCard(2, 5, 52),
    ],
)
def test_special_actions_round_trip_through_the_codec(action: object) -> None:
    assert action_from_wire(action_to_wire(action)) == action  # type: ignore[arg-type]


def test_a_swap_that_is_not_a_pair_is_refused() -> None:
    with pytest.raises(ValueError):
        action_from_wire(["swap", 0, [1]])


def test_the_plain_deck_is_unchanged_and_specials_follow_in_id_order() -> None:
    assert deck_cards() == tuple(range(60))
    assert deck_cards([Special.VAMPIRE, Special.BOMB]) == (*range(60), 62, 68)
    assert len(deck_cards(SPECIALS)) == 69


def test_plain_rules_keep_their_wire_form() -> None:
    assert TableRules().to_wire() == {"restrict_last_bid": "never"}


def test_specials_wire_form_round_trips_in_card_order() -> None:
    rules = TableRules(specials=parse_specials("vampire,bomb"))
    assert rules.to_wire()["specials"] == ["bomb", "vampire"]
    assert TableRules.from_wire(rules.to_wire(), 4) == rules


@pytest.mark.parametrize(
    "names", [["vampire", "bomb"], ["bomb", "bomb"], [], ["joker"], "bomb", [3]]
)
def test_a_specials_list_out_of_its_one_form_is_refused(names: object) -> None:
    with pytest.raises(RulesError):
        TableRules.from_wire({"restrict_last_bid": "never", "specials": names}, 3)


def test_the_dragon_and_the_fairy_come_together() -> None:
    with pytest.raises(RulesError, match="together"):
        TableRules(specials=frozenset({Special.DRAGON})).check(3)
    TableRules(specials=frozenset({Special.DRAGON, Special.FAIRY})).check(3)


def test_the_werewolf_is_refused_with_the_forehead_round() -> None:
    with pytest.raises(RulesError, match="Werewolf"):
        TableRules(forehead=True, specials=frozenset({Special.WEREWOLF})).check(3)


def test_parse_specials_reads_all_none_and_short_names() -> None:
    assert parse_specials("all") == frozenset(SPECIALS)
    assert parse_specials("none") == frozenset()
    assert parse_specials("DRG,fry") == {Special.DRAGON, Special.FAIRY}
    with pytest.raises(ValueError):
        parse_specials("dragon,unicorn")
