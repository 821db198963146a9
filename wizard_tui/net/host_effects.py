"""The host's inputs and the effects a step of it has, as values.

``HostCore.handle(input, now)`` (``host.py``) takes one input (a player joined, a message
came, a link dropped or came back, a timer ran out, a bot decided, a restored host carries
on, the host stops) at time ``now`` and returns what the step journals (the entries of the
facts it accepted: ``journal_facts.py``), which record it writes, what it sends, and the
timers it starts or cancels and the bot it asks, in order. The adapter (``host_adapter.py``:
``WizardHost``, the netplay ``App``) runs ``handle`` and runs its effects (``run_effects``):
the journal's first, then the record, the sends, and the timers and bots last (on the
``HostRuntime``), so journal-before-send holds by construction; a test asserts on them
(``tests/net/test_host_core.py``).

Within a step, one transition may lead to another (the last card is played: the round is
scored, the next one dealt). The core does not call itself for that: it queues a follow-up
input (``Changed``, ``LobbyChanged``, ``BotsMove``) and handles each in turn, one at a time,
before the step ends; the step's effects are those of all of them, in order.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeAlias

from netplay.sessions import Session

from ..bots import Bot
from ..game import Event, SeatView
from ..game.codec import PlayerAction
from ..record import GameRecord


@dataclass(frozen=True, slots=True)
class Joined:
    session: Session
    hello: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Received:
    session: Session
    msg: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Left:
    session: Session


@dataclass(frozen=True, slots=True)
class Resumed:
    session: Session


@dataclass(frozen=True, slots=True)
class TimerFired:
    """The timer ``key`` a step started (``StartTimer``) ran out."""

    key: Any


@dataclass(frozen=True, slots=True)
class BotDecided:
    """The answer to an ``AskBot``: the bot's ``action`` for ``seat`` at ``position`` (the
    first legal move if it ``failed``)."""

    seat: int
    position: int
    action: PlayerAction
    failed: bool = False


@dataclass(frozen=True, slots=True)
class Restored:
    """A host rebuilt from its journal (``from_replay``) carries on, once its server listens:
    the takeover countdowns of its players start, and the game goes on from where the
    journal ends (the deal half's ``resume``)."""


@dataclass(frozen=True, slots=True)
class JournalLost:
    """The adapter could not open or write the journal: the core journals no more facts (the
    game goes on, and cannot be resumed after a crash)."""


@dataclass(frozen=True, slots=True)
class Stopped:
    """The host closes: the core drops its timers and any bot decision it waits for."""


HostInput: TypeAlias = (
    Joined | Received | Left | Resumed | TimerFired | BotDecided | Restored | JournalLost | Stopped
)


# -- follow-up inputs: queued by a step for itself, handled before it ends ------------------


@dataclass(frozen=True, slots=True)
class Changed:
    """The game moved (``HostPort.changed``): every seat hears of ``events``, a round or the
    game ends, the next round is dealt, bots move."""

    events: tuple[Event, ...]


@dataclass(frozen=True, slots=True)
class LobbyChanged:
    """A lobby seat changed (``HostPort.lobby_changed``): the lobby is sent, and the game
    starts if the table is ready."""


@dataclass(frozen=True, slots=True)
class BotsMove:
    """A bot may decide for the seat on turn (``HostPort.bots_move``, or after a change)."""


FollowUp: TypeAlias = Changed | LobbyChanged | BotsMove


@dataclass(frozen=True, slots=True)
class Welcome:
    """The answer to a join (netplay sends it as the join's reply)."""

    session: Session
    reply: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Send:
    session: Session
    msg: dict[str, Any]


@dataclass(frozen=True, slots=True)
class SendPayload:
    """A message already encoded (the per-seat ``state`` messages, encoded in one go)."""

    session: Session
    payload: bytes


@dataclass(frozen=True, slots=True)
class Broadcast:
    msg: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Disconnect:
    """A fatal error: the session's connection ends with ``code``."""

    session: Session
    code: str
    message: str


@dataclass(frozen=True, slots=True)
class Forget:
    """The server forgets the session (its seat was freed)."""

    session: Session


@dataclass(frozen=True, slots=True)
class OpenJournal:
    """A new game's journal, at ``path``, holding its ``game`` entry."""

    path: Path
    header: dict[str, Any]


@dataclass(frozen=True, slots=True)
class Journal:
    """One fact's entry (``journal_facts``), appended and forced to the disk."""

    entry: dict[str, Any]


@dataclass(frozen=True, slots=True)
class CloseJournal:
    """The game's journal is complete (a rematch): ``last`` is its ``game_over``, if over."""

    last: dict[str, Any] | None


@dataclass(frozen=True, slots=True)
class WriteRecord:
    """The game's record as it stands, written atomically to ``path`` (run after the step's
    journal entries, before its sends: a ``game_over`` names a record already there)."""

    path: Path
    record: GameRecord


@dataclass(frozen=True, slots=True)
class StartTimer:
    """In ``delay`` seconds, a ``TimerFired(key)`` input (0: once this step is done). A
    timer of the same key still running is replaced."""

    key: Any
    delay: float


@dataclass(frozen=True, slots=True)
class CancelTimer:
    key: Any


@dataclass(frozen=True, slots=True)
class AskBot:
    """Let ``bot`` think about ``view`` (off the event loop): a ``BotDecided`` input for
    ``seat`` at ``position`` comes back. One bot thinks at a time: a new ask replaces it."""

    seat: int
    bot: Bot
    view: SeatView
    position: int


@dataclass(frozen=True, slots=True)
class CancelBot:
    """The bot's thinking (the last ``AskBot``) is thrown away: no answer comes back."""


@dataclass(frozen=True, slots=True)
class GameStarted:
    """A game (or a rematch) began: the host is not finished."""


@dataclass(frozen=True, slots=True)
class GameFinished:
    """The game is over, or given up (``HostCore.failed`` says why): whoever waits for the
    host's end (the adapter's ``finished``, ``on_game_over``) hears of it, after the sends."""


JournalEffect: TypeAlias = OpenJournal | Journal | CloseJournal
TimingEffect: TypeAlias = StartTimer | CancelTimer | AskBot | CancelBot
Effect: TypeAlias = (
    Welcome
    | Send
    | SendPayload
    | Broadcast
    | Disconnect
    | Forget
    | JournalEffect
    | WriteRecord
    | TimingEffect
    | GameStarted
    | GameFinished
)

__all__ = [
    "AskBot",
    "BotDecided",
    "BotsMove",
    "Broadcast",
    "CancelBot",
    "CancelTimer",
    "Changed",
    "CloseJournal",
    "Disconnect",
    "Effect",
    "FollowUp",
    "Forget",
    "GameFinished",
    "GameStarted",
    "HostInput",
    "Joined",
    "Journal",
    "JournalEffect",
    "JournalLost",
    "Left",
    "LobbyChanged",
    "OpenJournal",
    "Received",
    "Restored",
    "Resumed",
    "Send",
    "SendPayload",
    "StartTimer",
    "Stopped",
    "TimerFired",
    "TimingEffect",
    "Welcome",
    "WriteRecord",
]
