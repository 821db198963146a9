"""Privately dealt games with all nine special cards (docs/private-deal.md section 16) over
real sockets on 127.0.0.1: the Juggler's passes (gifts) and the Witch's swaps between the
host's bots and network bots (``join --bot``'s ``play_as_bot``).

- A game between host bots and network bots finishes, every session ends as documented
  (exit code 0, its link closed), and the host's record and every joiner's own record
  verify and are complete; the record shows the game did pass and swap cards.
- Secrecy, over the sockets: every message every party received (the host, every seat's
  client) is kept in one order; with the round keys from the record's reveals, each party's
  messages are searched for every key that opens a card. A passed card can be unsealed,
  until it is played, only by its new holder (from its inbox key and the giver's unlock)
  and its giver; a card a Witch gives into the trick is shown to nobody before the host
  applied the swap; no seat's position key reaches another party but in the open (or show)
  of that position or in the round-end reveal.

The decks are the same every run (each seat's round secrets seeded: test_private_witch's
``SeededDeal`` and ``seeded_bots``), and so are the games: they pass and swap cards, which
the tests check rather than assume.
"""

from __future__ import annotations

import asyncio
import copy
import itertools
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgpack
import pytest
from net_helpers import play_bots, running_host, seat_sessions
from private_helpers import assert_private_game_verified
from special_helpers import ALL_NINE, every_view
from test_private_witch import SeededDeal, seeded_bots

from netplay.mental import RoundKeys, moves
from netplay.mental.protocol import decode_body
from netplay.mental.sra import scalar_bytes, scalar_from_bytes
from wizard_tui.game import TableRules
from wizard_tui.game.actions import PassCard, SwapCard
from wizard_tui.game.hidden_special import HiddenSpecialGame
from wizard_tui.net.host import HostOptions
from wizard_tui.net.host_adapter import WizardHost
from wizard_tui.private_deal import item_cards
from wizard_tui.record import GameRecord, RecordedRound


def _passes(rnd: RecordedRound) -> list[PassCard]:
    return [a for a in rnd.actions or () if isinstance(a, PassCard)]


def _swaps(rnd: RecordedRound) -> list[SwapCard]:
    """The Witch's swaps that moved a card (a declined one moves none)."""
    return [a for a in rnd.actions or () if isinstance(a, SwapCard) and a.give is not None]


GAME_SEED = 22  # (its game passes twice, and both a network seat and a host bot swap)


async def test_a_private_game_with_all_nine_cards_between_network_bots_verifies(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two host bots and two network bots; the decks are the same every run (``SeededDeal``,
    ``seeded_bots``), and so is the game."""
    monkeypatch.setattr(SeededDeal, "deal_seed", GAME_SEED)
    seeded_bots(monkeypatch, GAME_SEED)
    options = HostOptions(
        players=4,
        bots=2,
        bot_level="normal",
        rules=TableRules(specials=ALL_NINE),
        length="short",
        records_dir=tmp_path / "records",
        deal="private",
    )
    async with asyncio.timeout(240), running_host(options, rng=random.Random(GAME_SEED)) as host:
        sessions = await seat_sessions(
            options.port, 2, cls=SeededDeal, records_dir=tmp_path / "own"
        )
        codes = await play_bots(sessions, "random", seed=GAME_SEED)  # (it swaps; "easy" never does)
        await host.finished.wait()
    assert codes == [0, 0]  # join --bot's exit status: finished, every round verified
    assert all(s.client.state == "closed" for s in sessions)
    assert_private_game_verified(host, sessions)  # host's record, every joiner's own, complete
    assert all(s.record_path is not None and s.record_path.exists() for s in sessions)
    table = host.table
    assert table is not None
    record = table.recorder.record()
    assert record.rules.specials == ALL_NINE
    dealt = {c for r in record.rounds for hand in r.hands for c in hand}
    assert dealt >= set(ALL_NINE)
    # The game passed and swapped cards: every seat passed (network seats 0, 1 and the
    # host's bots 2, 3), with real cards in the record; a network seat and a host bot swapped.
    passes = [a for r in record.rounds for a in _passes(r)]
    assert {a.seat for a in passes} == {0, 1, 2, 3}
    assert all(a.card >= 0 for a in passes)
    swaps = [a for r in record.rounds for a in _swaps(r)]
    assert {a.seat < 2 for a in swaps} == {True, False}, "a network seat and a host bot swap"


# --- secrecy over the sockets ---------------------------------------------------------


@dataclass
class Tap:
    """Every message a party received, each with its place in one order of all parties'
    messages (the whole test runs in one event loop, so the order is the order of events)."""

    clock: Iterator[int]
    got: list[tuple[int, bytes, dict[str, Any]]] = field(default_factory=list)

    def keep(self, msg: dict[str, Any]) -> int:
        at = next(self.clock)
        kept = copy.deepcopy(msg)
        self.got.append((at, msgpack.packb(kept, use_bin_type=True), kept))
        return at


CLOCK: Iterator[int] = itertools.count()


class TappedSession(SeededDeal):
    """A client that keeps every message the host sent it (its deals seeded: ``SeededDeal``)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tap = Tap(CLOCK)

    def _handle(self, msg: dict[str, Any]) -> None:
        self.tap.keep(msg)
        super()._handle(msg)


class TappedHost(WizardHost):
    """A host that keeps every message any client sent it, and notes, for every Witch's
    swap it applied, the message during which it did."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tap = Tap(CLOCK)
        self.swapped_at: dict[tuple[int, int, int, int], int] = {}

    def on_message(self, session: Any, msg: dict[str, Any]) -> None:
        at = self.tap.keep(msg)
        super().on_message(session, msg)
        game = self.table.game if self.table is not None else None
        if isinstance(game, HiddenSpecialGame):
            for a in game.round_actions:
                if isinstance(a, SwapCard) and a.give is not None and a.take is not None:
                    self.swapped_at.setdefault((game.round, a.seat, a.give, a.take), at)


def _envelopes(value: Any) -> Iterator[tuple[int, dict[str, Any]]]:
    """(sender, decoded body) of every signed envelope anywhere in a message."""
    if isinstance(value, dict):
        if {"from", "seq", "body", "sig"} <= set(value) and isinstance(value["body"], bytes):
            yield value["from"], decode_body(value["body"])
            return
        for v in value.values():
            yield from _envelopes(v)
    elif isinstance(value, list):
        for v in value:
            yield from _envelopes(v)


@dataclass
class Gift:
    round: int
    index: int  # the round's pass
    giver: int
    to: int
    item: int
    ephemeral: bytes  # A, the giver's unlock
    key: bytes  # K, which unseals it


@dataclass
class RoundSecrets:
    """A scored round's keys and moves, from the host's record (its reveals open all)."""

    round: int
    keys: dict[int, RoundKeys]
    owned: dict[int, list[int]]  # seat -> its positions
    points: list[bytes]  # every inbox key R and unlock A the round's messages carried
    gifts: list[Gift]
    shown: dict[tuple[int, int], bytes]  # (seat, card) -> the key its show or show_gift gave


def _round_secrets(rnd: RecordedRound, items: tuple[int, ...]) -> RoundSecrets:
    deal = rnd.private_deal
    assert deal is not None
    bodies = [(env.sender, decode_body(env.body)) for env in deal.envelopes]
    keys: dict[int, RoundKeys] = {}
    gives: dict[tuple[int, int], dict[str, Any]] = {}
    unlocks: dict[tuple[int, int], bytes] = {}
    points: list[bytes] = []
    for sender, body in bodies:
        if body["t"] == "reveal":
            blob = body["keys"]
            keys[sender] = RoundKeys.from_revealed(
                scalar_from_bytes(body["key"]),
                [scalar_from_bytes(blob[i : i + 32]) for i in range(0, len(blob), 32)],
            )
        elif body["t"] == "inbox":
            points.append(body["key"])
        elif body["t"] == "give":
            gives[(body["pass"], sender)] = body
        elif body["t"] == "unlock":
            unlocks[(body["pass"], sender)] = body["ephemeral"]
            points.append(body["ephemeral"])
    setup = deal.setup
    gifts = []
    for (m, giver), ephemeral in sorted(unlocks.items()):
        give = gives[(m, giver)]
        to = give["to"]
        key = moves.shared_key(moves.inbox_secret(keys[to].global_key.e), ephemeral)
        item = moves.unseal(
            give["sealed"], moves.pad(setup.context, m, giver, to, key), setup.items
        )
        assert item is not None
        gifts.append(Gift(rnd.round, m, giver, to, item, ephemeral, key))
    shown: dict[tuple[int, int], bytes] = {}
    for sender, body in bodies:
        if body["t"] == "show":
            shown[(sender, items[body["item"]])] = scalar_bytes(
                keys[sender].positions[body["position"]].d
            )
        elif body["t"] == "show_gift":
            shown[(sender, items[body["item"]])] = body["key"]
    owned = {seat: list(setup.positions_of(seat)) for seat in keys}
    return RoundSecrets(rnd.round, keys, owned, points, gifts, shown)


def _first(tap: Tap, needle: bytes) -> tuple[int, dict[str, Any]] | None:
    """The first message of ``tap`` holding ``needle``, with its place in the order."""
    for at, raw, msg in tap.got:
        if needle in raw:
            return at, msg
    return None


def _every(tap: Tap, needle: bytes) -> Iterator[dict[str, Any]]:
    for _, raw, msg in tap.got:
        if needle in raw:
            yield msg


def _scalars(secrets: RoundSecrets, seat: int | None) -> list[int]:
    """Every scalar of the round a party holds that could open a gift: a seat's inbox
    scalar and its ephemeral scalar of each pass; the host (no bot here) holds none."""
    if seat is None:
        return []
    e = secrets.keys[seat].global_key.e
    passes = {g.index for g in secrets.gifts}
    return [moves.inbox_secret(e), *(moves.gift_secret(e, m) for m in passes)]


def check_secrecy(
    record: GameRecord, host: TappedHost, sessions: list[TappedSession]
) -> dict[str, int]:
    """Every check of the module's docstring; how many of each thing it checked: position
    keys found in another party's messages, gifts, Witch's swaps, and those swaps that
    showed a card (a dealt one, or a gift)."""
    items = item_cards(record.rules.specials)
    parties: list[tuple[int | None, Tap]] = [(None, host.tap)]
    parties += [(seat, s.tap) for seat, s in enumerate(sessions)]
    found = gifts = swaps = shows = gift_shows = 0
    for rnd in record.rounds:
        secrets = _round_secrets(rnd, items)
        for party, tap in parties:
            # A seat's position key reaches another party only in its open or show of that
            # position, or its reveal; its global key only in its reveal.
            for seat, keys in secrets.keys.items():
                if seat == party:
                    continue
                for msg in _every(tap, scalar_bytes(keys.global_key.e)):
                    assert any(s == seat and b["t"] == "reveal" for s, b in _envelopes(msg))
                for k in secrets.owned[seat]:
                    for msg in _every(tap, scalar_bytes(keys.positions[k].d)):
                        found += 1
                        assert any(
                            s == seat
                            and (b["t"] == "reveal" or b.get("position") == k)
                            and b["t"] in ("reveal", "open", "show", "blind")
                            for s, b in _envelopes(msg)
                        ), (rnd.round, party, seat, k, msg.get("t"))
            # No view the host sent knows a hand or a pass (it knows none).
            for _, _, msg in tap.got:
                for view in every_view(msg):
                    assert view["hand"] == [] and view["last_pass"] is None, view
        for gift in secrets.gifts:
            gifts += 1
            for party, tap in parties:
                if party in (gift.giver, gift.to):
                    continue
                # Nothing it holds makes K from the points it was sent ...
                assert all(
                    moves.shared_key(x, point) != gift.key
                    for x in _scalars(secrets, party)
                    for point in secrets.points
                ), (gift, party)
                # ... and K reaches it first in the recipient's open_gift (or show_gift).
                seen = _first(tap, gift.key)
                if seen is not None:
                    assert any(
                        s == gift.to
                        and b["t"] in ("open_gift", "show_gift")
                        and (b["pass"], b["giver"]) == (gift.index, gift.giver)
                        for s, b in _envelopes(seen[1])
                    ), (gift, party, seen[1].get("t"))
            # Its new holder was sent the giver's unlock, with which it unseals the card.
            if gift.to < len(sessions):
                assert _first(sessions[gift.to].tap, gift.ephemeral) is not None
        for swap in _swaps(rnd):
            swaps += 1
            key = secrets.shown.get((swap.seat, swap.give))  # type: ignore[arg-type]
            if key is None:
                continue  # a face-up card it took: everyone saw it
            shows += 1
            gift_shows += any(
                (g.to, items[g.item]) == (swap.seat, swap.give) for g in secrets.gifts
            )
            at = host.swapped_at[(rnd.round, swap.seat, swap.give, swap.take)]  # type: ignore[index]
            for party, tap in parties:
                if party == swap.seat:
                    continue
                seen = _first(tap, key)
                assert seen is None or seen[0] >= at, (swap, party, seen and seen[1].get("t"))
    return {
        "found": found,
        "gifts": gifts,
        "swaps": swaps,
        "shows": shows,
        "gift_shows": gift_shows,
    }


# Its deals (``SeededDeal``) pass and swap cards; in round 7 a card seat 0 played comes back
# to it (a Witch takes it from the trick and passes it on to seat 0).
SECRECY_SEED = 1


async def test_a_passed_or_swapped_card_reaches_only_its_new_holder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three network seats (no host bot: every party's messages are on a socket)."""
    seed = SECRECY_SEED
    monkeypatch.setattr(SeededDeal, "deal_seed", seed)
    options = HostOptions(
        players=3,
        bots=0,
        rules=TableRules(specials=ALL_NINE),
        length="short",
        records_dir=tmp_path,
        deal="private",
    )
    async with (
        asyncio.timeout(240),
        running_host(options, host_cls=TappedHost, rng=random.Random(seed)) as host,
    ):
        sessions = await seat_sessions(options.port, 3, cls=TappedSession)
        assert await play_bots(sessions, "random", seed=seed) == [0, 0, 0]
        await host.finished.wait()
    assert isinstance(host, TappedHost)
    assert_private_game_verified(host, sessions)
    record = host.table.recorder.record()  # type: ignore[union-attr]
    taps = [s for s in sessions if isinstance(s, TappedSession)]
    assert len(taps) == 3 and all(len(s.tap.got) > 100 for s in taps)
    # The host never learns a passed card: no pass it was sent names one.
    assert all(m["card"] < 0 for _, _, m in host.tap.got if m["t"] == "pass_card")
    checked = check_secrecy(record, host, taps)
    assert checked["found"] > 300  # every open reaches the host and two seats
    assert checked["gifts"] > 0, "no Juggler's pass in this game"
    assert checked["swaps"] > 0 and checked["shows"] > 0, "no Witch gave a card it held"
    assert_leaks_are_caught(record, host, taps)


def assert_leaks_are_caught(
    record: GameRecord, host: TappedHost, sessions: list[TappedSession]
) -> None:
    """The check can fail: one message that hands a third party a gift's key, a shown
    card's key before its swap, or a seat's position key, each put first in that party's
    messages, is caught (then taken out again)."""
    items = item_cards(record.rules.specials)
    secrets = [_round_secrets(rnd, items) for rnd in record.rounds]
    gift = next(g for s in secrets for g in s.gifts)
    third = next(s for s in range(len(sessions)) if s not in (gift.giver, gift.to))
    swap_round, swap = next(
        (s, a)
        for s, rnd in zip(secrets, record.rounds, strict=True)
        for a in _swaps(rnd)
        if (a.seat, a.give) in s.shown
    )
    other = (swap.seat + 1) % len(sessions)
    owner = next(iter(secrets[0].owned))
    position = scalar_bytes(secrets[0].keys[owner].positions[secrets[0].owned[owner][0]].d)
    leaks = [
        (sessions[third].tap, gift.key),
        (host.tap, gift.key),
        (sessions[other].tap, swap_round.shown[(swap.seat, swap.give)]),  # type: ignore[index]
        (sessions[(owner + 1) % len(sessions)].tap, position),
    ]
    for tap, key in leaks:
        leak: dict[str, Any] = {"t": "leak", "key": key}
        tap.got.insert(0, (-1, msgpack.packb(leak, use_bin_type=True), leak))
        with pytest.raises(AssertionError):
            check_secrecy(record, host, sessions)
        del tap.got[0]
    check_secrecy(record, host, sessions)
