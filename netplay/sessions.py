"""Sessions: who joined, with which static key and token, and which seat the app gave them.

A session outlives its connection: when a client drops and comes back it gets the same
``Session`` object, id and seat. Coming back takes two things: the session's token (which
session) and the same static key the session joined with, proven by the Noise handshake
(who). A token on its own, seen or stolen, resumes nothing. A client that lost its token (its
program restarted) but kept its static key takes back its disconnected session by the key
alone (``returning``). No I/O here.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Iterator
from dataclasses import dataclass, field

from .identity import fingerprint


@dataclass(eq=False)  # identity equality: a session is a key in the app's own maps
class Session:
    id: str
    name: str
    token: str = field(repr=False)  # picks the session to resume; never log it
    seat: int | None = None  # set by the app
    connected: bool = False
    reason: str = ""  # why it last disconnected ("bye" when the client left on purpose)
    key: bytes = field(default=b"", repr=False)
    """The client's static public key (32 bytes), proven in the handshake that joined."""

    @property
    def fingerprint(self) -> str:
        """The client's key as people see it (``XXXX-XXXX-XXXX-XXXX``); "" without a key."""
        return fingerprint(self.key) if self.key else ""


class SessionTable:
    """Every session the server knows, connected or not."""

    def __init__(self) -> None:
        self._sessions: dict[str, Session] = {}

    def create(self, name: str, key: bytes = b"") -> Session:
        session_id = secrets.token_urlsafe(6)
        while session_id in self._sessions:
            session_id = secrets.token_urlsafe(6)
        session = Session(id=session_id, name=name, token=secrets.token_urlsafe(24), key=key)
        self._sessions[session.id] = session
        return session

    def restore(self, session: Session) -> Session:
        """Put back a session the app saved before it restarted (id, name, token, key and
        seat as they were), so its client resumes with the same token and key. It starts
        disconnected. Raises ``ValueError`` for a session without a key (it could never
        resume) or whose id is taken."""
        if len(session.key) != 32:
            raise ValueError("a restored session needs the 32-byte static key it joined with")
        if session.id in self._sessions:
            raise ValueError(f"there is already a session {session.id!r}")
        session.connected = False
        self._sessions[session.id] = session
        return session

    def find(self, token: str, key: bytes) -> Session | None:
        """The session with ``token`` that joined with static key ``key``, or None.

        Both are compared in constant time for every session, so timing leaks neither a
        token prefix nor whether the token alone was right.
        """
        found = None
        for session in self._sessions.values():
            token_ok = hmac.compare_digest(session.token.encode(), token.encode())
            key_ok = hmac.compare_digest(session.key, key)
            if token_ok & key_ok and session.key:
                found = session
        return found

    def returning(self, key: bytes) -> Session | None:
        """The first disconnected session that joined with static key ``key``, or None: a
        client that restarted has lost its token, not the key it keeps on disk, and the
        handshake has just proven it holds that key."""
        for session in self._sessions.values():
            if not session.connected and session.key and hmac.compare_digest(session.key, key):
                return session
        return None

    def connected_with(self, key: bytes) -> list[Session]:
        """The connected sessions that joined with static key ``key`` (a newcomer proving
        it may be the same program restarted while its old connection is half-open)."""
        return [
            s
            for s in self._sessions.values()
            if s.connected and s.key and hmac.compare_digest(s.key, key)
        ]

    def by_token(self, token: str) -> Session | None:
        """The session with ``token`` whatever its key (for apps and tests; the server
        resumes with ``find``)."""
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
