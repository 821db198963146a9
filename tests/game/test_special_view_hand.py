"""``view_with_special_hand``: a private seat's own hand and legal cards put into the host's
view of a ``HiddenSpecialGame`` (the special cards that move no card, the Werewolf and the
Witch) are the engine's own view of that seat, at every position of random games."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from wizard_tui.game import Game, GameConfig, Phase, TableRules, seat_view
from wizard_tui.game.actions import Deal, Play, SwapCard
from wizard_tui.game.hidden_special import HIDDEN_CARD, HiddenSpecialGame, view_with_special_hand
from wizard_tui.game.specials import SPECIALS, Special, deck_cards

MOVING = {Special.WEREWOLF, Special.JUGGLER, Special.WITCH}
STILL = frozenset(SPECIALS) - MOVING


@pytest.mark.parametrize("moving", ["none", "werewolf", "witch"])
@pytest.mark.parametrize("seed", range(6))
def test_the_seats_view_with_its_hand_is_the_engines(seed: int, moving: str) -> None:
    """Also with the Werewolf: its holder's hand has the turned card in its place; and with
    the Witch (and the Werewolf): each swap of the seat's (the view's public ``swaps``) puts
    the card taken in the given card's place, and the cards it may give are its hand."""
    rng = random.Random(seed)
    players = rng.randrange(3, 7)
    werewolf = moving != "none"
    specials = STILL | {Special.WEREWOLF} if werewolf else STILL
    if moving == "witch":
        specials |= {Special.WITCH}
    swapped = took = 0
    # (The Witch's games are longer: the Witch must be dealt, and played before a last card.)
    rounds = (4, 5, 6, 8, 9, 10) if moving == "witch" else (1, 3, 6, 9)
    rules = TableRules(specials=specials, rounds=rounds)
    config = GameConfig(players, rng.randrange(players), rules)
    real, hidden = Game(config), HiddenSpecialGame(config)
    compared = held = 0
    for size in rules.rounds or ():
        deck = list(deck_cards(specials))
        rng.shuffle(deck)
        if moving == "witch":  # (dealt to a seat: its swap is compared)
            deck.remove(Special.WITCH)
            deck.insert(rng.randrange(players * size), int(Special.WITCH))
        real.apply(Deal(tuple(deck)))
        assert real.turned_card is not None
        dealt = [real.dealt_hand(s) for s in range(players)]
        holder = next((s for s in range(players) if Special.WEREWOLF in dealt[s]), None)
        held += holder is not None
        hidden.start_round(real.turned_card, holder)
        while real.phase not in (Phase.DEAL, Phase.GAME_OVER):
            for s in range(players):
                # The host's view carries no hand (a private table): the seat puts its own in.
                host_view = seat_view(hidden, s)
                assert host_view.hand == () and host_view.legal_cards == ()
                mine = view_with_special_hand(host_view, dealt[s])
                want = seat_view(real, s)
                assert (mine.hand, mine.legal_cards) == (want.hand, want.legal_cards)
                compared += want.my_turn and want.phase is Phase.PLAY
                swapped += want.my_turn and want.phase is Phase.SWAP
            actions = real.legal_actions()
            # (The Witch is played at once: a swap then comes before the hand is empty.)
            witch = [a for a in actions if type(a) is Play and a.card == Special.WITCH]
            action = witch[0] if witch else rng.choice(actions)
            took += type(action) is SwapCard and action.give is not None
            real.apply(action)
            hidden.apply(action)
        hidden.finish_round(deck)
        assert hidden.results[-1] == real.results[-1]
    assert compared > 10  # it compared plays, not only bids
    assert (swapped > 0) == (moving == "witch")  # it compared swaps
    assert took > 0 or moving != "witch"  # and hands after a swap
    # A seat held the Werewolf (in every seed but 1, whose deals turn it up or leave it out).
    if moving != "witch":  # (the Witch's games deal other rounds)
        assert held > 0 if werewolf and seed != 1 else held == 0 or werewolf


def test_a_led_suit_asks_to_follow() -> None:
    """A hand with a card of the led suit may play only that suit and the special cards."""
    rules = TableRules(specials=STILL)
    game = HiddenSpecialGame(GameConfig(3, 0, rules))
    assert HIDDEN_CARD == -1  # (no pass at this table: every public action is named)
    view = seat_view(game, 0)
    trick_view = replace(
        view, phase=Phase.PLAY, turn=0, trick=((2, 3),), tricks=(), declared=()
    )  # clubs led (card 3) by seat 2
    mine = view_with_special_hand(trick_view, (5, 20, int(Special.DRAGON), int(Special.BOMB)))
    assert mine.legal_cards == (5, int(Special.DRAGON), int(Special.BOMB))
