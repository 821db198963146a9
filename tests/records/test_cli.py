"""``wizard-tui simulate`` and ``wizard-tui verify`` as a user runs them."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from wizard_tui.cli import main

from . import helpers as h


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_simulate_then_verify_every_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The done-criterion, smaller: simulate --records DIR, then verify DIR/*.json, all OK."""
    records = tmp_path / "new" / "records"  # created, parents too
    code, out, err = _run(
        capsys, "simulate", "--players", "4", "--games", "6", "--bots", "random",
        "--records", str(records),
    )  # fmt: skip
    assert (code, err) == (0, "")
    files = sorted(records.glob("*.json"))
    assert len(files) == 6
    assert all(re.fullmatch(r"[0-9a-f]{32}\.json", f.name) for f in files)
    assert "6 records written to" in out

    code, out, err = _run(capsys, "verify", *map(str, files))
    lines = out.splitlines()
    assert (code, err, len(lines)) == (0, "", 6)
    for f, line in zip(files, lines, strict=True):
        assert re.fullmatch(
            rf"OK {re.escape(str(f))} \(15 rounds, winners: random-\d \(seat \d\)"
            r"(, random-\d \(seat \d\))*\)",
            line,
        ), line


def test_verify_reports_each_file_and_fails_if_any_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good, bad, junk = tmp_path / "good.json", tmp_path / "bad.json", tmp_path / "junk.json"
    good.write_text(json.dumps(h.sim_doc(4)))
    doc = h.sim_doc(4)
    h.tamper_revoke(doc)
    bad.write_text(json.dumps(doc))
    junk.write_text('{"format": ')

    code, out, err = _run(capsys, "verify", str(good))
    assert code == 0 and out.startswith(f"OK {good} (15 rounds, winners: ")

    code, out, err = _run(capsys, "verify", str(good), str(bad), str(junk), str(tmp_path / "x"))
    lines = out.splitlines()
    assert code == 1 and err == ""
    assert lines[0].startswith(f"OK {good} ")
    assert re.match(
        rf"FAIL {re.escape(str(bad))}: round \d+, trick \d+, seat \d: must-follow-suit: ", lines[1]
    )
    truncated = "json: the JSON document ends early (truncated file?) at line 1"
    assert lines[2] == f"FAIL {junk}: {truncated}"
    assert lines[3] == f"FAIL {tmp_path / 'x'}: unreadable: no such file"


def test_verify_a_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for name in ("a.json", "b.json"):
        (tmp_path / name).write_text(json.dumps(h.sim_doc(3)))
    (tmp_path / "notes.txt").write_text("not a record")
    code, out, _ = _run(capsys, "verify", str(tmp_path))
    assert code == 0
    assert [line.split()[1] for line in out.splitlines()] == [
        str(tmp_path / "a.json"),
        str(tmp_path / "b.json"),
    ]
    code, out, _ = _run(capsys, "verify", str(tmp_path / "empty_dir_is_missing"))
    assert code == 1


def test_verify_an_empty_directory(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "verify", str(tmp_path))
    assert code == 1 and out.startswith("FAIL: no record files found in ")


def test_simulate_json_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(
        capsys, "simulate", "--players", "5", "--games", "3", "--seed", "9", "--json",
        "--restrict-last-bid", "always", "--records", str(tmp_path),
    )  # fmt: skip
    assert code == 0
    report = json.loads(out)  # exactly one JSON object
    assert report["games"] == 3 and report["seconds"] > 0
    assert report["restrict_last_bid"] == "always" and report["seed"] == "9"
    assert len(report["seats"]) == 5
    for seat, s in enumerate(report["seats"]):
        assert (s["seat"], s["bot"], s["games"], s["rounds"]) == (seat, "random", 3, 36)
        assert 0 <= s["bid_accuracy"] <= 1 and s["mean_abs_bid_error"] >= 0
        low, high = s["mean_score_ci95"]
        assert low < s["mean_score"] < high
        assert s["mean_decision_seconds"] > 0
    # win rates share every game out among its winners
    assert sum(s["win_rate"] for s in report["seats"]) == pytest.approx(1.0)
    for f in tmp_path.glob("*.json"):
        assert json.loads(f.read_text())["rules"] == {"restrict_last_bid": "always"}


def test_simulate_table_output(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(capsys, "simulate", "--players", "3", "--games", "2", "--seed", "1")
    lines = out.splitlines()
    assert code == 0
    assert lines[0].startswith("2 games, 3 players, restrict last bid: never, ")
    assert lines[2].split()[:4] == ["seat", "bot", "games", "mean"]
    assert [line.split()[:3] for line in lines[3:6]] == [
        ["0", "random", "2"],
        ["1", "random", "2"],
        ["2", "random", "2"],
    ]
    assert "Student t" in out


def test_seed_makes_runs_reproducible(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def run(folder: str, *extra: str) -> dict[str, bytes]:
        argv = ["simulate", "--players", "4", "--games", "2", "--records", str(tmp_path / folder)]
        assert main([*argv, *extra]) == 0
        return {f.name: f.read_bytes() for f in (tmp_path / folder).iterdir()}

    first, second = run("a", "--seed", "abc"), run("b", "--seed", "abc")
    assert first == second and len(first) == 2
    assert run("c", "--seed", "abd").keys().isdisjoint(first)
    unseeded = run("d"), run("e")
    assert unseeded[0].keys().isdisjoint(unseeded[1]) and unseeded[0].keys().isdisjoint(first)
    capsys.readouterr()


def test_duplicate_rotates_every_bot_through_every_hand(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = _run(
        capsys, "simulate", "--players", "3", "--games", "2", "--duplicate", "--seed", "d",
        "--json", "--records", str(tmp_path),
    )  # fmt: skip
    assert code == 0
    report = json.loads(out)
    assert (report["games"], report["deals"], report["duplicate"]) == (6, 2, True)
    margins = [s["margin_vs_field"] for s in report["seats"]]
    assert sum(margins) == pytest.approx(0.0, abs=1e-9)
    assert all(s["games"] == 6 for s in report["seats"])

    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 6
    by_game: dict[str, list[dict]] = {}
    for f in files:
        gid, rotation = f.stem.split("-")
        doc = json.loads(f.read_text())
        assert doc["game_id"] == gid and doc["duplicate"]["rotation"] == int(rotation)
        by_game.setdefault(gid, []).append(doc)
    assert len(by_game) == 2
    for docs in by_game.values():
        hands = {json.dumps([r["hands"] for r in d["rounds"]]) for d in docs}
        assert len(hands) == 1  # the same deal each time
        # entry e sits at a different seat in each rotation: every seat, once
        seats_of_entry0 = sorted(
            next(s for s, p in enumerate(d["players"]) if p["name"] == "random-0") for d in docs
        )
        assert seats_of_entry0 == [0, 1, 2]

    code, out, _ = _run(capsys, "verify", str(tmp_path))
    assert code == 0 and out.count("OK ") == 6


def test_duplicate_table_has_margin_columns(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(
        capsys, "simulate", "--players", "3", "--games", "1", "--duplicate", "--seed", "t"
    )
    assert code == 0
    assert "(1 deal sets x 3 rotations)" in out.splitlines()[0]
    assert "vs field" in out and out.splitlines()[2].split()[0] == "entry"


def test_one_level_per_seat(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = _run(
        capsys, "simulate", "--players", "3", "--bots", "random,random,random", "--json"
    )
    assert code == 0 and [s["bot"] for s in json.loads(out)["seats"]] == ["random"] * 3


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--players", "7"], "--players must be 3 to 6, not 7"),
        (["--players", "2"], "--players must be 3 to 6, not 2"),
        (["--games", "0"], "--games must be at least 1"),
        (["--bots", "grandmaster"], "unknown bot level 'grandmaster'"),
        (["--bots", "random:budget=1"], "bot level 'random' takes no options"),
        (["--bots", "random,random"], "--bots lists 2 levels for 4 players"),
    ],
)
def test_simulate_user_errors(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, err = _run(capsys, "simulate", *argv)
    assert code == 2 and out == ""
    assert err.startswith(f"wizard-tui: {message}")


def test_records_dir_that_cannot_be_made(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    code, _, err = _run(capsys, "simulate", "--records", str(blocker / "sub"))
    assert code == 2 and err.startswith("wizard-tui: cannot write records to ")


def test_bot_levels_with_options_are_split_at_the_right_commas() -> None:
    from wizard_tui.commands.simulate import split_levels

    assert split_levels("random") == ("random",)
    assert split_levels("easy, normal,random") == ("easy", "normal", "random")
    assert split_levels("hard:budget=0.3,samples=200,easy,hard:samples=5") == (
        "hard:budget=0.3,samples=200",
        "easy",
        "hard:samples=5",
    )
