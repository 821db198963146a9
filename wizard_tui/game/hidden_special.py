"""A game with special cards whose hands nobody at the table holds (the private deal).

``HiddenSpecialGame`` is ``HiddenGame``'s counterpart at a table with special cards
(docs/rules.md, "Special cards"; docs/private-deal.md section 16): what the host of a private
game runs. It is a ``SpecialGame`` (the engine) whose hands are unknown: every rule that reads
only public information is the engine's own code (declarations, who takes a trick, a bombed
trick, the Cloud's change, the order of the after-trick effects, the Witch's pile, scoring
order), and every check that needs a hand (holding a card, following suit, which card a seat
passes) waits for the round's end, when the real deck and the round's actions are replayed
through the engine (``finish_round``), exactly as ``HiddenGame`` does for the plain game.

What is public, and so what this game is told:

- the turned-up card, and who (if anyone) showed the Werewolf (``start_round``): the Werewolf
  takes the turned card's place, its holder names trump;
- every play (a card becomes known when played) and every declaration;
- that a seat passed a card to the Juggler's pass, not which: ``PassCard(seat, HIDDEN_CARD)``.
  The cards are the deal's secret until the round's end (its gifts), then ``finish_round``
  takes them;
- the Witch's swap, both cards (the card given into the trick is shown).

A play is accepted on the seat's turn for a card that is not lying face up on the table
(the turned card in its place, or a card in a trick): whether the seat holds it is the deal's
to prove and the replay's to check. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from .actions import (
    Action,
    CardPlayed,
    CardsPassed,
    CardSwapped,
    Deal,
    Event,
    GameOver,
    NameTrump,
    PassCard,
    Play,
    RoundDealt,
    RoundScored,
    SwapCard,
)
from .cards import FIRST_WIZARD, RANKS_PER_SUIT, card_name
from .codec import PlayerAction
from .engine import Game, GameConfig, Phase, RoundResult
from .errors import IllegalAction, Reason
from .forehead import BLIND_CARD, is_forehead_round
from .hidden import Revoke, replay_round
from .rules import dealer_of
from .special_engine import SpecialGame
from .special_tricks import (
    dealer_names_trump,
    declaration_choices,
    form_of,
    led_of,
    trump_of_turned,
)
from .specials import Special
from .view import SeatView

# The card of a ``PassCard`` whose card only its giver and its receiver know.
HIDDEN_CARD = -1


class HiddenSpecialGame(SpecialGame):
    """``SpecialGame``'s interface for a table whose hands are hidden; see the module
    docstring.

    A round: ``start_round(turned_card, werewolf_holder)``, then ``apply`` every public
    action (a pass as ``PassCard(seat, HIDDEN_CARD)``), then, once ``round_complete`` and the
    deal is verified, ``finish_round(deck, passes)``; or ``void_round()`` to throw the round
    away (it is dealt again)."""

    def __init__(self, config: GameConfig) -> None:
        if not config.rules.specials:
            raise ValueError("a game without special cards is a HiddenGame")
        super().__init__(config)
        self.full: Game = Game(config)  # every completed round, replayed with its real deck
        self._on_table: set[int] = set()  # cards lying face up: the turned card, trick cards
        self._complete = False  # every trick of the round in progress is played

    # ----------------------------------------------------------------- the round

    def start_round(self, turned_card: int, werewolf_holder: int | None = None) -> list[Event]:
        """The round's deal is done: every hand is open to its own player only, the card
        ``turned_card`` is face up, and ``werewolf_holder`` is the seat that showed the
        Werewolf (None when nobody holds it)."""
        if self.phase is not Phase.DEAL or self.round != self.full.round:
            raise IllegalAction(Reason.WRONG_PHASE, "a round is already being played")
        if type(turned_card) is not int or turned_card not in self._deck_set:
            raise IllegalAction(Reason.NOT_A_CARD, f"not a card of this game: {turned_card!r}")
        n = self.players
        holder = werewolf_holder
        if holder is not None:
            if (
                Special.WEREWOLF not in self.config.rules.specials
                or turned_card == Special.WEREWOLF
            ):
                raise IllegalAction(Reason.NOT_A_CARD, "nobody can hold the Werewolf here")
            if type(holder) is not int or not 0 <= holder < n:
                raise IllegalAction(Reason.NOT_A_SEAT, f"there is no seat {holder!r}")
        r = self.full.round + 1
        dealer = dealer_of(self.config.first_dealer, r, n)
        self.round = r
        self.hand_size = self._sizes[r - 1]
        self.dealer = dealer
        self._start_special_round([()] * n, turned_card)
        self._complete = False
        chooses = False
        # The engine's order (``SpecialGame._deal``): the Werewolf first, then a turned card
        # that lets the dealer choose, else the turned card's own trump.
        if holder is not None:
            self.trump_card = int(Special.WEREWOLF)  # the turned card is in the holder's hand
            self._on_table = {int(Special.WEREWOLF)}
            self.phase = Phase.NAME_TRUMP
            self.turn = holder
        else:
            self._on_table = {turned_card}
            if dealer_names_trump(turned_card):
                chooses = True
                self.phase = Phase.CHOOSE_TRUMP
                self.turn = dealer
            else:
                self.trump = trump_of_turned(turned_card)
                self.phase = Phase.BID
                self.turn = self._next[dealer]
        return [RoundDealt(r, dealer, turned_card, self.trump_suit, chooses)]

    def apply(self, action: Action) -> list[Event]:
        """A seat's public action, checked from public information; ``IllegalAction``
        otherwise. The deal is ``start_round``'s."""
        if type(action) is Deal:
            raise IllegalAction(Reason.UNKNOWN_ACTION, "the hidden game is dealt by start_round")
        return super().apply(action)

    def check_play(self, seat: int, card: int) -> None:
        """Raise ``IllegalAction`` unless ``seat`` may play ``card`` now, as far as public
        information tells (the deal protocol then proves the card is the seat's)."""
        self._check_turn(Phase.PLAY, seat)
        if card == BLIND_CARD and type(card) is int:  # "play your card": unseen by all here
            if not is_forehead_round(self.config.rules, self.hand_size):
                raise IllegalAction(Reason.NOT_A_CARD, "a blind play is for a forehead round only")
            return
        self._check_hidden_card(card)

    def _check_hidden_card(self, card: object) -> int:
        if type(card) is not int or card not in self._deck_set:
            raise IllegalAction(Reason.NOT_A_CARD, f"not a card of this game: {card!r}")
        if card in self._on_table:
            raise IllegalAction(
                Reason.CARD_NOT_IN_HAND, f"{card_name(card)} is already on the table"
            )
        if card == Special.WEREWOLF:  # never in a hand: it takes the turned card's place
            raise IllegalAction(
                Reason.CARD_NOT_IN_HAND, "the Werewolf is never played: its holder shows it"
            )
        return card

    def _play(self, seat: int, card: int, events: list[Event] | None = None) -> None:
        self._check_turn(Phase.PLAY, seat)
        card = self._check_hidden_card(card)
        self._on_table.add(card)
        if not self._trick_plays:
            self._trick_leader = seat
        self._trick_plays.append((seat, card))
        self._record(Play(seat, card))
        if events is not None:
            events.append(CardPlayed(seat, card))
        if declaration_choices(card, self.turned_card):
            self._trick_forms.append(None)
            self.phase = Phase.DECLARE  # the same seat, to say what the card is
            return
        self._trick_forms.append(form_of(card, None, self.turned_card))
        self._card_done(seat, events)

    def _pass_card(self, seat: int, card: int, events: list[Event] | None) -> None:
        # Only that the seat passed is public: which card, its receiver alone learns.
        self._check_turn(Phase.PASS, seat)
        if type(card) is not int or card != HIDDEN_CARD:
            raise IllegalAction(Reason.NOT_A_CARD, "a pass at this table names no card")
        self._passes[seat] = HIDDEN_CARD
        self._record(PassCard(seat, HIDDEN_CARD))
        if len(self._passes) < self.players:
            self.turn = self._next[seat]
            return
        self._passes = {}
        if events is not None:
            events.append(CardsPassed(len(self._tricks) - 1))
        self._effect_done(events)

    def check_swap(self, seat: int, give: int | None, take: int | None) -> None:
        """Raise ``IllegalAction`` unless ``seat`` may swap ``give`` for ``take`` now (both
        None: keep its hand), as far as public information tells: before the deal shows the
        given card (the show cannot be taken back), and again by ``apply``."""
        self._check_turn(Phase.SWAP, seat)
        if (give is None) != (take is None):
            raise IllegalAction(
                Reason.NOT_A_CHOICE, "give one card and take one, or keep your hand"
            )
        if give is not None and take is not None:
            self._check_hidden_card(give)
            if type(take) is not int or take not in self._deck_set:
                raise IllegalAction(Reason.NOT_A_CARD, f"not a card of this game: {take!r}")
            if take == self._pending[0].card:
                raise IllegalAction(
                    Reason.NOT_IN_TRICK, f"you may not take the {card_name(take)} that swaps"
                )
            if take not in self._pile:
                raise IllegalAction(Reason.NOT_IN_TRICK, f"{card_name(take)} is not in the trick")

    def _swap(
        self, seat: int, give: int | None, take: int | None, events: list[Event] | None
    ) -> None:
        self.check_swap(seat, give, take)
        if give is not None and take is not None:
            self._pile[self._pile.index(take)] = give
            self._on_table.discard(take)  # back in a hand: it may be played again
            self._on_table.add(give)
        self._record(SwapCard(seat, give, take))
        if events is not None:
            events.append(CardSwapped(seat, len(self._tricks) - 1, give, take))
        self._effect_done(events)

    def _finish_round(self, events: list[Event] | None) -> None:
        # Every trick is played: the round is scored once its deal is verified.
        self._complete = True
        self.phase = Phase.DEAL
        self.turn = -1

    @property
    def round_complete(self) -> bool:
        """Every card of the round in progress is played; it waits for ``finish_round``."""
        return self._complete and self.round > self.full.round

    @property
    def round_actions(self) -> tuple[PlayerAction, ...]:
        """The public actions of the round in progress (a pass's card ``HIDDEN_CARD``)."""
        return tuple(self._round_actions)

    def passes_made(self) -> int:
        """How many Juggler's passes the round in progress has had, each finished."""
        passes = sum(1 for a in self._round_actions if type(a) is PassCard)
        return passes // self.players

    def resolved_actions(self, passes: Sequence[Sequence[int]]) -> tuple[PlayerAction, ...]:
        """The round's actions with every pass's card put in: ``passes[m][seat]`` is the
        card ``seat`` passed at the round's pass ``m`` (the deal's gifts). ``ValueError``
        if they do not cover exactly the round's passes."""
        n = self.players
        if len(passes) != self.passes_made() or any(len(cards) != n for cards in passes):
            raise ValueError(f"{len(passes)} passes for a round of {self.passes_made()}")
        resolved: list[PlayerAction] = []
        count = 0
        for action in self._round_actions:
            if type(action) is PassCard:
                resolved.append(PassCard(action.seat, passes[count // n][action.seat]))
                count += 1
            else:
                resolved.append(action)
        return tuple(resolved)

    def finish_round(
        self, deck: Sequence[int], passes: Sequence[Sequence[int]] = ()
    ) -> list[Event]:
        """Score the round: replay it with its real ``deck`` and its passes' cards through the
        engine. Raises ``Revoke`` (the game unchanged) if the engine refuses one of its
        actions (a card its seat did not hold, a revoke, a card passed it did not hold)."""
        if not self.round_complete:
            raise IllegalAction(Reason.WRONG_PHASE, "the round is not finished")
        actions = self.resolved_actions(passes)
        check_werewolf_shown(self.full, deck, actions)
        game = replay_round(self.full, deck, actions)
        last = game.results[-1]
        events: list[Event] = [
            RoundScored(last.round, last.bids, last.tricks_won, last.points, last.totals)
        ]
        if game.is_over:
            events.append(GameOver(last.totals, tuple(game.winners)))
        # The round's public state stays on show until the next deal, as in the engine.
        self.full = game
        self.totals = list(game.totals)
        self.phase = Phase.GAME_OVER if game.is_over else Phase.DEAL
        return events

    def restore_round(self, deck: Sequence[int], actions: Sequence[PlayerAction]) -> RoundResult:
        """Add a round scored before, from its real ``deck`` and its actions (every pass's
        card in). Raises ``Revoke`` or ``ValueError`` if they do not make a round."""
        if self.phase is not Phase.DEAL or self.round != self.full.round:
            raise IllegalAction(Reason.WRONG_PHASE, "a round is being played")
        self._adopt(replay_round(self.full, deck, actions))
        return self.full.results[-1]

    def _adopt(self, game: Game) -> None:
        """``game`` (this one's rounds, perhaps one more) is the game now, between rounds,
        with no round on show."""
        self.full = game
        self._start_special_round([()] * self.players, None)
        self._complete = False
        self._on_table = set()
        self.round, self.dealer, self.hand_size = game.round, game.dealer, game.hand_size
        self.totals = list(game.totals)
        self.turn = -1
        self.phase = Phase.GAME_OVER if game.is_over else Phase.DEAL

    def void_round(self) -> None:
        """Throw the round in progress away: it will be dealt again (same round number)."""
        self._adopt(self.full)

    def charge(self, seat: int) -> int:
        """Charge ``seat`` a void of the round in progress (or the next): ``Game.charge``,
        applied when that round is scored."""
        return self.full.charge(seat)

    @property
    def charges(self) -> tuple[int, ...]:
        return self.full.charges

    # ----------------------------------------------------------------- queries

    @property
    def results(self) -> tuple[RoundResult, ...]:
        return self.full.results

    def hand(self, seat: int) -> tuple[int, ...]:
        return ()

    def held_cards(self, seat: int) -> tuple[int, ...]:
        return ()

    def dealt_hand(self, seat: int) -> tuple[int, ...]:
        return ()

    def hand_mask(self, seat: int) -> int:
        return 0

    def last_pass(self, seat: int) -> tuple[int, int] | None:
        return None  # only the seat knows: its own deal tells it

    def legal_plays(self) -> tuple[int, ...]:
        return ()  # only the player knows its hand: it works out its own legal cards

    def legal_actions(self) -> list[Action]:
        """The actions public information allows: the choices that need no hand (trump,
        bids, declarations, the Cloud); none where a hand is needed (a play, a pass, a
        swap's give)."""
        if self.phase in (Phase.PLAY, Phase.PASS, Phase.SWAP):
            return []
        return super().legal_actions()

    @property
    def actions(self) -> list[Action]:
        return list(self.full.actions)

    def copy(self) -> SpecialGame:
        raise TypeError("a hidden game is not copied: search needs the hands")


def check_werewolf_shown(game: Game, deck: Sequence[int], actions: Sequence[PlayerAction]) -> None:
    """The seat ``deck`` deals the Werewolf (the next round of ``game``, its rounds so far)
    must have shown it (named trump first, in ``actions``): raises ``Revoke`` naming one
    that kept it hidden, the culprit rather than the first bidder the replay would refuse."""
    probe = game.copy()
    probe.apply(Deal(tuple(deck)))
    holder = probe.turn if probe.phase is Phase.NAME_TRUMP else None
    if holder is None or any(type(a) is NameTrump and a.seat == holder for a in actions):
        return
    raise Revoke(
        NameTrump(holder, None),
        IllegalAction(
            Reason.WRONG_PHASE,
            "held the Werewolf and did not show it: its holder names trump before the bids",
        ),
    )


def view_with_special_hand(view: SeatView, dealt: Sequence[int]) -> SeatView:
    """A view of a ``HiddenSpecialGame`` with its seat's own hand put in (``held_after``),
    and the legal cards when it is to act: in ``play`` as ``SpecialGame.legal_plays`` gives
    them (the led suit read from the trick's cards and their declarations), in ``pass`` and
    ``swap`` every card it holds (to pass, to give into the trick)."""
    return view_with_held(view, held_after(view, dealt))


def view_with_held(view: SeatView, hand: Sequence[int]) -> SeatView:
    """``view`` with ``hand``, the cards its seat holds now (worked out already: a card it
    played may be back in it, taken by a Witch and passed to it), and its legal cards as
    ``view_with_special_hand`` gives them."""
    hand = tuple(hand)
    legal: tuple[int, ...] = ()
    if view.my_turn and view.phase is Phase.PLAY:
        trick = len(view.tricks)
        chosen = {seat: choice for t, seat, choice in view.declared if t == trick}
        forms = [
            form_of(card, chosen.get(seat), view.turned_card)
            for seat, card in view.trick
            if seat in chosen or not declaration_choices(card, view.turned_card)
        ]
        led = led_of(forms)
        follow = [c for c in hand if c < FIRST_WIZARD and c // RANKS_PER_SUIT == led]
        if led >= 0 and follow:
            legal = tuple(sorted(follow + [c for c in hand if c >= FIRST_WIZARD]))
        else:
            legal = tuple(sorted(hand))
    elif view.my_turn and view.phase in (Phase.PASS, Phase.SWAP):
        legal = tuple(sorted(hand))
    return replace(view, hand=hand, legal_cards=legal)


def held_after(view: SeatView, dealt: Sequence[int]) -> tuple[int, ...]:
    """The cards ``view``'s seat holds now, in the engine's order (``held_cards``), from
    the hand it was dealt and the round's public moves: the Werewolf's holder has the
    turned card in the Werewolf's place; trick by trick its plays leave the hand, then
    each swap of its own after that trick puts the card it took in the given card's place
    (a card it played may so come back). (No Juggler: a passed card is its own deal's.)"""
    held = dealt_with_werewolf(view, dealt)
    me = view.seat
    mine = [(t, give, take) for t, seat, give, take in view.swaps if seat == me]

    def leave(plays: Sequence[tuple[int, int]]) -> None:
        for seat, card in plays:
            if seat == me and card in held:
                held.remove(card)

    for t, trick in enumerate(view.tricks):
        leave(trick.plays)
        for when, give, take in mine:
            if when == t and give in held:
                held[held.index(give)] = take
    leave(view.trick)
    return tuple(held)


def dealt_with_werewolf(view: SeatView, dealt: Sequence[int]) -> list[int]:
    """The dealt hand with the Werewolf its holder showed replaced by the turned card it
    took (as the engine deals it)."""
    turned = view.turned_card
    if view.trump_card == Special.WEREWOLF and turned is not None and turned != Special.WEREWOLF:
        return [turned if card == Special.WEREWOLF else card for card in dealt]
    return list(dealt)


__all__ = [
    "HIDDEN_CARD",
    "HiddenSpecialGame",
    "Revoke",
    "check_werewolf_shown",
    "dealt_with_werewolf",
    "held_after",
    "view_with_held",
    "view_with_special_hand",
]
