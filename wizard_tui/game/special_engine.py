"""The engine of a game with special cards (docs/rules.md, "Special cards").

``Game(config)`` is a ``SpecialGame`` when ``config.rules.specials`` is not empty
(``Game.__new__``): the same interface (``apply``, the queries, ``legal_actions``,
``actions``, ``replay``, ``copy``), plus the special cards' phases and actions. Written
plainly rather than for speed: hands are lists of card ids, a trick is a list of plays and of
what each card is in it (``special_tricks.Form``). The plain ``Game`` and its fast paths are
untouched. Pure: no I/O.

A round goes: the deal (the Werewolf's holder names trump, or the dealer chooses when the
turned-up card asks it), the bids, then the tricks. A card that asks for a declaration
(Juggler, Cloud, Shapeshifter, a Vampire copying one) puts its player in ``declare`` before
the next card. After a trick its effects come in order: each Cloud (``adjust_bid``, made
automatically when only one way is possible), each Juggler (``pass``: every seat in turn from
the next leader, the cards move once all have chosen), each Witch (``swap``). Then the next
trick, or after the last one the score.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple, cast

from .actions import (
    Action,
    AdjustBid,
    Bid,
    BidAdjusted,
    CardPlayed,
    CardsPassed,
    CardSwapped,
    ChooseTrump,
    Deal,
    Declare,
    Declared,
    Event,
    GameOver,
    NameTrump,
    PassCard,
    Play,
    RoundDealt,
    RoundScored,
    SwapCard,
    TrickBombed,
    TrickWon,
    TrumpChosen,
    TrumpNamed,
)
from .cards import FIRST_WIZARD, RANKS_PER_SUIT, Suit, card_name
from .codec import PlayerAction
from .engine import (
    _RESTRICTED_ROUNDS,
    NO_TRUMP,
    Game,
    GameConfig,
    Phase,
    RoundResult,
    Trick,
    mask_of,
)
from .errors import IllegalAction, Reason
from .forehead import BLIND_CARD, is_forehead_round
from .rules import score
from .special_tricks import (
    Effect,
    Form,
    Kind,
    dealer_names_trump,
    declaration_choices,
    form_of,
    is_bombed,
    led_of,
    taker_of,
    trump_of_turned,
)
from .specials import Declaration, Special, deck_cards

# ``legal_choices``'s value for "no trump" in the ``name_trump`` phase.
NO_TRUMP_CHOICE = -1


class Pending(NamedTuple):
    """An after-trick effect still to come."""

    effect: Effect
    seat: int  # the Cloud's: the trick's taker; the Witch's: its player; the Juggler's: unused
    card: int  # the card causing it (a Vampire copying the card, or the card itself)


class SpecialGame(Game, plays_specials=True):
    """A game of Wizard with special cards. Create it as ``Game(config)``."""

    __slots__ = (
        "_deck_cards",
        "_deck_set",
        "_declared",
        "_held",
        "_last_pass",
        "_log",
        "_passes",
        "_pending",
        "_pile",
        "_round_actions",
        "_trick_forms",
        "_trick_plays",
        "_tricks",
        "turned_card",
    )

    def __init__(self, config: GameConfig) -> None:
        self.config = config
        self.players = n = config.players
        self._sizes = config.rules.round_sizes(n)
        self.num_rounds = len(self._sizes)
        self._next = tuple((seat + 1) % n for seat in range(n))
        self._restricted = _RESTRICTED_ROUNDS[config.rules.last_bid_rule]
        self.phase = Phase.DEAL
        self.round = 0
        self.hand_size = 0
        self.dealer = (config.first_dealer - 1) % n
        self.turn = -1
        self.totals = [0] * n
        self._results = []
        self._decks = []
        self._charges = None
        self._deck_cards = deck_cards(config.rules.specials)
        self._deck_set = frozenset(self._deck_cards)
        self._log: list[Action] = []  # every action applied, the deals included
        self._start_special_round([()] * n, None)

    def _start_special_round(self, dealt: list[tuple[int, ...]], turned: int | None) -> None:
        n = self.players
        self._dealt = dealt
        self._held: list[list[int]] = [list(cards) for cards in dealt]  # in the order got
        self.turned_card: int | None = turned
        self.trump_card = turned
        self.trump = NO_TRUMP
        self._bids = [None] * n
        self.tricks_won = [0] * n
        self._trick_leader = -1
        self._trick_plays: list[tuple[int, int]] = []  # the trick in progress: (seat, card)
        self._trick_forms: list[Form | None] = []  # what each is; None: to be declared
        self._tricks: list[Trick] = []
        self._declared: list[tuple[int, int, int]] = []  # (trick, seat, choice)
        self._pending: list[Pending] = []  # the last trick's effects still to come
        self._pile: list[int] = []  # the last trick's cards as they lie (after any swap)
        self._passes: dict[int, int] = {}  # the pass being chosen: seat -> card
        self._last_pass: list[tuple[int, int] | None] = [None] * n
        self._round_actions: list[PlayerAction] = []

    def _record(self, action: PlayerAction) -> None:
        self._log.append(action)
        self._round_actions.append(action)

    # ----------------------------------------------------------------- actions

    def apply(self, action: Action) -> list[Event]:
        events: list[Event] = []
        match action:
            case Play(seat, card):
                self._play(seat, card, events)
            case Bid(seat, bid):
                self._bid(seat, bid, events)
            case Declare(seat, choice):
                self._declare(seat, choice, events)
            case PassCard(seat, card):
                self._pass_card(seat, card, events)
            case SwapCard(seat, give, take):
                self._swap(seat, give, take, events)
            case AdjustBid(seat, bid):
                self._adjust_bid(seat, bid, events)
            case NameTrump(seat, suit):
                self._name_trump(seat, suit, events)
            case ChooseTrump(seat, suit):
                self._choose_trump(seat, suit, events)
            case Deal(deck):
                self._deal(deck, events)
            case _:
                raise IllegalAction(Reason.UNKNOWN_ACTION, f"not an action: {action!r}")
        return events

    # Every method checks first and writes only once every check has passed.

    def _deal(self, deck: Sequence[int], events: list[Event] | None = None) -> None:
        if self.phase is not Phase.DEAL:
            self._check_turn(Phase.DEAL, -1)
        try:
            deck = tuple(deck)
        except TypeError:
            deck = ()
        size = len(self._deck_cards)
        if (
            len(deck) != size
            or any(type(card) is not int for card in deck)
            or set(deck) != self._deck_set
        ):
            raise IllegalAction(
                Reason.BAD_DECK,
                f"a deck must be a permutation of the {size} card ids of this game",
            )
        n = self.players
        r = self.round + 1
        hand_size = self._sizes[r - 1]
        dealer = (self.dealer + 1) % n
        dealt_count = n * hand_size
        dealt: list[tuple[int, ...]] = [()] * n
        for i in range(n):  # card j goes to seat (dealer + 1 + j) mod n, as in the plain game
            dealt[(dealer + 1 + i) % n] = deck[i:dealt_count:n]
        turned = deck[dealt_count]  # always one: the deck holds more than the 60 dealt at most
        self.round = r
        self.hand_size = hand_size
        self.dealer = dealer
        self._start_special_round(dealt, turned)
        self._decks.append(deck)
        self._log.append(Deal(deck))
        holder = next((s for s in range(n) if Special.WEREWOLF in dealt[s]), None)
        chooses = False
        if holder is not None:
            # The Werewolf takes the turned-up card's place; its holder names trump.
            hand = self._held[holder]
            hand[hand.index(Special.WEREWOLF)] = turned
            self.trump_card = int(Special.WEREWOLF)
            self.phase = Phase.NAME_TRUMP
            self.turn = holder
        elif dealer_names_trump(turned):
            chooses = True
            self.phase = Phase.CHOOSE_TRUMP
            self.turn = dealer
        else:
            self.trump = trump_of_turned(turned)
            self.phase = Phase.BID
            self.turn = self._next[dealer]
        if events is not None:
            events.append(RoundDealt(r, dealer, turned, self.trump_suit, chooses))

    def _choose_trump(self, seat: int, suit: Suit | int, events: list[Event] | None) -> None:
        self._check_turn(Phase.CHOOSE_TRUMP, seat)
        if type(suit) is not Suit and (type(suit) is not int or not 0 <= suit < 4):
            raise IllegalAction(Reason.NOT_A_SUIT, f"trump must be one of the four suits: {suit!r}")
        self.trump = int(suit)
        self.phase = Phase.BID
        self.turn = self._next[self.dealer]
        self._record(ChooseTrump(seat, Suit(suit)))
        if events is not None:
            events.append(TrumpChosen(seat, Suit(suit)))

    def _name_trump(self, seat: int, suit: Suit | int | None, events: list[Event] | None) -> None:
        self._check_turn(Phase.NAME_TRUMP, seat)
        if (
            suit is not None
            and type(suit) is not Suit
            and (type(suit) is not int or not 0 <= suit < 4)
        ):
            raise IllegalAction(
                Reason.NOT_A_SUIT, f"trump must be one of the four suits, or none: {suit!r}"
            )
        named = None if suit is None else Suit(suit)
        self.trump = NO_TRUMP if named is None else int(named)
        self.phase = Phase.BID
        self.turn = self._next[self.dealer]
        self._record(NameTrump(seat, named))
        if events is not None:
            events.append(TrumpNamed(seat, cast("int", self.turned_card), named))

    def _bid(self, seat: int, bid: int, events: list[Event] | None = None) -> None:
        super()._bid(seat, bid, events)  # the plain rule; it refuses before changing anything
        self._record(Bid(seat, bid))

    def _play(self, seat: int, card: int, events: list[Event] | None = None) -> None:
        self._check_turn(Phase.PLAY, seat)
        card = self._card_to_play(seat, card)
        hand = self._held[seat]
        led = self.led
        if (
            led >= 0
            and card < FIRST_WIZARD
            and card // RANKS_PER_SUIT != led
            and any(c < FIRST_WIZARD and c // RANKS_PER_SUIT == led for c in hand)
        ):
            raise IllegalAction(
                Reason.MUST_FOLLOW_SUIT,
                f"you must follow {Suit(led).label} (or play a Wizard, a Jester or a special card)",
            )
        hand.remove(card)
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

    def _card_to_play(self, seat: int, card: object) -> int:
        """The card a play names, checked: a card of this game, held by ``seat``; a blind
        play in a forehead round is the one card the seat holds."""
        if type(card) is int and card == BLIND_CARD:
            held = self._held[seat]
            if is_forehead_round(self.config.rules, self.hand_size) and len(held) == 1:
                return held[0]
            raise IllegalAction(Reason.NOT_A_CARD, "a blind play is for a forehead round only")
        if type(card) is not int or card not in self._deck_set:
            raise IllegalAction(Reason.NOT_A_CARD, f"not a card of this game: {card!r}")
        if card not in self._held[seat]:
            raise IllegalAction(Reason.CARD_NOT_IN_HAND, f"{card_name(card)} is not in your hand")
        return card

    def _declare(self, seat: int, choice: int, events: list[Event] | None) -> None:
        self._check_turn(Phase.DECLARE, seat)
        card = self._trick_plays[-1][1]
        choices = declaration_choices(card, self.turned_card)
        if not _is_int(choice) or choice not in choices:
            offered = ", ".join(Declaration(c).name.lower() for c in choices)
            raise IllegalAction(
                Reason.NOT_A_CHOICE, f"declare the {card_name(card)} as one of: {offered}"
            )
        choice = int(choice)
        self._trick_forms[-1] = form_of(card, choice, self.turned_card)
        self._declared.append((len(self._tricks), seat, choice))
        self._record(Declare(seat, choice))
        if events is not None:
            events.append(Declared(seat, card, choice))
        self._card_done(seat, events)

    def _card_done(self, seat: int, events: list[Event] | None) -> None:
        """A card is in the trick and known: the next seat plays, or the trick is complete."""
        if len(self._trick_plays) < self.players:
            self.phase = Phase.PLAY
            self.turn = self._next[seat]
        else:
            self._complete_trick(events)

    def _complete_trick(self, events: list[Event] | None) -> None:
        forms = cast("list[Form]", self._trick_forms)  # every card is declared by now
        plays = tuple(self._trick_plays)
        leader = self._trick_leader
        taker = plays[taker_of(forms, self.trump)][0]
        bombed = is_bombed(forms)
        index = len(self._tricks)
        self._tricks.append(Trick(leader, tuple(card for _, card in plays), taker, bombed))
        if not bombed:
            self.tricks_won[taker] += 1
        if events is not None:
            events.append(
                TrickBombed(index, taker, plays) if bombed else TrickWon(index, taker, plays)
            )
        last = len(self._tricks) == self.hand_size
        pending: list[Pending] = []
        # Cloud, Juggler, Witch ("After a trick"), each once per card, in play order; after
        # the last trick nobody holds a card, so only the Cloud.
        if not bombed:
            pending += [
                Pending(Effect.CLOUD, taker, c)
                for (_, c), f in zip(plays, forms, strict=True)
                if f.effect is Effect.CLOUD
            ]
        if not last:
            pending += [
                Pending(Effect.JUGGLER, -1, c)
                for (_, c), f in zip(plays, forms, strict=True)
                if f.effect is Effect.JUGGLER
            ]
            pending += [
                Pending(Effect.WITCH, s, c)
                for (s, c), f in zip(plays, forms, strict=True)
                if f.effect is Effect.WITCH
            ]
        self._pending = pending
        self._pile = [card for _, card in plays]
        self._trick_plays = []
        self._trick_forms = []
        self._trick_leader = taker  # leads the next trick (the pass starts there too)
        self._run_effects(events)

    def _run_effects(self, events: list[Event] | None) -> None:
        """Go to the next after-trick effect that asks a seat, or to the next trick."""
        while self._pending:
            effect = self._pending[0]
            if effect.effect is Effect.CLOUD:
                options = self._cloud_options(effect.seat)
                if len(options) == 1:  # a bid of 0 or of every card: one way only
                    self._set_bid(effect.seat, options[0], events)
                    self._pending.pop(0)
                    continue
                self.phase = Phase.ADJUST_BID
                self.turn = effect.seat
            elif effect.effect is Effect.JUGGLER:
                self._passes = {}
                self.phase = Phase.PASS
                self.turn = self._trick_leader
            else:
                self.phase = Phase.SWAP
                self.turn = effect.seat
            return
        if len(self._tricks) == self.hand_size:
            self._finish_round(events)
        else:
            self.phase = Phase.PLAY
            self.turn = self._trick_leader

    def _effect_done(self, events: list[Event] | None) -> None:
        self._pending.pop(0)
        self._run_effects(events)

    def _cloud_options(self, seat: int) -> tuple[int, ...]:
        bid = cast("int", self._bids[seat])
        return tuple(b for b in (bid - 1, bid + 1) if 0 <= b <= self.hand_size)

    def _set_bid(self, seat: int, bid: int, events: list[Event] | None) -> None:
        self._bids[seat] = bid
        if events is not None:
            events.append(BidAdjusted(seat, bid))

    def _adjust_bid(self, seat: int, bid: int, events: list[Event] | None) -> None:
        self._check_turn(Phase.ADJUST_BID, seat)
        if type(bid) is not int:
            raise IllegalAction(Reason.NOT_A_BID, f"a bid is a whole number: {bid!r}")
        options = self._cloud_options(seat)
        if bid not in options:
            raise IllegalAction(
                Reason.NOT_A_CHOICE,
                f"the Cloud changes your bid by one: {' or '.join(map(str, options))}",
            )
        self._record(AdjustBid(seat, bid))
        self._set_bid(seat, bid, events)
        self._effect_done(events)

    def _check_held(self, seat: int, card: object) -> int:
        if type(card) is not int or card not in self._deck_set:
            raise IllegalAction(Reason.NOT_A_CARD, f"not a card of this game: {card!r}")
        if card not in self._held[seat]:
            raise IllegalAction(Reason.CARD_NOT_IN_HAND, f"{card_name(card)} is not in your hand")
        return card

    def _pass_card(self, seat: int, card: int, events: list[Event] | None) -> None:
        self._check_turn(Phase.PASS, seat)
        card = self._check_held(seat, card)
        self._passes[seat] = card
        self._record(PassCard(seat, card))
        if len(self._passes) < self.players:
            self.turn = self._next[seat]
            return
        passes = self._passes
        for giver, given in passes.items():  # every seat has chosen: the cards move left
            self._held[giver].remove(given)
        for giver, given in passes.items():
            self._held[self._next[giver]].append(given)
        for receiver in range(self.players):
            self._last_pass[receiver] = (passes[receiver], passes[(receiver - 1) % self.players])
        self._passes = {}
        if events is not None:
            events.append(CardsPassed(len(self._tricks) - 1))
        self._effect_done(events)

    def _swap(
        self, seat: int, give: int | None, take: int | None, events: list[Event] | None
    ) -> None:
        self._check_turn(Phase.SWAP, seat)
        if (give is None) != (take is None):
            raise IllegalAction(
                Reason.NOT_A_CHOICE, "give one card and take one, or keep your hand"
            )
        if give is not None and take is not None:
            give = self._check_held(seat, give)
            if type(take) is not int or take not in self._deck_set:
                raise IllegalAction(Reason.NOT_A_CARD, f"not a card of this game: {take!r}")
            if take == self._pending[0].card:
                raise IllegalAction(
                    Reason.NOT_IN_TRICK, f"you may not take the {card_name(take)} that swaps"
                )
            if take not in self._pile:
                raise IllegalAction(Reason.NOT_IN_TRICK, f"{card_name(take)} is not in the trick")
            hand = self._held[seat]
            hand[hand.index(give)] = take
            self._pile[self._pile.index(take)] = give
        self._record(SwapCard(seat, give, take))
        if events is not None:
            events.append(CardSwapped(seat, len(self._tricks) - 1, give, take))
        self._effect_done(events)

    def _finish_round(self, events: list[Event] | None) -> None:
        bids = cast("tuple[int, ...]", tuple(self._bids))  # as scored, after any Cloud
        won = tuple(self.tricks_won)
        points = tuple(map(score, bids, won))
        if self._charges is not None:  # a charged seat scores its charges, and nothing else
            points = tuple(c if c else p for c, p in zip(self._charges, points, strict=True))
            self._charges = None
        totals = tuple(t + p for t, p in zip(self.totals, points, strict=True))
        self.totals = list(totals)
        self._results.append(
            RoundResult(
                self.round,
                self.dealer,
                tuple(self._dealt),
                self.trump_card,
                self.trump_suit,
                bids,
                tuple(self._tricks),
                won,
                points,
                totals,
                self.turned_card,
                tuple(self._round_actions),
            )
        )
        self.turn = -1
        if events is not None:
            events.append(RoundScored(self.round, bids, won, points, totals))
        if self.round == self.num_rounds:
            self.phase = Phase.GAME_OVER
            if events is not None:
                events.append(GameOver(totals, tuple(self.winners)))
        else:
            self.phase = Phase.DEAL

    # The same without events (``play(seat, card)``, ...), as the plain game's.
    deal = _deal
    bid = _bid
    play = _play

    def choose_trump(self, seat: int, suit: Suit | int) -> None:
        self._choose_trump(seat, suit, None)

    def name_trump(self, seat: int, suit: Suit | int | None) -> None:
        self._name_trump(seat, suit, None)

    def declare(self, seat: int, choice: int) -> None:
        self._declare(seat, choice, None)

    def adjust_bid(self, seat: int, bid: int) -> None:
        self._adjust_bid(seat, bid, None)

    def pass_card(self, seat: int, card: int) -> None:
        self._pass_card(seat, card, None)

    def swap(self, seat: int, give: int | None, take: int | None) -> None:
        self._swap(seat, give, take, None)

    # ----------------------------------------------------------------- queries

    def hand(self, seat: int) -> tuple[int, ...]:
        """The cards ``seat`` holds now, lowest id first."""
        return tuple(sorted(self._held[seat]))

    def held_cards(self, seat: int) -> tuple[int, ...]:
        """The cards ``seat`` holds now in the order it got them: as dealt (the card a
        Werewolf took in its place, a card taken by a Witch in the given card's place),
        then the cards passed to it."""
        return tuple(self._held[seat])

    def hand_mask(self, seat: int) -> int:
        return mask_of(self._held[seat])

    @property
    def trick(self) -> tuple[tuple[int, int], ...]:
        return tuple(self._trick_plays)

    @property
    def led(self) -> int:
        return led_of([form for form in self._trick_forms if form is not None])

    @property
    def led_suit(self) -> Suit | None:
        led = self.led
        return Suit(led) if led >= 0 else None

    @property
    def trick_winner(self) -> int | None:
        """Whose card takes the trick in progress so far (a card still to be declared does
        not count yet; with a Bomb in it, who would lead next); None before its first card
        and while only a Bomb is known."""
        known = [
            (play[0], form)
            for play, form in zip(self._trick_plays, self._trick_forms, strict=True)
            if form is not None
        ]
        if all(form.kind is Kind.BOMB for _, form in known):  # a Bomb alone takes nothing
            return None
        return known[taker_of([form for _, form in known], self.trump)][0]

    @property
    def tricks(self) -> tuple[Trick, ...]:
        return tuple(self._tricks)

    @property
    def declarations(self) -> tuple[tuple[int, int, int], ...]:
        """(trick index from 0, seat, choice) of every declaration this round."""
        return tuple(self._declared)

    def last_pass(self, seat: int) -> tuple[int, int] | None:
        """(the card ``seat`` passed, the card it received) at the round's latest pass."""
        return self._last_pass[seat]

    @property
    def swaps(self) -> tuple[tuple[int, int, int, int], ...]:
        """(trick index from 0, seat, card given, card taken) of every Witch's swap this
        round, in order (a swap declined moves no card: none). Public: both cards are
        face up when they change places (docs/rules.md, "After a trick")."""
        out: list[tuple[int, int, int, int]] = []
        plays = 0
        for action in self._round_actions:
            if type(action) is Play:
                plays += 1
            elif type(action) is SwapCard and action.give is not None and action.take is not None:
                out.append((plays // self.players - 1, action.seat, action.give, action.take))
        return tuple(out)

    def legal_plays(self) -> tuple[int, ...]:
        """Cards the player on turn may play, lowest id first (empty outside the play phase).
        A special card belongs to no suit in hand: it may always be played, and holding
        one never obliges its holder to follow."""
        if self.phase is not Phase.PLAY:
            return ()
        hand = self._held[self.turn]
        led = self.led
        if led >= 0:
            follow = [c for c in hand if c < FIRST_WIZARD and c // RANKS_PER_SUIT == led]
            if follow:
                return tuple(sorted(follow + [c for c in hand if c >= FIRST_WIZARD]))
        return tuple(sorted(hand))

    def legal_play_mask(self) -> int:
        return mask_of(self.legal_plays())

    def legal_choices(self) -> tuple[int, ...]:
        """What the seat on turn may choose: in ``name_trump`` the four suits and
        ``NO_TRUMP_CHOICE`` (-1), in ``declare`` the ``Declaration`` values offered, in
        ``adjust_bid`` the allowed new bids; empty in every other phase."""
        if self.phase is Phase.NAME_TRUMP:
            return (0, 1, 2, 3, NO_TRUMP_CHOICE)
        if self.phase is Phase.DECLARE:
            return declaration_choices(self._trick_plays[-1][1], self.turned_card)
        if self.phase is Phase.ADJUST_BID:
            return self._cloud_options(self.turn)
        return ()

    def swap_takes(self) -> tuple[int, ...]:
        """In ``swap``: the cards of the trick the Witch's player may take (all but the card
        that swaps), lowest id first."""
        if self.phase is not Phase.SWAP:
            return ()
        witch = self._pending[0].card
        return tuple(sorted(card for card in self._pile if card != witch))

    def legal_actions(self) -> list[Action]:
        """Every action the engine would accept now, in every phase (the deal is not a
        seat's action)."""
        seat, phase = self.turn, self.phase
        if phase is Phase.PLAY:
            return [Play(seat, card) for card in self.legal_plays()]
        if phase is Phase.BID:
            return [Bid(seat, bid) for bid in self.legal_bids()]
        if phase is Phase.CHOOSE_TRUMP:
            return [ChooseTrump(seat, suit) for suit in Suit]
        if phase is Phase.NAME_TRUMP:
            return [NameTrump(seat, suit) for suit in (*Suit, None)]
        if phase is Phase.DECLARE:
            return [Declare(seat, choice) for choice in self.legal_choices()]
        if phase is Phase.ADJUST_BID:
            return [AdjustBid(seat, bid) for bid in self.legal_choices()]
        if phase is Phase.PASS:
            return [PassCard(seat, card) for card in self.hand(seat)]
        if phase is Phase.SWAP:
            keep: list[Action] = [SwapCard(seat, None, None)]
            takes = self.swap_takes()
            return keep + [SwapCard(seat, g, t) for g in self.hand(seat) for t in takes]
        return []

    @property
    def actions(self) -> list[Action]:
        """The game so far as a list of actions (every one applied, in order, the deals
        included); ``Game.replay`` rebuilds it."""
        return list(self._log)

    def copy(self) -> SpecialGame:
        """An independent copy, for search."""
        other: SpecialGame = object.__new__(SpecialGame)
        for name in _SHARED_SLOTS:
            setattr(other, name, getattr(self, name))
        for name in _LIST_SLOTS:
            setattr(other, name, getattr(self, name)[:])
        other._held = [hand[:] for hand in self._held]
        other._passes = dict(self._passes)
        other._charges = None if self._charges is None else self._charges[:]
        return other


def _is_int(value: object) -> bool:
    """An int (or an int enum such as ``Declaration`` or ``Suit``), but not a bool."""
    return isinstance(value, int) and not isinstance(value, bool)


# ``copy``'s slots: those never changed in place, shared; the lists, copied.
_SHARED_SLOTS = (
    "config",
    "players",
    "num_rounds",
    "_sizes",
    "_next",
    "_restricted",
    "phase",
    "round",
    "hand_size",
    "dealer",
    "turn",
    "_deck_cards",
    "_deck_set",
    "turned_card",
    "trump_card",
    "trump",
    "_trick_leader",
)
_LIST_SLOTS = (
    "totals",
    "_results",
    "_decks",
    "_dealt",
    "_log",
    "_bids",
    "tricks_won",
    "_trick_plays",
    "_trick_forms",
    "_tricks",
    "_declared",
    "_pending",
    "_pile",
    "_last_pass",
    "_round_actions",
)

__all__ = ["NO_TRUMP_CHOICE", "Pending", "SpecialGame"]
