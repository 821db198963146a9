"""Random games with random sets of special cards, checked step by step against the second
implementation of their rules in reference_specials.py (written from docs/rules.md alone).

Each game: 3 to 6 players, a valid set of special cards (the Dragon and the Fairy together,
no Werewolf with the forehead round), a random length, random decks (permutations of
``deck_cards``, with the special cards pushed into the hands and onto the trump card's place
more often than chance would), and at every step a random action among the engine's
``legal_actions()``. Before and after every action the engine and the reference must agree:
the phase and the seat on turn, the set of legal actions, the hands (after every pass and swap
too), the trump card and suit (after the Werewolf too), the bids (after every Cloud), who takes
each trick or leads after a Bomb, the declarations, the seats' views, the round's points and
the totals. ``Game.replay`` and ``game.copy()`` must reproduce the game.

CI runs a few dozen short games (a couple of seconds); ``test_long_random_special_games``,
marked slow (``make test-slow``), plays many more full-length ones.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wizard_tui.game import (
    BLIND_CARD,
    Bid,
    ChooseTrump,
    Deal,
    Game,
    GameConfig,
    IllegalAction,
    Phase,
    RestrictLastBid,
    TableRules,
    length_rounds,
    seat_view,
)
from wizard_tui.game.actions import (
    AdjustBid,
    BidAdjusted,
    CardsPassed,
    CardSwapped,
    Declare,
    Declared,
    NameTrump,
    PassCard,
    Play,
    SwapCard,
    TrickBombed,
    TrickWon,
    TrumpNamed,
)
from wizard_tui.game.specials import SPECIALS, Special, deck_cards

from .reference_specials import BOMB, RefGame, led_suit, take

PLAIN_SPECIALS = (52, 53, 54, 55, 56, 57, 58, 59)  # Wizards and Jesters


def normalise(specials: frozenset[Special], forehead: bool) -> frozenset[Special]:
    """A set the table may play: the Dragon and the Fairy together, never the Werewolf with
    the forehead round, and at least one card (none is the plain game)."""
    pair = {Special.DRAGON, Special.FAIRY}
    if specials & pair:
        specials |= pair
    if forehead:
        specials -= {Special.WEREWOLF}
    return specials or frozenset({Special.BOMB})


def state_of(game: Game) -> dict[str, Any]:
    """Everything observable about a game, and every slot of its class and its bases (the
    tests' ``helpers.snapshot`` reads the plain ``Game``'s slots only)."""
    n = game.players
    state: dict[str, Any] = dict(
        phase=game.phase,
        turn=game.turn,
        round=game.round,
        hands=[game.hand(s) for s in range(n)],
        bids=game.bids,
        trick=game.trick,
        tricks=game.tricks,
        totals=list(game.totals),
        tricks_won=list(game.tricks_won),
        trump=(game.trump_card, game.trump_suit),
        legal_actions=game.legal_actions(),
        actions=game.actions,
        results=game.results,
        views=[seat_view(game, s) for s in range(n)],
    )
    for cls in type(game).__mro__:
        for name in getattr(cls, "__slots__", ()):
            state[f"slot.{name}"] = copy.deepcopy(getattr(game, name, None))
    return state


class SpecialChecker:
    """Plays one random game through the engine and the reference side by side."""

    def __init__(
        self,
        seed: int,
        players: int,
        first_dealer: int,
        specials: frozenset[Special],
        sizes: Sequence[int] | None,
        restrict: RestrictLastBid,
        hidden: bool,
        forehead: bool,
        deal_in: Sequence[int] = (),
        turn_up: Sequence[int] = (),
    ) -> None:
        self.deal_in, self.turn_up = tuple(deal_in), tuple(turn_up)  # cards forced into place
        self.rng = random.Random(seed)
        self.rules = TableRules(
            restrict,
            hidden_bids=hidden,
            forehead=forehead,
            rounds=None if sizes is None else tuple(sizes),
            specials=specials,
        )
        self.rules.check(players)
        self.config = GameConfig(players, first_dealer, self.rules)
        self.game = Game(self.config)
        self.n = players
        self.ref = RefGame(
            players, first_dealer, self.rules.round_sizes(players), self.rules.last_bid_rule.value
        )
        self.cards = deck_cards(specials)
        self.round_actions: list[object] = []  # the seat actions of the round in progress
        self.steps = 0
        self.checked_tricks = 0
        self.replay_at = self.rng.randrange(1, 200)  # and once more at the end

    # -- playing

    def run(self, max_steps: int = 100_000) -> None:
        game, ref = self.game, self.ref
        while game.phase is not Phase.GAME_OVER and self.steps < max_steps:
            if game.phase is Phase.DEAL:
                deck = self.random_deck()
                game.apply(Deal(deck))
                ref.deal(deck)
                self.round_actions = []
            else:
                self.step()
            self.steps += 1
            self.check()
            if self.steps == self.replay_at:
                self.check_replay()
            if self.rng.random() < 0.02:  # go on with a copy: it must be the same game
                self.game = game = game.copy()
        if game.phase is Phase.GAME_OVER:
            assert ref.phase == "game_over"
            assert list(game.totals) == ref.totals
        self.check_replay()

    def random_deck(self) -> tuple[int, ...]:
        """A permutation of the table's cards; the special cards go into the hands, and a
        special card (or a Wizard or a Jester) onto the trump card's place, more often."""
        rng, n = self.rng, self.n
        dealt = n * self.rules.round_sizes(n)[self.ref.round]  # the coming round's cards
        deck = list(self.cards)
        rng.shuffle(deck)

        def put(card: int, at: int) -> None:
            i = deck.index(card)
            deck[i], deck[at] = deck[at], deck[i]

        if rng.random() < 0.7:
            for card in self.rules.specials:
                if rng.random() < 0.6:
                    put(card, rng.randrange(dealt))
        if rng.random() < 0.4:
            put(rng.choice([*self.rules.specials, *PLAIN_SPECIALS]), dealt)
        if self.turn_up:
            put(rng.choice(self.turn_up), dealt)
        for at, card in zip(rng.sample(range(dealt), len(self.deal_in)), self.deal_in, strict=True):
            put(card, at)
        return tuple(deck)

    def step(self) -> None:
        game, ref, rng = self.game, self.ref, self.rng
        if rng.random() < 0.1:
            self.try_illegal()
        legal = game.legal_actions()
        assert len(set(legal)) == len(legal), "an action listed twice"
        assert set(legal) == ref.legal_actions(), (game.phase, game.turn)
        action: Any = rng.choice(sorted(legal, key=repr))
        applied = action
        if (
            isinstance(action, Play)
            and self.rules.forehead
            and game.hand_size == 1
            and rng.random() < 0.5
        ):
            applied = Play(action.seat, BLIND_CARD)  # "play your card", unseen
        tricks_before = len(ref.done)
        trick_index = len(ref.done) - 1  # the trick an after-trick effect belongs to
        last_pass = ref.phase == "pass" and len(ref.passing) == self.n - 1
        events = game.apply(applied)
        ref.apply(action)
        self.round_actions.append(action)
        self.check_event(action, events, trick_index, last_pass)
        if len(ref.done) > tricks_before:
            self.check_trick(events)
        if ref.phase in ("deal", "game_over"):
            self.check_round()

    def check_event(
        self, action: object, events: Sequence[object], trick: int, last_pass: bool
    ) -> None:
        """The event each special action announces."""
        ref = self.ref
        if isinstance(action, NameTrump):
            assert TrumpNamed(action.seat, ref.turned, action.suit) in events, events
        elif isinstance(action, Declare):
            card = ref.done[-1].plays[-1][1] if not ref.trick else ref.trick[-1].card
            assert Declared(action.seat, card, action.choice) in events, events
        elif isinstance(action, AdjustBid):
            assert BidAdjusted(action.seat, action.bid) in events, events
        elif isinstance(action, PassCard):
            passed = [e for e in events if isinstance(e, CardsPassed)]
            assert passed == ([CardsPassed(trick)] if last_pass else []), events
        elif isinstance(action, SwapCard):
            swap = CardSwapped(action.seat, trick, action.give, action.take)
            assert swap in events, events

    def illegal_actions(self) -> list[object]:
        """Actions of the phase's kind that the reference says are not legal now."""
        ref, seat, n = self.ref, self.ref.turn, self.n
        other = (seat + 1) % n
        hand = ref.hands[seat]
        elsewhere = [card for card in self.cards if card not in hand]
        phase = ref.phase
        if phase == "name_trump":
            tries: list[object] = [NameTrump(seat, 4), NameTrump(other, None)]  # type: ignore[arg-type]
        elif phase == "choose_trump":
            tries = [ChooseTrump(seat, None), NameTrump(seat, None)]  # type: ignore[arg-type]
        elif phase == "bid":
            tries = [Bid(seat, b) for b in range(-1, ref.h + 2)] + [Bid(other, 0)]
        elif phase == "play":
            tries = [Play(seat, card) for card in self.cards] + [Play(other, card) for card in hand]
        elif phase == "declare":
            tries = [Declare(seat, d) for d in range(-1, 7)] + [Declare(other, 0), Play(seat, 0)]
        elif phase == "adjust_bid":
            tries = [AdjustBid(seat, b) for b in range(-2, ref.h + 3)] + [AdjustBid(other, 0)]
        elif phase == "pass":
            tries = [PassCard(seat, card) for card in elsewhere] + [PassCard(other, hand[0])]
        else:  # swap
            tries = [SwapCard(seat, g, t) for g in self.cards for t in self.cards]
            tries += [SwapCard(seat, hand[0], None), SwapCard(seat, None, ref.swap_trick[0])]
            tries += [SwapCard(other, None, None)]
        legal = ref.legal_actions()
        return [action for action in tries if action not in legal]

    def try_illegal(self) -> None:
        """An action the reference refuses: the engine must refuse it too, changing nothing."""
        action = self.rng.choice(self.illegal_actions())
        before = state_of(self.game)
        with pytest.raises(IllegalAction):
            self.game.apply(action)  # type: ignore[arg-type]
        assert state_of(self.game) == before, action

    # -- the checks

    def check_trick(self, events: Sequence[object]) -> None:
        """The trick just completed: the event, the taker (or the next leader), bombed."""
        t = len(self.ref.done) - 1
        done = self.ref.done[t]
        expected = (
            TrickBombed(t, done.next_leader, done.plays)
            if done.bombed
            else TrickWon(t, done.next_leader, done.plays)
        )
        assert expected in events, (expected, events)
        other = TrickWon if done.bombed else TrickBombed
        assert not any(isinstance(e, other) for e in events)
        if self.ref.phase not in ("deal", "game_over"):  # the round's tricks are in results
            trick = self.game.tricks[t]
            assert (trick.leader, trick.cards) == (done.leader, tuple(c for _, c in done.plays))
            assert (trick.winner, trick.bombed) == (done.next_leader, done.bombed)
        self.checked_tricks += 1

    def check_round(self) -> None:
        game, ref = self.game, self.ref
        result = game.results[-1]
        done = ref.rounds[-1]
        assert result.round == ref.round
        assert (result.bids, result.tricks_won) == (done.bids, done.tricks_won)
        assert (result.points, result.totals) == (done.points, done.totals)
        assert result.turned_card == ref.turned
        assert result.trump_card == ref.trump_card
        assert [(t.leader, t.winner, t.bombed) for t in result.tricks] == [
            (d.leader, d.next_leader, d.bombed) for d in ref.done
        ]
        assert list(result.actions) == self.round_actions

    def check(self) -> None:
        game, ref, n = self.game, self.ref, self.n
        assert (game.phase.value, game.turn) == (ref.phase, ref.turn)
        assert list(game.totals) == ref.totals
        if ref.phase in ("deal", "game_over"):
            return
        for seat in range(n):
            assert sorted(game.hand(seat)) == sorted(ref.hands[seat]), seat
        assert game.turned_card == ref.turned
        assert game.trump_card == ref.trump_card
        if ref.phase not in ("choose_trump", "name_trump"):
            assert game.trump_suit == ref.trump
        assert game.bids == tuple(ref.bids)
        assert list(game.tricks_won) == ref.won
        assert len(game.tricks) == len(ref.done)
        if ref.phase == "play" and ref.trick:  # the trick in progress: led suit, taker so far
            readings = ref.readings()
            assert game.led_suit == led_suit(readings)
            if all(r.kind == BOMB for r in readings):  # nobody would lead yet
                assert game.trick_winner is None
            else:
                assert game.trick_winner == ref.trick[take(readings, ref.trump)[0]].seat
        self.check_views()

    def check_views(self) -> None:
        game, ref, n = self.game, self.ref, self.n
        blind = self.rules.forehead and game.hand_size == 1
        for seat in range(n):
            view = seat_view(game, seat)
            assert blind or view.hand == tuple(ref.hands[seat])  # in the order they came
            assert view.turned_card == ref.turned
            assert view.trump_card == ref.trump_card
            assert view.declared == tuple(ref.declared)
            assert view.last_pass == ref.last_pass.get(seat), seat
            if seat != ref.turn:
                assert view.legal_choices == () and view.swap_takes == ()
                assert view.legal_cards == ()
                continue
            legal = ref.legal_actions()
            if ref.phase == "name_trump":
                suits = {-1 if a.suit is None else int(a.suit) for a in legal}
                assert set(view.legal_choices) == suits
            elif ref.phase == "declare":
                assert set(view.legal_choices) == {a.choice for a in legal}
            elif ref.phase == "adjust_bid":
                assert set(view.legal_choices) == {a.bid for a in legal}
            elif ref.phase == "pass":
                assert set(view.legal_cards) == {a.card for a in legal}
            elif ref.phase == "swap":
                assert set(view.legal_cards) == set(ref.hands[seat])
                assert set(view.swap_takes) == ref.swap_takes()
            elif ref.phase == "play" and not (self.rules.forehead and game.hand_size == 1):
                assert set(view.legal_cards) == {a.card for a in legal}

    def check_replay(self) -> None:
        game = self.game
        again = Game.replay(self.config, game.actions)
        assert again.actions == game.actions
        assert (again.phase, again.turn, list(again.totals)) == (
            game.phase,
            game.turn,
            list(game.totals),
        )
        assert again.results == game.results
        assert set(again.legal_actions()) == set(game.legal_actions())
        for seat in range(self.n):
            assert seat_view(again, seat) == seat_view(game, seat)


# ------------------------------------------------------------------ strategies


@st.composite
def tables(draw: st.DrawFn, long: bool = False) -> dict[str, Any]:
    players = draw(st.integers(3, 6))
    forehead = draw(st.booleans())
    specials = normalise(frozenset(draw(st.sets(st.sampled_from(SPECIALS)))), forehead)
    top = 60 // players
    if long:
        named = [length_rounds(name, players) for name in ("short", "up-and-down")]
        sizes = draw(st.sampled_from([None, [top], list(range(top, 0, -1)), *named]))
    else:  # a few rounds, mostly small, now and then the top one
        sizes = draw(
            st.lists(
                st.one_of(st.integers(1, min(top, 4)), st.integers(1, top)),
                min_size=1,
                max_size=3,
            )
        )
    return dict(
        seed=draw(st.integers(0, 2**32 - 1)),
        players=players,
        first_dealer=draw(st.integers(0, players - 1)),
        specials=specials,
        sizes=sizes,
        restrict=draw(st.sampled_from(list(RestrictLastBid))),
        hidden=draw(st.booleans()),
        forehead=forehead,
    )


@settings(max_examples=40, deadline=None)
@given(table=tables())
def test_random_special_games_follow_the_rules(table: dict[str, Any]) -> None:
    checker = SpecialChecker(**table)
    checker.run()
    assert checker.steps > 0 and checker.game.phase is Phase.GAME_OVER


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(3, 6))
def test_all_nine_cards(seed: int, players: int) -> None:
    """Every card in, rounds big enough that most of them are dealt."""
    top = 60 // players
    checker = SpecialChecker(
        seed, players, 0, frozenset(SPECIALS), [top, top // 2], "never", False, False
    )
    checker.run()
    assert checker.checked_tricks == top + top // 2


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(3, 6),
    turned=st.one_of(
        st.sampled_from([c for c in SPECIALS if c != Special.WEREWOLF]), st.integers(0, 55)
    ),
)
def test_a_werewolf_hands_the_vampire_its_copy(seed: int, players: int, turned: int) -> None:
    """The rare rounds: a Werewolf and a Vampire dealt, another card turned up, so the
    Vampire copies a card that is also in a hand (two of one suit card, two Jugglers, two
    Witches, two Bombs...) or itself."""
    specials = {Special.WEREWOLF, Special.VAMPIRE, Special.WITCH}
    if turned >= 60:
        specials.add(Special(turned))
    if turned in (Special.DRAGON, Special.FAIRY):
        specials |= {Special.DRAGON, Special.FAIRY}
    dealt_in = [Special.WEREWOLF] + ([Special.VAMPIRE] if turned != Special.VAMPIRE else [])
    top = 60 // players
    checker = SpecialChecker(
        seed,
        players,
        0,
        frozenset(specials),
        [2, 3, top],
        "never",
        False,
        False,
        dealt_in,
        [turned],
    )
    checker.run()
    assert checker.game.phase is Phase.GAME_OVER


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(table=tables(long=True))
def test_long_random_special_games(table: dict[str, Any]) -> None:
    """Full games and every card dealt: the long run, kept out of CI (``make test-slow``)."""
    checker = SpecialChecker(**table)
    checker.run()
    assert checker.game.phase is Phase.GAME_OVER


def test_the_comparison_catches_a_wrong_reference(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check can fail: a reference where a led suit forbids the special cards (the page
    says they may always be played) parts from the engine at once."""
    from . import reference_specials

    right = reference_specials.legal_cards

    def wrong(hand: Sequence[int], readings: Sequence[Any]) -> set[int]:
        legal = right(hand, readings)
        follows = any(card < 52 and card // 13 == led_suit(readings) for card in hand)
        return {card for card in legal if card < 60} if follows else legal

    monkeypatch.setattr(reference_specials, "legal_cards", wrong)
    everything = frozenset(SPECIALS)
    with pytest.raises(AssertionError):
        for seed in range(10):
            SpecialChecker(seed, 3, 0, everything, [20], "never", False, False).run()
