"""The rival: an independent determinized Monte Carlo bot, a yardstick for ``hard``.

Written apart from ``wizard_tui/bots`` on purpose (it shares only the rules from
``wizard_tui.game`` and the ``Bot`` interface), so that beating it says something that
self-play cannot. Per decision, until its time budget is spent:

- **Determinize**: deal the cards it has not seen into the other hands, exact hand sizes,
  no plain card of a suit a player has shown void in (a dead end restarts; after many
  restarts the voids are dropped for that deal).
- **Weigh by the bids**: a deal counts ``exp(-(bid - strength)^2 / 2)`` for each other
  player who has bid, ``strength`` being a simple hand estimate of the hand that player
  held when bidding (its dealt cards plus those it has played since).
- **Roll out** every candidate (each distinct legal card; for a bid, each legal bid near its
  own estimate) to the end of the round with a plain heuristic for every seat: win cheaply
  when tricks are needed, shed the highest losing card when not. Later bidders bid their
  estimate, the dealer off the forbidden bid.
- **Choose** the candidate with the best weighted mean round score for itself.

The default budget is ``hard``'s: 0.15 s a card, three times that a bid.
"""

from __future__ import annotations

import math
import random
import time

from wizard_tui.bots.base import Bot
from wizard_tui.game import SeatView
from wizard_tui.game.engine import BEATS
from wizard_tui.game.rules import score

WIZ, JES = 52, 56  # first Wizard, first Jester
BID_SIGMA = 1.0
RESTARTS = 40


def power(card: int, trump: int) -> int:
    """Jesters 0, plain ranks 1..13, trumps 14..26, Wizards 27."""
    if card >= JES:
        return 0
    if card >= WIZ:
        return 27
    return (14 if card // 13 == trump else 1) + card % 13


def strength(hand: list[int], trump: int, players: int) -> float:
    """Expected tricks of a hand, by a rule of thumb of the rival's own."""
    scale = 3.0 / players
    total = 0.0
    for c in hand:
        if c >= JES:
            continue
        if c >= WIZ:
            total += 0.95
        elif c // 13 == trump:
            total += min(1.0, (0.3 + 0.6 * (c % 13) / 12) * (0.6 + 0.4 * scale))
        else:
            rank = c % 13 + 1  # 1..13
            top = 0.85 if trump < 0 else 0.7
            total += top * max(0.0, (rank - 9) / 4) ** 1.5 * scale
    return total


class RivalBot(Bot):
    level = "rival"

    def __init__(
        self,
        rng: random.Random | None = None,
        *,
        time_budget: float = 0.15,
        bid_budget: float | None = None,
        max_samples: int | None = None,
    ) -> None:
        super().__init__(rng)
        self.time_budget = time_budget
        self.bid_budget = 3 * time_budget if bid_budget is None else bid_budget
        self.max_samples = max_samples

    # ------------------------------------------------------------ what it knows

    def _read(self, view: SeatView) -> dict:
        n = view.players
        trump = int(view.trump_suit) if view.trump_suit is not None else -1
        played_by: list[list[int]] = [[] for _ in range(n)]
        voids = [set() for _ in range(n)]
        for plays in [t.plays for t in view.tricks] + [view.trick]:
            led = None
            for seat, c in plays:
                played_by[seat].append(c)
                if c < WIZ:
                    if led is None:
                        led = c // 13
                    elif c // 13 != led:
                        voids[seat].add(led)
                elif c < JES and led is None:
                    led = -2  # a Wizard led: nobody need follow
        seen = set(view.hand) | {c for cs in played_by for c in cs}
        if view.trump_card is not None:
            seen.add(view.trump_card)
        unseen = [c for c in range(60) if c not in seen]
        counts = [view.round - len(played_by[s]) for s in range(n)]
        return {
            "n": n,
            "trump": trump,
            "played_by": played_by,
            "voids": voids,
            "unseen": unseen,
            "counts": counts,
        }

    def _deal(self, view: SeatView, k: dict) -> list[list[int]]:
        """Hands for every seat consistent with the voids (own hand as it is)."""
        n, me = k["n"], view.seat
        others = [s for s in range(n) if s != me]
        for attempt in range(RESTARTS + 1):
            use_voids = attempt < RESTARTS
            cards = list(k["unseen"])
            self.rng.shuffle(cards)
            room = {s: k["counts"][s] for s in others}
            sink = len(cards) - sum(room.values())  # undealt cards
            hands: list[list[int]] = [[] for _ in range(n)]
            ok = True
            # Cards some seat cannot hold first: they have the fewest places to go.
            cards.sort(key=lambda c: -sum(c < WIZ and c // 13 in k["voids"][s] for s in others))
            for c in cards:
                fits = [
                    s
                    for s in others
                    if room[s] and not (use_voids and c < WIZ and c // 13 in k["voids"][s])
                ]
                places = sum(room[s] for s in fits) + sink
                if places == 0:
                    ok = False
                    break
                x = self.rng.randrange(places)
                for s in fits:
                    if x < room[s]:
                        hands[s].append(c)
                        room[s] -= 1
                        break
                    x -= room[s]
                else:
                    sink -= 1
            if ok:
                hands[me] = list(view.hand)
                return hands
        raise AssertionError("unreachable: without voids every deal fits")

    def _weight(self, view: SeatView, k: dict, hands: list[list[int]]) -> float:
        x = 0.0
        for s, b in enumerate(view.bids):
            if s == view.seat or b is None:
                continue
            e = strength(hands[s] + k["played_by"][s], k["trump"], k["n"])
            x += (e - b) ** 2
        return math.exp(-x / (2 * BID_SIGMA**2))

    # ---------------------------------------------------------------- decisions

    def choose_trump(self, view: SeatView) -> int:
        def value(suit: int) -> float:
            mine = [c for c in view.hand if c < WIZ and c // 13 == suit]
            return len(mine) + sum(c % 13 for c in mine) / 13

        return max(range(4), key=value)

    def choose_bid(self, view: SeatView) -> int:
        start = time.perf_counter()
        k = self._read(view)
        n, r, me, trump = k["n"], view.round, view.seat, k["trump"]
        own = strength(list(view.hand), trump, n)
        legal = list(view.legal_bids)
        candidates = [b for b in legal if abs(b - own) <= 2.5] or legal
        if len(candidates) == 1:
            return candidates[0]
        first = (view.dealer + 1) % n
        restricted = view.restrict_last_bid.applies(r)
        totals = [0.0] * len(candidates)
        weight = 0.0
        samples = 0
        while True:
            hands = self._deal(view, k)
            w = self._weight(view, k, hands)
            for i, b in enumerate(candidates):
                bids = list(view.bids)
                bids[me] = b
                for j in range(1, n):
                    s = (me + j) % n
                    if bids[s] is None:
                        guess = int(strength(hands[s], trump, n) + 0.5)
                        forbidden = r - sum(x for x in bids if x is not None)
                        if s == view.dealer and restricted and guess == forbidden:
                            guess = guess + 1 if guess < r else guess - 1
                        bids[s] = guess
                won = rollout([list(h) for h in hands], trump, first, [], bids, [0] * n, r)
                totals[i] += w * score(b, won[me])
            weight += w
            samples += 1
            if self._done(start, samples, self.bid_budget):
                break
        best = max(range(len(candidates)), key=lambda i: (totals[i], -abs(candidates[i] - own)))
        return candidates[best]

    def choose_card(self, view: SeatView) -> int:
        start = time.perf_counter()
        # One candidate per distinct card: the Wizards are alike, and so are the Jesters.
        by_kind: dict[int, int] = {}
        for c in view.legal_cards:
            by_kind.setdefault(c if c < WIZ else (WIZ if c < JES else JES), c)
        candidates = list(by_kind.values())
        if len(candidates) == 1:
            return candidates[0]
        k = self._read(view)
        me = view.seat
        bids = [b or 0 for b in view.bids]
        left = view.round - len(view.tricks)
        leader = view.trick_leader if view.trick else me
        totals = [0.0] * len(candidates)
        samples = 0
        while True:
            hands = self._deal(view, k)
            w = self._weight(view, k, hands)
            for i, c in enumerate(candidates):
                hs = [list(h) for h in hands]
                hs[me].remove(c)
                trick = [*view.trick, (me, c)]
                won = rollout(hs, k["trump"], leader, trick, bids, list(view.tricks_won), left)
                totals[i] += w * score(bids[me], won[me])
            samples += 1
            if self._done(start, samples, self.time_budget):
                break
        return candidates[max(range(len(candidates)), key=totals.__getitem__)]

    def _done(self, start: float, samples: int, budget: float) -> bool:
        if self.max_samples is not None:
            return samples >= self.max_samples
        now = time.perf_counter()
        return samples >= 2 and now + (now - start) / samples > start + budget


# -------------------------------------------------------------------- rollouts


def rollout(
    hands: list[list[int]],
    trump: int,
    leader: int,
    trick: list[tuple[int, int]],
    bids: list[int],
    won: list[int],
    left: int,
) -> list[int]:
    """Play the round to its end with ``policy`` for every seat; returns tricks won."""
    n = len(hands)
    table = BEATS[trump + 1]
    while left:
        # The trick so far: its winner and the led suit.
        win, win_seat, led = -1, -1, None
        for s, c in trick:
            if win < 0 or table[win * 60 + c]:
                win, win_seat = c, s
            if led is None and c < JES:
                led = c // 13 if c < WIZ else -2
        seat = (leader + len(trick)) % n
        while len(trick) < n:
            hand = hands[seat]
            c = policy(hand, trump, table, win, led, n - 1 - len(trick), bids[seat] - won[seat])
            hand.remove(c)
            trick.append((seat, c))
            if win < 0 or table[win * 60 + c]:
                win, win_seat = c, seat
            if led is None and c < JES:
                led = c // 13 if c < WIZ else -2
            seat = (seat + 1) % n
        won[win_seat] += 1
        left -= 1
        leader = win_seat
        trick = []
    return won


def policy(
    hand: list[int], trump: int, table: bytes, win: int, led: int | None, after: int, need: int
) -> int:
    """The rollout heuristic: win cheaply when tricks are needed, else shed high losers."""
    if led is not None and led >= 0:
        follow = [c for c in hand if c < WIZ and c // 13 == led]
        legal = follow + [c for c in hand if c >= WIZ] if follow else hand
    else:
        legal = hand
    if len(legal) == 1:
        return legal[0]
    if win < 0:  # leading
        if need > 0:
            return max(legal, key=lambda c: power(c, trump))
        return min(legal, key=lambda c: power(c, trump))
    winners = [c for c in legal if table[win * 60 + c]]
    if need > 0:
        if not winners:
            return min(legal, key=lambda c: power(c, trump))
        if after == 0:
            return min(winners, key=lambda c: power(c, trump))
        plain = [c for c in winners if c < WIZ]
        return max(plain or winners, key=lambda c: power(c, trump))
    losers = [c for c in legal if not table[win * 60 + c]]
    if losers:
        return max(losers, key=lambda c: power(c, trump))
    if after == 0:
        return max(legal, key=lambda c: power(c, trump))
    return min(legal, key=lambda c: power(c, trump))
