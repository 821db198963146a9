"""Regenerate the special-card record fixtures in ``tests/vectors/records/specials/``.

    .venv/bin/python -m tests.records.make_special_fixtures

Records of games with special cards (docs/record-format.md, "Games with special cards"),
played by the engine with random legal actions: good ones, a tampered one for each card, and
``expected.json``: what ``wizard-tui verify`` must say of each. Test vectors for other
verifiers too; regenerate only on purpose (the plain fixtures beside them stay as they are).
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

from wizard_tui.record import dumps_record
from wizard_tui.verify import verify_path

from . import test_special_records as t
from .special_games import special_doc

OUT = Path(__file__).parents[1] / "vectors" / "records" / "specials"


def _docs() -> dict[str, dict]:
    docs = {
        "good-3p-all-nine.json": special_doc(3, "all", 2),
        "good-4p-all-nine.json": special_doc(4, "all", 2),
        "good-3p-dragon-fairy-bomb.json": special_doc(3, "dragon,fairy,bomb", 2),
    }
    for name, tamper in t.TAMPERS.items():
        docs[f"bad-{name}.json"] = t.tampered(tamper)
    doc = copy.deepcopy(special_doc(3, "all", 2))
    doc["rounds"][1]["actions"].pop()
    docs["bad-actions-missing.json"] = doc
    return docs


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    expected = {}
    for name, doc in _docs().items():
        path = OUT / name
        path.write_text(dumps_record(doc), encoding="utf-8")
        verdict = verify_path(path)
        f = verdict.failure
        expected[name] = {
            "ok": verdict.ok,
            "line": verdict.line().replace(str(path), "{file}", 1),
            "rule": None if f is None else f.rule,
            "round": None if f is None else f.round,
            "trick": None if f is None else f.trick,
            "seat": None if f is None else f.seat,
        }
    (OUT / "expected.json").write_text(json.dumps(expected, indent=1) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
