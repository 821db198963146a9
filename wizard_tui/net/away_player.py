"""The player's own program decides for its away player (the turn time of a private deal).

In a privately dealt game only the player's program knows its hand, so when the host marks
the seat away (its player let the turn time run out: ``turn_time.py``) the host's bots cannot
decide for it: this program does, with a bot of its own, and flags each such move ``auto``,
so the host does not take it for the player being back. The player's next key press sends
an intent of its own (``here`` at least) and the seat is theirs again.
"""

from __future__ import annotations

import logging
import random

from ..bots import Bot, make_bot
from ..game import PlayerAction, SeatView
from ..session import SeatInfo
from .decisions import DECIDING_PHASES, decision_key, first_legal_move

log = logging.getLogger("wizard_tui.away_player")

_DECIDING = DECIDING_PHASES


def is_away(seats: tuple[SeatInfo, ...], seat: int | None) -> bool:
    """The host marked ``seat`` away: connected, and a bot decides for it."""
    if seat is None or not 0 <= seat < len(seats):
        return False
    info = seats[seat]
    return info.connected and info.takeover_in == 0


class AwayPlayer:
    """Decides each of an away seat's decisions once."""

    def __init__(self, level: str = "normal") -> None:
        self.level = level
        self._bot: Bot | None = None
        self._answered: tuple[object, ...] | None = None

    def forget(self) -> None:
        """The seat is not away (any more): the next time it is, decide again even for the
        same position (a move sent for it may have been refused or overtaken)."""
        self._answered = None

    def move(self, view: SeatView, attempt: int) -> PlayerAction | None:
        """The move for ``view`` if it is this seat's decision and not answered yet."""
        if not view.my_turn or view.phase not in _DECIDING:
            return None
        key = decision_key(view, attempt)
        if key == self._answered:
            return None
        self._answered = key
        if self._bot is None:
            self._bot = make_bot(self.level, random.Random())
        try:
            return self._bot.decide(view)
        except Exception:  # a bug in a bot must not end this program's handling
            log.exception("the bot deciding for this away seat failed: the first legal move")
            try:
                return first_legal_move(view)
            except ValueError:
                return None
