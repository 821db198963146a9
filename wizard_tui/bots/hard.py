"""``hard``: Perfect-Information Monte Carlo search over deals consistent with what it saw.

Each decision draws deals of the unseen cards into the other hands (``sampler``:
exact hand sizes, revealed voids respected), weighs each deal by how well it explains
the bids already made, and plays every candidate out to the end of the round on it
with the fast ``pick`` policy for all seats (``fast.play_out``). The candidate with the
best weighted mean score for this seat wins.

- Cards: equivalent cards (the same suit with nothing unseen between them, all Wizards,
  all Jesters) are one candidate. Every candidate is played out on the same deals, so
  the comparison is paired; sampling stops early once one candidate is clearly best.
- Bids: for each candidate bid ``b`` the round is played out with our bid fixed to ``b``
  (the later bidders' bids estimated from their sampled hands, the dealer hooked when
  the rule says so). The mean score over the deals is
  ``EV(b) = P(k=b)(20+10b) - 10 Σ_k P(k)|b-k|`` for the trick distribution those
  playouts predict.
- Bid style (``bid_style``): each player's bids against its dealt hands' worth over the
  finished rounds; the later bidders' modelled bids and the deal weights use that ratio.
- Certain outcomes (``certain``): with the bid made only cards sure to lose the trick are
  searched, when there are any; needing every trick left (or more), only cards sure to take it.
- Exact play (``endgame``): once ``exact_cards`` or fewer cards are in all hands, each
  sampled deal is solved (every seat at its best for its own score) instead of played out.
  Leading round 1's only trick, the bid comes from the exact chance (``bidding.lead_chance``).
- Time: ``time_budget`` seconds a card, ``bid_budget`` a bid (default three times as
  much: a bid happens once a round and plays out whole rounds); sampling stops when
  the budget is spent, or at ``max_samples``.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from functools import lru_cache

from ..game import LED_OPEN, LED_WIZARD, SeatView, cards_of
from ..game.engine import SUIT_MASKS
from ..game.rules import score
from . import bidding, forehead
from .base import Bot
from .bid_style import bid_ratios
from .certain import sure_losers, sure_winners
from .endgame import Solver
from .fast import BEAT_MASK, FULL_MASK, legal_mask, pick, play_out
from .knowledge import Knowledge, read_view
from .normal import bid_distribution, choose_trump_by_strength, sensible_bid
from .play_reads import play_weigher
from .sampler import sample_hands
from .special_search import SpecialSearch

MIN_SAMPLES = 12
BID_WINDOW = 2  # candidate bids: the heuristic's bid ± this many
BID_SIGMA = 1.0  # how far (in tricks) a bid may stray from what the hand is worth
SETTLE_MARGIN = 1.0  # points of expected score not worth more sampling
EXACT_CARDS = 9  # cards left in all hands from which each sampled deal is solved exactly
# A card decision's share of the time: in proportion to the tricks left, within these
# multiples of ``time_budget`` (see ``time_share``).
SHARE_FLOOR = 0.25
SHARE_CAP = 3.0
# A bid's share of ``bid_budget``: in proportion to the round's size, at most this much
# (so that no decision of ``hard`` takes over 0.6 s).
BID_SHARE_CAP = 1.25


class HardBot(Bot):
    level = "hard"
    offload = True  # worth running in a worker process (see ``runner``)

    def __init__(
        self,
        rng: random.Random | None = None,
        *,
        time_budget: float = 0.15,
        bid_budget: float | None = None,
        max_samples: int | None = None,
        min_samples: int = MIN_SAMPLES,
        bid_weighting: bool = True,
        exact_cards: int = EXACT_CARDS,
        bid_style: bool = True,
        share_time: bool = False,
        bid_margin: float = SETTLE_MARGIN,
        play_reads: float = 1.0,
    ) -> None:
        super().__init__(rng)
        self.time_budget = time_budget
        self.bid_budget = 3 * time_budget if bid_budget is None else bid_budget
        self.max_samples = max_samples
        self.min_samples = min_samples
        self.bid_weighting = bid_weighting
        self.bid_style = bid_style  # scale the others' bids by their past ratio (bid_style)
        self.exact_cards = exact_cards  # solve deals exactly once this few cards are in hands
        # More time for a card with more tricks left and a bid of a bigger round (time_share,
        # bid_share): off by default, since it did not measure better against the rival
        # (docs/bots.md, "The time share").
        self.share_time = share_time
        self.bid_margin = bid_margin  # points between bids not worth more sampling
        # A deal's weight for each play of another seat that ``pick`` would not have made
        # with that deal's hand (``play_reads``); 1 weighs no plays.
        self.play_reads = play_reads
        self.last_samples = 0  # deals examined by the last decision (for tests and tuning)
        self.last_means: dict[int, float] = {}  # its candidates' mean scores (likewise)
        self._style: tuple[object, list[float]] | None = None  # (history key, bid ratios)

    @property
    def longest_move(self) -> float:
        """The most time one decision may take: a bid's budget, or a card's largest share."""
        if not self.share_time:
            return max(self.bid_budget, self.time_budget)
        return max(self.bid_budget * BID_SHARE_CAP, self.time_budget * SHARE_CAP)

    # ------------------------------------------------------------------ trump

    def choose_trump(self, view: SeatView) -> int:
        return choose_trump_by_strength(view)

    # ------------------------------------------------------------------- bids

    def forehead_bid(self, view: SeatView) -> int:
        """A forehead round's bid with each card it may hold weighed by how well it explains
        the bids of the players before it, who can see it (``bots/forehead.py``)."""
        return forehead.bid_for(view, forehead.win_chance(view, weights=True))

    def choose_bid(self, view: SeatView) -> int:
        start = time.perf_counter()
        self.last_means = {}
        k = read_view(view)
        legal = list(view.legal_bids)
        sure = bidding.sure_tricks(k.hand, k.trump, k.out)
        legal = [b for b in legal if b >= sure] or legal
        guess = sensible_bid(view, bid_distribution(view))
        candidates = [b for b in legal if abs(b - guess) <= BID_WINDOW]
        n, r, me = k.players, k.hand_size, k.seat
        first = (view.dealer + 1) % n
        if len(candidates) == 1:
            return candidates[0]
        if r == 1 and me == first:
            return guess  # leading the only trick: the heuristic's chance is exact
        restricted = view.rules.last_bid_rule.applies(
            view.round
        )  # the ordinal; never under hidden bids
        bids_known = list(view.bids)
        t1 = k.trump + 1
        avail0 = FULL_MASK & ~k.out
        scores: list[list[float]] = [[] for _ in candidates]
        weights: list[float] = []
        samples = 0
        deadline = start + self.bid_budget * bid_share(
            view.rules.round_sizes(n) if self.share_time else (), r
        )
        ratios = self._ratios(view)
        weigh = self._weigher(k, view, ratios)
        while True:
            hands = sample_hands(k, self.rng)
            w = weigh(hands) if weigh else 1.0
            for i, b in enumerate(candidates):
                bids = list(bids_known)
                bids[me] = b
                for j in range(1, n):  # the later bidders in order: the dealer comes last
                    s = (me + j) % n
                    if bids[s] is not None:
                        continue
                    forbidden = None
                    if s == view.dealer and restricted:
                        forbidden = r - sum(x for x in bids if x is not None)
                    bids[s] = bidding.quick_bid(
                        hands[s], k.trump, view.trump_card, n, r, forbidden, ratios[s]
                    )
                won = [0] * n
                every = [x if x is not None else 0 for x in bids]  # every seat has bid now
                play_out(list(hands), t1, avail0, first, 0, LED_OPEN, -1, -1, every, won, r)
                scores[i].append(score(b, won[me]))
            weights.append(w)
            samples += 1
            if self.max_samples is not None and samples >= self.max_samples:
                break
            now = time.perf_counter()
            if now + (now - start) / samples > deadline and samples >= 2:
                break
            if (
                samples >= 4 * self.min_samples
                and samples % 8 == 0
                and _settled(scores, weights, self.bid_margin)
            ):
                break
        self.last_samples = samples
        means = [_wmean(xs, weights) for xs in scores]
        self.last_means = dict(zip(candidates, means, strict=True))
        best = max(
            range(len(candidates)),
            key=lambda i: (round(means[i], 6), -abs(candidates[i] - guess)),
        )
        return candidates[best]

    def _ratios(self, view: SeatView) -> list[float]:
        """The players' bid-style ratios, computed once per finished round (a few ms late
        in a game, which a card decision of 30 ms cannot spare every time)."""
        if not self.bid_style:
            return [1.0] * view.players
        last = view.history[-1] if view.history else None
        key = (len(view.history), last.hands if last else (), last.bids if last else ())
        if self._style is None or self._style[0] != key:
            self._style = (key, bid_ratios(view))
        return self._style[1]

    def _weigher(
        self, k: Knowledge, view: SeatView, ratios: list[float] | None = None
    ) -> Callable[[list[int]], float] | None:
        """A function giving how well a deal explains the bids made so far: a Gaussian on
        each other bidder's error (their hand at bid time: the sampled hand plus the cards
        they have played since), its expectation scaled by the bidder's bid ratio
        (``bid_style``). None when there is nothing to weigh."""
        others = [(s, b) for s, b in enumerate(view.bids) if s != k.seat and b is not None]
        if not self.bid_weighting or not others:
            return None
        played_by = [0] * k.players
        for t in view.tricks:
            for seat, card in t.plays:
                played_by[seat] |= 1 << card
        for seat, card in view.trick:
            played_by[seat] |= 1 << card
        inv = 1.0 / (2.0 * BID_SIGMA * BID_SIGMA)
        trump, trump_card, n, r = k.trump, view.trump_card, k.players, k.hand_size
        expected = bidding.expected_tricks
        if ratios is None:
            ratios = self._ratios(view)
        scaled = [(s, b, ratios[s]) for s, b in others]

        def weight(hands: list[int]) -> float:
            x = 0.0
            for s, b, f in scaled:
                e = f * expected(hands[s] | played_by[s], trump, trump_card, n, r)
                x += (e - b) * (e - b) * inv
            return math.exp(-x)

        return weight

    # ------------------------------------------------------ the special cards
    # The same search on deals of the real deck, the engine playing them
    # (``special_search``); the choices that only reshape a hand (pass, swap, the Cloud's
    # change, naming trump) are ``normal``'s (``special_play``).

    def _special_search(self, budget: float) -> SpecialSearch:
        return SpecialSearch(self.rng, budget, self.max_samples, self.min_samples)

    def special_bid(self, view: SeatView) -> int:
        search = self._special_search(self.bid_budget)
        bid = search.bid(view)
        self.last_samples = search.samples
        return bid

    def special_card(self, view: SeatView) -> int:
        search = self._special_search(self.time_budget)
        card = search.card(view)
        self.last_samples = search.samples
        return card

    def declare(self, view: SeatView) -> int:
        search = self._special_search(self.time_budget)
        choice = search.declare(view)
        self.last_samples = search.samples
        return choice

    # ------------------------------------------------------------------ cards

    def choose_card(self, view: SeatView) -> int:
        start = time.perf_counter()
        self.last_means = {}
        k = read_view(view)
        legal = legal_mask(k.hand, k.led)
        n, me = k.players, k.seat
        bids = [b or 0 for b in view.bids]
        need = bids[me] - view.tricks_won[me]
        n_after = n - 1 - len(k.trick_cards)
        t1 = k.trump + 1
        allowed = certain_choice(legal, need, k.tricks_left, k.win_card, n_after, k.unseen, t1)
        # Cards of the trick in progress tell apart cards that are otherwise equivalent
        # (over a played 6H, a 5H loses and a 7H wins).
        trick_mask = sum(1 << c for c in k.trick_cards)
        candidates = candidate_cards(allowed, k.unseen | trick_mask)
        fallback = pick(k.hand, k.led, k.win_card, n_after, need, k.tricks_left, k.unseen, t1, n)
        if len(candidates) == 1:
            self.last_samples = 0
            return candidates[0]
        beat = BEAT_MASK[t1]
        avail0 = FULL_MASK & ~k.out
        cards_in_trick = len(k.trick_cards)
        leader = k.trick_leader if cards_in_trick else me
        # The state after each candidate, computed once: (led, win, win_seat, in_trick, ...).
        after = []
        for c in candidates:
            led, win, win_seat = k.led, k.win_card, k.win_seat
            if win < 0 or beat[win] >> c & 1:
                win, win_seat = c, me
            if led == LED_OPEN and c < 56:
                led = c // 13 if c < 52 else LED_WIZARD
            after.append((c, led, win, win_seat, cards_in_trick + 1))
        n_cand = len(candidates)
        scores: list[list[float]] = [[] for _ in range(n_cand)]
        weights: list[float] = []
        deadline = start + self.time_budget * time_share(
            view.rules.round_sizes(n) if self.share_time else (), k.tricks_left
        )
        samples = 0
        won0 = list(view.tricks_won)
        weigh = self._weigher(k, view)
        reads = play_weigher(view, t1, self.play_reads)
        exact = sum(k.counts) <= self.exact_cards
        while True:
            hands = sample_hands(k, self.rng)
            w = weigh(hands) if weigh else 1.0
            if reads:
                w *= reads(hands)
            if exact:
                # Few cards left: solve this deal (every seat at its best) instead.
                solver = Solver(bids, t1)
                tricks = solver.root_values(
                    hands,
                    me,
                    candidates,
                    cards_in_trick,
                    trick_mask,
                    k.led,
                    k.win_card,
                    k.win_seat,
                    won0,
                    k.tricks_left,
                )
                for i, t in enumerate(tricks):
                    scores[i].append(score(bids[me], t))
                weights.append(w)
                samples += 1
                if self.max_samples is not None and samples >= self.max_samples:
                    break
                now = time.perf_counter()
                if now + (now - start) / samples > deadline and samples >= 2:
                    break
                if samples >= self.min_samples and samples % 4 == 0 and _settled(scores, weights):
                    break
                continue
            for i, (c, led, win, win_seat, in_trick) in enumerate(after):
                hs = list(hands)
                hs[me] ^= 1 << c
                won = list(won0)
                if in_trick == n:  # our card completes the trick
                    won[win_seat] += 1
                    state = (win_seat, 0, LED_OPEN, -1, -1, k.tricks_left - 1)
                else:
                    state = (leader, in_trick, led, win, win_seat, k.tricks_left)
                play_out(hs, t1, avail0 ^ (1 << c), *state[:5], bids, won, state[5])
                scores[i].append(score(bids[me], won[me]))
            weights.append(w)
            samples += 1
            if self.max_samples is not None and samples >= self.max_samples:
                break
            now = time.perf_counter()
            if now + (now - start) / samples > deadline and samples >= 2:
                break  # the next deal would overrun the budget
            if samples >= self.min_samples and samples % 4 == 0 and _settled(scores, weights):
                break
        self.last_samples = samples
        means = [_wmean(s, weights) for s in scores]
        self.last_means = dict(zip(candidates, means, strict=True))
        top = max(means)
        best = [candidates[i] for i in range(n_cand) if means[i] >= top - 1e-9]
        fb = _representative(fallback, candidates, k.unseen | trick_mask)
        return fb if fb in best else best[0]


def bid_share(round_sizes: tuple[int, ...], hand_size: int) -> float:
    """A bid's time as a multiple of ``bid_budget``, as ``time_share`` gives a card's: in
    proportion to the round's size, within ``SHARE_FLOOR`` and ``BID_SHARE_CAP``, averaging
    1 over the game's bids (1 with no sizes). A big round's bid plays out the longest
    rounds and decides the most points."""
    return _share(round_sizes, hand_size, BID_SHARE_CAP) if round_sizes else 1.0


def time_share(round_sizes: tuple[int, ...], tricks_left: int) -> float:
    """A card decision's time as a multiple of ``time_budget``: in proportion to the tricks
    left, within ``SHARE_FLOOR`` and ``SHARE_CAP``, scaled so that over every card a seat
    plays in a game of these round sizes the multiples average 1 (1 with no sizes).

    The longer the rest of the round, the more a card decides and the longer each playout
    takes: with an even share the first cards of the big rounds were decided on a few dozen
    deals, the last tricks on hundreds. The game's total time is unchanged."""
    return _share(_card_lefts(round_sizes), tricks_left, SHARE_CAP) if round_sizes else 1.0


def _share(decisions: tuple[int, ...], x: int, cap: float) -> float:
    """``x`` over the pivot that makes the shares of ``decisions`` average 1, within
    ``SHARE_FLOOR`` and ``cap``."""
    return _clamped(x / _share_pivot(decisions, cap), cap)


def _clamped(share: float, cap: float) -> float:
    return min(cap, max(SHARE_FLOOR, share))


@lru_cache(maxsize=64)
def _card_lefts(round_sizes: tuple[int, ...]) -> tuple[int, ...]:
    """The tricks left at each card a seat plays in a game of these round sizes."""
    return tuple(t for size in round_sizes for t in range(1, size + 1))


@lru_cache(maxsize=64)
def _share_pivot(lefts: tuple[int, ...], cap: float) -> float:
    """The value that gets exactly the budget, so that the multiples ``x / pivot`` (within
    ``SHARE_FLOOR`` and ``cap``) of the decisions ``lefts`` average 1 (bisection; the mean
    falls as the pivot rises)."""

    def mean_share(pivot: float) -> float:
        return sum(_clamped(t / pivot, cap) for t in lefts) / len(lefts)

    low, high = 0.01, float(max(lefts)) / SHARE_FLOOR
    for _ in range(60):
        mid = (low + high) / 2
        low, high = (mid, high) if mean_share(mid) > 1.0 else (low, mid)
    return (low + high) / 2


def certain_choice(
    legal: int, need: int, left: int, win: int, n_after: int, unseen: int, t1: int
) -> int:
    """The legal cards worth searching: never an overtrick, nor the loss of a trick every
    one of which is needed (or, the bid out of reach, of a trick that would bring the
    score closer), when some legal card avoids it for certain."""
    if need <= 0:
        safe = sure_losers(legal, win, n_after, unseen, t1)
    elif need >= left:
        safe = sure_winners(legal, win, n_after, unseen, t1)
    else:
        safe = 0
    return safe or legal


def _wmean(xs: list[float], ws: list[float]) -> float:
    tw = sum(ws)
    if tw <= 0.0:
        return sum(xs) / len(xs)
    return sum(x * w for x, w in zip(xs, ws, strict=True)) / tw


def _settled(
    scores: list[list[float]], weights: list[float], margin: float = SETTLE_MARGIN
) -> bool:
    """True when no other candidate is plausibly better than the leader by more than
    ``margin`` points (a paired 2.5-sigma bound on the difference)."""
    tw = sum(weights)
    if tw <= 0.0:
        return False
    means = [_wmean(s, weights) for s in scores]
    b = max(range(len(means)), key=means.__getitem__)
    ess = tw * tw / sum(w * w for w in weights)
    if ess < 8:
        return False
    for i in range(len(scores)):
        if i == b:
            continue
        diffs = [x - y for x, y in zip(scores[b], scores[i], strict=True)]
        m = means[b] - means[i]
        var = sum(w * (d - m) ** 2 for d, w in zip(diffs, weights, strict=True)) / tw
        if 2.5 * math.sqrt(var / ess) - m > margin:
            return False
    return True


def candidate_cards(legal: int, unseen: int) -> list[int]:
    """One card per class of interchangeable legal cards, the lowest of each."""
    out = []
    if legal >> 52 & 0xF:
        out.append(52 + ((legal >> 52 & 0xF) & -(legal >> 52 & 0xF)).bit_length() - 1)
    if legal >> 56 & 0xF:
        out.append(56 + ((legal >> 56 & 0xF) & -(legal >> 56 & 0xF)).bit_length() - 1)
    for suit in range(4):
        cards = cards_of(legal & SUIT_MASKS[suit])
        prev = -1
        for c in cards:
            if prev >= 0 and not unseen & ((1 << c) - (2 << prev)):
                prev = c  # nothing unseen between prev and c: same class
                continue
            out.append(c)
            prev = c
    return out


def _representative(card: int, candidates: list[int], unseen: int) -> int:
    """The candidate standing for ``card`` (the lowest of its class)."""
    if card in candidates:
        return card
    if card >= 56:
        return next((c for c in candidates if c >= 56), card)
    if card >= 52:
        return next((c for c in candidates if 52 <= c < 56), card)
    below = [c for c in candidates if c < card and c // 13 == card // 13]
    return max(below) if below else card
