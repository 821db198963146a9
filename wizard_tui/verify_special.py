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
    Trick,
    action_to_wire,
    card_name,
)
from .game.actions import AdjustBid, Declare, NameTrump, PassCard, SwapCard
from .game.specials import Declaration, Special, is_special
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

# What the seat on turn is asked for, by phase: "seat 2 is to ...".
_ASKED = {
    Phase.CHOOSE_TRUMP: "name trump (the turned card asks the dealer for a suit)",
    Phase.NAME_TRUMP: "name trump (it holds the Werewolf)",
    Phase.BID: "bid",
    Phase.PLAY: "play a card",
    Phase.DECLARE: "declare what the card it just played is",
    Phase.ADJUST_BID: "change its bid by one (it took the Cloud's trick)",
    Phase.PASS: "pass a card to its left (a Juggler was in the trick)",
    Phase.SWAP: "swap with the Witch's trick, or keep its hand",
}


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
                f"action {i} ({_wire(action)}) comes after the round's end: "
                f"{len(rnd.actions) - i + 1} too many",
                round=r,
                seat=seat,
            )
        asked = game.phase
        t = _trick_of(game)
        if PHASE_OF.get(type(action)) is not asked:
            raise RecordError(
                "action-phase",
                f"action {i}: seat {seat} {_does(action)}, but seat {game.turn} is to "
                f"{_ASKED.get(asked, asked.value)}{_why_not(action, game, turned)}",
                round=r,
                trick=t,
                seat=seat,
            )
        if seat != game.turn:
            raise RecordError(
                "play-order",
                f"action {i}: seat {seat} {_does(action)} when seat {game.turn} is to "
                f"{_ASKED.get(asked, asked.value)}",
                round=r,
                trick=t,
                seat=seat,
            )
        try:
            game.apply(action)
        except IllegalAction as exc:
            failure = illegal(exc, game, _value(action), r, t, seat)
            detail = failure.detail
            if exc.reason is Reason.CARD_NOT_IN_HAND and not isinstance(action, Play):
                held = " ".join(_name(c) for c in game.hand(seat))
                detail = f"seat {seat} {_does(action)}, not in hand [{held}]"
            elif exc.reason is Reason.NOT_IN_TRICK and game.tricks:
                trick = " ".join(_name(c) for c in game.tricks[-1].cards)
                detail = f"seat {seat} {_does(action)}: the Witch's trick is [{trick}]"
            raise RecordError(
                failure.rule,
                f"action {i} ({_wire(action)}): {detail}",
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
            f"the round's actions end with {len(rnd.actions)}, but seat {game.turn} is "
            f"still to {_ASKED.get(game.phase, game.phase.value)}",
            round=r,
            seat=game.turn,
        )
    result = game.results[-1]
    if len(rnd.tricks) != len(result.tricks):
        raise RecordError(
            "trick-count",
            f"{len(rnd.tricks)} tricks recorded; the actions play {len(result.tricks)}",
            round=r,
        )
    if rnd.trump_card != result.trump_card:
        swapped = result.trump_card == Special.WEREWOLF != turned
        why = " (the Werewolf, swapped for the turned card)" if swapped else ""
        raise RecordError(
            "trump-card",
            f"the trump card on the table is {_name(result.trump_card)}{why}, "
            f"the record says {_name(rnd.trump_card)}",
            round=r,
        )
    if rnd.trump_suit != result.trump_suit:
        want = "no trump" if result.trump_suit is None else result.trump_suit.label
        got = "null" if rnd.trump_suit is None else rnd.trump_suit.label
        raise RecordError(
            "trump-suit",
            f"the actions make {want} with the turned card {_name(turned)}; the record says {got}",
            round=r,
        )
    made = bids_made(rnd.actions, len(rnd.bids))
    for seat, (got_bid, want_bid) in enumerate(zip(rnd.bids, result.bids, strict=True)):
        if got_bid != want_bid:
            changes = [a.bid for a in rnd.actions if isinstance(a, AdjustBid) and a.seat == seat]
            how = f"bid {made[seat]}" + "".join(f", changed to {b}" for b in changes)
            raise RecordError(
                "bids",
                f"the record scores a bid of {got_bid}; the actions give {want_bid} ({how}"
                f"{', no Cloud change' if not changes else ''})",
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
            "trick-count", f"the actions play trick {t}; the record has {len(rnd.tricks)}", round=r
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
            f"the record says seat {got.leader} led; seat {trick.leader} leads",
            round=r,
            trick=t,
            seat=got.leader,
        )
    if got.plays != trick.plays:
        said = " ".join(f"{s}:{_name(c)}" for s, c in got.plays)
        raise RecordError(
            "trick-plays",
            f"the record's trick is [{said}]; the actions play [{shown}] (seat:card)",
            round=r,
            trick=t,
        )
    bombed = trick.bombed
    if got.bombed != bombed:
        detail = (
            f"a Bomb is in [{shown}] (seat:card): nobody takes it, yet the record credits "
            f"seat {got.winner}"
            if bombed
            else f"the record calls [{shown}] (seat:card) bombed; there is no Bomb in it"
        )
        raise RecordError("trick-bombed", detail, round=r, trick=t)
    if got.winner != trick.winner:
        what = "leads next (the Bomb: nobody takes it)" if bombed else "wins"
        raise RecordError(
            "trick-winner",
            f"the record says seat {got.winner}; seat {trick.winner} {what} "
            f"[{shown}] (seat:card, each as it counted)",
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


def _name(card: int | None) -> str:
    """``13S``, ``W52``, ``DRG``: Wizards and Jesters with their id, as four of each."""
    if card is None:
        return "no card"
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


def _does(action: PlayerAction) -> str:
    """``plays 5C``, ``declares hearts``, ... for a message."""
    if isinstance(action, Play):
        return f"plays {_name(action.card)}"
    if isinstance(action, Bid):
        return f"bids {action.bid}"
    if isinstance(action, ChooseTrump):
        return f"names {action.suit.label} trump"
    if isinstance(action, NameTrump):
        return "names " + ("no trump" if action.suit is None else f"{action.suit.label} trump")
    if isinstance(action, Declare):
        try:
            return f"declares {Declaration(action.choice).name.lower()}"
        except ValueError:
            return f"declares {action.choice!r}"
    if isinstance(action, AdjustBid):
        return f"changes its bid to {action.bid}"
    if isinstance(action, PassCard):
        return f"passes {_name(action.card)}"
    if action.give is None and action.take is None:
        return "keeps its hand (Witch)"
    give = None if action.give is None else _name(action.give)
    take = None if action.take is None else _name(action.take)
    return f"swaps {give} for {take} (Witch)"


def _why_not(action: PlayerAction, game: Game, turned: int) -> str:
    """Why the moment asks for no such action, or what it asks for, where a reader would
    wonder."""
    if game.phase is Phase.DECLARE and game.trick:
        card = game.trick[-1][1]
        copied = f", which copies {_name(turned)}" if card == Special.VAMPIRE else ""
        return f" (it played {_name(card)}{copied})"
    if not isinstance(action, Declare):
        return ""
    trick = game.trick
    if not trick:
        return ""
    seat, card = trick[-1]
    if seat == action.seat and card == Special.VAMPIRE:
        return f" (the Vampire copies {_name(turned)}, which asks for no declaration)"
    if seat == action.seat:
        return f" ({_name(card)} asks for no declaration)"
    return ""


def check_private_moves(
    rnd: RecordedRound,
    r: int,
    turned: int,
    opens: Sequence[tuple[int, int]],
    shows: Sequence[tuple[int, int]],
    gifts: Sequence[tuple[int, int, int, int]],
    blame: str,
) -> None:
    """A privately dealt special round (docs/private-deal.md section 16, "Who held what"):
    its transcript's messages are the moves its actions make. ``opens``: (seat, card) of
    every ``open``, ``open_gift`` and unveil, in order; ``shows``: (seat, card) of every
    ``show`` and ``show_gift``, in order; ``gifts``: (pass, giver, recipient, card) of
    every verified gift. Every play is an open, but of a face-up card a seat took (the
    turned card the Werewolf's holder took, a card a Witch took from the trick), which
    needs none; every show is a Werewolf put face up or a card a Witch gave into the trick,
    but a face-up card it took; every gift is a ``pass_card``, to the giver's left. The
    replay (``verify_special_round``) checks that each was a card its seat held."""
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
        shown = "nothing" if got is None else f"seat {got[0]} {_name(got[1])}"
        said = "nothing" if want is None else f"seat {want[0]} {_name(want[1])}"
        raise RecordError(
            "open-mismatch",
            f"opened play {i + 1} of the round: the transcript opens {shown}, the record's "
            f"actions play {said} (a face-up card taken into a hand is played unopened)" + blame,
            round=r,
            trick=t,
            seat=None if want is None else want[0],
            culprit=RELAY,
        )
    if list(shows) != want_shows:
        raise RecordError(
            "shown-mismatch",
            f"the transcript shows {_pairs(shows)}; the record's actions put face up "
            f"{_pairs(want_shows)} (the Werewolf, cards a Witch gave into a trick)" + blame,
            round=r,
            culprit=RELAY,
        )
    if sorted(gifts) != sorted(want_gifts):
        raise RecordError(
            "pass-mismatch",
            f"the transcript's gifts are [{_gifts(gifts)}]; the record's passes are "
            f"[{_gifts(want_gifts)}]" + blame,
            round=r,
            culprit=RELAY,
        )


def _gifts(gifts: Sequence[tuple[int, int, int, int]]) -> str:
    return ", ".join(f"pass {m}: {g}->{to} {_name(c)}" for m, g, to, c in sorted(gifts))


def _pairs(pairs: Sequence[tuple[int, int]]) -> str:
    return "[" + " ".join(f"{s}:{_name(c)}" for s, c in pairs) + "]"
