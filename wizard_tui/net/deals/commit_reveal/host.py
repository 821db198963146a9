"""The host half of the commit-reveal deal (docs/fairness.md).

Every remote seat draws a seed and sends only its commitment (the host draws the seeds of
the seats it deals for: its bots', and those a bot holds for a player who left). Once every
commitment is in the host publishes the vector; only then do the remote seats send their
seeds. The host checks each against its commitment, shuffles with the combined seed, and
hands the deck to the engine. Every step is a journal fact applied by ``apply``, the same
code whether the host accepted it now or a restored host replays it.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from netplay import Session
from netplay.commit_reveal import CommitRevealError, HostRound
from netplay.fairdeal import new_seed, shuffle_order

from ....game import (
    Deal,
    Event,
    Game,
    IllegalAction,
    Phase,
    Play,
    Reason,
    RoundScored,
    dealer_of,
    resolve_blind,
)
from ....game.codec import PlayerAction
from ....game.hidden import HiddenGame
from ....game.specials import deck_cards
from ....record import GameRecorder
from ... import protocol as p
from ...host_state import Table, queried
from ...journal_facts import (
    ActionTaken,
    CommitAccepted,
    CommitmentsPublished,
    Decider,
    Fact,
    GameHeader,
    Redealt,
    RoundBegan,
    RoundEnded,
    SeedAccepted,
)
from ..host_half import DealHostBase

log = logging.getLogger("wizard_tui.host")


@dataclass
class RoundDeal:
    """The commit-reveal state of the round being dealt or played."""

    exchange: HostRound
    commitments: list[bytes] | None = None  # published vector
    seeds: list[bytes] | None = None


def round_wire(result: Any, commitments: Sequence[bytes], seeds: Sequence[bytes]) -> dict[str, Any]:
    """A finished round as the host publishes it: the seeds, and the commitments they open
    (a client that was away during the round checks them with those)."""
    wire = p.result_wire(result, list(seeds))
    wire["commitments"] = list(commitments)
    return wire


class CommitRevealHost(DealHostBase):
    """The commit-reveal deal at the host; see the module docstring."""

    name: ClassVar[str] = "commit-reveal"
    messages: ClassVar[frozenset[str]] = frozenset({"commit", "seed"})
    host_decides_for_away: ClassVar[bool] = True

    def __init__(self) -> None:
        super().__init__()
        self.deal: RoundDeal | None = None  # the round being dealt or played
        self.game_id = b""

    # -- a game ------------------------------------------------------------------------------

    def begin(self, header: GameHeader) -> tuple[Game | HiddenGame, GameRecorder]:
        self.deal, self.game_id = None, header.game_id
        recorder = GameRecorder(header.game_id, header.players, header.config)
        return Game(header.config), recorder

    def wrong_deal(self, t: str) -> str:
        return f"this host deals by commit-reveal: no {t} is asked"

    # -- the facts: applied live and when replaying a journal ------------------------------

    def apply(self, table: Table, fact: Fact) -> list[Event]:
        game = table.game
        deal = self.deal
        if isinstance(fact, RoundBegan):
            r = fact.round
            if game.phase is not Phase.DEAL or r != game.round + 1:
                raise ValueError(f"round {r} begins while round {game.round} is {game.phase}")
            local = dict(fact.local)
            self.deal = RoundDeal(HostRound(table.game_id, r, game.players, local))
            return []
        if isinstance(fact, ActionTaken):
            return self._apply_action(table, fact)
        if isinstance(fact, RoundEnded):
            if len(game.results) != fact.round or list(game.totals) != list(fact.totals):
                raise ValueError(f"round {fact.round} ended differently")
            return []
        if not isinstance(fact, CommitAccepted | CommitmentsPublished | SeedAccepted | Redealt):
            raise ValueError(f"a {fact.t} entry in a commit-reveal game")
        if deal is None or deal.exchange.round != fact.round:
            raise ValueError(f"no deal of round {fact.round} is in progress")
        if isinstance(fact, CommitAccepted):
            deal.exchange.add_commitment(fact.seat, fact.commitment)
            return []
        if isinstance(fact, CommitmentsPublished):
            published = deal.exchange.publish_commitments()
            if published != list(fact.commitments):
                raise ValueError("the published commitments differ from the ones received")
            deal.commitments = published
            return self._deal_if_complete(table)
        if isinstance(fact, SeedAccepted):
            deal.exchange.add_seed(fact.seat, fact.seed)
            return self._deal_if_complete(table)
        if deal.seeds is not None:
            raise ValueError("a dealt round cannot be redealt")
        if fact.commitments is not None:
            table.recorder.add_redeal(
                fact.round, list(fact.commitments), list(fact.seeds or ()), fact.reason
            )
        self.deal = None
        return []

    def _deal_if_complete(self, table: Table) -> list[Event]:
        """Once the vector is out and the last seed is in: the deck, to the engine."""
        deal = self.deal
        assert deal is not None
        exchange = deal.exchange
        if deal.commitments is None or deal.seeds is not None or exchange.missing_seeds():
            return []
        deal.seeds = exchange.seeds()
        # The shuffle of the table's N cards (the 60, then its special cards: deck_cards),
        # each position of the order standing for that card (docs/fairness.md).
        cards = deck_cards(table.game.config.rules.specials)
        deck = tuple(cards[i] for i in shuffle_order(exchange.combined_seed(), len(cards)))
        return table.game.apply(Deal(deck))

    def _apply_action(self, table: Table, fact: ActionTaken) -> list[Event]:
        deal = self.deal
        game = table.game
        if deal is None or deal.seeds is None or fact.round != game.round:
            raise ValueError(f"an action of round {fact.round} outside its round")
        events = queried(game).apply(fact.action)
        for event in events:
            if isinstance(event, RoundScored):
                result = game.results[-1]
                assert deal.commitments is not None
                table.recorder.add_round(result, deal.commitments, deal.seeds)
                table.history_wire.append(round_wire(result, deal.commitments, deal.seeds))
                self.deal = None
        return events

    # -- the live host -----------------------------------------------------------------------

    def start_round(self) -> None:
        port = self.port
        table = port.table
        assert table is not None
        game = table.game
        r = game.round + 1
        local = tuple((i, new_seed()) for i, s in enumerate(port.seats) if s and s.host_deals)
        self._record(RoundBegan(r, local))
        dealer = dealer_of(game.config.first_dealer, r, game.players)
        port.broadcast({"t": "round", "round": r, "dealer": dealer})
        self._advance()

    def between_rounds(self) -> None:
        self.start_round()

    def _advance(self) -> None:
        """Move the exchange on as far as the messages received allow."""
        deal = self.deal
        assert deal is not None
        if deal.commitments is None and deal.exchange.vector_ready:
            vector = tuple(deal.exchange.publish_commitments())
            events = self._record(CommitmentsPublished(deal.exchange.round, vector))
            self.port.broadcast(
                {"t": "commitments", "round": deal.exchange.round, "commitments": list(vector)}
            )
            if events:  # no remote seat: every seed was in already
                self.port.changed(events)

    def act(self, table: Table, action: PlayerAction, by: Decider) -> list[Event]:
        deal = self.deal
        if deal is None or deal.seeds is None:
            # Between rounds (the next one's seeds still coming, the engine waiting for its
            # deck): a move for the round just over, sent twice or by a table a moment
            # behind, is refused as any move out of its phase. As a fact it would belong to
            # no round (``_apply_action`` raised on it, inside the host's callback).
            raise IllegalAction(
                Reason.WRONG_PHASE, "cannot do that now: the next round has not been dealt"
            )
        if isinstance(action, Play):  # a blind play is journaled as the card it plays
            action = resolve_blind(queried(table.game), action)
        return self._record(ActionTaken(table.game.round, action, by))

    def on_message(self, session: Session, msg: dict[str, Any]) -> None:
        deal = self._current(session, msg)
        if deal is None:
            return
        seat = session.seat
        assert seat is not None
        # (The inbound schema checked the message's form, ``_current`` its round; the
        # exchange checks the rest as it applies the fact, before it is journaled.)
        try:
            if msg["t"] == "commit":
                self._record(CommitAccepted(deal.exchange.round, seat, msg["commitment"]))
                self._advance()
                return
            events = self._record(SeedAccepted(deal.exchange.round, seat, msg["seed"]))
        except CommitRevealError as exc:
            self.port.refuse(session, exc.code, exc.message)
            return
        if events:  # the last seed: the round is dealt
            self.port.changed(events)

    def _current(self, session: Session, msg: dict[str, Any]) -> RoundDeal | None:
        port = self.port
        table = port.table
        if table is None or self.deal is None or table.finished:
            port.refuse(session, p.NOT_READY, "no deal is in progress")
            return None
        if session.seat is None:
            port.refuse(session, p.NOT_SEATED, "you do not hold a seat")
            return None
        if msg["round"] != self.deal.exchange.round:
            port.refuse(session, p.STALE_ROUND, f"round {msg['round']} is not being dealt")
            return None
        return self.deal

    def round_scored(self) -> None:
        port = self.port
        table = port.table
        assert table is not None
        result = table.game.results[-1]
        port.journal_fact(RoundEnded(result.round, tuple(result.totals)))
        port.broadcast({"t": "round_end", "result": table.history_wire[-1]})
        port.write_record()

    def snapshot_deal(self, seat: int | None) -> dict[str, Any] | None:
        deal = self.deal
        if deal is None:
            return None
        exchange = deal.exchange
        return {
            "round": exchange.round,
            "commitments": deal.commitments,
            "seed_received": seat is not None and seat not in exchange.missing_seeds(),
            "committed": seat is not None and seat not in exchange.missing_commitments(),
            # The host drew this seat's seed (a bot held the seat when it was dealt).
            "drawn": seat is not None and seat not in exchange.remote_seats,
        }

    # -- seats taken over (takeover.py) -------------------------------------------------------

    def seat_taken_over(self, seat: int) -> None:
        """A deal that waits for the seed of ``seat`` can never complete: it is thrown away,
        visibly, and the round dealt again with the host drawing the seat's seed."""
        port = self.port
        table = port.table
        deal = self.deal
        assert table is not None
        if deal is None or deal.seeds is not None:
            return
        exchange = deal.exchange
        if seat not in exchange.remote_seats or seat not in exchange.missing_seeds():
            return
        r = exchange.round
        holder = port.seats[seat]
        name = holder.name if holder is not None else "?"
        reason = f"seat {seat} ({name}) dropped before revealing its seed; a bot took it over"
        published = deal.commitments
        seeds = tuple(exchange.seeds_so_far()) if published is not None else None
        fact = Redealt(r, reason, None if published is None else tuple(published), seeds)
        self._record(fact)
        log.warning("round %d: %s; dealing again", r, reason)
        port.broadcast(fact.to_wire())
        port.announce(f"round {r} is dealt again: {reason}")
        self.start_round()

    # -- a restored host -------------------------------------------------------------------

    def resume(self) -> None:
        table = self.port.table
        assert table is not None
        if self.deal is None and table.game.phase is Phase.DEAL:
            self.start_round()
        elif self.deal is not None and self.deal.seeds is None:
            self._advance()


__all__ = ["CommitRevealHost", "RoundDeal", "round_wire"]
