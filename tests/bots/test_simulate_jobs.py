"""``simulate --jobs N``: games in worker processes, the same report as one process."""

from __future__ import annotations

import io
import json
import sys
from typing import Any

import pytest

from wizard_tui.cli import main
from wizard_tui.commands.simulate import ProgressBar
from wizard_tui.simulate import SimulationConfig, run_simulation

TIMING = {"seconds", "mean_decision_seconds"}


def without_timing(x: Any) -> Any:
    if isinstance(x, dict):
        return {k: without_timing(v) for k, v in x.items() if k not in TIMING}
    if isinstance(x, list):
        return [without_timing(v) for v in x]
    return x


def simulate_json(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert main(["simulate", *argv, "--json"]) == 0
    out, err = capsys.readouterr()
    assert err == ""  # captured stderr is no terminal: no progress bar
    return json.loads(out)


def test_two_jobs_report_what_one_job_reports(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["--players", "3", "--games", "3", "--bots", "normal,easy,random", "--seed", "7"]
    one = simulate_json(capsys, *args, "--jobs", "1")
    two = simulate_json(capsys, *args, "--jobs", "2")
    assert without_timing(one) == without_timing(two)
    assert one["games"] == 3 and len({s["mean_score"] for s in one["seats"]}) == 3


def test_duplicate_games_and_records_are_the_same_in_parallel(tmp_path) -> None:
    reports = {}
    for jobs in (1, 2):
        config = SimulationConfig(
            players=3,
            games=2,
            bots=("normal", "easy", "easy"),
            seed="dup",
            duplicate=True,
            records=tmp_path / str(jobs),
        )
        progress: list[tuple[int, int]] = []
        report = run_simulation(
            config, jobs=jobs, on_progress=lambda d, t, p=progress: p.append((d, t))
        )
        assert progress[-1] == (6, 6) and progress == sorted(progress)
        reports[jobs] = report
        names = sorted(p.name for p in report.records)
        assert len(names) == 6
    assert without_timing(reports[1].to_json()) == without_timing(reports[2].to_json()) | {
        "records": str(tmp_path / "1")
    }
    for p1, p2 in zip(reports[1].records, reports[2].records, strict=True):
        assert p1.name == p2.name and p1.read_bytes() == p2.read_bytes()


def test_a_seedless_run_in_parallel_plays_every_game() -> None:
    report = run_simulation(SimulationConfig(players=3, games=3, bots=("random",)), jobs=2)
    assert report.games == 3 and all(t.summary()["games"] == 3 for t in report.tallies)


def test_the_progress_bar_draws_on_a_terminal_only(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    terminal = Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    assert main(["simulate", "--players", "3", "--games", "2", "--jobs", "1"]) == 0
    drawn = terminal.getvalue()
    assert "\r[" in drawn and "2/2 games" in drawn and drawn.endswith("\n")
    assert "games" in capsys.readouterr().out  # the report itself still goes to stdout


def test_the_bar_fills_with_the_games() -> None:
    stream = io.StringIO()
    bar = ProgressBar(stream)
    bar(0, 4)
    bar(2, 4)
    bar(4, 4)
    bar.close()
    frames = stream.getvalue().split("\r")[1:]
    assert [f.count("#") for f in frames] == [0, 15, 30]
    assert frames[-1].startswith("[" + "#" * 30 + "] 4/4 games")


@pytest.mark.parametrize("bad", ["0", "-2"])
def test_jobs_below_one_is_refused(bad: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "--jobs", bad]) != 0
    assert "--jobs" in capsys.readouterr().err
