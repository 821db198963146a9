"""A failed round check on the table, in the player's language: the banner and the log say
what failed translated, with its fields, while the detail kept for the record is English."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from wizard_tui import i18n
from wizard_tui.i18n import N_
from wizard_tui.phrase import in_round, phrase
from wizard_tui.session import RoundVerified
from wizard_tui.ui import WizardApp
from wizard_tui.ui.widgets.banner import Banner

from .helpers import until
from .sessions import LocalSession
from .test_ui_play import SIZE, journal_text

FAILED = RoundVerified.of(
    1,
    False,
    in_round(1, phrase(N_("the seed of seat {seat} does not match its commitment"), seat=2)),
)


@pytest.fixture
def speak() -> Iterator[None]:
    yield
    i18n.setup("en")


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("cs", "POPLACH, kolo 1: semínko místa 2 neodpovídá jeho závazku"),
        ("de", "ALARM, Runde 1: der Seed von Platz 2 passt nicht zu seinem Commitment"),
    ],
)
async def test_a_failed_check_is_shown_translated(lang: str, said: str, speak: None) -> None:
    i18n.setup(lang)
    session = LocalSession(3, seed=2)
    app = WizardApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.table is not None)
        session.push(FAILED)
        banner = app.screen_stack[1].query_one(Banner)
        await until(pilot, lambda: not banner.has_class("-hidden"))
        assert said.split(": ", 1)[1] in str(banner.render())
        assert said in journal_text(app)
    assert FAILED.detail == "round 1: the seed of seat 2 does not match its commitment"


# A private deal's void as a seat's program notes it (deals/private/seat.py): the host's
# reason, read back into our templates, in the round's note.
VOID_REASON = (
    "seat 1 stopped the round: its check found wrong_claim, blaming seat 2 after every card "
    "was played"
)


@pytest.mark.parametrize("lang", [code for code in i18n.LANGUAGES if code != "en"])
async def test_a_void_reason_is_shown_translated_and_uncut(lang: str, speak: None) -> None:
    from wizard_tui.net.link_texts import announcement_text
    from wizard_tui.session import ChatLine

    from .test_ui_languages import problems

    i18n.setup(lang)
    note = i18n._("round {round} is void: {reason}").format(
        round=2, reason=announcement_text(VOID_REASON)
    )
    assert "seat" not in note and "blaming" not in note, note
    session = LocalSession(3, seed=2)
    app = WizardApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.table is not None)
        session.push(ChatLine(None, "host", note))
        await until(pilot, lambda: note in journal_text(app))
        await pilot.pause()
        assert problems(app) == []
