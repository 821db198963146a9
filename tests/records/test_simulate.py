"""``play_game`` and ``run_simulation``: real deals, views only, every decision timed."""

from __future__ import annotations

import random
import re

import pytest

from wizard_tui import i18n
from wizard_tui.bots import Bot, make_bot
from wizard_tui.game import SeatView, is_wizard
from wizard_tui.simulate import (
    SimulationConfig,
    SimulationError,
    new_deal_set,
    play_game,
    run_simulation,
)
from wizard_tui.verify import verify_record


class SpyBot(Bot):
    """A random player that remembers what it was shown."""

    level = "spy"

    def __init__(self, rng: random.Random) -> None:
        super().__init__(rng)
        self.inner = make_bot("random", rng)
        self.views: list[object] = []

    def decide(self, view):  # type: ignore[no-untyped-def]
        self.views.append(view)
        return self.inner.decide(view)

    def choose_trump(self, view: SeatView) -> int:
        raise NotImplementedError

    choose_bid = choose_card = choose_trump


class CheatingBot(SpyBot):
    level = "cheat"

    def decide(self, view):  # type: ignore[no-untyped-def]
        action = super().decide(view)
        if view.legal_bids:
            return type(action)(view.seat, view.round + 1)
        return action


def test_bots_see_only_their_own_seat_view_and_every_decision_is_counted() -> None:
    rng = random.Random(5)
    deal_set = new_deal_set(4, rng)
    bots = [SpyBot(random.Random(s)) for s in range(4)]
    played = play_game(bots, deal_set)
    verify_record(played.record)
    for seat, bot in enumerate(bots):
        assert bot.views and all(type(v) is SeatView and v.seat == seat for v in bot.views)
        assert all(v.turn == seat for v in bot.views)
        assert played.decisions[seat] == len(bot.views)
        assert played.decide_seconds[seat] > 0
    rounds = played.record.rounds
    wizard_rounds = sum(r.trump_card is not None and is_wizard(r.trump_card) for r in rounds)
    # one bid per seat per round, one card per seat per trick, one choice per turned Wizard
    assert sum(played.decisions) == 4 * 15 + 4 * sum(range(1, 16)) + wizard_rounds


def test_the_deal_set_decides_the_hands() -> None:
    deal_set = new_deal_set(3, random.Random(1))
    a = play_game([make_bot("random", random.Random(s)) for s in range(3)], deal_set)
    b = play_game([make_bot("random", random.Random(s + 9)) for s in range(3)], deal_set)
    assert [r.hands for r in a.record.rounds] == [r.hands for r in b.record.rounds]
    assert a.record.rounds[0].seeds == deal_set.seeds[0]
    assert a.record.first_dealer == deal_set.first_dealer


def test_unseeded_deal_sets_are_fresh() -> None:
    a, b = new_deal_set(4), new_deal_set(4)
    assert a.game_id != b.game_id and a.seeds[0] != b.seeds[0]
    assert len(a.seeds) == 15 and all(len(s) == 32 for s in a.seeds[3])


def test_a_bot_breaking_the_rules_is_named() -> None:
    bots = [CheatingBot(random.Random(s)) for s in range(3)]
    with pytest.raises(SimulationError, match=r"bot 'cheat' at seat \d made an illegal move"):
        play_game(bots, new_deal_set(3, random.Random(2)))


def test_bots_must_fill_the_table() -> None:
    with pytest.raises(SimulationError, match="3 bots for a deal set of 4 seats"):
        play_game([make_bot("random")] * 3, new_deal_set(4, random.Random(0)))


def test_run_simulation_tallies_every_seat() -> None:
    report = run_simulation(SimulationConfig(players=6, games=2, seed="x"))
    assert report.games == 2 and len(report.tallies) == 6
    assert all(len(t.scores) == 2 and t.rounds == 20 for t in report.tallies)
    assert sum(t.wins for t in report.tallies) == pytest.approx(2.0)


def test_levels_must_match_the_table() -> None:
    with pytest.raises(SimulationError, match="2 bot levels for 5 players"):
        SimulationConfig(players=5, bots=("random", "random")).levels()
    assert SimulationConfig(players=3).levels() == ("random",) * 3


@pytest.mark.parametrize("duplicate", [False, True])
def test_the_report_table_speaks_the_language_and_keeps_its_numbers(duplicate: bool) -> None:
    config = SimulationConfig(
        players=3, games=1, seed="t", duplicate=duplicate, bots=("random", "easy", "random")
    )
    report = run_simulation(config)
    english = report.table()
    numbers = re.findall(r"-?\d+(?:\.\d+)?%?", english)
    try:
        for code, words in {
            "cs": ("místo", "hry", "výhry"),
            "de": ("Platz", "Spiele", "Siege"),
            "es": ("asiento", "partidas", "victorias"),
            "it": ("posto", "partite", "vittorie"),
        }.items():
            i18n.setup(code)
            table = report.table()
            lines = table.splitlines()
            header = lines[2].split()
            label = {"cs": "účast.", "de": "Eintrag", "es": "entrada", "it": "voce"}[code]
            assert header[0] == (label if duplicate else words[0]), header
            assert words[1] in header and words[2] in header, header
            # The same numbers in the same order (the words around them translated).
            assert re.findall(r"-?\d+(?:\.\d+)?%?", table) == numbers
            # Columns line up under their headers: each row as long as the English one's
            # plus what the wider translated headers add.
            grown = len(lines[2]) - len(english.splitlines()[2])
            for row, was in zip(lines[3:6], english.splitlines()[3:6], strict=True):
                assert len(row) - len(was) <= grown
            assert "games/s" not in table and "rounds" not in table
    finally:
        i18n.setup("en")
