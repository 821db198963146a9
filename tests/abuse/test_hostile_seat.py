"""A player at the table running hostile software (the mole, see abuse_helpers.py) throws
everything it can at a live host while three honest network bots play a game with it.

The game is frozen from time to time (the honest players and the mole's own bot wait at a
gate, the deal done): the host's state is then fixed, so each hostile input's answer is
exactly known, and the host's whole game state must be the same after the attack. Between
freezes the game runs on. At the end the game must have finished, every client must have
verified every round, no honest client saw a refusal or lost its link, and the host applied
exactly the actions the honest clients (and the mole's rule-abiding bot) sent.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from abuse_helpers import Arena, Mole, Watch, game_problems
from abuse_inputs import (
    FATAL_SHAPE,
    TYPES,
    WRONG_TYPES,
    Mutant,
    bad_message,
    every_mutant,
    huge_payloads,
    junk_frame,
)
from hypothesis import HealthCheck, given, settings
from hypothesis import Phase as HypothesisPhase
from hypothesis import seed as hypothesis_seed
from net_helpers import host_state

from netplay.commit_reveal import seed_msg
from netplay.framing import encode
from wizard_tui.game import Phase
from wizard_tui.net import protocol as p

Attack = Callable[[Mole], Awaitable[None]]

# Mutants drawn by hypothesis (fixed seeds), on top of the fixed coverage below: this many
# draws of this many examples each, each from the messages of the moment.
HYPOTHESIS_DRAWS = 4
HYPOTHESIS_SAMPLE = 12


def base_messages(arena: Arena) -> dict[str, dict[str, Any]]:
    """For each message type, one the host would take from the mole right now but for the
    single field a mutant changes: its own seat, the round in play."""
    assert arena.host is not None and arena.host.table is not None and arena.mole is not None
    game = arena.host.table.game
    me, r = arena.mole.seat, game.round
    assert me is not None
    return {
        "bid": p.bid_msg(me, r, 0),
        "play": p.play_msg(me, r, game.dealt_hand(me)[0]),
        "trump": p.trump_msg(me, r, 0),
        "commit": {"t": "commit", "round": r, "commitment": bytes(32)},
        "seed": seed_msg(r, bytes(32)),
        "chat": {"t": "chat", "text": "hello"},
        "claim_host": {"t": "claim_host", "key": "guess"},
    }


def coverage_sample() -> list[int]:
    """Indexes into ``every_mutant()``: every field of every type with nil, a bool, a value
    out of its range (or one too long, or a bin of the wrong size) and one of a huge string,
    a deeply nested list, a map with a bin key and a float (in turn); every type with a
    missing key, an unknown key, a bin key and two swaps of its type; about a fifth of
    every_mutant, which ``test_inbound_mutations`` checks whole without a socket."""
    rotating = ("str over max_str", "list nested 100 deep", "map with a bin key", "float")
    out_of_range = ("above the range", "one char too long", "bin 33")
    swaps = [what for what, _ in WRONG_TYPES]
    chosen = []
    missing: set[str] = set()
    fields_seen = 0
    for i, mutant in enumerate(every_mutant()):
        head, _, kind = mutant.what.partition(": ")
        if "." in head:  # a field
            if kind == "nil":
                fields_seen += 1
            if kind in ("nil", "true", *out_of_range) or kind == rotating[fields_seen % 4]:
                chosen.append(i)
        elif " -> " in mutant.what:  # a type swapped
            t, _, swap = mutant.what.partition(" -> ")
            k = TYPES.index(t)
            if swap in (swaps[k % len(swaps)], swaps[(k + 5) % len(swaps)]):
                chosen.append(i)
        elif kind.startswith("no "):  # a missing key: the first of each type
            if head not in missing:
                missing.add(head)
                chosen.append(i)
        else:
            chosen.append(i)  # an unknown key, a bin key, not a map, no type
    return chosen


def hypothesis_mutants(base: dict[str, dict[str, Any]], count: int, seed: int) -> list[Mutant]:
    """``count`` mutants drawn by hypothesis (fixed seed) from ``base``."""
    found: list[Mutant] = []

    @hypothesis_seed(seed)
    @settings(
        max_examples=count,
        database=None,
        deadline=None,
        phases=[HypothesisPhase.generate],
        suppress_health_check=list(HealthCheck),
    )
    @given(bad_message(base))
    def collect(mutant: Mutant) -> None:
        found.append(mutant)

    collect()
    return found


def frame_attacks(rng: random.Random) -> list[Attack]:
    """Garbage frames inside the mole's channel: raw (unsealed) junk, oversized and
    truncated frames, replays of its own encrypted frames, and sealed payloads of deep
    or huge msgpack."""
    out: list[Attack] = []
    for _ in range(8):
        data, code = junk_frame(rng)
        out.append(lambda m, d=data, c=code: m.send_raw(f"junk {d[:8]!r}", d, {c}))
    too_large = {"frame_too_large"}
    out += [
        lambda m: m.send_raw("a frame over 65 536 bytes", (65537).to_bytes(4, "big"), too_large),
        lambda m: m.send_raw("a 4 GB frame", b"\xff\xff\xff\xff" + bytes(100), too_large),
        lambda m: m.send_raw(
            "a frame of 65 536 bytes", (65536).to_bytes(4, "big") + bytes(65536), too_large
        ),
        lambda m: m.send_raw("a plaintext message", encode(p.bid_msg(0, 1, 0)), {"decrypt_failed"}),
        lambda m: m.truncated(),
        lambda m: m.truncated(),
        lambda m: m.replay(),
        lambda m: m.replay(),
        lambda m: m.replay_old(),
        lambda m: m.replay_old(),
    ]
    for what, payload, codes in huge_payloads():
        out.append(lambda m, w=what, pl=payload, c=codes: m.send_sealed(w, pl, c))
    return out


async def test_wrong_shapes_from_a_seat_change_nothing(tmp_path: Path) -> None:
    """Every inbound message type with every field wrong (a fixed fifth of every_mutant, plus
    a hypothesis sample), garbage, oversized, truncated and replayed frames, deep and huge
    msgpack: each gets its fatal error, the mole comes back, the game is untouched."""
    rng = random.Random(11)
    coverage = coverage_sample()
    frames = frame_attacks(rng)
    with Watch() as watch:
        arena = Arena(tmp_path, players=4, honest=3, seed=11)
        try:
            # (A bound, not a measure: the five special decisions' fields add a third more
            # attacks, each a reconnect; about 75 s on a loaded 2-core machine.)
            async with asyncio.timeout(150):
                await arena.start()
                mole = arena.mole
                assert mole is not None
                # Each item makes its attacks from the messages the mole could send now.
                todo: list[Callable[[dict[str, Any]], list[Attack]]] = []
                for index in coverage:
                    todo.append(lambda base, i=index: [_mutant_attack(every_mutant(base)[i])])
                todo += [lambda base, a=a: [a] for a in frames]
                for k in range(HYPOTHESIS_DRAWS):
                    todo.append(
                        lambda base, k=k: [
                            _mutant_attack(m)
                            for m in hypothesis_mutants(base, HYPOTHESIS_SAMPLE, seed=k)
                        ]
                    )
                rng.shuffle(todo)
                while todo:
                    state = await arena.freeze()
                    assert state is not None, f"the game ended with {len(todo)} attacks to go"
                    base = base_messages(arena)
                    for make in [todo.pop() for _ in range(min(20, len(todo)))]:
                        for attack in make(base):
                            await attack(mole)
                            await mole.settled()
                            assert mole.problems == []
                            assert host_state(arena.host) == state, "an input changed the game"
                    arena.thaw()
                    for _ in range(rng.randrange(1, 8)):  # (the game must outlast the attacks)
                        await arena.progress()
                arena.thaw()
                await arena.finish(60)
                problems = game_problems(arena, watch)
        finally:
            await arena.close()
    assert problems == []
    # Each input was answered with its fatal error, and came back each time.
    assert mole.lost == 0
    drawn = HYPOTHESIS_DRAWS * HYPOTHESIS_SAMPLE  # at most: hypothesis may repeat itself
    assert len(coverage) + len(frames) < mole.fatal <= len(coverage) + len(frames) + drawn
    assert mole.reconnects == mole.fatal
    assert set(mole.answers) >= {"bad_message", "bad_encoding", "decrypt_failed"}
    assert "frame_too_large" in mole.answers and "unexpected_message" in mole.answers


def _mutant_attack(mutant: Mutant) -> Attack:
    async def attack(mole: Mole) -> None:
        mole.send_payload(mutant.what, mutant.payload(), FATAL_SHAPE, True)

    return attack


async def test_right_shape_wrong_time_changes_nothing(tmp_path: Path) -> None:
    """Messages that pass their schema but are wrong now: out of phase (a bid during play, a
    card during bidding, trump with no Wizard turned or by another seat than the dealer),
    for another seat (including the very move that seat is about to make), for stale
    rounds, a seed before the commitments, a second commit and seed, start / add_bot /
    rematch / claim_host from a player. Each is refused with its code, to the mole only,
    and the host's state is exactly as before. Once, the mole stops reading until the host
    cuts it off, and comes back."""
    rng = random.Random(12)
    with Watch() as watch:
        arena = Arena(tmp_path, players=4, honest=3, seed=12)
        try:
            async with asyncio.timeout(90):
                await arena.start()
                mole = arena.mole
                assert mole is not None
                freezes = 0
                crafted = 0
                cut: tuple[int, str] | None = None
                at_mole = {1: Phase.BID, 2: Phase.PLAY}  # every third freeze is elsewhere
                while True:
                    if freezes % 3 in at_mole:
                        state = await arena.freeze_at_mole(at_mole[freezes % 3])
                    else:
                        state = await arena.freeze()
                    if state is None:
                        break
                    freezes += 1
                    if freezes == 8:
                        cut = await arena.never_reader()
                        await mole.settled()
                        assert host_state(arena.host) == state
                    for what, msg, codes in arena.crafted():
                        assert mole.send_msg(what, msg, codes), "the mole's link is down"
                        crafted += 1
                    await mole.settled()
                    assert mole.problems == []
                    assert host_state(arena.host) == state, "a refused message changed the game"
                    arena.thaw()
                    for _ in range(rng.randrange(1, 8)):  # (the game must outlast the attacks)
                        await arena.progress()
                await arena.finish(60)
                problems = game_problems(arena, watch)
        finally:
            await arena.close()
    assert problems == []
    assert freezes >= 10 and crafted >= 15 * freezes
    assert cut is not None and cut[1] == "send_queue_full", cut
    assert mole.lost == 0 and mole.fatal == 0
    # The deal-phase attacks went out every round (a seed before the commitments, a second
    # commit and a second seed), and every crafted kind was answered. A second commit is
    # refused as out_of_phase rather than duplicate when the mole's own commit completed the
    # set; every freeze adds "a commit after the deal" (out_of_phase) and "a seed after the
    # deal" (duplicate).
    rounds = 15
    out_of_phase, duplicate = mole.answers.get("out_of_phase", 0), mole.answers.get("duplicate", 0)
    assert out_of_phase >= rounds + freezes
    assert duplicate >= rounds + freezes
    assert out_of_phase + duplicate >= 3 * rounds + 2 * freezes
    for code in ("not_your_seat", "stale_round", "wrong_phase", "not_host"):
        assert mole.answers.get(code, 0) >= freezes, code
    assert {"card_not_in_hand", "bid_out_of_range"} <= set(mole.answers)
    assert "internal_error" not in mole.answers
