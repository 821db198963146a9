"""netplay.identity: the static key on disk, fingerprints, known hosts (TOFU), roster codes."""

from __future__ import annotations

import base64
import hashlib
import json
import os
import re
import stat
from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from netplay.errors import ProtocolError
from netplay.identity import (
    HOST_KEY_CHANGED,
    IDENTITY_UNREADABLE,
    KEY_FILE,
    HostKeyChanged,
    IdentityError,
    KnownHosts,
    StaticIdentity,
    fingerprint,
    host_label,
    load_or_create_identity,
    normalize_fingerprint,
    roster_sas,
)

posix_only = pytest.mark.skipif(os.name != "posix", reason="file modes are POSIX")

FP = re.compile(r"^[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}-[A-Z2-7]{4}$")


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


# -- fingerprints ---------------------------------------------------------------------------


def test_fingerprint_is_the_documented_formula() -> None:
    key = bytes(range(32))
    digest = hashlib.sha256(b"netplay/v1/fp" + key).digest()
    code = base64.b32encode(digest).decode()[:16]
    assert fingerprint(key) == f"{code[:4]}-{code[4:8]}-{code[8:12]}-{code[12:16]}"
    assert FP.match(fingerprint(key))


def test_fingerprints_differ_per_key_and_refuse_bad_keys() -> None:
    keys = {StaticIdentity.generate().public_key for _ in range(20)}
    assert len({fingerprint(k) for k in keys}) == 20
    with pytest.raises(ValueError):
        fingerprint(b"\x00" * 31)


def test_normalize_fingerprint_forgives_case_spaces_and_lookalikes() -> None:
    fp = fingerprint(bytes(32))
    assert normalize_fingerprint(fp.lower().replace("-", " ")) == fp
    assert normalize_fingerprint("OIBA AAAA AAAA AAAA") == normalize_fingerprint(
        "01BA-aaaa-aaaaaaaa"
    )
    with pytest.raises(ValueError):
        normalize_fingerprint("ABCD-EFGH")
    with pytest.raises(ValueError):
        normalize_fingerprint("ABCD-EFGH-ABCD-EF9H")  # 9 is not base32


def test_identity_repr_shows_no_secret() -> None:
    identity = StaticIdentity.generate()
    raw = identity.private_key.private_bytes(
        serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption()
    )
    assert raw.hex() not in repr(identity)
    assert identity.fingerprint in repr(identity)


# -- the key file ------------------------------------------------------------------------------


@posix_only
def test_identity_is_created_private_and_survives_reload(tmp_path: Path) -> None:
    folder = tmp_path / "data" / "wizard"
    first = load_or_create_identity(folder)
    path = folder / KEY_FILE
    assert mode(path) == 0o600
    assert mode(folder) == 0o700
    again = load_or_create_identity(folder)
    assert again.public_key == first.public_key
    assert again.fingerprint == first.fingerprint
    # The private half really is the same: the same shared secret with a third key.
    other = StaticIdentity.generate()
    peer = other.private_key.public_key()
    assert again.private_key.exchange(peer) == first.private_key.exchange(peer)
    assert [p.name for p in folder.iterdir()] == [KEY_FILE]  # no temporary files left


@posix_only
def test_identity_private_whatever_the_umask(tmp_path: Path) -> None:
    old = os.umask(0)
    try:
        load_or_create_identity(tmp_path)
    finally:
        os.umask(old)
    assert mode(tmp_path / KEY_FILE) == 0o600


@posix_only
def test_a_loosened_key_file_is_made_private_again(tmp_path: Path) -> None:
    first = load_or_create_identity(tmp_path)
    os.chmod(tmp_path / KEY_FILE, 0o644)
    assert load_or_create_identity(tmp_path).public_key == first.public_key
    assert mode(tmp_path / KEY_FILE) == 0o600


def test_a_corrupt_key_file_is_refused_and_kept(tmp_path: Path) -> None:
    path = tmp_path / KEY_FILE
    path.write_bytes(b"not a key")
    with pytest.raises(IdentityError) as err:
        load_or_create_identity(tmp_path)
    assert err.value.code == IDENTITY_UNREADABLE
    assert str(path) in err.value.message
    assert path.read_bytes() == b"not a key"


def test_a_key_of_the_wrong_type_is_refused(tmp_path: Path) -> None:
    pem = Ed25519PrivateKey.generate().private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )
    (tmp_path / KEY_FILE).write_bytes(pem)
    with pytest.raises(IdentityError, match="X25519"):
        load_or_create_identity(tmp_path)


def test_a_key_created_meanwhile_by_another_process_wins(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    theirs = StaticIdentity.generate()
    real_generate = StaticIdentity.generate

    def generate_while_another_writes() -> StaticIdentity:
        pem = theirs.private_key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
        (tmp_path / KEY_FILE).write_bytes(pem)
        return real_generate()

    monkeypatch.setattr(StaticIdentity, "generate", staticmethod(generate_while_another_writes))
    assert load_or_create_identity(tmp_path).public_key == theirs.public_key


# -- known hosts -------------------------------------------------------------------------------


def test_host_label() -> None:
    assert host_label("Table.LAN.", 4000) == "table.lan:4000"
    assert host_label("192.168.1.7", 4000) == "192.168.1.7:4000"
    assert host_label("fe80::1", 4000) == "[fe80::1]:4000"


def test_trust_on_first_use_then_known(tmp_path: Path) -> None:
    hosts = KnownHosts.in_directory(tmp_path)
    key = StaticIdentity.generate().public_key
    assert hosts.expected("table:4000") is None
    assert hosts.verify("table:4000", key) == "new"
    assert hosts.verify("table:4000", key) == "known"
    assert KnownHosts.in_directory(tmp_path).expected("table:4000") == key  # persisted


def test_a_changed_host_key_is_refused_loudly(tmp_path: Path) -> None:
    hosts = KnownHosts.in_directory(tmp_path)
    old, new = StaticIdentity.generate(), StaticIdentity.generate()
    hosts.verify("table:4000", old.public_key)
    before = hosts.path.read_bytes()
    with pytest.raises(HostKeyChanged) as err:
        hosts.verify("table:4000", new.public_key)
    exc = err.value
    assert isinstance(exc, ProtocolError)
    assert exc.code == HOST_KEY_CHANGED
    assert exc.pinned == old.fingerprint and exc.offered == new.fingerprint
    for needle in (old.fingerprint, new.fingerprint, "table:4000", str(hosts.path), "CHANGED"):
        assert needle in exc.message
    assert hosts.path.read_bytes() == before  # nothing re-pinned behind the user's back
    assert hosts.expected("table:4000") == old.public_key


def test_forget_then_pin_the_new_key(tmp_path: Path) -> None:
    hosts = KnownHosts.in_directory(tmp_path)
    old, new = StaticIdentity.generate(), StaticIdentity.generate()
    hosts.verify("table:4000", old.public_key)
    assert hosts.forget("table:4000") is True
    assert hosts.forget("table:4000") is False
    assert hosts.verify("table:4000", new.public_key) == "new"


def test_pins_are_per_label(tmp_path: Path) -> None:
    hosts = KnownHosts.in_directory(tmp_path)
    a, b = StaticIdentity.generate(), StaticIdentity.generate()
    hosts.verify("table:4000", a.public_key)
    assert hosts.verify("table:4001", b.public_key) == "new"
    assert hosts.labels() == ["table:4000", "table:4001"]


def test_two_stores_on_one_file_keep_each_others_pins(tmp_path: Path) -> None:
    one, two = KnownHosts.in_directory(tmp_path), KnownHosts.in_directory(tmp_path)
    a, b = StaticIdentity.generate(), StaticIdentity.generate()
    one.pin("a:1", a.public_key)
    two.pin("b:1", b.public_key)
    assert KnownHosts.in_directory(tmp_path).labels() == ["a:1", "b:1"]


@posix_only
def test_known_hosts_file_is_private(tmp_path: Path) -> None:
    hosts = KnownHosts.in_directory(tmp_path)
    hosts.pin("a:1", StaticIdentity.generate().public_key)
    assert mode(hosts.path) == 0o600
    data = json.loads(hosts.path.read_text())
    assert data["version"] == 1 and set(data["hosts"]["a:1"]) == {"key", "fingerprint", "pinned_at"}


@pytest.mark.parametrize(
    "content",
    ["{not json", '{"version": 2, "hosts": {}}', '{"version": 1, "hosts": {"a:1": {"key": "00"}}}'],
)
def test_a_corrupt_known_hosts_file_is_never_silently_reset(tmp_path: Path, content: str) -> None:
    path = tmp_path / "known_hosts.json"
    path.write_text(content)
    with pytest.raises(IdentityError) as err:
        KnownHosts(path)
    assert err.value.code == IDENTITY_UNREADABLE
    assert path.read_text() == content


# -- roster code -------------------------------------------------------------------------------


def test_roster_sas_changes_with_any_key_order_or_context() -> None:
    keys = [StaticIdentity.generate().public_key for _ in range(4)]
    code = roster_sas(b"game-1", keys)
    assert re.match(r"^[A-Z2-7]{4}-[A-Z2-7]{4}$", code)
    assert roster_sas(b"game-1", list(keys)) == code
    swapped = [*keys[:2], StaticIdentity.generate().public_key, keys[3]]
    assert roster_sas(b"game-1", swapped) != code
    assert roster_sas(b"game-1", [keys[1], keys[0], *keys[2:]]) != code
    assert roster_sas(b"game-2", keys) != code
    with pytest.raises(ValueError):
        roster_sas(b"game-1", [b"short"])
