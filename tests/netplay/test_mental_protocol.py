"""The private deal's state machines (netplay.mental.protocol): honest rounds, cheating
players and a cheating relay caught and named, the host's blindness, reconnects, records.

A ``Table`` wires players and the relay together in memory, as the host would over the
network: every envelope goes to the relay, which checks it and forwards it byte for byte
to every other seat. Hooks let a test replace a player's message (a cheating player,
who signs what it likes with its own key) or what the relay delivers (a cheating relay).
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections import deque
from collections.abc import Callable
from typing import Any

import msgpack
import pytest

from netplay.mental import (
    PUBLIC,
    RELAY,
    UNDEALT,
    CardOpened,
    DealFault,
    DealPlayer,
    DealRelay,
    DealSetup,
    HandOpened,
    Phase,
    PublicOpened,
    RoundFailed,
    RoundKeys,
    RoundVerified,
    Send,
    Suspect,
    Verifier,
    audit_transcript,
    chain_from,
    deal_round_robin,
    sra,
)
from netplay.mental import protocol as proto
from netplay.signing import Envelope, Sealer, SigningKey

GAME_ID = bytes(range(16))
ZERO = bytes(32)
P_PLUS_1 = (sra.P + 1).to_bytes(32, "little")  # the value 1, not reduced


def signing_key(seat: int) -> SigningKey:
    return SigningKey.from_private_bytes(hashlib.sha256(b"seat-%d" % seat).digest())


def round_secret(seat: int, attempt: int = 0) -> bytes:
    return hashlib.sha256(b"secret-%d-%d" % (seat, attempt)).digest()


def make_setup(n: int = 3, r: int = 2, dealer: int = 0, attempt: int = 0) -> DealSetup:
    return DealSetup(
        GAME_ID,
        r,
        attempt,
        chain_from(dealer + 1, n),
        deal_round_robin(n, r, dealer + 1, 60),
        tuple(signing_key(s).public_key for s in range(n)),
    )


Change = Callable[[dict[str, Any]], None]
Deliver = Callable[[int, int, Envelope], Envelope | None]


class Cheat(DealPlayer):
    """A player that changes its first message of type ``kind`` before signing it. It
    signs with its own key, so the change is its own signed statement; it ignores its
    own view's objections (which a real cheater would have removed)."""

    def __init__(self, *args: Any, kind: str, change: Change) -> None:
        super().__init__(*args)
        self.kind, self.change, self.done = kind, change, False

    def _send(self, body: bytes) -> list[Any]:
        msg = msgpack.unpackb(body, raw=False)
        if not self.done and msg["t"] == self.kind:
            self.done = True
            self.change(msg)
            body = msgpack.packb(msg, use_bin_type=True)
        envelope = self.sealer.seal(body)
        try:
            events = self.view.receive(envelope, own=True)
        except DealFault:
            events = []
        return [Send(envelope), *events]


class Table:
    """Players, the relay and the wires between them, in memory."""

    def __init__(
        self,
        setup: DealSetup | None = None,
        cheat: tuple[int, str, Change] | None = None,
        **kwargs: Any,
    ) -> None:
        self.setup = setup or make_setup(**kwargs)
        n = self.setup.seats
        self.relay = DealRelay(self.setup)
        self.players: list[DealPlayer] = []
        for s in range(n):
            args = (self.setup, s, signing_key(s), RoundKeys.derive(round_secret(s), 60))
            if cheat is not None and cheat[0] == s:
                self.players.append(Cheat(*args, kind=cheat[1], change=cheat[2]))
            else:
                self.players.append(DealPlayer(*args))
        self.events: list[list[Any]] = [[] for _ in range(n)]
        self.relay_events: list[Any] = []
        self.queue: deque[tuple[int, Envelope]] = deque()
        self.deliver: Deliver | None = None  # a cheating relay: (to, from, env) -> env
        self.seen_by_relay: list[Envelope] = []

    def take(self, seat: int, events: list[Any]) -> None:
        for event in events:
            self.events[seat].append(event)
            if isinstance(event, Send):
                self.queue.append((seat, event.envelope))

    def pump(self) -> None:
        while self.queue:
            seat, env = self.queue.popleft()
            self.seen_by_relay.append(env)
            recipients, events = self.relay.receive(seat, env)
            self.relay_events.extend(events)
            for to in recipients:
                delivered = env if self.deliver is None else self.deliver(to, seat, env)
                if delivered is not None:
                    self.take(to, self.players[to].receive(delivered))

    def deal(self) -> Table:
        for seat, player in enumerate(self.players):
            self.take(seat, player.start())
        self.pump()
        return self

    def play(self, seat: int, position: int | None = None) -> CardOpened:
        player = self.players[seat]
        assert player.hand is not None
        unplayed = [p for p in sorted(player.hand) if p not in player.view.plays]
        position = unplayed[0] if position is None else position
        self.take(seat, player.play(position, player.hand[position]))
        self.pump()
        opened = [
            e for e in self.events[(seat + 1) % self.setup.seats] if isinstance(e, CardOpened)
        ]
        return opened[-1]

    def play_all(self) -> None:
        for seat in range(self.setup.seats):
            for _ in self.setup.positions_of(seat):
                self.play(seat)

    def reveal_all(self) -> None:
        for seat, player in enumerate(self.players):
            self.take(seat, player.reveal())
        self.pump()

    def of(self, seat: int, kind: type) -> list[Any]:
        return [e for e in self.events[seat] if isinstance(e, kind)]


def resign(seat: int, env: Envelope, body: dict[str, Any], setup: DealSetup) -> Envelope:
    """Sign ``body`` as ``seat`` under ``env``'s number (a second version of that step)."""
    sealer = Sealer(signing_key(seat), proto.MESSAGE_TAG, setup.context, seat, env.seq)
    return sealer.seal(msgpack.packb(body, use_bin_type=True))


def body_of(env: Envelope) -> dict[str, Any]:
    return msgpack.unpackb(env.body, raw=False)


def views(table: Table) -> list[Verifier]:
    return [table.relay.view, *(p.view for p in table.players)]


# -- setup ------------------------------------------------------------------------------------


def test_deal_layout_and_chain() -> None:
    assert chain_from(1, 3) == (1, 2, 0)
    owners = deal_round_robin(3, 2, 1, 60)
    assert owners[:7] == (1, 2, 0, 1, 2, 0, PUBLIC)
    assert set(owners[7:]) == {UNDEALT}
    assert deal_round_robin(3, 20, 1, 60).count(PUBLIC) == 0  # the last round: no trump
    setup = make_setup()
    assert setup.positions_of(0) == (2, 5)
    assert setup.released_by(0) == (0, 1, 3, 4, 6)
    assert setup.public_positions == (6,)
    assert [setup.pass_seat(i) for i in range(6)] == [1, 2, 0, 1, 2, 0]


def test_setup_digest_binds_every_field() -> None:
    setup = make_setup()
    assert len(setup.context) == 16 + 2 + 2 + 32
    changed = [
        dataclasses.replace(setup, game_id=bytes(16)),
        dataclasses.replace(setup, round=3),
        dataclasses.replace(setup, attempt=1),
        dataclasses.replace(setup, chain=(2, 0, 1)),
        dataclasses.replace(setup, owners=(2, 1, *setup.owners[2:])),
        dataclasses.replace(setup, signing_keys=setup.signing_keys[::-1]),
    ]
    assert len({setup.digest, *(c.digest for c in changed)}) == len(changed) + 1


@pytest.mark.parametrize(
    "change",
    [
        {"game_id": b"short"},
        {"chain": (0, 0, 1)},
        {"owners": (7,) * 60},
        {"owners": ()},
        {"signing_keys": (b"k" * 32,)},
        {"round": 70000},
    ],
)
def test_setup_refuses_nonsense(change: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        dataclasses.replace(make_setup(), **change)


def test_setup_json_round_trip() -> None:
    setup = make_setup()
    assert DealSetup.from_json(setup.to_json()) == setup
    bad = setup.to_json() | {"protocol": "commit-reveal-v1"}
    with pytest.raises(Exception, match="not a private-deal setup"):
        DealSetup.from_json(bad)


# -- an honest round --------------------------------------------------------------------------


def test_an_honest_round_deals_plays_and_verifies_everywhere() -> None:
    table = Table().deal()
    setup = table.setup
    hands = [p.hand for p in table.players]
    assert all(h is not None for h in hands)
    for seat, hand in enumerate(hands):
        assert sorted(hand) == list(setup.positions_of(seat))  # type: ignore[arg-type]
        assert table.of(seat, HandOpened) == [HandOpened(hand)]  # type: ignore[arg-type]
    trump = {e.item for v in range(3) for e in table.of(v, PublicOpened)}
    assert len(trump) == 1
    dealt = [i for h in hands for i in h.values()]  # type: ignore[union-attr]
    assert len(set(dealt) | trump) == 7
    table.play_all()
    table.reveal_all()
    results = {v.result for v in views(table)}
    assert len(results) == 1
    result = results.pop()
    assert isinstance(result, RoundVerified) and result.suspects == ()
    assert sorted(result.items) == list(range(60))  # type: ignore[type-var]
    for hand in hands:
        assert all(result.items[p] == i for p, i in hand.items())  # type: ignore[union-attr]
    assert all(v.phase is Phase.VERIFIED for v in views(table))


def test_a_player_that_leaves_the_audit_to_its_relay_checks_all_but_the_round_end() -> None:
    """The host's bots (``audit=False``): their relay in the same process audits the round;
    they still check every envelope as it arrives, and only skip their own round-end audit."""
    table = Table()
    keys = RoundKeys.derive(round_secret(1), 60)
    trusting = table.players[1] = DealPlayer(table.setup, 1, signing_key(1), keys, audit=False)
    table.deal()
    table.play_all()
    table.reveal_all()
    assert isinstance(table.relay.view.result, RoundVerified)
    assert isinstance(table.players[0].view.result, RoundVerified)
    assert trusting.view.result is None and not table.of(1, RoundVerified)
    assert trusting.view.missing_reveals() == []
    with pytest.raises(DealFault):  # a replayed envelope: still refused
        trusting.receive(table.seen_by_relay[0])


def test_every_party_agrees_on_every_pass() -> None:
    table = Table().deal()
    decks = {tuple(v.decks) for v in views(table)}
    assert len(decks) == 1 and len(decks.pop()) == 7  # D0, 3 shuffles, 3 locks
    passes = [e for e in table.relay_events if isinstance(e, proto.PassAccepted)]
    assert [(e.index, e.seat) for e in passes] == [(0, 1), (1, 2), (2, 0), (3, 1), (4, 2), (5, 0)]


def test_the_last_round_deals_every_item_and_has_no_face_up_card() -> None:
    table = Table(r=20).deal()
    assert not table.of(0, PublicOpened)
    assert sorted(i for p in table.players for i in p.hand.values()) == list(range(60))  # type: ignore[union-attr]


def test_six_players() -> None:
    table = Table(n=6, r=1, dealer=4).deal()
    assert [len(p.hand) for p in table.players] == [1] * 6  # type: ignore[arg-type]
    table.play_all()
    table.reveal_all()
    assert all(v.result is not None for v in views(table))


def test_messages_after_verification_are_refused() -> None:
    table = Table().deal()
    table.play_all()
    table.reveal_all()
    late = resign(0, Envelope(0, 99, b"", b""), {"t": "open"}, table.setup)
    with pytest.raises(DealFault):
        table.players[1].receive(late)


def test_a_player_plays_only_its_own_cards() -> None:
    table = Table().deal()
    player = table.players[0]
    with pytest.raises(ValueError):
        player.play(0, 0)  # position 0 belongs to seat 1
    position, item = next(iter(player.hand.items()))  # type: ignore[union-attr]
    with pytest.raises(ValueError):
        player.play(position, (item + 1) % 60)


# -- the host sees nothing it should not --------------------------------------------------------


def test_the_host_never_holds_the_keys_to_an_unplayed_card_of_another_seat() -> None:
    """The host plays seat 0 and relays. Mid-round, everything it has (its relay's view,
    its own player, every byte relayed) opens none of seats 1 and 2's unplayed cards."""
    table = Table(r=3).deal()
    table.play(1)  # seat 1 plays one of its three cards
    host_views = [table.relay.view, table.players[0].view]
    relayed = b"".join(env.body for env in table.seen_by_relay)
    for seat in (1, 2):
        keys = table.players[seat].keys
        for position in table.setup.positions_of(seat):
            if position in table.relay.view.plays:
                continue
            own_d = keys.positions[position].d
            assert sra.scalar_bytes(own_d) not in relayed
            item = table.players[seat].hand[position]  # type: ignore[index]
            assert sra.item_table(60)[item] not in relayed
            for view in host_views:
                assert seat not in view.revealed
                available = view.keys_released_for(position)
                assert len(available) == 2 and own_d not in available
                value = sra.open_value(view.final_deck[position], available)  # type: ignore[index]
                assert sra.lookup(value, 60) is None
    assert all(isinstance(p.keys, RoundKeys) for p in table.players)
    assert not any(isinstance(v, RoundKeys) for v in vars(table.relay).values())
    assert not any(isinstance(v, RoundKeys) for v in vars(table.relay.view).values())


# -- cheating players ---------------------------------------------------------------------------


def replace_value(deck: bytes, index: int, value: bytes) -> bytes:
    return deck[: 32 * index] + value + deck[32 * index + 32 :]


def foreign_value() -> bytes:
    """A valid curve value that is no encryption of any item under the round's keys."""
    return sra.apply(sra.private_key(sra.generate_keypair().e), sra.item_table(60)[0])


def finish_voided(table: Table) -> DealFault:
    """Everyone reveals (the round is void): every view, the cheater's own included,
    reaches the same failed verdict."""
    table.reveal_all()
    faults = [v.fault for v in views(table)]
    failed = [e.fault for e in table.relay_events if isinstance(e, RoundFailed)]
    assert failed == [table.relay.view.fault]
    assert all(f is not None for f in faults)
    assert len({(f.code, f.culprit, f.position) for f in faults}) == 1  # type: ignore[union-attr]
    assert all(table.of(s, RoundFailed) for s in range(table.setup.seats))
    return failed[0]


def test_a_substituted_value_in_a_shuffle_pass_is_found_and_blamed() -> None:
    def change(body: dict[str, Any]) -> None:
        body["deck"] = replace_value(body["deck"], 17, foreign_value())

    table = Table(cheat=(2, "shuffle", change), r=20).deal()  # every position dealt
    # Canonical and distinct: nothing to see until the position's owner opens it.
    suspects = [e for s in range(3) for e in table.of(s, Suspect)]
    assert [s.code for s in suspects] == [proto.NOT_AN_ITEM]
    fault = finish_voided(table)
    assert fault.code == proto.SHUFFLE_MISMATCH and fault.culprit == 2
    assert fault.pass_index == 1 and fault.evidence is not None
    assert fault.evidence.sender == 2


def test_a_substituted_value_in_a_lock_pass_is_found_at_its_position() -> None:
    def change(body: dict[str, Any]) -> None:
        body["deck"] = replace_value(body["deck"], 4, foreign_value())

    table = Table(cheat=(0, "lock", change)).deal()
    assert [e.position for e in table.of(2, Suspect)] == [4]  # seat 2 holds position 4
    fault = finish_voided(table)
    assert (fault.code, fault.culprit, fault.position) == (proto.LOCK_MISMATCH, 0, 4)
    assert fault.pass_index == 5


def test_a_duplicated_value_is_caught_at_once_and_blamed_on_its_signer() -> None:
    def change(body: dict[str, Any]) -> None:
        body["deck"] = replace_value(body["deck"], 9, body["deck"][32 * 3 : 32 * 4])

    table = Table(cheat=(1, "shuffle", change))
    with pytest.raises(DealFault) as exc:
        table.deal()
    assert (exc.value.code, exc.value.culprit) == (proto.DUPLICATE_VALUE, 1)
    assert exc.value.position == 9
    assert table.relay.view.fault is exc.value  # the relay refuses it: nobody else gets it
    assert all(p.view.passes_done == 0 for p in table.players)


def test_a_disguised_duplicate_stops_the_next_player_and_is_blamed_at_round_end() -> None:
    """u and 1/u are the same point up to a torsion part that every ladder drops: the
    copy passes the distinctness check, but the next honest pass would repeat a value.
    That player refuses to sign, the round is voided, and the keys name the cheater."""

    def change(body: dict[str, Any]) -> None:
        deck = body["deck"]
        u = int.from_bytes(deck[32 * 3 : 32 * 4], "little")
        body["deck"] = replace_value(deck, 9, pow(u, -1, sra.P).to_bytes(32, "little"))

    table = Table(cheat=(1, "shuffle", change)).deal()
    assert table.players[2].halted is not None
    assert [e.code for e in table.of(2, Suspect)] == [proto.OWN_COLLISION]
    assert table.relay.view.passes_done == 1  # seat 2 signed nothing
    fault = finish_voided(table)
    assert (fault.code, fault.culprit, fault.pass_index) == (proto.SHUFFLE_MISMATCH, 1, 0)


def test_a_wrong_released_key_is_found_by_its_victim_and_named_at_round_end() -> None:
    def change(body: dict[str, Any]) -> None:
        i = body["positions"].index(2)  # a position of seat 0
        wrong = sra.scalar_bytes(sra.generate_keypair().d)
        body["keys"] = body["keys"][: 32 * i] + wrong + body["keys"][32 * i + 32 :]

    table = Table(cheat=(1, "release", change)).deal()
    assert [(e.code, e.position) for e in table.of(0, Suspect)] == [(proto.NOT_AN_ITEM, 2)]
    assert table.players[0].hand is None
    fault = finish_voided(table)
    assert (fault.code, fault.culprit, fault.position) == (proto.RELEASED_KEY_MISMATCH, 1, 2)


def test_a_lie_about_a_played_card_is_caught_at_once() -> None:
    lie: dict[str, int] = {}
    table = Table(cheat=(1, "open", lambda body: body.update(item=lie["item"]))).deal()
    position, item = sorted(table.players[1].hand.items())[0]  # type: ignore[union-attr]
    lie["item"] = (item + 1) % 60
    with pytest.raises(DealFault) as exc:
        table.play(1, position)
    fault = exc.value
    assert (fault.code, fault.culprit, fault.position) == (proto.WRONG_CLAIM, 1, position)
    assert fault.evidence is not None and body_of(fault.evidence)["item"] == lie["item"]


def test_a_wrong_played_key_is_suspect_then_named() -> None:
    def change(body: dict[str, Any]) -> None:
        body["key"] = sra.scalar_bytes(sra.generate_keypair().d)

    table = Table(cheat=(2, "open", change)).deal()
    position = min(table.players[2].hand)  # type: ignore[arg-type]
    table.take(2, table.players[2].play(position, table.players[2].hand[position]))  # type: ignore[index]
    table.pump()
    assert [e.code for e in table.of(0, Suspect)] == [proto.NOT_AN_ITEM]
    fault = finish_voided(table)
    assert (fault.code, fault.culprit, fault.position) == (proto.PLAYED_KEY_MISMATCH, 2, position)


@pytest.mark.parametrize(
    ("kind", "change", "code"),
    [
        ("shuffle", lambda b: b.update(deck=b["deck"][:-32]), proto.BAD_DECK),
        ("shuffle", lambda b: b.update(deck=replace_value(b["deck"], 5, ZERO)), proto.BAD_DECK),
        ("shuffle", lambda b: b.update(deck=replace_value(b["deck"], 5, P_PLUS_1)), proto.BAD_DECK),
        ("shuffle", lambda b: b.update({"pass": 1}), proto.NOT_YOUR_TURN),
        ("shuffle", lambda b: b.update(extra=1), proto.MALFORMED),
        ("shuffle", lambda b: b.update(t="lock"), proto.OUT_OF_ORDER),
        ("release", lambda b: b.update(positions=b["positions"][1:]), proto.BAD_RELEASE),
        (
            "release",
            lambda b: b.update(keys=b"\x01" + b["keys"][1:]),  # not clamped
            proto.BAD_RELEASE,
        ),
        ("release", lambda b: b.update(positions=[*b["positions"], 7]), proto.BAD_RELEASE),
    ],
    ids=[
        "short-deck",
        "zero-value",
        "unreduced-value",
        "wrong-pass",
        "extra-field",
        "lock-in-shuffle",
        "missing-position",
        "unclamped-key",
        "undealt-position",
    ],
)
def test_malformed_signed_messages_are_blamed_on_their_signer(
    kind: str, change: Change, code: str
) -> None:
    seat = 1
    table = Table(cheat=(seat, kind, change))
    with pytest.raises(DealFault) as exc:
        table.deal()
    assert (exc.value.code, exc.value.culprit) == (code, seat)


def test_a_play_of_someone_elses_card_or_a_second_play_is_refused() -> None:
    table = Table().deal()
    p1 = table.players[1]
    env = p1.sealer.seal(proto.open_body(2, 0, p1.keys.positions[2].d))  # seat 0's position
    with pytest.raises(DealFault) as exc:
        table.relay.receive(1, env)
    assert (exc.value.code, exc.value.culprit) == (proto.NOT_OWNER, 1)

    table = Table().deal()
    opened = table.play(1)
    p1 = table.players[1]
    again = p1.sealer.seal(
        proto.open_body(opened.position, opened.item, p1.keys.positions[opened.position].d)
    )
    with pytest.raises(DealFault) as exc:
        table.relay.receive(1, again)
    assert (exc.value.code, exc.value.culprit) == (proto.ALREADY_OPEN, 1)


def test_a_bad_revealed_key_is_blamed_on_its_signer() -> None:
    table = Table().deal()
    player = table.players[0]
    blob = proto.reveal_body(player.keys)
    body = msgpack.unpackb(blob, raw=False)
    body["key"] = bytes(32)
    env = player.sealer.seal(msgpack.packb(body, use_bin_type=True))
    with pytest.raises(DealFault) as exc:
        table.relay.receive(0, env)
    assert (exc.value.code, exc.value.culprit) == (proto.BAD_ROUND_KEY, 0)


def test_a_client_cannot_send_for_another_seat() -> None:
    table = Table(dealer=2)  # the chain starts at seat 0
    env = next(e.envelope for e in table.players[0].start() if isinstance(e, Send))
    with pytest.raises(DealFault) as exc:
        table.relay.receive(1, env)
    assert (exc.value.code, exc.value.culprit) == (proto.WRONG_SENDER, 1)


# -- a cheating relay -----------------------------------------------------------------------------


def test_a_relay_that_alters_a_deck_breaks_the_signature() -> None:
    def deliver(to: int, sender: int, env: Envelope) -> Envelope:
        body = body_of(env)
        if to == 0 and body["t"] == "shuffle":
            body["deck"] = replace_value(body["deck"], 0, foreign_value())
            return dataclasses.replace(env, body=msgpack.packb(body, use_bin_type=True))
        return env

    table = Table()
    table.deliver = deliver
    with pytest.raises(DealFault) as exc:
        table.deal()
    assert (exc.value.code, exc.value.culprit) == ("bad_signature", RELAY)
    assert table.players[0].view.fault is exc.value
    assert table.relay.view.fault is None  # the relay's own view knows nothing wrong


def test_a_relay_that_drops_a_pass_is_named() -> None:
    def deliver(to: int, sender: int, env: Envelope) -> Envelope | None:
        return None if (to == 0 and sender == 1 and env.seq == 0) else env

    table = Table()
    table.deliver = deliver
    with pytest.raises(DealFault) as exc:
        table.deal()
    # Seat 0 next hears seat 2's pass 1 with no pass 0 before it.
    assert (exc.value.code, exc.value.culprit) == (proto.OUT_OF_ORDER, RELAY)


def test_a_relay_that_drops_a_later_message_leaves_a_gap() -> None:
    def deliver(to: int, sender: int, env: Envelope) -> Envelope | None:
        return None if (to == 0 and sender == 1 and body_of(env)["t"] == "release") else env

    table = Table()
    table.deliver = deliver
    table.deal()
    assert table.players[0].hand is None  # still waiting for seat 1's keys
    with pytest.raises(DealFault) as exc:
        table.play(1)  # seat 1's next envelope reaches seat 0
    assert table.players[0].view.fault is exc.value
    assert (exc.value.code, exc.value.culprit) == ("seq_gap", RELAY)


def test_a_relay_that_withholds_a_pass_stalls_the_chain_visibly() -> None:
    table = Table()
    table.deliver = lambda to, sender, env: None if to == 2 else env
    table.deal()
    assert table.relay.view.turn == 2  # the host can see whose turn it is; a timeout names it
    assert table.players[2].view.passes_done == 0


def test_a_relay_that_replays_a_message_is_named() -> None:
    table = Table()
    first = None

    def deliver(to: int, sender: int, env: Envelope) -> Envelope:
        nonlocal first
        if first is None:
            first = env
        elif to == 2 and sender == 0 and env.seq == 0:
            return first  # seat 2 gets seat 1's first pass instead of seat 0's
        return env

    table.deliver = deliver
    with pytest.raises(DealFault) as exc:
        table.deal()
    assert exc.value.culprit == RELAY and exc.value.code in ("seq_replay", proto.OUT_OF_ORDER)


def test_a_forked_view_is_a_chain_mismatch_and_two_signed_versions_are_equivocation() -> None:
    """Seat 1 signs two different first passes; the relay shows seat 0 the second. Seat 0
    then sees seat 2's pass built on a deck it was not shown (the relay's fault); shown
    both versions, anyone holds proof that seat 1 signed two."""
    table = Table()
    setup = table.setup
    honest = next(e.envelope for e in table.players[1].start() if isinstance(e, Send))
    other_body = body_of(honest)
    other_body["deck"] = other_body["deck"][32:] + other_body["deck"][:32]  # reordered
    other = resign(1, honest, other_body, setup)
    table.take(1, [Send(honest)])
    table.deliver = lambda to, sender, env: other if env is honest and to == 0 else env
    with pytest.raises(DealFault) as exc:
        table.pump()
    assert (exc.value.code, exc.value.culprit) == (proto.CHAIN_MISMATCH, RELAY)

    witness = Verifier(setup)
    witness.receive(honest)
    with pytest.raises(DealFault) as proof:
        witness.receive(other)
    assert (proof.value.code, proof.value.culprit) == ("equivocation", 1)


# -- suspects, voided rounds, reconnects -----------------------------------------------------------


def test_a_round_voided_midway_verifies_what_was_done() -> None:
    table = Table()
    for seat, player in enumerate(table.players):
        table.take(seat, player.start())
    seat, env = table.queue.popleft()  # seat 1's shuffle: seat 2 answers with its own
    recipients, _ = table.relay.receive(seat, env)
    for to in recipients:
        table.take(to, table.players[to].receive(env))
    table.reveal_all()  # seat 0 revealed before its turn: the chain stops there
    result = table.relay.view.result
    assert table.relay.view.passes_done == 2
    assert result is not None and result.items == (None,) * 60
    assert all(v.result == result for v in views(table))


def test_a_void_without_cause_verifies_clean() -> None:
    table = Table().deal()
    table.play(1)
    table.reveal_all()  # e.g. a player left: the keys show that nobody cheated
    result = table.relay.view.result
    assert result is not None and result.suspects == ()
    assert sorted(result.items) == list(range(60))  # type: ignore[type-var]


@pytest.fixture(scope="module")
def reference() -> Table:
    table = Table().deal()
    table.play_all()
    table.reveal_all()
    return table


# Cut after: nothing; seat 0's shuffle is lost; its release is lost; the whole deal.
@pytest.mark.parametrize("cut", [0, 2, 6, 9])
def test_a_player_rebuilt_from_the_transcript_carries_on(cut: int, reference: Table) -> None:
    """Seat 0 loses its connection (and its objects) after ``cut`` relayed envelopes and
    comes back with only its round secret; the round completes as if nothing happened."""

    table = Table()
    for seat, player in enumerate(table.players):
        table.take(seat, player.start())
    delivered = 0
    held: list[tuple[int, Envelope]] = []
    while table.queue:
        seat, env = table.queue.popleft()
        if delivered >= cut and seat == 0:
            held.append((seat, env))  # lost with the connection
            continue
        delivered += 1
        recipients, _ = table.relay.receive(seat, env)
        for to in recipients:
            if to == 0 and delivered > cut:
                continue  # seat 0 is away
            table.take(to, table.players[to].receive(env))
    keys = RoundKeys.derive(round_secret(0), 60)
    player, events = DealPlayer.resume(table.setup, 0, signing_key(0), keys, table.relay.transcript)
    table.players[0] = player
    table.take(0, events)
    table.pump()
    for seat in range(3):
        assert table.players[seat].hand == reference.players[seat].hand
    table.play_all()
    table.reveal_all()
    assert table.relay.view.result == reference.relay.view.result
    # A step redone after a reconnect is the same bytes: never two versions of one step.
    assert [body_of(env)["t"] for _, env in held] == {2: ["shuffle"], 6: ["release"]}.get(cut, [])
    assert all(env in table.relay.transcript for _, env in held)


# -- records ------------------------------------------------------------------------------------


def test_a_recorded_round_verifies_offline_and_a_tampered_one_does_not() -> None:
    table = Table().deal()
    table.play_all()
    table.reveal_all()
    record = {
        "setup": table.setup.to_json(),
        "envelopes": [env.to_json() for env in table.relay.transcript],
    }
    setup = DealSetup.from_json(record["setup"])
    envelopes = [Envelope.from_json(e) for e in record["envelopes"]]
    assert audit_transcript(setup, envelopes) == table.relay.view.result

    broken = list(envelopes)
    broken[3] = dataclasses.replace(broken[3], body=broken[3].body[:-1] + b"\x00")
    with pytest.raises(DealFault) as exc:
        audit_transcript(setup, broken)
    assert exc.value.code == "bad_signature" and exc.value.culprit == RELAY

    with pytest.raises(DealFault) as exc:
        audit_transcript(setup, envelopes[:-1])  # the last reveal missing
    assert exc.value.code == proto.OUT_OF_ORDER and exc.value.culprit is None


def test_a_player_needs_its_own_keys_and_signing_key() -> None:
    setup = make_setup()
    with pytest.raises(ValueError):
        DealPlayer(setup, 0, signing_key(1), RoundKeys.derive(round_secret(0), 60))
    keys = RoundKeys.derive(round_secret(0), 60)
    revealed = RoundKeys.from_revealed(keys.global_key.e, [p.e for p in keys.positions])
    with pytest.raises(ValueError):  # another player's revealed keys: no secret, no shuffle
        DealPlayer(setup, 0, signing_key(0), revealed)
    with pytest.raises(ValueError):
        DealPlayer(setup, 3, signing_key(0))
