"""A seat's check that a privately dealt special round's deal messages are the moves its
actions make (docs/private-deal.md section 16, "Who held what"): the same check
``wizard-tui verify`` runs on a record (``verify_special.check_private_moves``), on what
this seat saw."""

from __future__ import annotations

from collections.abc import Sequence

from netplay.mental import DealSetup, RoundVerified
from netplay.mental.protocol import played_items, shown_items
from netplay.signing import Envelope

from ....game import RoundResult
from ....i18n import N_
from ....phrase import Phrase, phrase
from ....record import RecordError
from ....record.recorder import recorded_round
from ....verify_special import check_private_moves


def moves_problem(
    setup: DealSetup,
    transcript: Sequence[Envelope],
    verdict: RoundVerified,
    cards: Sequence[int],
    result: RoundResult,
) -> Phrase | None:
    """Why the round's opens, shows and gifts are not the moves of ``result``'s actions
    (None: they are)."""
    opens = [(seat, cards[item]) for seat, item in played_items(setup, transcript)]
    shows = [(seat, cards[item]) for seat, item in shown_items(transcript)]
    gifts = [(g.pass_index, g.giver, g.recipient, cards[g.item]) for g in verdict.gifts]
    rnd = recorded_round(result, (), ())
    assert result.turned_card is not None  # (a special round always turns a card up)
    try:
        check_private_moves(rnd, result.round, result.turned_card, opens, shows, gifts)
    except RecordError as error:
        return error.said if error.said is not None else phrase(N_("{detail}"), detail=str(error))
    return None


__all__ = ["moves_problem"]
