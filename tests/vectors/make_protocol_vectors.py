"""Write tests/vectors/protocol-v1.json: byte-level examples of the Wizard protocol.

    .venv/bin/python tests/vectors/make_protocol_vectors.py [--check]

Everything is fixed (keys, seeds, names, tokens, the order of play), so the file is the same
on every run; ``--check`` compares instead of writing. Every value is made by the code a
host and a client run (``netplay.secure``, ``netplay.framing``, ``netplay.fairdeal``,
``netplay.mental``, ``wizard_tui.net.protocol``, the rules engine), and
``tests/net/test_protocol_vectors.py`` replays it byte for byte. Contents (docs/protocol.md,
"Test vectors"):

- ``handshake``: the Noise prologue, a whole Noise XX handshake with fixed static and
  ephemeral keys (each message's payload, bytes and frame), the handshake hash, and the
  first transport frames (hello, welcome, lobby) sealed with the resulting keys;
- ``commit_reveal_round``: round 1 of a 3-seat game dealt by commit-reveal, every value of
  the deal (commitment and combined-seed inputs, the shuffle's draws, the deck, the hands)
  and every message of the round in order, as msgpack;
- ``private_round``: round 1 of a 3-seat game dealt privately, every message of the round
  in order (the deal's own values are those of docs/private-deal.md, whose vectors are
  ``private-deal-v1.json``; this round's keys come from the fixed secrets below);
- ``messages``: one example of every other message type, as msgpack.

In JSON a msgpack bin is ``{"bin": "<hex>"}``; everything else is itself. ``msgpack`` is the
frame payload in hex, exactly as our code encodes it (shortest int and string forms, keys
in the order shown); a reader must accept any key order.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections import deque
from pathlib import Path
from typing import Any

from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from netplay import fairdeal  # noqa: E402
from netplay import handshake as hs  # noqa: E402
from netplay.commit_reveal import commit_msg, commitments_msg, seed_msg  # noqa: E402
from netplay.framing import encode_payload, frame  # noqa: E402
from netplay.identity import fingerprint  # noqa: E402
from netplay.mental import protocol as proto  # noqa: E402
from netplay.mental import sra  # noqa: E402
from netplay.noise import PROTOCOL_NAME, public_bytes  # noqa: E402
from netplay.secure import (  # noqa: E402
    DEFAULT_PROLOGUE,
    SecureInitiator,
    SecureResponder,
    make_prologue,
)
from netplay.secure import VERSION as TRANSPORT_VERSION  # noqa: E402
from netplay.signing import Envelope, SigningKey  # noqa: E402
from wizard_tui.bid_seal import bid_seal  # noqa: E402
from wizard_tui.game import (  # noqa: E402
    Bid,
    Deal,
    Game,
    GameConfig,
    Play,
    RestrictLastBid,
    seat_view,
)
from wizard_tui.game.hidden import HiddenGame  # noqa: E402
from wizard_tui.net import protocol as p  # noqa: E402
from wizard_tui.private_deal import round_setup  # noqa: E402
from wizard_tui.session import SeatInfo  # noqa: E402

OUT = Path(__file__).resolve().parent / "protocol-v1.json"
PLAYERS = 3
NAMES = ("Ann", "Bob", "Cy")


def fixed(label: str) -> bytes:
    """32 fixed bytes: SHA-256 of an ASCII label."""
    return hashlib.sha256(label.encode()).digest()


def x25519(label: str) -> X25519PrivateKey:
    return X25519PrivateKey.from_private_bytes(fixed(label))


def raw_private(key: X25519PrivateKey) -> bytes:
    from cryptography.hazmat.primitives import serialization

    return key.private_bytes(
        serialization.Encoding.Raw, serialization.PrivateFormat.Raw, serialization.NoEncryption()
    )


def to_json(value: Any) -> Any:
    """A msgpack value as JSON: bin as {"bin": hex}."""
    if type(value) is bytes:
        return {"bin": value.hex()}
    if type(value) is list:
        return [to_json(v) for v in value]
    if type(value) is dict:
        return {k: to_json(v) for k, v in value.items()}
    return value


def wire(sender: str, msg: dict[str, Any], note: str | None = None) -> dict[str, Any]:
    """One message: who sends it, its value and its msgpack payload."""
    entry: dict[str, Any] = {"from": sender, "value": to_json(msg)}
    entry["msgpack"] = encode_payload(msg).hex()
    if note:
        entry["note"] = note
    return entry


def payload_wire(sender: str, payload: bytes, note: str | None = None) -> dict[str, Any]:
    """A message the host encodes itself (``state``: ``protocol.state_payloads``)."""
    import msgpack

    entry: dict[str, Any] = {"from": sender, "value": to_json(msgpack.unpackb(payload))}
    entry["msgpack"] = payload.hex()
    if note:
        entry["note"] = note
    return entry


def seats_wire() -> list[dict[str, Any] | None]:
    return [p.seat_info_wire(SeatInfo(name, "human", True)) for name in NAMES]


# -- the handshake -----------------------------------------------------------------------


def handshake() -> dict[str, Any]:
    keys = {
        "client_static": x25519("protocol-v1 client static"),
        "client_ephemeral": x25519("protocol-v1 client ephemeral"),
        "host_static": x25519("protocol-v1 host static"),
        "host_ephemeral": x25519("protocol-v1 host ephemeral"),
    }
    prologue = make_prologue(p.PROTOCOL)
    client = SecureInitiator(keys["client_static"], prologue, ephemeral=keys["client_ephemeral"])
    host = SecureResponder(keys["host_static"], prologue, ephemeral=keys["host_ephemeral"])
    m1 = client.start()
    m2 = host.receive(m1)
    assert m2 is not None
    m3 = client.receive(m2)
    assert m3 is not None and host.receive(m3) is None and client.done and host.done
    assert client.handshake_hash == host.handshake_hash
    import msgpack

    p2 = {"v": TRANSPORT_VERSION, "pake": False, "app": {}}
    p3 = {"v": TRANSPORT_VERSION, "pake": None, "app": {}}
    hello = hs.hello(p.PROTOCOL, p.VERSION, NAMES[0], None)
    welcome = hs.welcome(
        "q3Jx8u0A",
        "c2VjcmV0LXRva2VuLW9mLXRoaXMtZXhhbXBsZQ",
        resumed=False,
        seat=0,
        extra={"players": PLAYERS},
    )
    lobby = {
        "t": "lobby",
        "seats": [p.seat_info_wire(SeatInfo(NAMES[0], "human", True)), None, None],
        "you": 0,
        "host": False,
        "addresses": ["192.168.1.7"],
        "port": p.DEFAULT_PORT,
        "can_start": False,
        "settings": {"bot_level": "normal", "restrict_last_bid": "never"},
        "levels": [None, None, None],
        "deal": p.DEAL_PRIVATE,
    }
    transport = []
    for sender, msg in (("client", hello), ("host", welcome), ("host", lobby)):
        payload = encode_payload(msg)
        sealed = (client if sender == "client" else host).seal(payload)
        transport.append(
            {
                "from": sender,
                "value": to_json(msg),
                "payload": payload.hex(),
                "frame": frame(sealed).hex(),
            }
        )
    return {
        "noise_protocol": PROTOCOL_NAME.decode(),
        "prologue": {
            "parts": [DEFAULT_PROLOGUE.decode(), "u32be(10)", p.PROTOCOL],
            "hex": prologue.hex(),
        },
        "keys": {
            name: {"private": raw_private(k).hex(), "public": public_bytes(k).hex()}
            for name, k in keys.items()
        },
        "fingerprints": {
            "client": fingerprint(public_bytes(keys["client_static"])),
            "host": fingerprint(public_bytes(keys["host_static"])),
        },
        "messages": [
            {
                "n": 1,
                "from": "client",
                "payload": bytes([TRANSPORT_VERSION]).hex(),
                "message": m1.hex(),
                "frame": frame(m1).hex(),
            },
            {
                "n": 2,
                "from": "host",
                "payload_value": p2,
                "payload": msgpack.packb(p2).hex(),
                "message": m2.hex(),
                "frame": frame(m2).hex(),
            },
            {
                "n": 3,
                "from": "client",
                "payload_value": p3,
                "payload": msgpack.packb(p3).hex(),
                "message": m3.hex(),
                "frame": frame(m3).hex(),
            },
        ],
        "handshake_hash": client.handshake_hash.hex(),
        "transport": transport,
    }


# -- a commit-reveal round ------------------------------------------------------------------


def shuffle_draws(seed: bytes, count: int) -> list[dict[str, Any]]:
    """Every draw of ``fairdeal.shuffle_order``: for i from count-1 down to 1, the 4-byte
    words read (rejected ones too) and the index j swapped with i."""
    stream = hashlib.shake_256(seed).digest(4 * 400)
    pos, out = 0, []
    for i in range(count - 1, 0, -1):
        m = i + 1
        limit = (1 << 32) - ((1 << 32) % m)
        words = []
        while True:
            x = int.from_bytes(stream[pos : pos + 4], "big")
            pos += 4
            words.append(x)
            if x < limit:
                break
        out.append({"i": i, "words": words, "j": words[-1] % m})
    return out


def commit_reveal_round() -> dict[str, Any]:
    game_id = fixed("protocol-v1 commit-reveal game id")[:16]
    r, n = 1, PLAYERS
    config = GameConfig(n, 0, RestrictLastBid.NEVER)
    game = Game(config)
    seeds = [fixed(f"protocol-v1 commit-reveal seed {s}") for s in range(n)]
    tag = fairdeal.COMMIT_TAG
    commit_inputs = [tag + game_id + r.to_bytes(2, "big") + bytes([s]) + seeds[s] for s in range(n)]
    commitments = [fairdeal.commitment(game_id, r, s, seeds[s]) for s in range(n)]
    assert commitments == [hashlib.sha256(x).digest() for x in commit_inputs]
    combined_input = fairdeal.DECK_TAG + game_id + r.to_bytes(2, "big") + b"".join(seeds)
    combined = fairdeal.combined_seed(game_id, r, seeds)
    deck = fairdeal.shuffle_order(combined, 60)
    dealer = (game.dealer + 1) % n

    msgs: list[dict[str, Any]] = []
    game_msg = {
        "t": "game",
        "you": 0,
        "game_id": game_id,
        "players": [{"name": name, "kind": "human"} for name in NAMES],
        "rules": config.rules.to_wire(),
        "first_dealer": config.first_dealer,
        "deal": "commit-reveal",
    }
    msgs.append(wire("host", game_msg, "to seat 0 (each seat gets its own `you`)"))
    msgs.append(wire("host", {"t": "round", "round": r, "dealer": dealer}, "to every seat"))
    for s in range(n):
        msgs.append(wire(f"seat {s}", commit_msg(r, commitments[s])))
    msgs.append(wire("host", commitments_msg(r, commitments), "to every seat, once all are in"))
    for s in range(n):
        msgs.append(wire(f"seat {s}", seed_msg(r, seeds[s]), "to the host only"))

    def states(events: list[Any], note: str) -> None:
        payloads = p.state_payloads(game, seats_wire(), [p.event_wire(e) for e in events])
        for s in range(n):
            msgs.append(payload_wire("host", payloads[s], f"to seat {s} only: {note}"))

    states(game.apply(Deal(tuple(deck))), "the deal")
    assert game.dealer == dealer and game.round == r
    bids = {s: 1 if s == (dealer + 1) % n else 0 for s in range(n)}
    for i in range(n):
        s = (dealer + 1 + i) % n
        msgs.append(wire(f"seat {s}", p.bid_msg(s, r, bids[s])))
        states(game.apply(Bid(s, bids[s])), f"seat {s} bid")
    for _ in range(n * r):
        s = game.turn
        card = game.legal_plays()[0]
        msgs.append(wire(f"seat {s}", p.play_msg(s, r, card)))
        states(game.apply(Play(s, card)), f"seat {s} played")
    result = game.results[-1]
    end = p.result_wire(result, seeds)
    end["commitments"] = list(commitments)
    msgs.append(wire("host", {"t": "round_end", "result": end}, "to every seat"))
    msgs.append(wire("host", {"t": "round", "round": r + 1, "dealer": (dealer + 1) % n}))
    return {
        "players": n,
        "restrict": config.restrict_last_bid.value,
        "first_dealer": config.first_dealer,
        "game_id": game_id.hex(),
        "round": r,
        "dealer": dealer,
        "seeds": [s.hex() for s in seeds],
        "commitment_inputs": [x.hex() for x in commit_inputs],
        "commitments": [c.hex() for c in commitments],
        "combined_seed_input": combined_input.hex(),
        "combined_seed": combined.hex(),
        "shuffle_draws": shuffle_draws(combined, 60),
        "deck": deck,
        "hands": [list(h) for h in result.hands],
        "trump_card": result.trump_card,
        "messages": msgs,
    }


# -- a privately dealt round -------------------------------------------------------------


def private_round() -> dict[str, Any]:
    game_id = fixed("protocol-v1 private game id")[:16]
    r, n = 1, PLAYERS
    config = GameConfig(n, 0, RestrictLastBid.NEVER)
    game = HiddenGame(config)
    dealer = (game.full.dealer + 1) % n
    signing_seeds = [fixed(f"protocol-v1 signing {s}") for s in range(n)]
    signers = [SigningKey.from_private_bytes(seed) for seed in signing_seeds]
    keys = [k.public_key for k in signers]
    setup = round_setup(game_id, r, n, dealer, keys, 0, hand_size=r)
    secrets = [fixed(f"protocol-v1 round secret {s}") for s in range(n)]
    players = [
        proto.DealPlayer(setup, s, signers[s], sra.RoundKeys.derive(secrets[s], 60))
        for s in range(n)
    ]
    relay = proto.DealRelay(setup)
    msgs: list[dict[str, Any]] = []
    for s in range(n):
        msgs.append(wire(f"seat {s}", {"t": "sign_key", "key": keys[s]}, "in the lobby"))
    game_msg = {
        "t": "game",
        "you": 0,
        "game_id": game_id,
        "players": [{"name": name, "kind": "human"} for name in NAMES],
        "rules": config.rules.to_wire(),
        "first_dealer": config.first_dealer,
        "deal": p.DEAL_PRIVATE,
        "signing_keys": keys,
    }
    msgs.append(wire("host", game_msg, "to seat 0 (each seat gets its own `you`)"))
    round_msg = {"t": "round", "round": r, "dealer": dealer, "attempt": 0, "signing_keys": keys}
    msgs.append(wire("host", round_msg, "to every seat"))
    queue: deque[tuple[int, Envelope, dict[str, Any] | None]] = deque()
    hands: dict[int, dict[int, int]] = {}
    public: dict[int, int] = {}

    def take(seat: int, events: list[Any], play: dict[str, Any] | None = None) -> None:
        for event in events:
            if isinstance(event, proto.Send):
                queue.append((seat, event.envelope, play))
            elif isinstance(event, proto.HandOpened):
                hands[seat] = event.cards

    def pump() -> None:
        while queue:
            seat, env, play = queue.popleft()
            recipients, events = relay.receive(seat, env)
            for event in events:
                if isinstance(event, proto.PublicOpened):
                    public[event.position] = event.item
            others = " and ".join(str(t) for t in recipients)
            relayed = p.deal_msg(r, 0, env.to_wire())
            if play is not None:
                msgs.append(wire(f"seat {seat}", {**play, "open": env.to_wire()}))
                msgs.append(wire("host", relayed, f"to seats {others}: the play's open"))
            else:  # the relay forwards the very same message: one entry for both
                msgs.append(wire(f"seat {seat}", relayed, f"the host relays it to seats {others}"))
            for to in recipients:
                take(to, players[to].receive(env))

    def states(events: list[Any], note: str) -> None:
        payloads = p.state_payloads(game, seats_wire(), [p.event_wire(e) for e in events])
        for s in range(n):
            msgs.append(payload_wire("host", payloads[s], f"to seat {s} only: {note}"))

    for seat in setup.chain:
        take(seat, players[seat].start())
    pump()
    trump_position = n * r
    states(game.start_round(public[trump_position]), "every key released: the deal")
    bids = {s: 1 if s == (dealer + 1) % n else 0 for s in range(n)}
    for i in range(n):
        s = (dealer + 1 + i) % n
        msgs.append(wire(f"seat {s}", p.bid_msg(s, r, bids[s])))
        states(game.apply(Bid(s, bids[s])), f"seat {s} bid")
    for _ in range(n * r):
        s = game.turn
        position = setup.positions_of(s)[0]
        card = hands[s][position]
        take(s, players[s].play(position, card), p.play_msg(s, r, card))
        pump()
        states(game.apply(Play(s, card)), f"seat {s} played")
    for seat in range(n):
        take(seat, players[seat].reveal())
    pump()
    verdict = relay.view.result
    assert verdict is not None
    items = list(verdict.items)
    states(game.finish_round(items), "every seat revealed: the round verified and scored")
    result = game.results[-1]
    msgs.append(wire("host", {"t": "round_end", "result": p.result_wire(result, None)}))
    return {
        "players": n,
        "game_id": game_id.hex(),
        "round": r,
        "dealer": dealer,
        "signing_seeds": [s.hex() for s in signing_seeds],
        "signing_keys": [k.hex() for k in keys],
        "round_secrets": [s.hex() for s in secrets],
        "setup_digest": setup.digest.hex(),
        "chain": list(setup.chain),
        "hands": {str(s): {str(k): v for k, v in sorted(hands[s].items())} for s in range(n)},
        "trump_card": public[trump_position],
        "final_deck": items,
        "messages": msgs,
    }


# -- one example of every other message -------------------------------------------------------


def other_messages() -> list[dict[str, Any]]:
    key = bytes(range(32))
    env = {"from": 1, "seq": 0, "body": b"\x81\xa1t\xa5lock", "sig": bytes(64)}
    view = p.view_wire(seat_view(Game(GameConfig(PLAYERS, 0, RestrictLastBid.NEVER)), 0))
    out = [
        wire(
            "client",
            hs.hello(p.PROTOCOL, p.VERSION, "Ann", "c2VjcmV0LXRva2VuLW9mLXRoaXMtZXhhbXBsZQ"),
            "a resume: the token of the welcome",
        ),
        wire(
            "host",
            hs.welcome(
                "q3Jx8u0A", "c2VjcmV0LXRva2VuLW9mLXRoaXMtZXhhbXBsZQ", resumed=True, seat=0, extra={}
            ),
        ),
        wire(
            "host",
            hs.error(
                "incompatible_version",
                "this host speaks wizard-tui protocol 1; you have 2, newer than "
                "this host: install the same version as the host",
                fatal=True,
            ),
        ),
        wire("host", {"t": "ping"}),
        wire("client", {"t": "pong"}),
        wire("client", {"t": "bye"}),
        wire("client", {"t": "claim_host", "key": "the-key-the-host-program-hands-its-table"}),
        wire("client", {"t": "add_bot"}),
        wire("client", {"t": "remove_bot", "seat": 2}, "host's table, in the lobby"),
        wire(
            "client",
            {"t": "lobby_settings", "seats": 4, "bot_level": "hard", "restrict_last_bid": "never"},
            "host's table, in the lobby: all three settings each time",
        ),
        wire("client", {"t": "start"}),
        wire("client", {"t": "rematch"}),
        wire("client", {"t": "chat", "text": "good luck"}),
        wire("host", {"t": "chat", "seat": 0, "name": "Ann", "text": "good luck"}),
        wire(
            "client",
            hs.hello(p.PROTOCOL, p.VERSION, "Lou", None, watch=True),
            "a spectator (join --watch): no seat, public information only",
        ),
        wire(
            "host",
            {"t": "chat", "seat": None, "name": "Lou", "text": "go Ann", "watcher": True},
            "a watcher's chat",
        ),
        wire(
            "host",
            {
                "t": "state",
                "view": p.public_view_wire(Game(GameConfig(PLAYERS, 0, RestrictLastBid.NEVER))),
                "seats": [{"name": "Ann", "kind": "human", "connected": True}],
                "events": [],
            },
            "a watcher's state: the public view, no seat, no hand, no legal move",
        ),
        wire("client", p.trump_msg(0, 3, 2)),
        wire("client", {"t": "lost", "round": 2, "attempt": 0}),
        wire("client", {"t": "here"}, "the player is back at the keys of a seat marked away"),
        wire("client", {"t": "hand_to_bot", "seat": 2}, "the host's table: seat 2 is away now"),
        wire("client", {"t": "record", "round": 1}, "the host's record of round 1, please"),
        wire(
            "host",
            {"t": "record_part", "round": 1, "chunks": [b'{"round": 1}'], "more": False},
            "the round's part of the host's record as JSON text, in chunks",
        ),
        wire(
            "client", {"t": "abort", "round": 2, "attempt": 0, "code": "wrong_claim", "culprit": 1}
        ),
        wire("host", {"t": "refused", "code": "not_your_turn", "message": "it is seat 1's turn"}),
        wire(
            "host",
            {
                "t": "seats",
                "seats": [
                    {"name": "Ann", "kind": "human", "connected": True},
                    {"name": "Bob", "kind": "human", "connected": False, "takeover_in": 42.5},
                    {"name": "Cy", "kind": "human", "connected": False, "takeover_in": 0.0},
                ],
            },
            "takeover_in is a float: 42.5 s to go; 0.0 while a bot plays the seat",
        ),
        wire(
            "host",
            {
                "t": "redeal",
                "round": 2,
                "reason": "seat 1 was taken over before it sent its seed",
                "commitments": [key, key, key],
                "seeds": [key, None, key],
            },
        ),
        wire(
            "host",
            {
                "t": "void",
                "round": 2,
                "attempt": 0,
                "reason": "Bob (seat 1) lost the round's keys",
                "code": "lost_keys",
                "culprit": None,
                "reveal": False,
                "evidence": None,
            },
        ),
        wire(
            "host", {"t": "transcript", "round": 2, "attempt": 1, "envelopes": [env], "more": False}
        ),
        wire(
            "host",
            {
                "t": "snapshot",
                "game": {
                    "t": "game",
                    "you": 0,
                    "game_id": key[:16],
                    "players": [{"name": n, "kind": "human"} for n in NAMES],
                    "rules": {"restrict_last_bid": "never"},
                    "first_dealer": 0,
                },
                "history": [],
                "seats": seats_wire(),
                "view": view,
                "deal": {
                    "round": 1,
                    "commitments": None,
                    "committed": False,
                    "seed_received": False,
                    "drawn": False,
                },
                "finished": False,
            },
            "a commit-reveal game resumed before its first commitment",
        ),
        wire("host", {"t": "game_over", "totals": [30, -10, 20], "winners": [0], "record": None}),
    ]
    return out


def hidden_bid_messages() -> list[dict[str, Any]]:
    """Hidden bids (docs/protocol.md, "Hidden bids"): round 1 of a 3-seat game whose host
    bot sits in seat 2; seat 0 bids 1, seat 1 bids 0, the bot 1. Real seals of real bids."""
    game_id = fixed("hidden game id")[:16]
    bids = [1, 0, 1]
    nonces = [fixed(f"hidden nonce {seat}") for seat in range(3)]
    seals = [bid_seal(game_id, 1, 0, s, b, nonces[s]) for s, b in enumerate(bids)]
    at = {"round": 1, "attempt": 0}
    return [
        wire("client", {"t": "bid_seal", **at, "seal": seals[0]}, "seat 0 seals its bid"),
        wire(
            "host",
            {"t": "bid_sealed", **at, "sealed": [0, 2], "opened": [2]},
            "seats 0 and 2 (the host's bot, which the host opens itself) have sealed",
        ),
        wire("client", {"t": "bid_seal", **at, "seal": seals[1]}),
        wire("host", {"t": "bid_seals", **at, "seals": seals}, "every seal: open yours"),
        wire("client", {"t": "bid_open", **at, "bid": bids[0], "nonce": nonces[0]}),
        wire("client", {"t": "bid_open", **at, "bid": bids[1], "nonce": nonces[1]}),
        wire(
            "host",
            {
                "t": "bids_open",
                **at,
                "bids": bids,
                "nonces": nonces,
                "seals": seals,
                "replaced": [],
            },
            "every bid with what opens its seal; the bids follow as bid events, in order",
        ),
    ]


def special_messages() -> list[dict[str, Any]]:
    """The special cards' decisions (docs/protocol.md, "Special cards"), seat 1 in round 4."""
    at = {"seat": 1, "round": 4}
    return [
        wire("client", {"t": "name_trump", **at, "suit": -1}, "the Werewolf's holder: no trump"),
        wire("client", {"t": "declare", **at, "choice": 4}, "a Shapeshifter played as a Wizard"),
        wire("client", {"t": "adjust_bid", **at, "bid": 2}, "the Cloud's taker: its new bid"),
        wire("client", {"t": "pass_card", **at, "card": 64}, "the Juggler's pass (a Juggler)"),
        wire("client", {"t": "swap", **at, "give": 3, "take": 60}, "the Witch: give 4C, take DRG"),
        wire("client", {"t": "swap", **at, "give": None, "take": None}, "the Witch keeps"),
    ]


def build() -> dict[str, Any]:
    return {
        "protocol": p.PROTOCOL,
        "version": p.VERSION,
        "spec": "docs/protocol.md",
        "handshake": handshake(),
        "commit_reveal_round": commit_reveal_round(),
        "private_round": private_round(),
        "messages": other_messages() + hidden_bid_messages() + special_messages(),
    }


def render(data: dict[str, Any]) -> str:
    return json.dumps(data, indent=1) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--check", action="store_true", help="compare with the file; exit 1 if it differs"
    )
    args = parser.parse_args()
    text = render(build())
    if args.check:
        same = OUT.read_text(encoding="utf-8") == text
        print("up to date" if same else f"{OUT} differs from what this script makes")
        sys.exit(0 if same else 1)
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT} ({len(text)} bytes)")


if __name__ == "__main__":
    main()
