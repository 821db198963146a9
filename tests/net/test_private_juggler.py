"""The Juggler over the network with the private deal (docs/private-deal.md section 16,
"Gifts" and "Wizard's messages"), over real sockets on 127.0.0.1: after a Juggler's trick
every seat sends its inbox, then in turn its give to its left neighbour (the card never
reaches the host, whose game learns only that the seat passed), then its unlock; each seat
learns its received card alone and plays it with an ``open_gift``. Host bots and network
bots (``join --bot``); the host's record and every joiner's own record verify.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import pytest
from net_helpers import (
    LIMITS,
    LOOPBACK,
    CapturingSession,
    play_bots,
    running_host,
    seat_sessions,
    wait_until,
)
from private_helpers import assert_private_game_verified
from test_private_witch import SeededDeal, seed_decks

from netplay import StaticIdentity
from netplay.mental.protocol import MESSAGE_TAG, decode_body, gift_open_body, give_body
from netplay.signing import Sealer
from wizard_tui.game import TableRules
from wizard_tui.game.actions import PassCard, Play, SwapCard
from wizard_tui.game.codec import PlayerAction
from wizard_tui.game.hidden_special import HiddenSpecialGame
from wizard_tui.game.specials import SPECIALS, Special
from wizard_tui.net import protocol as p
from wizard_tui.net.client import NetworkSession
from wizard_tui.net.deals import MOVING_SPECIALS, DealKind
from wizard_tui.net.deals.private.host import LOST_KEYS, PrivateDealing
from wizard_tui.net.deals.private.passes import owed_pass_steps
from wizard_tui.net.deals.private.round_secrets import SecretStore
from wizard_tui.net.deals.private.seat import PrivateSeatHalf
from wizard_tui.net.deals.seat_half import SeatHalf
from wizard_tui.net.host import HostOptions
from wizard_tui.net.hosting import hosting
from wizard_tui.net.journal import read_journal
from wizard_tui.net.restore import replay

STILL = frozenset(SPECIALS) - MOVING_SPECIALS  # the six that move no card


@pytest.mark.parametrize(
    "specials", [frozenset({Special.JUGGLER}), STILL | {Special.JUGGLER, Special.WEREWOLF}]
)
async def test_a_private_game_with_the_juggler_verifies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, specials: frozenset[Special]
) -> None:
    seed_decks(monkeypatch, 3)  # (each game passes and plays a gift every run)
    options = HostOptions(
        players=3,
        bots=1,
        bot_level="easy",
        rules=TableRules(specials=specials),
        length="short",
        records_dir=tmp_path / "records",
        deal="private",
    )
    async with asyncio.timeout(90), running_host(options, rng=random.Random(3)) as host:
        sessions = await seat_sessions(
            options.port, 2, cls=SeededDeal, records_dir=tmp_path / "own"
        )
        codes = await play_bots(sessions, "easy", seed=3)
        await host.finished.wait()
    assert codes == [0, 0]
    assert all(s.client.state == "closed" for s in sessions)
    assert_private_game_verified(host, sessions)
    table = host.table
    assert table is not None
    results = table.game.results
    passes = [a for r in results for a in r.actions if type(a) is PassCard]
    assert passes  # a Juggler's pass was made, its cards in the record
    assert {a.seat for a in passes} == {0, 1, 2}
    # A received card was played: some round's transcript holds an open_gift.
    rounds = table.recorder.record().rounds
    kinds = {
        decode_body(env.body)["t"]
        for rnd in rounds
        if rnd.private_deal is not None
        for env in rnd.private_deal.envelopes
    }
    assert {"inbox", "give", "unlock", "open_gift"} <= kinds
    assert any(type(a) is Play for r in results for a in r.actions)


class SilentDealStep(SeededDeal):
    """Plays like anyone, but its deal messages of kind ``swallowed`` never leave (once
    ``hold`` says so)."""

    swallowed = ""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.hold: Callable[[], bool] = lambda: True
        self.held = 0
        send = self.client.send

        def swallow(msg: dict[str, Any]) -> bool:
            kind = decode_body(msg["env"]["body"])["t"] if msg.get("t") == "deal" else None
            if kind == self.swallowed and self.hold():
                self.held += 1
                return True
            return send(msg)

        self.client.send = swallow  # type: ignore[method-assign]


class SilentUnlock(SilentDealStep):
    """Its unlocks never leave: the table waits on them, since nobody may play before every
    card of the pass is known."""

    swallowed = "unlock"


class SilentGive(SilentDealStep):
    """Its gives never leave: its pass never comes."""

    swallowed = "give"


JUGGLER = frozenset({Special.JUGGLER})


S = TypeVar("S", bound=NetworkSession)


async def _one(port: int, cls: type[S]) -> S:
    (session,) = await seat_sessions(port, 1, cls=cls)
    assert isinstance(session, cls)
    return session


async def _cut_off_game(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    silent_kind: type[SilentDealStep],
    **timing: Any,
) -> Any:
    """A short Juggler game, privately dealt, with one ``silent_kind`` seat, one honest
    seat and a random bot: the silent seat is cut off and exits 1, a bot of the host takes
    its seat, the attempt is dealt again and every record verifies. The host's record."""
    seed_decks(monkeypatch, 3)
    options = HostOptions(
        players=3,
        bots=1,
        bot_level="random",
        rules=TableRules(specials=JUGGLER),
        length="short",
        records_dir=tmp_path,
        deal="private",
        takeover_after=0.1,
        deal_step_timeout=2.0,  # (the honest programs' steps never come near it)
        **timing,
    )
    async with asyncio.timeout(90), running_host(options, rng=random.Random(3)) as host:
        silent = await _one(options.port, silent_kind)
        others = await seat_sessions(options.port, 1, cls=SeededDeal)
        gone = asyncio.ensure_future(play_bots([silent], seed=3))
        codes = await play_bots(others, seed=4)
        await host.finished.wait()
    await silent.close()
    assert await gone == [1]
    assert codes == [0]
    assert silent.held >= 1
    assert host.seats[0] is not None and host.seats[0].stand_in is not None
    assert_private_game_verified(host, others, redeals=1)
    return host.table.recorder.record()  # type: ignore[union-attr]


async def test_a_program_that_never_unlocks_is_disconnected(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The unlock is a deal step the host waits for: a seat that never sends it is cut off
    (deal_step_timeout), a bot of the host takes its seat, the attempt is dealt again, and
    the game ends with records that verify."""
    record = await _cut_off_game(tmp_path, monkeypatch, SilentUnlock)
    (void,) = record.redeals
    assert "left" in void.reason and void.culprit is None  # lost keys: a bot took the seat


async def test_a_program_that_never_gives_is_cut_off_by_the_turn_time(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The give is the seat's decision on its turn (its player chooses the card), so the
    turn time covers it like a bid or a play: the seat goes away, its own program must
    pass for it, and when that never comes either it is cut off, a bot of the host takes
    the seat, the attempt is dealt again and every record verifies."""
    await _cut_off_game(tmp_path, monkeypatch, SilentGive, turn_time=1.0)


async def test_a_host_stopped_mid_pass_is_rebuilt_from_its_journal(tmp_path: Path) -> None:
    """A host stopped while a pass's gives are in and an unlock is missing: its journal
    rebuilds every scored round exactly (each pass's cards in its actions, from the gifts
    verified at the round's end; the same record) and the attempt the stop cut off;
    restarted, it voids that attempt as lost keys and deals the round again, the players
    come back and finish the game, and every record verifies."""
    identity = StaticIdentity.generate()
    options = HostOptions(
        players=3,
        bots=1,
        bot_level="easy",
        rules=TableRules(specials=JUGGLER),
        records_dir=tmp_path / "records",
        journal_dir=tmp_path / "games",
        deal="private",
        deal_step_timeout=None,
    )
    stores = [SecretStore(tmp_path / f"secrets{i}") for i in range(2)]
    async with asyncio.timeout(150):
        async with hosting(
            options, bind=LOOPBACK, port=0, identity=identity, limits=LIMITS, rng=random.Random(3)
        ) as host:
            port = options.port
            kinds = [SilentUnlock, NetworkSession]
            sessions = []
            for i, store in enumerate(stores):
                session = kinds[i](
                    LOOPBACK,
                    port,
                    name=f"net{i}",
                    limits=LIMITS,
                    secret_store=store,
                    records_dir=tmp_path / "own",
                )
                await session.connect()
                sessions.append(session)
            silent = sessions[0]
            assert isinstance(silent, SilentUnlock)

            def passed_before() -> bool:
                view = silent.view
                return view is not None and any(
                    type(a) is PassCard for r in view.history for a in r.actions
                )

            silent.hold = passed_before

            def mid_pass() -> bool:
                half, table = host.deal_half, host.table
                game = table.game if table is not None else None
                return (
                    isinstance(half, PrivateDealing)
                    and half.deal is not None
                    and isinstance(game, HiddenSpecialGame)
                    and "unlock" in owed_pass_steps(half.deal, game).values()
                    and passed_before()
                )

            game = asyncio.ensure_future(play_bots(sessions, "easy", seed=3))
            await wait_until(lambda: mid_pass() or game.done())
            assert not game.done(), "the game ended before a second round with a pass"
            assert host.journal is not None and host.table is not None
            live = host.table.game.results
            live_rounds = list(host.table.recorder.rounds)
            path = host.journal.path
        silent.hold = lambda: False  # (its next attempts it plays honestly)
        contents = read_journal(path)
        restored = replay(contents.entries)
        rebuilt = restored.table.game
        assert isinstance(rebuilt, HiddenSpecialGame)
        assert rebuilt.results == live
        assert [r.actions for r in rebuilt.results] == [r.actions for r in live]
        assert any(type(a) is PassCard and a.card >= 0 for r in live for a in r.actions)
        assert list(restored.recorder.rounds) == live_rounds
        half = restored.half
        assert isinstance(half, PrivateDealing)
        cut_off = half.attempt
        assert cut_off is not None and cut_off.round == len(live) + 1  # dealt again on resume
        async with hosting(
            options,
            bind=LOOPBACK,
            port=port,
            identity=identity,
            limits=LIMITS,
            resume=contents,
            rng=random.Random(4),
        ) as host:
            codes = await game
            await host.finished.wait()
        for session in sessions:
            await session.close()
    assert codes == [0, 0]
    assert_private_game_verified(host, sessions, redeals=1)
    (redeal,) = host.table.recorder.redeals  # type: ignore[union-attr]
    assert (redeal.round, redeal.fault) == (cut_off.round, LOST_KEYS)


class GivesWhatItLacks(SeededDeal):
    """Its first pass gives a card nobody was dealt (it peeks at every hand of the test,
    which no real program can), keeping its own: caught at the round's end."""

    undealt: Callable[[], int | None] = staticmethod(lambda: None)
    cheated: int | None = None  # the round it cheated in

    def _new_seat_half(self, kind: DealKind) -> SeatHalf:
        half = super()._new_seat_half(kind)
        if not isinstance(half, PrivateSeatHalf):
            return half
        real = half.send_decision

        def send_decision(action: PlayerAction) -> bool:
            deal = half.deal
            if type(action) is PassCard and self.cheated is None and deal is not None:
                card = self.undealt()
                if card is not None:
                    self.cheated = deal.round
                    deal.pass_card(card)
                    half.settle()
                    return True
            return real(action)

        half.send_decision = send_decision  # type: ignore[method-assign]
        return half


async def test_a_seat_that_gives_a_card_it_does_not_hold_is_named(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A give seals any card: the deal cannot tell whether its giver held it. The round's
    end can: the host replays the round with the real deck and the passes' cards (the
    verified gifts), the engine refuses that pass, and the attempt is voided naming the
    giver, charged; the round is dealt again and every record verifies."""
    seed_decks(monkeypatch, 3)
    options = HostOptions(
        players=3,
        bots=1,
        bot_level="easy",
        rules=TableRules(specials=JUGGLER),
        length="short",
        records_dir=tmp_path / "records",
        deal="private",
    )
    async with asyncio.timeout(120), running_host(options, rng=random.Random(3)) as host:
        cheat = await _one(options.port, GivesWhatItLacks)
        others = await seat_sessions(options.port, 1, cls=SeededDeal)
        sessions = [cheat, *others]

        def undealt() -> int | None:
            half = host.deal_half
            assert isinstance(half, PrivateDealing) and half.deal is not None
            held: set[int] = set(half.deal.bot_hand(2))
            for s in sessions:
                deal = s.seat_half.deal  # type: ignore[attr-defined]
                held |= set(deal.hand or ())
            table = host.table
            assert table is not None
            played = set(table.game.trick) | {c for t in table.game.tricks for c in t.cards}
            return next(c for c in range(60) if c not in held and c not in played)

        cheat.undealt = undealt
        codes = await play_bots(sessions, "easy", seed=3)
        await host.finished.wait()
    assert cheat.cheated is not None
    assert codes == [0, 0]
    table = host.table
    assert table is not None
    record = table.recorder.record()
    (void,) = record.redeals
    assert (void.round, void.culprit) == (cheat.cheated, 0)
    assert "revoked" in void.reason
    assert [(c.round, c.seat) for c in record.charges] == [(cheat.cheated, 0)]
    assert_private_game_verified(host, sessions, redeals=1)


MOVES = frozenset({Special.JUGGLER, Special.WITCH, Special.VAMPIRE, Special.WEREWOLF})


def _kinds_by_round(record: Any) -> dict[int, list[tuple[int, str]]]:
    """Per round, (sender, kind) of every envelope of its transcript."""
    return {
        rnd.round: [(env.sender, decode_body(env.body)["t"]) for env in rnd.private_deal.envelopes]
        for rnd in record.rounds
        if rnd.private_deal is not None
    }


def _after_vampire(result: Any, players: int) -> list[PlayerAction]:
    """The after-trick actions (passes, swaps) of tricks a Vampire was played in."""
    out: list[PlayerAction] = []
    trick: list[int] = []
    vampire = False
    for action in result.actions:
        if type(action) is Play:
            if len(trick) == players:
                trick, vampire = [], False
            trick.append(action.card)
            vampire = vampire or action.card == Special.VAMPIRE
        elif type(action) in (PassCard, SwapCard) and vampire:
            out.append(action)
    return out


def _copied_passes(results: Any, players: int) -> bool:
    """A Vampire copying a turned-up Juggler made a pass (no Juggler in its trick)."""
    return any(
        r.turned_card == Special.JUGGLER
        and any(type(a) is PassCard for a in _after_vampire(r, players))
        for r in results
    )


def _copied_swaps(results: Any, players: int) -> bool:
    """A Vampire copying a turned-up Witch made its player swap."""
    return any(
        r.turned_card == Special.WITCH
        and any(type(a) is SwapCard and a.give is not None for a in _after_vampire(r, players))
        for r in results
    )


@pytest.mark.parametrize(
    ("seed", "case"),
    [(12, "show_gift"), (20, "copied_swap"), (36, "copied_pass")],
)
async def test_passes_and_swaps_together_verify(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, seed: int, case: str
) -> None:
    """The Juggler with the Witch, the Vampire (which copies a turned-up Juggler or Witch)
    and the Werewolf; each seed's game has its case: a network seat gives a card passed to
    it into a Witch's trick, with its ``show_gift``; a Vampire copying a turned-up Witch
    makes its player swap; one copying a turned-up Juggler makes a pass. Host bots and
    network bots; every record verifies. (Seeded decks: ``SeededDeal``, ``seeded_bots``.)"""
    seed_decks(monkeypatch, seed)
    options = HostOptions(
        players=4,
        bots=2,
        bot_level="normal",  # (it swaps when that scores clearly better)
        rules=TableRules(specials=MOVES),
        records_dir=tmp_path / "records",
        deal="private",
    )
    async with asyncio.timeout(300), running_host(options, rng=random.Random(seed)) as host:
        sessions = await seat_sessions(
            options.port, 2, cls=SeededDeal, records_dir=tmp_path / "own"
        )
        codes = await play_bots(sessions, "random", seed=seed)
        await host.finished.wait()
    assert codes == [0, 0]
    assert_private_game_verified(host, sessions)
    table = host.table
    assert table is not None
    results = table.game.results
    assert any(type(a) is PassCard for r in results for a in r.actions)
    assert any(type(a) is SwapCard and a.give is not None for r in results for a in r.actions)
    if case == "show_gift":
        kinds = _kinds_by_round(table.recorder.record())
        gift_shows = [seat for ks in kinds.values() for seat, k in ks if k == "show_gift"]
        assert any(seat < 2 for seat in gift_shows)  # (0, 1: the network seats)
    elif case == "copied_swap":
        assert _copied_swaps(results, 4)
    else:
        assert _copied_passes(results, 4)


class BadPasses(SeededDeal, CapturingSession):
    """Before its first pass it sends what the host must refuse without harm: a pass
    intent with its card (a private pass is a give), a give to the wrong seat, a give of
    the wrong pass, and an open_gift as a bare deal message; then it passes honestly.
    (Signed garbage would be its signer's proven fault: the round voided, charged.)"""

    tried = False

    def _new_seat_half(self, kind: DealKind) -> SeatHalf:
        half = super()._new_seat_half(kind)
        if not isinstance(half, PrivateSeatHalf):
            return half
        real = half.send_decision

        def send_decision(action: PlayerAction) -> bool:
            deal = half.deal
            if type(action) is PassCard and not self.tried and deal is not None:
                self.tried = True
                self._bad(deal, action)
            return real(action)

        half.send_decision = send_decision  # type: ignore[method-assign]
        return half

    def _bad(self, deal: Any, action: PassCard) -> None:
        setup, seat = deal.setup, deal.seat
        r, attempt = deal.round, deal.attempt
        view = deal.player.view
        # A copy of the seat's sealer: the envelopes the host refuses use no number of its.
        sealer = Sealer(
            deal.signing_key,
            MESSAGE_TAG,
            setup.context,
            seat,
            deal.player.sealer.next_seq,
        )
        pad = bytes(32)
        wrong_to = (seat + 2) % setup.seats
        bodies = [
            give_body(view.passes_moved, wrong_to, pad, pad),
            give_body(view.passes_moved + 5, (seat + 1) % setup.seats, pad, pad),
            gift_open_body("open_gift", 0, (seat - 1) % setup.seats, 0, pad),
        ]
        self.client.send({"t": "pass_card", "seat": seat, "round": r, "card": action.card})
        for body in bodies:
            envelope = Sealer(sealer.key, sealer.tag, sealer.context, seat, sealer.next_seq).seal(
                body
            )
            self.client.send(p.deal_msg(r, attempt, envelope.to_wire()))


BAD_PASSES_SEED = 3  # (seeded decks: this game has a Juggler's pass every run)


async def test_bad_passes_are_refused_and_the_game_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A seat's bad pass messages never crash the host: each is refused to its sender
    (none is relayed, none voids the round), and the game ends with records that verify."""
    seed_decks(monkeypatch, BAD_PASSES_SEED)
    options = HostOptions(
        players=3,
        bots=1,
        bot_level="easy",
        rules=TableRules(specials=JUGGLER),
        length="short",
        records_dir=tmp_path / "records",
        deal="private",
    )
    async with asyncio.timeout(120), running_host(options, rng=random.Random(3)) as host:
        bad = await _one(options.port, BadPasses)
        others = await seat_sessions(options.port, 1, cls=SeededDeal)
        codes = await play_bots([bad, *others], "easy", seed=3)
        await host.finished.wait()
    assert bad.tried
    assert codes == [0, 0]
    refused = [m["code"] for m in bad.received if m.get("t") == "refused"]
    assert refused == [
        "unknown_action",  # the pass intent
        "not_your_turn",  # the give to the wrong seat
        "not_your_turn",  # the give of the wrong pass
        "bad_envelope",  # an open_gift is a play's
    ], refused
    assert_private_game_verified(host, [bad, *others])
