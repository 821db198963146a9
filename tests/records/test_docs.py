"""The docs stay true: their code reproduces the vectors, their example verifies, and every
rule code ``verify`` can print is explained."""

from __future__ import annotations

import json
import re
from pathlib import Path

import wizard_tui.record
import wizard_tui.verify
import wizard_tui.verify_special
from wizard_tui.verify import verify_document

ROOT = Path(__file__).parents[2]
FAIRNESS = (ROOT / "docs" / "fairness.md").read_text(encoding="utf-8")
RECORD_FORMAT = (ROOT / "docs" / "record-format.md").read_text(encoding="utf-8")
VECTORS = json.loads((ROOT / "tests" / "vectors" / "deal-v1-vectors.json").read_text())["cases"]


def test_fairness_reference_code_reproduces_the_vectors() -> None:
    (code,) = re.findall(r"```python\n(.*?)```", FAIRNESS, re.S)
    namespace: dict = {}
    exec(code, namespace)
    for case in VECTORS:
        seeds = [bytes.fromhex(s) for s in case["seeds"]]
        deck = namespace["deck_order"](bytes.fromhex(case["game_id"]), case["round"], seeds)
        assert deck == case["deck"]


def test_record_format_example_verifies() -> None:
    (example,) = re.findall(r"```json\n(.*?)```", RECORD_FORMAT, re.S)
    record = verify_document(json.loads(example))
    assert len(record.rounds) == 2 and not record.complete


def test_record_format_special_example_verifies() -> None:
    (example,) = re.findall(r"```json special\n(.*?)```", RECORD_FORMAT, re.S)
    record = verify_document(json.loads(example))
    (rnd,) = record.rounds
    assert record.complete and rnd.special and rnd.trump_card == 63 != rnd.turned_card
    assert [t.bombed for t in rnd.tricks] == [False, True]


def test_every_rule_code_is_documented() -> None:
    sources = "".join(
        Path(m.__file__).read_text()
        for m in (wizard_tui.record, wizard_tui.verify, wizard_tui.verify_special)  # type: ignore[arg-type]
    )
    codes = set(re.findall(r'(?:RecordError|fail)\(\s*"([a-z-]+)"', sources))
    codes |= set(wizard_tui.verify.RULE_OF_REASON.values())
    assert len(codes) > 20
    documented = set(re.findall(r"`([a-z]+(?:-[a-z]+)*)`", RECORD_FORMAT))
    assert codes <= documented, codes - documented
