"""A hostile seat gains nothing in a privately dealt game (issue 21, docs/security.md "A
hostile seat").

The hostile client is a real client that plays by the rules through its bot, except at one
point of one round, where it tries to end the round on its own terms: it says it lost its
round keys (``lost``), raises a suspect the keys will not bear out or a made-up ``abort``
code, reveals its keys early, or withholds its reveal once every card is played; or it
sends an envelope crafted to spoil the host's record. For each: the honest players' game
goes on, the hostile seat pays for the void (its round scores -10 per card, less than any
honest play of the round can score), and the host's record verifies with that seat named.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgpack
import pytest
from net_helpers import play_bots, running_host, seat_sessions, verify_path
from private_helpers import assert_partial_game_verified, assert_private_game_verified, play_until

from netplay.mental.protocol import MESSAGE_TAG, decode_body, lock_body, open_body, shuffle_body
from netplay.signing import Envelope, signature_input
from wizard_tui.game import Phase, score, void_charge
from wizard_tui.net import protocol as p
from wizard_tui.net.client import NetworkSession
from wizard_tui.net.deals import DealKind
from wizard_tui.net.deals.private.client_deal import ClientDeal
from wizard_tui.net.deals.private.host import MAX_CHARGES, PrivateDealing
from wizard_tui.net.deals.private.seat import PrivateSeatHalf
from wizard_tui.net.deals.seat_half import SeatHalf
from wizard_tui.net.host import HostOptions
from wizard_tui.net.host_adapter import WizardHost
from wizard_tui.net.host_state import DEFAULT_DEAL_STEP_TIMEOUT
from wizard_tui.net.journal import journal_path, read_journal
from wizard_tui.net.restore import replay
from wizard_tui.record import RecordError
from wizard_tui.verify import verify_document, verify_record

HOSTILE = 1  # seat 0: an honest client; seat 1: the hostile one; seat 2: the host's bot
ROUND = 3  # three cards each: a first, a middle and a last card to play


def _signed(deal: ClientDeal, body: bytes, *, sender: int | None = None, seq: int | None = None):
    """An envelope signed with this seat's own key, whatever ``from`` and ``seq`` it names."""
    sender = deal.seat if sender is None else sender
    seq = deal.player.sealer.next_seq if seq is None else seq
    data = signature_input(MESSAGE_TAG, deal.setup.context, sender, seq, body)
    return Envelope(sender, seq, body, deal.signing_key.sign(data))


class Hostile(NetworkSession):
    """Plays by the rules, except at ``point`` of round ``ROUND`` (of every attempt of every
    round with ``every``), where it does ``how``; see the module docstring."""

    point = "bid"  # dealt | bid | first | middle | last | end | pass
    how = "lost"  # lost | abort | made_up | reveal | a crafted envelope (see attack)
    every = False

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.attacked: list[tuple[int, int]] = []
        self.refusals: list[str] = []
        super().__init__(*args, **kwargs)

    def _new_seat_half(self, kind: DealKind) -> SeatHalf:
        private = super()._new_seat_half(kind)
        if not isinstance(private, PrivateSeatHalf):
            return private
        honest_reveal, honest_settle = private._reveal, private.settle

        def reveal(deal: ClientDeal) -> None:
            if self.point == "end" and self._due(deal):
                self._attack(deal, None)  # instead of its reveal, every card played
                return
            if self.point == "end" and (deal.round, deal.attempt) in self.attacked:
                return  # and it keeps its keys for good
            honest_reveal(deal)

        def settle() -> None:
            deal = private.deal
            if self.point == "pass" and deal is not None and self._due(deal) and deal.outbox:
                self._attack(deal, None)  # before its own shuffle pass goes out
            honest_settle()

        private._reveal = reveal  # type: ignore[method-assign]
        private.settle = settle  # type: ignore[method-assign]
        return private

    def _due(self, deal: ClientDeal) -> bool:
        right_round = deal.round >= ROUND if self.every else deal.round == ROUND
        return (
            right_round
            and not deal.voided
            and (deal.round, deal.attempt) not in self.attacked
            and (self.every or not self.attacked)
        )

    def _handle(self, msg: dict[str, Any]) -> None:
        super()._handle(msg)
        if msg["t"] == "refused":
            self.refusals.append(f"{msg.get('code')}: {msg.get('message')}")
        # (Until the welcome names the private deal, the seat half is commit-reveal's: no deal.)
        half = self.seat_half
        view, deal = self.view, half.deal if isinstance(half, PrivateSeatHalf) else None
        if msg["t"] != "state" or view is None or deal is None or deal.hand is None:
            return
        if view.round != deal.round or not self._due(deal):
            return
        mine = view.my_turn and view.phase is Phase.PLAY
        cards = len(view.hand)
        if (
            (self.point == "dealt" and view.phase in (Phase.BID, Phase.CHOOSE_TRUMP))
            or (self.point == "bid" and view.my_turn and view.phase is Phase.BID)
            or (self.point == "first" and mine and cards == deal.round)
            or (self.point == "middle" and mine and 1 < cards < deal.round)
            or (self.point == "last" and mine and cards == 1)
        ):
            self._attack(deal, view)

    def _attack(self, deal: ClientDeal, view: Any) -> None:
        self.attacked.append((deal.round, deal.attempt))
        send = self.client.send
        r, attempt = deal.round, deal.attempt
        if self.how == "silent":
            return  # it just does not send what it owes
        if self.how == "lost":
            send({"t": "lost", "round": r, "attempt": attempt})
        elif self.how in ("abort", "made_up"):
            code = "not_an_item" if self.how == "abort" else "zz_made_up_code"
            send({"t": "abort", "round": r, "attempt": attempt, "code": code, "culprit": 0})
        elif self.how == "reveal":
            envelope = deal.reveal()
            assert envelope is not None
            send(p.deal_msg(r, attempt, envelope.to_wire()))
        else:
            for envelope in CRAFTED[self.how](deal):
                send(p.deal_msg(r, attempt, envelope.to_wire()))
            if self.how in ("not_owner", "already_open"):
                self._play_open_of(deal, view)

    def _play_open_of(self, deal: ClientDeal, view: Any) -> None:
        """A play of our card whose open names a position dealt to another seat, or one of
        ours already played."""
        card = view.hand[0]
        if self.how == "not_owner":
            position = deal.setup.positions_of(0)[0]
        else:
            hand = deal.player.hand or {}
            position = next(k for k, item in hand.items() if item not in view.hand)
        body = open_body(position, card, deal.keys.positions[position].d)
        msg = p.play_msg(view.seat, view.round, card)
        msg["open"] = _signed(deal, body).to_wire()
        self.client.send(msg)


def _zeros_reveal() -> bytes:
    return msgpack.packb({"t": "reveal", "key": bytes(32), "keys": bytes(32 * 60)})


def _own_envelopes(deal: ClientDeal) -> list[Envelope]:
    return [e for e in deal.transcript if e.sender == deal.seat]


# Envelopes that prove nothing against their signer (a relayed view, and verify, would
# blame the relay for them): refused, never forwarded, the round goes on.
def _instead_of_our_pass(deal: ClientDeal, change: str) -> list[Envelope]:
    """At our shuffle turn, before our real pass goes out: a pass under its number, doctored."""
    real = deal.outbox[0]
    body = decode_body(real.body)
    index, prev, deck = body["pass"], body["prev"], body["deck"]
    if change == "prev":
        doctored = shuffle_body(index, bytes(32), deck)
    elif change == "lock":
        doctored = lock_body(index, prev, deck)  # our lock pass, before the shuffles ended
    else:
        doctored = shuffle_body(index, prev, deck[:-32])  # a value short
    return [_signed(deal, doctored, seq=real.seq)]


UNPROVEN: dict[str, Any] = {
    # Sent at our shuffle turn, before our real pass:
    "chain_mismatch": lambda d: _instead_of_our_pass(d, "prev"),
    "out_of_order": lambda d: _instead_of_our_pass(d, "lock"),
    # Sent once our hand is open:
    "wrong_sender, signed with our own key": lambda d: [_signed(d, b"\x80", sender=0, seq=1)],
    "wrong_sender, another seat's envelope": lambda d: [
        next(e for e in d.transcript if e.sender != d.seat)
    ],
    "bad_signature": lambda d: [Envelope(d.seat, d.player.sealer.next_seq, b"\x80", bytes(64))],
    "seq_gap": lambda d: [_signed(d, b"\x80", seq=d.player.sealer.next_seq + 1)],
    "seq_replay": lambda d: [_own_envelopes(d)[-1]],
}

# Envelopes whose signed content is a deviation: the attempt is void and its signer pays.
PROVEN: dict[str, Any] = {
    "malformed": lambda d: [_signed(d, b"\x80")],
    "not_your_turn": lambda d: [
        _signed(d, shuffle_body(d.setup.chain.index(d.seat), bytes(32), bytes(32 * 60)))
    ],
    "bad_release": lambda d: [
        _signed(
            d, msgpack.packb({"t": "release", "final": bytes(32), "positions": [], "keys": b""})
        )
    ],
    "equivocation": lambda d: [_signed(d, b"\x80", seq=0)],
    "bad_round_key": lambda d: [_signed(d, _zeros_reveal())],
    "bad_deck": lambda d: _instead_of_our_pass(d, "short"),
    # Play messages: Hostile._play_open_of.
    "not_owner": lambda d: [],
    "already_open": lambda d: [],
}
CRAFTED = {**UNPROVEN, **PROVEN}


def _options(tmp_path: Path, players: int = 3, **kwargs: Any) -> HostOptions:
    return HostOptions(
        players=players, bots=1, bot_level="random", records_dir=tmp_path, deal="private", **kwargs
    )


def _kind(point: str, how: str, every: bool = False) -> type[Hostile]:
    return type(f"Hostile_{point}_{how}", (Hostile,), {"point": point, "how": how, "every": every})


def _rounds_done(host: WizardHost, rounds: int) -> bool:
    return host.table is not None and len(host.table.recorder.rounds) >= rounds


class AttackDeadlineHost(WizardHost):
    """A host whose deal-step deadline is ``ATTACK_DEADLINE`` for one step only: the hostile
    seat's reveal once every card of round ``ROUND`` is played, which it withholds. Every
    other step keeps ``options.deal_step_timeout``: a short deadline for every step would
    cut off honest programs on a loaded machine (their passes and reveals in the earlier
    rounds), and the hostile seat before it can attack."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.shortened: list[tuple[Any, ...]] = []  # the steps given the short deadline

    def start_timer(self, key: Any, delay: float, fire: Callable[[], None]) -> None:
        if isinstance(key, tuple) and key[:1] == ("deal_step",):
            assert isinstance(self.deal_half, PrivateDealing)
            step = self.deal_half.owed_steps().get(key[1])
            if key[1] == HOSTILE and step is not None and step[0] == ROUND and step[-1] == "reveal":
                delay = ATTACK_DEADLINE
                self.shortened.append(step)
        super().start_timer(key, delay, fire)


ATTACK_DEADLINE = 0.3  # seconds: the attacked step's deadline (AttackDeadlineHost)


async def _play(
    tmp_path: Path,
    cls: type[Hostile],
    rounds: int,
    seed: int,
    host_cls: type[WizardHost] = WizardHost,
    **kwargs: Any,
):
    options = _options(tmp_path, **kwargs)
    async with asyncio.timeout(90), running_host(options, host_cls=host_cls) as host:
        sessions = await seat_sessions(options.port, 1)
        sessions += await seat_sessions(options.port, 1, cls=cls)
        await play_until(host, sessions, lambda: _rounds_done(host, rounds), seed=seed)
    hostile = sessions[HOSTILE]
    assert isinstance(hostile, Hostile)
    return host, sessions[:HOSTILE], hostile


def _assert_paid(host: WizardHost, r: int, why: str) -> None:
    """The hostile seat is charged in round ``r`` for ``why``, and scores the charges
    alone there: less than any honest play of the round could give it."""
    record = host.table.recorder.record()  # type: ignore[union-attr]
    charges = [c for c in record.charges if c.round == r]
    assert charges and all(c.seat == HOSTILE and c.why == why for c in charges), charges
    points = record.rounds[r - 1].points
    assert points[HOSTILE] == len(charges) * void_charge(r) <= void_charge(r)
    verdict = verify_path(host.table.record_path)  # type: ignore[union-attr, arg-type]
    assert verdict.ok, verdict.line()


POINTS = ("dealt", "bid", "first", "middle", "last", "end")
HOWS = ("lost", "abort", "made_up", "reveal")
# Every point with some attack and every attack at some point run in CI (about 3 s each);
# the rest of the grid is marked slow. (Revealing at the end is the honest path.)
CI_CASES = {
    ("dealt", "lost"),
    ("bid", "abort"),
    ("first", "made_up"),
    ("middle", "reveal"),
    ("last", "lost"),
    ("last", "abort"),
    ("end", "lost"),
    ("end", "made_up"),
}
CASES = [
    pytest.param(point, how, marks=() if (point, how) in CI_CASES else pytest.mark.slow)
    for point in POINTS
    for how in HOWS
    if (point, how) != ("end", "reveal")
]


@pytest.mark.parametrize(("point", "how"), CASES)
async def test_a_seat_that_ends_the_round_pays_for_it(tmp_path: Path, point: str, how: str) -> None:
    host, honest, hostile = await _play(tmp_path, _kind(point, how), ROUND + 1, seed=7)
    assert hostile.attacked, "the hostile seat never had its chance"
    record = host.table.recorder.record()  # type: ignore[union-attr]
    if point == "end":
        # Every card was down: nothing is void, the round is scored from the opens.
        assert not [d for d in record.redeals if d.round == ROUND]
        _assert_paid(host, ROUND, "unrevealed")
        own = honest[0].recorder  # the honest player's own record too, charge and all
        assert own is not None and tuple(own.charges) == record.charges[: len(own.charges)]
        verify_record(own.record())
    else:
        (void,) = [d for d in record.redeals if d.round == ROUND]
        assert (void.round, void.attempt) == hostile.attacked[0]
        assert void.culprit is None  # nothing it signed proves a cheat; it pays all the same
        _assert_paid(host, ROUND, "void")
    assert_partial_game_verified(host, honest)


@pytest.mark.parametrize("kind", list(PROVEN))
async def test_a_signed_deviation_voids_and_its_signer_pays(tmp_path: Path, kind: str) -> None:
    point = {"not_owner": "first", "already_open": "middle", "bad_deck": "pass"}.get(kind, "bid")
    host, honest, hostile = await _play(tmp_path, _kind(point, kind), ROUND + 1, seed=5)
    assert hostile.attacked
    record = host.table.recorder.record()  # type: ignore[union-attr]
    (void,) = [d for d in record.redeals if d.round == ROUND]
    assert (void.fault, void.culprit) == (kind, HOSTILE), (void.fault, void.culprit, void.reason)
    _assert_paid(host, ROUND, "void")  # and verify derives the same blame from the envelopes
    assert_partial_game_verified(host, honest)


@pytest.mark.parametrize("kind", list(UNPROVEN))
async def test_an_envelope_that_proves_nothing_is_refused_and_voids_nothing(
    tmp_path: Path, kind: str
) -> None:
    point = "pass" if kind in ("chain_mismatch", "out_of_order") else "bid"
    host, honest, hostile = await _play(tmp_path, _kind(point, kind), ROUND + 1, seed=3)
    assert hostile.attacked
    code = kind.split(",")[0]
    assert any(r.startswith(f"bad_envelope: {code}:") for r in hostile.refusals), hostile.refusals
    record = host.table.recorder.record()  # type: ignore[union-attr]
    assert record.redeals == () and record.charges == ()
    verdict = verify_path(host.table.record_path)  # type: ignore[union-attr, arg-type]
    assert verdict.ok, verdict.line()
    assert_partial_game_verified(host, honest)


async def test_a_seat_silent_after_the_last_card_pays_and_the_round_counts(
    tmp_path: Path,
) -> None:
    """It keeps its reveal and says nothing: its deal step times out (the host cuts it off),
    the round is scored from the opens, and it pays; a bot takes the seat it left. (Only
    that step has the short deadline: the others keep the default, which no honest program
    comes near, loaded or not.)"""
    cls = _kind("end", "silent")
    host, honest, hostile = await _play(
        tmp_path, cls, ROUND + 1, seed=7, host_cls=AttackDeadlineHost, takeover_after=0.3
    )
    assert hostile.attacked == [(ROUND, 0)]
    assert host.options.deal_step_timeout == DEFAULT_DEAL_STEP_TIMEOUT
    assert isinstance(host, AttackDeadlineHost) and host.shortened == [(ROUND, 0, "reveal")]
    record = host.table.recorder.record()  # type: ignore[union-attr]
    # A bot of the host signs for the seat it left; the honest player was never cut off.
    assert {s.seat for s in record.stand_ins if s.key is not None} == {HOSTILE}
    assert not [d for d in record.redeals if d.round == ROUND]
    _assert_paid(host, ROUND, "unrevealed")
    assert_partial_game_verified(host, honest)


async def test_one_seat_cannot_end_the_game(tmp_path: Path) -> None:
    """A seat that says it lost its keys at every deal of every round from round 3 on pays
    twice, then a bot of the host plays it to the end: the game finishes for everyone."""
    options = _options(tmp_path)
    async with asyncio.timeout(120), running_host(options) as host:
        sessions = await seat_sessions(options.port, 1)
        sessions += await seat_sessions(options.port, 1, cls=_kind("dealt", "lost", every=True))
        codes = await play_bots(sessions, "random", seed=1)
    assert codes[0] == 0  # the honest client's game ended well
    hostile = sessions[HOSTILE]
    assert isinstance(hostile, Hostile) and len(hostile.attacked) >= MAX_CHARGES
    assert_private_game_verified(host, sessions[:HOSTILE], redeals=MAX_CHARGES)
    record = host.table.recorder.record()  # type: ignore[union-attr]
    assert [(c.seat, c.why) for c in record.charges] == [(HOSTILE, "void")] * MAX_CHARGES
    assert host.seats[HOSTILE].forfeited  # type: ignore[union-attr]
    assert any(s.seat == HOSTILE and s.key is not None for s in record.stand_ins)
    # It scored the two charges in round 3 and nothing better than honest play since.
    assert record.rounds[ROUND - 1].points[HOSTILE] == MAX_CHARGES * void_charge(ROUND)


def _tampered(doc: dict[str, Any], change: str) -> dict[str, Any]:
    doc = json.loads(json.dumps(doc))
    charges = doc["charges"]
    if change == "another seat":
        charges[0]["seat"] = 0
    elif change == "no charge":
        del doc["charges"]
    elif change == "a charge for a round played out":
        charges.append({"round": 1, "attempt": 0, "seat": 0, "why": "void"})
    elif change == "charged twice":
        charges.append(dict(charges[0]))
    elif change == "another reason":
        charges[0]["why"] = "unrevealed" if charges[0]["why"] == "void" else "void"
    return doc


@pytest.mark.parametrize(("point", "how"), [("bid", "lost"), ("end", "lost"), ("bid", "malformed")])
async def test_verify_rejects_a_tampered_charge(tmp_path: Path, point: str, how: str) -> None:
    host, _, _ = await _play(tmp_path, _kind(point, how), ROUND, seed=2)
    path = host.table.record_path  # type: ignore[union-attr]
    assert path is not None
    doc = json.loads(Path(path).read_text())
    assert verify_document(doc).charges  # as recorded, it verifies
    changes = ["another seat", "a charge for a round played out", "charged twice", "another reason"]
    # Without the charge, the seat scores its bid in the redealt attempt. A charge for a void
    # nothing signed proves (a `lost`) stands on the record's word, so its removal shows only
    # where that score is not the charge (off its bid by exactly as many tricks as the round
    # has cards scores the same): then it must be refused.
    first = doc["charges"][0]
    played = doc["rounds"][first["round"] - 1]
    seat = first["seat"]
    if score(played["bids"][seat], played["tricks_won"][seat]) != void_charge(first["round"]):
        changes.append("no charge")
    for change in changes:
        with pytest.raises(RecordError):
            verify_document(_tampered(doc, change))


async def test_a_journal_with_charges_replays_to_the_same_record(tmp_path: Path) -> None:
    """A host restored from its journal (``host --resume``) scores the charges as the host
    did: the replayed record is the host's, charges included, and it verifies."""
    cls = _kind("bid", "lost")
    host, _, _ = await _play(tmp_path, cls, ROUND + 1, seed=4, journal_dir=tmp_path / "journal")
    record = host.table.recorder.record()  # type: ignore[union-attr]
    assert record.charges
    entries = read_journal(journal_path(tmp_path / "journal", record.game_id)).entries
    replayed = replay(entries).recorder.record()
    assert replayed.charges == record.charges
    assert replayed.rounds == record.rounds[: len(replayed.rounds)]
    assert len(replayed.rounds) >= ROUND
    verify_record(replayed)
