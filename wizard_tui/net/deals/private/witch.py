"""The Witch's swap under the private deal, the host's check (docs/private-deal.md section 16,
"Wizard's messages"; docs/protocol.md, "A privately dealt round").

The ``swap`` intent is public: both cards. The card given into the trick comes with the
deal message that shows it: a ``show`` of its dealt position, a ``show_gift`` of a card
passed to the seat, or nothing for a face-up card the seat took (the Werewolf's turned card,
a card an earlier swap took). The card taken is public: its later play needs no deal
message. ``swap_refusal`` says why an intent's envelope does not fit its ``give``, before the
relay sees it (a show cannot be taken back); the relay then checks the show itself (that the
position is the sender's, unopened, and holds the item it claims).
"""

from __future__ import annotations

from collections.abc import Sequence

from netplay.errors import ProtocolError
from netplay.mental.protocol import decode_body
from netplay.signing import Envelope

from ....game.codec import PlayerAction
from ....private_special import face_up_held
from ...private_relay import HostDeal

SHOWS = ("show", "show_gift")  # the deal messages that open a card given into a trick


def needs_show(actions: Sequence[PlayerAction], seat: int, give: int, turned: int | None) -> bool:
    """Whether ``seat``'s giving ``give`` into the trick must show it (it is not a face-up
    card the seat took, after the round's ``actions``)."""
    return give not in face_up_held(actions, seat, turned)


def swap_refusal(
    deal: HostDeal,
    actions: Sequence[PlayerAction],
    seat: int,
    give: int | None,
    envelope: Envelope | None,
) -> str | None:
    """Why ``seat``'s swap giving ``give`` (None: it keeps its hand) cannot carry
    ``envelope``, or None if it may go to the relay. Signed bytes that do not decode go to
    the relay, which names their sender."""
    if give is None:
        return None if envelope is None else "a kept hand shows no card"
    if not needs_show(actions, seat, give, deal.trump_card):
        if envelope is not None:
            return "a face-up card you took is given without a show"
        return None
    if envelope is None:
        return "a swap of a private deal carries the show of the card given"
    try:
        body = decode_body(envelope.body)
    except ProtocolError:
        return None
    if body["t"] not in SHOWS or body["item"] != deal.item_of(give):
        return "the show is not the card given"
    return None


__all__ = ["SHOWS", "needs_show", "swap_refusal"]
