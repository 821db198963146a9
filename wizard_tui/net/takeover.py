"""Seat takeover: a bot plays for a player who dropped, until the player comes back.

Host side (``Takeover``): when a human seat loses its connection during a game, its
countdown starts (``HostOptions.takeover_after`` seconds; the seats' wire form carries
``takeover_in``). When it runs out, a bot of the host's bot level plays the seat. The
player takes the seat back as soon as their client resumes, between one action and the
next: a decision the bot is still making for the seat is thrown away.

The deal needs every seat's seed. A seat that is taken over while its seed is still
missing cannot reveal it, so the host throws that deal away and deals the round again,
drawing the seed of the stood-in seat itself, visibly: it sends every client a ``redeal``
message (with the discarded deal's commitments and whatever seeds were in, once the
commitments were published) and a new ``round`` message, and the game record keeps the
discarded deal in its ``redeals`` (``GameRecorder.add_redeal``). A seat already taken over
when a round begins is dealt for by the host from the start, like a bot's. Either way the
player's own program took no part in that round's deal; when it comes back it replays the
round with ``AwayRound`` (``deals/commit_reveal/away_round.py``) instead: every seed must
open its published commitment, and the deal, the plays and the scores must follow, as for
any round. With no seed of its own in it that is consistency, not a check: the client
reports such a round as not checked.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # (types only)
    from .host_port import SeatsPort

log = logging.getLogger("wizard_tui.takeover")


class Takeover:
    """The countdowns and stand-in bots of one host's human seats."""

    def __init__(self, host: SeatsPort) -> None:
        self.host = host
        self._counting: set[int] = set()  # seats whose countdown runs (the host's timers)

    @property
    def grace(self) -> float | None:
        return self.host.options.takeover_after

    def seat_left(self, index: int) -> None:
        """Seat ``index`` lost its player during a game: start its countdown."""
        host = self.host
        table = host.table
        seat = host.seats[index] if 0 <= index < len(host.seats) else None
        grace = self.grace
        if (
            grace is None
            or table is None
            or table.finished
            or seat is None
            or seat.kind != "human"
            or seat.stand_in is not None
            or index in self._counting
        ):
            return
        seat.takeover_at = host.now() + grace
        self._counting.add(index)
        host.start_timer(("takeover", index), grace, lambda: self._expire(index))

    def seat_back(self, index: int) -> None:
        """The player of seat ``index`` is back: they play it again from the next decision."""
        self.cancel(index)
        host = self.host
        seat = host.seats[index] if 0 <= index < len(host.seats) else None
        if seat is None:
            return
        seat.takeover_at = None
        if seat.forfeited:
            return  # its bot plays on to the end of the game
        if seat.stand_in is not None and host.deal_half.seat_back(index):
            log.info(
                "seat %d (%s) is back: its bot finishes the deal in progress", index, seat.name
            )
            return
        if seat.stand_in is not None:
            seat.stand_in = None
            host.drop_bot_turn(index)
            log.info("seat %d (%s) is back from its bot", index, seat.name)

    def cancel(self, index: int) -> None:
        """Stop seat ``index``'s countdown, if one runs."""
        if index in self._counting:
            self._counting.discard(index)
            self.host.cancel_timer(("takeover", index))

    def close(self) -> None:
        for index in list(self._counting):
            self.cancel(index)

    def _expire(self, index: int) -> None:
        self._counting.discard(index)
        host = self.host
        seat = host.seats[index]
        table = host.table
        if seat is None:
            return
        seat.takeover_at = None
        if table is None or table.finished:
            return
        if seat.session is not None and seat.session.connected:
            return
        seat.stand_in = host.new_stand_in()
        log.info("a bot plays seat %d (%s) until its player is back", index, seat.name)
        host.announce(f"a bot plays for {seat.name} until they are back")
        host.seats_changed()
        # The deal goes on without the player: a commit-reveal deal that waits for its seed
        # is dealt again; a private attempt that needs its keys is voided.
        host.deal_half.seat_taken_over(index)
        host.bots_move()
