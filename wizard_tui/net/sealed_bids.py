"""Hidden bids at the host: seals in, seals out, openings in, the bids applied together.

docs/rules.md "Hidden bids" says what is settled and why; docs/protocol.md "Hidden bids"
has the messages. In one round (one attempt of it, for the private deal):

1. every seat's program sends ``bid_seal`` (``bid_seal.py``: a hash of its bid and a fresh
   nonce). The host tells everyone who has sealed (``bid_sealed``), nothing else. The host's
   own bots and stand-ins seal too, their bid decided from a view that shows no other bid;
2. once every seal is in, the host publishes them all (``bid_seals``); only then does each
   program open its own (``bid_open``: its bid and nonce), to the host alone. The host checks
   each against its seal; one that does not open is refused (``bad_opening``) and a stand-in
   of the host bids for that seat, blind, in its place (a new seal of the host's);
3. once every seal is open the host reveals them all (``bids_open``) and applies the bids in
   the usual order, from the dealer's left, through the deal's ``act``.

So no program sees a bid before every seal is fixed, and none can change its own after. The
host journals each seal and opening (``BidSealed``, ``BidOpened``: for a bid it decided,
with the bid and nonce, its own secrets) through ``apply_sealed_fact``, which ``restore.py``
runs too, so a finished round's seals survive a restart in the record (a private round in
progress is voided by a restarted host, and its bids made again in the next attempt).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from netplay import Session

from ..bid_seal import bid_seal, new_nonce, opens_bid
from ..bots import Bot
from ..game import Bid, Event, Phase, left_of
from . import protocol as p
from .host_port import HostPort
from .host_state import Seat, Table
from .journal_facts import BidOpened, BidSealed, Decider
from .sealed_round import SealedRound

log = logging.getLogger("wizard_tui.host")

SealedFact = BidSealed | BidOpened
# The deal's ``act`` (a bid through the deal kind's host half), and the attempt it deals.
Act = Callable[[Table, Bid, Decider], list[Event]]
Attempt = Callable[[Table], int]


def sealing_of(table: Table, r: int, attempt: int) -> SealedRound:
    """The table's sealed round ``(r, attempt)``: a fresh one when it holds another (a new
    round, or an attempt dealt again: its bids are made again)."""
    current = table.sealing
    if current is None or current.key != (r, attempt):
        current = SealedRound(r, attempt, table.game.players)
        table.sealing = current
    return current


def apply_sealed_fact(table: Table, fact: SealedFact) -> SealedRound:
    """Change the table's sealed round by ``fact`` (live, and replaying a journal);
    ``ValueError`` for one that does not follow (a second seal, an opening before every seal
    is in, one that does not open)."""
    state = sealing_of(table, fact.round, fact.attempt)
    seat = fact.seat
    if type(seat) is not int or not 0 <= seat < state.players:
        raise ValueError(f"there is no seat {seat!r}")
    if isinstance(fact, BidSealed):
        if fact.replaces:
            if not state.published or seat in state.opened:
                raise ValueError(f"seat {seat}'s seal is not waiting for its opening")
            state.replaced.add(seat)
        elif seat in state.seals:
            raise ValueError(f"seat {seat} sealed its bid already")
        if fact.bid is not None:
            if fact.nonce is None or not opens_bid(
                fact.seal, table.game_id, fact.round, fact.attempt, seat, fact.bid, fact.nonce
            ):
                raise ValueError(f"seat {seat}: the host's own seal does not open")
            state.opened[seat] = (fact.bid, fact.nonce)
            state.host_decided.add(seat)
        state.seals[seat] = fact.seal
        state.by[seat] = fact.by
    else:
        if not state.published:
            raise ValueError("a bid opened before every seal was in")
        if seat in state.opened:
            raise ValueError(f"seat {seat} opened its bid already")
        if not opens_bid(
            state.seals[seat], table.game_id, fact.round, fact.attempt, seat, fact.bid, fact.nonce
        ):
            raise ValueError(f"seat {seat}'s opening does not open its seal")
        state.opened[seat] = (fact.bid, fact.nonce)
    if state.complete and not state.recorded:
        seats = range(state.players)
        table.recorder.add_bid_seals(
            state.round, [state.seals[s] for s in seats], [state.opened[s][1] for s in seats]
        )
        state.recorded = True
    return state


def bidding_order(table: Table) -> list[int]:
    """Seats in the order they bid: from the dealer's left, the dealer last."""
    game = table.game
    n = game.players
    first = left_of(game.dealer, n)
    return [(first + k) % n for k in range(n)]


def sealed_msg(state: SealedRound) -> dict[str, Any]:
    """Who has sealed so far, and whose seal is open (nothing of what)."""
    return {
        "t": "bid_sealed",
        "round": state.round,
        "attempt": state.attempt,
        "sealed": sorted(state.seals),
        "opened": sorted(state.opened),
    }


def seals_msg(state: SealedRound) -> dict[str, Any]:
    """Every seal, once all are in: each program may now open its own."""
    seals = [state.seals[s] for s in range(state.players)]
    return {"t": "bid_seals", "round": state.round, "attempt": state.attempt, "seals": seals}


def reveal_msg(state: SealedRound) -> dict[str, Any]:
    """Every bid with its nonce and the seal it opens (a replaced seat's is the host's)."""
    seats = range(state.players)
    return {
        "t": "bids_open",
        "round": state.round,
        "attempt": state.attempt,
        "bids": [state.opened[s][0] for s in seats],
        "nonces": [state.opened[s][1] for s in seats],
        "seals": [state.seals[s] for s in seats],
        "replaced": sorted(state.replaced),
    }


class SealedBids:
    """The host's part of hidden bids. It sees the core through ``HostPort``, and the deal
    through two callables (its ``act`` and the attempt it deals)."""

    def __init__(self, port: HostPort, act: Act, attempt: Attempt) -> None:
        self.port = port
        self._act = act
        self._attempt = attempt
        # Seats whose opening failed: a stand-in of the host bids for them, blind.
        self._blind: dict[tuple[int, int, int], Bot] = {}

    # -- what the core asks

    def active(self, table: Table | None) -> bool:
        """Hidden bids are being collected at ``table`` now."""
        return (
            table is not None
            and not table.finished
            and table.game.config.rules.hidden_bids
            and table.game.phase is Phase.BID
        )

    def state(self, table: Table) -> SealedRound:
        return sealing_of(table, table.game.round, self._attempt(table))

    def deciding_seat(self, table: Table) -> int:
        """The seat the turn time counts for: the first in bidding order that has not
        sealed (-1 once every seal is in: each program opens its own at once)."""
        state = self.state(table)
        return next((s for s in bidding_order(table) if s not in state.seals), -1)

    def bot_to_ask(self, table: Table, seats: list[Seat | None]) -> tuple[int, Bot | None]:
        """The next seat a bot of the host bids for, and that bot: a bot's or stand-in's
        seat not sealed yet, or a seat whose seal stays unopened while a stand-in holds it
        (its player left) or whose opening failed."""
        state = self.state(table)
        for seat in bidding_order(table):
            holder = seats[seat]
            bot = holder.player_bot if holder is not None else None
            if seat not in state.seals:
                if bot is not None:
                    return seat, bot
            elif state.published and seat not in state.opened:
                blind = self._blind.get((*state.key, seat))
                if blind is not None:
                    return seat, blind
                if holder is not None and holder.stand_in is not None and not holder.away:
                    return seat, holder.stand_in
        return -1, None

    def bot_bid(self, table: Table, seat: int, bid: int, by: Decider) -> None:
        """A bot of the host decided ``seat``'s bid from a view showing no other: the host
        seals it (and, for a seal left unopened, puts it in that seal's place)."""
        state = self.state(table)
        replaces = seat in state.seals
        if replaces and (not state.published or seat in state.opened):
            return  # (the seat's own opening came in meanwhile)
        self._blind.pop((*state.key, seat), None)
        if type(bid) is not int or not 0 <= bid <= table.game.hand_size:
            log.error("a bot bid %r for seat %d: it bids 0", bid, seat)  # (a bug in a bot)
            bid = 0
        nonce = new_nonce()
        seal = bid_seal(table.game_id, state.round, state.attempt, seat, bid, nonce)
        if replaces:
            by = "stand_in"
        self._record(
            table, BidSealed(state.round, state.attempt, seat, seal, by, bid, nonce, replaces)
        )
        if not replaces:
            self.port.broadcast(sealed_msg(state))
        self._moved(table, state, newly_published=not replaces and state.published)

    # -- what the seats send

    def on_message(self, session: Session, msg: dict[str, Any]) -> None:
        table = self.port.table
        seat = session.seat
        if table is None or seat is None or not self.active(table):
            self.port.refuse(session, p.NOT_SEALING, "no sealed bid is asked now")
            return
        state = self.state(table)
        if (msg["round"], msg["attempt"]) != state.key:
            r, a = state.key
            self.port.refuse(
                session, p.NOT_SEALING, f"the bids sealed now are round {r}'s, attempt {a}"
            )
            return
        if msg["t"] == "bid_seal":
            holder = self.port.seats[seat]
            if holder is None or holder.player_bot is not None:
                self.port.refuse(session, p.NOT_YOUR_SEAT, "a bot of the host bids for your seat")
                return
            self._seal(table, state, session, seat, msg["seal"])
        else:
            self._open(table, state, session, seat, msg["bid"], msg["nonce"])

    def _seal(
        self, table: Table, state: SealedRound, session: Session, seat: int, seal: bytes
    ) -> None:
        if seat in state.seals:
            self.port.refuse(session, p.ALREADY_SEALED, "your bid is sealed already")
            return
        self._record(table, BidSealed(state.round, state.attempt, seat, seal))
        self.port.broadcast(sealed_msg(state))
        self._moved(table, state, newly_published=state.published)

    def _open(
        self, table: Table, state: SealedRound, session: Session, seat: int, bid: int, nonce: bytes
    ) -> None:
        if not state.published:
            self.port.refuse(session, p.NOT_SEALING, "not every bid is sealed yet")
            return
        if seat in state.opened or seat in state.replaced:
            self.port.refuse(session, p.ALREADY_SEALED, "your bid is open already")
            return
        fits = 0 <= bid <= table.game.hand_size
        if not fits or not opens_bid(
            state.seals[seat], table.game_id, state.round, state.attempt, seat, bid, nonce
        ):
            why = "is not a bid of this round" if not fits else "does not open your seal"
            self.port.refuse(
                session, p.BAD_OPENING, f"that opening {why}: a bot bids for you this round"
            )
            self._blind[(*state.key, seat)] = self.port.new_stand_in()
            self.port.announce(f"seat {seat}'s sealed bid did not open: a bot bids for it")
            self.port.bots_move()
            return
        self._record(table, BidOpened(state.round, state.attempt, seat, bid, nonce))
        self._moved(table, state, newly_published=False)

    # -- a reconnecting seat, a restored host

    def snapshot(self, session: Session) -> None:
        """Where the bidding is, for a seat (or watcher) that comes back: who has sealed,
        and every seal once all are in (its program then opens its own again)."""
        table = self.port.table
        if not self.active(table):
            return
        assert table is not None
        state = self.state(table)
        self.port.send(session, sealed_msg(state))
        if state.published:
            self.port.send(session, seals_msg(state))

    def resume(self) -> None:
        """A restored host: bids whose every seal was open are applied (the crash cut the
        step that applies them short); else the bidding goes on."""
        table = self.port.table
        if self.active(table):
            assert table is not None
            state = self.state(table)
            if state.complete:
                self._reveal(table, state)

    def round_scored(self, table: Table) -> None:
        """The round's result, as ``round_end`` and the snapshots' history carry it, gets
        its seals and nonces (``bid_seals``: [[seal, nonce], ...] per seat), so a program
        that restarted after the reveal still records them."""
        state = table.sealing
        if not table.history_wire or state is None or not state.complete:
            return
        wire = table.history_wire[-1]
        if wire.get("round") == state.round:
            seats = range(state.players)
            wire["bid_seals"] = [[state.seals[s], state.opened[s][1]] for s in seats]

    # -- inside

    def _record(self, table: Table, fact: SealedFact) -> None:
        apply_sealed_fact(table, fact)
        self.port.journal_fact(fact)

    def _moved(self, table: Table, state: SealedRound, *, newly_published: bool) -> None:
        if newly_published:
            self.port.broadcast(seals_msg(state))
        if state.complete:
            self._reveal(table, state)
        else:
            self.port.bots_move()

    def _reveal(self, table: Table, state: SealedRound) -> None:
        self.port.broadcast(reveal_msg(state))
        events: list[Event] = []
        bids = table.game.bids
        for seat in bidding_order(table):
            if bids[seat] is None:  # (a restored host may have applied some already)
                events += self._act(table, Bid(seat, state.bid_of(seat)), state.by[seat])
        self._blind.clear()
        self.port.changed(events)


__all__ = [
    "SealedBids",
    "apply_sealed_fact",
    "bidding_order",
    "reveal_msg",
    "sealed_msg",
    "sealing_of",
    "seals_msg",
]
