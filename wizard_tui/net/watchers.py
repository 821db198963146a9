"""Spectators: friends who watch a game at this table without a seat.

A watcher joins with ``watch: true`` in its hello, through the same Noise handshake and
room password as a player. It takes no seat and counts toward no seat limit (at most
``protocol.MAX_WATCHERS`` at a time). It gets public information only:

- the lobby (with no seat of its own), the game's start, and after every change a
  ``state`` whose view is ``protocol.public_view_wire``: built from the game's public state,
  never from a seat's view, so it holds no hand and no legal move (with commit-reveal the
  host knows every hand; with the private deal it knows none);
- what the host broadcasts, which is what every seat sees of the others: chat, seats,
  each round's start, the commitments, a round's result (with its seeds or keys, only once
  it is over), the game's end. The deal's per-seat messages (envelopes, keys) are sent to
  seats, never broadcast, so a watcher never gets one;
- on a reconnect, a snapshot with that same public view and the finished rounds.

A watcher may chat, and nothing else: the core refuses anything else it sends (``WATCHING``).
Everything goes out through the host's own sends (``WatchersPort``), so it leaves with the
step's other effects, after its journal entries.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from netplay import Refused, Session

from ..game import Game
from . import protocol as p


class WatchersPort(Protocol):
    """What the watchers need of the host core."""

    def send(self, session: Session, msg: dict[str, Any]) -> None: ...

    def forget_session(self, session: Session) -> None: ...


class Watchers:
    """The watcher sessions of one host, and what each of them is sent."""

    def __init__(self, port: WatchersPort, *, allowed: bool = True, cap: int = p.MAX_WATCHERS):
        self.port = port
        self.allowed = allowed
        self.cap = cap
        self._sessions: dict[str, Session] = {}  # by session id

    def __contains__(self, session: Session) -> bool:
        return session.id in self._sessions

    def __len__(self) -> int:
        return len(self._sessions)

    def join(self, session: Session) -> dict[str, Any]:
        """A newcomer asked to watch: take it (the welcome's extra fields) or refuse."""
        if not self.allowed:
            raise Refused(p.NO_WATCHERS, "this host does not take watchers")
        if self.free_places() <= 0:
            raise Refused(p.WATCHERS_FULL, f"this table has {self.cap} watchers already")
        self._prune()
        session.seat = None
        self._sessions[session.id] = session
        return {"watching": True}

    def left(self, session: Session) -> None:
        """A watcher's link dropped: its session is kept so it can resume; one that said
        ``bye`` left for good and is forgotten."""
        if session.reason == "bye":
            self._sessions.pop(session.id, None)
            self.port.forget_session(session)

    def _prune(self) -> None:
        """Keep at most ``cap`` dropped watchers' sessions (the oldest go first), so
        watchers coming and going with new keys cannot grow the host's memory."""
        dropped = [s for s in self._sessions.values() if not s.connected]
        for session in dropped[: max(0, len(dropped) - self.cap + 1)]:
            del self._sessions[session.id]
            self.port.forget_session(session)

    def connected(self) -> list[Session]:
        return [s for s in self._sessions.values() if s.connected]

    def free_places(self) -> int:
        return self.cap - sum(s.connected for s in self._sessions.values())

    # -- what they are sent -----------------------------------------------------------------

    def send_all(self, msg: dict[str, Any]) -> None:
        for session in self.connected():
            self.port.send(session, msg)

    def lobby(self, build: Callable[[Session], dict[str, Any]]) -> None:
        """The lobby as the host's players see it (``build``), with no seat and no say."""
        for session in self.connected():
            self.port.send(session, watcher_lobby(build(session)))

    def game(self, build: Callable[[Session], dict[str, Any]]) -> None:
        """The game starts (``build``: the ``game`` message; a watcher's has no seat)."""
        for session in self.connected():
            self.port.send(session, {**build(session), "you": None})

    def states(self, game: Game, seats: list[Any], events: list[Any]) -> None:
        """After a change: the public view, the seats and the public events."""
        if not self._sessions:
            return
        self.send_all(state_message(game, seats, events))

    def snapshot(self, session: Session, snapshot: dict[str, Any], game: Game) -> None:
        """A (re)connecting watcher's snapshot: the public view, no deal of its own."""
        msg = {**snapshot, "view": p.public_view_wire(game), "deal": None}
        msg["game"] = {**msg["game"], "you": None}
        self.port.send(session, msg)


def state_message(game: Game, seats: list[Any], events: list[Any]) -> dict[str, Any]:
    """A watcher's ``state``: the public view and what every seat was told happened."""
    return {"t": "state", "view": p.public_view_wire(game), "seats": seats, "events": events}


def watcher_lobby(lobby: dict[str, Any]) -> dict[str, Any]:
    return {**lobby, "you": None, "host": False, "can_start": False, "watching": True}


__all__ = ["Watchers", "WatchersPort", "state_message", "watcher_lobby"]
