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


def _special_failures() -> Iterator[RecordError]:
    """A failure of each kind a record with special cards has: each card's tamper, and the
    round's actions and fields changed (tests/records/test_special_records.py's)."""
    from . import test_special_records as sp

    for tamper in sp.TAMPERS.values():
        yield sp.failure(sp.tampered(tamper))
    after_the_end, cut_short, swapped_plays, out_of_turn, rescored = (
        sp.special_doc() for _ in range(5)
    )
    actions = after_the_end["rounds"][0]["actions"]
    actions.append(list(actions[-1]))
    cut_short["rounds"][0]["actions"].pop()
    trick = swapped_plays["rounds"][0]["tricks"][1]
    trick["plays"][0], trick["plays"][1] = trick["plays"][1], trick["plays"][0]
    actions = out_of_turn["rounds"][0]["actions"]
    a, b = [i for i, action in enumerate(actions) if action[0] == "bid"][:2]
    actions[a], actions[b] = actions[b], actions[a]
    rnd = rescored["rounds"][0]
    seat = next(action for action in rnd["actions"] if action[0] == "bid")[1]
    rnd["bids"][seat] += 1 if rnd["bids"][seat] == 0 else -1
    undealt = sp.special_doc(3, "bomb")
    undealt["rounds"][0]["hands"][0][0] = int(sp.DRG)  # no Dragon at this table
    not_an_action = sp.special_doc()
    not_an_action["rounds"][0]["actions"][0] = ["teleport", 0, 1]
    for document in (after_the_end, cut_short, swapped_plays, out_of_turn, rescored):
        yield sp.failure(document)
    yield sp.failure(undealt)
    yield sp.failure(not_an_action)


def test_special_card_faults_are_said_in_each_language() -> None:
    seen = set()
    for exc in _special_failures():
        seen.add(exc.rule)
        _said_in_every_language(exc)
    assert {"trick-winner", "actions", "bids", "play-order", "bad-value"} <= seen, seen


def test_a_private_special_round_s_moves_are_said_in_each_language_with_the_blame() -> None:
    from wizard_tui.phrase import phrase
    from wizard_tui.verify import BLAME_RECORD
    from wizard_tui.verify_special import check_private_moves

    from . import test_special_records as sp

    doc = sp.moving_doc()
    r = sp.moving_round(doc)
    rnd, turned, opens, shows, gifts = sp.moves_of(doc, r)
    changed = [
        (m, g, to, (c + 1) % 60) if k == 0 else (m, g, to, c)
        for k, (m, g, to, c) in enumerate(gifts)
    ]
    cases = ((opens[:-1], shows, gifts), (opens, shows[1:], gifts), (opens, shows, changed))
    for moves in cases:
        with pytest.raises(RecordError) as info:
            check_private_moves(
                rnd, r, turned, *moves, lambda detail: phrase(BLAME_RECORD, detail=detail)
            )
        exc = info.value
        assert exc.detail.endswith(" (blame: the relay, the host that recorded the round)")
        _said_in_every_language(exc)
        i18n.setup("de")
        assert "(Schuld: der Vermittler, der Gastgeber, der die Runde protokolliert hat)" in (
            exc.shown()
        )
        i18n.setup("en")
