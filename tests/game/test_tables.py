"""The engine's lookup tables equal the rules they are built from, cell by cell.

The tables are built from structure (``_beats_rows``) or by doubling (``_part_table``)
rather than from their definitions, to keep importing the engine cheap; these tests hold
them to the definitions. Also: the hand tables are built on first use, not at import, and
``play``'s one-lookup card check gives the same answers as the full check.
"""

from __future__ import annotations

import copy
import pickle
import random
import subprocess
import sys

import pytest

from wizard_tui.game import Game, GameConfig, IllegalAction, Phase, Reason, cards_of, engine
from wizard_tui.game.engine import beats


def test_beats_equals_its_definition_cell_by_cell() -> None:
    assert len(engine.BEATS) == 5
    for trump in range(-1, 4):
        table = engine.BEATS[trump + 1]
        assert type(table) is bytes and len(table) == 60 * 60
        for winning in range(60):
            for card in range(60):
                assert table[winning * 60 + card] == beats(winning, card, trump), (
                    trump,
                    winning,
                    card,
                )


def test_beats_rows_are_the_rows_of_beats() -> None:
    for trump in range(-1, 4):
        rows = engine.BEATS_ROWS[trump + 1]
        assert len(rows) == 60
        for winning, row in enumerate(rows):
            assert type(row) is tuple
            assert row == tuple(engine.BEATS[trump + 1][winning * 60 : (winning + 1) * 60])


def test_hand_tables_list_the_set_bits_of_every_mask() -> None:
    Game(GameConfig(3, 0))  # the tables are built by the first game
    widths = (13, 13, 13, 13, 8)
    for part, (table, width) in enumerate(zip(engine._CARDS, widths, strict=True)):
        first = part * 13
        assert len(table) == 1 << width
        for mask, cards in enumerate(table):
            assert cards == tuple(first + b for b in range(width) if mask >> b & 1)
    assert (engine._C0, engine._C1, engine._C2, engine._C3, engine._C4) == engine._CARDS


def test_place_is_where_plus_the_card_itself_and_the_led_suit_after_it() -> None:
    for card in range(60):
        part, bit, same, led_after = engine._PLACE[card]
        assert (part, bit) == engine._WHERE[card]
        assert same is card
        assert led_after == engine.LED_AFTER[card]


def test_importing_the_engine_does_not_build_the_hand_tables() -> None:
    # In a fresh interpreter: importing leaves them empty, cards_of or Game() builds them.
    script = (
        "import wizard_tui.game as g, wizard_tui.game.engine as e\n"
        "assert e._CARDS == () and not e._C4\n"
        "assert g.cards_of(1 | 1 << 14 | 1 << 59) == (0, 14, 59)\n"
        "assert len(e._C4) == 256 and len(e._CARDS) == 5\n"
        "import importlib; importlib.reload(e)\n"
        "assert not e._C4\n"
        "game = e.Game(e.GameConfig(3, 0))\n"
        "assert len(e._C0) == 8192 and game.hand(0) == ()\n"
    )
    subprocess.run([sys.executable, "-c", script], check=True)


def test_an_unpickled_game_builds_the_hand_tables() -> None:
    game = Game(GameConfig(4, 1))
    game.deal(list(range(60)))
    script = (
        "import pickle, sys, wizard_tui.game.engine as e\n"
        "assert not e._C4\n"
        "game = pickle.loads(sys.stdin.buffer.read())\n"
        "print(game.hand(2), game.legal_bids())\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", script], input=pickle.dumps(game), capture_output=True, check=True
    )
    assert out.stdout.decode().split() == ["(0,)", "[0,", "1]"]
    assert copy.copy(game).hand(2) == (0,)


def test_cards_of() -> None:
    assert cards_of(0) == ()
    assert cards_of((1 << 60) - 1) == tuple(range(60))
    rng = random.Random(3)
    for _ in range(200):
        cards = sorted(rng.sample(range(60), rng.randrange(61)))
        assert cards_of(sum(1 << c for c in cards)) == tuple(cards)


def _random_game(seed: int, players: int) -> list[tuple]:
    """Plays a random game, trying a bad card before some plays; returns what happened."""
    rng = random.Random(seed)
    game = Game(GameConfig(players, 0))
    deck = list(range(60))
    log: list[tuple] = []
    bad_cards = [60, -1, True, 5.0, "5", None, 10**30, -61]
    while not game.is_over:
        if game.phase is Phase.DEAL:
            rng.shuffle(deck)
            game.deal(deck)
        elif game.phase is Phase.CHOOSE_TRUMP:
            game.choose_trump(game.turn, rng.randrange(4))
        elif game.phase is Phase.BID:
            game.bid(game.turn, rng.choice(game.legal_bids()))
        else:
            if rng.random() < 0.2:
                card = rng.choice([*bad_cards, *range(60)])
                try:
                    game.play(game.turn, card)  # type: ignore[arg-type]
                    log.append(("played", card))
                    continue
                except IllegalAction as exc:
                    log.append(("refused", repr(card), exc.reason))
            game.play(game.turn, rng.choice(game.legal_plays()))
        log.append((game.round, game.turn, tuple(game.tricks_won), game.trick))
    log.append(tuple(game.totals))
    return log


def test_the_full_card_check_agrees_with_the_one_lookup_check(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # ``play`` falls back to the full check when the card is not the shared int object of
    # its entry in ``_PLACE`` (never seen in CPython, which shares every small int): make
    # every play take that path, and the games must go exactly as before.
    fast = [_random_game(seed, players) for seed, players in [(1, 3), (2, 4), (3, 6)]]
    refusals = {entry[2] for log in fast for entry in log if entry[0] == "refused"}
    assert Reason.NOT_A_CARD in refusals
    fallback = tuple((p, b, object(), led) for p, b, _, led in engine._PLACE)
    monkeypatch.setattr(engine, "_PLACE", fallback)
    slow = [_random_game(seed, players) for seed, players in [(1, 3), (2, 4), (3, 6)]]
    assert slow == fast
