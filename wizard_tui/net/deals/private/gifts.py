"""The Juggler's passes under the private deal, as one seat and the relay see them
(docs/private-deal.md section 16, "Gifts" and "Wizard's messages"). Sans I/O.

A pass is one ``give`` per seat to its left neighbour, sealed to the recipient's ``inbox``
key; once every give of the pass is in, every giver ``unlock``s it, and each recipient alone
unseals its card. The host's game knows only that a seat passed
(``PassCard(seat, HIDDEN_CARD)``); each seat puts its own hand together here: the cards it
was dealt, less those it played or gave, with the cards it received appended in the order
of the passes, as the engine holds them (``SpecialGame.held_cards``). The host's bots use
the same code with their own ``DealPlayer``.

What a seat gave is read back from its own give (its ephemeral key is derived from its
global key and the pass number), so a player rebuilt from the transcript after a
reconnect knows it as well as before.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from netplay.mental import DealPlayer, DealSetup, Verifier, moves
from netplay.mental.protocol import decode_body

from ....game import SeatView, left_of
from ....game.actions import PassCard
from ....game.codec import PlayerAction
from ....game.hidden_special import dealt_with_werewolf, view_with_held
from ....game.special_tricks import copied_card
from ....game.specials import Special


def passes_given(view: Verifier, seats: int) -> int:
    """How many passes of the round have every seat's give in (passes are numbered from 0
    and follow each other: pass ``m + 1`` starts once pass ``m`` is unlocked)."""
    m = 0
    while all((m, s) in view.gives for s in range(seats)):
        m += 1
    return m


def unlocks_owed(view: Verifier, seats: int) -> list[int]:
    """The seats that owe the unlock of a pass whose every give is in."""
    owed: list[int] = []
    for m in range(passes_given(view, seats)):
        owed += [s for s in range(seats) if (m, s) not in view.unlocks and s not in owed]
    return owed


def passing(view: Verifier, seats: int) -> bool:
    """A pass is under way in the deal: some give is in whose pass is not unlocked yet."""
    return any(m >= view.passes_moved for m, _ in view.gives)


def own_gives(player: DealPlayer) -> dict[int, int]:
    """Pass -> the item ``player`` gave in it, unsealed from its own give."""
    view, setup, seat = player.view, player.setup, player.seat
    out: dict[int, int] = {}
    for (m, giver), (to, _commit, sealed, _env) in view.gives.items():
        inbox = view.inboxes.get(to)
        if giver != seat or inbox is None:
            continue
        secret = moves.gift_secret(player.keys.global_key.e, m)
        pad = moves.pad(setup.context, m, seat, to, moves.shared_key(secret, inbox[0]))
        item = moves.unseal(sealed, pad, setup.items)
        if item is not None:
            out[m] = item
    return out


def gift_items(view: Verifier) -> dict[tuple[int, int], int]:
    """(pass, giver) -> item of every gift opened to everyone so far (played or shown)."""
    out: dict[tuple[int, int], int] = {}
    for key, (_seat, _k, _played, env) in view.gift_opens.items():
        out[key] = decode_body(env.body)["item"]
    return out


def all_opened(setup: DealSetup, view: Verifier) -> bool:
    """Every dealt card is open: each dealt position played or shown, or its card given
    away and then opened as a gift (a given position is never opened). A gift of a card
    that was face up already (the turned card a Werewolf's holder took) stands for no
    position. Time for the reveals."""
    dealt = sum(1 for k in range(setup.items) if setup.holder(k) is not None)
    face_up = set(view.opened.values())
    gifts = sum(1 for item in gift_items(view).values() if item not in face_up)
    return len(view.plays) + len(view.shows) + gifts == dealt


@dataclass(frozen=True)
class Holding:
    """A seat's cards, as far as its own deal knows: ``hand`` in the engine's order;
    ``gifts``: card -> (pass, giver) of each card held as a gift (its play is an
    ``open_gift``); ``gave``: the cards given away; ``last_pass``: (card passed, card
    received) at the latest finished pass; ``complete``: False while a gift to us of a
    finished pass is not unlocked yet (our hand is then not known)."""

    hand: tuple[int, ...]
    gifts: dict[int, tuple[int, int]]
    gave: frozenset[int]
    last_pass: tuple[int, int] | None
    complete: bool


def holding(
    player: DealPlayer, cards: Sequence[int], dealt: Sequence[int], view: SeatView
) -> Holding:
    """``player``'s cards at ``view``'s position, in the engine's order (``held_cards``):
    ``dealt`` (its dealt hand in deal order; the Werewolf's holder has the turned card in
    the Werewolf's place), then trick by trick: its plays leave the hand; after the trick
    each finished pass of the deal removes its card given and appends the card received;
    then each swap of its own puts the card it took in the given card's place."""
    seats, me = player.setup.seats, player.seat
    giver = (me - 1) % seats
    gave = own_gives(player)
    held = dealt_with_werewolf(view, dealt)
    gifts: dict[int, tuple[int, int]] = {}
    given: set[int] = set()
    last: tuple[int, int] | None = None
    complete = True
    finished = passes_given(player.view, seats)
    m = 0  # the next pass

    def leave(plays: Iterable[tuple[int, int]]) -> None:
        for seat, card in plays:
            if seat == me and card in held:
                held.remove(card)

    for t, trick in enumerate(view.tricks):
        leave(trick.plays)
        last_trick = t == view.hand_size - 1
        for _ in range(0 if last_trick else jugglers_in(trick.cards, view.turned_card)):
            if m >= finished:
                break
            item = gave.get(m)
            out = cards[item] if item is not None else None
            if out is not None and out in held:
                held.remove(out)
                gifts.pop(out, None)
                given.add(out)
            received = player.gifts.get((m, giver))
            m += 1
            if received is None:
                complete = False
                continue
            card = cards[received]
            held.append(card)
            gifts[card] = (m - 1, giver)
            given.discard(card)
            last = None if out is None else (out, card)
        for when, seat, give, take in view.swaps:
            if when == t and seat == me and give in held:
                held[held.index(give)] = take
                gifts.pop(give, None)
    leave(view.trick)
    hand = tuple(held)
    return Holding(
        hand, {c: g for c, g in gifts.items() if c in hand}, frozenset(given), last, complete
    )


def jugglers_in(trick: Iterable[int], turned: int | None) -> int:
    """The Juggler's passes a trick makes: one per Juggler in it, and per Vampire copying
    one (docs/rules.md, "After a trick"; none after the round's last trick)."""
    return sum(1 for card in trick if copied_card(card, turned) == Special.JUGGLER)


def view_with_holding(view: SeatView, held: Holding) -> SeatView:
    """``view`` with the seat's own cards: its hand, its legal cards (to play; to pass or
    to give into a Witch's trick: any card it holds), and its latest pass."""
    # (The hand is complete: no play or swap is applied to it again. A card the seat played
    # can be back in it: a Witch took it from the trick and passed it to the seat.)
    merged = view_with_held(view, held.hand)
    return replace(merged, last_pass=held.last_pass)


def passes_of(actions: Sequence[PlayerAction], players: int) -> list[tuple[int, ...]]:
    """The cards of a round's passes from its actions (every ``PassCard``'s card in):
    ``passes[m][seat]``, what ``HiddenSpecialGame.finish_round`` takes."""
    passes: list[list[int]] = []
    count = 0
    for action in actions:
        if type(action) is PassCard:
            if count % players == 0:
                passes.append([-1] * players)
            passes[-1][action.seat] = action.card
            count += 1
    return [tuple(p) for p in passes]


def left(seat: int, seats: int) -> int:
    """The recipient of ``seat``'s gifts: its left neighbour."""
    return left_of(seat, seats)


__all__ = [
    "Holding",
    "all_opened",
    "gift_items",
    "holding",
    "jugglers_in",
    "left",
    "own_gives",
    "passes_given",
    "passes_of",
    "passing",
    "unlocks_owed",
    "view_with_holding",
]
