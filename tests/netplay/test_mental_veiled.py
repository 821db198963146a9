"""Veiled positions of the private deal (docs/private-deal.md section 15): a position dealt
to one seat and open to every other seat, never to its holder (nor the relay) until the
holder plays it blind and the next seat in the chain unveils it; verifiable at round end."""

from __future__ import annotations

import dataclasses
from typing import Any

import msgpack
import pytest
from test_mental_protocol import Table, make_setup, views

from netplay.mental import (
    VEILED,
    BlindPlayed,
    CardOpened,
    DealFault,
    DealSetup,
    RoundFailed,
    RoundVerified,
    VeiledOpened,
    audit_transcript,
    sra,
)
from netplay.mental import protocol as proto


def veiled_setup(n: int = 3, dealer: int = 0) -> DealSetup:
    """A round of one card each, every dealt position veiled from its holder."""
    plain = make_setup(n=n, r=1, dealer=dealer)
    owners = tuple(o | VEILED if o < n else o for o in plain.owners)
    return dataclasses.replace(plain, owners=owners)


def play_blind(table: Table, seat: int) -> CardOpened:
    (position,) = table.setup.positions_of(seat)
    table.take(seat, table.players[seat].play_blind(position))
    table.pump()
    opened = [e for e in table.relay_events if isinstance(e, CardOpened)]
    assert opened[-1].position == position
    return opened[-1]


@pytest.mark.parametrize(("n", "dealer"), [(3, 0), (4, 2), (6, 5)])
def test_each_card_opens_to_every_seat_but_its_holder(n: int, dealer: int) -> None:
    table = Table(veiled_setup(n, dealer)).deal()
    setup = table.setup
    seen: dict[int, dict[int, int]] = {}
    for seat, player in enumerate(table.players):
        assert player.hand == {}  # its own card is veiled from it
        (event,) = table.of(seat, VeiledOpened)
        seen[seat] = event.cards
        mine = setup.positions_of(seat)[0]
        assert mine not in event.cards
        assert sorted(event.cards) == sorted(k for k in setup.veiled_positions if k != mine)
    # Everyone sees the same card at each position.
    for k in setup.veiled_positions:
        assert len({cards[k] for cards in seen.values() if k in cards}) == 1
    # Play blind in chain order: each card opens to all as the one every other seat saw.
    for seat in setup.chain:
        opened = play_blind(table, seat)
        assert opened.seat == seat
        assert all(opened.item == seen[x][opened.position] for x in range(n) if x != seat)
    table.reveal_all()
    results = {v.result for v in views(table)}
    assert len(results) == 1
    result = results.pop()
    assert isinstance(result, RoundVerified) and result.suspects == ()
    verified = audit_transcript(setup, table.relay.transcript)
    assert verified.items == result.items


def test_neither_the_holder_nor_the_relay_can_open_a_veiled_card_before_its_play() -> None:
    table = Table(veiled_setup(4, 1)).deal()
    setup, relay = table.setup, table.relay.view
    relayed = b"".join(env.body for env in table.seen_by_relay)
    items = sra.item_table(60)
    for seat in range(4):
        (k,) = setup.positions_of(seat)
        card = table.players[(seat + 1) % 4].veiled[k]
        assert items[card] not in relayed  # its value never crosses the wire open
        holder_keys = table.players[seat].keys.positions[k].d
        assert relay.keys_released_for(k) == []  # no key of a veiled position is released
        # What the holder and the relay have: every partial value, and (the holder) its key.
        for (p, _), value in zip(setup.veil_entries, relay.veils[-1], strict=True):
            assert sra.lookup(value, 60) is None
            if p == k:
                assert sra.lookup(sra.open_value(value, [holder_keys]), 60) is None


def test_only_the_holder_plays_blind_and_only_the_unveiler_unveils() -> None:
    table = Table(veiled_setup(3, 0)).deal()
    setup = table.setup
    (k,) = setup.positions_of(1)
    with pytest.raises(ValueError):
        table.players[2].play_blind(k)
    table.take(1, table.players[1].play_blind(k))
    table.pump()
    assert any(isinstance(e, BlindPlayed) for e in table.relay_events)
    assert setup.unveiler(k) == 2  # chain (1, 2, 0): the seat after the holder
    assert k in table.relay.view.plays


def test_a_wrong_veil_pass_is_blamed_on_its_signer_at_round_end() -> None:
    """A seat that veils with a wrong key: the others open garbage (a suspect), and the
    round-end check names it."""

    def change(body: dict[str, Any]) -> None:
        values = bytearray(body["values"])
        other = sra.apply(sra.private_key(sra.clamp(bytes(32))), bytes(values[:32]))
        values[:32] = other
        body["values"] = bytes(values)

    table = Table(veiled_setup(3, 0), cheat=(2, "veil", change)).deal()
    table.reveal_all()
    failed = [v.result for v in views(table)]
    faults = [e for seat in range(3) for e in table.of(seat, RoundFailed)]
    assert faults and all(f.fault.code == proto.VEIL_MISMATCH for f in faults)
    assert all(f.fault.culprit == 2 for f in faults)
    assert failed is not None


def test_a_veiled_setup_survives_json_and_binds_the_digest() -> None:
    setup = veiled_setup(3, 0)
    assert DealSetup.from_json(setup.to_json()) == setup
    assert setup.digest != make_setup(n=3, r=1, dealer=0).digest
    assert setup.to_json()["owners"][0] == {"veiled": 1}


def test_an_open_of_a_veiled_position_is_refused() -> None:
    table = Table(veiled_setup(3, 0)).deal()
    (k,) = table.setup.positions_of(1)
    body = msgpack.packb(
        {"t": "open", "position": k, "item": 0, "key": bytes(32)}, use_bin_type=True
    )
    env = table.players[1].sealer.seal(body)
    with pytest.raises(DealFault) as caught:
        table.relay.receive(1, env)
    assert caught.value.code == proto.NOT_OWNER


def test_a_resumed_unveiler_unveils_a_card_played_while_it_was_away() -> None:
    """The unveiler reconnects after the blind play: rebuilt from the relay's transcript,
    it opens its veiled cards and sends the unveil it owes, at once."""
    from test_mental_protocol import round_secret, signing_key

    from netplay.mental import DealPlayer, RoundKeys, Send

    table = Table(veiled_setup(3, 0)).deal()
    setup = table.setup
    (k,) = setup.positions_of(1)
    unveiler = setup.unveiler(k)
    table.deliver = lambda to, frm, env: None if to == unveiler else env  # it is away
    table.take(1, table.players[1].play_blind(k))
    table.pump()
    assert k not in table.relay.view.plays  # nobody opened it yet
    keys = RoundKeys.derive(round_secret(unveiler), 60)
    _player, events = DealPlayer.resume(
        setup, unveiler, signing_key(unveiler), keys, table.relay.transcript
    )
    sent = [decode(e.envelope.body) for e in events if isinstance(e, Send)]
    assert [b["t"] for b in sent] == ["unveil"] and sent[0]["position"] == k
    assert sent[0]["item"] == table.players[0].veiled[k]


def decode(body: bytes) -> dict[str, Any]:
    return msgpack.unpackb(body, raw=False)
