"""``TableSession`` names every intent the table sends, and each session takes them as the
protocol says (mypy checks the UI's calls against the protocol; this checks the sessions)."""

from __future__ import annotations

import inspect

import pytest

from wizard_tui.net.client import NetworkSession
from wizard_tui.session import TableSession

from .sessions import LocalSession, StaticSession

SPECIAL_INTENTS = ("name_trump", "declare", "adjust_bid", "pass_card", "swap")


def _intents() -> list[str]:
    return [
        name
        for name, member in vars(TableSession).items()
        if inspect.isfunction(member) and not name.startswith("_")
    ]


def test_the_protocol_has_the_special_cards_intents() -> None:
    assert set(SPECIAL_INTENTS) <= set(_intents())


@pytest.mark.parametrize("session", [NetworkSession, StaticSession, LocalSession])
@pytest.mark.parametrize("intent", _intents())
def test_each_session_takes_the_intent_as_the_protocol_says(session: type, intent: str) -> None:
    wanted = inspect.signature(getattr(TableSession, intent)).parameters
    given = inspect.signature(getattr(session, intent)).parameters
    for name, param in wanted.items():
        assert name in given, (session.__name__, intent, name)
        assert given[name].kind == param.kind, (session.__name__, intent, name)
    # Anything more the session takes must be optional (the table never passes it).
    for name, param in given.items():
        if name not in wanted:
            assert param.default is not inspect.Parameter.empty, (session.__name__, intent, name)
