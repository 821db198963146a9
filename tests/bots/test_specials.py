"""The bots in games with special cards: every decision kind, at every level, from positions
the engine reached; the bots' trick model against the engine's tricks; a few positions where
one answer is plainly right."""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

import pytest

from wizard_tui.bots import LEVELS, make_bot
from wizard_tui.bots import special_model as model
from wizard_tui.bots.special_knowledge import bits, mask, read_special
from wizard_tui.bots.special_search import play_world, sample_special_hands
from wizard_tui.game import Game, GameConfig, Phase, SeatView, TableRules, seat_view
from wizard_tui.game.actions import Bid, Deal, Declare, PassCard, Play
from wizard_tui.game.special_engine import SpecialGame
from wizard_tui.game.specials import SPECIALS, Declaration, Special, deck_cards

from .helpers import card

ALL = frozenset(SPECIALS)
SPECIAL_PHASES = (
    Phase.CHOOSE_TRUMP,
    Phase.NAME_TRUMP,
    Phase.BID,
    Phase.PLAY,
    Phase.DECLARE,
    Phase.ADJUST_BID,
    Phase.PASS,
    Phase.SWAP,
)
QUICK = {"hard": "hard:samples=3", "expert": "expert:samples=3"}


def _bot_level(level: str) -> str:
    return QUICK.get(level, level)


def _play_games(seed: int, games: int, players: int = 3) -> list[tuple[Game, SeatView]]:
    """Positions of random games with all nine cards: (a copy of the game, the view of the
    seat on turn) at every decision."""
    rng = random.Random(seed)
    out = []
    for g in range(games):
        game = Game(GameConfig(players, g % players, TableRules(specials=ALL)))
        bot = make_bot("random", random.Random(seed * 100 + g))
        deck = list(deck_cards(ALL))
        while game.phase is not Phase.GAME_OVER:
            if game.phase is Phase.DEAL:
                rng.shuffle(deck)
                game.apply(Deal(tuple(deck)))
                continue
            view = seat_view(game, game.turn)
            out.append((game.copy(), view))
            game.apply(bot.decide(view))
    return out


@pytest.fixture(scope="module")
def positions() -> dict[Phase, list[tuple[Game, SeatView]]]:
    by_phase: dict[Phase, list[tuple[Game, SeatView]]] = {p: [] for p in SPECIAL_PHASES}
    for game, view in _play_games(seed=19, games=2):
        by_phase[view.phase].append((game, view))
    return by_phase


def _sample(items: list[tuple[Game, SeatView]], k: int, seed: int) -> list[tuple[Game, SeatView]]:
    rng = random.Random(seed)
    return items if len(items) <= k else rng.sample(items, k)


@pytest.mark.parametrize("level", LEVELS)
@pytest.mark.parametrize("phase", SPECIAL_PHASES, ids=lambda p: p.value)
def test_every_level_answers_every_decision_legally(
    positions: dict[Phase, list[tuple[Game, SeatView]]], level: str, phase: Phase
) -> None:
    found = positions[phase]
    assert found, f"the games reached no {phase.value} decision"
    bot = make_bot(_bot_level(level), random.Random(7))
    for game, view in _sample(found, 6 if level in QUICK else 25, seed=len(found)):
        action = bot.decide(view)
        assert action in game.legal_actions(), (phase, view.hand, action)
        game.copy().apply(action)  # and the engine takes it


def test_the_model_reads_every_trick_as_the_engine_does() -> None:
    """Every trick of whole games (normal and random bots, all nine cards): the model's
    taker, and whether the trick is bombed, are the engine's."""
    rng = random.Random(5)
    checked = 0
    for g in range(3):
        game = Game(GameConfig(3, g, TableRules(specials=ALL)))
        assert isinstance(game, SpecialGame)
        bots = [
            make_bot(level, random.Random(g * 10 + s))
            for s, level in enumerate(("normal", "random", "easy"))
        ]
        deck = list(deck_cards(ALL))
        while game.phase is not Phase.GAME_OVER:
            if game.phase is Phase.DEAL:
                rng.shuffle(deck)
                game.apply(Deal(tuple(deck)))
                continue
            done = len(game.tricks)
            declared = game.declarations
            trump = game.trump
            turned = game.turned_card
            action = bots[game.turn].decide(seat_view(game, game.turn))
            game.apply(action)
            ended = game.phase in (Phase.DEAL, Phase.GAME_OVER)
            if not ended:
                declared = game.declarations
            elif isinstance(action, Declare):  # the round's last card, declared
                declared += ((done, action.seat, action.choice),)
            tricks = game.results[-1].tricks if ended else game.tricks
            if len(tricks) <= done:
                continue
            trick = tricks[done]
            choices = {s: c for t, s, c in declared if t == done}
            forms = [model.form_of(c, choices.get(s), turned) for s, c in trick.plays]
            assert trick.plays[model.winner_index(forms, trump)][0] == trick.winner
            assert model.bombed(forms) == trick.bombed
            checked += 1
    assert checked > 300


# ------------------------------------------------------------- positions by hand

DRG, FRY, JGL, SHP = (
    int(c) for c in (Special.DRAGON, Special.FAIRY, Special.JUGGLER, Special.SHAPESHIFTER)
)


def _deck(
    specials: frozenset[Special], dealer: int, hands: Mapping[int, Sequence[int]], turned: int
) -> tuple[int, ...]:
    """A deck dealing ``hands`` (every seat's, in order) with ``turned`` turned up."""
    n = len(hands)
    size = len(hands[0])
    deck = [hands[(dealer + 1 + j % n) % n][j // n] for j in range(n * size)]
    deck.append(turned)
    deck += [c for c in deck_cards(specials) if c not in deck]
    return tuple(int(c) for c in deck)


def _game(
    specials: frozenset[Special],
    size: int,
    dealer: int,
    hands: Mapping[int, Sequence[int]],
    turned: int,
) -> Game:
    game = Game(GameConfig(3, dealer, TableRules(specials=specials, rounds=(size,))))
    game.apply(Deal(_deck(specials, dealer, hands, turned)))
    return game


SENSIBLE = ("normal", "hard", "expert")


@pytest.mark.parametrize("level", SENSIBLE)
def test_a_dragon_without_a_fairy_against_it_is_a_trick(level: str) -> None:
    """One card each, the Fairy turned up and no Bomb in the game: the Dragon takes the
    trick whatever happens, so its holder bids 1."""
    specials = frozenset({Special.DRAGON, Special.FAIRY})
    game = _game(specials, 1, 0, {1: [DRG], 2: [card("13S")], 0: [55]}, FRY)
    assert game.phase is Phase.BID and game.turn == 1
    bot = make_bot(_bot_level(level), random.Random(1))
    assert bot.decide(seat_view(game, 1)) == Bid(1, 1)


@pytest.mark.parametrize("level", ("easy", *SENSIBLE))
@pytest.mark.parametrize(("bid", "form"), [(0, Declaration.JESTER), (1, Declaration.WIZARD)])
def test_the_last_shapeshifter_takes_the_trick_only_when_wanted(
    level: str, bid: int, form: Declaration
) -> None:
    """Last to play, to a trick of two clubs: as a Wizard the Shapeshifter surely takes it,
    as a Jester it surely does not; a bid of 0 wants the Jester, a bid of 1 the Wizard."""
    specials = frozenset({Special.SHAPESHIFTER})
    hands = {1: [card("5C")], 2: [card("3C")], 0: [SHP]}
    game = _game(specials, 1, 0, hands, card("9H"))
    for seat, b in ((1, 0), (2, 0), (0, bid)):
        game.apply(Bid(seat, b))
    game.apply(Play(1, card("5C")))
    game.apply(Play(2, card("3C")))
    game.apply(Play(0, SHP))
    assert game.phase is Phase.DECLARE
    bot = make_bot(_bot_level(level), random.Random(2))
    assert bot.decide(seat_view(game, 0)) == Declare(0, int(form))


@pytest.mark.parametrize("level", SENSIBLE)
def test_the_pass_keeps_a_sure_dragon_while_tricks_are_needed(level: str) -> None:
    """After a Juggler's trick in which the Fairy fell (no Bomb in the game), a seat that
    still needs a trick keeps its Dragon, a sure trick, and passes another card."""
    specials = frozenset({Special.JUGGLER, Special.DRAGON, Special.FAIRY})
    hands = {
        1: [JGL, card("4D"), card("6D")],
        2: [FRY, card("7H"), card("8H")],
        0: [card("2C"), DRG, card("3H")],
    }
    game = _game(specials, 3, 0, hands, card("9S"))
    for seat, b in ((1, 1), (2, 1), (0, 1)):
        game.apply(Bid(seat, b))
    game.apply(Play(1, JGL))
    game.apply(Declare(1, 0))  # clubs: 7½ of clubs takes the 2
    game.apply(Play(2, FRY))
    game.apply(Play(0, card("2C")))
    assert game.phase is Phase.PASS
    while game.turn != 0:
        game.apply(PassCard(game.turn, game.legal_actions()[0].card))  # type: ignore[union-attr]
    view = seat_view(game, 0)
    assert view.tricks_won[0] == 0
    action = make_bot(_bot_level(level), random.Random(3)).decide(view)
    assert action == PassCard(0, card("3H"))


def test_the_quick_trick_state_agrees_with_the_full_reading() -> None:
    """``TrickState.would_take`` (the playouts' shortcut) says what ``winner_index`` says
    of the trick with the card added, over random tricks of every kind of form."""
    rng = random.Random(11)
    forms = [model.WIZARD, model.DRAGON, model.JESTER, model.FAIRY, model.WITCH, model.BOMB]
    forms += [s * 100 + v for s in range(4) for v in (4, 17, 30, 39, 52)]
    for _ in range(5000):
        trump = rng.randrange(-1, 4)
        trick = [rng.choice(forms) for _ in range(rng.randrange(0, 5))]
        card = rng.choice(forms)
        whole = [*trick, card]
        expected = model.winner_index(whole, trump) == len(trick) and not model.bombed(whole)
        assert model.TrickState(trick, trump).would_take(card, trump) == expected, (trick, card)


# ------------------------------------------------------------- hard's worlds


def test_sampled_hands_deal_the_unseen_cards_of_the_real_deck(
    positions: dict[Phase, list[tuple[Game, SeatView]]],
) -> None:
    """Every other seat gets exactly as many cards as it holds, all of them cards of this
    table's deck that the seat has not seen, never the Werewolf; the card this seat passed
    last goes to its left neighbour while it is unseen."""
    rng = random.Random(3)
    deck = set(deck_cards(ALL))
    pinned = 0
    for phase in (Phase.PLAY, Phase.BID, Phase.DECLARE):
        for game, view in _sample(positions[phase], 40, seed=1):
            k = read_special(view)
            hands = sample_special_hands(k, rng)
            assert hands[view.seat] == k.hand
            seen = 0
            for seat, hand in enumerate(hands):
                if seat == view.seat:
                    continue
                assert hand.bit_count() == len(game.hand(seat))
                assert not hand & ~k.unseen
                assert not hand >> Special.WEREWOLF & 1
                assert all(c in deck for c in bits(hand))
                assert not hand & seen
                seen |= hand
            if view.last_pass is not None and k.unseen >> view.last_pass[0] & 1:
                assert hands[(view.seat + 1) % 3] >> view.last_pass[0] & 1
                pinned += 1
    assert pinned  # the games passed cards that stayed unseen


def test_a_world_stands_where_the_real_round_stands(
    positions: dict[Phase, list[tuple[Game, SeatView]]],
) -> None:
    """Dealt the real hands, a world (the engine's game hard searches) has the real trick in
    progress, the seat on turn, its legal cards and choices, and the real trump."""
    built = 0
    for phase in (Phase.PLAY, Phase.DECLARE):
        for game, view in _sample(positions[phase], 60, seed=2):
            if view.turned_card != view.trump_card:
                continue  # a Werewolf's swap: the world turns up a stand-in (documented)
            k = read_special(view)
            real = [mask(game.hand(s)) for s in range(3)]
            world = play_world(view, k, real)
            assert world is not None
            built += 1
            assert world.trick == view.trick
            assert world.phase is view.phase and world.turn == view.seat
            assert world.trump_suit == view.trump_suit
            assert sorted(world.legal_plays()) == sorted(view.legal_cards)
            assert world.legal_choices() == view.legal_choices
            assert len(world.hand(view.seat)) == len(view.hand)
    assert built > 30


@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_forehead_rounds_with_special_cards(level: str) -> None:
    """One-card rounds on the forehead with every card but the Werewolf (which the rules
    keep out of them): every decision legal, every game finished."""
    specials = ALL - {Special.WEREWOLF}
    rng = random.Random(4)
    for g in range(4):
        rules = TableRules(forehead=True, rounds=(1, 1, 2), specials=specials)
        game = Game(GameConfig(3, g % 3, rules))
        bots = [make_bot(_bot_level(level), random.Random(g * 3 + s)) for s in range(3)]
        deck = list(deck_cards(specials))
        while game.phase is not Phase.GAME_OVER:
            if game.phase is Phase.DEAL:
                rng.shuffle(deck)
                game.apply(Deal(tuple(deck)))
                continue
            view = seat_view(game, game.turn)
            action = bots[game.turn].decide(view)
            assert action in game.legal_actions() or view.forehead
            game.apply(action)
        assert len(game.results) == 3
