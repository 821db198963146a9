"""After a trick (docs/rules.md, "After a trick"): the Cloud's change of bid, the Juggler's
pass, the Witch's swap, their order, and what a bombed or last trick does to them."""

from __future__ import annotations

import pytest

from wizard_tui.game import Game, IllegalAction, Phase, Reason, seat_view
from wizard_tui.game.actions import (
    AdjustBid,
    BidAdjusted,
    CardsPassed,
    CardSwapped,
    Declare,
    PassCard,
    Play,
    SwapCard,
)

from .special_decks import card, cards, play, special_game


def hands(*text: str) -> list[list[int]]:
    return [cards(t) for t in text]


# ----------------------------------------------------------------------------- the Cloud

# (the taker's bid, the round's cards, the new bids offered, or the one made for it)
CLOUD = [
    (1, 2, (0, 2), None),
    (0, 2, (), 1),  # a bid of 0 can only go up: made automatically
    (2, 2, (), 1),  # a bid of every card only down
    (1, 3, (0, 2), None),
    (3, 3, (), 2),
]


@pytest.mark.parametrize(("bid", "size", "offered", "automatic"), CLOUD)
def test_the_clouds_taker_changes_its_bid_by_one(
    bid: int, size: int, offered: tuple[int, ...], automatic: int | None
) -> None:
    pads = ["2D 3D", "4D 5D", "6D 7D"]
    dealt = [cards(f"CLD {' '.join(pads[0].split()[: size - 1])}")]
    dealt += [
        cards(f"{lead} {' '.join(pads[i].split()[: size - 1])}")
        for i, lead in ((1, "5C"), (2, "4C"))
    ]
    game = special_game(dealt, card("1H"), bids=[bid, 0, 0])
    events = []
    for name, seat in (("CLD", 0), ("5C", 1), ("4C", 2)):
        events += game.apply(Play(seat, card(name)))
        if name == "CLD":
            events += game.apply(game.legal_actions()[0])  # declare clubs
    assert game.tricks[0].winner == 0  # the Cloud's 9¾ of clubs
    if automatic is None:
        assert (game.phase, game.turn) == (Phase.ADJUST_BID, 0)
        assert game.legal_choices() == offered
        assert seat_view(game, 0).legal_choices == offered
        assert seat_view(game, 1).legal_choices == ()
        assert game.legal_actions() == [AdjustBid(0, b) for b in offered]
        assert game.apply(AdjustBid(0, offered[-1])) == [BidAdjusted(0, offered[-1])]
        new = offered[-1]
    else:
        assert BidAdjusted(0, automatic) in events
        new = automatic
    assert game.bids[0] == new
    assert (game.phase, game.turn) == (Phase.PLAY, 0)
    for _ in range(size - 1):  # play the round out
        for _ in range(3):
            game.apply(game.legal_actions()[0])
    result = game.results[-1]
    assert result.bids[0] == new  # scored with the changed bid


def test_a_cloud_in_the_last_trick_still_changes_the_bid_and_it_is_scored() -> None:
    game = special_game(hands("CLD", "2C", "3C"), card("1H"), bids=[0, 0, 0])
    play(game, "CLD:C 2C 3C")
    result = game.results[-1]
    assert result.bids == (1, 0, 0)
    assert result.points == (30, 20, 20)  # 1 trick on the changed bid of 1


def test_a_bombed_cloud_changes_nobodys_bid() -> None:
    game = special_game(hands("CLD 2D", "BMB 3D", "2C 4D"), card("1H"), bids=[1, 1, 1])
    play(game, "CLD:C BMB 2C")
    assert game.tricks[0].bombed
    assert (game.phase, game.turn, game.bids) == (Phase.PLAY, 0, (1, 1, 1))


def test_a_vampire_copying_the_cloud_changes_the_bid_a_second_time() -> None:
    # The Cloud is turned up (the dealer names hearts); seat 1's Vampire copies it.
    game = special_game(hands("2C 2D", "VMP 3D", "3C 4D"), card("CLD"), bids=[0, 1, 0])
    play(game, "2C VMP:C 3C")  # the Vampire's 9¾ of clubs takes it
    assert game.tricks[0].winner == 1
    assert (game.phase, game.legal_choices()) == (Phase.ADJUST_BID, (0, 2))
    game.apply(AdjustBid(1, 2))
    assert game.phase is Phase.PLAY and game.bids[1] == 2


def test_two_clouds_change_the_bid_twice() -> None:
    # The Cloud is turned up and seat 0's Werewolf takes it; seat 1's Vampire copies it. Two
    # 9¾s of clubs: the first takes the trick, and its seat changes its bid once per Cloud.
    game = special_game(
        hands("WLF 2D 5D", "VMP 3D 6D", "3C 4D 7D"), card("CLD"), trump=2, bids=[1, 0, 0]
    )
    events = []
    for name in ("CLD:C", "VMP:C", "3C"):
        events += game.apply(Play(game.turn, card(name)))
        if game.phase is Phase.DECLARE:
            events += game.apply(Declare(game.turn, 0))
    assert game.tricks[0].winner == 0
    assert (game.phase, game.legal_choices()) == (Phase.ADJUST_BID, (0, 2))
    game.apply(AdjustBid(0, 2))
    assert (game.phase, game.turn, game.legal_choices()) == (Phase.ADJUST_BID, 0, (1, 3))
    game.apply(AdjustBid(0, 3))
    assert (game.phase, game.bids[0]) == (Phase.PLAY, 3)


# ----------------------------------------------------------------------------- the Juggler


def test_every_seat_passes_a_card_left_and_the_cards_move_once_all_have_chosen() -> None:
    game = special_game(hands("JGL 2D 3D", "5C 4D 5D", "6C 6D 7D"), card("1H"))
    play(game, "JGL:C 5C 6C")  # the Juggler's 7½ of clubs takes it: seat 0 leads next
    assert (game.phase, game.turn) == (Phase.PASS, 0)
    assert seat_view(game, 0).legal_cards == tuple(cards("2D 3D"))
    assert set(game.legal_actions()) == {PassCard(0, x) for x in cards("2D 3D")}
    assert game.apply(PassCard(0, card("2D"))) == []
    assert game.turn == 1
    assert game.hand(0) == tuple(cards("2D 3D"))  # nothing moves yet
    assert seat_view(game, 1).legal_cards == tuple(cards("4D 5D"))
    assert seat_view(game, 0).legal_cards == ()
    game.apply(PassCard(1, card("4D")))
    assert game.hand(2) == tuple(cards("6D 7D"))
    assert game.apply(PassCard(2, card("7D"))) == [CardsPassed(0)]
    assert game.hand(0) == tuple(cards("3D 7D"))
    assert game.hand(1) == tuple(cards("2D 5D"))
    assert game.hand(2) == tuple(cards("4D 6D"))
    assert seat_view(game, 0).hand == tuple(cards("3D 7D"))  # the received card comes last
    assert [seat_view(game, s).last_pass for s in range(3)] == [
        (card("2D"), card("7D")),
        (card("4D"), card("2D")),
        (card("7D"), card("4D")),
    ]
    assert (game.phase, game.turn) == (Phase.PLAY, 0)


def test_the_pass_starts_with_the_seat_that_leads_next() -> None:
    game = special_game(hands("JGL 2D", "8C 4D", "6C 6D"), card("1H"))
    play(game, "JGL:C 8C 6C")
    assert (game.phase, game.turn) == (Phase.PASS, 1)
    order = []
    while game.phase is Phase.PASS:
        order.append(game.turn)
        game.apply(game.legal_actions()[0])
    assert order == [1, 2, 0]


def test_a_bombed_jugglers_trick_still_passes() -> None:
    game = special_game(hands("JGL 2D", "BMB 4D", "8C 6D"), card("1H"))
    play(game, "JGL:C BMB 8C")
    assert game.tricks[0].bombed and game.tricks[0].winner == 2
    assert (game.phase, game.turn) == (Phase.PASS, 2)


def test_no_pass_after_the_last_trick() -> None:
    game = special_game(hands("JGL", "8C", "6C"), card("1H"))
    play(game, "JGL:C 8C 6C")
    assert game.phase is Phase.GAME_OVER
    assert all(seat_view(game, s).last_pass is None for s in range(3))


# ----------------------------------------------------------------------------- the Witch


def witch_game() -> Game:
    game = special_game(hands("WCH 2D", "5C 4D", "6C 7D"), card("1H"))
    play(game, "WCH 5C 6C")  # 6C takes it; seat 0's Witch may swap
    return game


def test_the_witchs_player_may_swap_a_card_of_its_hand_for_one_of_the_trick() -> None:
    game = witch_game()
    assert (game.phase, game.turn) == (Phase.SWAP, 0)
    view = seat_view(game, 0)
    assert (view.legal_cards, view.swap_takes) == ((card("2D"),), tuple(cards("5C 6C")))
    assert seat_view(game, 1).swap_takes == ()
    assert set(game.legal_actions()) == {
        SwapCard(0, None, None),
        SwapCard(0, card("2D"), card("5C")),
        SwapCard(0, card("2D"), card("6C")),
    }
    assert game.apply(SwapCard(0, card("2D"), card("6C"))) == [
        CardSwapped(0, 0, card("2D"), card("6C"))
    ]
    assert game.hand(0) == (card("6C"),)
    assert game.tricks[0].cards == tuple(cards("WCH 5C 6C"))
    assert (game.phase, game.turn) == (Phase.PLAY, 2)


def test_the_witchs_player_may_keep_its_hand() -> None:
    game = witch_game()
    game.apply(SwapCard(0, None, None))
    assert game.hand(0) == (card("2D"),)
    assert game.phase is Phase.PLAY


# (give, take, the reason it is refused)
BAD_SWAPS = [
    ("2D", "WCH", Reason.NOT_IN_TRICK),  # the Witch itself
    ("2D", "13S", Reason.NOT_IN_TRICK),  # not in the trick
    ("2D", "4D", Reason.NOT_IN_TRICK),  # another's hand, not the trick
    ("4D", "5C", Reason.CARD_NOT_IN_HAND),
    ("WCH", "5C", Reason.CARD_NOT_IN_HAND),  # played already
    ("2D", None, Reason.NOT_A_CHOICE),  # give one and take none
    (None, "5C", Reason.NOT_A_CHOICE),
    ("2D", 99, Reason.NOT_A_CARD),
    (1.0, "5C", Reason.NOT_A_CARD),
]


@pytest.mark.parametrize(("give", "take", "reason"), BAD_SWAPS, ids=[str(b[:2]) for b in BAD_SWAPS])
def test_a_swap_the_rules_do_not_allow_is_refused(
    give: object, take: object, reason: Reason
) -> None:
    game = witch_game()
    name = lambda x: card(x) if isinstance(x, str) else x  # noqa: E731
    with pytest.raises(IllegalAction) as refused:
        game.apply(SwapCard(0, name(give), name(take)))
    assert refused.value.reason is reason
    assert (game.phase, game.hand(0)) == (Phase.SWAP, (card("2D"),))


def test_a_card_taken_by_the_witch_may_be_played_again() -> None:
    game = special_game(hands("WCH 2D", "BMB 4D", "6C 7D"), card("1H"))
    play(game, "WCH BMB 6C")  # bombed: 6C's seat leads next, and the Witch's player swaps
    game.apply(SwapCard(0, card("2D"), card("BMB")))
    play(game, "7D BMB 4D")
    assert game.results[-1].tricks[1].cards == tuple(cards("7D BMB 4D"))
    assert game.results[-1].tricks_won == (0, 0, 0)  # both tricks bombed: nobody counts them


def test_no_swap_after_the_last_trick() -> None:
    game = special_game(hands("WCH", "8C", "6C"), card("1H"))
    play(game, "WCH 8C 6C")
    assert game.phase is Phase.GAME_OVER


# ----------------------------------------------------------------------------- the order


def test_the_effects_come_cloud_juggler_witch() -> None:
    game = special_game(hands("CLD 2D 3D", "JGL 4D 5D", "WCH 6D 7D"), card("1H"), bids=[1, 0, 0])
    play(game, "CLD:C JGL:C WCH")  # the Cloud's 9¾ takes it
    assert (game.phase, game.turn) == (Phase.ADJUST_BID, 0)
    game.apply(AdjustBid(0, 2))
    phases = []
    while game.phase is Phase.PASS:
        phases.append((game.phase, game.turn))
        game.apply(game.legal_actions()[0])
    assert phases == [(Phase.PASS, 0), (Phase.PASS, 1), (Phase.PASS, 2)]
    assert (game.phase, game.turn) == (Phase.SWAP, 2)
    assert game.swap_takes() == tuple(cards("JGL CLD"))
    game.apply(SwapCard(2, None, None))
    assert (game.phase, game.turn) == (Phase.PLAY, 0)


def test_a_vampire_copying_the_witch_swaps_too_after_the_witch() -> None:
    # The Witch is turned up (no trump); a Werewolf cannot take it here, so the Vampire
    # copies it while the Witch itself is the turned card: one swap, by the Vampire's player.
    game = special_game(hands("VMP 2D", "5C 4D", "6C 7D"), card("WCH"))
    play(game, "VMP 5C 6C")
    assert (game.phase, game.turn) == (Phase.SWAP, 0)
    assert game.swap_takes() == tuple(cards("5C 6C"))  # not the Vampire that swaps
    with pytest.raises(IllegalAction) as refused:
        game.apply(SwapCard(0, card("2D"), card("VMP")))
    assert refused.value.reason is Reason.NOT_IN_TRICK
    game.apply(SwapCard(0, card("2D"), card("5C")))
    assert game.phase is Phase.PLAY


def test_two_jugglers_make_everyone_pass_twice() -> None:
    # The Juggler is turned up and seat 0's Werewolf takes it; seat 1's Vampire copies it.
    game = special_game(
        hands("WLF 2D 3D 4D", "VMP 5D 6D 7D", "2C 8D 9D 10D"), card("JGL"), trump=2, bids=[0, 0, 0]
    )
    play(game, "JGL:C VMP:C 2C")
    assert game.tricks[0].winner == 0  # two equal 7½s of clubs: the first
    passes = []
    while game.phase is Phase.PASS:
        passes.append(game.turn)
        game.apply(game.legal_actions()[0])
    assert passes == [0, 1, 2, 0, 1, 2]
    assert game.phase is Phase.PLAY


def test_a_juggler_names_any_suit_whatever_was_led() -> None:
    game = special_game(hands("5C 2D", "JGL 3C", "4C 7D"), card("1H"))
    play(game, "5C")
    assert card("JGL") in game.legal_plays()  # its player holds clubs, but may play it
    play(game, "JGL:S 4C")  # named spades: off the led suit, it does not take the trick
    assert game.tricks[0].winner == 0


def test_a_change_made_for_the_taker_is_not_an_action_of_the_round() -> None:
    game = special_game(hands("CLD", "2C", "3C"), card("1H"), bids=[0, 0, 0])
    play(game, "CLD:C 2C 3C")
    kinds = {type(action) for action in game.results[-1].actions}
    assert AdjustBid not in kinds and game.results[-1].bids[0] == 1
    assert Game.replay(game.config, game.actions).results == game.results
