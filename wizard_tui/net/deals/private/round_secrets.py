"""A seat's round secrets on disk (``docs/private-deal.md`` section 10).

``SecretStore`` optionally keeps each round's secret in the data directory (mode 0600), so
that a client that crashed mid-round can carry on; the file is deleted once the round is
over.
"""

from __future__ import annotations

import contextlib
import os
import time
from dataclasses import dataclass
from pathlib import Path

SECRET_BYTES = 32
SECRET_PREFIX = "round-secret-"
STALE_SECONDS = 24 * 3600.0  # a round is long over by then


@dataclass
class SecretStore:
    """Round secrets kept in ``directory`` (mode 0600) so that a restarted client can
    carry on with its round; each is deleted when its round is over. ``exclusive``: no
    other running program uses ``directory`` (a locked player directory, keys.py), so a
    new run may delete every secret but the one of the attempt it carries on
    (``prune``); else only secrets older than ``STALE_SECONDS`` go."""

    directory: Path
    exclusive: bool = False

    def path(self, game_id: bytes, round_number: int, attempt: int) -> Path:
        return self.directory / f"{SECRET_PREFIX}{game_id.hex()}-{round_number}-{attempt}"

    def save(self, game_id: bytes, round_number: int, attempt: int, secret: bytes) -> None:
        self.directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        path = self.path(game_id, round_number, attempt)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(secret)

    def load(self, game_id: bytes, round_number: int, attempt: int) -> bytes | None:
        try:
            secret = self.path(game_id, round_number, attempt).read_bytes()
        except OSError:
            return None
        return secret if len(secret) == SECRET_BYTES else None

    def delete(self, game_id: bytes, round_number: int, attempt: int) -> None:
        with contextlib.suppress(OSError):
            self.path(game_id, round_number, attempt).unlink()

    def prune(self, keep: tuple[bytes, int, int] | None = None) -> int:
        """Delete stale secrets (a program killed mid-round left them): every one but
        ``keep`` (game id, round, attempt) if ``exclusive``, else those older than
        ``STALE_SECONDS``. How many were deleted."""
        kept = None if keep is None else self.path(*keep).name
        now, gone = time.time(), 0
        try:
            files = [p for p in self.directory.iterdir() if p.name.startswith(SECRET_PREFIX)]
        except OSError:
            return 0
        for path in files:
            with contextlib.suppress(OSError):
                if path.name == kept:
                    continue
                if self.exclusive or now - path.stat().st_mtime > STALE_SECONDS:
                    path.unlink()
                    gone += 1
        return gone


__all__ = ["SECRET_BYTES", "STALE_SECONDS", "SecretStore"]
