"""The narrow port of the host core: all that a deal's host half (``deals/host_half.py``)
and the host's seat keepers (``takeover.py``, ``turn_time.py``) may ask of it. The core
(``host.py``) implements it; none of them sees the core's own methods or fields."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from netplay.sessions import Session

from ..bots import Bot
from ..game import Event
from .host_state import HostOptions, Seat, Table
from .journal_facts import Fact


class HostPort(Protocol):
    """What a deal's host half may ask of the host core."""

    @property
    def options(self) -> HostOptions: ...

    @property
    def seats(self) -> list[Seat | None]: ...

    @property
    def table(self) -> Table | None: ...

    @property
    def journaling(self) -> bool:
        """A journal is kept (a half may spare building a large fact when not)."""
        ...

    def journal_fact(self, fact: Fact) -> None:
        """Write ``fact`` to the journal, before anything about it is sent."""

    def send(self, session: Session, msg: dict[str, Any]) -> None: ...

    def send_to_seat(self, seat: int, msg: dict[str, Any]) -> None:
        """To the seat's player, if it is connected."""

    def broadcast(self, msg: dict[str, Any]) -> None: ...

    def refuse(self, session: Session, code: str, message: str) -> None: ...

    def disconnect(self, session: Session, code: str, message: str) -> None:
        """A fatal error: the session's connection ends with ``code``."""

    def announce(self, text: str) -> None:
        """A chat line from the host program to everyone."""

    def changed(self, events: list[Event]) -> None:
        """The game moved: every seat hears of it, rounds and the game end, bots move."""

    def send_states(self, events: list[Event]) -> None:
        """Every seat is sent its view (a new position), and nothing else happens."""

    def seats_changed(self) -> None: ...

    def bots_move(self) -> None:
        """A bot may now decide for the seat on turn."""

    def drop_bot_turn(self, seat: int) -> None:
        """A decision a bot is making for ``seat`` is thrown away."""

    def new_stand_in(self) -> Bot: ...

    def forfeit_seat(self, seat: int) -> None:
        """A bot plays human seat ``seat`` for the rest of the game."""

    def write_record(self) -> None: ...

    def lobby_changed(self) -> None:
        """A lobby seat changed: the lobby is sent and the game may start."""

    def free_lobby_seat(self, seat: int) -> None: ...

    def fail(self, reason: str) -> None:
        """The game cannot go on: the host gives it up."""

    def now(self) -> float:
        """The core's clock (its input's time, never a clock of its own)."""
        ...

    def start_timer(self, key: Any, delay: float, fire: Callable[[], None]) -> None:
        """Call ``fire`` after ``delay`` seconds, unless the timer ``key`` is cancelled (or
        started again) before."""

    def cancel_timer(self, key: Any) -> None: ...


class SeatHooks(Protocol):
    """What of the deal's host half the seat keepers use (``DealHostHalf`` has it all)."""

    @property
    def host_decides_for_away(self) -> bool: ...

    def seat_back(self, seat: int) -> bool: ...
    def seat_taken_over(self, seat: int) -> None: ...
    def deciding_paused(self) -> bool: ...


class SeatsPort(HostPort, Protocol):
    """What the seat keepers see: the port, the deal half's seat hooks, and the position
    a bot decides for."""

    @property
    def deal_half(self) -> SeatHooks: ...

    @property
    def position(self) -> int: ...

    def deciding_seat(self) -> int:
        """The seat whose decision the table waits for (-1: none)."""
        ...


__all__ = ["HostPort", "SeatHooks", "SeatsPort"]
