"""``easy``: plausible but beatable.

Bids count the obvious: Wizards, trumps (high ones fully), Aces, then wobble by one now and then.
Play is a beginner's: when it still wants tricks it throws its biggest card if that
takes the trick so far (else its smallest); when it does not, its smallest; and one
card in eight is a whim. It neither counts cards nor thinks about who plays after it.

With special cards it counts a Dragon, a Shapeshifter and a Wizard as a trick each, a Cloud
or a Juggler as a third, plays the same beginner's game (``special_model`` tells it what
takes the trick so far), declares what takes the trick when it wants it, passes its
smallest card, never swaps with the Witch, and names its longest suit trump.
"""

from __future__ import annotations

from ..game import SeatView, mask_of
from ..game.specials import Special
from . import forehead, special_play
from . import special_model as model
from .base import Bot
from .fast import BEAT_MASK, POWER, legal_mask
from .knowledge import read_view
from .special_knowledge import bits, read_special

WHIM = 0.125


class EasyBot(Bot):
    level = "easy"

    def choose_trump(self, view: SeatView) -> int:
        hand = mask_of(view.hand)
        return max(range(4), key=lambda s: (hand >> (13 * s) & 0x1FFF).bit_count())

    def choose_bid(self, view: SeatView) -> int:
        trump = int(view.trump_suit) if view.trump_suit is not None else -1
        count = 0.0
        for card in view.hand:
            if 52 <= card < 56:
                count += 1
            elif card < 52:
                rank = card % 13 + 1
                if card // 13 == trump:
                    count += 1 if rank >= 11 else 0.3
                elif rank == 13:
                    count += 0.75 if trump >= 0 else 1
        guess = int(count + 0.5)
        if self.rng.random() < 0.3:
            guess += self.rng.choice((-1, 1))
        return min(view.legal_bids, key=lambda b: (abs(b - guess), b))

    def forehead_bid(self, view: SeatView) -> int:
        """A beginner's forehead bid: 1 when it would win with most of the cards it may
        hold (not the break-even 3/7), and now and then a whim."""
        if self.rng.random() < WHIM:
            return self.rng.choice(view.legal_bids)
        return forehead.bid_for(view, forehead.win_chance(view), threshold=0.5)

    def choose_card(self, view: SeatView) -> int:
        legal = list(view.legal_cards)
        if len(legal) == 1:
            return legal[0]
        if self.rng.random() < WHIM:
            return self.rng.choice(legal)
        k = read_view(view)
        pw = POWER[k.trump + 1]
        need = (view.bids[view.seat] or 0) - view.tricks_won[view.seat]
        lmask = legal_mask(k.hand, k.led)
        if need <= 0:
            return min(legal, key=pw.__getitem__)
        if k.win_card < 0:
            return max(legal, key=pw.__getitem__)
        biggest = max(legal, key=pw.__getitem__)
        if BEAT_MASK[k.trump + 1][k.win_card] & lmask & (1 << biggest):
            return biggest
        return min(legal, key=pw.__getitem__)

    # ------------------------------------------------------ the special cards

    def special_trump(self, view: SeatView) -> int:
        return self.choose_trump(view)

    def name_trump(self, view: SeatView) -> int:
        hand = mask_of(c for c in view.hand if c < 60)
        longest = max(range(4), key=lambda s: (hand >> (13 * s) & 0x1FFF).bit_count())
        return longest if longest in view.legal_choices else view.legal_choices[0]

    def special_bid(self, view: SeatView) -> int:
        trump = int(view.trump_suit) if view.trump_suit is not None else -1
        count = 0.0
        for card in view.hand:
            c = model.copied_card(card, view.turned_card)
            if 52 <= c < 56 or c in (Special.DRAGON, Special.SHAPESHIFTER):
                count += 1
            elif c in (Special.CLOUD, Special.JUGGLER):
                count += 0.35
            elif c < 52:
                rank = c % 13 + 1
                if c // 13 == trump:
                    count += 1 if rank >= 11 else 0.3
                elif rank == 13:
                    count += 0.75 if trump >= 0 else 1
        guess = int(count + 0.5)
        if self.rng.random() < 0.3:
            guess += self.rng.choice((-1, 1))
        return min(view.legal_bids, key=lambda b: (abs(b - guess), b))

    def special_card(self, view: SeatView) -> int:
        legal = list(view.legal_cards)
        if len(legal) == 1:
            return legal[0]
        if self.rng.random() < WHIM:
            return self.rng.choice(legal)
        k = read_special(view)
        options = special_play.plans(view, k, legal)
        if k.need <= 0:
            return min(options, key=lambda p: (p.power, p.card)).card
        biggest = max(options, key=lambda p: (p.power, p.wins))
        if biggest.wins or not k.trick_forms:
            return biggest.card
        return min(options, key=lambda p: (p.power, p.card)).card

    def declare(self, view: SeatView) -> int:
        k = read_special(view)
        choices = list(view.legal_choices)
        want = k.need > 0
        before = list(k.trick_forms[:-1])
        card = k.trick_cards[-1]
        for choice in choices:
            forms = [*before, model.form_of(card, choice, k.turned)]
            if (model.winner_index(forms, k.trump) == len(before)) == want:
                return choice
        return choices[0]

    def adjust_bid(self, view: SeatView) -> int:
        k = read_special(view)
        strong = sum(
            1
            for c in bits(k.hand)
            if 52 <= model.copied_card(c, k.turned) < 56 or c == Special.DRAGON
        )
        target = k.won + strong
        return min(view.legal_choices, key=lambda b: (abs(b - target), b))

    def pass_card(self, view: SeatView) -> int:
        trump = int(view.trump_suit) if view.trump_suit is not None else -1
        pw = POWER[trump + 1]
        plain = [c for c in view.legal_cards if c < 60]
        if plain:
            return min(plain, key=pw.__getitem__)
        return view.legal_cards[0]

    def swap(self, view: SeatView) -> tuple[int | None, int | None]:
        return (None, None)
