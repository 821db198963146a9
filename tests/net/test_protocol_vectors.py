"""tests/vectors/protocol-v1.json, replayed byte for byte (docs/protocol.md, "Test vectors").

The file is what ``tests/vectors/make_protocol_vectors.py`` writes with our own code; here
every part of it is also reproduced from the documents' recipes (hashlib, msgpack, the
``noiseprotocol`` package as an independent Noise), decoded by the client's own readers, and
the handshake's prologue is proven on a live host: a client that knows only the vector's bytes
completes a handshake with it. A live game checks that the host sends every message with
exactly the keys of the vector's example.
"""

from __future__ import annotations

import asyncio
import hashlib
import importlib.util
import json
import random
from pathlib import Path
from typing import Any

import msgpack
import pytest
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey
from net_helpers import LIMITS, LOOPBACK, CapturingSession, play_bots, running_host, wait_until

from netplay import handshake as hs
from netplay.commit_reveal import ClientRound
from netplay.framing import HEADER_BYTES, FrameDecoder, decode_payload, encode_payload
from netplay.mental import protocol as proto
from netplay.secure import (
    HandshakeReader,
    SecureInitiator,
    SecureResponder,
    make_prologue,
    pad,
    unpad,
)
from netplay.signing import Envelope
from wizard_tui.game import Deal, Game, GameConfig, Phase, RestrictLastBid, seat_view
from wizard_tui.net import protocol as p
from wizard_tui.net.host import HostOptions
from wizard_tui.net.round_check import RoundChecker
from wizard_tui.private_deal import round_setup
from wizard_tui.record import write_record
from wizard_tui.verify import verify_path

VECTORS = Path(__file__).resolve().parents[1] / "vectors"
DATA: dict[str, Any] = json.loads((VECTORS / "protocol-v1.json").read_text(encoding="utf-8"))
HANDSHAKE = DATA["handshake"]
CR = DATA["commit_reveal_round"]
PRIVATE = DATA["private_round"]

try:
    from noise.connection import Keypair, NoiseConnection
except ImportError:  # the oracle is a test extra; only its test skips without it
    NoiseConnection = None


def b(text: str) -> bytes:
    return bytes.fromhex(text)


def from_json(value: Any) -> Any:
    """The msgpack value a JSON value of the file stands for ({"bin": hex} is a bin)."""
    if type(value) is dict:
        if set(value) == {"bin"}:
            return b(value["bin"])
        return {k: from_json(v) for k, v in value.items()}
    if type(value) is list:
        return [from_json(v) for v in value]
    return value


def every_message() -> list[dict[str, Any]]:
    return [*CR["messages"], *PRIVATE["messages"], *DATA["messages"]]


def test_the_generator_writes_this_very_file() -> None:
    spec = importlib.util.spec_from_file_location("mpv", VECTORS / "make_protocol_vectors.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    text = (VECTORS / "protocol-v1.json").read_text(encoding="utf-8")
    assert module.render(module.build()) == text


# -- the handshake ----------------------------------------------------------------------------


def key(name: str) -> X25519PrivateKey:
    return X25519PrivateKey.from_private_bytes(b(HANDSHAKE["keys"][name]["private"]))


def test_prologue_bytes() -> None:
    # docs/security.md: "netplay/secure/v1", then the context with a u32 big-endian length.
    want = b"netplay/secure/v1" + (10).to_bytes(4, "big") + b"wizard-tui"
    assert b(HANDSHAKE["prologue"]["hex"]) == want == make_prologue(p.PROTOCOL)


def test_our_handshake_reproduces_the_transcript() -> None:
    prologue = b(HANDSHAKE["prologue"]["hex"])
    client = SecureInitiator(key("client_static"), prologue, ephemeral=key("client_ephemeral"))
    host = SecureResponder(key("host_static"), prologue, ephemeral=key("host_ephemeral"))
    m1, m2, m3 = (b(m["message"]) for m in HANDSHAKE["messages"])
    assert client.start() == m1
    assert host.receive(m1) == m2
    assert client.receive(m2) == m3
    assert host.receive(m3) is None and client.done and host.done
    assert client.remote_app_data == host.remote_app_data == {}  # Wizard's app maps: empty
    assert client.handshake_hash.hex() == host.handshake_hash.hex() == HANDSHAKE["handshake_hash"]
    for entry in HANDSHAKE["messages"]:
        wire = b(entry["message"])
        assert b(entry["frame"]) == len(wire).to_bytes(HEADER_BYTES, "big") + wire
    assert [len(b(m["message"])) for m in HANDSHAKE["messages"]] == [33, 111, 79]
    for entry in HANDSHAKE["messages"][1:]:
        assert msgpack.unpackb(b(entry["payload"])) == entry["payload_value"]
    assert HANDSHAKE["messages"][1]["payload_value"] == {"v": 2, "pake": False, "app": {}}
    assert HANDSHAKE["messages"][2]["payload_value"] == {"v": 2, "pake": None, "app": {}}
    for entry in HANDSHAKE["transport"]:
        payload = b(entry["payload"])
        assert payload == encode_payload(from_json(entry["value"]))
        sender, receiver = (client, host) if entry["from"] == "client" else (host, client)
        frame = b(entry["frame"])
        assert sender.seal(payload) == frame[HEADER_BYTES:]
        assert receiver.open(frame[HEADER_BYTES:]) == payload


def _oracle(initiator: bool, static: str, ephemeral: str) -> Any:
    conn = NoiseConnection.from_name(HANDSHAKE["noise_protocol"].encode())
    conn.set_as_initiator() if initiator else conn.set_as_responder()
    conn.set_keypair_from_private_bytes(Keypair.STATIC, b(HANDSHAKE["keys"][static]["private"]))
    conn.set_keypair_from_private_bytes(
        Keypair.EPHEMERAL, b(HANDSHAKE["keys"][ephemeral]["private"])
    )
    conn.set_prologue(b(HANDSHAKE["prologue"]["hex"]))
    conn.start_handshake()
    return conn


@pytest.mark.skipif(NoiseConnection is None, reason="noiseprotocol (test oracle) not installed")
@pytest.mark.filterwarnings("ignore:One of ephemeral keypairs is already set")
def test_an_independent_noise_reproduces_the_transcript() -> None:
    client = _oracle(True, "client_static", "client_ephemeral")
    host = _oracle(False, "host_static", "host_ephemeral")
    m1, m2, m3 = HANDSHAKE["messages"]
    assert bytes(client.write_message(b(m1["payload"]))).hex() == m1["message"]
    assert host.read_message(b(m1["message"])) == b"\x02"
    assert bytes(host.write_message(b(m2["payload"]))).hex() == m2["message"]
    assert client.read_message(b(m2["message"])) == b(m2["payload"])
    assert bytes(client.write_message(b(m3["payload"]))).hex() == m3["message"]
    assert host.read_message(b(m3["message"])) == b(m3["payload"])
    assert client.get_handshake_hash().hex() == HANDSHAKE["handshake_hash"]
    for entry in HANDSHAKE["transport"]:
        sender, receiver = (client, host) if entry["from"] == "client" else (host, client)
        frame = b(entry["frame"])
        # Transport version 2 pads each payload before it is encrypted (docs/security.md).
        assert bytes(sender.encrypt(pad(b(entry["payload"])))) == frame[HEADER_BYTES:]
        assert unpad(bytes(receiver.decrypt(frame[HEADER_BYTES:]))) == b(entry["payload"])


async def test_a_client_knowing_only_the_vector_bytes_joins_a_live_host() -> None:
    """The prologue and payloads of the document are the ones the host really uses: a
    client built from the vector's bytes (not from ``make_prologue``) is welcomed."""
    options = HostOptions(players=3, bots=1, bot_level="random", bot_delay=60.0)
    async with asyncio.timeout(20), running_host(options):
        reader, writer = await asyncio.open_connection(LOOPBACK, options.port)
        secure = SecureInitiator(X25519PrivateKey.generate(), b(HANDSHAKE["prologue"]["hex"]))
        frames = HandshakeReader()

        async def next_message() -> bytes:
            while (message := frames.next_message()) is None:
                frames.feed(await reader.read(4096))
            return message

        first = secure.start()
        writer.write(len(first).to_bytes(4, "big") + first)
        third = secure.receive(await next_message())
        assert third is not None and secure.done and secure.remote_app_data == {}
        hello = encode_payload(hs.hello(p.PROTOCOL, p.VERSION, "Vector", None))
        sealed = secure.seal(hello)
        writer.write(len(third).to_bytes(4, "big") + third)
        writer.write(len(sealed).to_bytes(4, "big") + sealed)
        decoder = FrameDecoder(LIMITS, cipher=secure)
        got = decoder.feed(frames.rest())
        while len(got) < 2:
            got += decoder.feed(await reader.read(65536))
        writer.close()
        assert got[0]["t"] == "welcome" and got[0]["resumed"] is False
        assert set(got[0]) == set(from_json(HANDSHAKE["transport"][1]["value"]))
        assert got[1]["t"] == "lobby"
        assert set(got[1]) == set(from_json(HANDSHAKE["transport"][2]["value"]))


# -- every message --------------------------------------------------------------------------


def test_every_message_type_has_an_example() -> None:
    sent = {e["value"]["t"] for e in every_message() if e["from"] != "host"}
    everything = [*every_message(), *HANDSHAKE["transport"]]
    told = {e["value"]["t"] for e in everything if e["from"] == "host"}
    assert sent == set(p.INBOUND.by_type) | {"hello", "pong", "bye"}
    # docs/protocol.md, "Messages from the host to a client", and netplay's own.
    assert told == {
        *("welcome", "lobby", "game", "round", "deal", "transcript", "void", "commitments"),
        *("state", "seats", "redeal", "round_end", "game_over", "refused", "chat", "snapshot"),
        *("error", "ping", "record_part"),
        *("bid_sealed", "bid_seals", "bids_open"),
    }


@pytest.mark.parametrize("entry", every_message(), ids=lambda e: e["value"]["t"])
def test_each_message_is_its_msgpack(entry: dict[str, Any]) -> None:
    value = from_json(entry["value"])
    payload = b(entry["msgpack"])
    assert encode_payload(value) == payload  # our encoder, byte for byte
    assert decode_payload(payload, p.LIMITS) == value  # the host's decoder and its limits
    assert len(payload) <= p.LIMITS.max_frame - 16
    t = value["t"]
    if entry["from"] == "host":
        _read_as_a_client(value)
    elif t == "hello":
        hs.check_hello(value, p.PROTOCOL, p.VERSION, p.LIMITS)
    elif t in ("pong", "bye"):
        assert value == {"t": t}
    else:
        assert p.INBOUND.check(value) == value  # the host's schema accepts it


def _read_as_a_client(msg: dict[str, Any]) -> None:
    """The client's own readers take the host's message (each raises on a malformed one)."""
    t = msg["t"]
    if t in ("state", "snapshot") and msg.get("view") is not None:
        view = p.view_from_wire(msg["view"], ())
        for event in msg.get("events", []):
            assert p.event_from_wire(event, view.players) is not None
    if "seats" in msg and t != "lobby":
        for info in msg["seats"]:
            assert p.seat_info_from_wire(info) is not None
    if t == "round_end":
        p.result_from_wire(msg["result"], 3)
    if t == "welcome":
        hs.check_welcome(msg)
    if t == "error":
        hs.ERROR_SCHEMA.check(msg)
    if t == "deal":
        Envelope.from_wire(msg["env"])


# -- the commit-reveal round ----------------------------------------------------------------


def test_commit_reveal_values_from_the_recipes() -> None:
    game_id, r, n = b(CR["game_id"]), CR["round"], CR["players"]
    seeds = [b(s) for s in CR["seeds"]]
    for seat in range(n):
        data = b"wizard-tui/v1/commit" + game_id + r.to_bytes(2, "big") + bytes([seat])
        assert b(CR["commitment_inputs"][seat]) == data + seeds[seat]
        assert hashlib.sha256(data + seeds[seat]).hexdigest() == CR["commitments"][seat]
    combined = b"wizard-tui/v1/deck" + game_id + r.to_bytes(2, "big") + b"".join(seeds)
    assert b(CR["combined_seed_input"]) == combined
    assert hashlib.sha256(combined).hexdigest() == CR["combined_seed"]
    # The shuffle, from the draws: each word is read from SHAKE-256(combined seed) in turn.
    stream = hashlib.shake_256(b(CR["combined_seed"])).digest(4 * 400)
    items, pos = list(range(60)), 0
    for draw in CR["shuffle_draws"]:
        m = draw["i"] + 1
        for word in draw["words"]:
            assert int.from_bytes(stream[pos : pos + 4], "big") == word
            pos += 4
        assert all(w >= (1 << 32) - (1 << 32) % m for w in draw["words"][:-1])  # rejected
        assert draw["j"] == draw["words"][-1] % m
        items[draw["i"]], items[draw["j"]] = items[draw["j"]], items[draw["i"]]
    assert items == CR["deck"]
    dealer = CR["dealer"]
    hands: list[list[int]] = [[] for _ in range(n)]
    for j in range(n * r):
        hands[(dealer + 1 + j) % n].append(CR["deck"][j])
    assert hands == CR["hands"] and CR["deck"][n * r] == CR["trump_card"]


def test_the_client_checks_the_commit_reveal_round() -> None:
    """Seat 0's own check (the client's ``RoundChecker``) passes on the vector's round."""
    msgs = [from_json(m["value"]) for m in CR["messages"]]
    game_id, n, r = b(CR["game_id"]), CR["players"], CR["round"]
    config = GameConfig(n, CR["first_dealer"], RestrictLastBid(CR["restrict"]))
    exchange = ClientRound(game_id, r, 0, n, new_seed=lambda: b(CR["seeds"][0]))
    assert exchange.commit_message() in msgs
    (vector,) = [m for m in msgs if m["t"] == "commitments"]
    exchange.receive_commitments(vector)
    assert exchange.seed_message() in msgs
    to_me = [
        m
        for m, e in zip(msgs, CR["messages"], strict=True)
        if m["t"] == "state" and e["note"].startswith("to seat 0 ")
    ]
    views = [p.view_from_wire(m["view"], ()) for m in to_me]
    assert [v.trick_leader for v in views[:3]] == [-1, -1, -1]  # until the bidding is over
    assert views[3].trick_leader == (CR["dealer"] + 1) % n and not views[3].trick
    (end,) = [m for m in msgs if m["t"] == "round_end"]
    result, seeds = p.result_from_wire(end["result"], n)
    outcome = RoundChecker(config, 0).check(exchange, result, seeds, views[-1], views[:1])
    assert outcome.ok, outcome.detail
    assert end["result"]["commitments"] == vector["commitments"]


# -- the privately dealt round --------------------------------------------------------------


def test_the_private_round_replays_through_a_relay() -> None:
    """Every envelope of the round's messages, fed to our relay in their order, is accepted
    and the round verifies to the vector's final deck; each play's open is its card's."""
    msgs = [(e["from"], from_json(e["value"])) for e in PRIVATE["messages"]]
    n, r = PRIVATE["players"], PRIVATE["round"]
    keys = [b(k) for k in PRIVATE["signing_keys"]]
    setup = round_setup(b(PRIVATE["game_id"]), r, n, PRIVATE["dealer"], keys, 0, hand_size=r)
    assert setup.digest.hex() == PRIVATE["setup_digest"]
    relay = proto.DealRelay(setup)
    (round_msg,) = [m for _, m in msgs if m["t"] == "round"]
    assert round_msg["signing_keys"] == keys and round_msg["attempt"] == 0
    relayed = 0
    passes: dict[str, list[int]] = {"shuffle": [], "lock": []}
    for sender, msg in msgs:
        if sender.startswith("seat ") and msg["t"] == "deal":
            body = proto.decode_body(Envelope.from_wire(msg["env"]).body)
            if body["t"] in passes:
                passes[body["t"]].append(body["pass"])
        if (
            sender.startswith("seat ")
            and msg["t"] in ("deal", "play")
            and (msg["t"] == "deal" or "open" in msg)
        ):
            env = Envelope.from_wire(msg["env"] if msg["t"] == "deal" else msg["open"])
            seat = int(sender.removeprefix("seat "))
            assert env.sender == seat
            if msg["t"] == "play":
                body = proto.decode_body(env.body)
                assert body["t"] == "open" and body["item"] == msg["card"]
            recipients, _ = relay.receive(seat, env)
            assert sorted(recipients) == [s for s in range(n) if s != seat]
            relayed += 1
    assert relayed == 5 * n  # shuffle, lock, release, one open and a reveal per seat
    # docs/private-deal.md section 7: a lock's "pass" is t, 0..n-1, as a shuffle's (not n + t).
    assert passes == {"shuffle": list(range(n)), "lock": list(range(n))}
    verdict = relay.view.result
    assert verdict is not None and list(verdict.items) == PRIVATE["final_deck"]
    assert PRIVATE["final_deck"][n * r] == PRIVATE["trump_card"]
    (end,) = [m for _, m in msgs if m["t"] == "round_end"]
    assert "seeds" not in end["result"] and "commitments" not in end["result"]


# -- the live host sends what the examples show ----------------------------------------------


def _examples() -> dict[tuple[str, str], set[str]]:
    """The keys of each example message, by (type, deal)."""
    out: dict[tuple[str, str], set[str]] = {}
    for e in HANDSHAKE["transport"]:  # a joining welcome, a lobby
        if e["from"] == "host":
            out[(e["value"]["t"], "any")] = set(e["value"])
    for deal, entries in (("commit-reveal", CR["messages"]), ("private", PRIVATE["messages"])):
        for e in entries:
            if e["from"] == "host":
                out.setdefault((e["value"]["t"], deal), set(e["value"]))
    for e in DATA["messages"]:
        if e["from"] == "host":
            out.setdefault((e["value"]["t"], "any"), set(e["value"]))
    return out


@pytest.mark.parametrize("deal", ["commit-reveal", "private"])
async def test_the_host_sends_the_keys_of_the_examples(deal: str, tmp_path: Path) -> None:
    options = HostOptions(players=3, bots=1, bot_level="random", deal=deal)
    async with asyncio.timeout(60), running_host(options) as host:
        sessions = [
            CapturingSession(LOOPBACK, options.port, name=name, limits=LIMITS)
            for name in ("Ann", "Bob")
        ]
        for session in sessions:
            await session.connect()
        game = asyncio.ensure_future(play_bots(sessions))
        if deal == "commit-reveal":  # a whole game: game_over too
            assert await game == [0, 0]
            await host.finished.wait()
        else:  # a private game's rounds are slower: its first two are enough
            await wait_until(lambda: sum(m["t"] == "round_end" for m in sessions[0].received) > 1)
            game.cancel()
            for session in sessions:
                await session.close()
            # docs/protocol.md, Records: a client's own private record (its view's order of
            # the envelopes, not the relay's) passes verify.
            for session in sessions:
                assert session.recorder is not None
                record = session.recorder.record()
                assert len(record.rounds) >= 2
                verdict = verify_path(write_record(tmp_path, record))
                assert verdict.ok, verdict.line()
    # docs/netplay.md, Commit-reveal: Wizard's seeds come in round_end, never in "seeds".
    assert "seeds" not in {m["t"] for m in sessions[0].received}
    examples = _examples()
    seen: set[str] = set()
    for msg in sessions[0].received:
        t = msg["t"]
        want = examples.get((t, deal), examples.get((t, "any")))
        if want is None:
            continue
        assert set(msg) == want, (t, sorted(msg), sorted(want))
        seen.add(t)
    assert {"welcome", "lobby", "game", "round", "state", "round_end"} <= seen
    assert ("game_over" in seen) == (deal == "commit-reveal")
    assert ("commitments" in seen) == (deal == "commit-reveal")
    assert ("deal" in seen) == (deal == "private")


def test_view_leader_is_as_documented() -> None:
    """docs/protocol.md, the view's ``leader``: -1 until the bidding is over; then the
    dealer's left for the first trick, the winner of the last completed trick after it (also
    once the round is over, until the next deal)."""
    rng = random.Random(5)
    for players in (3, 4, 6):
        game = Game(GameConfig(players, rng.randrange(players), RestrictLastBid.NEVER))
        for _ in range(3):
            assert p.view_wire(seat_view(game, 0))["leader"] == (
                -1 if game.round == 0 else game.results[-1].tricks[-1].winner
            )
            deck = list(range(60))
            rng.shuffle(deck)
            game.apply(Deal(tuple(deck)))
            while not game.is_over and game.phase is not Phase.DEAL:
                view = p.view_wire(seat_view(game, rng.randrange(players)))
                if game.phase in (Phase.CHOOSE_TRUMP, Phase.BID):
                    want = -1
                elif view["trick"]:
                    want = (game.turn - len(view["trick"])) % players
                elif view["tricks"]:
                    want = view["tricks"][-1][2]
                else:
                    want = (game.dealer + 1) % players
                assert view["leader"] == want, (game.phase, view)
                game.apply(rng.choice(game.legal_actions()))
