"""``view_with_special_hand``: a private seat's own hand and legal cards put into the host's
view of a ``HiddenSpecialGame`` (the special cards that move no card, and the Werewolf) are
the engine's own view of that seat, at every position of random games."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from wizard_tui.game import Game, GameConfig, Phase, TableRules, seat_view
from wizard_tui.game.actions import Deal
from wizard_tui.game.hidden_special import HIDDEN_CARD, HiddenSpecialGame, view_with_special_hand
from wizard_tui.game.specials import SPECIALS, Special, deck_cards

MOVING = {Special.WEREWOLF, Special.JUGGLER, Special.WITCH}
STILL = frozenset(SPECIALS) - MOVING


@pytest.mark.parametrize("werewolf", [False, True])
@pytest.mark.parametrize("seed", range(6))
def test_the_seats_view_with_its_hand_is_the_engines(seed: int, werewolf: bool) -> None:
    """Also with the Werewolf: its holder's hand has the turned card in its place."""
    rng = random.Random(seed)
    players = rng.randrange(3, 7)
    specials = STILL | {Special.WEREWOLF} if werewolf else STILL
    rules = TableRules(specials=specials, rounds=(1, 3, 6, 9))
    config = GameConfig(players, rng.randrange(players), rules)
    real, hidden = Game(config), HiddenSpecialGame(config)
    compared = held = 0
    for _ in rules.rounds or ():
        deck = list(deck_cards(specials))
        rng.shuffle(deck)
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
            action = rng.choice(real.legal_actions())
            real.apply(action)
            hidden.apply(action)
        hidden.finish_round(deck)
        assert hidden.results[-1] == real.results[-1]
    assert compared > 10  # it compared plays, not only bids
    # A seat held the Werewolf (in every seed but 1, whose deals turn it up or leave it out).
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
