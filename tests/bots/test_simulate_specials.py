"""``simulate --specials``: whole games with special cards between bots, in every mode."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wizard_tui.cli import main
from wizard_tui.deal import deck_for_round
from wizard_tui.game.specials import SPECIALS, Special, deck_cards
from wizard_tui.record import PRIVATE_PROTOCOL
from wizard_tui.simulate import SimulationConfig, SimulationError, round_deck, run_simulation
from wizard_tui.verify import verify_path
from wizard_tui.verify_special import bids_made

ALL = frozenset(SPECIALS)


def test_a_duplicate_match_with_every_card() -> None:
    config = SimulationConfig(
        players=3,
        games=2,
        bots=("normal", "easy", "random"),
        seed="specials",
        duplicate=True,
        length="1,2,5,9",
        specials=ALL,
    )
    report = run_simulation(config)
    assert report.games == 6
    assert report.to_json()["rules"]["specials"] == [c.wire_name for c in sorted(ALL)]
    for tally in report.tallies:
        assert len(tally.scores) == 6 and tally.rounds == 6 * 4  # every seat of every deal
        assert len(tally.margins) == 2
    pairs = {tuple(d["levels"]) for d in report.to_json()["differences"]}
    assert len(pairs) == 3
    assert "specials: all" in report.table()


def test_the_round_deck_is_the_tables_cards() -> None:
    seeds = [bytes([s]) * 32 for s in range(3)]
    specials = frozenset({Special.DRAGON, Special.FAIRY, Special.BOMB})
    deck = round_deck(b"g" * 16, 1, seeds, specials)
    assert sorted(deck) == sorted(deck_cards(specials))
    plain = round_deck(b"g" * 16, 1, seeds, frozenset())
    assert plain == deck_for_round(b"g" * 16, 1, seeds)  # the plain game's deck unchanged


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        (
            {"deal": "private", "forehead": True, "specials": ALL - {Special.WEREWOLF}},
            "private deal cannot deal special cards in the forehead round",
        ),
        ({"specials": frozenset({Special.DRAGON})}, "fairy"),
    ],
)
def test_impossible_tables_are_refused_before_play(
    changes: dict[str, object], message: str
) -> None:
    base: dict[str, object] = {"players": 3, "bots": ("random",), "specials": ALL}
    base.update(changes)
    config = SimulationConfig(**base)  # type: ignore[arg-type]
    with pytest.raises(SimulationError, match=f"(?i){message}"):
        run_simulation(config)


def test_the_command_line_plays_special_cards(capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["simulate", "--players", "3", "--bots", "easy", "--seed", "1", "--length", "1,2"]
    assert main([*argv, "--specials", "dragon,fairy,witch", "--json", "--jobs", "1"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["rules"]["specials"] == ["dragon", "fairy", "witch"]
    with pytest.raises(SystemExit):
        main([*argv, "--specials", "unicorn"])


def test_hidden_bids_with_the_cloud_seal_the_bids_made(tmp_path: Path) -> None:
    """A Cloud changes a bid after it was sealed: the seal must be of the bid made, so each
    record verifies (it would fail ``bid-seal`` if the scored bids were sealed)."""
    config = SimulationConfig(
        players=3,
        games=4,
        bots=("normal",),
        seed="clouds",
        length="3,4,5,6",
        hidden_bids=True,
        specials=frozenset({Special.CLOUD}),
        records=tmp_path,
    )
    report = run_simulation(config)
    changed = 0
    for path in report.records:
        verdict = verify_path(path)
        assert verdict.ok, verdict.line()
        assert verdict.record is not None
        changed += sum(rnd.bids != bids_made(rnd.actions or (), 3) for rnd in verdict.record.rounds)
    assert changed > 0  # some Cloud changed a sealed bid, or the test proves nothing


def test_private_games_with_every_card_verify(tmp_path: Path) -> None:
    """The private deal with all nine cards (docs/private-deal.md section 16): the Werewolf
    shown, each Juggler's pass as gifts, each Witch's card shown; every record verifies."""
    config = SimulationConfig(
        players=3,
        games=3,
        bots=("easy",),
        seed="private-specials",
        length="2,5,9,12",
        specials=ALL,
        deal="private",
        records=tmp_path,
    )
    report = run_simulation(config)
    kinds: set[str] = set()
    for path in report.records:
        verdict = verify_path(path)
        assert verdict.ok, verdict.line()
        assert verdict.record is not None and verdict.record.protocol == PRIVATE_PROTOCOL
        kinds |= {type(a).__name__ for rnd in verdict.record.rounds for a in rnd.actions or ()}
    assert {"NameTrump", "PassCard", "SwapCard"} <= kinds  # the cards that move cards came
