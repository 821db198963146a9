"""``verify`` for a round of a game with special cards (docs/record-format.md, "Games with
special cards"): its recorded ``actions`` replayed through the engine from the deal, and
every other field of the round checked against that replay.

The plain round is checked in ``verify`` from its bids and tricks; a special round cannot
be, as cards move between hands and players declare what a card is, so its actions are
the round and the tricks, trump and bids are what they must produce.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from netplay.mental import RELAY

from .game import (
    Bid,
    ChooseTrump,
    Game,
    IllegalAction,
    Phase,
    Play,
    PlayerAction,
    Reason,
    Suit,
    Trick,
    action_to_wire,
    card_name,
)
from .game.actions import AdjustBid, Declare, NameTrump, PassCard, SwapCard
from .game.specials import Declaration, Special, is_special
from .i18n import N_
from .phrase import Phrase, phrase
from .record import RecordedRound, RecordedTrick, RecordError

# ``illegal(exc, game, value, round, trick, seat)``: verify's reading of an engine refusal.
Illegal = Callable[[IllegalAction, Game, int, int, int | None, int], RecordError]

# The phase in which each kind of action is taken.
PHASE_OF: dict[type, Phase] = {
    ChooseTrump: Phase.CHOOSE_TRUMP,
    NameTrump: Phase.NAME_TRUMP,
    Bid: Phase.BID,
    Play: Phase.PLAY,
    Declare: Phase.DECLARE,
    AdjustBid: Phase.ADJUST_BID,
    PassCard: Phase.PASS,
    SwapCard: Phase.SWAP,
}

# What the seat on turn is asked for, by phase: "seat 2 is to ...". Every detail below is
# a Phrase (wizard_tui/phrase.py): the record keeps its English, the player reads it
# translated.
_ASKED = {
    Phase.CHOOSE_TRUMP: N_("name trump (the turned card asks the dealer for a suit)"),
    Phase.NAME_TRUMP: N_("name trump (it holds the Werewolf)"),
    Phase.BID: N_("bid"),
    Phase.PLAY: N_("play a card"),
    Phase.DECLARE: N_("declare what the card it just played is"),
    Phase.ADJUST_BID: N_("change its bid by one (it took the Cloud's trick)"),
    Phase.PASS: N_("pass a card to its left (a Juggler was in the trick)"),
    Phase.SWAP: N_("swap with the Witch's trick, or keep its hand"),
}


def _asked(phase: Phase) -> Phrase | str:
    return phrase(_ASKED[phase]) if phase in _ASKED else phase.value


def verify_special_round(
    game: Game, rnd: RecordedRound, r: int, illegal: Illegal, turned: int
) -> None:
    """Replay round ``r``'s actions on ``game`` (dealt already) and check every recorded
    field of the round against the replay. ``turned``: the card the seeds turned up."""
    assert rnd.actions is not None
    over = (Phase.DEAL, Phase.GAME_OVER)  # the round has ended (a cheap test per action)
    checked = 0  # recorded tricks compared so far
    declared: dict[tuple[int, int], int] = {}  # (trick index, seat) -> choice, for messages
    for i, action in enumerate(rnd.actions, 1):
        seat = action.seat
        if game.phase in over:
            raise RecordError(
                "actions",
                phrase(
                    N_("action {i} ({action}) comes after the round's end: {extra} too many"),
                    i=i,
                    action=_wire(action),
                    extra=len(rnd.actions) - i + 1,
                ),
                round=r,
                seat=seat,
            )
        asked = game.phase
        t = _trick_of(game)
        if PHASE_OF.get(type(action)) is not asked:
            why = _why_not(action, game, turned)
            fields: dict[str, str | int | Phrase] = {"i": i, "seat": seat, "does": _does(action)}
            fields["turn"] = game.turn
            raise RecordError(
                "action-phase",
                phrase(
                    N_("action {i}: seat {seat} {does}, but seat {turn} is to {asked}"),
                    **fields,
                    asked=_asked(asked),
                )
                if why is None
                else phrase(
                    N_("action {i}: seat {seat} {does}, but seat {turn} is to {asked} ({why})"),
                    **fields,
                    asked=_asked(asked),
                    why=why,
                ),
                round=r,
                trick=t,
                seat=seat,
            )
        if seat != game.turn:
            raise RecordError(
                "play-order",
                phrase(
                    N_("action {i}: seat {seat} {does} when seat {turn} is to {asked}"),
                    i=i,
                    seat=seat,
                    does=_does(action),
                    turn=game.turn,
                    asked=_asked(asked),
                ),
                round=r,
                trick=t,
                seat=seat,
            )
        try:
            game.apply(action)
        except IllegalAction as exc:
            failure = illegal(exc, game, _value(action), r, t, seat)
            detail: Phrase | str = failure.detail if failure.said is None else failure.said
            if exc.reason is Reason.CARD_NOT_IN_HAND and not isinstance(action, Play):
                held = " ".join(_name(c) for c in game.hand(seat))
                said = N_("seat {seat} {does}, not in hand [{held}]")
                detail = phrase(said, seat=seat, does=_does(action), held=held)
            elif exc.reason is Reason.NOT_IN_TRICK and game.tricks:
                trick = " ".join(_name(c) for c in game.tricks[-1].cards)
                said = N_("seat {seat} {does}: the Witch's trick is [{trick}]")
                detail = phrase(said, seat=seat, does=_does(action), trick=trick)
            raise RecordError(
                failure.rule,
                phrase(
                    N_("action {i} ({action}): {detail}"), i=i, action=_wire(action), detail=detail
                ),
                round=r,
                trick=t,
                seat=seat,
            ) from None
        if isinstance(action, Declare) and t is not None:
            declared[(t - 1, seat)] = action.choice
        if game.phase in over:
            tricks = game.results[-1].tricks
        elif game.phase is Phase.PLAY and checked == len(game.tricks):
            continue  # no trick ended with this action
        else:
            tricks = game.tricks
        for index in range(checked, len(tricks)):
            _check_trick(rnd, tricks[index], index, r, declared, turned)
        checked = len(tricks)
    if game.phase not in over:
        raise RecordError(
            "actions",
            phrase(
                N_("the round's actions end with {n}, but seat {turn} is still to {asked}"),
                n=len(rnd.actions),
                turn=game.turn,
                asked=_asked(game.phase),
            ),
            round=r,
            seat=game.turn,
        )
    result = game.results[-1]
    if len(rnd.tricks) != len(result.tricks):
        raise RecordError(
            "trick-count",
            phrase(
                N_("{got} tricks recorded; the actions play {want}"),
                got=len(rnd.tricks),
                want=len(result.tricks),
            ),
            round=r,
        )
    if rnd.trump_card != result.trump_card:
        swapped = result.trump_card == Special.WEREWOLF != turned
        said = (
            N_(
                "the trump card on the table is {card} (the Werewolf, swapped for the turned "
                "card), the record says {said}"
            )
            if swapped
            else N_("the trump card on the table is {card}, the record says {said}")
        )
        raise RecordError(
            "trump-card",
            phrase(said, card=_name_or_none(result.trump_card), said=_name_or_none(rnd.trump_card)),
            round=r,
        )
    if rnd.trump_suit != result.trump_suit:
        want = phrase(N_("no trump")) if result.trump_suit is None else _suit(result.trump_suit)
        got = "null" if rnd.trump_suit is None else rnd.trump_suit.label  # the record's value
        raise RecordError(
            "trump-suit",
            phrase(
                N_("the actions make {want} with the turned card {card}; the record says {got}"),
                want=want,
                card=_name(turned),
                got=got,
            ),
            round=r,
        )
    made = bids_made(rnd.actions, len(rnd.bids))
    for seat, (got_bid, want_bid) in enumerate(zip(rnd.bids, result.bids, strict=True)):
        if got_bid != want_bid:
            changes = [a.bid for a in rnd.actions if isinstance(a, AdjustBid) and a.seat == seat]
            how = phrase(N_("bid {bid}"), bid=made[seat])
            for b in changes:
                how = phrase(N_("{how}, changed to {bid}"), how=how, bid=b)
            if not changes:
                how = phrase(N_("bid {bid}, no Cloud change"), bid=made[seat])
            raise RecordError(
                "bids",
                phrase(
                    N_("the record scores a bid of {got}; the actions give {want} ({how})"),
                    got=got_bid,
                    want=want_bid,
                    how=how,
                ),
                round=r,
                seat=seat,
            )


def bids_made(actions: Sequence[PlayerAction], players: int) -> tuple[int, ...]:
    """Each seat's bid as made (before a Cloud's change): its ``bid`` action. -1 for a
    seat whose bid the actions lack (the replay refuses such a round)."""
    made = [-1] * players
    for action in actions:
        if isinstance(action, Bid) and 0 <= action.seat < players:
            made[action.seat] = action.bid
    return tuple(made)


def _check_trick(
    rnd: RecordedRound,
    trick: Trick,
    index: int,
    r: int,
    declared: dict[tuple[int, int], int],
    turned: int,
) -> None:
    t = index + 1
    if index >= len(rnd.tricks):
        raise RecordError(
            "trick-count",
            phrase(N_("the actions play trick {t}; the record has {n}"), t=t, n=len(rnd.tricks)),
            round=r,
        )
    got = rnd.tricks[index]
    if got == RecordedTrick(trick.leader, trick.plays, trick.winner, trick.bombed):
        return  # as the replay has it (the common case: nothing to explain)
    shown = " ".join(
        f"{s}:{shown_card(c, declared.get((index, s)), turned)}" for s, c in trick.plays
    )
    if got.leader != trick.leader:
        raise RecordError(
            "leader",
            phrase(
                N_("the record says seat {got} led; seat {want} leads"),
                got=got.leader,
                want=trick.leader,
            ),
            round=r,
            trick=t,
            seat=got.leader,
        )
    if got.plays != trick.plays:
        said = " ".join(f"{s}:{_name(c)}" for s, c in got.plays)
        raise RecordError(
            "trick-plays",
            phrase(
                N_("the record's trick is [{said}]; the actions play [{shown}] (seat:card)"),
                said=said,
                shown=shown,
            ),
            round=r,
            trick=t,
        )
    bombed = trick.bombed
    if got.bombed != bombed:
        detail = (
            phrase(
                N_(
                    "a Bomb is in [{shown}] (seat:card): nobody takes it, yet the record "
                    "credits seat {seat}"
                ),
                shown=shown,
                seat=got.winner,
            )
            if bombed
            else phrase(
                N_("the record calls [{shown}] (seat:card) bombed; there is no Bomb in it"),
                shown=shown,
            )
        )
        raise RecordError("trick-bombed", detail, round=r, trick=t)
    if got.winner != trick.winner:
        said = (
            N_(
                "the record says seat {got}; seat {want} leads next (the Bomb: nobody takes "
                "it) [{shown}] (seat:card, each as it counted)"
            )
            if bombed
            else N_(
                "the record says seat {got}; seat {want} wins [{shown}] (seat:card, each as it "
                "counted)"
            )
        )
        raise RecordError(
            "trick-winner",
            phrase(said, got=got.winner, want=trick.winner, shown=shown),
            round=r,
            trick=t,
        )


def shown_card(card: int, choice: int | None, turned: int) -> str:
    """A card as it counted in its trick: ``JGL=hearts``, ``SHP=wizard``, ``VMP=13S`` (the
    Vampire as the card it copies), a plain card by its name."""
    name = _name(card)
    said = "" if choice is None else f"={Declaration(choice).name.lower()}"
    if card == Special.VAMPIRE:
        copied = _name(turned) if turned not in (Special.WEREWOLF, Special.VAMPIRE) else "J"
        return f"{name}={copied}{said}"
    return name + said


def _name_or_none(card: int | None) -> str | Phrase:
    return phrase(N_("no card")) if card is None else _name(card)


def _suit(suit: Suit) -> Phrase:
    """The suit's label (``hearts``), shown as the table names it (as ``verify._suit``)."""
    return Phrase(suit.label, context="suit")


def _name(card: int) -> str:
    """``13S``, ``W52``, ``DRG``: Wizards and Jesters with their id, as four of each."""
    if is_special(card):
        return Special(card).short_name
    try:
        name = card_name(card, ascii_only=True)
    except ValueError:
        return str(card)
    return f"{name}{card}" if name in ("W", "J") else name


_AFTER_TRICK = (Phase.ADJUST_BID, Phase.PASS, Phase.SWAP)


def _trick_of(game: Game) -> int | None:
    """The 1-based trick the action now asked for belongs to: the one in progress, or
    after a trick (its effects) the one just taken; None before the first card."""
    if game.phase in (Phase.BID, Phase.NAME_TRUMP, Phase.CHOOSE_TRUMP):
        return None
    done = len(game.tricks)
    return done if game.phase in _AFTER_TRICK else done + 1


def _wire(action: PlayerAction) -> str:
    kind, seat, value = action_to_wire(action)
    return f"[{kind}, {seat}, {value}]".replace("None", "null")


def _value(action: PlayerAction) -> int:
    """The action's card or bid, for the refusal's message."""
    if isinstance(action, Play | PassCard):
        return action.card
    if isinstance(action, Bid | AdjustBid):
        return action.bid
    if isinstance(action, SwapCard):
        return -1 if action.take is None else action.take
    if isinstance(action, Declare):
        return action.choice
    return -1


def _does(action: PlayerAction) -> Phrase:
    """``plays 5C``, ``declares hearts``, ... for a message (a declaration by its code)."""
    if isinstance(action, Play):
        return phrase(N_("plays {card}"), card=_name(action.card))
    if isinstance(action, Bid):
        return phrase(N_("bids {bid}"), bid=action.bid)
    if isinstance(action, ChooseTrump):
        return phrase(N_("names {suit} trump"), suit=_suit(action.suit))
    if isinstance(action, NameTrump):
        if action.suit is None:
            return phrase(N_("names no trump"))
        return phrase(N_("names {suit} trump"), suit=_suit(action.suit))
    if isinstance(action, Declare):
        try:
            return phrase(N_("declares {what}"), what=Declaration(action.choice).name.lower())
        except ValueError:
            return phrase(N_("declares {what}"), what=repr(action.choice))
    if isinstance(action, AdjustBid):
        return phrase(N_("changes its bid to {bid}"), bid=action.bid)
    if isinstance(action, PassCard):
        return phrase(N_("passes {card}"), card=_name(action.card))
    if action.give is None and action.take is None:
        return phrase(N_("keeps its hand (Witch)"))
    give = str(None) if action.give is None else _name(action.give)
    take = str(None) if action.take is None else _name(action.take)
    return phrase(N_("swaps {give} for {take} (Witch)"), give=give, take=take)


def _why_not(action: PlayerAction, game: Game, turned: int) -> Phrase | None:
    """Why the moment asks for no such action, or what it asks for, where a reader would
    wonder."""
    if game.phase is Phase.DECLARE and game.trick:
        card = game.trick[-1][1]
        if card == Special.VAMPIRE:
            said = N_("it played {card}, which copies {copied}")
            return phrase(said, card=_name(card), copied=_name(turned))
        return phrase(N_("it played {card}"), card=_name(card))
    if not isinstance(action, Declare):
        return None
    trick = game.trick
    if not trick:
        return None
    seat, card = trick[-1]
    if seat == action.seat and card == Special.VAMPIRE:
        said = N_("the Vampire copies {card}, which asks for no declaration")
        return phrase(said, card=_name(turned))
    if seat == action.seat:
        return phrase(N_("{card} asks for no declaration"), card=_name(card))
    return None


def check_private_moves(
    rnd: RecordedRound,
    r: int,
    turned: int,
    opens: Sequence[tuple[int, int]],
    shows: Sequence[tuple[int, int]],
    gifts: Sequence[tuple[int, int, int, int]],
    blamed: Callable[[Phrase], Phrase] = lambda detail: detail,
) -> None:
    """A privately dealt special round (docs/private-deal.md section 16, "Who held what"):
    its transcript's messages are the moves its actions make. ``opens``: (seat, card) of
    every ``open``, ``open_gift`` and unveil, in order; ``shows``: (seat, card) of every
    ``show`` and ``show_gift``, in order; ``gifts``: (pass, giver, recipient, card) of
    every verified gift. Every play is an open, but of a face-up card a seat took (the
    turned card the Werewolf's holder took, a card a Witch took from the trick), which
    needs none; every show is a Werewolf put face up or a card a Witch gave into the trick,
    but a face-up card it took; every gift is a ``pass_card``, to the giver's left. The
    replay (``verify_special_round``) checks that each was a card its seat held.
    ``blamed`` puts the blame on a failure's detail (verify's, on the relay)."""
    assert rnd.actions is not None
    n = len(rnd.hands)
    public: list[set[int]] = [set() for _ in range(n)]  # face-up cards taken into a hand
    want_opens: list[tuple[int, tuple[int, int]]] = []  # (trick, (seat, card))
    want_shows: list[tuple[int, int]] = []
    want_gifts: list[tuple[int, int, int, int]] = []
    plays = 0
    passes: list[PassCard] = []
    for action in rnd.actions:
        seat = action.seat
        if isinstance(action, NameTrump):
            want_shows.append((seat, int(Special.WEREWOLF)))
            public[seat].add(turned)
        elif isinstance(action, Play):
            plays += 1
            if action.card in public[seat]:
                public[seat].discard(action.card)
            else:
                want_opens.append(((plays - 1) // n + 1, (seat, action.card)))
        elif isinstance(action, SwapCard) and action.give is not None:
            if action.give in public[seat]:
                public[seat].discard(action.give)
            else:
                want_shows.append((seat, action.give))
            if action.take is not None:
                public[seat].add(action.take)
        elif isinstance(action, PassCard):
            public[seat].discard(action.card)  # passed privately, even a face-up one
            passes.append(action)
            if len(passes) == n:
                m = len(want_gifts) // n
                want_gifts += [(m, p.seat, (p.seat + 1) % n, p.card) for p in passes]
                passes = []
    for i in range(max(len(opens), len(want_opens))):
        got = opens[i] if i < len(opens) else None
        want = want_opens[i][1] if i < len(want_opens) else None
        if got == want:
            continue
        t = want_opens[i][0] if i < len(want_opens) else None
        raise RecordError(
            "open-mismatch",
            blamed(
                phrase(
                    N_(
                        "opened play {i} of the round: the transcript opens {shown}, the "
                        "record's actions play {said} (a face-up card taken into a hand is "
                        "played unopened)"
                    ),
                    i=i + 1,
                    shown=_seat_card(got),
                    said=_seat_card(want),
                )
            ),
            round=r,
            trick=t,
            seat=None if want is None else want[0],
            culprit=RELAY,
        )
    if list(shows) != want_shows:
        raise RecordError(
            "shown-mismatch",
            blamed(
                phrase(
                    N_(
                        "the transcript shows {got}; the record's actions put face up {want} "
                        "(the Werewolf, cards a Witch gave into a trick)"
                    ),
                    got=_pairs(shows),
                    want=_pairs(want_shows),
                )
            ),
            round=r,
            culprit=RELAY,
        )
    if sorted(gifts) != sorted(want_gifts):
        raise RecordError(
            "pass-mismatch",
            blamed(
                phrase(
                    N_("the transcript's gifts are [{got}]; the record's passes are [{want}]"),
                    got=_gifts(gifts),
                    want=_gifts(want_gifts),
                )
            ),
            round=r,
            culprit=RELAY,
        )


def _seat_card(pair: tuple[int, int] | None) -> Phrase:
    if pair is None:
        return phrase(N_("nothing"))
    return phrase(N_("seat {seat} {card}"), seat=pair[0], card=_name(pair[1]))


def _gifts(gifts: Sequence[tuple[int, int, int, int]]) -> str:
    return ", ".join(f"pass {m}: {g}->{to} {_name(c)}" for m, g, to, c in sorted(gifts))


def _pairs(pairs: Sequence[tuple[int, int]]) -> str:
    return "[" + " ".join(f"{s}:{_name(c)}" for s, c in pairs) + "]"
