"""What a seat is told, and when: no other seat's cards before they are played, no seed
before its round ends, and the commitment vector out before any seed is accepted.

The clients here record every message the host sent them (``CapturingSession``); the checks
run over those logs after a whole game, against the hands and seeds the host published at
each round's end.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from net_helpers import (
    CapturingSession,
    assert_game_verified,
    play_bots,
    running_host,
    seat_sessions,
)

from netplay.commit_reveal import Phase as ExchangePhase
from netplay.commit_reveal import seed_msg
from wizard_tui.game import Phase
from wizard_tui.net.host import HostOptions
from wizard_tui.net.host_adapter import WizardHost

# The exact fields of every message a host sends (docs/protocol.md). A new field fails
# this test on purpose: whoever adds one must check it leaks nothing.
KEYS = {
    "welcome": {"t", "session", "token", "resumed", "seat", "players"},
    # settings (the bots' level, the last-bid rule) and levels (each bot's): the table's
    # public rules, as the game message's "rules" tell them anyway; nothing dealt.
    "lobby": {
        *("t", "seats", "you", "host", "addresses", "port", "can_start", "deal"),
        *("settings", "levels"),
    },
    "game": {"t", "you", "game_id", "players", "rules", "first_dealer", "deal"},
    "round": {"t", "round", "dealer"},
    "commitments": {"t", "round", "commitments"},
    "state": {"t", "view", "seats", "events"},
    "seats": {"t", "seats"},
    "round_end": {"t", "result"},
    "game_over": {"t", "totals", "winners", "record"},
    "refused": {"t", "code", "message"},
    "chat": {"t", "seat", "name", "text"},
}
VIEW_KEYS = {
    "seat", "players", "rules", "round", "dealer", "phase", "turn", "hand", "trump_card",
    "trump_suit", "bids", "tricks_won", "totals", "leader", "trick", "led", "winning",
    "tricks", "legal_cards", "legal_bids", "forbidden_bid",
}  # fmt: skip
EVENT_ARITY = {"played": 3, "trick": 5, "bid": 3, "trump": 3, "dealt": 5, "scored": 6, "over": 3}


class LoggingHost(WizardHost):
    """Logs, in order, each published commitment vector and each seed it accepted."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.log: list[tuple[str, int, int | None]] = []

    def _broadcast(self, msg: dict[str, Any]) -> None:
        if msg["t"] == "commitments":
            self.log.append(("commitments", msg["round"], None))
        super()._broadcast(msg)

    def on_message(self, session: Any, msg: dict[str, Any]) -> None:
        deal = self.deal_half.deal  # type: ignore[attr-defined]
        missing = deal.exchange.missing_seeds() if deal else frozenset()
        super().on_message(session, msg)
        if deal is not None and session.seat in missing - deal.exchange.missing_seeds():
            self.log.append(("seed", deal.exchange.round, session.seat))


def _values(value: Any) -> Iterator[Any]:
    """Every scalar inside a decoded message."""
    if isinstance(value, dict):
        for item in value.values():
            yield from _values(item)
    elif isinstance(value, list):
        for item in value:
            yield from _values(item)
    else:
        yield value


def _check_messages(received: list[dict[str, Any]], seat: int, players: int) -> int:
    """Check one client's log; return how many rounds it covered."""
    results = {m["result"]["round"]: m["result"] for m in received if m["t"] == "round_end"}
    current = 0  # the round announced last
    vector_seen: set[int] = set()
    played: dict[int, set[int]] = {}  # round -> cards seen played
    for index, msg in enumerate(received):
        where = f"seat {seat}, message {index} ({msg['t']})"
        assert msg.keys() == KEYS[msg["t"]], where
        if msg["t"] == "round":
            current = msg["round"]
        if current:
            # No seed of the round, anyone's, in anything before the round is over.
            seeds = results[current]["seeds"]
            if msg["t"] != "round_end":
                for value in _values(msg):
                    assert value not in seeds, f"{where}: a seed before round end"
                    if isinstance(value, str):
                        assert not any(s.hex() in value for s in seeds), where
        if msg["t"] == "commitments":
            assert msg["round"] == current and len(msg["commitments"]) == players, where
            vector_seen.add(current)
        elif msg["t"] == "state":
            _check_view(msg["view"], results, seat, players, where)
            r = msg["view"]["round"]
            for event in msg["events"]:
                assert len(event) == EVENT_ARITY[event[0]], where
                if event[0] == "dealt":
                    assert r in vector_seen, f"{where}: dealt before the commitments were out"
                elif event[0] == "played":
                    _, who, card = event
                    assert card in results[r]["hands"][who], f"{where}: not {who}'s card"
                    played.setdefault(r, set()).add(card)
                elif event[0] == "trick":
                    _, i, leader, winner, cards = event
                    assert [leader, cards, winner] == results[r]["tricks"][i], where
        elif msg["t"] == "round_end":
            r = msg["result"]["round"]
            # Seeds and every hand are published only once every card was seen played.
            assert played.get(r, set()) == set().union(*results[r]["hands"]), where
            assert len(played[r]) == players * r
    return len(results)


def _check_view(
    view: dict[str, Any], results: dict[int, Any], seat: int, players: int, where: str
) -> None:
    assert view.keys() == VIEW_KEYS and view["seat"] == seat, where
    if view["round"] == 0:
        assert view["hand"] == [] and view["tricks"] == [] and view["trick"] == [], where
        return
    result = results[view["round"]]
    mine = result["hands"][seat]
    # Only this seat's own cards in its hand, and what it may play is from that hand.
    assert set(view["hand"]) <= set(mine), f"{where}: a card not dealt to this seat"
    assert set(view["legal_cards"]) <= set(view["hand"]), where
    assert view["trump_card"] == result["trump_card"], where
    # Cards of other seats only as played: completed tricks and the one on the table are
    # exactly the tricks the round had.
    done = view["tricks"]
    assert done == result["tricks"][: len(done)], f"{where}: tricks not as played"
    if view["trick"]:
        leader, cards, _ = result["tricks"][len(done)]
        assert view["leader"] == leader, where
        assert view["trick"] == cards[: len(view["trick"])], f"{where}: trick not as played"


async def test_no_hand_or_seed_reaches_another_seat_early(tmp_path: Path) -> None:
    options = HostOptions(players=4, bots=1, bot_level="random", records_dir=tmp_path)
    async with asyncio.timeout(20), running_host(options, host_cls=LoggingHost) as host:
        sessions = await seat_sessions(options.port, 3, cls=CapturingSession)
        codes = await play_bots(sessions)
        await host.finished.wait()
    assert codes == [0, 0, 0]
    assert_game_verified(host, sessions)
    for session in sessions:
        assert session.seat is not None
        assert _check_messages(session.received, session.seat, 4) == 15  # type: ignore[arg-type]
        assert session.received[-1]["t"] == "game_over"
    # Host side: in every round, every seat's seed was accepted only after the vector was out.
    assert isinstance(host, LoggingHost)
    published: set[int] = set()
    accepted = []
    for kind, r, seat in host.log:
        if kind == "commitments":
            published.add(r)
        else:
            assert r in published, f"round {r}: seed of seat {seat} accepted before the vector"
            accepted.append((r, seat))
    assert sorted(accepted) == [(r, s) for r in range(1, 16) for s in range(3)]


class EarlySeeder(CapturingSession):
    """Sends its round-1 seed right after its commitment, before the vector is out."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.refused = asyncio.Event()

    def _handle(self, msg: dict[str, Any]) -> None:
        super()._handle(msg)
        if msg["t"] == "round" and msg["round"] == 1:
            exchange = self.seat_half.exchange(1)  # type: ignore[attr-defined]
            assert exchange.phase is ExchangePhase.COMMITTING
            self.client.send(seed_msg(1, exchange._seed))  # around ClientRound's own guard
        elif msg["t"] == "refused":
            self.refused.set()


class SlowCommitter(CapturingSession):
    """Holds back its round-1 commitment until ``release`` is set."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.release = asyncio.Event()
        self._held: asyncio.Task[None] | None = None

    def _handle(self, msg: dict[str, Any]) -> None:
        if msg["t"] == "round" and msg["round"] == 1 and not self.release.is_set():
            self._held = asyncio.get_running_loop().create_task(self._later(msg))
            return
        super()._handle(msg)

    async def _later(self, msg: dict[str, Any]) -> None:
        await self.release.wait()
        super()._handle(msg)


async def test_seed_before_the_commitments_is_refused(tmp_path: Path) -> None:
    options = HostOptions(players=3, bots=1, bot_level="random", records_dir=tmp_path)
    async with asyncio.timeout(20), running_host(options, host_cls=LoggingHost) as host:
        (early,) = await seat_sessions(options.port, 1, cls=EarlySeeder)
        (slow,) = await seat_sessions(options.port, 1, cls=SlowCommitter)
        assert isinstance(early, EarlySeeder) and isinstance(slow, SlowCommitter)
        game = asyncio.ensure_future(play_bots([early, slow]))
        await early.refused.wait()

        refusal = next(m for m in early.received if m["t"] == "refused")
        assert refusal["code"] == "out_of_phase"
        assert host.table is not None
        assert host.table.game.round == 0 and host.table.game.phase is Phase.DEAL  # no deal
        deal = host.deal_half.deal  # type: ignore[attr-defined]
        assert deal is not None and deal.commitments is None
        assert deal.exchange.phase is ExchangePhase.COMMITTING
        assert deal.exchange.missing_commitments() == {1}  # the slow seat
        assert deal.exchange.missing_seeds() == {0, 1}  # the early seed was not kept

        slow.release.set()
        codes = await game
        await host.finished.wait()

    assert not any(m["t"] == "refused" for m in slow.received)
    assert codes == [0, 0]
    assert_game_verified(host, [early, slow])
    assert isinstance(host, LoggingHost)
    assert host.log[:3] == [("commitments", 1, None), ("seed", 1, 0), ("seed", 1, 1)] or (
        host.log[:3] == [("commitments", 1, None), ("seed", 1, 1), ("seed", 1, 0)]
    )
