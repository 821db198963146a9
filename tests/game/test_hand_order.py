"""The hand's order with trump, and which cards are trump (the UI asks these, never decides)."""

from wizard_tui.game import Suit, hand_order, is_trump, parse_card, sort_key

W, J = 52, 56


def test_trump_suit_next_to_the_wizards_jesters_last() -> None:
    cards = [J, parse_card("13C"), parse_card("2H"), W, parse_card("12H"), parse_card("1S")]
    names = sorted(cards, key=hand_order(Suit.HEARTS))
    assert names == [W, parse_card("12H"), parse_card("2H"), parse_card("13C"), parse_card("1S"), J]


def test_without_trump_the_plain_order() -> None:
    assert hand_order(None) is sort_key


def test_only_suit_cards_of_the_trump_suit_are_trump() -> None:
    assert is_trump(parse_card("5D"), Suit.DIAMONDS)
    assert not is_trump(parse_card("5C"), Suit.DIAMONDS)
    assert not is_trump(W, Suit.DIAMONDS) and not is_trump(J, Suit.DIAMONDS)
    assert not is_trump(parse_card("5D"), None)
