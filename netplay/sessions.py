"""Sessions: who joined, with which secret token, and which seat the app gave them.

A session outlives its connection: when a client drops and comes back with its
token it gets the same ``Session`` object, id and seat. No I/O here.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Iterator
from dataclasses import dataclass, field


@dataclass(eq=False)  # identity equality: a session is a key in the app's own maps
class Session:
    id: str
    name: str
    token: str = field(repr=False)  # the secret that resumes this session; never log it
    seat: int | None = None  # set by the app
    connected: bool = False
    reason: str = ""  # why it last disconnected ("bye" when the client left on purpose)


class SessionTable:
    """Every session the server knows, connected or not."""

    def __init__(self) -> None:
        self._sessions: dict[str, Session] = {}

    def create(self, name: str) -> Session:
        session_id = secrets.token_urlsafe(6)
        while session_id in self._sessions:
            session_id = secrets.token_urlsafe(6)
        session = Session(id=session_id, name=name, token=secrets.token_urlsafe(24))
        self._sessions[session.id] = session
        return session

    def by_token(self, token: str) -> Session | None:
        # Compare every token in constant time, so timing does not leak a prefix.
        found = None
        for session in self._sessions.values():
            if hmac.compare_digest(session.token.encode(), token.encode()):
                found = session
        return found

    def get(self, session_id: str) -> Session | None:
        return self._sessions.get(session_id)

    def remove(self, session: Session) -> None:
        self._sessions.pop(session.id, None)

    def __iter__(self) -> Iterator[Session]:
        return iter(list(self._sessions.values()))

    def __len__(self) -> int:
        return len(self._sessions)

    def __contains__(self, session: object) -> bool:
        return isinstance(session, Session) and self._sessions.get(session.id) is session
