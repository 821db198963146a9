"""How the heuristic bots (``easy``, ``normal``, and ``hard`` where it does not search) play a
game with special cards: every decision from the seat's ``SeatView``.

- **A card's worth.** For bids and for judging a hand (which card to pass, what to take
  with the Witch, which trump to name) each card gets a chance of taking a trick: plain cards
  from the calibrated table of the plain game (``bidding``), special cards from what they
  are: a Dragon is a sure trick unless the Fairy may be out against it (or the Bomb), the
  Fairy and the Witch almost never take one, the Bomb never, the Juggler and the Cloud are
  a middling trump (7½ and 9¾ of the suit their player names), the Shapeshifter nearly a
  Wizard (its player makes it one when it wants the trick), the Vampire the card it copies.
  The chances give a trick-count distribution, and every choice is the one with the best
  expected score of the round.
- **Play.** ``normal``'s plain rule (``fast.pick``) with the special cards read by
  ``special_model``: when tricks are needed, the cheapest card (and declaration) that takes
  the trick so far and is likely to hold against the unseen cards still to come; when not,
  the strongest card that loses (a Bomb when nothing else loses). Playing into a bombed
  trick, it throws its least useful card.
"""

from __future__ import annotations

import bisect
from collections.abc import Sequence

from ..game import SeatView, score
from ..game.cards import FIRST_JESTER, FIRST_WIZARD
from ..game.specials import Special
from . import bidding
from . import special_model as model
from .special_knowledge import SpecialKnowledge, bits, read_special

# Chances of taking a trick for the special cards that do not depend on the hand.
DRAGON_SURE = 0.97
FAIRY_CHANCE = 0.04
WITCH_CHANCE = 0.03
SHAPESHIFTER_SHARE = 0.9  # of a Wizard's chance: it is a Wizard only when its player wants
FOLLOW_SURE = 0.8
LEAD_SURE = 0.75


# ---------------------------------------------------------------- a card's worth


def _share(k: SpecialKnowledge) -> float:
    """The share of the unseen cards that sit in other hands (the rest is undealt)."""
    unseen = k.unseen.bit_count()
    if not unseen:
        return 0.0
    held = sum(c for s, c in enumerate(k.counts) if s != k.seat)
    return min(1.0, held / unseen)


def card_chance(
    card: int,
    k: SpecialKnowledge,
    hand: int,
    trump: int,
    size: int,
    table: tuple[float, ...] | None = None,
) -> float:
    """The chance that ``card`` in ``hand`` takes a trick of a round of ``size`` cards left,
    trump ``trump`` (-1 none)."""
    chances = table or bidding.class_chances(k.players, max(1, min(size, 20)))
    share = _share(k)
    c = model.copied_card(card, k.turned)
    if c < FIRST_WIZARD:
        plain = hand & ((1 << 60) - 1)
        turned = k.turned if k.turned is not None and k.turned < 60 else None
        return chances[bidding.card_class(c, plain | 1 << c, trump, turned)]
    dragon_out = k.maybe_elsewhere(Special.DRAGON) and card != Special.DRAGON
    bomb_out = k.maybe_elsewhere(Special.BOMB)
    if c < FIRST_JESTER:
        p = chances[bidding.WIZARD_CLASS]
        return p * (1 - 0.35 * share * dragon_out) * (1 - 0.1 * share * bomb_out)
    if c < 60 or c == Special.BOMB or c == Special.WEREWOLF:
        return 0.0
    if c == Special.DRAGON:
        fairy = k.maybe_elsewhere(Special.FAIRY)
        return DRAGON_SURE * (1 - 0.25 * share * fairy) * (1 - 0.1 * share * bomb_out)
    if c == Special.FAIRY:
        return FAIRY_CHANCE + 0.15 * share * dragon_out
    if c == Special.WITCH:
        return WITCH_CHANCE
    if c == Special.SHAPESHIFTER:
        return SHAPESHIFTER_SHARE * chances[bidding.WIZARD_CLASS] * (1 - 0.35 * share * dragon_out)
    # Juggler 7½, Cloud 9¾ of a suit of its player's choosing: a trump of that rank.
    rank = 8 if c == Special.JUGGLER else 10
    if trump >= 0:
        return chances[1 + rank]
    return chances[27 + rank]


def hand_chances(k: SpecialKnowledge, hand: int, trump: int, size: int) -> list[float]:
    table = bidding.class_chances(k.players, max(1, min(size, 20)))
    return [card_chance(c, k, hand, trump, size, table) for c in bits(hand)]


def rest_distribution(k: SpecialKnowledge, hand: int, trump: int | None = None) -> list[float]:
    """The distribution of the tricks ``hand`` takes from the tricks left, scaled so that its
    mean never exceeds them."""
    t = k.trump if trump is None else trump
    chances = hand_chances(k, hand, t, k.tricks_left)
    return bidding.distribution(chances)


def best_outcome(dist: Sequence[float], bid: int, won: int) -> float:
    """The expected round score of taking k more tricks with probability ``dist[k]``."""
    return sum(p * score(bid, won + t) for t, p in enumerate(dist))


def best_bid_value(dist: Sequence[float], legal: Sequence[int]) -> float:
    return max(bidding.expected_score(list(dist), b) for b in legal)


# --------------------------------------------------------------------------- bids


def bid(view: SeatView, pressure: float = 0.35) -> int:
    """``normal``'s bid: the best expected score from the distribution of the hand's tricks,
    shifted by what the earlier bidders asked for (as in the plain game)."""
    k = read_special(view)
    chances = hand_chances(k, k.hand, k.trump, view.hand_size)
    mean = sum(chances)
    known = [b for b in view.bids if b is not None]
    if known and pressure:
        neutral = len(known) * max(0.0, k.hand_size - mean) / (k.players - 1)
        target = mean - pressure * (sum(known) - neutral)
        target = min(max(target, 0.0), float(len(chances)))
        chances = _rescale(chances, target)
    dist = bidding.distribution(chances)
    legal = list(view.legal_bids)
    sure = sure_tricks(k)
    legal = [b for b in legal if b >= sure] or legal
    return bidding.best_bid(dist, legal)


def sure_tricks(k: SpecialKnowledge) -> int:
    """Tricks the hand takes whatever happens: a Dragon with no Fairy and no Bomb that may
    be out against it; Wizards only when neither the Dragon nor the Bomb may be."""
    bomb = k.maybe_elsewhere(Special.BOMB)
    if bomb:
        return 0
    n = 0
    if k.hand >> Special.DRAGON & 1 and not k.maybe_elsewhere(Special.FAIRY):
        n += 1
    if not k.maybe_elsewhere(Special.DRAGON) and not k.maybe_elsewhere(Special.SHAPESHIFTER):
        n += (k.hand >> FIRST_WIZARD & 0xF).bit_count()
    return n


def _rescale(chances: list[float], target: float) -> list[float]:
    total = sum(chances)
    if abs(total - target) < 1e-9:
        return chances
    if target < total:
        f = target / total if total else 0.0
        return [p * f for p in chances]
    room = sum(1.0 - p for p in chances)
    f = (target - total) / room if room else 0.0
    return [p + (1.0 - p) * f for p in chances]


# ---------------------------------------------------------------- trump choices


def name_trump(view: SeatView) -> int:
    """A suit 0..3 or -1 (no trump) from ``view.legal_choices``: the one under which the
    hand's best bid scores most on average (the Werewolf's holder, or a dealer naming a
    suit, -1 not offered then)."""
    k = read_special(view)
    choices = list(view.legal_choices) or [0, 1, 2, 3]
    hand = k.hand & ~(1 << Special.WEREWOLF)
    bids = list(range(view.hand_size + 1))
    best, best_value = choices[0], -1e9
    for suit in choices:
        chances = hand_chances(k, hand, suit, view.hand_size)
        value = best_bid_value(bidding.distribution(chances), bids)
        if value > best_value + 1e-9:
            best, best_value = suit, value
    return best


def choose_trump(view: SeatView) -> int:
    """A dealer naming trump (a card asking for a suit was turned up): the best suit."""
    k = read_special(view)
    bids = list(range(view.hand_size + 1))
    return max(
        range(4),
        key=lambda s: best_bid_value(
            bidding.distribution(hand_chances(k, k.hand, s, view.hand_size)), bids
        ),
    )


# ------------------------------------------------------------------ Cloud, pass, swap


def adjust_bid(view: SeatView) -> int:
    """The Cloud's taker: the new bid (of ``legal_choices``) with the best expected score
    given the tricks taken and what the hand still expects."""
    k = read_special(view)
    choices = list(view.legal_choices)
    dist = rest_distribution(k, k.hand)
    return max(choices, key=lambda b: (round(best_outcome(dist, b, k.won), 9), -b))


def pass_card(view: SeatView) -> int:
    """The Juggler's pass: the card whose leaving makes the rest of the round score best
    (a strong card when the bid is made, a weak one when tricks are still needed); the card
    received is unknown, so it is left out."""
    k = read_special(view)
    legal = list(view.legal_cards)

    def value(card: int) -> float:
        dist = rest_distribution(k, k.hand & ~(1 << card))
        return best_outcome(dist, k.bid, k.won)

    return max(legal, key=lambda c: (round(value(c), 9), -c))


def swap(view: SeatView) -> tuple[int | None, int | None]:
    """The Witch's swap: keep the hand, or give one card for one of the trick, whichever
    makes the rest of the round score best (keeping on a tie)."""
    k = read_special(view)
    best: tuple[int | None, int | None] = (None, None)
    best_value = best_outcome(rest_distribution(k, k.hand), k.bid, k.won)
    for take in view.swap_takes:
        for give in view.legal_cards:
            hand = (k.hand & ~(1 << give)) | 1 << take
            v = best_outcome(rest_distribution(k, hand), k.bid, k.won)
            if v > best_value + 0.5:  # a swap must be clearly better than keeping
                best, best_value = (give, take), v
    return best


# ---------------------------------------------------------------------- the trick


class ThreatCounts:
    """The unseen cards as threats to a card winning the trick, for one trump and led
    suit: how many could displace it, counted in O(log n)."""

    __slots__ = ("bomb", "dragon", "fairy", "jester", "keys", "suits", "total", "wizard")

    def __init__(self, k: SpecialKnowledge, led: int) -> None:
        self.dragon = self.fairy = self.bomb = self.wizard = self.jester = self.suits = 0
        keys: list[int] = []
        self.total = 0
        for card in bits(k.unseen):
            self.total += 1
            forms = model.threat_forms(card, k.trump, led, k.turned)
            f = forms[0]
            if f < model.SUITLESS:
                self.suits += 1
                key = max(_key(g, k.trump, led) for g in forms)
                if key >= 0:
                    keys.append(key)
            elif f == model.DRAGON:
                self.dragon += 1
            elif f == model.FAIRY:
                self.fairy += 1
            elif f == model.BOMB:
                self.bomb += 1
            elif f == model.WIZARD:
                self.wizard += 1
            elif f == model.JESTER:
                self.jester += 1
        keys.sort()
        self.keys = keys

    def displacing(self, forms: Sequence[int], me: int, trump: int) -> int:
        """Unseen cards that would take the trick from ``forms[me]`` (which is winning it),
        or stop anyone taking it (a Bomb)."""
        f = forms[me]
        n = self.bomb
        if model.DRAGON in forms:
            if f == model.DRAGON:
                n += self.fairy
            return n
        if f == model.WIZARD:
            return n + self.dragon
        if f < model.SUITLESS:
            led = model.led_suit(forms)
            key = _key(f, trump, led)
            higher = len(self.keys) - bisect.bisect_right(self.keys, key)
            return n + self.dragon + self.wizard + higher
        # Only cards without a rank so far: any suit card or Wizard takes it; a Jester
        # beats a Fairy or the Witch, a Fairy the Witch; a Dragon takes it, except from a
        # Fairy (a Dragon in the trick hands it to the first Fairy).
        n += self.wizard + self.suits
        if f == model.FAIRY:
            return n + self.jester
        n += self.dragon
        if f == model.WITCH:
            n += self.jester + self.fairy
        return n


def _key(form: int, trump: int, led: int) -> int:
    suit = form // 100
    if suit == trump:
        return 1000 + form % 100
    if suit == led:
        return form % 100
    return -1


def power(form: int, trump: int) -> int:
    """A card's general strength, to spend the cheapest winner and keep the best."""
    if form == model.DRAGON:
        return 90
    if form == model.WIZARD:
        return 80
    if form < model.SUITLESS:
        v = form % 100 // 4
        return 40 + v if form // 100 == trump else v
    return 0


def _card_forms(card: int, k: SpecialKnowledge) -> list[tuple[int, int | None]]:
    """(form, declaration) for each way ``card`` may be played."""
    choices = model.declaration_choices(card, k.turned)
    if not choices:
        return [(model.form_of(card, None, k.turned), None)]
    return [(model.form_of(card, d, k.turned), d) for d in choices]


class TrickPlan:
    """One candidate: a card, a declaration, and what it does to the trick so far."""

    __slots__ = ("card", "choice", "form", "hold", "power", "wins")

    def __init__(
        self, card: int, choice: int | None, form: int, wins: bool, hold: float, power: int
    ) -> None:
        self.card = card
        self.choice = choice
        self.form = form
        self.wins = wins
        self.hold = hold
        self.power = power


def plans(view: SeatView, k: SpecialKnowledge, cards: Sequence[int]) -> list[TrickPlan]:
    """Every way of playing each of ``cards`` to the trick in progress."""
    before = list(k.trick_forms)
    me = len(before)
    threats: dict[int, ThreatCounts] = {}
    held = k.n_after * k.tricks_left
    out = []
    for card in cards:
        for form, choice in _card_forms(card, k):
            forms = [*before, form]
            wins = model.winner_index(forms, k.trump) == me and not model.bombed(forms)
            hold = 0.0
            if wins:
                if k.n_after == 0:
                    hold = 1.0
                else:
                    led = model.led_suit(forms)
                    t = threats.get(led)
                    if t is None:
                        t = threats[led] = ThreatCounts(k, led)
                    b = t.displacing(forms, me, k.trump)
                    hold = 1.0 if b <= 0 else (0.0 if b >= t.total else (1 - b / t.total) ** held)
            pw = power(form, k.trump)
            if card == Special.SHAPESHIFTER or card == Special.BOMB:
                pw += 5  # flexible or safe: worth keeping over a card of the same strength
            out.append(TrickPlan(card, choice, form, wins, hold, pw))
    return out


def choose_plan(view: SeatView, k: SpecialKnowledge, cards: Sequence[int]) -> TrickPlan:
    """``normal``'s card (and the declaration it means to make)."""
    options = plans(view, k, cards)
    need = k.need
    left = k.tricks_left
    if model.bombed(k.trick_forms):
        # Nobody takes this trick: throw the least useful card.
        return min(options, key=lambda p: (p.power, p.card))
    winners = [p for p in options if p.wins]
    losers = [p for p in options if not p.wins]
    leading = not k.trick_forms
    if need > 0:
        if not winners:
            return min(options, key=lambda p: (p.power, p.card))
        if k.n_after == 0:
            return min(winners, key=lambda p: (p.power, p.card))
        sure = FOLLOW_SURE if not leading else LEAD_SURE
        if need >= left:
            return max(winners, key=lambda p: (p.hold, -p.power))
        likely = [p for p in winners if p.hold >= sure]
        if likely:
            return min(likely, key=lambda p: (p.power, p.card))
        return max(winners, key=lambda p: (p.hold, -p.power))
    # The bid is made (or passed): lose this trick.
    non_bomb = [p for p in losers if p.card != Special.BOMB]
    if non_bomb:
        if leading:
            return min(non_bomb, key=lambda p: (p.hold, -p.power))
        return max(non_bomb, key=lambda p: (p.power, -p.card))
    safe = [p for p in losers if p.card == Special.BOMB]
    if safe:
        return safe[0]
    if leading:
        return min(options, key=lambda p: (p.hold, -p.power))
    if k.n_after == 0:
        return max(options, key=lambda p: (p.power, p.card))  # ours anyway: spend the worst
    return min(options, key=lambda p: (p.hold * 30 + p.power, p.card))


def choose_card(view: SeatView) -> int:
    k = read_special(view)
    legal = list(view.legal_cards)
    if len(legal) == 1:
        return legal[0]
    return choose_plan(view, k, legal).card


def declare(view: SeatView) -> int:
    """The declaration for the card just played (the last of the trick in progress): the
    one that takes the trick when tricks are needed, that loses it when not."""
    k = read_special(view)
    card = k.trick_cards[-1]
    before = k.trick_forms[:-1]
    k_before = _without_last(k)
    options = [p for p in plans(view, k_before, [card]) if p.choice in view.legal_choices]
    choices = list(view.legal_choices)
    if not options:
        return choices[0]
    if before and model.bombed(before):
        return options[0].choice if options[0].choice is not None else choices[0]
    if k.need > 0:
        winners = [p for p in options if p.wins]
        if winners:
            best = max(winners, key=lambda p: (p.hold, -p.power))
            return _choice(best, choices)
        return _choice(min(options, key=lambda p: p.power), choices)
    losers = [p for p in options if not p.wins]
    if losers:
        return _choice(min(losers, key=lambda p: (p.hold, p.power)), choices)
    return _choice(min(options, key=lambda p: (p.hold, p.power)), choices)


def _choice(plan: TrickPlan, choices: list[int]) -> int:
    return plan.choice if plan.choice is not None else choices[0]


def _without_last(k: SpecialKnowledge) -> SpecialKnowledge:
    """The knowledge as it was before this seat's card went into the trick."""
    from dataclasses import replace

    return replace(
        k,
        trick_seats=k.trick_seats[:-1],
        trick_cards=k.trick_cards[:-1],
        trick_forms=k.trick_forms[:-1],
    )


__all__ = [
    "adjust_bid",
    "bid",
    "card_chance",
    "choose_card",
    "choose_plan",
    "choose_trump",
    "declare",
    "name_trump",
    "pass_card",
    "swap",
]
