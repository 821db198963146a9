"""This installation's network identity and the host keys it pinned, in the user's data
directory (``wizard_tui.paths.data_dir()``).

* ``netplay-static-key.pem``: the static X25519 key this installation uses as a host and as
  a player (PKCS#8 PEM, mode 0600, made on first use in a 0700 directory).
* ``known_hosts.json``: the hosts' keys pinned on first connection (mode 0600).
* ``signing-key.ed25519``: the Ed25519 key this player signs the private deal's messages
  with (docs/private-deal.md; its 32-byte RFC 8032 seed, mode 0600, made on first use).
* ``round-secrets/``: the private deal's round secret while a round is played, so that a
  restarted client can carry on (mode 0600; each file is deleted after its round).
* ``players/1``, ``players/2``, ...: the player identities of ``join`` (each its own static
  key, signing key and round secrets, as above). Each running ``join`` holds one, locked
  (``flock``) until it exits, so that two programs of one account (two terminals, or friends
  on one shared machine) are two players with keys of their own; a program that died frees
  its slot, and the next run takes it again and with it its seat. The host and its own table
  use the data directory's own keys.

Both are netplay's formats (``netplay.identity``); this module only says where they live.
"""

from __future__ import annotations

import os
from pathlib import Path

try:
    import fcntl
except ImportError:  # not POSIX: one player identity per account, as before
    fcntl = None  # type: ignore[assignment]

from netplay import IdentityError, KnownHosts, StaticIdentity, load_or_create_identity
from netplay.errors import IDENTITY_UNREADABLE
from netplay.signing import SigningKey

from ..paths import data_dir


def load_identity(directory: Path | None = None) -> StaticIdentity:
    """The installation's static key, made on first use. Raises ``IdentityError`` (with a
    message for people) if the key file exists but cannot be used."""
    return load_or_create_identity(directory or data_dir())


def load_known_hosts(directory: Path | None = None) -> KnownHosts:
    """The pinned host keys. Raises ``IdentityError`` if the file is unreadable."""
    return KnownHosts.in_directory(directory or data_dir())


SIGNING_KEY_FILE = "signing-key.ed25519"
ROUND_SECRETS_DIR = "round-secrets"


def load_signing_key(directory: Path | None = None) -> SigningKey:
    """The player's persistent signing key, made on first use (mode 0600). Raises
    ``IdentityError`` if the file exists but cannot be used: it is never overwritten."""
    folder = directory or data_dir()
    path = folder / SIGNING_KEY_FILE
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        key = SigningKey.generate()
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            pass  # another process made one at the same moment: use theirs
        else:
            with os.fdopen(fd, "wb") as f:
                f.write(key.private_bytes())
            return key
    try:
        raw = path.read_bytes()
        if len(raw) != 32:
            raise ValueError(f"{len(raw)} bytes, not 32")
        return SigningKey.from_private_bytes(raw)
    except (OSError, ValueError) as exc:
        raise IdentityError(
            IDENTITY_UNREADABLE,
            f"your signing key {path} cannot be read ({exc}): restore it, or move it away to "
            "make a new one",
        ) from None


def round_secrets_dir(directory: Path | None = None) -> Path:
    """Where a player keeps the private deal's round secret during a round."""
    return (directory or data_dir()) / ROUND_SECRETS_DIR


PLAYERS_DIR = "players"
SLOT_LOCK = "in-use.lock"
MAX_SLOTS = 64
_held_locks: list[int] = []  # open lock files: held for the life of the process


def claim_player_dir(directory: Path | None = None) -> Path:
    """This running program's own player directory: the first of ``players/1``, ``2``, ...
    that no other running program holds; locked until this process ends (a SIGKILL too
    releases it). Raises ``IdentityError`` if none can be had."""
    base = (directory or data_dir()) / PLAYERS_DIR
    for k in range(1, MAX_SLOTS + 1):
        slot = base / str(k)
        try:
            slot.mkdir(mode=0o700, parents=True, exist_ok=True)
            fd = os.open(slot / SLOT_LOCK, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as exc:
            raise IdentityError(
                IDENTITY_UNREADABLE, f"cannot use the player directory {slot}: {exc}"
            ) from None
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                os.close(fd)  # another running program is this player
                continue
        _held_locks.append(fd)
        return slot
    raise IdentityError(
        IDENTITY_UNREADABLE, f"{MAX_SLOTS} programs of this account are playing already"
    )
