"""Wizard's special cards under the private deal: which deal messages each action makes, and
the round's passes read back from its verified gifts (docs/private-deal.md section 16,
"Wizard's messages" and "Who held what").

``SpecialMoves`` follows a round's actions on an in-process ``PrivateRound`` (every seat's
deal player in one process, as ``simulate`` and the tests run them): the Werewolf's holder
shows the Werewolf when it names trump and takes the turned card into its hand; a play opens
its card (a gift's ``open_gift``, nothing for a face-up card taken); the Witch's player shows
the card it gives into the trick and takes the trick card; a Juggler's pass is one gift per
seat to its left neighbour, sent once every seat has chosen, each card learned by its
receiver alone. ``gift_passes`` turns a verified round's gifts into the cards of each pass,
what ``HiddenSpecialGame.finish_round`` replays.
"""

from __future__ import annotations

from collections.abc import Sequence

from netplay.mental import DealPlayer, Gift
from netplay.mental.protocol import Event
from netplay.mental.protocol import Phase as DealPhase

from .game import left_of
from .game.actions import NameTrump, PassCard, Play, SwapCard
from .game.codec import PlayerAction
from .game.specials import Special
from .private_deal import PrivateRound


class SpecialMoves:
    """The deal messages of one special round's actions, on ``deal`` (dealt already)."""

    def __init__(self, deal: PrivateRound, turned_card: int) -> None:
        self.deal = deal
        self.turned_card = turned_card
        self._passing: dict[int, int] = {}  # the pass being chosen: seat -> card

    def follow(self, action: PlayerAction) -> tuple[int, ...] | None:
        """Send what ``action`` (accepted by the engine) makes the deal send. Returns, when
        it completes a Juggler's pass, the card each seat received (its own player's
        unsealing), else None."""
        deal, seat = self.deal, action.seat
        if type(action) is NameTrump:  # the Werewolf's holder: it shows it, takes the card
            deal.show(seat, int(Special.WEREWOLF))
            deal.take_public(seat, self.turned_card)
        elif type(action) is Play:
            deal.play(seat, action.card)
        elif type(action) is SwapCard and action.give is not None and action.take is not None:
            deal.show(seat, action.give)  # into the trick, face up
            deal.take_public(seat, action.take)  # from the trick: everyone saw it
        elif type(action) is PassCard:
            self._passing[seat] = action.card
            if len(self._passing) == deal.setup.seats:
                passed = [self._passing[s] for s in range(deal.setup.seats)]
                self._passing = {}
                return deal.pass_cards(passed)
        return None


def werewolf_opening(player: DealPlayer, cards: Sequence[int]) -> list[Event]:
    """At a table with the Werewolf, what a seat sends as soon as its hand is open
    (docs/private-deal.md section 16, "Wizard's messages"): the ``show`` of the Werewolf if
    it was dealt it, then its ``inbox``, so that every seat sends the same, and nobody
    learns from a wait who holds it. Nothing before the hand is open, nor a second time.
    ``cards[item]`` is the card of an item."""
    view, seat = player.view, player.seat
    if player.hand is None or view.phase is not DealPhase.PLAY or seat in view.inboxes:
        return []
    events: list[Event] = []
    werewolf = int(Special.WEREWOLF)
    for position in player.setup.positions_of(seat):
        item = player.hand.get(position)
        if item is not None and cards[item] == werewolf and position not in view.shows:
            events += player.show(position, item)
    return events + player.send_inbox()


def face_up_held(actions: Sequence[PlayerAction], seat: int, turned: int | None) -> set[int]:
    """The face-up cards ``seat`` holds after a round's ``actions`` (in order): the turned
    card its Werewolf took, the cards it took from a Witch's trick, less those it played,
    gave back into a trick or passed on. Everyone saw them: playing or giving one needs no
    deal message (docs/private-deal.md section 16, "Wizard's messages")."""
    held: dict[int, set[int]] = {}
    for action in actions:
        _follow_face_up(held, action, turned)
    return held.get(seat, set())


def opened_plays(actions: Sequence[PlayerAction], turned: int | None) -> list[tuple[int, int]]:
    """(seat, card) of every play of a round's ``actions`` that opens a card (an ``open``,
    an ``open_gift``): all but those of a face-up card its seat took (``face_up_held``)."""
    held: dict[int, set[int]] = {}
    plays: list[tuple[int, int]] = []
    for action in actions:
        if not _follow_face_up(held, action, turned) and type(action) is Play:
            plays.append((action.seat, action.card))
    return plays


def _follow_face_up(held: dict[int, set[int]], action: PlayerAction, turned: int | None) -> bool:
    """Follow ``action`` on ``held`` (seat -> its face-up cards); True if it plays or gives
    one of them (a move with no deal message)."""
    mine = held.setdefault(action.seat, set())
    if type(action) is NameTrump and turned is not None:
        mine.add(turned)
    elif type(action) is Play or type(action) is PassCard:
        if action.card in mine:
            mine.discard(action.card)
            return type(action) is Play  # (a passed one is a gift: its own messages)
    elif type(action) is SwapCard and action.give is not None and action.take is not None:
        face_up = action.give in mine
        mine.discard(action.give)
        mine.add(action.take)
        return face_up
    return False


def gift_passes(gifts: Sequence[Gift], cards: Sequence[int], players: int) -> list[tuple[int, ...]]:
    """The cards of every pass of a round, ``passes[m][seat]`` the card ``seat`` passed at
    pass ``m``, from its verified ``gifts`` (items; ``cards[item]`` is the card).
    ``ValueError`` unless every pass has one gift from every seat to its left neighbour
    (a gift otherwise is its giver's deviation: ``culprit_of_gifts`` names it)."""
    if (culprit := culprit_of_gifts(gifts, players)) is not None:
        raise ValueError(f"seat {culprit}'s gifts are not a pass to its left")
    count = len(gifts) // players
    passes = [[-1] * players for _ in range(count)]
    for gift in gifts:
        passes[gift.pass_index][gift.giver] = cards[gift.item]
    return [tuple(p) for p in passes]


def culprit_of_gifts(gifts: Sequence[Gift], players: int) -> int | None:
    """The first giver whose gift is not one of a pass (each seat once per pass, to its left
    neighbour, passes numbered from 0 and each complete), or None if all are."""
    seen: set[tuple[int, int]] = set()
    for gift in gifts:
        if gift.recipient != left_of(gift.giver, players) or (gift.pass_index, gift.giver) in seen:
            return gift.giver
        seen.add((gift.pass_index, gift.giver))
    passes = {m for m, _ in seen}
    if passes != set(range(len(passes))):
        return min(g for m, g in seen if m >= len(passes))
    for m in passes:
        missing = [s for s in range(players) if (m, s) not in seen]
        if missing:
            return missing[0]  # a seat that did not give: the pass never completed
    return None


__all__ = [
    "SpecialMoves",
    "culprit_of_gifts",
    "face_up_held",
    "gift_passes",
    "opened_plays",
    "werewolf_opening",
]
