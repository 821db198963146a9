"""Messages that carry data into the UI (from the session) and intents up to the App.

Down: the App's network worker posts one ``SessionMessage`` per update the session
yields. Up: screens post an ``Intent`` and only the App talks to the session, so no
widget or screen holds the session and no handler waits on the network.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

from ..game import Suit
from ..session import (
    ActionRefused,
    ChatLine,
    GameFinished,
    LinkChanged,
    LobbyUpdate,
    RoundVerified,
    SessionUpdate,
    TableUpdate,
)

# ------------------------------------------------------------------ session -> UI


class SessionMessage(Message):
    """One update from the session, posted by the App's network worker."""

    def __init__(self, update: SessionUpdate) -> None:
        super().__init__()
        self.update = update


class LobbyChanged(SessionMessage):
    update: LobbyUpdate


class TableChanged(SessionMessage):
    update: TableUpdate


class ChatReceived(SessionMessage):
    update: ChatLine


class RoundChecked(SessionMessage):
    update: RoundVerified


class Refused(SessionMessage):
    update: ActionRefused


class LinkStateChanged(SessionMessage):
    update: LinkChanged


class GameEnded(SessionMessage):
    update: GameFinished


MESSAGE_FOR: dict[type, type[SessionMessage]] = {
    LobbyUpdate: LobbyChanged,
    TableUpdate: TableChanged,
    ChatLine: ChatReceived,
    RoundVerified: RoundChecked,
    ActionRefused: Refused,
    LinkChanged: LinkStateChanged,
    GameFinished: GameEnded,
}


@dataclass
class SessionEnded(Message):
    """The session's update stream stopped: it ended (``error`` None) or failed."""

    error: str | None = None


# ------------------------------------------------------------------ UI -> App (intents)


class Intent(Message):
    """Something this player asks of the table; the App hands it to the session."""


@dataclass
class PlayCard(Intent):
    card: int


@dataclass
class MakeBid(Intent):
    bid: int


@dataclass
class PickTrump(Intent):
    suit: Suit


# The special cards (docs/rules.md): the session's intents of the same names.


@dataclass
class NameTrumpIntent(Intent):
    """The Werewolf's holder names trump (None: no trump)."""

    suit: Suit | None


@dataclass
class DeclareIntent(Intent):
    """A Juggler's or Cloud's suit, a Shapeshifter's form (a ``Declaration`` value)."""

    choice: int


@dataclass
class AdjustBidIntent(Intent):
    """The Cloud: this seat's new bid."""

    bid: int


@dataclass
class PassCardIntent(Intent):
    """The Juggler: the card passed to the left."""

    card: int


@dataclass
class SwapIntent(Intent):
    """The Witch: give a hand card and take a trick card (both None: keep the hand)."""

    give: int | None
    take: int | None


@dataclass
class SendChat(Intent):
    text: str


class StartGame(Intent):
    pass


class AddBot(Intent):
    pass


@dataclass
class RemoveBot(Intent):
    seat: int


@dataclass
class ChangeTable(Intent):
    """The host's lobby: seats (3-6), the bots' level, the last-bid rule and the house
    rules (docs/rules.md; None: as they are), all at once."""

    seats: int
    bot_level: str
    restrict_last_bid: str
    hidden_bids: bool | None = None
    forehead: bool | None = None
    length: str | None = None  # full, short, up-and-down, or cards per round: "1,2,4"
    specials: tuple[str, ...] | None = None  # the special cards' wire names (docs/rules.md)


class AskRematch(Intent):
    pass
