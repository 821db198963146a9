"""The host's side of a Juggler's pass under the private deal (docs/private-deal.md
section 16, "Wizard's messages"; docs/protocol.md). Sans I/O: what ``PrivateDealing`` asks.

The card passed never reaches the host: a seat's pass is its ``give`` (a deal message), and
the host's game is told only that the seat passed (``PassCard(seat, HIDDEN_CARD)``), when
the relay accepts that give. The pass needs every seat's ``inbox`` before a give can be
sealed, and every giver's ``unlock`` once every give is in, before its cards are known to
their recipients: until both are in, the table waits (no turn is asked, no play taken), and
each is a deal step the host times like a release.

At the round's end the verified gifts are the passes' cards (``gift_passes``) the game
replays; a gift that is not one of a pass is its giver's deviation (``culprit_of_gifts``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from netplay.mental import RoundVerified

from ....game import Phase
from ....game.actions import PassCard
from ....game.codec import PlayerAction
from ....game.hidden_special import HiddenSpecialGame
from ....private_special import culprit_of_gifts, gift_passes
from ...private_relay import HostDeal
from .gifts import left, unlocks_owed


def pass_waits(deal: HostDeal, game: HiddenSpecialGame) -> bool:
    """The table waits for a pass's deal steps: the inboxes (in the phase ``pass``), or
    the unlocks of a pass whose every give is in."""
    view, seats = deal.relay.view, deal.setup.seats
    if unlocks_owed(view, seats):
        return True
    return game.phase is Phase.PASS and len(view.inboxes) < seats


def owed_pass_steps(deal: HostDeal, game: HiddenSpecialGame) -> dict[int, str]:
    """Seat -> the pass's deal step it owes now: its ``unlock``, or its ``inbox``."""
    view, seats = deal.relay.view, deal.setup.seats
    owed = {s: "unlock" for s in unlocks_owed(view, seats)}
    if owed or game.phase is not Phase.PASS:
        return owed
    return {s: "inbox" for s in range(seats) if s not in view.inboxes}


def give_refusal(
    deal: HostDeal, game: HiddenSpecialGame, seat: int, body: dict[str, Any]
) -> str | None:
    """Why the host does not relay ``seat``'s give ``body`` now (None: it does). A pass is
    given in turn, to the left neighbour, in the pass under way, once the recipient's inbox
    is in and the pass before is unlocked (the seat's program waits for both: a refused
    give would spend its sequence number)."""
    seats = deal.setup.seats
    if game.phase is not Phase.PASS:
        return "no card is being passed now"
    if game.turn != seat:
        return "it is not your turn to pass a card"
    if body.get("to") != left(seat, seats):
        return "a Juggler's pass goes to your left neighbour"
    if body.get("pass") != game.passes_made():
        return f"this is pass {game.passes_made()} of the round"
    view = deal.relay.view
    if unlocks_owed(view, seats):
        return "the pass before is not unlocked yet"
    if left(seat, seats) not in view.inboxes:
        return "your neighbour's inbox is not in yet"
    return None


def void_actions(
    actions: Sequence[PlayerAction], verdict: object, cards: Sequence[int], seats: int
) -> list[PlayerAction]:
    """A voided attempt's actions for the record: each pass with its card when the
    round's reveals verified its gifts (the replay that names a seat needs them), else
    without its passes (their cards are the deal's secret: the transcript holds the
    gives)."""
    if not any(type(a) is PassCard for a in actions):
        return list(actions)
    count = sum(1 for a in actions if type(a) is PassCard)
    if isinstance(verdict, RoundVerified) and count % seats == 0:
        passes, culprit = pass_cards(verdict, cards, seats)
        if culprit is None and len(passes) * seats == count:
            out: list[PlayerAction] = []
            done = 0
            for action in actions:
                if type(action) is PassCard:
                    action = PassCard(action.seat, passes[done // seats][action.seat])
                    done += 1
                out.append(action)
            return out
    return [a for a in actions if type(a) is not PassCard]


def pass_cards(
    verdict: RoundVerified, cards: Sequence[int], seats: int
) -> tuple[list[tuple[int, ...]], int | None]:
    """The cards of the round's passes from its verified gifts, and the seat whose gifts
    are not a pass to its left (None: they are; the passes are then the game's)."""
    culprit = culprit_of_gifts(verdict.gifts, seats)
    if culprit is not None:
        return [], culprit
    return gift_passes(verdict.gifts, cards, seats), None


__all__ = ["give_refusal", "owed_pass_steps", "pass_cards", "pass_waits", "void_actions"]
