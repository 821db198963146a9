"""netplay.pake: SPAKE2 with key confirmation bound to the handshake hash, and the limiter."""

from __future__ import annotations

import os

import pytest

from netplay.errors import BAD_MESSAGE
from netplay.pake import (
    ROOM_CODE_ALPHABET,
    TOO_MANY_GUESSES,
    GuessLimiter,
    PakeError,
    PasswordExchange,
    generate_room_code,
    normalize_password,
)

CLIENT = os.urandom(32)
HOST = os.urandom(32)
H = os.urandom(32)


def run(
    client_pw: str,
    host_pw: str,
    *,
    client_h: bytes = H,
    host_h: bytes = H,
    host_seen_by_client: bytes = HOST,
    client_seen_by_host: bytes = CLIENT,
) -> tuple[bool, bool, PasswordExchange, PasswordExchange]:
    """One exchange; (client accepts host, host accepts client, client, host)."""
    client = PasswordExchange(
        "client", client_pw, client_static=CLIENT, host_static=host_seen_by_client
    )
    host = PasswordExchange("host", host_pw, client_static=client_seen_by_host, host_static=HOST)
    a, b = client.start(), host.start()
    client.finish(b, client_h)
    host.finish(a, host_h)
    return client.verify(host.confirmation()), host.verify(client.confirmation()), client, host


def test_same_password_confirms_both_ways() -> None:
    client_ok, host_ok, client, host = run("kettle-42", "kettle-42")
    assert client_ok and host_ok
    assert client.confirmation() != host.confirmation()  # distinct labels per direction


def test_wrong_password_fails_both_ways() -> None:
    client_ok, host_ok, _, _ = run("kettle-42", "kettle-43")
    assert not client_ok and not host_ok


def test_a_different_handshake_hash_fails_even_with_the_right_password() -> None:
    """A man in the middle has a different Noise session, so a different h, with each side."""
    client_ok, host_ok, _, _ = run("kettle-42", "kettle-42", host_h=os.urandom(32))
    assert not client_ok and not host_ok


@pytest.mark.parametrize("side", ["client", "host"])
def test_the_static_keys_are_bound_in(side: str) -> None:
    other = os.urandom(32)
    if side == "client":
        result = run("pw-pw-pw", "pw-pw-pw", host_seen_by_client=other)
    else:
        result = run("pw-pw-pw", "pw-pw-pw", client_seen_by_host=other)
    assert not result[0] and not result[1]


def test_messages_do_not_contain_the_password() -> None:
    pw = "correct horse battery staple"
    _, _, client, host = run(pw, pw)
    for blob in (client.start(), host.start(), client.confirmation(), host.confirmation()):
        assert pw.encode() not in blob
        assert len(blob) in (33, 32)


def test_every_exchange_is_fresh() -> None:
    one = PasswordExchange("client", "same", client_static=CLIENT, host_static=HOST)
    two = PasswordExchange("client", "same", client_static=CLIENT, host_static=HOST)
    assert one.start() != two.start()


@pytest.mark.parametrize(
    "message",
    # Fixed bytes, not os.urandom: pytest-xdist workers must collect identical test ids.
    [b"", b"B" + bytes(31), b"A" + bytes(range(7, 39)), b"B" + b"\xff" * 32],
    ids=["empty", "short", "wrong-side", "not-a-point"],
)
def test_bad_peer_messages_are_protocol_errors(message: bytes) -> None:
    client = PasswordExchange("client", "pw-pw-pw", client_static=CLIENT, host_static=HOST)
    with pytest.raises(PakeError) as err:
        client.finish(message, H)
    assert err.value.code == BAD_MESSAGE


def test_verify_refuses_wrong_types_and_lengths() -> None:
    _, _, client, host = run("pw-pw-pw", "pw-pw-pw")
    mac = host.confirmation()
    assert client.verify(mac)
    assert not client.verify(mac[:-1])
    assert not client.verify(bytearray(mac))  # type: ignore[arg-type]


def test_normalize_password() -> None:
    assert normalize_password("  ﬁsh  ") == b"fish"  # NFKC folds the ligature; ends trimmed
    assert normalize_password("Café") == normalize_password("Cafe\u0301")
    assert normalize_password("Fish") != normalize_password("fish")
    assert normalize_password(b"raw bytes") == b"raw bytes"
    for empty in ("", "   ", b""):
        with pytest.raises(ValueError):
            normalize_password(empty)


def test_equivalent_spellings_agree() -> None:
    client_ok, host_ok, _, _ = run("Cafe\u0301 ﬁve", "Café five")
    assert client_ok and host_ok


def test_room_codes() -> None:
    codes = {generate_room_code() for _ in range(50)}
    assert len(codes) == 50
    assert all(len(c) == 8 and set(c) <= set(ROOM_CODE_ALPHABET) for c in codes)
    assert not set("01IOL") & set(ROOM_CODE_ALPHABET)
    with pytest.raises(ValueError):
        generate_room_code(5)


def test_guess_limiter_backs_an_address_off_after_three_failures() -> None:
    limiter = GuessLimiter(max_failures=3, window=60.0, backoff=2.0, max_backoff=30.0)
    for t in (0.0, 1.0, 2.0):
        limiter.check("10.0.0.5", t)
        limiter.failed("10.0.0.5", t)
    with pytest.raises(PakeError) as err:
        limiter.check("10.0.0.5", 3.0)  # 2 s after the third wrong one
    assert err.value.code == TOO_MANY_GUESSES
    assert "wait 1 s" in err.value.message
    limiter.check("10.0.0.6", 3.0)  # another address is not affected
    limiter.check("10.0.0.5", 4.0)  # not locked out: backed off
    limiter.failed("10.0.0.5", 4.0)  # the fourth: 4 s, then 8 s, ... at most 30 s
    assert limiter.wait("10.0.0.5", 4.0) == 4.0
    for t in (5.0, 6.0, 7.0, 8.0):
        limiter.failed("10.0.0.5", t)
    assert limiter.wait("10.0.0.5", 8.0) == 30.0


def test_guess_limiter_forgets_old_failures() -> None:
    limiter = GuessLimiter(max_failures=3, window=60.0)
    for t in (0.0, 30.0, 61.0):  # the first has aged out when the third comes
        limiter.failed("p", t)
    limiter.check("p", 61.5)


def test_guess_limiter_success_clears() -> None:
    limiter = GuessLimiter(max_failures=2, window=60.0)
    limiter.failed("p", 0.0)
    limiter.succeeded("p")
    limiter.failed("p", 1.0)
    limiter.check("p", 2.0)


def test_guess_limiter_counts_the_whole_table() -> None:
    # Rotating addresses: none is over its own limit, the table is.
    limiter = GuessLimiter(table_burst=5, table_rate=0.5)
    for i in range(5):
        limiter.check(f"127.0.0.{i + 2}", 0.0)
        limiter.failed(f"127.0.0.{i + 2}", 0.0)
    with pytest.raises(PakeError) as err:
        limiter.check("127.0.0.99", 0.0)
    assert err.value.code == TOO_MANY_GUESSES and "this table" in err.value.message
    limiter.check("127.0.0.99", 2.0)  # a token is back after 1 / table_rate seconds


def test_guess_limiter_never_refuses_a_key_that_proved_the_password() -> None:
    limiter = GuessLimiter(max_failures=1, table_burst=1)
    player = bytes(32)
    limiter.succeeded("10.0.0.5", player)
    limiter.failed("10.0.0.5", 0.0)  # someone else behind the same address guesses
    with pytest.raises(PakeError):
        limiter.check("10.0.0.5", 0.5, bytes([1]) * 32)
    limiter.check("10.0.0.5", 0.5, player)  # the player's own program is never locked out
