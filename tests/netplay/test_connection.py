"""The per-connection state machines, the rate limiter and the session table, without sockets."""

from __future__ import annotations

import pytest

from netplay import errors
from netplay.connection import (
    ClientConnection,
    Hello,
    PeerClosed,
    Phase,
    PingReceived,
    Received,
    ServerConnection,
    Welcome,
)
from netplay.errors import ProtocolError
from netplay.framing import encode
from netplay.limits import Limits
from netplay.ratelimit import TokenBucket
from netplay.sessions import SessionTable

HELLO = {"t": "hello", "protocol": "game", "version": 2, "name": "Ann", "token": None}


def server() -> ServerConnection:
    return ServerConnection("game", 2, Limits(), now=0.0)


def events(conn, *msgs, now: float = 0.0) -> list:
    conn.receive_data(b"".join(encode(m) for m in msgs))
    out = []
    while (event := conn.next_event(now)) is not None:
        out.append(event)
    return out


def refusal(conn, *msgs) -> ProtocolError:
    with pytest.raises(ProtocolError) as info:
        events(conn, *msgs)
    assert conn.phase is Phase.CLOSED
    return info.value


# -- server side --------------------------------------------------------------------------


def test_hello_opens_the_connection_and_raises_the_frame_limit():
    conn = server()
    assert conn.decoder.max_frame == Limits().handshake_frame
    [event] = events(conn, HELLO)
    assert event == Hello(name="Ann", token=None, msg=HELLO)
    assert conn.phase is Phase.OPEN
    assert conn.decoder.max_frame == Limits().max_frame


def test_messages_after_hello_reach_the_app_and_pings_are_answered():
    conn = server()
    big = {"t": "state", "pad": "x" * 2000}  # over the handshake limit, fine once open
    got = events(conn, HELLO, {"t": "ping"}, {"t": "pong"}, big)
    assert got[1:] == [PingReceived(), Received(big)]


def test_a_large_first_frame_is_refused_before_the_handshake():
    conn = server()
    err = refusal(conn, {**HELLO, "name": "x" * 600})
    assert err.code == errors.FRAME_TOO_LARGE


@pytest.mark.parametrize("first", [{"t": "play", "card": 1}, {"t": "ping"}, {"t": "bye"}])
def test_anything_before_hello_is_unexpected(first):
    err = refusal(server(), first)
    assert err.code == errors.UNEXPECTED_MESSAGE
    assert "expected hello first" in err.message


def test_wrong_protocol_is_named():
    err = refusal(server(), {**HELLO, "protocol": "http"})
    assert err.code == errors.WRONG_PROTOCOL
    assert "this host speaks game" in err.message


def test_incompatible_version_says_what_to_do():
    err = refusal(server(), {**HELLO, "version": 3})
    assert err.code == errors.INCOMPATIBLE_VERSION
    assert err.message == (
        "this host speaks game protocol 2; you have 3, newer than this host: "
        "install the same version as the host"
    )
    older = refusal(server(), {**HELLO, "version": 1})
    assert older.code == errors.INCOMPATIBLE_VERSION
    assert "you have 1, older than this host" in older.message
    odd = refusal(server(), {**HELLO, "version": "2"})
    assert odd.code == errors.INCOMPATIBLE_VERSION
    assert "you have '2': install" in odd.message


def test_version_is_checked_before_the_other_fields():
    # A newer client may add fields; it must still hear about the version first.
    err = refusal(server(), {**HELLO, "version": 3, "colour": "red"})
    assert err.code == errors.INCOMPATIBLE_VERSION


@pytest.mark.parametrize(
    "change",
    [
        {"name": ""},
        {"name": "x" * 33},
        {"name": "\x1b]0;pwned\x07"},
        {"name": 5},
        {"token": 5},
        {"version": True},
        {"extra": 1},
    ],
)
def test_malformed_hellos_are_refused(change):
    err = refusal(server(), {**HELLO, **change})
    assert err.code in (errors.BAD_MESSAGE, errors.INCOMPATIBLE_VERSION)


def test_a_second_hello_is_unexpected():
    err = refusal(server(), HELLO, HELLO)
    assert err.code == errors.UNEXPECTED_MESSAGE


def test_bye_closes_and_nothing_follows():
    conn = server()
    got = events(conn, HELLO, {"t": "bye"}, {"t": "after"})
    assert got[1:] == [PeerClosed("bye", "the client said goodbye")]
    assert conn.phase is Phase.CLOSED
    conn.receive_data(encode({"t": "more"}))
    assert conn.next_event(0.0) is None


def test_rate_limit_allows_a_burst_then_the_rate():
    conn = ServerConnection("game", 2, Limits(rate=10, burst=5), now=0.0)
    assert len(events(conn, HELLO, *[{"t": "m"}] * 4, now=0.0)) == 5
    err = refusal(conn, {"t": "m"})
    assert err.code == errors.RATE_LIMITED
    assert "5 messages at once or 10 a second" in err.message

    conn = ServerConnection("game", 2, Limits(rate=10, burst=5), now=0.0)
    events(conn, HELLO, *[{"t": "m"}] * 4, now=0.0)
    assert len(events(conn, {"t": "m"}, now=0.1)) == 1  # 0.1 s at 10/s refills one


def test_token_bucket():
    bucket = TokenBucket(rate=2, burst=3, now=100.0)
    assert [bucket.take(100.0) for _ in range(4)] == [True, True, True, False]
    assert bucket.take(100.5)  # one token back after half a second
    assert not bucket.take(100.5)
    assert [bucket.take(200.0) for _ in range(4)] == [True, True, True, False]  # capped at burst
    assert not bucket.take(50.0)  # a clock stepping back refills nothing


# -- client side --------------------------------------------------------------------------

WELCOME = {"t": "welcome", "session": "s1", "token": "tok", "resumed": False, "seat": 2, "x": [1]}


def test_welcome_opens_the_client_and_app_fields_pass():
    conn = ClientConnection()
    [event] = events(conn, WELCOME)
    assert event == Welcome("s1", "tok", False, 2, WELCOME)
    assert conn.phase is Phase.OPEN


def test_an_error_instead_of_welcome_ends_the_client():
    conn = ClientConnection()
    error = {"t": "error", "code": "incompatible_version", "message": "m", "fatal": True}
    assert events(conn, error) == [PeerClosed("incompatible_version", "m")]
    assert conn.phase is Phase.CLOSED


def test_non_fatal_errors_are_messages_and_fatal_ones_end_the_link():
    conn = ClientConnection()
    soft = {"t": "error", "code": "not_your_turn", "message": "wait", "fatal": False}
    hard = {"t": "error", "code": "kicked", "message": "bye", "fatal": True}
    got = events(conn, WELCOME, soft, {"t": "ping"}, hard, {"t": "late"})
    assert got[1:] == [Received(soft), PingReceived(), PeerClosed("kicked", "bye")]


def test_the_client_expects_a_welcome_first():
    err = refusal(ClientConnection(), {"t": "state"})
    assert err.code == errors.UNEXPECTED_MESSAGE


@pytest.mark.parametrize("change", [{"seat": True}, {"resumed": 1}, {"token": None}])
def test_malformed_welcomes_are_refused(change):
    assert refusal(ClientConnection(), {**WELCOME, **change}).code == errors.BAD_MESSAGE


def test_host_bye():
    got = events(ClientConnection(), WELCOME, {"t": "bye"})
    assert got[1] == PeerClosed("bye", "the host closed the game")


# -- sessions -----------------------------------------------------------------------------


def test_session_table_finds_sessions_by_token_only():
    table = SessionTable()
    ann, bob = table.create("Ann"), table.create("Bob")
    assert ann.id != bob.id and ann.token != bob.token
    assert len(ann.token) >= 32  # 24 random bytes
    assert table.by_token(bob.token) is bob
    assert table.by_token(bob.token[:-1]) is None
    assert table.by_token("") is None
    table.remove(bob)
    assert table.by_token(bob.token) is None
    assert list(table) == [ann] and ann in table and bob not in table
    assert ann.token not in repr(ann)  # the secret stays out of logs


def test_a_session_resumes_only_with_its_token_and_its_key():
    table = SessionTable()
    key_a, key_b = b"\x01" * 32, b"\x02" * 32
    ann = table.create("Ann", key_a)
    bob = table.create("Bob", key_a)  # one installation may hold two seats
    assert table.find(ann.token, key_a) is ann and table.find(bob.token, key_a) is bob
    assert table.find(ann.token, key_b) is None  # a stolen token, another key
    assert table.find(ann.token[:-1], key_a) is None
    assert table.find("", b"") is None
    keyless = table.create("Old")  # made without a key: never resumable by key
    assert table.find(keyless.token, b"") is None
    assert ann.fingerprint and keyless.fingerprint == ""
    assert key_a.hex() not in repr(ann)


@pytest.mark.parametrize(
    "bad",
    [
        {"handshake_frame": 0},
        {"handshake_frame": 70_000},
        {"max_frame": 1 << 32, "handshake_frame": 512},
        {"rate": 0},
        {"burst": 0},
        {"ping_interval": 20.0},
        {"max_handshaking": 0},
        {"max_connections": 0},
    ],
)
def test_limits_refuse_inconsistent_values(bad):
    with pytest.raises(ValueError):
        Limits(**bad)
