"""Who is at the other end: static keys, fingerprints and pinned hosts (TOFU). No sockets.

* ``StaticIdentity`` is an installation's long-lived X25519 key, the ``s`` of the Noise
  handshake, for hosts and players alike. ``load_or_create_identity(directory)`` keeps it
  in ``directory`` (the app passes the user's data directory) with mode 0600.
* ``fingerprint(public_key)`` is how people see a key: ``base32(SHA-256("netplay/v1/fp" ||
  key))[:16]`` in four groups, e.g. ``7F3K-9QX2-MM4D-R8TA`` (80 bits).
* ``KnownHosts`` pins a host's key the first time we connect to it, per label (the
  address and port, or the host name the user typed), like SSH's known_hosts. A different
  key later is refused loudly with ``HostKeyChanged``; the user decides what to do.
* ``roster_sas`` is a short code that players at one table compare on their screens: if the
  host swapped anyone's key, the codes differ.
"""

from __future__ import annotations

import base64
import contextlib
import hashlib
import hmac
import json
import logging
import os
import stat
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey

from .errors import HOST_KEY_CHANGED, IDENTITY_UNREADABLE, NetplayError, ProtocolError

log = logging.getLogger("netplay.identity")

KEY_FILE = "netplay-static-key.pem"
KNOWN_HOSTS_FILE = "known_hosts.json"
FINGERPRINT_LABEL = b"netplay/v1/fp"
ROSTER_LABEL = b"netplay/v1/roster"

# Error codes (defined in ``errors``, re-exported here): HOST_KEY_CHANGED, IDENTITY_UNREADABLE.

_POSIX = os.name == "posix"


class IdentityError(NetplayError):
    """A key or known-hosts file cannot be used; the message says which and what to do."""


# -- keys and fingerprints ----------------------------------------------------------------


def fingerprint(public_key: bytes) -> str:
    """The people-facing form of a 32-byte X25519 public key: ``XXXX-XXXX-XXXX-XXXX``."""
    if type(public_key) is not bytes or len(public_key) != 32:
        raise ValueError("a public key is 32 bytes")
    digest = hashlib.sha256(FINGERPRINT_LABEL + public_key).digest()
    code = base64.b32encode(digest).decode("ascii")[:16]
    return "-".join(code[i : i + 4] for i in range(0, 16, 4))


def normalize_fingerprint(text: str) -> str:
    """A fingerprint as typed or read aloud, in canonical form (case, spaces and dashes
    do not matter; 0/1/8 are read as O/I/B, which base32 does not use)."""
    code = "".join(ch for ch in text.upper() if ch not in " -\t")
    code = code.translate(str.maketrans("018", "OIB"))
    if len(code) != 16 or any(ch not in "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567" for ch in code):
        raise ValueError(f"{text!r} is not a fingerprint (16 letters and digits 2-7)")
    return "-".join(code[i : i + 4] for i in range(0, 16, 4))


@dataclass(frozen=True, eq=False)
class StaticIdentity:
    """An installation's static X25519 key pair."""

    private_key: X25519PrivateKey
    public_key: bytes

    @classmethod
    def generate(cls) -> StaticIdentity:
        return cls.from_private_key(X25519PrivateKey.generate())

    @classmethod
    def from_private_key(cls, key: X25519PrivateKey) -> StaticIdentity:
        public = key.public_key().public_bytes(
            serialization.Encoding.Raw, serialization.PublicFormat.Raw
        )
        return cls(key, public)

    @classmethod
    def from_private_bytes(cls, raw: bytes) -> StaticIdentity:
        return cls.from_private_key(X25519PrivateKey.from_private_bytes(raw))

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.public_key)

    def __repr__(self) -> str:  # never the private key
        return f"StaticIdentity({self.fingerprint})"


def load_or_create_identity(
    directory: str | os.PathLike[str], filename: str = KEY_FILE
) -> StaticIdentity:
    """This installation's static key from ``directory``, made on first use (mode 0600).

    Raises ``IdentityError`` if the file exists but is not a key: it is never overwritten,
    because a new key means every host that pinned us sees a stranger.
    """
    folder = Path(directory)
    path = folder / filename
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        identity = StaticIdentity.generate()
        pem = identity.private_key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
        if _create_exclusive(path, pem):
            log.info("created a new identity %s in %s", identity.fingerprint, path)
            return identity
        # Another process made one at the same moment: use theirs, so there is one key.
    return _load_identity(path)


def _load_identity(path: Path) -> StaticIdentity:
    _tighten(path)
    try:
        data = path.read_bytes()
        key = serialization.load_pem_private_key(data, password=None)
    except (OSError, ValueError, TypeError) as exc:
        raise IdentityError(
            IDENTITY_UNREADABLE,
            f"your identity key {path} cannot be read ({exc}). Restore it from a backup, or "
            "move it away to make a new one (hosts that knew you will then see a new player "
            "key).",
        ) from None
    if not isinstance(key, X25519PrivateKey):
        raise IdentityError(
            IDENTITY_UNREADABLE,
            f"{path} holds a {type(key).__name__}, not an X25519 key: move it away to make a "
            "new identity",
        )
    return StaticIdentity.from_private_key(key)


def _tighten(path: Path) -> None:
    """Make a key file private again if someone loosened it (SSH refuses; we repair)."""
    if not _POSIX:
        return
    with contextlib.suppress(OSError):
        mode = stat.S_IMODE(path.stat().st_mode)
        if mode & 0o077:
            log.warning("%s was readable by others (mode %o); set to 0600", path, mode)
            os.chmod(path, 0o600)


def _write_private(folder: Path, data: bytes) -> Path:
    """A new temporary file in ``folder`` holding ``data``, mode 0600, flushed to disk."""
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".tmp-", suffix=".netplay")
    try:
        if _POSIX:
            os.fchmod(fd, 0o600)  # mkstemp already uses 0600; be explicit whatever the umask
        with os.fdopen(fd, "wb") as out:
            out.write(data)
            out.flush()
            os.fsync(out.fileno())
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    return Path(tmp)


def _create_exclusive(path: Path, data: bytes) -> bool:
    """Write ``path`` atomically unless it exists; False if someone else created it first."""
    tmp = _write_private(path.parent, data)
    try:
        os.link(tmp, path)  # atomic and never replaces an existing file
        return True
    except FileExistsError:
        return False
    except OSError:
        # A filesystem without hard links: replace is still atomic, if not exclusive.
        if path.exists():
            return False
        os.replace(tmp, path)
        return True
    finally:
        with contextlib.suppress(OSError):
            os.unlink(tmp)


def _replace(path: Path, data: bytes) -> None:
    tmp = _write_private(path.parent, data)
    try:
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


# -- pinning ------------------------------------------------------------------------------


class HostKeyChanged(ProtocolError):
    """The host offered a different static key than the one pinned for it: refuse to join."""

    def __init__(
        self,
        pinned: bytes,
        offered: bytes,
        *,
        label: str | None = None,
        where: str | os.PathLike[str] | None = None,
    ) -> None:
        self.label = label
        self.pinned_key = pinned
        self.offered_key = offered
        self.pinned = fingerprint(pinned)
        self.offered = fingerprint(offered)
        host = label or "this host"
        entry = f"the entry for {label}" if label else "the host's entry"
        store = f" in {where}" if where else ""
        message = (
            f"WARNING: THE HOST KEY OF {host.upper()} HAS CHANGED.\n"
            f"  pinned fingerprint:  {self.pinned}\n"
            f"  offered fingerprint: {self.offered}\n"
            "Someone may be intercepting this connection (a man in the middle), or the host "
            "reinstalled the game or now runs on another computer. Not joining.\n"
            "Ask the host's player to read out the fingerprint shown on their screen. Only if "
            f"it matches the offered one, forget {entry}{store} and connect again."
        )
        super().__init__(HOST_KEY_CHANGED, message)


def host_label(host: str, port: int) -> str:
    """The known-hosts label of an address and port: ``name:port`` or ``[v6]:port``."""
    name = host.strip().lower().rstrip(".")
    if ":" in name and not name.startswith("["):
        name = f"[{name}]"
    return f"{name}:{port}"


class KnownHosts:
    """Hosts whose static keys we pinned on first use, in one JSON file (mode 0600).

    Each change re-reads the file before writing it, so two clients of one user do not
    undo each other's pins. ``verify`` is the one call a client needs after a handshake;
    ``expected`` gives the pinned key to check before our own identity is sent.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = Path(path)
        self._hosts = self._read()

    @classmethod
    def in_directory(cls, directory: str | os.PathLike[str]) -> KnownHosts:
        return cls(Path(directory) / KNOWN_HOSTS_FILE)

    def expected(self, label: str) -> bytes | None:
        """The key pinned for ``label``, or None if we never met it."""
        entry = self._hosts.get(label)
        return bytes.fromhex(entry["key"]) if entry is not None else None

    def verify(self, label: str, key: bytes) -> Literal["known", "new"]:
        """Check ``key`` against the pin for ``label``; pin it if there is none.

        Returns "known" (it matches) or "new" (pinned now: show the fingerprint, so the
        player can compare it with the host's screen). Raises ``HostKeyChanged`` on a
        mismatch, and changes nothing.
        """
        pinned = self.expected(label)
        if pinned is None:
            self.pin(label, key)
            return "new"
        if not hmac.compare_digest(pinned, key):
            raise HostKeyChanged(pinned, key, label=label, where=self.path)
        return "known"

    def pin(self, label: str, key: bytes) -> None:
        """Trust ``key`` for ``label`` from now on, replacing any earlier pin."""
        fp = fingerprint(key)  # validates the key
        entry = {"key": key.hex(), "fingerprint": fp, "pinned_at": _now()}
        self._update(lambda hosts: hosts.__setitem__(label, entry))

    def forget(self, label: str) -> bool:
        """Drop the pin for ``label``; True if there was one."""
        had = label in self._hosts
        self._update(lambda hosts: hosts.pop(label, None))
        return had

    def labels(self) -> list[str]:
        return sorted(self._hosts)

    def _update(self, change: Callable[[dict[str, dict[str, str]]], object]) -> None:
        hosts = self._read()
        change(hosts)
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        data = {"version": 1, "hosts": hosts}
        _replace(self.path, (json.dumps(data, indent=2, sort_keys=True) + "\n").encode())
        self._hosts = hosts

    def _read(self) -> dict[str, dict[str, str]]:
        try:
            raw = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return {}
        except OSError as exc:
            raise self._unreadable(str(exc)) from None
        try:
            data = json.loads(raw)
            hosts = data["hosts"]
            if data.get("version") != 1 or type(hosts) is not dict:
                raise ValueError("not a version 1 known-hosts file")
            for label, entry in hosts.items():
                if type(label) is not str or len(bytes.fromhex(entry["key"])) != 32:
                    raise ValueError(f"bad entry {label!r}")
        except (ValueError, KeyError, TypeError, AttributeError) as exc:
            # Never start afresh silently: that would quietly trust every host again.
            raise self._unreadable(str(exc)) from None
        return hosts

    def _unreadable(self, why: str) -> IdentityError:
        return IdentityError(
            IDENTITY_UNREADABLE,
            f"the known-hosts file {self.path} cannot be read ({why}). Fix it, or delete it "
            "to trust every host anew on its next connection.",
        )


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


# -- roster check ---------------------------------------------------------------------------


def roster_sas(context: bytes, keys: Sequence[bytes]) -> str:
    """An 8-character code (``XXXX-XXXX``, 40 bits) over a table's static keys in seat order.

    ``context`` identifies the game (e.g. its id), so codes of two games never match by
    construction. Players at one table compare it on their screens: if the host gave anyone
    a substituted key, that player's code differs.
    """
    parts = [ROSTER_LABEL, context, *keys]
    for key in keys:
        X25519PublicKey.from_public_bytes(key)  # 32 bytes, or ValueError
    encoded = b"".join(len(p).to_bytes(4, "big") + p for p in parts)
    code = base64.b32encode(hashlib.sha256(encoded).digest()).decode("ascii")[:8]
    return f"{code[:4]}-{code[4:]}"
