"""The Witch over the network with the private deal (docs/private-deal.md section 16), over
real sockets on 127.0.0.1: the ``swap`` intent is public, its given card comes with the
``show`` of its dealt position (nothing for a face-up card the seat took: the Werewolf's
turned card, a card an earlier swap took), the host checks the show is the intent's
``give``, and the card taken from the trick is played later with no deal message. Host
bots and network bots (``join --bot``) swap; the host's record and every joiner's own
record verify; a host stopped after a swap rebuilds the game from its journal; a seat that
lies about its swap is refused or named, and the game goes on.
"""

from __future__ import annotations

import asyncio
import hashlib
import itertools
import random
from pathlib import Path
from typing import Any

import pytest
from net_helpers import (
    LIMITS,
    LOOPBACK,
    CapturingSession,
    assert_own_records,
    play_bots,
    running_host,
    seat_sessions,
    wait_until,
)
from private_helpers import assert_partial_game_verified, assert_private_game_verified, play_until
from test_private_cheating import _dealt_again_and_played
from test_private_reconnect import LeavesMidTrick

from netplay import StaticIdentity
from netplay.mental.protocol import gift_open_body, show_body
from netplay.mental.sra import RoundKeys
from netplay.signing import Envelope
from wizard_tui.game import Phase, SeatView, TableRules
from wizard_tui.game.actions import NameTrump, PassCard, Play, SwapCard
from wizard_tui.game.hidden_special import HiddenSpecialGame
from wizard_tui.game.specials import Special
from wizard_tui.net import protocol as p
from wizard_tui.net.client import NetworkSession
from wizard_tui.net.deals import DealKind, specials_refusal
from wizard_tui.net.deals.private.client_deal import ClientDeal
from wizard_tui.net.deals.private.host import LOST_KEYS, PrivateDealing
from wizard_tui.net.deals.private.round_secrets import SecretStore
from wizard_tui.net.deals.private.seat import PrivateSeatHalf
from wizard_tui.net.deals.private.witch import swap_refusal
from wizard_tui.net.deals.seat_half import SeatHalf
from wizard_tui.net.host import HostOptions
from wizard_tui.net.host_adapter import WizardHost
from wizard_tui.net.hosting import hosting
from wizard_tui.net.journal import read_journal
from wizard_tui.net.restore import replay
from wizard_tui.private_special import face_up_held, opened_plays
from wizard_tui.verify import verify_path

WITCH = frozenset({Special.WITCH})
# The Witch with the cards that take a card face up: the Werewolf (the turned card), and the
# Vampire, which copies a turned-up Witch.
WITCH_AND_WEREWOLF = frozenset({Special.WITCH, Special.WEREWOLF, Special.VAMPIRE})
WITCH_AND_VAMPIRE = frozenset({Special.WITCH, Special.VAMPIRE})


def _swaps(results: Any) -> list[tuple[int, SwapCard]]:
    return [
        (r.round, a)
        for r in results
        for a in r.actions
        if type(a) is SwapCard and a.give is not None
    ]


class SeededDeal(NetworkSession):
    """A client whose round secrets are drawn from ``DEAL_SEED`` (its seat, the round and
    the attempt): with the host's bots' keys seeded too (``seeded_bots``), every deck of
    the game is the same from run to run, and so, with seeded bots, is the game."""

    deal_seed = 0

    def _new_seat_half(self, kind: DealKind) -> SeatHalf:
        half = super()._new_seat_half(kind)
        if isinstance(half, PrivateSeatHalf):
            new_deal = half._new_deal
            seed = self.deal_seed

            def make(r: int, attempt: int, dealer: Any, keys: Any, secret: Any = None) -> Any:
                if secret is None:  # (a resumed attempt's secret is its own)
                    seat = self.seat if self.seat is not None else -1
                    secret = hashlib.sha256(f"{seed}/{seat}/{r}/{attempt}".encode()).digest()
                return new_deal(r, attempt, dealer, keys, secret)

            half._new_deal = make  # type: ignore[method-assign]
        return half


def seeded_bots(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """The host's bots draw their round keys from ``seed``, in the order they are made
    (seat by seat, attempt by attempt: the same in every run)."""
    drawn = itertools.count()

    def generate(cls: type[RoundKeys], items: int) -> RoundKeys:
        secret = hashlib.sha256(f"{seed}/bot/{next(drawn)}".encode()).digest()
        return cls.derive(secret, items)

    monkeypatch.setattr(RoundKeys, "generate", classmethod(generate))


def seed_decks(monkeypatch: pytest.MonkeyPatch, seed: int) -> None:
    """Every deck of the game the same from run to run (``SeededDeal``, ``seeded_bots``):
    a game whose point needs a card dealt to a given seat (a Juggler's pass, a cheater's
    Werewolf) then has it every run."""
    seeded_bots(monkeypatch, seed)
    monkeypatch.setattr(SeededDeal, "deal_seed", seed)


def test_the_private_deal_deals_the_witch() -> None:
    assert specials_refusal("private", WITCH) is None
    assert specials_refusal("private", WITCH_AND_WEREWOLF) is None


@pytest.mark.parametrize(
    ("specials", "seed", "players"),
    [(WITCH, 4, 4), (WITCH_AND_WEREWOLF, 5, 4), (WITCH_AND_VAMPIRE, 1, 3)],
    ids=["witch", "werewolf", "vampire"],
)
async def test_a_private_game_with_the_witch_verifies(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    specials: frozenset[Special],
    seed: int,
    players: int,
) -> None:
    """Host bots and network bots swap (and keep their hands); the cards taken are played
    later with no deal message; with the Werewolf, its holder (a network seat) gives the
    turned card it took into the Witch's trick, face up, with no show; with the Witch
    turned up, a Vampire copying it swaps. Every record verifies, every client checks
    every round. (The decks are seeded: ``SeededDeal``.)"""
    seed_decks(monkeypatch, seed)
    options = HostOptions(
        players=players,
        bots=players - 2,
        bot_level="normal",  # (it swaps when that scores clearly better; "easy" never does)
        rules=TableRules(specials=specials),
        records_dir=tmp_path / "records",
        deal="private",
    )
    async with asyncio.timeout(240), running_host(options, rng=random.Random(seed)) as host:
        sessions = await seat_sessions(
            options.port, 2, cls=SeededDeal, records_dir=tmp_path / "own"
        )
        codes = await play_bots(sessions, "random", seed=seed)  # (swaps at random)
        await host.finished.wait()
    assert codes == [0, 0]
    assert all(s.client.state == "closed" for s in sessions)
    assert_private_game_verified(host, sessions)
    table = host.table
    assert table is not None
    results = table.game.results
    swaps = _swaps(results)
    # Both a network seat (0, 1: the joiners) and a host bot swapped a card.
    assert {a.seat < 2 for _, a in swaps} == {True, False}
    # A card taken from a trick was played later by its taker (no deal message for it).
    assert any(
        type(b) is Play and b.seat == a.seat and b.card == a.take
        for r in results
        for a in r.actions
        if type(a) is SwapCard and a.take is not None
        for b in r.actions[r.actions.index(a) :]
    )
    if specials == WITCH_AND_VAMPIRE:  # the Witch turned up: a Vampire's swap
        assert any(r.turned_card == Special.WITCH for r, _ in _swaps_by_round(results))
    if Special.WEREWOLF in specials:
        # The turned card a Werewolf's holder took was played or given into a Witch's
        # trick later, with no deal message (a face-up card: everyone saw it) ...
        assert any(_turned_card_moved(r) for r in results)
        # ... and a network seat gave a face-up card it took, with no show.
        assert any(seat < 2 for seat in _face_up_given(results))


def _swaps_by_round(results: Any) -> list[tuple[Any, SwapCard]]:
    return [
        (r, a) for r in results for a in r.actions if type(a) is SwapCard and a.give is not None
    ]


def _turned_card_moved(result: Any) -> bool:
    holders = {a.seat for a in result.actions if type(a) is NameTrump}
    return any(
        a.seat in holders
        and (
            (type(a) is Play and a.card == result.turned_card)
            or (type(a) is SwapCard and a.give == result.turned_card)
        )
        for a in result.actions
    )


def _face_up_given(results: Any) -> list[int]:
    """The seats that gave into a Witch's trick a face-up card they had taken."""
    return [
        action.seat
        for result in results
        for i, action in enumerate(result.actions)
        if type(action) is SwapCard
        and action.give is not None
        and action.give in face_up_held(result.actions[:i], action.seat, result.turned_card)
    ]


JOURNAL_SEED = 2


def _swapped_here(host: WizardHost) -> bool:
    """A scored round had a swap, and the round in progress has one already."""
    table = host.table
    if table is None or not isinstance(table.game, HiddenSpecialGame):
        return False
    game = table.game
    done = _swaps(game.results)
    now = [a for a in game.round_actions if type(a) is SwapCard and a.give is not None]
    return bool(done) and bool(now) and game.round > game.full.round


async def test_a_private_host_stopped_after_a_swap_is_rebuilt_from_its_journal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each scored round is journaled with its deck and every action, the swaps too: a host
    stopped mid-round after a swap rebuilds every finished round exactly from its journal
    (the same results, actions and record); restarted, it deals the round it was playing
    again, the players come back and finish the game, and every record verifies."""
    seed_decks(monkeypatch, JOURNAL_SEED)
    identity = StaticIdentity.generate()
    options = HostOptions(
        players=3,
        bots=1,
        bot_level="random",
        rules=TableRules(specials=WITCH),
        records_dir=tmp_path / "records",
        journal_dir=tmp_path / "games",
        deal="private",
    )
    stores = [SecretStore(tmp_path / f"secrets{i}") for i in range(2)]
    async with asyncio.timeout(150):
        rng = random.Random(JOURNAL_SEED)
        async with hosting(
            options, bind=LOOPBACK, port=0, identity=identity, limits=LIMITS, rng=rng
        ) as host:
            port = options.port
            sessions = []
            for i, store in enumerate(stores):
                session = SeededDeal(
                    LOOPBACK,
                    port,
                    name=f"net{i}",
                    limits=LIMITS,
                    secret_store=store,
                    records_dir=tmp_path / "own",
                )
                await session.connect()
                sessions.append(session)
            game = asyncio.ensure_future(play_bots(sessions, "random", JOURNAL_SEED))
            await wait_until(lambda: _swapped_here(host) or game.done())
            assert not game.done(), "the game ended before a swap in two rounds"
            assert host.journal is not None and host.table is not None
            live = host.table.game.results
            live_rounds = list(host.table.recorder.rounds)
            path = host.journal.path
        # The host is gone mid-round, after a swap (no bye: the clients keep reconnecting).
        contents = read_journal(path)
        restored = replay(contents.entries)
        rebuilt = restored.table.game
        assert isinstance(rebuilt, HiddenSpecialGame)
        assert rebuilt.results == live
        assert [r.actions for r in rebuilt.results] == [r.actions for r in live]
        assert _swaps(rebuilt.results)  # a swap was rebuilt
        assert list(restored.recorder.rounds) == live_rounds
        cut_off = restored.half.attempt  # type: ignore[attr-defined]
        assert cut_off is not None and cut_off.round == len(live) + 1  # dealt again on resume
        async with hosting(
            options,
            bind=LOOPBACK,
            port=port,
            identity=identity,
            limits=LIMITS,
            resume=contents,
            rng=random.Random(JOURNAL_SEED + 1),
        ) as host:
            codes = await game
            await host.finished.wait()
        for session in sessions:
            await session.close()
    assert codes == [0, 0]
    assert_private_game_verified(host, sessions, redeals=1)
    (redeal,) = host.table.recorder.redeals  # type: ignore[union-attr]
    assert (redeal.round, redeal.fault) == (cut_off.round, LOST_KEYS)
    assert len(_swaps(host.table.game.results)) > len(_swaps(live))  # type: ignore[union-attr]


LIAR = 1  # the client seat that lies about its swap (seat 0 and 2 are honest clients)
LIAR_SEED = 2  # (its decks: it is the Witch's player in a round from round 2 on)


class LiesAboutItsSwap(SeededDeal, CapturingSession):
    """At its first swap with a card to give (from round 2 on) it lies three times: it
    gives a dealt card with no show, then shows another card than the one it gives (both
    refused before the relay sees them: it signs them with the sequence number its next
    honest envelope takes), then gives a card it does not hold, with a show of one of its
    positions that claims that card (the relay names it: ``wrong_claim``)."""

    lied_in: tuple[int, int] | None = None
    lies: list[dict[str, Any]]

    def swap(self, give: int | None, take: int | None, *, auto: bool = False) -> None:
        view, deal = self.view, self.seat_half.deal  # type: ignore[attr-defined]
        if (
            self.lied_in is None
            and view is not None
            and deal is not None
            and view.round >= 2
            and view.phase is Phase.SWAP
            and view.my_turn
            and len(view.legal_cards) >= 2
            and view.swap_takes
        ):
            self.lied_in = (deal.round, deal.attempt)
            self._lie(view, deal)
            return
        super().swap(give, take, auto=auto)

    def _lie(self, view: Any, deal: ClientDeal) -> None:
        held = [c for c in view.legal_cards if deal.holds_unopened(c)]
        assert len(held) >= 2  # (no Werewolf here: every card held is a dealt one)
        give, other, take = held[0], held[1], view.swap_takes[0]
        seen = {*view.hand, *view.played_cards, view.trump_card, *view.swap_takes}
        foreign = next(c for c in range(60) if c not in seen)  # a card it does not hold
        position = deal._unopened(other)
        assert position is not None
        key = deal.keys.positions[position].d
        self.lies = [
            self._swap_msg(give, take, None),
            self._swap_msg(give, take, self._signed(deal, show_body(position, other, key))),
            self._swap_msg(foreign, take, self._signed(deal, show_body(position, foreign, key))),
        ]
        for msg in self.lies:
            self.client.send(msg)

    def _swap_msg(self, give: int, take: int, show: dict[str, Any] | None) -> dict[str, Any]:
        assert self.view is not None
        msg = p.special_msg(SwapCard(self.view.seat, give, take), self.view.round)
        if show is not None:
            msg["show"] = show
        return msg

    def _signed(self, deal: ClientDeal, body: bytes) -> dict[str, Any]:
        """``body`` signed as our next envelope, whose number the next one reuses (the
        relay never sees a refused one)."""
        sealer = deal.player.sealer
        envelope = sealer.seal(body)
        sealer.next_seq -= 1
        return envelope.to_wire()


async def test_a_seat_that_lies_about_its_swap_is_refused_then_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A swap with no show for a dealt card, or with the show of another card, is refused
    (``bad_envelope``): nothing changes, and the seat is still to swap. A show claiming a
    card the seat does not hold is the relay's to judge: the attempt is voided naming the
    liar (``wrong_claim``), every honest client names it too, and the round is dealt again
    and played; the host never fails."""
    monkeypatch.setattr(SeededDeal, "deal_seed", LIAR_SEED)
    options = HostOptions(
        players=3,
        bots=0,
        rules=TableRules(specials=WITCH),
        records_dir=tmp_path / "records",
        deal="private",
    )
    rng = random.Random(LIAR_SEED)  # (the first dealer)
    async with asyncio.timeout(120), running_host(options, rng=rng) as host:
        sessions = await seat_sessions(options.port, 1, cls=SeededDeal)
        sessions += await seat_sessions(options.port, 1, cls=LiesAboutItsSwap)
        sessions += await seat_sessions(options.port, 1, cls=SeededDeal)
        liar = sessions[LIAR]
        assert isinstance(liar, LiesAboutItsSwap)
        await play_until(host, sessions, lambda: _dealt_again_and_played(host), seed=LIAR_SEED)
    assert host.failed is None
    assert liar.lied_in is not None, "the liar never had a card to give"
    errors = [m for m in liar.received if m["t"] == "refused"]
    assert [(m["code"], m["message"]) for m in errors[:2]] == [
        (p.BAD_ENVELOPE, "a swap of a private deal carries the show of the card given"),
        (p.BAD_ENVELOPE, "the show is not the card given"),
    ], errors
    r, attempt = liar.lied_in
    record = host.table.recorder.record()  # type: ignore[union-attr]
    (void,) = record.redeals
    assert (void.round, void.attempt) == (r, attempt)
    assert (void.fault, void.culprit) == ("wrong_claim", LIAR), (void.fault, void.reason)
    for seat in (0, 2):  # the honest clients reached the same verdict by themselves
        (report,) = sessions[seat].seat_half.voids  # type: ignore[attr-defined]
        assert (report.round, report.attempt) == (r, attempt)
        assert (report.our_code, report.our_culprit) == ("wrong_claim", LIAR), report
    # The voided attempt's swaps never happened: no swap of the liar's in it was applied.
    assert record.rounds[r - 1].private_deal.setup.attempt == attempt + 1  # type: ignore[union-attr]
    assert_partial_game_verified(host, sessions)


def test_face_up_cards_are_the_turned_card_and_the_cards_taken() -> None:
    """``face_up_held`` and ``opened_plays`` follow a round's actions: the Werewolf's
    holder takes the turned card, a Witch's player takes a trick card (giving one back,
    face up or dealt), a play or a pass of a face-up card ends it; only plays of other
    cards open one."""
    turned = 7
    actions = [
        NameTrump(0, None),  # seat 0 takes 7
        Play(0, 3),
        Play(1, 4),
        SwapCard(1, 5, 3),  # seat 1 gives dealt 5, takes 3 (face up now)
        Play(1, 3),  # no open
        SwapCard(0, 7, 4),  # seat 0 gives the turned card (face up: no show), takes 4
        Play(0, 4),  # no open
        Play(2, 9),
        SwapCard(2, 11, 9),  # seat 2 takes back the card it played
        PassCard(2, 9),  # and passes it: a gift, no longer face up
    ]
    assert face_up_held(actions[:1], 0, turned) == {7}
    assert face_up_held(actions[:4], 1, turned) == {3}
    assert face_up_held(actions[:6], 0, turned) == {4}
    assert face_up_held(actions, 0, turned) == set()
    assert face_up_held(actions[:9], 2, turned) == {9} and face_up_held(actions, 2, turned) == set()
    assert opened_plays(actions, turned) == [(0, 3), (1, 4), (2, 9)]


class _Deal:
    """What ``swap_refusal`` reads of a ``HostDeal``: the turned card and the items."""

    trump_card = 7

    def item_of(self, card: int) -> int:
        return card + 100


def _show(t: str, item: int) -> Envelope:
    """An envelope with such a body (``swap_refusal`` reads the body: the relay checks
    the signature)."""
    if t == "show":
        body = show_body(3, item, 9)
    else:
        body = gift_open_body("show_gift", 0, 2, item, bytes(32))
    return Envelope(0, 0, body, bytes(64))


def test_a_swap_refusal_says_which_envelope_the_card_given_needs() -> None:
    deal: Any = _Deal()
    taken = [NameTrump(0, None)]  # seat 0 holds the turned card 7 face up
    show_5, gift_5 = _show("show", 105), _show("show_gift", 105)
    assert swap_refusal(deal, taken, 0, None, None) is None  # a kept hand
    assert swap_refusal(deal, taken, 0, None, show_5) == "a kept hand shows no card"
    assert swap_refusal(deal, taken, 0, 7, None) is None  # face up: no show
    assert "without a show" in (swap_refusal(deal, taken, 0, 7, show_5) or "")
    assert "carries the show" in (swap_refusal(deal, taken, 1, 7, None) or "")
    assert swap_refusal(deal, taken, 0, 5, show_5) is None
    assert swap_refusal(deal, taken, 0, 5, gift_5) is None  # a card passed to it
    assert swap_refusal(deal, taken, 0, 6, show_5) == "the show is not the card given"
    garbage = Envelope(0, 0, b"\x00", bytes(64))
    assert swap_refusal(deal, taken, 0, 5, garbage) is None  # the relay names its signer


class LeavesLate(SeededDeal, LeavesMidTrick):
    """Drops mid-trick in a late round (big hands: the Witch and the Werewolf are dealt
    there) after a swap, and comes back when the test opens its gate."""

    def should_drop(self, view: SeatView) -> bool:
        return view.round >= LATE and bool(view.swaps) and super().should_drop(view)


LATE = 12
STAND_IN_SEED = 4


async def test_a_round_a_bot_played_for_a_seat_with_face_up_plays_is_checked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A player back while a bot of the host plays its seat follows that attempt from its
    envelopes and checks it: its plays are matched to the opens leaving out the face-up
    cards taken (a Witch's, the Werewolf's turned card), which carry none."""
    seed_decks(monkeypatch, STAND_IN_SEED)
    options = HostOptions(
        players=3,
        bots=0,
        bot_level="random",
        rules=TableRules(specials=WITCH_AND_WEREWOLF),
        records_dir=tmp_path / "records",
        deal="private",
    )
    options.takeover_after = 0.05
    rng = random.Random(STAND_IN_SEED)
    async with asyncio.timeout(120), running_host(options, rng=rng) as host:
        (leaver,) = await seat_sessions(options.port, 1, cls=LeavesLate)
        others = await seat_sessions(options.port, 2, cls=SeededDeal)
        game = asyncio.ensure_future(play_bots([leaver, *others], seed=STAND_IN_SEED))
        await leaver.dropped.wait()
        assert leaver.dropped_view is not None
        r = leaver.dropped_view.round
        await wait_until(
            lambda: isinstance(host.deal_half, PrivateDealing) and host.deal_half.stand_in_signers
        )
        leaver.client.gate.set()  # type: ignore[attr-defined]
        codes = await game
        await host.finished.wait()
    assert codes == [0, 0, 0]
    assert all(v.ok for v in leaver.verifications), [v.detail for v in leaver.verifications]
    stood_in = next(v for v in leaver.verifications if v.round == r)
    assert "a bot of the host played your seat" in stood_in.detail
    result = host.table.game.results[r - 1]  # type: ignore[union-attr]
    plays = [play for trick in result.tricks for play in trick.plays]
    assert opened_plays(result.actions, result.turned_card) != plays  # a face-up play in it
    # The voided attempt the player left kept its swap in the record, which verifies.
    (void,) = host.table.recorder.record().redeals  # type: ignore[union-attr]
    assert any(kind == "swap" and value is not None for kind, _, value in void.actions)
    assert verify_path(host.table.record_path).ok  # type: ignore[union-attr,arg-type]
    assert_own_records(host.table.recorder.record(), [leaver, *others])  # type: ignore[union-attr]
