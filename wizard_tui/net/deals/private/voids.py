"""A voided attempt as this seat judges and records it (``docs/private-deal.md`` section 10).

Pure functions over one attempt (``ClientDeal``), the host's word about its void
(``VoidReport``) and the last view of it: the trump choice and bids it saw, this seat's own
verdict once every key is in (a failed check, a revoke the real deck shows, or clean), and
the attempt in the record's form. The seat half (``seat.py``) calls them and keeps the state.
"""

from __future__ import annotations

from netplay.mental import RoundFailed, RoundVerified

from ....game import (
    Bid,
    ChooseTrump,
    Game,
    Play,
    SeatView,
    actions_to_wire,
    is_wizard,
    left_of,
)
from ....game.hidden import Revoke, replay_round
from ....record import PrivateDealRecord, Redeal
from .client_deal import ClientDeal, VoidReport

CLEAN = "clean"  # our verdict: every key in, the attempt honest


def trump_and_bids(view: SeatView, trump_card: int | None) -> list[ChooseTrump | Bid | Play]:
    """An attempt's trump choice (a Wizard turned up) and the bids made, in the order they
    were made, from the last view of it."""
    actions: list[ChooseTrump | Bid | Play] = []
    dealer, n = view.dealer, view.players
    if trump_card is not None and is_wizard(trump_card) and view.trump_suit is not None:
        actions.append(ChooseTrump(dealer, view.trump_suit))
    for i in range(n):
        seat = left_of(dealer + i, n)
        bid = view.bids[seat]
        if bid is not None:
            actions.append(Bid(seat, bid))
    return actions


def attempt_actions(
    view: SeatView | None, trump_card: int | None
) -> tuple[tuple[str, int, int], ...]:
    """The trump choice and bids of an attempt, as the record's ``actions``."""
    if view is None:
        return ()
    return tuple(tuple(a) for a in actions_to_wire(trump_and_bids(view, trump_card)))


def our_verdict(
    deal: ClientDeal, replica: Game | None, view: SeatView | None
) -> tuple[str, int | None] | None:
    """Our own code and culprit for a voided attempt (None until there is one): what our
    checks found, else a revoke its real deck shows (``replica``: the game before the
    round), else ``CLEAN``."""
    verdict = deal.verdict
    if deal.fault is not None:
        return deal.fault.code, deal.fault.culprit
    if isinstance(verdict, RoundFailed):
        return verdict.fault.code, verdict.fault.culprit
    if isinstance(verdict, RoundVerified):
        revoke = _find_revoke(deal, verdict, replica, view)
        return (revoke.code, revoke.seat) if revoke is not None else (CLEAN, None)
    return None


def _find_revoke(
    deal: ClientDeal, verdict: RoundVerified, replica: Game | None, view: SeatView | None
) -> Revoke | None:
    """Replay the voided attempt as we saw it, with its real deck."""
    if replica is None or view is None or replica.round != deal.round - 1:
        return None
    if replica.config.rules.specials:
        # The view keeps no declaration or Cloud's change of the attempt in order: no
        # replay of ours could tell a revoke from a missing action, so we blame nobody.
        return None
    actions = trump_and_bids(view, deal.trump_card)
    actions.extend(Play(seat, card) for seat, card in deal.plays())
    deck = deal.deck_of(verdict)
    try:
        replay_round(replica, deck, actions)
    except Revoke as revoke:
        return revoke
    except Exception:  # an unfinished round, or a view we cannot use: no finding
        return None
    return None


def void_record(deal: ClientDeal, report: VoidReport) -> Redeal:
    """The attempt for this seat's own record: its own transcript, and the fault and culprit
    its envelopes prove (else the host's code and nobody blamed)."""
    verdict = deal.verdict
    fault, culprit, evidence = report.code, None, None
    if isinstance(verdict, RoundFailed):
        fault, culprit = verdict.fault.code, verdict.fault.culprit
        evidence = verdict.fault.evidence
    elif report.evidence is not None and deal.fault is not None:
        fault, culprit, evidence = deal.fault.code, deal.fault.culprit, report.evidence
    elif (
        isinstance(verdict, RoundVerified)
        and report.culprit is not None
        and (report.our_code, report.our_culprit) == (report.code, report.culprit)
    ):
        culprit = report.culprit  # a revoke: the replay of the attempt shows it
    return Redeal(
        deal.round,
        deal.attempt,
        report.reason,
        private_deal=PrivateDealRecord(deal.setup, tuple(deal.transcript)),
        fault=fault,
        culprit=culprit,
        evidence=evidence,
        actions=report.actions,
    )


__all__ = ["CLEAN", "attempt_actions", "our_verdict", "trump_and_bids", "void_record"]
