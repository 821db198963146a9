"""The host half of a deal kind; it sees the host core through ``HostPort`` (host_port.py).

A deal kind (``wizard_tui.net.deals``) is how a round's cards reach the seats. Its host half
owns everything of the deal at the host: the round's exchange, the deal messages it asks
for, the journal facts it writes and how each is applied (the live host and ``restore``
apply them through the same ``apply``), and what a reconnecting seat must be told. It sees
the host core only through ``HostPort``: the seats, the table, and the core's effects (send,
journal, timers, the bots); never the core's own methods or fields.

``DealHostBase`` gives every optional hook its default: nothing.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar, Protocol

from netplay import Session

from ...game import Event, Game, SeatView
from ...game.codec import PlayerAction
from ...game.hidden import HiddenGame
from ...record import GameRecorder
from ..host_port import HostPort
from ..host_state import Seat, Table, queried
from ..journal_facts import Decider, Fact, GameHeader


class DealHostHalf(Protocol):
    """The host half of a deal kind. ``DealHostBase`` implements the optional hooks."""

    name: ClassVar[str]
    # Message types of the deal's own exchange, routed to ``on_message``; a message of
    # another kind's exchange is refused as ``wrong_deal``.
    messages: ClassVar[frozenset[str]]
    # A host stand-in decides for an away seat (it knows the hand); else the player's own
    # program does (turn_time.py).
    host_decides_for_away: ClassVar[bool]

    def attach(self, port: HostPort) -> None: ...

    # -- a game
    def header_fields(self, seats: Sequence[Seat]) -> dict[str, Any]:
        """What the journal's ``game`` entry adds for this kind (``GameHeader`` fields),
        drawn when a game starts."""
        ...

    def begin(self, header: GameHeader) -> tuple[Game | HiddenGame, GameRecorder]:
        """The game and record of ``header`` (live at start, and when replaying)."""
        ...

    def apply(self, table: Table, fact: Fact) -> list[Event]:
        """Apply one of this kind's facts to ``table`` (live, and replaying a journal).
        Raises for a fact that does not follow (ValueError, IllegalAction, ...)."""
        ...

    def game_fields(self) -> dict[str, Any]: ...
    def ready(self) -> bool: ...
    def on_join(self, session: Session) -> None: ...
    def on_message(self, session: Session, msg: dict[str, Any]) -> None: ...
    def wrong_deal(self, t: str) -> str: ...

    # -- rounds and actions
    def start_round(self) -> None: ...
    def act(self, table: Table, action: PlayerAction, by: Decider) -> list[Event]: ...
    def on_play(self, session: Session, msg: dict[str, Any]) -> bool: ...
    def on_special(self, session: Session, msg: dict[str, Any]) -> bool: ...
    def on_stale_play(self, session: Session, msg: dict[str, Any]) -> None: ...
    def bot_play(self, seat: int, card: int) -> bool: ...
    def bot_view(self, seat: int, view: SeatView) -> SeatView: ...
    def round_scored(self) -> None: ...
    def between_rounds(self) -> None: ...
    def deciding_paused(self) -> bool: ...
    def round_in_play(self, table: Table) -> int: ...
    def bid_attempt(self, table: Table) -> int: ...

    # -- seats
    def seat_left(self, seat: int) -> None: ...
    def seat_taken_over(self, seat: int) -> None: ...
    def seat_back(self, seat: int) -> bool: ...
    def before_snapshot(self, session: Session) -> None: ...
    def snapshot_deal(self, seat: int | None) -> dict[str, Any] | None: ...
    def after_snapshot(self, session: Session) -> None: ...

    # -- a restored host
    def adopt_seats(self) -> None: ...
    def resume(self) -> None: ...
    def close(self) -> None: ...


class DealHostBase:
    """Defaults for a deal's host half: every optional hook does nothing."""

    name: ClassVar[str] = ""
    messages: ClassVar[frozenset[str]] = frozenset()
    host_decides_for_away: ClassVar[bool] = True

    def __init__(self) -> None:
        self._port: HostPort | None = None

    @property
    def port(self) -> HostPort:
        assert self._port is not None, "a deal's host half runs attached to a host"
        return self._port

    def attach(self, port: HostPort) -> None:
        self._port = port

    def apply(self, table: Table, fact: Fact) -> list[Event]:
        raise NotImplementedError(f"{type(self).__name__} must apply its facts")

    def _record(self, fact: Fact) -> list[Event]:
        """Apply a fact the host accepted, then journal it (before anything is sent)."""
        port = self.port
        table = port.table
        assert table is not None
        events = self.apply(table, fact)
        port.journal_fact(fact)
        return events

    def header_fields(self, seats: Sequence[Seat]) -> dict[str, Any]:
        return {"deal": self.name}

    def game_fields(self) -> dict[str, Any]:
        return {}

    def ready(self) -> bool:
        return True

    def on_join(self, session: Session) -> None:
        return None

    def on_message(self, session: Session, msg: dict[str, Any]) -> None:
        return None

    def wrong_deal(self, t: str) -> str:
        return f"this host deals by {self.name}: no {t} is asked"

    def act(self, table: Table, action: PlayerAction, by: Decider) -> list[Event]:
        # (A hidden game, knowing no hand, plays no special card: such a game never starts.)
        return queried(table.game).apply(action)

    def on_play(self, session: Session, msg: dict[str, Any]) -> bool:
        """A play from a remote seat; True if the half took it (else the core applies it)."""
        return False

    def on_special(self, session: Session, msg: dict[str, Any]) -> bool:
        """A special card's decision from a remote seat (schema-checked); True if the half
        took it (the private deal: a Witch's swap with its show), else the core applies it."""
        return False

    def on_stale_play(self, session: Session, msg: dict[str, Any]) -> None:
        return None

    def bot_play(self, seat: int, card: int) -> bool:
        return False

    def bot_view(self, seat: int, view: SeatView) -> SeatView:
        return view

    def round_scored(self) -> None:
        return None

    def between_rounds(self) -> None:
        return None

    def deciding_paused(self) -> bool:
        return False

    def round_in_play(self, table: Table) -> int:
        """The round being dealt or played now."""
        return table.game.round

    def bid_attempt(self, table: Table) -> int:
        """The attempt of the round whose bids are made now (hidden bids seal it): 0 unless
        the kind deals a round again after its bids (the private deal)."""
        return 0

    def seat_left(self, seat: int) -> None:
        return None

    def seat_taken_over(self, seat: int) -> None:
        return None

    def seat_back(self, seat: int) -> bool:
        return False

    def before_snapshot(self, session: Session) -> None:
        return None

    def snapshot_deal(self, seat: int | None) -> dict[str, Any] | None:
        return None

    def after_snapshot(self, session: Session) -> None:
        return None

    def adopt_seats(self) -> None:
        return None

    def resume(self) -> None:
        return None

    def close(self) -> None:
        return None


__all__ = ["DealHostBase", "DealHostHalf", "HostPort"]
