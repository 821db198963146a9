"""A client's own check of each finished round, once the host has published the seeds.

The client keeps a replica of the game, fed only with what it can verify: the deck
that the published seeds give, and the public actions it saw. At the end of every
round it checks that every commitment opens, that its own hand and the trump card
are exactly as that deck deals them, that every play was in the player's dealt hand
and legal when played, and that the trick winners and scores the host announced
follow. Pure: no I/O, so the cheating-host tests can feed it anything.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Protocol

from netplay.commit_reveal import CommitRevealError
from netplay.fairdeal import shuffle_order

from ..deal import deal_from_deck
from ..game import (
    DECK_SIZE,
    Bid,
    ChooseTrump,
    Deal,
    Game,
    GameConfig,
    IllegalAction,
    Play,
    PlayerAction,
    RoundResult,
    SeatView,
    action_to_wire,
    card_name,
    dealer_of,
    is_wizard,
    left_of,
    seat_view,
)
from ..game.specials import deck_cards
from ..i18n import N_
from ..phrase import Phrase, in_round, phrase
from .check_texts import commit_reveal_phrase, rule_text


class SeedReveal(Protocol):
    """A round's commit-reveal state on this seat: netplay's ``ClientRound``, or the
    ``AwayRound`` of a round dealt while the seat was away."""

    def check_reveal(self, seeds: Sequence[bytes]) -> bytes: ...


@dataclass(frozen=True, slots=True)
class CheckResult:
    round: int
    ok: bool
    said: Phrase  # what was found, naming the round: shown translated, recorded in English

    @property
    def detail(self) -> str:
        """The English text of records and logs."""
        return self.said.english()


def _deck_of(
    claimed: RoundResult, players: int, dealer: int, hand_size: int, cards: Sequence[int]
) -> list[int] | None:
    """A deck of the table's ``cards`` that deals ``claimed``'s hands (``hand_size`` cards
    each) and turns its trump card (the undealt cards in order); None if no deck does."""
    hands = claimed.hands
    if len(hands) != players or any(len(hand) != hand_size for hand in hands):
        return None
    deck = [hands[left_of(dealer + j, players)][j // players] for j in range(players * hand_size)]
    turned = _turned(claimed, len(cards) > DECK_SIZE)
    if turned is not None:
        deck.append(turned)
    deck.extend(sorted(set(cards) - set(deck)))
    return deck if sorted(deck) == sorted(cards) else None


def _turned(claimed: RoundResult, specials: bool) -> int | None:
    """The card turned up at the round's deal: a round with special cards says it (a
    Werewolf then takes the trump card's place), a plain round's is its trump card."""
    return claimed.turned_card if specials else claimed.trump_card


def _shuffled(combined: bytes, cards: Sequence[int]) -> list[int]:
    """The deck the combined seed gives: the shuffle of the table's N cards, each position
    of the order standing for that card (docs/fairness.md)."""
    return [cards[i] for i in shuffle_order(combined, len(cards))]


def cards_shown(view: SeatView) -> frozenset[int]:
    """The cards a view shows as its seat's this round: in the hand or already played.

    The same in every view of a round (it is the seat's dealt hand), so a change is news;
    a view of a trick in progress counts the seat's card on the table too.
    """
    seat = view.seat
    mine = set(view.hand)
    for trick in view.tricks:  # the seat's card of each, as ``trick.plays`` places them
        cards = trick.cards
        if cards and seat < len(cards):
            mine.add(cards[(seat - trick.leader) % len(cards)])
    for player, card in view.trick:
        if player == seat:
            mine.add(card)
    return frozenset(mine)


class RoundViews:
    """The views of each round this seat was shown, as the evidence its check compares with
    the deck: the last one, and every one whose cards or trump card differed from the view
    before it (a host could show a wrong card while bids are made and put it right later)."""

    def __init__(self) -> None:
        self._last: dict[int, SeatView] = {}
        self._dealt: dict[int, list[SeatView]] = {}
        self._shown: tuple[int, frozenset[int], int | None] | None = None

    def note(self, view: SeatView) -> None:
        if view.round < 1:
            return
        self._last[view.round] = view
        shown = (view.round, cards_shown(view), view.trump_card)
        if shown != self._shown:
            self._shown = shown
            self._dealt.setdefault(view.round, []).append(view)

    def last(self, r: int) -> SeatView | None:
        return self._last.get(r)

    def dealt(self, r: int) -> list[SeatView]:
        return self._dealt.get(r, [])

    def forget(self, r: int) -> None:
        """Round ``r`` is dealt again: what the last deal showed is no evidence about it."""
        self._last.pop(r, None)
        self._dealt.pop(r, None)
        self._shown = None

    def clear(self) -> None:
        self._last.clear()
        self._dealt.clear()
        self._shown = None


class RoundChecker:
    """Verifies rounds in order against a replica of the game."""

    def __init__(self, config: GameConfig, seat: int) -> None:
        self.config = config
        self.seat = seat
        self.replica = Game(config)
        self.broken = False  # after a failure the replica no longer follows the host
        self._cards = deck_cards(config.rules.specials)  # the table's deck, in id order

    def check(
        self,
        exchange: SeedReveal | None,
        claimed: RoundResult,
        seeds: Sequence[bytes],
        observed: SeatView | None,
        earlier: Sequence[SeatView] = (),
    ) -> CheckResult:
        """``exchange``: this seat's commit-reveal state of the round (None if lost);
        ``claimed``: the round as the host published it; ``observed``: the last view this
        client saw of that round, if any; ``earlier``: other views of the round whose
        ``cards_shown`` or trump card differed from the view before them."""
        r = claimed.round
        fail = self._failing(r)
        if (refused := self._refusal(r)) is not None:
            return refused
        if exchange is None:
            return fail(
                phrase(N_("this client lost its seed for the round, so it cannot check the deal"))
            )
        try:
            combined = exchange.check_reveal(seeds)
        except CommitRevealError as exc:
            self.broken = True
            return CheckResult(r, False, commit_reveal_phrase(exc, r))
        return self._check_deck(_shuffled(combined, self._cards), claimed, observed, earlier, fail)

    def _failing(self, r: int) -> Callable[[Phrase], CheckResult]:
        """``fail(detail)``: round ``r`` failed, and no later round can be checked."""

        def fail(detail: Phrase) -> CheckResult:
            self.broken = True
            return CheckResult(r, False, in_round(r, detail))

        return fail

    def _refusal(self, r: int) -> CheckResult | None:
        """Why round ``r`` cannot be checked now, if it cannot."""
        if self.broken:
            said = phrase(N_("not checked after an earlier failure"))
            return CheckResult(r, False, in_round(r, said))
        if r != self.replica.round + 1:
            expected = phrase(N_("expected round {next} next"), next=self.replica.round + 1)
            return self._failing(r)(expected)
        if r > self.config.num_rounds:
            rounds = self.config.num_rounds
            return self._failing(r)(phrase(N_("the game has {rounds} rounds"), rounds=rounds))
        return None

    def check_deck(
        self,
        deck: Sequence[int],
        claimed: RoundResult,
        observed: SeatView | None,
        earlier: Sequence[SeatView] = (),
    ) -> CheckResult:
        """The same check for a round whose deck is known otherwise: a private deal's
        final deck, opened with every seat's revealed keys (``deals/private/seat.py``)."""
        r = claimed.round
        fail = self._failing(r)
        if (refused := self._refusal(r)) is not None:
            return refused
        return self._check_deck(list(deck), claimed, observed, earlier, fail)

    def follow(self, claimed: RoundResult) -> CheckResult:
        """A round whose deal this client could not check (a bot of the host's played its
        seat while it was away, and the round's envelopes never reached it): the replica
        takes the host's record of it, so that the next rounds can be checked. Still
        checked: the record is one deal of the deck, its plays legal, its scores theirs."""
        r = claimed.round
        fail = self._failing(r)
        if (refused := self._refusal(r)) is not None:
            return refused
        deck = _deck_of(
            claimed, self.config.players, self._dealer(r), self.config.round_size(r), self._cards
        )
        if deck is None:
            return fail(phrase(N_("the host's record of the hands is not one deal of the deck")))
        return self._check_deck(deck, claimed, None, (), fail)

    def _check_deck(
        self,
        deck: list[int],
        claimed: RoundResult,
        observed: SeatView | None,
        earlier: Sequence[SeatView],
        fail: Callable[[Phrase], CheckResult],
    ) -> CheckResult:
        r = claimed.round
        n = self.config.players
        dealer = self._dealer(r)
        dealt = deal_from_deck(deck, n, self.config.round_size(r), dealer)  # the round's cards
        if claimed.dealer != dealer:
            said = N_("the host says seat {claimed} dealt; it was seat {dealer}'s deal")
            return fail(phrase(said, claimed=claimed.dealer, dealer=dealer))
        if tuple(claimed.hands) != dealt.hands:
            seat = next(s for s in range(n) if tuple(claimed.hands[s]) != dealt.hands[s])
            said = N_("the host's record of seat {seat}'s hand is not what the seeds deal")
            return fail(phrase(said, seat=seat))
        if _turned(claimed, bool(self.config.rules.specials)) != dealt.trump_card:
            return fail(phrase(N_("the trump card is not the one the deal turned up")))
        if self.config.rules.specials:  # cards move between hands: the actions replay it
            return self._replay_special(deck, claimed, (*earlier, observed), fail)
        # Every view that showed this seat a different deal, not only the last one: a host
        # could show a wrong card while bids are made and put it right before the play.
        for seen in (*earlier, observed):
            if seen is not None and seen.round == r:
                problem = self._compare_dealt(seen, dealt.hands, dealt.trump_card)
                if problem:
                    return fail(problem)
        if observed is not None and observed.round == r:
            problem = self._compare_observed(observed, claimed)
            if problem:
                return fail(problem)
        return self._replay(deck, claimed, fail)

    def _replay_special(
        self,
        deck: list[int],
        claimed: RoundResult,
        shown: Sequence[SeatView | None],
        fail: Callable[[Phrase], CheckResult],
    ) -> CheckResult:
        """A round with special cards, checked by replaying every seat action the host
        published (``RoundResult.actions``) from the deck: each must be legal, the round
        must end with them, its outcome must be the one announced, and every view this seat
        was shown must be one the replay passes through, with this seat's hand, trump card,
        turned card and pass exactly as there (a Juggler's pass or a Witch's swap moved
        the cards: the dealt hand alone proves nothing after them)."""
        r = claimed.round
        game = self.replica
        positions: dict[tuple[object, ...], list[SeatView]] = {}

        def note() -> None:
            view = seat_view(game, self.seat)
            positions.setdefault(_position(view), []).append(view)

        try:
            game.apply(Deal(tuple(deck)))
            note()
            for i, action in enumerate(claimed.actions, start=1):
                if len(game.results) == r:
                    return fail(phrase(N_("the round ended before its last action")))
                try:
                    game.apply(action)
                except IllegalAction as exc:
                    said = N_("action {n} ({action}): {rule}")
                    return fail(phrase(said, n=i, action=_action_text(action), rule=rule_text(exc)))
                note()
        except IllegalAction as exc:
            return fail(phrase(N_("{rule} ({code})"), rule=rule_text(exc), code=exc.code))
        if len(game.results) != r:
            return fail(phrase(N_("the round ended before every card was played")))
        for seen in shown:
            if seen is None or seen.round != r:
                continue
            if not any(_same_view(seen, real) for real in positions.get(_position(seen), ())):
                return fail(
                    phrase(N_("a view you were shown is not one the round's actions reach"))
                )
        mine = game.results[-1]
        for name, said in _SPECIAL_ANNOUNCED:
            if getattr(mine, name) != getattr(claimed, name):
                return fail(phrase(said))
        return CheckResult(r, True, in_round(r, phrase(N_("deal verified"))))

    def _dealer(self, r: int) -> int:
        return dealer_of(self.config.first_dealer, r, self.config.players)

    def _compare_dealt(
        self, seen: SeatView, hands: tuple[tuple[int, ...], ...], trump_card: int | None
    ) -> Phrase | None:
        my_hand = hands[self.seat]
        my_cards = cards_shown(seen)
        if seen.forehead:  # docs/rules.md: the others' cards shown, and none of my own
            for seat, card in enumerate(seen.foreheads):
                if card is not None and (seat == self.seat or card not in hands[seat]):
                    said = N_("seat {seat}'s forehead showed a card the seeds did not deal it")
                    return phrase(said, seat=seat)
            if not my_cards <= set(my_hand):
                return phrase(N_("a card of yours was shown that the seeds did not deal you"))
        elif my_cards != set(my_hand):
            got = " ".join(card_name(c, ascii_only=True) for c in sorted(my_cards))
            return phrase(
                N_("you were dealt {cards}, not what the seeds deal to your seat"), cards=got
            )
        if seen.trump_card != trump_card:
            return phrase(N_("the trump card shown was not the one the seeds deal"))
        return None

    def _compare_observed(self, seen: SeatView, claimed: RoundResult) -> Phrase | None:
        if seen.trump_suit != claimed.trump_suit:
            return phrase(N_("the trump suit shown differs from the host's record"))
        # The last view may be from before the bidding ended (the link dropped, or the
        # view was a snapshot's): a bid not yet made then is no disagreement.
        if len(seen.bids) != len(claimed.bids) or any(
            shown is not None and shown != bid
            for shown, bid in zip(seen.bids, claimed.bids, strict=True)
        ):
            return phrase(N_("the bids shown differ from the host's record"))
        if tuple(seen.tricks) != tuple(claimed.tricks[: len(seen.tricks)]):
            return phrase(N_("the tricks shown differ from the host's record"))
        return None

    def _replay(
        self, deck: list[int], claimed: RoundResult, fail: Callable[[Phrase], CheckResult]
    ) -> CheckResult:
        r = claimed.round
        game = self.replica
        game.deal(deck)
        n = game.players
        try:
            if claimed.trump_card is not None and is_wizard(claimed.trump_card):
                if claimed.trump_suit is None:
                    return fail(phrase(N_("a Wizard was turned but no trump suit was chosen")))
                game.apply(ChooseTrump(game.dealer, claimed.trump_suit))
            elif claimed.trump_suit != game.trump_suit:
                return fail(phrase(N_("the trump suit does not follow from the trump card")))
            if len(claimed.bids) != n:
                return fail(phrase(N_("the host's record does not hold one bid per seat")))
            for i in range(n):
                seat = left_of(game.dealer + i, n)
                game.apply(Bid(seat, claimed.bids[seat]))
            for t, trick in enumerate(claimed.tricks, start=1):
                if trick.leader != game.turn:
                    said = N_("trick {trick}: seat {led} led; seat {turn} should have")
                    return fail(phrase(said, trick=t, led=trick.leader, turn=game.turn))
                for seat, card in trick.plays:
                    try:
                        game.apply(Play(seat, card))
                    except IllegalAction as exc:
                        name = card_name(card, ascii_only=True)
                        said = N_("trick {trick}, seat {seat}: {card}: {rule}")
                        return fail(
                            phrase(said, trick=t, seat=seat, card=name, rule=rule_text(exc))
                        )
                done = (
                    game.results[-1].tricks[t - 1] if len(game.results) == r else game.tricks[t - 1]
                )
                if done.winner != trick.winner:
                    said = N_("trick {trick}: seat {won} won it, not seat {claimed}")
                    return fail(phrase(said, trick=t, won=done.winner, claimed=trick.winner))
        except IllegalAction as exc:
            return fail(phrase(N_("{rule} ({code})"), rule=rule_text(exc), code=exc.code))
        if len(game.results) != r:
            return fail(phrase(N_("the round ended before every card was played")))
        mine = game.results[-1]
        for name, said in _ANNOUNCED:
            if tuple(getattr(mine, name)) != tuple(getattr(claimed, name)):
                return fail(phrase(said))
        return CheckResult(r, True, in_round(r, phrase(N_("deal verified"))))


def _position(view: SeatView) -> tuple[object, ...]:
    """Where in a round ``view`` is: its phase, turn, bids and tricks."""
    return (view.phase, view.turn, view.bids, view.tricks, view.trick)


def _same_view(seen: SeatView, real: SeatView) -> bool:
    """``seen`` shows what ``real`` (the replay's view of the same position) shows this
    seat: its hand, the trump, the declarations, and its own pass."""
    return (
        seen.hand == real.hand
        and seen.trump_card == real.trump_card
        and seen.trump_suit == real.trump_suit
        and seen.turned_card == real.turned_card
        and seen.declared == real.declared
        and seen.last_pass == real.last_pass
    )


def _action_text(action: PlayerAction) -> str:
    kind, seat, value = action_to_wire(action)
    return f"{kind} {seat} {value}"


# A special round's outcome the host announced, each part with what a disagreement says.
_SPECIAL_ANNOUNCED = (
    ("trump_card", N_("the trump card announced does not follow from the actions")),
    ("trump_suit", N_("the trump suit announced does not follow from the actions")),
    ("bids", N_("the bids announced do not follow from the actions")),
    ("tricks", N_("the tricks announced do not follow from the actions")),
    ("tricks_won", N_("the tricks won announced do not follow from the plays")),
    ("points", N_("the points announced do not follow from the plays")),
    ("totals", N_("the totals announced do not follow from the plays")),
)

# The round's outcome the host announced, each part with what a disagreement says.
_ANNOUNCED = (
    ("tricks_won", N_("the tricks won announced do not follow from the plays")),
    ("points", N_("the points announced do not follow from the plays")),
    ("totals", N_("the totals announced do not follow from the plays")),
)
