"""Write tests/vectors/deal-v1-specials.json: both deals with a deck of special cards.

    .venv/bin/python tests/vectors/make_special_deal_vectors.py [--check]

Everything is fixed (game ids, seeds, secrets, order of play), so the file is the same on
every run; ``--check`` compares instead of writing. Contents (docs/fairness.md section 9,
docs/private-deal.md section 12):

* ``commit_reveal``: rounds of tables with special cards (4 players with all nine, 3 with
  the Dragon, the Fairy and the Bomb, 5 with the Werewolf, the Juggler and the Witch, whose
  items 60..62 are cards 63, 64, 67), last rounds included, with every field of
  ``deal-v1-vectors.json`` plus the table's ``cards`` and the shuffled ``order`` of item
  indices the deck comes from;
* ``private``: one whole privately dealt round of each of those tables: its setup, every
  signed envelope in the relay's order, the hands and the trump card (as cards), the plays
  and the card at every final position;
* ``moves``: one privately dealt round in which cards change hands (docs/private-deal.md
  section 16): a show, every seat's inbox, one pass (a gift from every seat to its left),
  gifts played and shown; every intermediate value of one gift, every envelope, the verified
  gifts, shows and plays.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from netplay import fairdeal  # noqa: E402
from netplay.mental import moves, sra  # noqa: E402
from netplay.mental import protocol as proto  # noqa: E402
from netplay.signing import Envelope, SigningKey  # noqa: E402
from wizard_tui.deal import deal_round  # noqa: E402
from wizard_tui.game.specials import Special, deck_cards  # noqa: E402
from wizard_tui.private_deal import PrivateRound, round_setup  # noqa: E402

OUT = Path(__file__).resolve().parent / "deal-v1-specials.json"
ALL_NINE = tuple(Special)
DRAGON_FAIRY_BOMB = (Special.DRAGON, Special.FAIRY, Special.BOMB)
# Not a run from 60: items 60, 61, 62 are cards 63, 64, 67 (a Juggler, a Witch are dealt).
WEREWOLF_JUGGLER_WITCH = (Special.WEREWOLF, Special.JUGGLER, Special.WITCH)
# (players, round, dealer, specials): first and last rounds; the last deals 60 cards and
# still turns a trump card (docs/rules.md, "Special cards").
COMMIT_REVEAL_CASES = (
    (4, 1, 2, ALL_NINE),
    (4, 15, 3, ALL_NINE),
    (3, 2, 1, DRAGON_FAIRY_BOMB),
    (3, 20, 0, DRAGON_FAIRY_BOMB),
    (5, 1, 0, WEREWOLF_JUGGLER_WITCH),
)
PRIVATE_CASES = (
    (4, 1, 2, ALL_NINE),
    (3, 2, 1, DRAGON_FAIRY_BOMB),
    (3, 3, 0, WEREWOLF_JUGGLER_WITCH),
)


def fixed(label: str) -> bytes:
    """32 fixed bytes: SHA-256 of an ASCII label."""
    return hashlib.sha256(label.encode()).digest()


def wire(specials: tuple[Special, ...]) -> list[str]:
    return [card.wire_name for card in sorted(specials)]


def commit_reveal_case(players: int, r: int, dealer: int, specials: tuple[Special, ...]) -> Any:
    label = f"cr-{players}-{r}-{'-'.join(wire(specials))}"
    game_id = fixed(label + "-game")[:16]
    seeds = [fixed(f"{label}-seed-{seat}") for seat in range(players)]
    cards = deck_cards(specials)
    combined = fairdeal.combined_seed(game_id, r, seeds)
    order = fairdeal.shuffle_order(combined, len(cards))
    dealt = deal_round(game_id, r, seeds, dealer, hand_size=r, specials=specials)
    assert list(dealt.deck) == [cards[i] for i in order]
    return {
        "players": players,
        "round": r,
        "dealer": dealer,
        "specials": wire(specials),
        "cards": list(cards),
        "game_id": game_id.hex(),
        "seeds": [s.hex() for s in seeds],
        "commitments": [
            fairdeal.commitment(game_id, r, seat, s).hex() for seat, s in enumerate(seeds)
        ],
        "combined_seed": combined.hex(),
        "shake256_first_16_bytes": hashlib.shake_256(combined).digest(16).hex(),
        "order": order,
        "deck": list(dealt.deck),
        "hands": [list(h) for h in dealt.hands],
        "trump_card": dealt.trump_card,
    }


def private_case(players: int, r: int, dealer: int, specials: tuple[Special, ...]) -> Any:
    label = f"pd-{players}-{r}-{'-'.join(wire(specials))}"
    game_id = fixed(label + "-game")[:16]
    signing_seeds = [fixed(f"{label}-signing-{seat}") for seat in range(players)]
    signing = [SigningKey.from_private_bytes(seed) for seed in signing_seeds]
    secrets = [fixed(f"{label}-round-secret-{seat}") for seat in range(players)]
    setup = round_setup(
        game_id,
        r,
        players,
        dealer,
        [k.public_key for k in signing],
        hand_size=r,
        specials=specials,
    )
    deal = PrivateRound(setup, signing, secrets, specials=specials)
    hands, trump = deal.deal()
    plays = []
    for trick in range(r):  # chain order, not Wizard's: for the deal the order does not matter
        for seat in setup.chain:
            card = hands[seat][trick]
            deal.play(seat, card)
            plays.append([seat, card])
    transcript = deal.finish()
    result = deal.relay.view.result
    assert result is not None
    return {
        "players": players,
        "round": r,
        "dealer": dealer,
        "specials": wire(specials),
        "cards": list(deal.cards),
        "setup": setup.to_json(),
        "setup_digest": setup.digest.hex(),
        "signing_seeds": [s.hex() for s in signing_seeds],
        "round_secrets": [s.hex() for s in secrets],
        "envelopes": [env.to_json() for env in transcript],
        "hands": [list(h) for h in hands],
        "trump_card": trump,
        "plays": plays,
        "items": list(result.items),
        "deck": [deal.cards[i] for i in result.items if i is not None],
    }


def moves_round() -> dict[str, Any]:
    """Round 2 of a 3-player table with the Werewolf, the Juggler and the Witch (N = 63),
    dealer 0. The chain's first seat shows a card; every seat gives its last dealt card to
    its left; seat 1 shows its gift, the others play theirs, then every remaining card."""
    n, r, dealer, specials = 3, 2, 0, WEREWOLF_JUGGLER_WITCH
    label = "moves"
    game_id = fixed(label + "-game")[:16]
    signing_seeds = [fixed(f"{label}-signing-{seat}") for seat in range(n)]
    signing = [SigningKey.from_private_bytes(seed) for seed in signing_seeds]
    secrets = [fixed(f"{label}-round-secret-{seat}") for seat in range(n)]
    setup = round_setup(
        game_id, r, n, dealer, [k.public_key for k in signing], hand_size=r, specials=specials
    )
    items = setup.items
    players = [
        proto.DealPlayer(setup, s, signing[s], sra.RoundKeys.derive(secrets[s], items))
        for s in range(n)
    ]
    relay = proto.DealRelay(setup)
    queue: list[tuple[int, Envelope]] = []

    def send(seat: int, events: list[Any]) -> None:
        queue.extend((seat, e.envelope) for e in events if isinstance(e, proto.Send))
        while queue:
            sender, env = queue.pop(0)
            targets, _ = relay.receive(sender, env)
            for to in targets:
                for event in players[to].receive(env):
                    if isinstance(event, proto.Send):
                        queue.append((to, event.envelope))

    for seat in range(n):
        send(seat, players[seat].start())
    hands = {s: dict(players[s].hand or {}) for s in range(n)}
    shower = setup.chain[0]
    shown_position = setup.positions_of(shower)[0]
    send(shower, players[shower].show(shown_position, hands[shower][shown_position]))
    for seat in range(n):
        send(seat, players[seat].send_inbox())
    given = {}
    for seat in setup.chain:
        position = setup.positions_of(seat)[-1]
        given[seat] = hands[seat][position]
        send(seat, players[seat].give(0, (seat + 1) % n, given[seat]))
    for seat in setup.chain:
        giver = (seat - 1) % n
        if seat == 1:
            send(seat, players[seat].show_gift(0, giver))
        else:
            send(seat, players[seat].play_gift(0, giver))
    for seat in setup.chain:
        for position in setup.positions_of(seat)[:-1]:
            if position != shown_position:
                send(seat, players[seat].play(position, hands[seat][position]))
    for seat in range(n):
        send(seat, players[seat].reveal())
    result = relay.view.result
    assert result is not None and not result.suspects
    # Every value of the first gift of the chain's first seat, for orientation.
    giver = setup.chain[0]
    recipient = (giver + 1) % n
    e_recipient = players[recipient].keys.global_key.e
    b = moves.inbox_secret(e_recipient)
    a = moves.gift_secret(players[giver].keys.global_key.e, 0)
    ephemeral = moves.public_point(a)
    shared = moves.shared_key(a, moves.public_point(b))
    pad = moves.pad(setup.context, 0, giver, recipient, shared)
    transcript = relay.transcript
    cards = deck_cards(specials)
    return {
        "players": n,
        "round": r,
        "dealer": dealer,
        "specials": wire(specials),
        "cards": list(cards),
        "setup": setup.to_json(),
        "setup_digest": setup.digest.hex(),
        "signing_seeds": [s.hex() for s in signing_seeds],
        "round_secrets": [s.hex() for s in secrets],
        "gift": {
            "pass": 0,
            "giver": giver,
            "recipient": recipient,
            "recipient_global_e": sra.scalar_bytes(e_recipient).hex(),
            "inbox_scalar": sra.scalar_bytes(b).hex(),
            "inbox_key": moves.public_point(b).hex(),
            "ephemeral_scalar": sra.scalar_bytes(a).hex(),
            "ephemeral": ephemeral.hex(),
            "commit": moves.commitment(ephemeral).hex(),
            "shared_key": shared.hex(),
            "pad": pad.hex(),
            "item": given[giver],
            "sealed": moves.seal(sra.item_table(items)[given[giver]], pad).hex(),
        },
        "envelopes": [env.to_json() for env in transcript],
        "gifts": [[g.pass_index, g.giver, g.recipient, g.item] for g in result.gifts],
        "shown": [list(x) for x in proto.shown_items(transcript)],
        "plays": [list(x) for x in proto.played_items(setup, transcript)],
        "items": list(result.items),
        "deck": [cards[i] for i in result.items if i is not None],
    }


def build() -> dict[str, Any]:
    return {
        "spec": "docs/fairness.md section 9, docs/private-deal.md section 12",
        "commit_reveal": [commit_reveal_case(*case) for case in COMMIT_REVEAL_CASES],
        "private": [private_case(*case) for case in PRIVATE_CASES],
        "moves": moves_round(),
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
