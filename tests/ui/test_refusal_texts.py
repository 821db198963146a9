"""The host's refusals with fields in them read in the player's language, field for field;
one we do not know shows the host's English."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from wizard_tui import i18n
from wizard_tui.session import ActionRefused
from wizard_tui.ui.refusals import refusal_text


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    i18n.setup("en")


def test_worded_refusals_keep_their_fields_in_the_language() -> None:
    seat = ActionRefused("not_your_seat", "you play seat 1, not seat 2")
    stale = ActionRefused("stale_round", "that was meant for round 3; this is round 4")
    assert refusal_text(seat) == "you play seat 1, not seat 2"
    i18n.setup("cs")
    assert refusal_text(seat) == "hraješ za místo 1, ne za místo 2"
    assert refusal_text(stale) == "to patřilo ke kolu 3; teď je kolo 4"
    i18n.setup("es")
    assert refusal_text(ActionRefused("not_ready", "4 players are seated: keep 4 seats")) == (
        "hay 4 jugadores sentados: deja 4 asientos"
    )
    # A count that differs in its two places is not our sentence: the host's English stays.
    odd = ActionRefused("not_ready", "4 players are seated: keep 5 seats")
    assert refusal_text(odd) == "4 players are seated: keep 5 seats"


def test_every_rule_refusal_code_has_a_sentence_in_every_language() -> None:
    """The engine's every reason (the special cards' and the forehead round's too) is said
    in the player's language, not left as the host's English."""
    from wizard_tui.game import Reason

    for reason in Reason:
        refused = ActionRefused(reason.value, "the host's English text")
        for code in ("cs", "de", "es", "it"):
            i18n.setup(code)
            said = refusal_text(refused)
            assert said != "the host's English text", (code, reason)
        i18n.setup("en")


def test_the_deal_s_refusals_are_read_as_our_sentences() -> None:
    """A lobby's settings or a rematch the table's deal cannot deal is refused with the
    host's English (net/deals): the player's program knows each such sentence, fields and
    all, so it shows it in the player's language, not in the host's English."""
    from wizard_tui.game.specials import Special
    from wizard_tui.net.deals import (
        DealKind,
        forehead_refusal,
        register_deal_kind,
        specials_refusal,
        unregister_deal_kind,
    )
    from wizard_tui.phrase import recognise
    from wizard_tui.ui.refusals import WORDED

    plain = DealKind("plain-test", "deals neither", host=object, seat=object)
    register_deal_kind(plain)
    try:
        said = [
            (forehead_refusal("plain-test"), "plain-test"),
            (specials_refusal("plain-test", {Special.BOMB}), "plain-test"),
            (specials_refusal("private", {Special.BOMB}, forehead=True), "private"),
        ]
    finally:
        unregister_deal_kind("plain-test")
    for text, deal in said:
        assert text is not None
        found = recognise(text, WORDED)
        assert found is not None, text
        assert dict(found.params) == {"deal": deal, "other": "commit-reveal"}, text
