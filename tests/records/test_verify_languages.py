"""``wizard-tui verify`` speaks the player's language: its OK/FAIL words, the place and the
detail of a failure; the English of the failure (``str``, ``line()``, what a record or a log
keeps) and the exit status stay exactly as they were."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from wizard_tui import i18n
from wizard_tui.record import RecordError
from wizard_tui.verify import verify_path

from . import helpers as h
from .test_private_deal_records import _flip, doc, failure

FIXTURES = Path(__file__).parents[1] / "vectors" / "records"
EXPECTED: dict[str, dict] = json.loads((FIXTURES / "expected.json").read_text())
FAILING = sorted(name for name, e in EXPECTED.items() if not e["ok"])
FAIL_WORD = {"en": "FAIL", "cs": "CHYBA", "de": "FEHLER", "es": "FALLO", "it": "ERRORE"}


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    i18n.setup("en")


def _said_in_every_language(exc: RecordError) -> None:
    """The failure is a phrase: its English is the detail, and each catalog says it (its
    words, not the English template: a string verify forgot to wrap would show English)."""
    assert exc.said is not None, exc
    assert exc.said.english() == exc.detail
    english = exc.shown()
    assert english == str(exc)
    for code in ("cs", "de", "es", "it"):
        i18n.setup(code)
        shown = exc.shown()
        assert shown != english, (code, shown)
        assert str(exc) == english  # the record's text never moves
    i18n.setup("en")


@pytest.mark.parametrize("name", FAILING)
def test_every_failing_fixture_is_said_in_each_language_and_kept_in_english(name: str) -> None:
    path = FIXTURES / name
    english = verify_path(path)
    assert english.failure is not None
    line = english.line()
    assert english.shown() == line  # English is the source: the same bytes as ever
    for code in ("cs", "de", "es", "it"):
        i18n.setup(code)
        verdict = verify_path(path)
        assert verdict.line() == line
        assert verdict.shown().startswith(f"{FAIL_WORD[code]} {path}: ")
        assert verdict.failure is not None and verdict.failure.detail == english.failure.detail
    i18n.setup("en")
    if english.record is not None:  # the reader's own complaints are phrases too
        _said_in_every_language(english.failure)


TAMPERS: tuple[Callable[[h.Doc], h.Expect], ...] = (
    h.tamper_commitment,
    h.tamper_swap_hand_cards,
    h.tamper_trump_card,
    h.tamper_trump_suit,
    h.tamper_card_not_in_hand,
    h.tamper_revoke,
    h.tamper_trick_winner,
    h.tamper_leader,
    h.tamper_play_order,
    h.tamper_points,
    h.tamper_totals,
    h.tamper_winners,
    h.tamper_bid_too_high,
    h.tamper_forbidden_last_bid,
    h.tamper_dealer,
    h.tamper_missing_field,
    h.tamper_wrong_type,
    h.tamper_complete_too_few_rounds,
    h.tamper_incomplete_with_all_rounds,
    h.tamper_round_number,
    h.tamper_missing_trick,
    h.tamper_short_trick,
    h.tamper_seat_list_length,
    h.tamper_format,
    h.tamper_protocol,
    h.tamper_game_id,
    h.tamper_card_id_range,
)


@pytest.mark.parametrize("tamper", TAMPERS, ids=lambda f: f.__name__.removeprefix("tamper_"))
def test_each_kind_of_fake_is_said_in_each_language(tamper: Callable[[h.Doc], h.Expect]) -> None:
    document = h.sim_doc(4)
    tamper(document)
    _said_in_every_language(h.failure(document))


def test_private_deal_faults_are_said_in_each_language() -> None:
    changed_hand = doc()
    hands = changed_hand["rounds"][2]["hands"]
    hands[0][1], hands[1][1] = hands[1][1], hands[0][1]
    dropped = doc()
    del dropped["rounds"][1]["private_deal"]["envelopes"][3]
    resigned = doc()
    envelope = resigned["rounds"][0]["private_deal"]["envelopes"][2]
    envelope["body"] = _flip(envelope["body"])
    for document in (changed_hand, dropped, resigned):
        exc = failure(document)
        _said_in_every_language(exc)
    i18n.setup("de")
    assert "(Schuld: der Vermittler, der Gastgeber, der die Runde protokolliert hat)" in (
        failure(changed_hand).shown()
    )


def test_the_command_prints_the_language_and_keeps_its_exit_status() -> None:
    bad = FIXTURES / "bad-revoke.json"
    good = FIXTURES / "good-simulated-4p.json"
    run = [sys.executable, "-m", "wizard_tui", "--lang", "es", "verify", str(good), str(bad)]
    out = subprocess.run(run, capture_output=True, text=True, timeout=120)
    assert out.returncode == 1, out
    ok, fail = out.stdout.splitlines()
    assert ok.startswith(f"OK {good} (15 rondas, ganadores: ")
    assert fail.startswith(f"FALLO {bad}: ronda 2, baza 1, asiento 1: must-follow-suit: jugó ")
    assert "corazones" in fail  # the suit as the table names it; the rule code stays
    english = subprocess.run([*run[:3], *run[5:]], capture_output=True, text=True, timeout=120)
    assert english.returncode == 1
    assert english.stdout.splitlines() == [
        EXPECTED[good.name]["line"].format(file=good),
        EXPECTED[bad.name]["line"].format(file=bad),
    ]
