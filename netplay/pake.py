"""The room password: SPAKE2 bound to the Noise handshake, so it never crosses the wire.

Both sides run SPAKE2 (the ``spake2`` package, Ed25519 group) with identities naming both
static keys, then prove they hold the same key with an HMAC over the Noise handshake hash
``h``, one label per direction::

    K        = SPAKE2(password, idA = "netplay/v1/client:" || client_static,
                                idB = "netplay/v1/host:"   || host_static)
    confirm  = HMAC-SHA256(K, "netplay/v1/confirm/<client|host>" || h)

A man in the middle who terminates Noise on both sides holds a different ``h`` with each, so
no confirmation he relays can verify; each attempt gives him exactly one online guess at the
password (and nothing to test guesses offline). ``GuessLimiter`` bounds those attempts per
peer address. Sans-I/O: ``secure`` carries the messages.
"""

from __future__ import annotations

import hmac
import math
import secrets
import unicodedata
from typing import Literal

from spake2 import SPAKE2_A, SPAKE2_B

from . import errors
from .errors import BAD_MESSAGE, ProtocolError

# Error codes (defined in ``errors``).
BAD_PASSWORD = errors.BAD_PASSWORD
PASSWORD_REQUIRED = errors.PASSWORD_REQUIRED
PASSWORD_NOT_USED = errors.PASSWORD_NOT_USED
TOO_MANY_GUESSES = errors.TOO_MANY_GUESSES

MESSAGE_BYTES = 33  # side byte + an Ed25519 point
CONFIRM_BYTES = 32
CLIENT_ID = b"netplay/v1/client:"
HOST_ID = b"netplay/v1/host:"
CONFIRM_CLIENT = b"netplay/v1/confirm/client"
CONFIRM_HOST = b"netplay/v1/confirm/host"

ROOM_CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L: read aloud safely


class PakeError(ProtocolError):
    """The password exchange failed; the connection must close.

    ``reply``, if set, is a handshake message to send the peer before closing, so it
    learns the outcome too (a client with a wrong password still sends its confirmation,
    which the host then rejects with ``bad_password`` on its side).
    """

    def __init__(self, code: str, message: str, *, reply: bytes | None = None) -> None:
        super().__init__(code, message)
        self.reply = reply


def normalize_password(password: str | bytes) -> bytes:
    """The bytes both sides feed SPAKE2: NFKC-normalized UTF-8, so the same text typed on
    two keyboards matches. Case and inner spaces count; outer whitespace does not."""
    if isinstance(password, str):
        password = unicodedata.normalize("NFKC", password.strip()).encode("utf-8")
    if type(password) is not bytes or not password:
        raise ValueError("a room password must be a non-empty str or bytes")
    return password


def generate_room_code(length: int = 8) -> str:
    """A random room password that is easy to read out (``length`` x ~5 bits)."""
    if length < 6:
        raise ValueError("a room code needs at least 6 characters (30 bits)")
    return "".join(secrets.choice(ROOM_CODE_ALPHABET) for _ in range(length))


class PasswordExchange:
    """One side of one password attempt: ``start``, then ``finish``, then confirm.

    Use a new object per connection: SPAKE2 state must never be reused.
    """

    def __init__(
        self,
        side: Literal["client", "host"],
        password: str | bytes,
        *,
        client_static: bytes,
        host_static: bytes,
    ) -> None:
        if len(client_static) != 32 or len(host_static) != 32:
            raise ValueError("static keys are 32 bytes")
        self.side = side
        pw = normalize_password(password)
        ids = {"idA": CLIENT_ID + client_static, "idB": HOST_ID + host_static}
        self._spake = SPAKE2_A(pw, **ids) if side == "client" else SPAKE2_B(pw, **ids)
        self._message: bytes | None = None
        self._ours: bytes | None = None
        self._theirs: bytes | None = None

    def start(self) -> bytes:
        """Our SPAKE2 message (33 bytes; reveals nothing about the password)."""
        if self._message is None:
            self._message = self._spake.start()
        return self._message

    def finish(self, peer_message: bytes, handshake_hash: bytes) -> None:
        """Derive the shared key from the peer's message and bind it to ``h``."""
        if self._ours is not None:
            raise RuntimeError("finish() once per exchange")
        if type(peer_message) is not bytes or len(peer_message) != MESSAGE_BYTES:
            raise PakeError(BAD_MESSAGE, "the password exchange message has the wrong size")
        self.start()
        try:
            key = self._spake.finish(peer_message)
        except Exception:  # spake2 raises assorted types (and asserts) for bad points
            raise PakeError(BAD_MESSAGE, "the password exchange message is invalid") from None
        client = hmac.digest(key, CONFIRM_CLIENT + handshake_hash, "sha256")
        host = hmac.digest(key, CONFIRM_HOST + handshake_hash, "sha256")
        self._ours, self._theirs = (client, host) if self.side == "client" else (host, client)

    def confirmation(self) -> bytes:
        """Our key-confirmation MAC for the peer."""
        if self._ours is None:
            raise RuntimeError("confirmation() before finish()")
        return self._ours

    def verify(self, mac: bytes) -> bool:
        """True if the peer's MAC proves it used the same password and the same ``h``."""
        if self._theirs is None:
            raise RuntimeError("verify() before finish()")
        return type(mac) is bytes and hmac.compare_digest(mac, self._theirs)


class GuessLimiter:
    """Host side: bounds online guesses at the room password, per address and per table,
    without letting anyone lock a player out for long. Sans-I/O: the caller passes the time.

    * **Per address:** ``max_failures`` wrong passwords within ``window`` seconds are free;
      after that the address backs off: its next attempt is refused until ``backoff``
      seconds after its last wrong one, doubling with each further wrong one, at most
      ``max_backoff``. A right password clears the address's count. (So three wrong guesses
      from a shared address cost its other users a couple of seconds, not a minute.)
    * **Per table:** every wrong password, from any address, takes a token from one bucket
      of ``table_burst`` tokens refilled at ``table_rate`` a second; while it is empty, every
      attempt is refused until a token is back. Rotating source addresses gains nothing.
    * **Known players:** a static key that proved the password on this server before is
      never refused (a seated player reconnecting or restarting is not guessing).

    ``check`` runs when a client's password message arrives, before the host answers it (the
    answer is what tells a guesser whether it was right). Count an attempt as failed unless
    the client's confirmation verified, including a client that hung up after the host's
    SPAKE2 message.
    """

    def __init__(
        self,
        max_failures: int = 3,
        window: float = 60.0,
        *,
        backoff: float = 2.0,
        max_backoff: float = 30.0,
        table_burst: int = 20,
        table_rate: float = 1 / 3,
    ) -> None:
        if max_failures < 1 or table_burst < 1 or table_rate <= 0 or backoff <= 0:
            raise ValueError("a guess limiter needs positive limits")
        self.max_failures = max_failures
        self.window = window
        self.backoff = backoff
        self.max_backoff = max_backoff
        self.table_burst = table_burst
        self.table_rate = table_rate
        self._failures: dict[str, list[float]] = {}
        self._tokens = float(table_burst)
        self._stamp: float | None = None
        self._known: set[bytes] = set()

    def _refill(self, now: float) -> None:
        if self._stamp is not None:
            elapsed = max(0.0, now - self._stamp)  # a clock that steps back refills nothing
            self._tokens = min(float(self.table_burst), self._tokens + elapsed * self.table_rate)
        self._stamp = now

    def _recent(self, peer: str, now: float) -> list[float]:
        recent = [t for t in self._failures.get(peer, []) if now - t < self.window]
        if recent:
            self._failures[peer] = recent
        else:
            self._failures.pop(peer, None)
        return recent

    def wait(self, peer: str, now: float) -> float:
        """Seconds until ``peer`` may try its own backoff allows (0: now)."""
        recent = self._recent(peer, now)
        extra = len(recent) - self.max_failures
        if extra < 0:
            return 0.0
        pause = min(self.max_backoff, self.backoff * 2.0**extra)
        return max(0.0, recent[-1] + pause - now)

    def check(self, peer: str, now: float, key: bytes | None = None) -> None:
        """Raise ``PakeError(too_many_guesses)`` if an attempt from ``peer`` (with client
        static key ``key``, once known) must be refused now."""
        if key is not None and key in self._known:
            return
        wait = self.wait(peer, now)
        if wait > 0:
            raise PakeError(
                TOO_MANY_GUESSES,
                f"too many wrong room passwords from your address: wait {math.ceil(wait)} s "
                "and ask the host for the password",
            )
        self._refill(now)
        if self._tokens < 1.0:
            wait = (1.0 - self._tokens) / self.table_rate
            raise PakeError(
                TOO_MANY_GUESSES,
                f"this table has had too many wrong room passwords: wait {math.ceil(wait)} s",
            )

    def failed(self, peer: str, now: float) -> None:
        self._recent(peer, now)
        self._failures.setdefault(peer, []).append(now)
        self._refill(now)
        self._tokens -= 1.0  # may go below 0 (attempts admitted together): a longer wait

    def succeeded(self, peer: str, key: bytes | None = None) -> None:
        self._failures.pop(peer, None)
        if key is not None and len(self._known) < 1024:
            self._known.add(key)
