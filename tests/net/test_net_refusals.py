"""Every kind of bad action over the wire is refused with its reason code, only to its
sender, and leaves the host's game exactly as it was.

Three clients, all remote, driven by hand message by message. Their seeds are rigged (each
client's ``new_seed``, which the real client calls when a round begins), so the deal is
known to suit each case: a Wizard turned up in round 1 (so the dealer must choose trump),
and in round 2 a hand that holds the led suit and another suit (so it can revoke).
"""

from __future__ import annotations

import asyncio
import hashlib
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from net_helpers import LIMITS, LOOPBACK, Tap, host_state, running_host

from wizard_tui.deal import deal_from_deck, deck_for_round
from wizard_tui.game import GameConfig, Phase, RestrictLastBid, RoundDealt, TableRules, seat_view
from wizard_tui.net import protocol as p
from wizard_tui.net.client import NetworkSession
from wizard_tui.net.host import HostOptions
from wizard_tui.net.host_adapter import WizardHost

PLAYERS = 3
GRINDER = PLAYERS - 1  # the seat whose seed is searched for to make the deal wanted


def _plain(card: int) -> bool:
    return card < 52


def _wizard_turned(deck: tuple[int, ...], r: int, dealer: int) -> bool:
    return 52 <= deck[PLAYERS * r] < 56


def _revoke_possible(deck: tuple[int, ...], r: int, dealer: int) -> bool:
    if _wizard_turned(deck, r, dealer):
        return False
    hands = deal_from_deck(deck, PLAYERS, r, dealer).hands
    leader, follower = (dealer + 1) % PLAYERS, (dealer + 2) % PLAYERS
    return any(_revoke_cards(card, hands[follower]) for card in hands[leader] if _plain(card))


def _revoke_cards(lead: int, hand: tuple[int, ...]) -> list[int]:
    """Cards of ``hand`` that would be a revoke after ``lead``: another plain suit, while the
    hand holds the led suit."""
    suit = lead // 13
    if not any(_plain(c) and c // 13 == suit for c in hand):
        return []
    return [c for c in hand if _plain(c) and c // 13 != suit]


WANTED: dict[int, Callable[[tuple[int, ...], int, int], bool]] = {
    1: _wizard_turned,
    2: _revoke_possible,
}


class Rig:
    """Every seat's seed per round: fixed ones, and the grinder's searched until the deck
    satisfies ``WANTED[round]``."""

    def __init__(self) -> None:
        self._ground: dict[tuple[bytes, int], bytes] = {}

    @staticmethod
    def fixed(r: int, seat: int, k: int = 0) -> bytes:
        return hashlib.sha256(b"rig %d %d %d" % (r, seat, k)).digest()

    def seed(self, game_id: bytes, r: int, seat: int, config: GameConfig) -> bytes:
        if seat != GRINDER or r not in WANTED:
            return self.fixed(r, seat)
        key = (game_id, r)
        if key not in self._ground:
            dealer = (config.first_dealer + r - 1) % PLAYERS
            others = [self.fixed(r, s) for s in range(PLAYERS - 1)]
            for k in range(100_000):
                candidate = self.fixed(r, seat, k + 1)
                deck = deck_for_round(game_id, r, [*others, candidate])
                if WANTED[r](deck, r, dealer):
                    self._ground[key] = candidate
                    break
            else:
                raise AssertionError(f"no seed gives round {r} the deal wanted")
        return self._ground[key]


class RiggedSession(NetworkSession):
    def __init__(self, *args: Any, rig: Rig, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._rig = rig
        self._round_announced = 0
        self.settings.new_seed = self._draw

    def _handle(self, msg: dict[str, Any]) -> None:
        if msg.get("t") == "round":
            self._round_announced = msg["round"]
        super()._handle(msg)

    def _draw(self) -> bytes:
        assert self.game_id is not None and self.seat is not None and self.config is not None
        return self._rig.seed(self.game_id, self._round_announced, self.seat, self.config)


class Table:
    """The host and one tap per seat, with the two moves of these tests."""

    def __init__(self, host: WizardHost, taps: list[Tap]) -> None:
        self.host = host
        self.taps = taps

    @property
    def game(self) -> Any:
        assert self.host.table is not None
        return self.host.table.game

    async def refused(self, seat: int, msg: dict[str, Any], code: str) -> None:
        before = host_state(self.host)
        marks = [tap.mark() for tap in self.taps]
        self.taps[seat].session.client.send(msg)
        refusal = await self.taps[seat].refusal(marks[seat])
        assert refusal.code == code, (msg, refusal)
        assert host_state(self.host) == before, f"{msg} changed the game"
        for other, tap in enumerate(self.taps):
            if other != seat:  # nobody else heard of it
                assert tap.updates[marks[other] :] == [], (msg, tap.updates[marks[other] :])

    async def act(self, seat: int, msg: dict[str, Any]) -> None:
        mark = self.taps[seat].mark()
        self.taps[seat].session.client.send(msg)
        await self.taps[seat].table_update(lambda u: bool(u.events), mark)

    async def dealt(self, r: int) -> None:
        await self.taps[0].table_update(
            lambda u: any(isinstance(e, RoundDealt) and e.round == r for e in u.events)
        )


async def test_bad_actions_are_refused_and_change_nothing(tmp_path: Path) -> None:
    options = HostOptions(
        players=PLAYERS, rules=TableRules(RestrictLastBid.ALWAYS), records_dir=tmp_path
    )
    rig = Rig()
    async with asyncio.timeout(20), running_host(options, rng=random.Random(3)) as host:
        taps = []
        for i in range(PLAYERS):  # one by one, so client i holds seat i
            session = RiggedSession(LOOPBACK, options.port, name=f"p{i}", limits=LIMITS, rig=rig)
            await session.connect()
            taps.append(Tap(session))
        t = Table(host, taps)
        await t.dealt(1)

        # Round 1: a Wizard is turned up, so the dealer names trump.
        game = t.game
        dealer, west, east = game.dealer, (game.dealer + 1) % 3, (game.dealer + 2) % 3
        assert game.phase is Phase.CHOOSE_TRUMP and game.turn == dealer
        await t.refused(west, p.trump_msg(west, 1, 0), "not_your_turn")  # trump, wrong seat
        await t.refused(west, p.trump_msg(dealer, 1, 0), "not_your_seat")  # for another seat
        await t.refused(west, p.bid_msg(west, 1, 0), "wrong_phase")  # a bid before trump
        await t.act(dealer, p.trump_msg(dealer, 1, 2))

        assert game.phase is Phase.BID and game.turn == west
        await t.refused(east, p.bid_msg(east, 1, 0), "not_your_turn")  # out of turn
        await t.refused(west, p.bid_msg(west, 1, 2), "bid_out_of_range")  # 2 tricks of 1
        await t.refused(west, p.bid_msg(east, 1, 0), "not_your_seat")
        await t.refused(west, p.play_msg(west, 1, game.dealt_hand(west)[0]), "wrong_phase")
        await t.act(west, p.bid_msg(west, 1, 0))
        await t.act(east, p.bid_msg(east, 1, 0))
        # The restricted last bid: 0 + 0 + 1 would make the bids add up to 1 trick.
        assert seat_view(game, dealer).forbidden_bid == 1
        await t.refused(dealer, p.bid_msg(dealer, 1, 1), "bid_forbidden")
        await t.act(dealer, p.bid_msg(dealer, 1, 0))

        assert game.phase is Phase.PLAY and game.turn == west
        await t.refused(west, p.play_msg(west, 1, game.dealt_hand(east)[0]), "card_not_in_hand")
        await t.refused(east, p.play_msg(east, 1, game.dealt_hand(east)[0]), "not_your_turn")
        await t.refused(west, p.play_msg(west, 2, game.dealt_hand(west)[0]), "stale_round")
        for seat in (west, east, dealer):
            await t.act(seat, p.play_msg(seat, 1, game.dealt_hand(seat)[0]))

        # Round 2: the leader can lead a suit the next seat holds along with another suit.
        await t.dealt(2)
        dealer, leader, follower = game.dealer, (game.dealer + 1) % 3, (game.dealer + 2) % 3
        assert game.phase is Phase.BID and game.turn == leader
        await t.refused(leader, p.bid_msg(leader, 1, 0), "stale_round")
        stale_commit = {"t": "commit", "round": 1, "commitment": bytes(32)}
        await t.refused(leader, stale_commit, "stale_round")
        await t.refused(leader, {"t": "seed", "round": 2, "seed": bytes(32)}, "duplicate")
        for seat in (leader, follower, dealer):
            await t.act(seat, p.bid_msg(seat, 2, 0))
        lead = next(
            c
            for c in game.dealt_hand(leader)
            if _plain(c) and _revoke_cards(c, game.dealt_hand(follower))
        )
        await t.act(leader, p.play_msg(leader, 2, lead))
        revoke = _revoke_cards(lead, game.dealt_hand(follower))[0]
        await t.refused(follower, p.play_msg(follower, 2, revoke), "must_follow_suit")
        await t.refused(follower, {"t": "rematch"}, "not_host")

        for tap in taps:
            await tap.close()
