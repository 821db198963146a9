"""The special-card record fixtures in ``tests/vectors/records/specials/`` verify exactly as
their ``expected.json`` says (docs/record-format.md, "Test vectors"); regenerate them with
``python -m tests.records.make_special_fixtures`` only on purpose."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from wizard_tui.record import dumps_record, read_record
from wizard_tui.verify import verify_path

FIXTURES = Path(__file__).parents[1] / "vectors" / "records" / "specials"
EXPECTED: dict[str, dict] = json.loads((FIXTURES / "expected.json").read_text())


def test_every_special_fixture_has_an_expectation() -> None:
    assert {p.name for p in FIXTURES.glob("*.json")} - {"expected.json"} == set(EXPECTED)
    assert sum(e["ok"] for e in EXPECTED.values()) >= 3
    bad = {
        n.removeprefix("bad-").split("-")[0].split(".")[0]
        for n, e in EXPECTED.items()
        if not e["ok"]
    }
    cards = {"dragon", "fairy", "bomb", "werewolf", "juggler", "cloud", "shapeshifter", "witch"}
    assert bad >= cards | {"vampire"}  # a tampered record of each of the nine


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_special_fixture_verifies_as_expected(name: str) -> None:
    path = FIXTURES / name
    want = EXPECTED[name]
    verdict = verify_path(path)
    assert verdict.line() == want["line"].replace("{file}", str(path))
    keys = ("rule", "round", "trick", "seat")
    got = None if verdict.failure is None else {k: getattr(verdict.failure, k) for k in keys}
    assert got == (None if want["ok"] else {k: want[k] for k in keys})


@pytest.mark.parametrize("name", sorted(n for n, e in EXPECTED.items() if e["ok"]))
def test_good_special_fixtures_are_in_the_written_layout(name: str) -> None:
    path = FIXTURES / name
    assert dumps_record(read_record(path)) == path.read_text(encoding="utf-8")
