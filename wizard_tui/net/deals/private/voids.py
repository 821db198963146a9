"""A voided attempt as this seat judges and records it (``docs/private-deal.md`` section 10).

Pure functions over one attempt (``ClientDeal``), the host's word about its void
(``VoidReport``) and the last view of it: the trump choice and bids it saw, this seat's own
verdict once every key is in (a failed check, a revoke the real deck shows, or clean), and
the attempt in the record's form. The seat half (``seat.py``) calls them and keeps the state.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from netplay.mental import RoundFailed, RoundVerified

from ....game import (
    AdjustBid,
    Bid,
    BidAdjusted,
    BidMade,
    CardPlayed,
    CardsPassed,
    CardSwapped,
    ChooseTrump,
    Declare,
    Declared,
    Event,
    Game,
    NameTrump,
    PassCard,
    Play,
    PlayerAction,
    SeatView,
    SwapCard,
    TrickBombed,
    TrickWon,
    TrumpChosen,
    TrumpNamed,
    actions_to_wire,
    is_wizard,
    left_of,
)
from ....game.hidden import Revoke, replay_round
from ....game.hidden_special import check_werewolf_shown
from ....record import PrivateDealRecord, Redeal, RedealAction, redeal_action
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


@dataclass(frozen=True)
class Passed:
    """A Juggler's pass in an attempt's public moves: every seat passed a card, from
    ``first`` (who leads the next trick) to its left; which cards, the gifts tell once every
    key is in."""

    first: int


# What the host's events say a seat did, in order: at a table with special cards every
# action of an attempt (a pass as one ``Passed``).
PublicMove = PlayerAction | Passed


@dataclass
class FollowedMoves:
    """The public moves of one attempt as this seat followed them, event by event, from its
    first state on (``complete`` false once a state was missed: a reconnect's snapshot
    shows none of the events before it)."""

    round: int
    attempt: int
    hand_size: int  # the round's cards per seat
    moves: list[PublicMove] = field(default_factory=list)
    complete: bool = True
    _leader: int = -1  # who leads the next trick: the last trick's winner
    _bids: dict[int, int] = field(default_factory=dict)  # each seat's bid now

    def follow(self, events: Iterable[Event | object]) -> None:
        for event in events:
            move = self._move(event)
            if move is not None:
                self.moves.append(move)

    def _move(self, e: object) -> PublicMove | None:
        if isinstance(e, TrickWon):
            self._leader = e.winner
        elif isinstance(e, TrickBombed):
            self._leader = e.leader
        elif isinstance(e, TrumpChosen):
            return ChooseTrump(e.seat, e.suit)
        elif isinstance(e, TrumpNamed):
            return NameTrump(e.seat, e.suit)
        elif isinstance(e, BidMade):
            self._bids[e.seat] = e.bid
            return Bid(e.seat, e.bid)
        elif isinstance(e, CardPlayed):
            return Play(e.seat, e.card)
        elif isinstance(e, Declared):
            return Declare(e.seat, e.choice)
        elif isinstance(e, BidAdjusted):
            # A bid of 0 or of every card can change one way only: the engine changes it
            # itself, with no action.
            before = self._bids.get(e.seat)
            self._bids[e.seat] = e.bid
            if before in (0, self.hand_size):
                return None
            return AdjustBid(e.seat, e.bid)
        elif isinstance(e, CardsPassed):
            return Passed(self._leader)
        elif isinstance(e, CardSwapped):
            return SwapCard(e.seat, e.give, e.take)
        return None


def resolved_moves(
    moves: Sequence[PublicMove], gifts: dict[tuple[int, int], int], players: int
) -> list[PlayerAction] | None:
    """The attempt's actions, each pass's card put in (``gifts``: (pass, giver) -> card);
    None if a pass lacks a gift."""
    actions: list[PlayerAction] = []
    index = 0
    for move in moves:
        if not isinstance(move, Passed):
            actions.append(move)
            continue
        seat = move.first
        for _ in range(players):
            card = gifts.get((index, seat))
            if card is None:
                return None
            actions.append(PassCard(seat, card))
            seat = left_of(seat, players)
        index += 1
    return actions


def attempt_actions(view: SeatView | None, trump_card: int | None) -> tuple[RedealAction, ...]:
    """The trump choice and bids of an attempt, as the record's ``actions``."""
    if view is None:
        return ()
    return tuple(redeal_action(*a) for a in actions_to_wire(trump_and_bids(view, trump_card)))


def our_verdict(
    deal: ClientDeal,
    replica: Game | None,
    view: SeatView | None,
    followed: FollowedMoves | None = None,
) -> tuple[str, int | None] | None:
    """Our own code and culprit for a voided attempt (None until there is one): what our
    checks found, else a revoke its real deck shows (``replica``: the game before the
    round; ``followed``: the attempt's moves at a table with special cards), else
    ``CLEAN``."""
    verdict = deal.verdict
    if deal.fault is not None:
        return deal.fault.code, deal.fault.culprit
    if isinstance(verdict, RoundFailed):
        return verdict.fault.code, verdict.fault.culprit
    if isinstance(verdict, RoundVerified):
        revoke = _find_revoke(deal, verdict, replica, view, followed)
        return (revoke.code, revoke.seat) if revoke is not None else (CLEAN, None)
    return None


def special_actions(
    deal: ClientDeal, verdict: RoundVerified, followed: FollowedMoves | None
) -> list[PlayerAction] | None:
    """Every action of a voided attempt at a table with special cards, its passes' cards
    from the verdict's gifts: from the moves we followed, if we followed all of them."""
    if followed is None or not followed.complete:
        return None
    if (followed.round, followed.attempt) != (deal.round, deal.attempt):
        return None
    gifts = {(g.pass_index, g.giver): deal.cards[g.item] for g in verdict.gifts}
    actions = resolved_moves(followed.moves, gifts, deal.setup.seats)
    if actions is None or sum(type(a) is Bid for a in actions) != deal.setup.seats:
        return None  # (the attempt was voided before every bid: trump and bids say it all)
    return actions


def _find_revoke(
    deal: ClientDeal,
    verdict: RoundVerified,
    replica: Game | None,
    view: SeatView | None,
    followed: FollowedMoves | None,
) -> Revoke | None:
    """Replay the voided attempt as we saw it, with its real deck."""
    if replica is None or view is None or replica.round != deal.round - 1:
        return None
    deck = deal.deck_of(verdict)
    if replica.config.rules.specials:
        # The host's replay at the round's end (``HiddenSpecialGame.finish_round``), on
        # every action as its events told us (none if we missed some: a reconnect).
        special = special_actions(deal, verdict, followed)
        if special is None:
            return None
        try:
            check_werewolf_shown(replica, deck, special)
            replay_round(replica, deck, special)
        except Revoke as revoke:
            return revoke
        except Exception:  # an unfinished round: no finding
            return None
        return None
    actions = trump_and_bids(view, deal.trump_card)
    actions.extend(Play(seat, card) for seat, card in deal.plays())
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


__all__ = [
    "CLEAN",
    "FollowedMoves",
    "Passed",
    "PublicMove",
    "attempt_actions",
    "our_verdict",
    "resolved_moves",
    "special_actions",
    "trump_and_bids",
    "void_record",
]
