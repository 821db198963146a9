"""Reconnects in a privately dealt game (docs/private-deal.md section 10).

A player whose link drops keeps its round keys: the host sends it the round's transcript
and it carries on, byte for byte where it left off. A player whose keys are gone (its
program restarted) says so: the attempt is void for everyone, every seat is told, and the
round is dealt again; the record keeps the voided attempt and still verifies, and a
record whose voided attempt was tampered with does not.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from net_helpers import assert_own_records, play_bots, running_host, seat_sessions, wait_until
from private_helpers import assert_private_game_verified
from test_net_reconnect import DropMidTrick, DroppingSession

from wizard_tui.game import SeatView
from wizard_tui.net.client import NetworkSession
from wizard_tui.net.deals.private.host import LOST_KEYS, PrivateDealing
from wizard_tui.net.deals.private.round_secrets import SecretStore
from wizard_tui.net.host import HostOptions
from wizard_tui.record import RecordError
from wizard_tui.verify import verify_document, verify_path


def _private(players: int, bots: int, records: Path) -> HostOptions:
    return HostOptions(
        players=players, bots=bots, bot_level="random", records_dir=records, deal="private"
    )


class DropInTheChain(DroppingSession):
    """Drops when a relayed pass of round 3 arrives, before its own pass is due, and comes
    back only when the test opens the gate: the chain waits for it meanwhile."""

    def should_drop(self, view: SeatView) -> bool:
        return False

    def _handle(self, msg: dict[str, Any]) -> None:
        super()._handle(msg)
        if msg["t"] == "deal" and msg["round"] == 3 and self.dropped_view is None:
            assert self.view is not None
            self.dropped_view = self.view
            self.client.gate.clear()  # type: ignore[attr-defined]
            assert self.client._link is not None
            self.client._link.writer.transport.abort()
            self.dropped.set()


async def test_drop_mid_trick_keeps_the_round_keys(tmp_path: Path) -> None:
    options = _private(4, 1, tmp_path)
    async with asyncio.timeout(30), running_host(options) as host:
        (dropper,) = await seat_sessions(options.port, 1, cls=DropMidTrick)
        others = await seat_sessions(options.port, 2)
        codes = await play_bots([dropper, *others])
        await host.finished.wait()
    assert dropper.dropped.is_set(), "the game never reached the point of the drop"
    assert any(m["t"] == "transcript" for m in dropper.received)
    assert codes == [0, 0, 0]
    assert_private_game_verified(host, [dropper, *others])  # and no redeal


async def test_drop_in_the_chain_resends_the_same_pass(tmp_path: Path) -> None:
    options = _private(3, 1, tmp_path)
    async with asyncio.timeout(30), running_host(options) as host:
        (dropper,) = await seat_sessions(options.port, 1, cls=DropInTheChain)
        (other,) = await seat_sessions(options.port, 1)
        game = asyncio.ensure_future(play_bots([dropper, other]))
        await dropper.dropped.wait()
        assert isinstance(host.deal_half, PrivateDealing) and host.deal_half.deal is not None
        passes = len(host.deal_half.deal.relay.view.pass_envelopes)
        dropper.client.gate.set()  # type: ignore[attr-defined]
        codes = await game
        await host.finished.wait()
    assert passes < 6  # it left while the round was being dealt
    assert codes == [0, 0]
    assert_private_game_verified(host, [dropper, other])


class ForgetfulSession(DropMidTrick):
    """Loses its round keys with its link, as a client that crashed and restarted would."""

    def _handle(self, msg: dict[str, Any]) -> None:
        if msg["t"] == "snapshot":
            self.seat_half.deal = None  # type: ignore[attr-defined]  # the keys lived in memory only
        super()._handle(msg)


async def test_lost_keys_void_the_round_and_it_is_dealt_again(tmp_path: Path) -> None:
    options = _private(4, 1, tmp_path)
    async with asyncio.timeout(30), running_host(options) as host:
        (forgetful,) = await seat_sessions(options.port, 1, cls=ForgetfulSession)
        others = await seat_sessions(options.port, 2)
        codes = await play_bots([forgetful, *others])
        await host.finished.wait()
    assert forgetful.dropped.is_set()
    assert codes == [0, 0, 0]
    assert_private_game_verified(host, [forgetful, *others], redeals=1)
    assert forgetful.dropped_view is not None
    r = forgetful.dropped_view.round
    for session in (forgetful, *others):
        # Every seat was told, with the reason, and dealt the round again.
        assert [(v.round, v.attempt, v.code) for v in session.seat_half.voids]  # type: ignore[attr-defined] == [(r, 0, LOST_KEYS)]
    rounds = [(m["round"], m.get("attempt")) for m in forgetful.received if m["t"] == "round"]
    assert rounds.count((r, 0)) == rounds.count((r, 1)) == 1
    record = host.table.recorder.record()  # type: ignore[union-attr]
    (redeal,) = record.redeals
    assert (redeal.round, redeal.attempt, redeal.fault, redeal.culprit) == (r, 0, LOST_KEYS, None)
    assert redeal.private_deal is not None and redeal.private_deal.envelopes
    assert record.rounds[r - 1].private_deal.setup.attempt == 1  # type: ignore[union-attr]
    path = host.table.record_path  # type: ignore[union-attr]
    assert path is not None and verify_path(path).ok

    # Tampered with: the record blames a seat it cannot show; an envelope altered;
    # the attempt renumbered.
    doc = json.loads(path.read_text())
    blamed = json.loads(json.dumps(doc))
    blamed["redeals"][0]["culprit"] = 0
    altered = json.loads(json.dumps(doc))
    env = altered["redeals"][0]["private_deal"]["envelopes"][0]
    env["body"] = env["body"][:-2] + ("00" if env["body"][-2:] != "00" else "01")
    renumbered = json.loads(json.dumps(doc))
    renumbered["redeals"][0]["attempt"] = 1
    for bad, code in ((blamed, "redeal"), (altered, "bad_signature"), (renumbered, "redeal")):
        with pytest.raises(RecordError) as failed:
            verify_document(bad)
        assert failed.value.rule == code, failed.value


class RestartedSession(DropMidTrick):
    """Loses everything in memory with its link, like a restarted program, but kept its
    round secret in its data directory (``SecretStore``)."""

    def _handle(self, msg: dict[str, Any]) -> None:
        if msg["t"] == "snapshot":
            self.seat_half.deal = None  # type: ignore[attr-defined]
            store = self.settings.secrets
            assert store is not None and self.game_id is not None
            self.kept = sorted(p.name for p in store.directory.iterdir())
            self.modes = {oct(p.stat().st_mode & 0o777) for p in store.directory.iterdir()}
        super()._handle(msg)


async def test_a_round_secret_kept_on_disk_survives_a_restart(tmp_path: Path) -> None:
    options = _private(4, 1, tmp_path / "records")
    store = SecretStore(tmp_path / "secrets")
    async with asyncio.timeout(30), running_host(options) as host:
        (restarted,) = await seat_sessions(
            options.port, 1, cls=RestartedSession, secret_store=store
        )
        others = await seat_sessions(options.port, 2)
        codes = await play_bots([restarted, *others])
        await host.finished.wait()
    assert restarted.dropped.is_set()
    assert isinstance(restarted, RestartedSession) and len(restarted.kept) == 1
    assert restarted.modes == {"0o600"}
    assert codes == [0, 0, 0]
    assert_private_game_verified(host, [restarted, *others])  # no redeal: it carried on
    assert list(store.directory.iterdir()) == []  # every round's secret deleted after it


class LeavesMidTrick(DropMidTrick):
    """Drops mid-trick and reconnects only when the test opens its gate."""

    def should_drop(self, view: SeatView) -> bool:
        if super().should_drop(view):
            self.client.gate.clear()  # type: ignore[attr-defined]
            return True
        return False


async def test_a_seat_taken_over_by_a_bot_is_dealt_again(tmp_path: Path) -> None:
    """A player gone for good: when its grace runs out a bot of the host plays the seat, with
    a signing key of the host's; the attempt that needed the player's keys is void and dealt
    again; the record lists the stand-in and verifies."""
    options = _private(4, 1, tmp_path)
    options.takeover_after = 0.05
    async with asyncio.timeout(30), running_host(options) as host:
        (leaver,) = await seat_sessions(options.port, 1, cls=LeavesMidTrick)
        others = await seat_sessions(options.port, 2)
        gone = asyncio.ensure_future(play_bots([leaver]))
        codes = await play_bots(others, seed=1)
        await host.finished.wait()
        assert leaver.dropped.is_set()
    leaver.client.gate.set()  # type: ignore[attr-defined]  # (to a closed host)
    await leaver.close()
    assert await gone == [1]
    assert codes == [0, 0]
    assert_private_game_verified(host, others, redeals=1)
    record = host.table.recorder.record()  # type: ignore[union-attr]
    (void,) = record.redeals
    assert void.fault == LOST_KEYS and "a bot plays the seat" in void.reason
    (stand_in,) = record.stand_ins
    assert (stand_in.round, stand_in.attempt, stand_in.seat) == (void.round, 1, 0)
    assert stand_in.key is not None and stand_in.key != record.signing_keys[0]


async def test_a_player_back_from_a_bot_plays_from_the_next_deal(tmp_path: Path) -> None:
    options = _private(4, 1, tmp_path)
    options.takeover_after = 0.05
    async with asyncio.timeout(30), running_host(options) as host:
        (leaver,) = await seat_sessions(options.port, 1, cls=LeavesMidTrick)
        others = await seat_sessions(options.port, 2)
        game = asyncio.ensure_future(play_bots([leaver, *others]))
        await leaver.dropped.wait()
        assert leaver.dropped_view is not None
        r = leaver.dropped_view.round
        await wait_until(
            lambda: isinstance(host.deal_half, PrivateDealing) and host.deal_half.stand_in_signers
        )
        leaver.client.gate.set()  # type: ignore[attr-defined]
        codes = await game
        await host.finished.wait()
    # Everyone verified every round; the returning player too, the round the bot played for
    # it included (from that attempt's envelopes, which the host sent it on its return), and
    # so its `join --bot` exits 0.
    assert codes == [0, 0, 0]
    record = host.table.recorder.record()  # type: ignore[union-attr]
    assert [(s.round, s.seat, s.key is None) for s in record.stand_ins][-1][1:] == (0, True)
    assert all(v.ok for v in leaver.verifications)
    stood_in = next(v for v in leaver.verifications if v.round == r)
    assert "a bot of the host played your seat" in stood_in.detail
    # From the deal after the player's return on, its own key signs for its seat again.
    back = record.stand_ins[-1]
    later = [rnd.private_deal.setup for rnd in record.rounds if rnd.round > back.round]
    assert later and all(setup.signing_keys[0] == record.signing_keys[0] for setup in later)
    assert len(leaver.verifications) == len(record.rounds)  # it followed to the end
    assert verify_path(host.table.record_path).ok  # type: ignore[union-attr]
    assert_own_records(record, [leaver, *others])  # the bot's round from its envelopes


async def test_a_round_played_while_away_is_no_failure(tmp_path: Path) -> None:
    """A player away for a whole round: that round ends before it is back, so it can only
    follow the host's record of it (reported as not checked, which is no failure); it checks
    the round the bot is playing as it returns from its envelopes, and its own rounds after
    that in full: its `join --bot` exits 0."""
    options = _private(4, 1, tmp_path)
    options.takeover_after = 0.05
    async with asyncio.timeout(60), running_host(options) as host:
        (leaver,) = await seat_sessions(options.port, 1, cls=LeavesMidTrick)
        others = await seat_sessions(options.port, 2)
        game = asyncio.ensure_future(play_bots([leaver, *others]))
        await leaver.dropped.wait()
        assert leaver.dropped_view is not None
        r = leaver.dropped_view.round
        private = host.deal_half
        assert private is not None
        await wait_until(lambda: private.deal is not None and private.deal.round > r)
        leaver.client.gate.set()  # type: ignore[attr-defined]
        codes = await game
        await host.finished.wait()
    assert codes == [0, 0, 0]
    by_round = {v.round: v for v in leaver.verifications}
    assert sorted(by_round) == [v.round for v in leaver.verifications]  # each once, in order
    assert len(by_round) == len(host.table.recorder.record().rounds)  # type: ignore[union-attr]
    away = by_round[r]
    assert away.ok and not away.checked and "played while you were away" in away.detail
    assert all(v.ok for v in leaver.verifications)  # (a later round may end before it is back)
    assert leaver.verifications[-1].checked  # it played the last rounds itself
    assert leaver.all_verified
    # Every record is whole: the round it missed is the host's record of it, marked so.
    record = host.table.recorder.record()  # type: ignore[union-attr]
    assert_own_records(record, [leaver, *others])
    assert leaver.recorder is not None
    assert r in leaver.recorder.record().extra["from_host"]["rounds"]


async def test_a_restarted_program_takes_its_seat_back_by_its_key(tmp_path: Path) -> None:
    """A player's program dies mid-trick and a new run of it (the same static and signing
    keys, kept on disk, but no token and no round keys) joins: it gets its seat back from
    the bot, the round in progress is the bot's, and it plays the rest of the game."""
    options = _private(4, 1, tmp_path)
    options.takeover_after = 0.05
    async with asyncio.timeout(60), running_host(options) as host:
        (leaver,) = await seat_sessions(options.port, 1, cls=LeavesMidTrick)
        others = await seat_sessions(options.port, 2)
        staying = asyncio.ensure_future(play_bots(others, seed=1))
        dead = asyncio.ensure_future(play_bots([leaver]))  # gated: never comes back
        await leaver.dropped.wait()
        await wait_until(
            lambda: isinstance(host.deal_half, PrivateDealing) and host.deal_half.stand_in_signers
        )
        returner = NetworkSession(
            "127.0.0.1",
            options.port,
            name="another name",
            identity=leaver.client.identity,
            signing_key=leaver.settings.signing_key,
        )
        await returner.connect()
        assert returner.seat == leaver.seat == 0
        codes = await play_bots([returner], seed=2) + await staying
        await host.finished.wait()
        dead.cancel()
        await leaver.close()
    assert codes == [0, 0, 0]
    assert all(v.ok for v in returner.verifications)
    record = host.table.recorder.record()  # type: ignore[union-attr]
    assert record.stand_ins[-1].seat == 0 and record.stand_ins[-1].key is None  # back
    assert verify_path(host.table.record_path).ok  # type: ignore[union-attr]
    # The new run's record is whole too: what it missed comes from the host's record.
    assert_own_records(record, [returner])
