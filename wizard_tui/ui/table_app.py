"""What the screens and widgets of a table read of the app they run in: the server's view,
as the last updates told it, in reactives they watch.

``WizardApp`` (``app.py``) is the one app, and it imports the screens; the screens name this
base class for the type of their ``app`` instead, so no import runs in a circle.
"""

from __future__ import annotations

from textual.app import App
from textual.reactive import var

from ..session import ActionRefused, GameFinished, LobbyUpdate, RoundVerified, TableUpdate
from . import narrate
from .glyphs import Glyphs


class TableApp(App[int]):
    """The state of ``WizardApp`` that its screens watch, and the two things they ask of it."""

    # The server's view, as the last updates told it. Screens watch these.
    lobby: var[LobbyUpdate | None] = var(None)
    table: var[TableUpdate | None] = var(None)
    finished: var[GameFinished | None] = var(None)
    link: var[str] = var("connected")
    link_detail: var[str] = var("")
    alarm: var[str] = var("")  # the latest failed verification, for the banner
    ended: var[str | None] = var(None)  # set once the session's stream has stopped
    verifications: var[tuple[RoundVerified, ...]] = var(())
    refusal: var[ActionRefused | None] = var(None, always_update=True)
    journal: var[tuple[tuple[int, narrate.Line], ...]] = var(())
    too_small: var[bool] = var(False)  # below MIN_SIZE: every screen says so instead

    glyphs: Glyphs  # the card and box glyphs (ASCII or not), set by ``WizardApp``

    @property
    def checks(self) -> dict[int, bool]:
        """Each checked round's outcome (True: the deal checked out). A round this client
        could not check (played by a stand-in while it was away) has no entry, so the
        score pad marks it neither way."""
        return {v.round: v.ok for v in self.verifications if v.checked}

    def action_chat(self) -> None:
        """Open the chat line (``WizardApp`` does)."""
        raise NotImplementedError
