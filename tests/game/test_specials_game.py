"""A whole game with special cards: ``Game(config)`` dispatches to the special engine,
``legal_actions`` is complete in every phase, ``actions`` and ``replay`` round-trip, copies
are independent, each seat sees only what it may, and a plain game is unchanged."""

from __future__ import annotations

import dataclasses
import pickle
import random

import pytest

from wizard_tui.game import (
    BLIND_CARD,
    Game,
    GameConfig,
    IllegalAction,
    Phase,
    TableRules,
    seat_view,
)
from wizard_tui.game.actions import Deal, PassCard, Play
from wizard_tui.game.special_engine import SpecialGame
from wizard_tui.game.specials import SPECIALS, Special, deck_cards
from wizard_tui.game.view import SeatView

from .special_decks import card, cards, play, special_game

SETS = [
    frozenset(SPECIALS),
    frozenset({Special.BOMB}),
    frozenset({Special.JUGGLER, Special.WITCH, Special.CLOUD}),
    frozenset({Special.VAMPIRE, Special.WEREWOLF, Special.SHAPESHIFTER}),
    frozenset({Special.DRAGON, Special.FAIRY}),
]


def random_game(
    seed: int, specials: frozenset[Special], players: int = 4, check_legal: bool = False
) -> Game:
    """A whole game of random legal actions. With ``check_legal``, at every step each legal
    action is accepted by a copy, and in the play phase every other held card is refused."""
    rng = random.Random(seed)
    game = Game(GameConfig(players, rng.randrange(players), TableRules(specials=specials)))
    while not game.is_over:
        if game.phase is Phase.DEAL:
            deck = list(deck_cards(specials))
            rng.shuffle(deck)
            game.apply(Deal(tuple(deck)))
            continue
        legal = game.legal_actions()
        assert legal, game.phase
        assert all(action.seat == game.turn for action in legal)  # type: ignore[union-attr]
        if check_legal:
            for action in legal:
                game.copy().apply(action)
            if game.phase is Phase.PLAY:
                for held in set(game.hand(game.turn)) - set(game.legal_plays()):
                    with pytest.raises(IllegalAction):
                        game.copy().apply(Play(game.turn, held))
        game.apply(rng.choice(legal))
    return game


@pytest.mark.parametrize("specials", SETS, ids=lambda s: ",".join(sorted(c.wire_name for c in s)))
def test_a_game_with_special_cards_is_a_special_game_and_a_game(
    specials: frozenset[Special],
) -> None:
    config = GameConfig(4, 0, TableRules(specials=specials))
    game = Game(config)
    assert type(game) is SpecialGame and isinstance(game, Game)
    assert type(Game(GameConfig(4, 0))) is Game
    assert type(game.copy()) is SpecialGame
    assert type(Game.replay(config, [])) is SpecialGame


@pytest.mark.parametrize(
    ("seed", "specials"), list(enumerate(SETS)), ids=lambda x: str(x) if isinstance(x, int) else ""
)
def test_legal_actions_are_every_action_the_engine_takes(
    seed: int, specials: frozenset[Special]
) -> None:
    game = random_game(seed, specials, players=3, check_legal=True)
    assert game.phase is Phase.GAME_OVER and len(game.results) == 20


@pytest.mark.parametrize("seed", range(6))
def test_actions_replay_the_game_and_each_rounds_actions_replay_the_round(seed: int) -> None:
    specials = SETS[seed % len(SETS)]
    game = random_game(100 + seed, specials)
    replayed = Game.replay(game.config, game.actions)
    assert replayed.results == game.results and replayed.totals == game.totals
    assert pickle.loads(pickle.dumps(game)).results == game.results
    # Each round's own actions: the game's actions between its deals.
    rounds: list[list[object]] = []
    for action in game.actions:
        if isinstance(action, Deal):
            rounds.append([])
        else:
            rounds[-1].append(action)
    for result, actions in zip(game.results, rounds, strict=True):
        assert list(result.actions) == actions
        assert result.turned_card is not None
        assert result.bids == tuple(result.bids)
        # The tricks each seat won: bombed tricks count for nobody.
        won = [0] * game.players
        for trick in result.tricks:
            if not trick.bombed:
                won[trick.winner] += 1
        assert tuple(won) == result.tricks_won


def test_replay_stops_anywhere_and_matches_the_game_there() -> None:
    game = random_game(7, frozenset(SPECIALS))
    actions = game.actions
    for cut in (5, 40, 200, len(actions) // 2):
        part = Game.replay(game.config, actions[:cut])
        assert part.actions == actions[:cut]
        for seat in range(game.players):
            seat_view(part, seat)  # every view can be built mid-game


def test_a_copy_is_independent_of_its_original() -> None:
    game = special_game([cards("JGL 2D 3D"), cards("5C 4D 5D"), cards("6C 6D 7D")], card("1H"))
    play(game, "JGL:C 5C 6C")
    game.apply(PassCard(0, cards("2D")[0]))
    before = [seat_view(game, s) for s in range(3)], game.actions
    other = game.copy()
    other.apply(PassCard(1, cards("4D")[0]))
    other.apply(PassCard(2, cards("6D")[0]))
    assert other.phase is Phase.PLAY
    assert ([seat_view(game, s) for s in range(3)], game.actions) == before
    assert game.phase is Phase.PASS


def test_while_the_cards_are_passed_no_seat_learns_anothers_choice() -> None:
    game = special_game([cards("JGL 2D 3D"), cards("5C 4D 5D"), cards("6C 6D 7D")], card("1H"))
    play(game, "JGL:C 5C 6C")
    for chooser, passed in ((0, "2D"), (1, "4D")):
        before = {s: seat_view(game, s) for s in range(3) if s != chooser}
        game.apply(PassCard(chooser, cards(passed)[0]))
        for seat, view in before.items():
            after = seat_view(game, seat)
            unchanged = ("turn", "legal_cards")  # the turn moves on, to the next seat
            assert (
                dataclasses.replace(after, turn=view.turn, legal_cards=view.legal_cards) == view
            ), unchanged


@pytest.mark.parametrize("seed", range(3))
def test_a_view_holds_its_own_hand_and_no_other(seed: int) -> None:
    rng = random.Random(seed)
    specials = frozenset(SPECIALS)
    game = Game(GameConfig(4, 0, TableRules(specials=specials)))
    while not game.is_over:
        if game.phase is Phase.DEAL:
            deck = list(deck_cards(specials))
            rng.shuffle(deck)
            game.apply(Deal(tuple(deck)))
            continue
        for seat in range(4):
            view = seat_view(game, seat)
            assert sorted(view.hand) == sorted(game.hand(seat))
            assert set(view.legal_cards) <= set(view.hand)
            mine = view.turn == seat
            assert mine or (view.legal_choices, view.swap_takes, view.legal_cards) == ((), (), ())
        game.apply(rng.choice(game.legal_actions()))


def test_a_plain_game_is_unchanged() -> None:
    game = random_game(3, frozenset())
    assert type(game) is Game
    for result in game.results:
        assert (result.turned_card, result.actions) == (None, ())
        assert not any(trick.bombed for trick in result.tricks)
    view = seat_view(game, 0)
    defaults = {
        f.name: f.default
        for f in dataclasses.fields(SeatView)
        if f.default is not dataclasses.MISSING
    }
    assert {name: getattr(view, name) for name in defaults} == defaults


def test_a_forehead_round_plays_special_cards_blind_and_declares_them_face_up() -> None:
    specials = frozenset({Special.JUGGLER, Special.CLOUD})
    rules = TableRules(forehead=True, specials=specials, rounds=(1,))
    game = special_game(
        [cards("1C"), cards("2C"), [int(Special.JUGGLER)]],
        card("1H"),
        rules=rules,
        specials=specials,
    )
    assert seat_view(game, 2).legal_cards == ()
    game.apply(Play(0, BLIND_CARD))
    game.apply(Play(1, BLIND_CARD))
    assert seat_view(game, 2).legal_cards == (BLIND_CARD,)
    game.apply(Play(2, BLIND_CARD))
    assert (game.phase, game.turn) == (Phase.DECLARE, 2)
    assert seat_view(game, 2).legal_choices == (0, 1, 2, 3)
    game.apply(game.legal_actions()[0])  # clubs: the 7½ takes the 1 and the 2
    assert game.results[-1].tricks[0].winner == 2


def test_hidden_bids_hide_the_others_bids_as_in_a_plain_game() -> None:
    specials = frozenset({Special.BOMB})
    game = Game(GameConfig(3, 2, TableRules(hidden_bids=True, specials=specials)))
    game.apply(Deal(deck_cards(specials)))
    game.bid(0, 1)
    assert seat_view(game, 1).bids == (None, None, None)
    assert seat_view(game, 1).turn == 1 and seat_view(game, 2).turn == 2
    assert seat_view(game, 0).bids == (1, None, None)


def test_a_charged_seat_scores_its_charge_in_a_special_game() -> None:
    game = special_game([cards("2C"), cards("5C"), cards("6C")], card("1H"))
    game.charge(1)
    play(game, "2C 5C 6C")
    assert game.results[-1].points == (20, -10, -10)
