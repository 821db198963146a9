"""Records: built from the engine, written atomically after every round, read back unchanged."""

from __future__ import annotations

import json
import os
import random
import stat
from collections.abc import Callable
from pathlib import Path

import pytest

from netplay import fairdeal
from wizard_tui.bots import make_bot
from wizard_tui.deal import deck_for_round
from wizard_tui.game import Game, GameConfig, Phase, RestrictLastBid, seat_view
from wizard_tui.record import (
    GameRecorder,
    PlayerEntry,
    RecordError,
    dumps_record,
    parse_record,
    read_record,
    record_filename,
    write_record,
)
from wizard_tui.verify import verify_document, verify_path, verify_record

from . import helpers as h

PLAYERS = [
    PlayerEntry("Ann", "human"),
    PlayerEntry("Bø", "human"),
    PlayerEntry("bot 2", "bot"),
]


def _host_game(tmp_path: Path, stop_after: int | None = None) -> list[Path]:
    """Play like the host: seeds, commitments, deal, bots; write the record after each round."""
    rng = random.Random(7)
    config = GameConfig(3, first_dealer=1, rules=RestrictLastBid.AFTER_ROUND_1)
    game = Game(config)
    game_id = rng.randbytes(16)
    recorder = GameRecorder(game_id, PLAYERS, config)
    bots = [make_bot("random", random.Random(s)) for s in range(3)]
    written = []
    while not game.is_over and game.round != stop_after:
        r = game.round + 1
        seeds = [fairdeal.new_seed() for _ in range(3)]
        commitments = [fairdeal.commitment(game_id, r, s, seed) for s, seed in enumerate(seeds)]
        game.deal(deck_for_round(game_id, r, seeds))
        while game.phase not in (Phase.DEAL, Phase.GAME_OVER):
            game.apply(bots[game.turn].decide(seat_view(game, game.turn)))
        recorder.add_round(game.results[-1], commitments, seeds)
        written.append(write_record(tmp_path, recorder.record()))
        # After every round the file on disk is a valid record of the game so far.
        record = read_record(written[-1])
        verify_record(record)
        assert len(record.rounds) == r
        assert record.complete == game.is_over
    return written


def test_host_writes_a_verifiable_record_after_every_round(tmp_path: Path) -> None:
    written = _host_game(tmp_path)
    assert len(written) == 20 and len(set(written)) == 1  # one file, rewritten
    path = written[0]
    record = read_record(path)
    assert path.name == record_filename(record.game_id) == record.game_id.hex() + ".json"
    assert record.complete and record.winners
    assert [p.name for p in record.players] == ["Ann", "Bø", "bot 2"]
    assert sorted(os.listdir(tmp_path)) == [path.name]  # no temporary files left behind


def test_stopped_game_is_recorded_incomplete(tmp_path: Path) -> None:
    path = _host_game(tmp_path, stop_after=4)[-1]
    doc = json.loads(path.read_text(encoding="utf-8"))
    assert (doc["complete"], doc["winners"], len(doc["rounds"])) == (False, [], 4)
    assert verify_path(path).line() == (
        f"OK {path} (4 rounds, incomplete: stopped before round 5 of 20)"
    )


def test_record_file_is_readable_by_others(tmp_path: Path) -> None:
    path = write_record(tmp_path, parse_record(h.sim_doc(4)), fsync=False)
    assert stat.S_IMODE(path.stat().st_mode) == 0o644


@pytest.mark.parametrize("source", ["simulated", "independent"])
def test_round_trip(tmp_path: Path, source: str) -> None:
    doc = h.sim_doc(5) if source == "simulated" else h.indie_doc(5, "always")
    record = parse_record(doc)
    assert record.to_dict() == doc
    path = write_record(tmp_path, record)
    assert json.loads(path.read_text(encoding="utf-8")) == doc
    again = read_record(path)
    assert again == record
    assert dumps_record(again) == path.read_text(encoding="utf-8")


def test_extra_fields_survive_a_round_trip() -> None:
    doc = h.sim_doc(4)
    doc["client"] = {"name": "other-wizard", "version": 3}
    doc["rounds"][2]["note"] = "slow round"
    assert parse_record(doc).to_dict() == doc


def test_written_json_puts_one_trick_on_a_line() -> None:
    doc = h.sim_doc(4)
    text = dumps_record(parse_record(doc))
    trick_lines = [line for line in text.splitlines() if '"leader"' in line]
    assert len(trick_lines) == sum(len(r["tricks"]) for r in doc["rounds"]) == 120
    assert all(line.strip().startswith('{"leader"') for line in trick_lines)
    assert json.loads(text) == doc


def test_failed_write_keeps_the_old_record_and_no_temp_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    record = parse_record(h.sim_doc(4))
    path = write_record(tmp_path, record)
    before = path.read_bytes()

    def broken_replace(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    shorter = parse_record({**h.sim_doc(4), "rounds": h.sim_doc(4)["rounds"][:3]})
    with pytest.raises(OSError):
        write_record(tmp_path, shorter)
    assert path.read_bytes() == before
    assert os.listdir(tmp_path) == [path.name]


def test_recorder_notes_redeals_and_verification_failures() -> None:
    config = GameConfig(3, first_dealer=0)
    recorder = GameRecorder(bytes(16), PLAYERS, config)
    c = [bytes([s]) * 32 for s in range(3)]
    recorder.add_redeal(1, c, [b"\x01" * 32, None, None], "seat 1 disconnected")
    recorder.add_redeal(1, c, [None, None, None], "host restarted")
    recorder.add_verification_failure(1, 2, "round 1: seat 0's seed does not open")
    doc = recorder.record().to_dict()
    assert [(d["round"], d["attempt"]) for d in doc["redeals"]] == [(1, 1), (1, 2)]
    assert doc["redeals"][0]["seeds"] == ["01" * 32, None, None]
    assert doc["verification_failures"] == [
        {"round": 1, "seat": 2, "detail": "round 1: seat 0's seed does not open"}
    ]
    assert (doc["complete"], doc["winners"], doc["rounds"]) == (False, [], [])
    assert parse_record(doc).to_dict() == doc


def test_recorder_refuses_rounds_out_of_order_and_wrong_seats() -> None:
    config = GameConfig(3, first_dealer=0)
    with pytest.raises(ValueError, match="3 seats"):
        GameRecorder(bytes(16), PLAYERS[:2], config)
    with pytest.raises(ValueError, match="16 bytes"):
        GameRecorder(bytes(8), PLAYERS, config)
    record = parse_record(h.sim_doc(3))
    recorder = GameRecorder(record.game_id, PLAYERS, config)
    second = record.rounds[1]
    result = type("R", (), {"round": 2})()
    with pytest.raises(ValueError, match="round 2 recorded after 0 rounds"):
        recorder.add_round(result, second.commitments, second.seeds)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("change", "rule", "message"),
    [
        (lambda d: d["players"][1].update(kind="robot"), "bad-value", "players[1].kind"),
        (lambda d: d["players"][2].pop("name"), "missing-field", "players[2] has no field"),
        (lambda d: d["rules"].update(restrict_last_bid="sometimes"), "bad-value", "not one of"),
        (lambda d: d.update(game_id="abcd"), "bad-value", "game_id must be 32 hex digits"),
        (lambda d: d["rounds"][0].update(trump_suit="stars"), "bad-value", "trump_suit"),
        (lambda d: d["rounds"][0]["bids"].__setitem__(0, True), "wrong-type", "bids[0]"),
        (lambda d: d["rounds"][0]["bids"].__setitem__(0, 1.0), "wrong-type", "found 1.0"),
        (lambda d: d["rounds"][1]["tricks"][0].update(plays=[[0]]), "wrong-length", "plays[0]"),
        (lambda d: d.update(rounds={}), "wrong-type", "rounds must be a list, found an object"),
        (lambda d: d.update(winners=[9]), "bad-value", "winners[0] is 9, not a seat 0..3"),
        (lambda d: d.update(redeals=[{"round": 1}]), "missing-field", "redeals[0]"),
    ],
)
def test_malformed_fields_are_named(
    change: Callable[[dict], object], rule: str, message: str
) -> None:
    doc = h.sim_doc(4)
    change(doc)
    with pytest.raises(RecordError) as info:
        parse_record(doc)
    assert info.value.rule == rule
    assert message in info.value.detail


def test_error_text_lists_location_then_rule() -> None:
    exc = RecordError("must-follow-suit", "played 3C", round=4, trick=2, seat=1)
    assert str(exc) == "round 4, trick 2, seat 1: must-follow-suit: played 3C"
    assert str(RecordError("winners", "wrong")) == "winners: wrong"
    assert str(RecordError("hand", "x", round=2, seat=0)) == "round 2, seat 0: hand: x"


def test_verify_document_accepts_only_documents() -> None:
    for junk in (None, 3, "record", []):
        with pytest.raises(RecordError):
            verify_document(junk)
