"""The record fixtures in ``tests/vectors/records/`` verify exactly as ``expected.json`` says.

They are vectors for other verifiers too (``docs/record-format.md``); regenerate them with
``python -m tests.records.make_fixtures`` only on purpose.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wizard_tui.record import dumps_record, read_record
from wizard_tui.verify import verify_path

FIXTURES = Path(__file__).parents[1] / "vectors" / "records"
EXPECTED: dict[str, dict] = json.loads((FIXTURES / "expected.json").read_text())


def test_every_fixture_has_an_expectation() -> None:
    files = {p.name for p in FIXTURES.glob("*.json")} - {"expected.json"}
    assert files == set(EXPECTED)
    assert sum(e["ok"] for e in EXPECTED.values()) >= 4
    assert sum(not e["ok"] for e in EXPECTED.values()) >= 8


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_fixture_verifies_as_expected(name: str) -> None:
    path = FIXTURES / name
    want = EXPECTED[name]
    verdict = verify_path(path)
    assert verdict.ok == want["ok"]
    assert verdict.line() == want["line"].replace("{file}", str(path))
    keys = ("rule", "round", "trick", "seat")
    got = None if verdict.failure is None else {k: getattr(verdict.failure, k) for k in keys}
    assert got == (None if want["ok"] else {k: want[k] for k in keys})


@pytest.mark.parametrize("name", sorted(n for n, e in EXPECTED.items() if e["ok"]))
def test_good_fixtures_are_in_the_written_layout(name: str) -> None:
    """Reading and writing a record changes no byte: the layout is stable."""
    path = FIXTURES / name
    assert dumps_record(read_record(path)) == path.read_text(encoding="utf-8")
