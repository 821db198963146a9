"""This installation's network identity and the host keys it pinned, in the user's data
directory (``wizard_tui.paths.data_dir()``).

* ``netplay-static-key.pem``: the static X25519 key this installation uses as a host and as
  a player (PKCS#8 PEM, mode 0600, made on first use in a 0700 directory).
* ``known_hosts.json``: the hosts' keys pinned on first connection (mode 0600).

Both are netplay's formats (``netplay.identity``); this module only says where they live.
"""

from __future__ import annotations

from pathlib import Path

from netplay import KnownHosts, StaticIdentity, load_or_create_identity

from ..paths import data_dir


def load_identity(directory: Path | None = None) -> StaticIdentity:
    """The installation's static key, made on first use. Raises ``IdentityError`` (with a
    message for people) if the key file exists but cannot be used."""
    return load_or_create_identity(directory or data_dir())


def load_known_hosts(directory: Path | None = None) -> KnownHosts:
    """The pinned host keys. Raises ``IdentityError`` if the file is unreadable."""
    return KnownHosts.in_directory(directory or data_dir())
