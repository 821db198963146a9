"""Wizard's in-process private deal with special cards that move cards (``PrivateRound``,
docs/private-deal.md section 16): a Werewolf shown and the trump card taken, a Juggler's pass
learned by each receiver alone, a Witch's card shown into the trick; the round verifies and
its gifts are the passes."""

from __future__ import annotations

import hashlib

import pytest

from netplay.mental import Gift, RoundVerified, audit_transcript, shown_items
from netplay.signing import SigningKey
from wizard_tui.game.specials import Special
from wizard_tui.private_deal import PrivateDealError, PrivateRound, item_of_card, round_setup

SPECIALS = frozenset({Special.WEREWOLF, Special.JUGGLER, Special.WITCH})
GAME_ID = bytes(range(16))


def fixed(label: str) -> bytes:
    return hashlib.sha256(label.encode()).digest()


def new_round(n: int = 3, r: int = 3, dealer: int = 0) -> PrivateRound:
    signing = [SigningKey.from_private_bytes(fixed(f"moves-signing-{s}")) for s in range(n)]
    setup = round_setup(
        GAME_ID, r, n, dealer, [k.public_key for k in signing], hand_size=r, specials=SPECIALS
    )
    secrets = [fixed(f"moves-secret-{s}") for s in range(n)]
    return PrivateRound(setup, signing, secrets, specials=SPECIALS)


def test_werewolf_juggler_and_witch_moves_verify() -> None:
    pr = new_round()
    hands, trump = pr.deal()
    assert trump is not None and pr.setup.items == 63
    held = [list(h) for h in hands]
    n = pr.setup.seats
    # A "Werewolf" (any card: the deal does not know the rules) put face up by seat 0,
    # which takes the trump card into its hand.
    werewolf = held[0].pop(0)
    pr.show(0, werewolf)
    pr.take_public(0, trump)
    held[0].append(trump)
    # A Juggler's pass: seat 0 passes the trump card it took, the others a dealt card.
    passed = [trump, held[1][0], held[2][0]]
    received = pr.pass_cards(passed)
    assert received == (passed[2], passed[0], passed[1])  # each from its right neighbour
    for seat in range(n):
        held[seat].remove(passed[seat])
        held[seat].append(received[seat])
    # The receiver alone holds its gift; no other player object has it.
    for seat, player in enumerate(pr.players):
        assert set(player.gifts.values()) == {item_of_card(received[seat], SPECIALS)}
    # A "Witch": seat 1 gives the card it received into the trick (shown) and takes a trick
    # card (public): here the one seat 2 plays first.
    pr.play(2, held[2][0])
    taken = held[2].pop(0)
    pr.show(1, received[1])
    held[1].remove(received[1])
    pr.take_public(1, taken)
    held[1].append(taken)
    with pytest.raises(PrivateDealError):
        pr.play(0, werewolf)  # shown: no longer in its hand
    for seat in range(n):
        for card in held[seat]:
            pr.play(seat, card)
    transcript = pr.finish()
    result = audit_transcript(pr.setup, transcript)
    assert isinstance(result, RoundVerified)
    items = [item_of_card(c, SPECIALS) for c in passed]
    assert result.gifts == tuple(Gift(0, s, (s + 1) % n, items[s]) for s in range(n))
    assert [item for _, item in shown_items(transcript)] == [
        item_of_card(werewolf, SPECIALS),
        item_of_card(received[1], SPECIALS),
    ]


def test_a_card_not_held_cannot_be_passed() -> None:
    pr = new_round(r=2)
    hands, trump = pr.deal()
    assert trump is not None
    with pytest.raises(PrivateDealError):
        pr.pass_cards([hands[1][0], hands[1][1], hands[2][0]])  # seat 0 holds neither
