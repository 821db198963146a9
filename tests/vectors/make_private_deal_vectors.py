"""Write tests/vectors/private-deal-v1.json: test vectors of private-sra-x25519-v1.

    .venv/bin/python tests/vectors/make_private_deal_vectors.py [--check]

Everything is fixed (seeds, secrets, order of play), so the file is the same on every
run; ``--check`` compares instead of writing. Contents (docs/private-deal.md, "Test
vectors"): the constants, the 60 item encodings, key generation from fixed bytes, the
round keys derived from one secret, and one whole 3-player round: its setup, every pass,
every signed envelope in the relay's order, the keys released, the hands, the face-up
card, the plays and the verified final deck.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections import deque
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from netplay.mental import protocol as proto  # noqa: E402
from netplay.mental import sra  # noqa: E402
from netplay.signing import ENVELOPE_LABEL, Envelope, SigningKey  # noqa: E402

OUT = Path(__file__).resolve().parent / "private-deal-v1.json"
ITEMS = 60


def h(data: bytes) -> str:
    return data.hex()


def scalar(k: int) -> str:
    return sra.scalar_bytes(k).hex()


def fixed(label: str) -> bytes:
    """32 fixed bytes: SHA-256 of an ASCII label."""
    return hashlib.sha256(label.encode()).digest()


def constants() -> dict[str, Any]:
    return {
        "p": hex(sra.P),
        "l": hex(sra.L),
        "a": sra.A,
        "item_tag": sra.ITEM_TAG.decode(),
        "cofactor_tag": sra.COFACTOR_TAG.decode(),
        "cofactor_scalar": scalar(sra.COFACTOR_SCALAR),
        "key_tag": sra.KEY_TAG.decode(),
        "permutation_tag": sra.PERMUTATION_TAG.decode(),
        "setup_tag": proto.SETUP_TAG.decode(),
        "deck_tag": proto.DECK_TAG.decode(),
        "message_tag": proto.MESSAGE_TAG.decode(),
        "envelope_label": ENVELOPE_LABEL.decode(),
        "low_order": sorted(h(u) for u in sra.LOW_ORDER),
    }


def items() -> list[dict[str, Any]]:
    out = []
    for item in range(ITEMS):
        value, counter = sra.encode_item(item)
        u = sra.item_candidate(item, counter)
        out.append(
            {"item": item, "counter": counter, "u": h(u.to_bytes(32, "little")), "value": h(value)}
        )
    return out


def keygen() -> list[dict[str, Any]]:
    out = []
    for i in range(8):
        raw = fixed(f"keygen-{i}")
        pair = sra.keypair_from_bytes(raw)
        out.append(
            {
                "bytes": h(raw),
                "e": scalar(sra.clamp(raw)),
                "d": None if pair is None else scalar(pair.d),
            }
        )
    return out


def round_keys() -> dict[str, Any]:
    secret = fixed("round-keys")
    keys = sra.RoundKeys.derive(secret, ITEMS)
    return {
        "secret": h(secret),
        "items": ITEMS,
        "global": {"e": scalar(keys.global_key.e), "d": scalar(keys.global_key.d)},
        "positions": [{"e": scalar(p.e), "d": scalar(p.d)} for p in keys.positions],
        "permutation": keys.permutation(),
    }


def one_round() -> dict[str, Any]:
    n, r, dealer = 3, 3, 0
    seeds = [fixed(f"signing-{s}") for s in range(n)]
    signing = [SigningKey.from_private_bytes(seed) for seed in seeds]
    setup = proto.DealSetup(
        bytes.fromhex("00112233445566778899aabbccddeeff"),
        r,
        0,
        proto.chain_from(dealer + 1, n),
        proto.deal_round_robin(n, r, dealer + 1, ITEMS),
        tuple(k.public_key for k in signing),
    )
    secrets = [fixed(f"round-secret-{s}") for s in range(n)]
    players = [
        proto.DealPlayer(setup, s, signing[s], sra.RoundKeys.derive(secrets[s], ITEMS))
        for s in range(n)
    ]
    relay = proto.DealRelay(setup)
    queue: deque[tuple[int, Envelope]] = deque()
    hands: dict[int, dict[int, int]] = {}
    public: dict[int, int] = {}

    def take(seat: int, events: list[Any]) -> None:
        for event in events:
            if isinstance(event, proto.Send):
                queue.append((seat, event.envelope))
            elif isinstance(event, proto.HandOpened):
                hands[seat] = event.cards

    def pump() -> None:
        while queue:
            seat, env = queue.popleft()
            recipients, events = relay.receive(seat, env)
            for event in events:
                if isinstance(event, proto.PublicOpened):
                    public[event.position] = event.item
            for to in recipients:
                take(to, players[to].receive(env))

    for seat in range(n):
        take(seat, players[seat].start())
    pump()
    plays = []
    for trick in range(r):
        for seat in setup.chain:
            position = setup.positions_of(seat)[trick]
            item = hands[seat][position]
            take(seat, players[seat].play(position, item))
            pump()
            plays.append([seat, position, item])
    for seat in range(n):
        take(seat, players[seat].reveal())
    pump()
    result = relay.view.result
    assert result is not None
    view = relay.view
    return {
        "setup": setup.to_json(),
        "setup_digest": h(setup.digest),
        "context": h(setup.context),
        "signing_seeds": [h(s) for s in seeds],
        "round_secrets": [h(s) for s in secrets],
        "permutations": {str(s): players[s].keys.permutation() for s in setup.chain},
        "decks": [h(d) for d in view.decks],
        "deck_hashes": [h(x) for x in view.hashes],
        "envelopes": [env.to_json() for env in relay.transcript],
        "released": {
            str(seat): {str(k): scalar(d) for k, d in sorted(keys.items())}
            for seat, keys in sorted(view.released.items())
        },
        "hands": {str(s): {str(k): v for k, v in sorted(hands[s].items())} for s in range(n)},
        "public": {str(k): v for k, v in public.items()},
        "plays": plays,
        "items": list(result.items),
    }


def build() -> dict[str, Any]:
    return {
        "protocol": proto.PROTOCOL,
        "spec": "docs/private-deal.md",
        "constants": constants(),
        "items": items(),
        "keygen": keygen(),
        "round_keys": round_keys(),
        "round": one_round(),
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
