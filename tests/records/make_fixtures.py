"""Regenerate the record fixtures in ``tests/vectors/records/``.

    .venv/bin/python -m tests.records.make_fixtures

Good records (from ``simulate``, from the independent writer, a stopped game, one with the
extra fields), tampered ones, and ``expected.json``: what ``wizard-tui verify`` must say of
each. They are test vectors for other verifiers too; regenerate only on purpose.
"""

from __future__ import annotations

import json
from pathlib import Path

from wizard_tui.record import dumps_record
from wizard_tui.verify import verify_path

from . import helpers as h

OUT = Path(__file__).parents[1] / "vectors" / "records"


def _docs() -> dict[str, dict | str]:
    docs: dict[str, dict | str] = {
        "good-simulated-4p.json": h.sim_doc(4, "never", seed=11),
        "good-independent-5p-always.json": h.indie_doc(5, "always", seed=11),
        "good-independent-3p-stopped.json": h.indie_doc(3, "after-round-1", seed=11, rounds=6),
    }
    extras = h.sim_doc(4, "after-round-1", seed=12)
    first = extras["rounds"][0]
    extras["redeals"] = [
        {
            "round": 1,
            "attempt": 1,
            "reason": "seat 2 disconnected before revealing its seed",
            "commitments": first["commitments"],
            "seeds": [first["seeds"][0], first["seeds"][1], None, first["seeds"][3]],
        }
    ]
    extras["verification_failures"] = [
        {"round": 3, "seat": 1, "detail": "round 3: the trump card differs from the one shown"}
    ]
    docs["good-with-extras-4p.json"] = extras
    for name, tamper in [
        ("bad-commitment.json", h.tamper_commitment),
        ("bad-hand.json", h.tamper_swap_hand_cards),
        ("bad-revoke.json", h.tamper_revoke),
        ("bad-trick-winner.json", h.tamper_trick_winner),
        ("bad-totals.json", h.tamper_totals),
        ("bad-winners.json", h.tamper_winners),
        ("bad-complete.json", h.tamper_complete_too_few_rounds),
    ]:
        doc = h.sim_doc(6, "never", seed=11)
        tamper(doc)
        docs[name] = doc
    doc = h.indie_doc(5, "always", seed=11)
    h.tamper_forbidden_last_bid(doc)
    docs["bad-forbidden-last-bid.json"] = doc
    text = dumps_record(h.sim_doc(6, "never", seed=11))
    docs["bad-truncated.json"] = text[: len(text) // 3]
    return docs


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    expected = {}
    for name, doc in _docs().items():
        path = OUT / name
        text = doc if isinstance(doc, str) else dumps_record(doc)
        path.write_text(text, encoding="utf-8")
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
