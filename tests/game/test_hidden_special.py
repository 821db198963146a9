"""``HiddenSpecialGame``: the host's game of a private deal with special cards follows every
special game from public information alone (the turned card, who showed the Werewolf, plays,
declarations, that a pass happened, the Witch's swap), and at the round's end replays the real
deck and the passes' cards through the engine: the same scores, and a revoke (a card not
held, a suit not followed, a card passed that was not held) is a ``Revoke`` naming the seat.
``SeatSpecialGame``: each seat's own game (the public game and its own hand) gives that seat
exactly the engine's view of it."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence

import pytest

from wizard_tui.game import Game, GameConfig, IllegalAction, Phase, TableRules, seat_view
from wizard_tui.game.actions import (
    Action,
    AdjustBid,
    Bid,
    CardsPassed,
    ChooseTrump,
    Deal,
    Declare,
    NameTrump,
    PassCard,
    Play,
    SwapCard,
)
from wizard_tui.game.errors import Reason
from wizard_tui.game.hidden import Revoke
from wizard_tui.game.hidden_special import HIDDEN_CARD, HiddenSpecialGame
from wizard_tui.game.seat_special import SeatSpecialGame
from wizard_tui.game.specials import SPECIALS, Special, deck_cards

from .special_decks import cards, special_deck

SETS = [
    frozenset(SPECIALS),
    frozenset({Special.JUGGLER, Special.WITCH, Special.CLOUD}),
    frozenset({Special.VAMPIRE, Special.WEREWOLF, Special.JUGGLER, Special.BOMB}),
    frozenset({Special.DRAGON, Special.FAIRY, Special.SHAPESHIFTER}),
]

# What every seat sees of the table, compared between the real game and the hidden one.
PUBLIC = (
    "round",
    "hand_size",
    "dealer",
    "phase",
    "turn",
    "trump_card",
    "trump_suit",
    "turned_card",
    "bids",
    "tricks_won",
    "totals",
    "trick_leader",
    "trick",
    "led_suit",
    "trick_winner",
    "tricks",
    "results",
    "declarations",
    "is_over",
)


def public_state(game: Game) -> dict[str, object]:
    state: dict[str, object] = {name: getattr(game, name) for name in PUBLIC}
    state["tricks_won"] = tuple(game.tricks_won)
    state["totals"] = tuple(game.totals)
    state["legal_choices"] = game.legal_choices()
    state["swap_takes"] = game.swap_takes()
    state["legal_bids"] = tuple(game.legal_bids())
    state["forbidden_bid"] = game.forbidden_bid()
    return state


def werewolf_holder(game: Game) -> int | None:
    return next(
        (s for s in range(game.players) if Special.WEREWOLF in game.dealt_hand(s)),
        None,
    )


def public_of(action: Action) -> Action:
    """What the host learns of ``action``: a pass names no card."""
    return PassCard(action.seat, HIDDEN_CARD) if type(action) is PassCard else action


def mirrored_game(seed: int, specials: frozenset[Special], players: int) -> tuple[Game, int]:
    """A whole game of random legal actions, every public step mirrored into a hidden game
    and compared; each round scored by both. Returns the real game and the passes seen."""
    rng = random.Random(seed)
    config = GameConfig(players, rng.randrange(players), TableRules(specials=specials))
    real = Game(config)
    hidden = HiddenSpecialGame(config)
    deck: tuple[int, ...] = ()
    passes: list[list[int]] = []
    passes_seen = 0
    while not real.is_over:
        if real.phase is Phase.DEAL:
            shuffled = list(deck_cards(specials))
            rng.shuffle(shuffled)
            deck = tuple(shuffled)
            real.apply(Deal(deck))
            assert real.turned_card is not None
            hidden.start_round(real.turned_card, werewolf_holder(real))
            passes = []
        else:
            action = rng.choice(real.legal_actions())
            if type(action) is PassCard:
                if passes_seen % players == 0:  # a new pass: every seat passes once
                    passes.append([0] * players)
                passes[-1][action.seat] = action.card
                passes_seen += 1
            real.apply(action)
            hidden.apply(public_of(action))
        if real.phase in (Phase.DEAL, Phase.GAME_OVER) and real.round > hidden.full.round:
            assert hidden.round_complete
            hidden.finish_round(deck, [tuple(p) for p in passes])
        assert public_state(hidden) == public_state(real)
        for seat in (real.turn,) if real.turn >= 0 else range(players):  # the seat asked
            mine, theirs = seat_view(hidden, seat), seat_view(real, seat)
            # Everything but the seat's own cards (which its own deal tells it).
            assert mine == dataclasses.replace(theirs, hand=(), legal_cards=(), last_pass=None)
    assert hidden.is_over and hidden.winners == real.winners
    return real, passes_seen


CASES = [(seed, SETS[seed % 4], 3 + seed % 4) for seed in range(4)]


def test_follows_random_games_and_scores_them() -> None:
    """Whole games, compared at every step; they do pass cards and swap them (else they
    would prove little)."""
    passed = 0
    swapped = 0
    for seed, specials, players in CASES:
        real, passes = mirrored_game(seed, specials, players)
        passed += passes
        swapped += sum(
            1
            for result in real.results
            for action in result.actions
            if type(action) is SwapCard and action.give is not None
        )
    assert passed > 0 and swapped > 0


def one_round(
    hands: str, turned: str, *, dealer: int = 2, shown: bool = True
) -> tuple[HiddenSpecialGame, tuple[int, ...]]:
    """A one-round hidden game of three seats, dealt ``hands`` (seat by seat, ``|`` between),
    with its real deck."""
    dealt = [cards(h) for h in hands.split("|")]
    rules = TableRules(specials=frozenset(SPECIALS), rounds=(len(dealt[0]),))
    config = GameConfig(3, dealer, rules)
    deck = special_deck(3, dealer, dealt, cards(turned)[0], frozenset(SPECIALS))
    game = HiddenSpecialGame(config)
    holder = next((s for s, h in enumerate(dealt) if Special.WEREWOLF in h), None)
    game.start_round(cards(turned)[0], holder if shown else None)
    return game, deck


def test_a_suit_not_followed_is_a_revoke_at_the_round_end() -> None:
    game, deck = one_round("2H 3C|4H 5C|6H 7C", "9S")
    for _ in range(3):
        game.apply(game.legal_actions()[0])  # bids of 0
    game.apply(Play(0, cards("2H")[0]))
    game.apply(Play(1, cards("5C")[0]))  # seat 1 holds 4H: a revoke nobody here can see
    game.apply(Play(2, cards("6H")[0]))
    winner = game.tricks[-1].winner
    assert winner == 2
    rest = {0: "3C", 1: "4H", 2: "7C"}
    for seat in (2, 0, 1):
        game.apply(Play(seat, cards(rest[seat])[0]))
    assert game.round_complete
    with pytest.raises(Revoke) as refused:
        game.finish_round(deck)
    assert refused.value.seat == 1 and refused.value.code == Reason.MUST_FOLLOW_SUIT
    assert game.round_complete and game.full.round == 0  # unchanged: the round is voided


def test_a_pass_of_a_card_not_held_is_the_givers_revoke() -> None:
    game, deck = one_round("JGL 3C 9D|4H 5C 8D|6H 7C 8C", "9S")
    real = Game(game.config)
    real.apply(Deal(deck))
    passed = {0: cards("9D")[0], 1: cards("8D")[0], 2: cards("6H")[0]}
    refused_once = False
    while real.phase is not Phase.GAME_OVER:
        if real.phase is Phase.PASS:
            if not refused_once:  # the host is never told the card
                with pytest.raises(IllegalAction):
                    game.apply(PassCard(real.turn, passed[real.turn]))
                refused_once = True
            action: Action = PassCard(real.turn, passed[real.turn])
        else:
            juggler = Play(real.turn, int(Special.JUGGLER))
            legal = real.legal_actions()
            action = juggler if juggler in legal else legal[0]  # the Juggler first
        real.apply(action)
        game.apply(public_of(action))
    assert refused_once and game.round_complete and game.passes_made() == 1
    honest = [passed[0], passed[1], passed[2]]
    forged = [cards("2S")[0], passed[1], passed[2]]  # seat 0 never held 2S
    with pytest.raises(Revoke) as refused:
        game.finish_round(deck, [forged])
    assert refused.value.seat == 0 and type(refused.value.action) is PassCard
    with pytest.raises(ValueError):
        game.finish_round(deck, [])  # one pass happened: its cards are needed
    events = game.finish_round(deck, [honest])
    assert events and game.is_over and game.totals == real.totals


def test_public_refusals() -> None:
    game, _ = one_round("2H WLF 3C|4H 5C 6C|6H 7C 8C", "9S")
    assert game.phase is Phase.NAME_TRUMP and game.turn == 0
    assert game.trump_card == Special.WEREWOLF
    game.apply(game.legal_actions()[0])
    for _ in range(3):
        game.apply(game.legal_actions()[0])
    with pytest.raises(IllegalAction) as on_table:
        game.check_play(0, int(Special.WEREWOLF))  # face up as the trump card
    assert on_table.value.code == Reason.CARD_NOT_IN_HAND
    game.check_play(0, cards("9S")[0])  # the turned card is in the Werewolf's holder's hand
    with pytest.raises(IllegalAction):
        game.check_play(1, cards("2H")[0])  # not its turn
    with pytest.raises(IllegalAction):
        game.check_play(0, 99)
    with pytest.raises(IllegalAction):
        game.apply(Deal(tuple(range(69))))
    assert game.legal_plays() == () and game.hand(0) == () and game.legal_actions() == []


def test_witch_swap_puts_the_taken_card_back_in_play() -> None:
    game, _ = one_round("WCH 2H 3H|4H 5H 6H|7H 8H 9H", "2S", dealer=2)
    for _ in range(3):
        game.apply(game.legal_actions()[0])
    game.apply(Play(0, int(Special.WITCH)))
    game.apply(Play(1, cards("4H")[0]))
    game.apply(Play(2, cards("7H")[0]))
    assert game.phase is Phase.SWAP and game.turn == 0
    assert game.swap_takes() == tuple(sorted(cards("4H 7H")))
    with pytest.raises(IllegalAction):
        game.apply(SwapCard(0, cards("2H")[0], int(Special.WITCH)))
    with pytest.raises(IllegalAction):
        game.apply(SwapCard(0, cards("7H")[0], cards("4H")[0]))  # 7H lies in the trick
    game.apply(SwapCard(0, cards("2H")[0], cards("7H")[0]))
    with pytest.raises(IllegalAction):
        game.check_play(game.turn, cards("2H")[0])  # now lying in the trick


def seat_mirrored_game(seed: int, specials: frozenset[Special], players: int) -> int:
    """A whole game of random legal actions followed by every seat's own game (its hand and
    the public actions, the card it receives at a pass): each seat's view is exactly the
    engine's view of that seat, at every step. Returns how many passes it had."""
    rng = random.Random(seed)
    config = GameConfig(players, rng.randrange(players), TableRules(specials=specials))
    real = Game(config)
    seats = [SeatSpecialGame(config, s) for s in range(players)]
    deck: tuple[int, ...] = ()
    passes: list[list[int]] = []
    passes_seen = 0
    while not real.is_over:
        if real.phase is Phase.DEAL:
            shuffled = list(deck_cards(specials))
            rng.shuffle(shuffled)
            deck = tuple(shuffled)
            real.apply(Deal(deck))
            assert real.turned_card is not None
            for s, own in enumerate(seats):
                own.start_round(real.turned_card, werewolf_holder(real), real.dealt_hand(s))
            passes = []
        else:
            action = rng.choice(real.legal_actions())
            if type(action) is PassCard:
                if passes_seen % players == 0:
                    passes.append([0] * players)
                passes[-1][action.seat] = action.card
                passes_seen += 1
            events = real.apply(action)
            for s, own in enumerate(seats):
                hidden = type(action) is PassCard and action.seat != s
                own.apply(public_of(action) if hidden else action)
                if any(type(e) is CardsPassed for e in events):
                    last = real.last_pass(s)
                    assert last is not None and own.waiting_for_pass
                    own.received(last[1])
        if real.phase in (Phase.DEAL, Phase.GAME_OVER) and real.round > seats[0].full.round:
            for own in seats:
                own.finish_round(deck, [tuple(p) for p in passes])
        for s, own in enumerate(seats):
            assert seat_view(own, s) == seat_view(real, s)
    return passes_seen


def test_every_seat_follows_its_own_hand() -> None:
    passes = sum(seat_mirrored_game(seed, specials, n) for seed, specials, n in CASES[:2])
    assert passes > 0


def test_a_seat_checks_what_it_can() -> None:
    rules = TableRules(specials=frozenset(SPECIALS), rounds=(2,))
    config = GameConfig(3, 2, rules)
    own = SeatSpecialGame(config, 1)
    with pytest.raises(IllegalAction):
        own.start_round(cards("9S")[0], None, cards("4H WLF"))  # it would have shown it
    own.start_round(cards("9S")[0], None, cards("4H 5C"))
    for _ in range(3):
        own.apply(own.legal_actions()[0] if own.turn == 1 else Bid(own.turn, 0))
    with pytest.raises(IllegalAction) as held_here:
        own.apply(Play(0, cards("4H")[0]))  # seat 1 holds 4H itself
    assert held_here.value.code == Reason.CARD_NOT_IN_HAND
    own.apply(Play(0, cards("2H")[0]))
    with pytest.raises(IllegalAction) as revoke:
        own.apply(Play(1, cards("5C")[0]))  # its own revoke: it must follow hearts
    assert revoke.value.code == Reason.MUST_FOLLOW_SUIT
    with pytest.raises(IllegalAction):
        own.apply(Play(1, cards("6D")[0]))  # not its card
    assert seat_view(own, 1).legal_cards == (cards("4H")[0],)
    own.apply(Play(1, cards("4H")[0]))
    with pytest.raises(IllegalAction):
        own.received(cards("7C")[0])  # no pass is waiting


GARBAGE: tuple[object, ...] = (-2, 69, 1.0, True, "5H", [1], {2: 3}, (4,), int(Special.WEREWOLF))


def passes_of(actions: Sequence[Action], players: int) -> list[tuple[int, ...]]:
    """The cards of every pass in a round's actions, ``passes[m][seat]``."""
    passed = [a for a in actions if type(a) is PassCard]
    passes = []
    for m in range(len(passed) // players):
        cards_of_pass = [0] * players
        for action in passed[m * players : (m + 1) * players]:
            cards_of_pass[action.seat] = action.card
        passes.append(tuple(cards_of_pass))
    return passes


def test_bad_input_is_refused_never_a_crash() -> None:
    """Every action kind with every kind of bad value, in every state a random game reaches,
    at the host's game and at a seat's: ``IllegalAction``, and nothing changes."""
    rng = random.Random(7)
    config = GameConfig(3, 0, TableRules(specials=frozenset(SPECIALS), rounds=(4, 5)))
    real = Game(config)
    host = HiddenSpecialGame(config)
    own = SeatSpecialGame(config, 1)
    kinds = (Play, Bid, Declare, AdjustBid, ChooseTrump, NameTrump, PassCard)
    deck: tuple[int, ...] = ()
    while not real.is_over:
        if real.phase is Phase.DEAL:
            shuffled = list(deck_cards(config.rules.specials))
            rng.shuffle(shuffled)
            deck = tuple(shuffled)
            real.apply(Deal(deck))
            assert real.turned_card is not None
            host.start_round(real.turned_card, werewolf_holder(real))
            own.start_round(real.turned_card, werewolf_holder(real), real.dealt_hand(1))
            continue
        for game in (host, own):
            before = public_state(game)
            for bad in GARBAGE:
                for kind in kinds:
                    for seat in (real.turn, bad):
                        with pytest.raises(IllegalAction):
                            game.apply(kind(seat, bad))  # type: ignore[arg-type]
                with pytest.raises(IllegalAction):
                    game.check_play(real.turn, bad)  # type: ignore[arg-type]
                with pytest.raises(IllegalAction):
                    game.apply(SwapCard(real.turn, 0, bad))  # type: ignore[arg-type]
            assert public_state(game) == before
        action = rng.choice(real.legal_actions())
        assert not isinstance(action, Deal)
        events = real.apply(action)
        host.apply(public_of(action))
        own.apply(action if action.seat == 1 else public_of(action))
        if any(type(e) is CardsPassed for e in events):
            last = real.last_pass(1)
            assert last is not None
            own.received(last[1])
        if real.phase in (Phase.DEAL, Phase.GAME_OVER):
            passes = passes_of(real.results[-1].actions, 3)
            host.finish_round(deck, passes)
            own.finish_round(deck, passes)
    assert host.totals == real.totals == own.totals


def test_a_forehead_round_is_not_a_seats_own() -> None:
    rules = TableRules(specials=frozenset({Special.BOMB}), rounds=(1,), forehead=True)
    config = GameConfig(3, 0, rules)
    with pytest.raises(IllegalAction):
        SeatSpecialGame(config, 0).start_round(cards("9S")[0], None, cards("4H"))
    host = HiddenSpecialGame(config)
    host.start_round(cards("9S")[0], None)
    for _ in range(3):
        host.apply(host.legal_actions()[0])
    host.check_play(host.turn, -1)  # a blind play: the card is its unveiler's to open


def test_a_werewolf_kept_hidden_is_its_holders_revoke() -> None:
    game, deck = one_round("2H 3C|WLF 5C|6H 7C", "9S", shown=False)  # seat 1 said nothing
    assert game.phase is Phase.BID
    for _ in range(3):
        game.apply(game.legal_actions()[0])
    for seat, card in ((0, "2H"), (1, "5C"), (2, "6H")):
        game.apply(Play(seat, cards(card)[0]))
    leader = game.turn
    with pytest.raises(IllegalAction):
        game.check_play(1, int(Special.WEREWOLF))  # never played, shown or not
    rest = {0: "3C", 1: "8C", 2: "7C"}  # seat 1 plays a card it does not hold
    for seat in (leader, (leader + 1) % 3, (leader + 2) % 3):
        game.apply(Play(seat, cards(rest[seat])[0]))
    assert game.round_complete
    with pytest.raises(Revoke) as refused:
        game.finish_round(deck)
    assert refused.value.seat == 1 and type(refused.value.action) is NameTrump
