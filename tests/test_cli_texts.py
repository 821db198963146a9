"""The CLI's own lines in the player's language: a bad address, a game id that matches
nothing, verify's summary of a good record; in English, exactly the lines they always were."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from wizard_tui import i18n
from wizard_tui.cli import main
from wizard_tui.verify import verify_path

RECORDS = Path(__file__).parent / "vectors" / "records"


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    i18n.setup("en")


def test_a_bad_port_is_said_in_the_language(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--lang", "cs", "join", "x:abc"]) == 2
    assert capsys.readouterr().err.strip() == "wizard-tui: není číslo portu: 'abc'"
    assert main(["--lang", "en", "join", ":7777"]) == 2
    assert capsys.readouterr().err.strip() == "wizard-tui: no host in ':7777'"


def test_verify_summary_in_the_language_and_its_english_unchanged() -> None:
    extras = RECORDS / "good-with-extras-4p.json"
    i18n.setup("en")
    english = verify_path(extras).line()
    assert english.endswith(
        "(15 rounds, winners: random-0 (seat 0); recorded: 1 redeal, "
        "1 verification failure reported during play)"
    )
    i18n.setup("cs")
    assert verify_path(extras).line() == english.replace(
        "(15 rounds, winners: random-0 (seat 0); recorded: 1 redeal, "
        "1 verification failure reported during play)",
        "(15 kol, vítězové: random-0 (místo 0); zaznamenáno: 1 nové rozdání, "
        "1 selhání ověření hlášené během hry)",
    )
    i18n.setup("it")
    stopped = verify_path(RECORDS / "good-independent-3p-stopped.json").line()
    assert stopped.endswith("(6 round, incompleta: fermata prima del round 7 di 20)")
