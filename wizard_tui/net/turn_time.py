"""The turn time: a player who walks away does not hold the table for ever.

With ``HostOptions.turn_time`` (``wizard-tui host --turn-time SECONDS``, off by default) the
seat on turn, when it is a connected person's, has that long to decide (trump, bid or card).
Everyone sees the countdown: the seat's wire form carries it as ``takeover_in``, as for a
seat that dropped. When it runs out the seat is **away** (``takeover_in: 0`` on a connected
seat) and a bot decides for it, that move and every one after, until the player is back:
any intent from the player's program (a bid, a card, trump, a chat line, or ``here``, which
a table sends at any key press) takes the seat back at once; a decision the bot is still
making for it is thrown away. The host's own table can also hand the seat on turn to a bot
before its time runs out (``hand_to_bot``).

Who decides depends on the deal. Commit-reveal: the host knows every hand, so a stand-in of
the host's (``Seat.stand_in``) plays the seat, as after a takeover. Private deal: nobody but
the player's own program holds its hand or its keys, so the host only marks the seat away
and the player's program decides for it (``NetworkSession``: a bot of its own, its moves
flagged ``auto``, which do not count as the player being back), while it keeps doing its
deal duties as always. A program that does not move for its away player within another turn
time (at least ``AWAY_PROGRAM_GRACE``, so that a busy machine's program is not cut off under
a short turn time) is disconnected (``turn_timeout``); the seat is then one that left, and
the takeover (``takeover.py``) goes on from there. So a hostile program cannot stall the
table either.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any

from . import protocol as p
from .decisions import DECIDING_PHASES

if TYPE_CHECKING:
    from netplay import Session

    from .host_port import SeatsPort
    from .host_state import Seat

log = logging.getLogger("wizard_tui.turn_time")

_DECIDING = DECIDING_PHASES
AWAY_PROGRAM_GRACE = 5.0  # seconds a private seat's program has at least to move for it
# What a player's program sends by itself, never because its player pressed a key.
_NOT_THE_PLAYER = frozenset(
    {"commit", "seed", "sign_key", "deal", "lost", "abort", "claim_host", "bid_open"}
)


class TurnClock:
    """The turn time of one host's seat on turn; see the module docstring."""

    def __init__(self, host: SeatsPort) -> None:
        self.host = host
        self._running = False  # its timer (the host's) runs

    @property
    def limit(self) -> float | None:
        return self.host.options.turn_time

    # -- the clock -------------------------------------------------------------------------

    def position_changed(self) -> None:
        """A new position (every change the seats hear of): the seat on turn, if it is a
        connected person's, gets its turn time from now."""
        if self.limit is None:
            return  # (the common case: nothing to do at every state the host sends)
        self._stop()
        index = self._deciding_seat()
        seat = self._seat(index)
        if seat is None:
            return
        if seat.kind != "human" or seat.stand_in is not None:
            return  # a bot decides anyway
        if seat.session is None or not seat.session.connected:
            return  # the takeover countdown covers a seat that dropped
        limit = self.limit if not seat.away else max(self.limit, AWAY_PROGRAM_GRACE)
        host = self.host
        seat.turn_at = host.now() + limit
        position = host.position
        self._running = True
        host.start_timer(("turn",), limit, lambda: self._expired(index, position))

    def _deciding_seat(self) -> int:
        table = self.host.table
        if table is None or table.finished:
            return -1
        game = table.game
        if self.host.deal_half.deciding_paused():  # (a private attempt being voided)
            return -1
        # (hidden bids: every seat bids at once, and the host says whose seal is awaited)
        return self.host.deciding_seat() if game.phase in _DECIDING else -1

    def _seat(self, index: int) -> Seat | None:
        seats = self.host.seats
        return seats[index] if 0 <= index < len(seats) else None

    def _stop(self) -> None:
        if self._running:
            self._running = False
            self.host.cancel_timer(("turn",))
        for seat in self.host.seats:
            if seat is not None:
                seat.turn_at = None

    def _expired(self, index: int, position: int) -> None:
        self._running = False
        seat = self._seat(index)
        if seat is None or self.host.position != position or self._deciding_seat() != index:
            return  # the position moved on meanwhile
        seat.turn_at = None
        if seat.session is None or not seat.session.connected:
            return
        if seat.away:  # private deal: its program did not move for it either
            self._disconnect(seat.session, seat.name)
            return
        log.info("seat %d (%s): turn time out, away", index, seat.name)
        self.set_away(index, f"{seat.name}'s time ran out")

    def set_away(self, index: int, why: str) -> bool:
        """Mark seat ``index`` away: a bot decides for it until its player is back (its time
        ran out, or the host's table handed it to a bot). False if it cannot be."""
        host = self.host
        seat = self._seat(index)
        if seat is None or seat.kind != "human" or seat.away or seat.stand_in is not None:
            return False
        if seat.session is None or not seat.session.connected or host.table is None:
            return False
        seat.away = True
        host_decides = host.deal_half.host_decides_for_away
        if host_decides:
            seat.stand_in = host.new_stand_in()
            text = f"{why}: a bot plays for them until they press a key"
        else:
            text = f"{why}: their program plays for them until they press a key"
        host.announce(text)
        if host_decides:
            if self._deciding_seat() == index:
                self._stop()  # its bot decides now
            host.seats_changed()
            host.bots_move()
        else:
            if self._deciding_seat() == index:  # its program's move: at most one more time
                self.position_changed()
            host.seats_changed()
        return True

    def _disconnect(self, session: Session, name: str) -> None:
        log.warning("%s's program did not move for its away player: disconnected", name)
        self.host.disconnect(
            session, p.TURN_TIMEOUT, "your program did not move for you while you were away"
        )
        self.host.announce(f"{name}'s program did not move in time: it was disconnected")

    # -- the player -----------------------------------------------------------------------

    def heard_from(self, session: Session, msg: dict[str, Any]) -> None:
        """Any intent from a player's program (not its deal duties, not the moves it makes
        for an away player) takes an away seat back: its player is at the keyboard."""
        if msg["t"] in _NOT_THE_PLAYER or msg.get("auto"):
            return
        index = session.seat if session.seat is not None else -1
        seat = self._seat(index)
        if seat is None or not seat.away or seat.session is not session:
            return
        self.seat_back(index)
        log.info("seat %d (%s) is back at the keyboard", index, seat.name)
        if self._deciding_seat() == index:
            self.position_changed()  # its own decision now, with a fresh turn time
        self.host.seats_changed()  # (after: the seats show the player's own countdown)

    def seat_back(self, index: int) -> None:
        """Seat ``index`` is no longer away (its player pressed a key, or it dropped: the
        takeover covers it from then on)."""
        seat = self._seat(index)
        if seat is None or not seat.away:
            return
        seat.away = False
        if self.host.deal_half.host_decides_for_away and seat.stand_in is not None:
            # (one that dropped is then like any seat that dropped: its takeover countdown)
            seat.stand_in = None
            self.host.drop_bot_turn(index)

    def seat_connected(self, index: int) -> None:
        """Seat ``index``'s player is back on line: if it is on turn, its time runs."""
        if self._deciding_seat() == index and not self._running:
            self.position_changed()

    def close(self) -> None:
        self._stop()
