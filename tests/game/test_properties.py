"""Properties of random legal games, checked against a reference written from RULES.md.

The reference functions below use only the card-id scheme (suit * 13 + rank - 1, Wizards
52..55, Jesters 56..59) and the rules' wording; they share nothing with the engine's tables.
Games of every length are played (docs/rules.md, "Game length"): the driver is given the
cards of each round, and round r (the ordinal) deals its h cards.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from hypothesis import given, settings
from hypothesis import strategies as st

from wizard_tui.game import (
    Bid,
    ChooseTrump,
    Deal,
    Game,
    GameConfig,
    GameOver,
    IllegalAction,
    Phase,
    Play,
    Reason,
    RestrictLastBid,
    RoundDealt,
    RoundScored,
    Suit,
    TableRules,
    TrickWon,
    TrumpChosen,
    cards_of,
    legal_play_mask,
    length_rounds,
    seat_view,
)

from .helpers import build_deck, snapshot, visible_cards

# --------------------------------------------------------------- the reference


def is_wizard(card: int) -> bool:
    return 52 <= card <= 55


def is_jester(card: int) -> bool:
    return 56 <= card <= 59


def suit(card: int) -> int:
    assert card < 52
    return card // 13


def rank(card: int) -> int:
    assert card < 52
    return card % 13 + 1


def led_suit(trick: Sequence[int]) -> int | None:
    """The suit later players must follow, or None when they play freely."""
    for card in trick:
        if is_jester(card):
            continue  # a Jester leaves the choice to the next card
        return None if is_wizard(card) else suit(card)
    return None


def reference_legal(hand: Sequence[int], trick: Sequence[int]) -> set[int]:
    led = led_suit(trick)
    follow = {card for card in hand if card < 52 and suit(card) == led}
    if not follow:
        return set(hand)
    return follow | {card for card in hand if is_wizard(card) or is_jester(card)}


def reference_winner(trick: Sequence[int], trump: int | None) -> int:
    """Index of the winning card, in play order (RULES.md 5, in its own order)."""
    for i, card in enumerate(trick):
        if is_wizard(card):
            return i
    trumps = [(rank(card), i) for i, card in enumerate(trick) if card < 52 and suit(card) == trump]
    if trumps:
        return max(trumps)[1]
    led = led_suit(trick)
    if led is None:  # no Wizard and nothing but Jesters
        return 0
    followers = [(rank(card), i) for i, card in enumerate(trick) if card < 52 and suit(card) == led]
    return max(followers)[1]


def reference_score(bid: int, tricks: int) -> int:
    return 20 + 10 * tricks if bid == tricks else -10 * abs(bid - tricks)


def reference_legal_bids(
    round_number: int,
    hand_size: int,
    bids: Sequence[int | None],
    last: bool,
    form: RestrictLastBid,
) -> set[int]:
    """0..h tricks; the restriction (exempting the game's first round under after-round-1)
    keeps the bids from adding up to the round's h tricks."""
    legal = set(range(hand_size + 1))
    restricted = form == "always" or (form == "after-round-1" and round_number > 1)
    if last and restricted:
        legal.discard(hand_size - sum(b for b in bids if b is not None))
    return legal


# ------------------------------------------------------------------ the driver


class Checker:
    """Plays one random legal game through the engine, checking it at every step."""

    def __init__(
        self,
        seed: int,
        players: int,
        first_dealer: int,
        form: RestrictLastBid,
        sizes: Sequence[int] | None = None,
    ) -> None:
        self.rng = random.Random(seed)
        # The cards of each round: the full game's 1 .. 60 / n unless a length is given.
        self.sizes = tuple(range(1, 60 // players + 1)) if sizes is None else tuple(sizes)
        rules = TableRules(form, rounds=None if sizes is None else self.sizes)
        self.config = GameConfig(players, first_dealer, rules)
        self.game = Game(self.config)
        self.n = players
        self.form = form
        self.totals = [0] * players
        self.deck: tuple[int, ...] = ()
        self.trump: int | None = None
        self.replay_at = self.rng.randrange(min(60, len(self.sizes) * players))
        self.steps = 0
        self.accepted: list[object] = []  # every action the engine took, in order

    # -- the game

    def run(self) -> None:
        game = self.game
        for r, h in enumerate(self.sizes, 1):
            assert game.phase is Phase.DEAL
            self.try_illegal()
            self.deal(r, h)
            if game.phase is Phase.CHOOSE_TRUMP:
                self.choose_trump()
            self.bid_round(r, h)
            self.play_round(r, h)
        assert game.phase is Phase.GAME_OVER
        self.try_illegal()
        self.check_replay()

    def check_replay(self) -> None:
        game = self.game
        assert game.actions == self.accepted
        assert snapshot(Game.replay(self.config, self.accepted)) == snapshot(game)

    def deal(self, r: int, h: int) -> None:
        game, n, rng = self.game, self.n, self.rng
        deck = list(range(60))
        rng.shuffle(deck)
        if n * h < 60 and rng.random() < 0.3:  # turn up a Wizard or a Jester more often
            special = rng.choice([52, 53, 54, 55, 56, 57, 58, 59])
            i = deck.index(special)
            deck[i], deck[n * h] = deck[n * h], deck[i]
        self.deck = tuple(deck)
        events = game.apply(Deal(self.deck))
        self.accepted.append(Deal(self.deck))
        dealer = (self.config.first_dealer + r - 1) % n  # the rotation goes on over any length
        turned = deck[n * h] if n * h < 60 else None  # a round dealing every card turns none
        if turned is None or is_jester(turned):
            self.trump = None
        elif is_wizard(turned):
            self.trump = None  # until the dealer names it
        else:
            self.trump = suit(turned)
        assert events == [
            RoundDealt(
                r,
                dealer,
                turned,
                None if self.trump is None else Suit(self.trump),
                turned is not None and is_wizard(turned),
            )
        ]
        assert game.round == r and game.hand_size == h and game.dealer == dealer
        for j in range(n * h):
            assert deck[j] in game.hand((dealer + 1 + j) % n)
        assert [len(game.hand(s)) for s in range(n)] == [h] * n
        assert {seat_view(game, s).hand_size for s in range(n)} == {h}
        self.check()

    def choose_trump(self) -> None:
        game = self.game
        assert game.turn == game.dealer
        self.try_illegal()
        chosen = self.rng.randrange(4)
        assert game.apply(ChooseTrump(game.dealer, Suit(chosen))) == [
            TrumpChosen(game.dealer, Suit(chosen))
        ]
        self.accepted.append(ChooseTrump(game.dealer, Suit(chosen)))
        self.trump = chosen
        self.check()

    def bid_round(self, r: int, h: int) -> None:
        game, n = self.game, self.n
        bids: list[int | None] = [None] * n
        for i in range(n):
            seat = (game.dealer + 1 + i) % n
            assert game.phase is Phase.BID and game.turn == seat
            legal = reference_legal_bids(r, h, bids, i == n - 1, self.form)
            assert set(game.legal_bids()) == legal
            self.try_illegal()
            bid = self.rng.choice(sorted(legal))
            game.apply(Bid(seat, bid))
            self.accepted.append(Bid(seat, bid))
            bids[seat] = bid
            assert game.bids == tuple(bids)
            self.check()
        if self.form == "always" or (self.form == "after-round-1" and r > 1):
            assert sum(b for b in bids if b is not None) != h, "someone must miss"

    def play_round(self, r: int, h: int) -> None:
        game, n, rng = self.game, self.n, self.rng
        leader = (game.dealer + 1) % n
        won = [0] * n
        scored: list[object] = []
        for t in range(h):  # one trick per card in each hand
            trick: list[int] = []
            for i in range(n):
                seat = (leader + i) % n
                assert game.phase is Phase.PLAY and game.turn == seat
                hand = game.hand(seat)
                legal = reference_legal(hand, trick)
                assert set(game.legal_plays()) == legal
                assert set(cards_of(game.legal_play_mask())) == legal
                assert set(cards_of(legal_play_mask(game.hand_mask(seat), game.led))) == legal
                self.try_illegal(trick)
                card = rng.choice(sorted(legal))
                events = game.apply(Play(seat, card))
                self.accepted.append(Play(seat, card))
                trick.append(card)
                if i < n - 1:
                    assert game.trick_winner == (leader + reference_winner(trick, self.trump)) % n
                self.check()
            winner = (leader + reference_winner(trick, self.trump)) % n
            plays = tuple(((leader + i) % n, card) for i, card in enumerate(trick))
            assert events[1] == TrickWon(t, winner, plays)
            won[winner] += 1
            leader = winner
            scored = events[2:]
        bids = game.results[-1].bids
        points = tuple(reference_score(b, w) for b, w in zip(bids, won, strict=True))
        self.totals = [a + b for a, b in zip(self.totals, points, strict=True)]
        assert scored[0] == RoundScored(r, bids, tuple(won), points, tuple(self.totals))
        assert sum(won) == h
        if r == len(self.sizes):
            best = max(self.totals)
            top = tuple(s for s in range(n) if self.totals[s] == best)
            assert scored[1:] == [GameOver(tuple(self.totals), top)]
            assert game.phase is Phase.GAME_OVER
        else:
            assert len(scored) == 1
            assert game.phase is Phase.DEAL

    # -- the checks

    def check(self) -> None:
        """Cards are conserved and no view shows another seat's hand."""
        game, n = self.game, self.n
        self.steps += 1
        hands = [set(game.hand(s)) for s in range(n)]
        played = [card for trick in game.tricks for card in trick.cards]
        played += [card for _, card in game.trick]
        undealt = self.deck[n * game.hand_size :]
        everything = [card for h in hands for card in h] + played + list(undealt)
        assert sorted(everything) == list(range(60))
        for seat in range(n):
            view = seat_view(game, seat)
            assert set(view.hand) == hands[seat]
            assert view.hand == tuple(c for c in game.dealt_hand(seat) if c in hands[seat])
            others = set().union(*(hands[s] for s in range(n) if s != seat))
            assert not visible_cards(view) & others
            assert all(result.round < game.round or game.turn == -1 for result in view.history)
            if seat != game.turn:
                assert view.legal_cards == () and view.legal_bids == ()
        if self.steps == self.replay_at:
            self.check_replay()

    def try_illegal(self, trick: Sequence[int] = ()) -> None:
        """Now and then, try an action the rules refuse; it must change nothing."""
        if self.rng.random() > 0.15:
            return
        action, reason = self.illegal_action(trick)
        game = self.game
        before = snapshot(game)
        try:
            game.apply(action)
        except IllegalAction as err:
            assert err.reason is reason, (action, err.reason, reason)
        else:
            raise AssertionError(f"{action!r} was accepted")
        assert snapshot(game) == before

    def illegal_action(self, trick: Sequence[int]) -> tuple[object, Reason]:
        game, n, rng = self.game, self.n, self.rng
        phase = game.phase
        if phase is Phase.GAME_OVER:
            return rng.choice(
                [Deal(tuple(range(60))), Bid(0, 0), Play(0, 0), ChooseTrump(0, Suit.CLUBS)]
            ), Reason.GAME_OVER
        if phase is Phase.DEAL:
            bad = list(range(60))
            rng.shuffle(bad)
            # Position 0 keeps its card, so bad[0] elsewhere is always a duplicate.
            bad[rng.randrange(1, 60)] = rng.choice([bad[0], 60, -1, 1.5, True, None, "7"])
            return rng.choice(
                [
                    (Deal(tuple(bad)), Reason.BAD_DECK),
                    (Deal(tuple(range(rng.randrange(60)))), Reason.BAD_DECK),
                    (Deal(tuple(range(61))), Reason.BAD_DECK),
                    (Play(0, 0), Reason.WRONG_PHASE),
                    (Bid(0, 0), Reason.WRONG_PHASE),
                ]
            )
        turn = game.turn
        other = rng.choice([s for s in range(n) if s != turn])
        if phase is Phase.CHOOSE_TRUMP:
            return rng.choice(
                [
                    (ChooseTrump(other, Suit.CLUBS), Reason.NOT_YOUR_TURN),
                    (ChooseTrump(turn, rng.choice([4, -1, None, True])), Reason.NOT_A_SUIT),
                    (Bid(turn, 0), Reason.WRONG_PHASE),
                    (Deal(self.deck), Reason.WRONG_PHASE),
                ]
            )
        r, h = game.round, game.hand_size
        if phase is Phase.BID:
            choices = [
                (Bid(other, 0), Reason.NOT_YOUR_TURN),
                (Bid(turn, rng.choice([h + 1, h + 7, -1])), Reason.BID_OUT_OF_RANGE),
                (Bid(turn, rng.choice([True, False, 0.0, "1", None])), Reason.NOT_A_BID),
                (Bid(n, 0), Reason.NOT_A_SEAT),
                (Play(turn, game.hand(turn)[0]), Reason.WRONG_PHASE),
            ]
            bids = game.bids
            last = sum(b is None for b in bids) == 1
            legal = reference_legal_bids(r, h, bids, last, self.form)
            refused = set(range(h + 1)) - legal
            if refused:
                choices.append((Bid(turn, refused.pop()), Reason.BID_FORBIDDEN))
            return rng.choice(choices)
        hand = game.hand(turn)
        elsewhere = sorted(set(range(60)) - set(hand))
        choices = [
            (Play(other, hand[0]), Reason.NOT_YOUR_TURN),
            (Play(turn, rng.choice(elsewhere)), Reason.CARD_NOT_IN_HAND),
            (Play(turn, rng.choice([60, -1, True, 1.0, None])), Reason.NOT_A_CARD),
            (Play(rng.choice([n, -1, "0"]), hand[0]), Reason.NOT_A_SEAT),
            (Bid(turn, 0), Reason.WRONG_PHASE),
        ]
        revokes = sorted(set(hand) - reference_legal(hand, trick))
        if revokes:
            choices.append((Play(turn, rng.choice(revokes)), Reason.MUST_FOLLOW_SUIT))
        return rng.choice(choices)


FORMS = st.sampled_from(list(RestrictLastBid))


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(3, 6),
    first_dealer=st.integers(0, 5),
    form=FORMS,
)
def test_random_games_follow_the_rules(
    seed: int, players: int, first_dealer: int, form: RestrictLastBid
) -> None:
    checker = Checker(seed, players, first_dealer % players, form)
    checker.run()
    assert checker.steps > 0


def _lengths(players: int) -> st.SearchStrategy[tuple[int, ...]]:
    """The cards of each round of a game of ``players``: a named length, or a list."""
    top = 60 // players
    named = st.sampled_from(["short", "up-and-down"]).map(
        lambda name: length_rounds(name, players) or ()
    )
    chosen = st.lists(st.integers(1, top), min_size=1, max_size=8).map(tuple)
    return st.one_of(named, chosen)


@settings(max_examples=20, deadline=None)
@given(
    data=st.data(),
    seed=st.integers(0, 2**32 - 1),
    players=st.integers(3, 6),
    first_dealer=st.integers(0, 5),
    form=FORMS,
)
def test_random_games_of_any_length_follow_the_rules(
    data: st.DataObject, seed: int, players: int, first_dealer: int, form: RestrictLastBid
) -> None:
    sizes = data.draw(_lengths(players), label="cards of each round")
    checker = Checker(seed, players, first_dealer % players, form, sizes)
    checker.run()
    game = checker.game
    assert len(game.results) == game.num_rounds == len(sizes)
    assert [len(result.hands[0]) for result in game.results] == list(sizes)
    assert [len(result.tricks) for result in game.results] == list(sizes)


SPECIALS = st.sampled_from(range(52, 60))
SUIT_CARDS = st.sampled_from(range(52))


@settings(max_examples=300, deadline=None)
@given(
    data=st.data(),
    players=st.integers(3, 6),
)
def test_any_single_trick_is_won_by_the_card_the_rules_name(
    data: st.DataObject, players: int
) -> None:
    # Round 1 holds one card per seat, so every combination of cards is a legal trick; the
    # draw leans towards Wizards and Jesters, where the rules have the most corners.
    cards = data.draw(
        st.lists(
            st.one_of(SPECIALS, SUIT_CARDS),
            min_size=players + 1,
            max_size=players + 1,
            unique=True,
        ),
        label="trick and turned card",
    )
    dealer = data.draw(st.integers(0, players - 1), label="dealer")
    *trick_cards, turned = cards
    hands: list[list[int]] = [[] for _ in range(players)]
    for i, card in enumerate(trick_cards):
        hands[(dealer + 1 + i) % players] = [card]
    game = Game(GameConfig(players, dealer))
    game.deal(build_deck(players, 1, dealer, hands, turned))
    trump: int | None = None
    if is_wizard(turned):
        trump = data.draw(st.integers(0, 3), label="chosen trump")
        game.choose_trump(dealer, trump)
    elif not is_jester(turned):
        trump = suit(turned)
    for _ in range(players):
        game.bid(game.turn, 0)
    for card in trick_cards:
        game.play(game.turn, card)
    expected = (dealer + 1 + reference_winner(trick_cards, trump)) % players
    assert game.tricks[0].winner == expected
    assert game.results[-1].tricks_won == tuple(int(s == expected) for s in range(players))
