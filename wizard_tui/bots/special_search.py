"""``hard``'s search in a game with special cards: Perfect-Information Monte Carlo with the
engine itself playing the sampled deals.

Each decision draws deals of the cards this seat has not seen into the other hands
(``sampler``: exact hand sizes, voids since the latest pass or swap, the card it passed
pinned to its left neighbour; the deck is ``deck_cards(rules.specials)``), builds on each
deal a *world*: an engine game (``Game(config)``, so the engine's special-card code decides
every trick and effect) dealt so that it stands where the real round stands, and plays every
candidate out to the end of the round on a copy, every seat playing ``rollout_action``.
The candidate with the best mean score for this seat is chosen; the heuristic's own choice
(``special_play``) is kept unless another is better by more than the sampling noise.

A world is a round of its own with the cards still to be played: the trick in progress is
played again onto it (its cards were dealt back to their players), and the bids are the
tricks each seat still needs (its score is put back together with the real bid and the
tricks already taken). The real round's earlier tricks are out of play in it, as they are
in the real one. What a world cannot copy, and so is approximated: when a Werewolf took the
turned-up card into a hand, the world turns up another card of the trump suit (or one
without a suit for no trump), so a Vampire copies that card in the world.

Bids are searched the same way: for each candidate bid the whole round is played out on
each world, the later bidders bidding what their sampled hands are worth.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Sequence
from functools import cache

from ..game import (
    Bid,
    ChooseTrump,
    Game,
    GameConfig,
    IllegalAction,
    Phase,
    Play,
    SeatView,
    Suit,
    TableRules,
    score,
)
from ..game.actions import Action, AdjustBid, Deal, Declare, PassCard, SwapCard
from ..game.cards import FIRST_JESTER, FIRST_WIZARD, RANKS_PER_SUIT
from ..game.special_engine import SpecialGame
from ..game.specials import Special, deck_cards
from . import special_model as model
from . import special_play
from .knowledge import Knowledge
from .sampler import sample_hands
from .special_knowledge import SpecialKnowledge, bits, read_special

BID_WINDOW = 2
MAX_MISSES = 32  # deals that fit no world before a decision stops sampling
# A candidate replaces the heuristic's choice only if better by this many standard errors of
# the paired difference: cards, declarations and bids.
CARD_NOISE = 1.0
BID_NOISE = 1.0


@cache
def _config(players: int, dealer: int, size: int, specials: frozenset[Special]) -> GameConfig:
    return GameConfig(players, dealer, TableRules(specials=specials, rounds=(size,)))


def sample_special_hands(k: SpecialKnowledge, rng: random.Random) -> list[int]:
    """Hands for every seat: ours as it is, the others drawn from the unseen cards (the
    Werewolf, never in a hand once the bidding starts, left out)."""
    pool = k.unseen & ~(1 << Special.WEREWOLF)
    counts = list(k.counts)
    for seat, pin in enumerate(k.pinned):
        pool &= ~pin
        counts[seat] -= pin.bit_count()
    free = pool.bit_count() - sum(c for s, c in enumerate(counts) if s != k.seat)
    if free < 0:  # more cards in hands than this seat can place: drop the pins
        pool = k.unseen & ~(1 << Special.WEREWOLF)
        counts = list(k.counts)
    proxy = Knowledge(
        seat=k.seat,
        players=k.players,
        hand_size=k.hand_size,
        trump=k.trump,
        hand=k.hand,
        played=k.played,
        out=k.played,
        unseen=pool,
        counts=tuple(counts),
        voids=k.voids,
        trick_cards=k.trick_cards,
        trick_leader=-1,
        led=-1,
        win_card=-1,
        win_seat=-1,
        tricks_left=k.tricks_left,
    )
    hands = sample_hands(proxy, rng)
    if free >= 0:
        for seat, pin in enumerate(k.pinned):
            hands[seat] |= pin
    return hands


def _stand_in(view: SeatView, k: SpecialKnowledge, dealt: int) -> int | None:
    """The card a world turns up: the real one, or when a Werewolf took it into a hand, a
    card out of every world hand giving the same trump."""
    turned = view.turned_card
    if turned is not None and turned == view.trump_card:
        return turned
    rest = k.deck & ~dealt & ~(1 << Special.WEREWOLF)
    if k.trump >= 0:
        suit = rest & (((1 << RANKS_PER_SUIT) - 1) << (k.trump * RANKS_PER_SUIT))
        if suit:
            return (suit & -suit).bit_length() - 1
        return None
    for card in (*range(FIRST_JESTER, 60), Special.FAIRY, Special.BOMB, Special.WITCH):
        if rest >> card & 1:
            return int(card)
    return None


def _deal_world(
    view: SeatView,
    k: SpecialKnowledge,
    hands: list[int],
    dealer: int,
    size: int,
) -> SpecialGame | None:
    """A world game dealt ``hands`` (masks of ``size`` cards each), trump as in the real
    round, in its bidding phase; None if no such deal exists."""
    n = k.players
    dealt = 0
    for h in hands:
        dealt |= h
    turned = _stand_in(view, k, dealt)
    if turned is None or dealt >> turned & 1:
        return None
    lists = [bits(h) for h in hands]
    deck: list[int] = []
    for j in range(n * size):
        deck.append(lists[(dealer + 1 + j % n) % n][j // n])
    deck.append(turned)
    used = dealt | 1 << turned
    deck.extend(c for c in deck_cards(view.rules.specials) if not used >> c & 1)
    game = Game(_config(n, dealer, size, view.rules.specials))
    if not isinstance(game, SpecialGame):  # the engine plays special cards in a SpecialGame
        return None
    try:
        game.apply(Deal(tuple(deck)))
        if game.phase is Phase.CHOOSE_TRUMP:
            if k.trump < 0:
                return None
            game.apply(ChooseTrump(dealer, Suit(k.trump)))
    except IllegalAction:
        return None
    if game.phase is not Phase.BID or game.trump_suit != view.trump_suit:
        return None
    return game


def play_world(view: SeatView, k: SpecialKnowledge, hands: list[int]) -> SpecialGame | None:
    """A world standing where the real round stands in the play (or declare) phase, with
    ``hands`` as every seat's cards now; None when the deal does not fit (rare)."""
    n = k.players
    leader = view.trick_leader if view.trick else view.turn
    size = k.tricks_left
    full = list(hands)
    for seat, card in view.trick:
        full[seat] |= 1 << card
    if any(h.bit_count() != size for h in full):
        return None
    dealer = (leader - 1) % n
    game = _deal_world(view, k, full, dealer, size)
    if game is None:
        return None
    index = len(view.tricks)
    choices = {(t, s): c for t, s, c in view.declared if t == index}
    try:
        for i in range(n):
            seat = (dealer + 1 + i) % n
            real = view.bids[seat] or 0
            game.apply(Bid(seat, min(max(real - view.tricks_won[seat], 0), size)))
        for seat, card in view.trick:
            game.apply(Play(seat, card))
            if game.phase is Phase.DECLARE and (index, seat) in choices:
                game.apply(Declare(seat, choices[(index, seat)]))
    except IllegalAction:
        return None
    if game.turn != view.seat:
        return None
    return game


def world_score(view: SeatView, game: Game, start_bid: int) -> int:
    """This seat's real score for the round a finished world stands for."""
    me = view.seat
    result = game.results[-1]
    real_bid = (view.bids[me] or 0) + result.bids[me] - start_bid
    return score(real_bid, view.tricks_won[me] + result.tricks_won[me])


# ------------------------------------------------------------------ the rollout policy


def _trick_forms(game: SpecialGame) -> list[int]:
    index = len(game.tricks)
    chosen = {s: c for t, s, c in game.declarations if t == index}
    turned = game.turned_card
    return [model.form_of(card, chosen.get(seat), turned) for seat, card in game.trick]


def rollout_action(game: SpecialGame) -> Action:
    """A quick, sensible action for the seat on turn of a world game (every seat's policy
    in a playout). The world's hands are all known, so when tricks are needed it plays the
    cheapest card that takes the trick and that no card of the seats still to play could
    beat (the strongest taker if none is safe, the weakest card if none takes); when not, it
    sheds the strongest card that loses, a Bomb only if nothing else loses."""
    seat, phase = game.turn, game.phase
    trump = game.trump
    if phase is Phase.PLAY:
        legal = game.legal_plays()
        if len(legal) == 1:
            return Play(seat, legal[0])
        bid = game.bids[seat] or 0
        need = bid - game.tricks_won[seat]
        forms = _trick_forms(game)
        me = len(forms)
        n_after = game.players - 1 - me
        turned = game.turned_card
        state = model.TrickState(forms, trump)
        led = state.led
        # Per card: the strongest way to play it that takes the trick so far (its power and
        # form) and the strongest that does not.
        takers: list[tuple[int, int, int]] = []  # (power, card, form)
        losers: list[tuple[int, int]] = []  # (power, card)
        for card in legal:
            c = model.copied_card(card, turned)
            if c in model.DECLARING:
                forms_of = _declared_forms(c, trump, led)
            else:
                forms_of = (model.form_of(c, None, None),)
            take: tuple[int, int, int] | None = None
            lose = -1
            for f in forms_of:
                p = _POWER[trump + 1][f] if f < model.SUITLESS else _SUITLESS_POWER[f]
                if state.would_take(f, trump):
                    if take is None or p > take[0]:
                        take = (p, card, f)
                elif p > lose:
                    lose = p
            if take is not None:
                takers.append(take)
            if lose >= 0:
                losers.append((lose if card != Special.BOMB else -1, card))
        takers.sort()
        later = [s % game.players for s in range(seat + 1, seat + 1 + n_after)]
        if need > 0:
            if takers:
                if not n_after:
                    return Play(seat, takers[0][1])  # last: the cheapest card that takes it
                # The world's hands are known here: the cheapest card nobody after can beat.
                for _power, card, f in takers:
                    if _holds(game, [*forms, f], later, trump, turned):
                        return Play(seat, card)
                return Play(seat, takers[-1][1])
            return Play(seat, min(losers)[1])  # cannot take it: throw the weakest
        if losers:  # shed the strongest card that loses; a Bomb only if nothing else
            return Play(seat, max(losers)[1])
        if not n_after or not me:
            # Last (the trick is ours anyway: spend the strongest) or leading (the weakest).
            return Play(seat, takers[-1][1] if me else takers[0][1])
        beaten = [t for t in takers if not _holds(game, [*forms, t[2]], later, trump, turned)]
        return Play(seat, (beaten[-1] if beaten else takers[0])[1])
    if phase is Phase.DECLARE:
        choices = game.legal_choices()
        forms = _trick_forms(game)[:-1]
        card = game.trick[-1][1]
        want = (game.bids[seat] or 0) > game.tricks_won[seat]
        turned = game.turned_card
        fitting = []
        for choice in choices:
            f = model.form_of(card, choice, turned)
            if (model.winner_index([*forms, f], trump) == len(forms)) == want:
                fitting.append((special_play.power(f, trump), choice))
        if fitting:
            return Declare(seat, (max(fitting) if want else min(fitting))[1])
        return Declare(seat, choices[0])
    if phase is Phase.ADJUST_BID:
        options = game.legal_choices()
        bid = game.bids[seat] or 0
        down = bid > game.tricks_won[seat]
        pick = min(options) if down else max(options)
        return AdjustBid(seat, pick)
    if phase is Phase.PASS:
        hand = game.hand(seat)
        bid = game.bids[seat] or 0
        keep_strong = bid > game.tricks_won[seat]
        strength = [(_raw_power(c, trump, game.turned_card), c) for c in hand]
        return PassCard(seat, (min(strength) if keep_strong else max(strength))[1])
    if phase is Phase.SWAP:
        return SwapCard(seat, None, None)
    actions = game.legal_actions()
    return actions[0]


def _holds(
    game: SpecialGame, forms: list[int], later: list[int], trump: int, turned: int | None
) -> bool:
    """Whether the last of ``forms`` keeps the trick against every card the seats still to
    play hold in this world (each at its strongest, a Bomb as a loss)."""
    state = model.TrickState(forms, trump)
    led = state.led
    for seat in later:
        for card in game.held_cards(seat):
            for g in model.threat_forms(card, trump, led, turned):
                if g == model.BOMB or state.would_take(g, trump):
                    return False
    return True


def _declared_forms(card: int, trump: int, led: int) -> tuple[int, ...]:
    """The ways worth weighing to declare a Juggler, a Cloud or a Shapeshifter: as the trump,
    the led suit or another suit; as a Wizard or a Jester."""
    if card == Special.SHAPESHIFTER:
        return (model.WIZARD, model.JESTER)
    other = next(s for s in range(4) if s != trump and s != led)
    suits = dict.fromkeys(s for s in (trump, led, other) if s >= 0)
    return tuple(model.form_of(card, s) for s in suits)


def _power_table(trump: int) -> dict[int, int]:
    return {
        suit * 100 + v: special_play.power(suit * 100 + v, trump)
        for suit in range(4)
        for v in range(100)
    }


_POWER = tuple(_power_table(t) for t in range(-1, 4))
_SUITLESS_POWER = {
    f: special_play.power(f, -1)
    for f in (model.WIZARD, model.DRAGON, model.JESTER, model.FAIRY, model.WITCH, model.BOMB)
}


def _raw_power(card: int, trump: int, turned: int | None) -> int:
    c = model.copied_card(card, turned)
    if c == Special.SHAPESHIFTER:
        return 75
    if c in (Special.JUGGLER, Special.CLOUD):
        return 45 if trump >= 0 else 8
    return special_play.power(model.form_of(c, None, turned), trump)


def roll_out(game: SpecialGame) -> None:
    """Play the world's round to its end."""
    while game.phase is not Phase.GAME_OVER and game.phase is not Phase.DEAL:
        game.apply(rollout_action(game))


# ------------------------------------------------------------------ the search


class SpecialSearch:
    """One decision's search (``time_budget`` seconds, at most ``max_samples`` deals)."""

    def __init__(
        self,
        rng: random.Random,
        time_budget: float,
        max_samples: int | None,
        min_samples: int,
    ) -> None:
        self.rng = rng
        self.time_budget = time_budget
        self.max_samples = max_samples
        self.min_samples = min_samples
        self.samples = 0

    def _enough(self, start: float, samples: int, tries: int) -> bool:
        if self.max_samples is not None and samples >= self.max_samples:
            return True
        if tries - samples >= MAX_MISSES:
            return True  # worlds keep failing to fit: decide with what there is
        now = time.perf_counter()
        return samples >= 2 and now + (now - start) / max(samples, 1) > start + self.time_budget

    def card(self, view: SeatView) -> int:
        k = read_special(view)
        legal = list(view.legal_cards)
        baseline = special_play.choose_card(view)
        candidates = _candidates(legal, k)
        if len(candidates) <= 1:
            self.samples = 0
            return baseline
        base = _representative(baseline, candidates, k)
        scores = self._search(view, k, [Play(view.seat, c) for c in candidates])
        best = _pick(scores, candidates.index(base))
        return candidates[best] if best is not None else baseline

    def declare(self, view: SeatView) -> int:
        baseline = special_play.declare(view)
        choices = list(view.legal_choices)
        if len(choices) <= 1:
            return baseline
        k = read_special(view)
        scores = self._search(view, k, [Declare(view.seat, c) for c in choices])
        best = _pick(scores, choices.index(baseline))
        return choices[best] if best is not None else baseline

    def _search(
        self, view: SeatView, k: SpecialKnowledge, actions: Sequence[Action]
    ) -> list[list[int]]:
        start = time.perf_counter()
        scores: list[list[int]] = [[] for _ in actions]
        me = view.seat
        samples = tries = 0
        while not self._enough(start, samples, tries):
            tries += 1
            try:
                hands = sample_special_hands(k, self.rng)
            except ValueError:  # no deal fits what this seat saw (a void gone stale)
                continue
            world = play_world(view, k, hands)
            if world is None:
                continue
            start_bid = world.bids[me] or 0
            row = []
            try:
                for action in actions:
                    g = world.copy()
                    g.apply(action)
                    roll_out(g)
                    row.append(world_score(view, g, start_bid))
            except IllegalAction:
                continue
            for i, s in enumerate(row):
                scores[i].append(s)
            samples += 1
        self.samples = samples
        return scores

    def bid(self, view: SeatView) -> int:
        start = time.perf_counter()
        k = read_special(view)
        guess = special_play.bid(view)
        legal = list(view.legal_bids)
        candidates = [b for b in legal if abs(b - guess) <= BID_WINDOW]
        if len(candidates) <= 1 or guess not in candidates:
            self.samples = 0
            return guess
        n, me, size = k.players, k.seat, view.hand_size
        dealer = view.dealer
        scores: list[list[int]] = [[] for _ in candidates]
        samples = tries = 0
        restricted = view.rules.last_bid_rule.applies(view.round) and not view.rules.hidden_bids
        while not self._enough(start, samples, tries):
            tries += 1
            try:
                hands = sample_special_hands(k, self.rng)
            except ValueError:
                continue
            world = _deal_world(view, k, hands, dealer, size)
            if world is None:
                continue
            row = []
            try:
                for b in candidates:
                    g = world.copy()
                    bids: list[int | None] = list(view.bids)
                    bids[me] = b
                    for i in range(n):
                        seat = (dealer + 1 + i) % n
                        if bids[seat] is None:
                            forbidden = None
                            if seat == dealer and restricted:
                                forbidden = size - sum(x for x in bids if x is not None)
                            bids[seat] = _quick_bid(k, hands[seat], size, forbidden)
                        g.apply(Bid(seat, bids[seat] or 0))
                    roll_out(g)
                    row.append(g.results[-1].points[me])
            except IllegalAction:
                continue
            for i, s in enumerate(row):
                scores[i].append(s)
            samples += 1
        self.samples = samples
        best = _pick(scores, candidates.index(guess), BID_NOISE)
        return candidates[best] if best is not None else guess


def _quick_bid(k: SpecialKnowledge, hand: int, size: int, forbidden: int | None) -> int:
    e = sum(special_play.hand_chances(k, hand, k.trump, size))
    b = min(size, int(e + 0.5))
    if b == forbidden:
        b = b + 1 if b < size and (e >= b or b == 0) else b - 1
    return max(0, b)


def _candidates(legal: list[int], k: SpecialKnowledge) -> list[int]:
    """One card per class of interchangeable legal cards: plain cards of a suit with no
    unseen card between them, the Wizards, the Jesters; each special card on its own."""
    out: list[int] = []
    wizards = [c for c in legal if FIRST_WIZARD <= c < FIRST_JESTER]
    jesters = [c for c in legal if FIRST_JESTER <= c < 60]
    out += wizards[:1] + jesters[:1]
    out += [c for c in legal if c >= 60]
    between = k.unseen | sum(1 << c for c in k.trick_cards)
    for suit in range(4):
        prev = -1
        for c in sorted(c for c in legal if c < FIRST_WIZARD and c // RANKS_PER_SUIT == suit):
            if prev >= 0 and not between & ((1 << c) - (2 << prev)):
                prev = c
                continue
            out.append(c)
            prev = c
    return out


def _representative(card: int, candidates: list[int], k: SpecialKnowledge) -> int:
    if card in candidates:
        return card
    if FIRST_WIZARD <= card < FIRST_JESTER:
        return next(c for c in candidates if FIRST_WIZARD <= c < FIRST_JESTER)
    if FIRST_JESTER <= card < 60:
        return next(c for c in candidates if FIRST_JESTER <= c < 60)
    below = [c for c in candidates if c < card and c < FIRST_WIZARD and c // 13 == card // 13]
    return max(below) if below else candidates[0]


def _pick(scores: list[list[int]], base: int, noise: float = CARD_NOISE) -> int | None:
    """The candidate to play: the best mean, unless the heuristic's (``base``) is within
    ``noise`` standard errors of the paired difference; None without samples."""
    if not scores or not scores[0]:
        return None
    m = len(scores[0])
    means = [sum(s) / m for s in scores]
    best = max(range(len(scores)), key=lambda i: (means[i], i == base))
    if best == base or m < 2:
        return base if m < 2 else best
    diffs = [x - y for x, y in zip(scores[best], scores[base], strict=True)]
    d = sum(diffs) / m
    var = sum((x - d) ** 2 for x in diffs) / (m - 1)
    if d > noise * math.sqrt(var / m):
        return best
    return base


__all__ = ["SpecialSearch", "play_world", "rollout_action", "sample_special_hands"]
