"""``verify`` accepts every honest record and names the round, trick, seat and rule of a fake."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from wizard_tui.record import RecordError
from wizard_tui.verify import verify_document, verify_path

from . import helpers as h
from . import independent_writer as iw

MODES = ("never", "always", "after-round-1")


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_simulated_games_verify(players: int, mode: str) -> None:
    record = verify_document(h.sim_doc(players, mode))
    assert len(record.rounds) == 60 // players
    assert record.complete


@pytest.mark.parametrize("source", ["simulated", "independent"])
@pytest.mark.parametrize("tamper", h.TAMPERS, ids=lambda f: f.__name__.removeprefix("tamper_"))
def test_tampering_is_caught_and_located(tamper: Callable[[h.Doc], h.Expect], source: str) -> None:
    doc = h.sim_doc(4) if source == "simulated" else h.indie_doc(4)
    verify_document(doc)  # honest before
    expected = tamper(doc)
    assert h.where(h.failure(doc)) == expected


@pytest.mark.parametrize("players", [3, 6])
def test_tampering_on_other_table_sizes(players: int) -> None:
    for tamper in (h.tamper_revoke, h.tamper_card_not_in_hand, h.tamper_trick_winner):
        doc = h.sim_doc(players)
        expected = tamper(doc)
        assert h.where(h.failure(doc)) == expected


@pytest.mark.parametrize("mode", ["always", "after-round-1"])
def test_forbidden_last_bid(mode: str) -> None:
    doc = h.sim_doc(4, mode)
    verify_document(doc)
    expected = h.tamper_forbidden_last_bid(doc, first_round=1 if mode == "always" else 2)
    exc = h.failure(doc)
    assert h.where(exc) == expected
    assert f"restrict_last_bid={mode}" in exc.detail


def _round_one_hits_only(doc: h.Doc) -> bool:
    """Round 1's bids total 1 and round 2's do not total 2."""
    r1, r2 = doc["rounds"]
    return sum(r1["bids"]) == 1 and sum(r2["bids"]) != 2


def test_restriction_modes_differ_only_in_round_one() -> None:
    doc = h.first_doc(lambda seed: h.indie_doc(4, "never", seed, rounds=2), _round_one_hits_only)
    verify_document(doc)
    doc["rules"]["restrict_last_bid"] = "after-round-1"
    verify_document(doc)  # round 1 is exempt
    doc["rules"]["restrict_last_bid"] = "always"
    dealer = doc["rounds"][0]["dealer"]
    assert h.where(h.failure(doc)) == ("bid-forbidden", 1, None, dealer)


def _turns_up(kind: str) -> Callable[[h.Doc], bool]:
    test = iw.wizard if kind == "wizard" else iw.jester
    return lambda doc: any(
        r["trump_card"] is not None and test(r["trump_card"]) for r in doc["rounds"]
    )


def _first_round_turning(doc: h.Doc, kind: str) -> dict:
    return next(r for r in doc["rounds"] if _turns_up(kind)({"rounds": [r]}))


def test_turned_wizard_needs_the_dealers_suit() -> None:
    doc = h.first_doc(lambda seed: h.sim_doc(3, seed=seed), _turns_up("wizard"))
    verify_document(doc)
    rnd = _first_round_turning(doc, "wizard")
    assert rnd["trump_suit"] in iw.SUIT_NAMES
    rnd["trump_suit"] = None
    assert h.where(h.failure(doc)) == ("trump-suit", rnd["round"], None, rnd["dealer"])


def test_turned_jester_means_no_trump() -> None:
    doc = h.first_doc(lambda seed: h.sim_doc(3, seed=seed), _turns_up("jester"))
    rnd = _first_round_turning(doc, "jester")
    assert rnd["trump_suit"] is None
    rnd["trump_suit"] = "hearts"
    assert h.where(h.failure(doc)) == ("trump-suit", rnd["round"], None, None)


def test_last_round_has_no_trump() -> None:
    doc = h.sim_doc(5)
    last = doc["rounds"][-1]
    assert last["trump_card"] is None and last["trump_suit"] is None
    last["trump_suit"] = "spades"
    assert h.where(h.failure(doc)) == ("trump-suit", 12, None, None)


def test_revoke_message_names_the_cards() -> None:
    doc = h.sim_doc(4)
    h.tamper_revoke(doc)
    exc = h.failure(doc)
    assert "revoke" in exc.detail and "while holding" in exc.detail


def test_extra_fields_are_allowed() -> None:
    doc = h.sim_doc(4)
    doc["comment"] = "played at the club"
    doc["rounds"][0]["duration_seconds"] = 12.5
    record = verify_document(doc)
    assert record.extra == {"comment": "played at the club"}
    assert record.rounds[0].extra == {"duration_seconds": 12.5}


def test_a_rule_the_reader_does_not_know_is_refused_by_name() -> None:
    """Unlike other extra fields: a rule changes what a legal game is, so a record played
    by one this program does not know cannot be checked by it."""
    doc = h.sim_doc(4)
    doc["rules"]["house_rule"] = "none"
    with pytest.raises(RecordError, match="unknown rule house_rule"):
        verify_document(doc)


def test_incomplete_game_verifies() -> None:
    doc = h.sim_doc(4)
    del doc["rounds"][7:]
    doc["complete"] = False
    doc["winners"] = []
    record = verify_document(doc)
    assert not record.complete and len(record.rounds) == 7


def test_incomplete_game_may_name_the_current_leaders_but_nobody_else() -> None:
    doc = h.sim_doc(4)
    del doc["rounds"][7:]
    doc["complete"] = False
    totals = doc["rounds"][-1]["totals"]
    leaders = [s for s, t in enumerate(totals) if t == max(totals)]
    doc["winners"] = leaders
    verify_document(doc)
    doc["winners"] = [next(s for s in range(4) if s not in leaders)]
    assert h.where(h.failure(doc)) == ("winners", None, None, None)


def test_too_many_rounds() -> None:
    doc = h.sim_doc(6)
    doc["rounds"].append(doc["rounds"][-1])
    assert h.where(h.failure(doc)) == ("round-count", 11, None, None)


def test_player_count_must_be_playable() -> None:
    doc = h.sim_doc(3)
    doc["players"].pop()
    assert h.failure(doc).rule == "players"


def test_recorded_redeal_seeds_must_open() -> None:
    doc = h.sim_doc(4)
    first = doc["rounds"][0]
    doc["redeals"] = [
        {
            "round": 1,
            "attempt": 1,
            "reason": "a client left",
            "commitments": first["commitments"],
            "seeds": [first["seeds"][0], None, first["seeds"][2], first["seeds"][3]],
        }
    ]
    record = verify_document(doc)
    assert len(record.redeals) == 1
    doc["redeals"][0]["seeds"][2] = first["seeds"][3]
    assert h.where(h.failure(doc)) == ("redeal", 1, None, 2)


@pytest.mark.parametrize(
    ("text", "needle"),
    [
        ("", "empty"),
        ("{", "ends early"),
        ('{"format": "wizard-tui/record/v1", "game_id": "ab', "ends early"),
        ("{'format': 1}", "malformed JSON at line 1, column 2"),
        ("[1, 2,, 3]", "malformed JSON"),
        ("[" * 100_000, "malformed JSON"),
    ],
)
def test_unparseable_files(tmp_path: Path, text: str, needle: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text)
    verdict = verify_path(path)
    assert not verdict.ok and verdict.failure is not None
    assert verdict.failure.rule == "json"
    assert needle in verdict.failure.detail


def test_truncated_record_file(tmp_path: Path) -> None:
    text = json.dumps(h.sim_doc(4), indent=1)
    path = tmp_path / "cut.json"
    path.write_text(text[: len(text) // 2])
    verdict = verify_path(path)
    assert verdict.failure is not None and verdict.failure.rule == "json"
    assert "truncated" in verdict.failure.detail
    assert verdict.line().startswith(f"FAIL {path}: json: the JSON document ends early")


def test_not_utf8_and_not_an_object(tmp_path: Path) -> None:
    (tmp_path / "bin.json").write_bytes(b'{"format": "\xff"}')
    (tmp_path / "list.json").write_text("[1, 2]")
    binary = verify_path(tmp_path / "bin.json").failure
    listed = verify_path(tmp_path / "list.json").failure
    assert binary is not None and (binary.rule, "UTF-8" in binary.detail) == ("json", True)
    assert listed is not None and listed.rule == "wrong-type"
    assert "the record must be an object, found a list" in listed.detail


def test_unreadable_paths(tmp_path: Path) -> None:
    missing = verify_path(tmp_path / "nope.json").failure
    folder = verify_path(tmp_path).failure
    assert missing is not None and (missing.rule, missing.detail) == ("unreadable", "no such file")
    assert folder is not None and folder.rule == "unreadable"


def test_failure_line_names_only_the_parts_that_apply(tmp_path: Path) -> None:
    doc = h.sim_doc(4)
    expected = h.tamper_trick_winner(doc)
    path = tmp_path / "g.json"
    path.write_text(json.dumps(doc))
    line = verify_path(path).line()
    assert expected == ("trick-winner", 3, 2, None)
    assert line.startswith(f"FAIL {path}: round 3, trick 2: trick-winner: the record says seat ")

    doc = h.sim_doc(4)
    h.tamper_winners(doc)
    path.write_text(json.dumps(doc))
    assert verify_path(path).line().startswith(f"FAIL {path}: winners: the record says seat ")


def test_a_bug_in_verify_is_a_fail_line_not_a_traceback(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import wizard_tui.verify as verify_module

    def broken(*args: object) -> None:
        raise KeyError("oops")

    monkeypatch.setattr(verify_module, "deck_for_round", broken)
    path = tmp_path / "g.json"
    path.write_text(json.dumps(h.sim_doc(4)))
    line = verify_path(path).line()
    assert line == (
        f"FAIL {path}: internal-error: verify itself failed (KeyError: 'oops'); please report this"
    )
