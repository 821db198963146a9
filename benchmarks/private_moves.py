"""Cards that change hands in the private deal (docs/private-deal.md section 16): what a
Juggler's pass costs, with a deck of 69 cards (all nine special cards), for 3 to 6 players.

    .venv/bin/python benchmarks/private_moves.py [--repeat 5]

A pass is every seat's inbox key (the round's first pass), gift and unlock, each checked by
the relay and every other seat, and every seat unsealing the card it received: all of it
in one process, one party after the other (the sum of everyone's work, so an upper bound of
the time a table of separate machines waits). The round-end check of the gifts is the extra
work the verification does for them. Baseline, measured in the same run: the private deal
of the same round (its passes, releases and hands, also summed over every party), and one
round-end verification without gifts.

Goal: a pass under 50 ms for 6 players, summed over every party (at the table each party
does its own share in parallel; a player takes seconds to choose its card anyway). Most of
it is signatures: every one of the 3n envelopes is checked by the relay and n-1 seats.
"""

from __future__ import annotations

import argparse
import hashlib
import statistics
import sys
import time
from collections import deque
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from netplay.mental import (  # noqa: E402
    DealPlayer,
    DealRelay,
    RoundKeys,
    Send,
    Verifier,
)
from netplay.signing import Envelope, SigningKey  # noqa: E402
from wizard_tui.game.specials import SPECIALS  # noqa: E402
from wizard_tui.private_deal import round_setup  # noqa: E402


def fixed(label: str) -> bytes:
    return hashlib.sha256(label.encode()).digest()


class Table:
    def __init__(self, n: int, attempt: int) -> None:
        r = 60 // n
        signing = [SigningKey.from_private_bytes(fixed(f"bench-{s}")) for s in range(n)]
        self.setup = round_setup(
            fixed("bench-game")[:16],
            r,
            n,
            0,
            [k.public_key for k in signing],
            attempt,
            hand_size=r,
            specials=SPECIALS,
        )
        items = self.setup.items
        self.players = [
            DealPlayer(self.setup, s, signing[s], RoundKeys.derive(fixed(f"b{attempt}-{s}"), items))
            for s in range(n)
        ]
        self.relay = DealRelay(self.setup)
        self.queue: deque[tuple[int, Envelope]] = deque()

    def send(self, seat: int, events: list[Any]) -> None:
        self.queue.extend((seat, e.envelope) for e in events if isinstance(e, Send))
        while self.queue:
            sender, env = self.queue.popleft()
            targets, _ = self.relay.receive(sender, env)
            for to in targets:
                self.send_later(to, self.players[to].receive(env))

    def send_later(self, seat: int, events: list[Any]) -> None:
        self.queue.extend((seat, e.envelope) for e in events if isinstance(e, Send))


def one(n: int, attempt: int) -> tuple[float, float, float, float]:
    table, plain = Table(n, attempt), Table(n, attempt)
    t0 = time.perf_counter()
    for seat, player in enumerate(table.players):
        table.send(seat, player.start())
    t1 = time.perf_counter()
    for seat, player in enumerate(table.players):
        table.send(seat, player.send_inbox())
    for seat, player in enumerate(table.players):
        assert player.hand is not None
        item = next(iter(player.hand.values()))
        table.send(seat, player.give(0, (seat + 1) % n, item))
    t2 = time.perf_counter()
    assert all(len(p.gifts) == 1 for p in table.players)
    for t in (table, plain):
        if t is plain:
            for seat, player in enumerate(t.players):
                t.send(seat, player.start())
        for seat, player in enumerate(t.players):
            t.send(seat, player.reveal())
    # One client's round-end verification, with the pass and (the same round) without.
    t3 = time.perf_counter()
    _verify(table, table.relay.transcript)
    t4 = time.perf_counter()
    _verify(plain, plain.relay.transcript)
    t5 = time.perf_counter()
    return t1 - t0, t2 - t1, t4 - t3, t5 - t4


def _verify(table: Table, envelopes: list[Envelope]) -> None:
    view = Verifier(table.setup)
    for env in envelopes:
        view.receive(env)
    assert view.result is not None, view.fault


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    print(
        f"{len(SPECIALS)} special cards, a deck of {60 + len(SPECIALS)}; medians of {args.repeat}"
    )
    print("n  deal (baseline)  one pass   verify with pass  verify without (baseline)")
    for n in (3, 4, 6):
        runs = [one(n, attempt) for attempt in range(args.repeat)]
        deal, move, verify_with, verify_without = (
            statistics.median(x[i] for x in runs) * 1000 for i in range(4)
        )
        print(
            f"{n}  {deal:8.1f} ms      {move:6.1f} ms  {verify_with:8.1f} ms"
            f"         {verify_without:8.1f} ms   (pass/deal {move / deal:.2f}; goal: pass < 50 ms)"
        )


if __name__ == "__main__":
    main()
