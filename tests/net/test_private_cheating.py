"""Cheating in a privately dealt game is caught and pinned on the cheater.

Each cheater (a test double of the real client, or of the host as a relay) cheats once,
at its first chance from round 2 on. The host and every honest client must name it: the
host voids the attempt with the culprit, every honest client's own checks (the evidence
the host forwards, or everyone's revealed keys) blame the same seat, the record keeps the
voided attempt and verifies, and the round is dealt again and played (each test stops after
the round that follows it; whole games with voids are in test_private_reconnect.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from pathlib import Path
from typing import Any

import pytest
from net_helpers import running_host, seat_sessions
from private_helpers import assert_partial_game_verified, play_until

from netplay.mental import RELAY, DealFault, Send, Suspect
from netplay.mental.protocol import lock_body, open_body, shuffle_body
from netplay.mental.sra import split
from netplay.signing import Envelope
from wizard_tui.game import Phase, card_name, is_jester, is_wizard, suit_of
from wizard_tui.net import protocol as p
from wizard_tui.net.client import NetworkSession
from wizard_tui.net.deals import DealKind
from wizard_tui.net.deals.private.client_deal import ClientDeal
from wizard_tui.net.deals.private.host import PrivateDealing
from wizard_tui.net.deals.private.seat import PrivateSeatHalf
from wizard_tui.net.deals.seat_half import SeatHalf
from wizard_tui.net.host import HostOptions
from wizard_tui.net.host_adapter import WizardHost

FROM_ROUND = 2
CHEATER = 1  # the client seat that cheats (seat 3 is the host's bot)


class Cheater(NetworkSession):
    """A real client that cheats once, when ``cheat`` says it did."""

    cheated_in: tuple[int, int] | None = None

    def play(self, card: int) -> None:
        view, deal = self.view, self.seat_half.deal  # type: ignore[attr-defined]
        if (
            self.cheated_in is None
            and view is not None
            and deal is not None
            and view.round >= FROM_ROUND
            and self.cheat_play(view, deal, card)
        ):
            self.cheated_in = (deal.round, deal.attempt)
            return
        super().play(card)

    def cheat_play(self, view: Any, deal: ClientDeal, card: int) -> bool:
        return False

    def send_open(self, deal: ClientDeal, card: int, body: bytes) -> None:
        """Sign ``body`` as our next envelope and send it as the open of ``card``."""
        envelope = deal.player.sealer.seal(body)
        with contextlib.suppress(DealFault):  # our own view may refuse it: it is a lie
            deal.player.view.receive(envelope, own=True)
        assert self.view is not None
        msg = p.play_msg(self.view.seat, self.view.round, card)
        msg["open"] = envelope.to_wire()
        self.client.send(msg)


def _position(deal: ClientDeal, card: int) -> int:
    hand = deal.player.hand or {}
    return next(k for k, item in hand.items() if item == card)


class WrongKey(Cheater):
    """Plays a card with another position's key."""

    def cheat_play(self, view: Any, deal: ClientDeal, card: int) -> bool:
        position = _position(deal, card)
        other = (position + 1) % 60
        self.send_open(deal, card, open_body(position, card, deal.keys.positions[other].d))
        return True


class LiesAboutTheCard(Cheater):
    """Says its card is a better one (a card nobody has shown), with the right key."""

    def cheat_play(self, view: Any, deal: ClientDeal, card: int) -> bool:
        seen = set(view.played_cards) | set(view.hand) | {view.trump_card}
        claim = next(c for c in (55, 54, 53, 52, *range(51, -1, -1)) if c not in seen)
        position = _position(deal, card)
        self.send_open(deal, claim, open_body(position, claim, deal.keys.positions[position].d))
        return True


class Revokes(Cheater):
    """Plays a plain card of another suit while holding the suit led."""

    def cheat_play(self, view: Any, deal: ClientDeal, card: int) -> bool:
        led = view.led_suit
        if led is None or view.phase is not Phase.PLAY:
            return False
        plain = [c for c in view.hand if not is_wizard(c) and not is_jester(c)]
        if not any(suit_of(c) == led for c in plain):
            return False
        off = next((c for c in plain if suit_of(c) != led), None)
        if off is None:
            return False
        self.revoked = card_name(off)
        NetworkSession.play(self, off)
        return True


class CheatsInThePass(NetworkSession):
    """Signs a doctored pass once, from round 2 on: ``doctor`` changes the deck."""

    cheated_in: tuple[int, int] | None = None

    def _new_seat_half(self, kind: DealKind) -> SeatHalf:
        half = super()._new_seat_half(kind)
        if not isinstance(half, PrivateSeatHalf):
            return half
        new_deal = half._new_deal

        def make(*a: Any, **k: Any) -> ClientDeal:
            deal = new_deal(*a, **k)
            if deal.round >= FROM_ROUND and self.cheated_in is None:
                self._rig(deal)
            return deal

        half._new_deal = make  # type: ignore[method-assign]
        return half

    def _rig(self, deal: ClientDeal) -> None:
        player = deal.player
        honest = player._pass_body

        doctored_bodies: list[bytes] = []

        def doctored() -> bytes | None:
            body = honest()
            if body is None or self.cheated_in is not None:
                return body
            from netplay.mental.protocol import decode_body

            msg = decode_body(body)
            values = split(msg["deck"])
            self.doctor(values)
            make = shuffle_body if msg["t"] == "shuffle" else lock_body
            self.cheated_in = (deal.round, deal.attempt)
            doctored_bodies.append(make(msg["pass"], msg["prev"], b"".join(values)))
            return doctored_bodies[-1]

        player._pass_body = doctored  # type: ignore[method-assign]
        honest_send = player._send

        def send(body: bytes) -> list[Any]:
            if body not in doctored_bodies:
                return honest_send(body)
            envelope = player.sealer.seal(body)
            try:
                return [Send(envelope), *player.view.receive(envelope, own=True)]
            except DealFault:  # our own view refuses it: send it all the same, and stop
                player.halted = Suspect("cheated", None, "this player cheated")
                return [Send(envelope)]

        player._send = send  # type: ignore[method-assign]

    def doctor(self, values: list[bytes]) -> None:
        raise NotImplementedError


class DuplicatesACard(CheatsInThePass):
    def doctor(self, values: list[bytes]) -> None:
        values[1] = values[0]


class SubstitutesACiphertext(CheatsInThePass):
    """Replaces one value with a point of its own making: canonical, distinct, no item."""

    def doctor(self, values: list[bytes]) -> None:
        from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

        from netplay.mental.sra import apply

        nine = (9).to_bytes(32, "little")
        values[5] = apply(X25519PrivateKey.from_private_bytes(os.urandom(32)), nine)


CASES: dict[str, tuple[type[NetworkSession], tuple[str, ...]]] = {
    "wrong key in an open": (WrongKey, ("played_key_mismatch",)),
    "lied-about played card": (LiesAboutTheCard, ("wrong_claim",)),
    "duplicated card in a pass": (DuplicatesACard, ("duplicate_value",)),
    "substituted ciphertext": (SubstitutesACiphertext, ("shuffle_mismatch", "lock_mismatch")),
    "revoke": (Revokes, ("must_follow_suit",)),
}


@pytest.mark.parametrize("case", list(CASES))
async def test_a_cheating_player_is_caught_and_named(tmp_path: Path, case: str) -> None:
    cheater_cls, codes = CASES[case]
    options = HostOptions(
        players=4, bots=1, bot_level="random", records_dir=tmp_path, deal="private"
    )
    async with asyncio.timeout(60), running_host(options) as host:
        sessions = await seat_sessions(options.port, 1)
        sessions += await seat_sessions(options.port, 1, cls=cheater_cls)
        sessions += await seat_sessions(options.port, 1)
        cheater = sessions[CHEATER]
        await play_until(host, sessions, lambda: _dealt_again_and_played(host), seed=11)
    assert cheater.cheated_in is not None, "the cheater never had its chance"  # type: ignore[attr-defined]
    r, attempt = cheater.cheated_in  # type: ignore[attr-defined]
    record = host.table.recorder.record()  # type: ignore[union-attr]
    (void,) = record.redeals
    assert (void.round, void.attempt) == (r, attempt)
    assert void.fault in codes and void.culprit == CHEATER, (void.fault, void.culprit, void.reason)
    for seat in (0, 2):  # the honest clients reached the same verdict by themselves
        (report,) = sessions[seat].seat_half.voids  # type: ignore[attr-defined]
        assert (report.round, report.attempt) == (r, attempt)
        assert report.our_code in codes and report.our_culprit == CHEATER, report
    # Dealt again, the round was played and verified by everyone, and so was the next one.
    assert len(record.rounds) >= r + 1
    assert record.rounds[r - 1].private_deal.setup.attempt == attempt + 1  # type: ignore[union-attr]
    assert_partial_game_verified(host, sessions)


def _dealt_again_and_played(host: WizardHost) -> bool:
    """A void is recorded, and the round after the voided one has ended."""
    record = host.table.recorder if host.table else None
    return (
        record is not None
        and bool(record.redeals)
        and (len(record.rounds) >= record.redeals[-1].round + 1)
    )


class AltersARelayedPass(WizardHost):
    """A relay that changes one byte of one pass it forwards to seat 0, from round 2 on."""

    altered: tuple[int, int] | None = None

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        half = self.deal_half
        assert isinstance(half, PrivateDealing)
        honest_flush = half._flush

        def flush(deal: Any) -> None:
            if self.altered is None and deal.round >= FROM_ROUND:
                for i, (seat, env) in enumerate(deal.outbox):
                    if seat == 0 and len(env.body) > 1000:
                        body = env.body[:-1] + bytes([env.body[-1] ^ 1])
                        deal.outbox[i] = (seat, Envelope(env.sender, env.seq, body, env.sig))
                        self.altered = (deal.round, deal.attempt)
                        break
            honest_flush(deal)

        half._flush = flush  # type: ignore[method-assign]


async def test_a_cheating_relay_is_caught_and_blamed(tmp_path: Path) -> None:
    options = HostOptions(
        players=4, bots=1, bot_level="random", records_dir=tmp_path, deal="private"
    )
    async with asyncio.timeout(60), running_host(options, host_cls=AltersARelayedPass) as host:
        sessions = await seat_sessions(options.port, 3)
        await play_until(host, sessions, lambda: _dealt_again_and_played(host), seed=5)
    assert isinstance(host, AltersARelayedPass) and host.altered is not None
    (fault,) = sessions[0].seat_half.faults  # type: ignore[attr-defined]
    assert fault.code == "bad_signature" and fault.culprit == RELAY
    for session in sessions:  # everyone heard seat 0 stop the attempt, blaming the relay
        (report,) = session.seat_half.voids  # type: ignore[attr-defined]
        assert (report.round, report.attempt) == host.altered
        assert report.code == "bad_signature" and "blaming the relay" in report.reason
    assert_partial_game_verified(host, sessions)


class SendsJunk(NetworkSession):
    """On its first turn to play from round 2 on: a play without its open, a play whose open is
    another card's, an open sent as a ``deal``, a ``deal`` for an old attempt; then an
    envelope of its own that is not signed. Each is refused; an envelope that proves
    nothing against its signer voids nothing either (docs/security.md, "A hostile seat");
    the table plays on."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.refusals: list[str] = []
        self.done = False

    def _handle(self, msg: dict[str, Any]) -> None:
        super()._handle(msg)
        if msg["t"] == "refused":
            self.refusals.append(str(msg.get("code")))
        view, deal = self.view, self.seat_half.deal  # type: ignore[attr-defined]
        if (
            msg["t"] != "state"
            or self.done
            or view is None
            or deal is None
            or view.round < 2
            or not (view.my_turn and view.phase is Phase.PLAY)
        ):
            return
        self.done = True
        card = view.hand[0]
        seen = {*view.hand, *view.played_cards, view.trump_card}
        other = next(c for c in range(60) if c not in seen)
        opened = deal.player.sealer  # (not used to sign anything valid below)
        position = _position(deal, card)
        real = open_body(position, card, deal.keys.positions[position].d)
        unsigned = Envelope(deal.seat, opened.next_seq, real, bytes(64))
        send = self.client.send
        send(p.play_msg(view.seat, view.round, card))  # no open
        send({**p.play_msg(view.seat, view.round, other), "open": unsigned.to_wire()})
        send(p.deal_msg(deal.round, deal.attempt, unsigned.to_wire()))  # an open as a deal
        send(p.deal_msg(deal.round, deal.attempt + 5, unsigned.to_wire()))  # no such attempt
        reveal = Envelope(deal.seat, opened.next_seq, b"\x81\xa1t\xa6reveal", bytes(64))
        send(p.deal_msg(deal.round, deal.attempt, reveal.to_wire()))  # not signed: refused


async def test_bad_deal_messages_hurt_only_their_sender(tmp_path: Path) -> None:
    options = HostOptions(
        players=4, bots=1, bot_level="random", records_dir=tmp_path, deal="private"
    )
    async with asyncio.timeout(60), running_host(options) as host:
        sessions = await seat_sessions(options.port, 1)
        sessions += await seat_sessions(options.port, 1, cls=SendsJunk)
        sessions += await seat_sessions(options.port, 1)
        await play_until(host, sessions, lambda: _rounds_done(host, 3), seed=3)
    junk = sessions[1]
    assert isinstance(junk, SendsJunk) and junk.done
    assert junk.refusals[:5] == ["bad_envelope"] * 3 + ["stale_attempt", "bad_envelope"]
    assert host.table.recorder.record().redeals == ()  # type: ignore[union-attr]
    assert_partial_game_verified(host, sessions)


def _rounds_done(host: WizardHost, rounds: int) -> bool:
    return host.table is not None and len(host.table.recorder.rounds) >= rounds
