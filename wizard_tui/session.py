"""The seam between a table (the Textual UI or a headless bot) and the game it plays in.

A ``TableSession`` delivers what the host says as typed updates and takes the
player's intents. The network client implements it for every game, solo games
included (they run the same host on loopback); tests may implement it in-process.
Intents never wait for the network: they are queued and answered by later updates
(an ``ActionRefused`` if the host said no).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

from .game import Event, SeatView, Suit
from .phrase import Phrase

SeatKind = Literal["human", "bot"]


@dataclass(frozen=True, slots=True)
class SeatInfo:
    name: str
    kind: SeatKind
    connected: bool = True
    # Seconds until a bot takes over a disconnected seat; None when not counting down.
    takeover_in: float | None = None


@dataclass(frozen=True, slots=True)
class LobbyUpdate:
    """Before the game: who sits where, and whether this player may start it."""

    seats: tuple[SeatInfo | None, ...]  # None = an empty seat
    my_seat: int | None
    addresses: tuple[str, ...]  # what friends should type to join (host only)
    port: int
    is_host: bool
    can_start: bool
    # The host's key fingerprint (XXXX-XXXX-XXXX-XXXX), as this client's handshake proved it:
    # players compare it with the host's screen. "" when unknown.
    fingerprint: str = ""
    # What the host's lobby can change: its bots' level ("" when the host did not say),
    # the restricted last bid (a RestrictLastBid value), and each seat's bot level.
    bot_level: str = ""
    restrict_last_bid: str = ""
    levels: tuple[str | None, ...] = ()
    # The house rules (docs/rules.md): hidden bids, the forehead round, and the length
    # (full, short, up-and-down, or a list of cards per round such as "1,2,4").
    hidden_bids: bool = False
    forehead: bool = False
    length: str = "full"
    # The special cards in play (docs/rules.md, "Special cards"): wire names in card order.
    specials: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class TableUpdate:
    """The game as this seat sees it now, and the events that led here since the last one."""

    view: SeatView
    seats: tuple[SeatInfo, ...]
    events: tuple[Event, ...] = ()
    # Hidden bids, while the bids are sealed: the seats that have sealed (ours included).
    sealed: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class ChatLine:
    seat: int | None  # None: a message from the host program itself (or from a watcher)
    name: str
    text: str
    watcher: bool = False  # a spectator's chat (join --watch): it holds no seat


@dataclass(frozen=True, slots=True)
class RoundVerified:
    """This client's own check of a finished round's deal (``docs/fairness.md``)."""

    round: int
    ok: bool
    detail: str  # what failed, naming the round; a short confirmation when ok
    # False: a round this client could not check, though nothing failed (a bot of the
    # host's played its seat while it was away); ``ok`` is then True.
    checked: bool = True
    # ``detail`` as a phrase, to show in the player's language (``detail`` is its English,
    # for the record and the logs); None for a detail made without one.
    said: Phrase | None = None

    @classmethod
    def of(cls, round: int, ok: bool, said: Phrase, checked: bool = True) -> RoundVerified:
        return cls(round, ok, said.english(), checked, said)


@dataclass(frozen=True, slots=True)
class ActionRefused:
    code: str  # a ``wizard_tui.game.Reason`` value or a protocol error code
    message: str


@dataclass(frozen=True, slots=True)
class LinkChanged:
    state: Literal["connected", "reconnecting", "closed"]
    detail: str = ""


@dataclass(frozen=True, slots=True)
class GameFinished:
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    record_path: str | None = None


SessionUpdate = (
    LobbyUpdate
    | TableUpdate
    | ChatLine
    | RoundVerified
    | ActionRefused
    | LinkChanged
    | GameFinished
)


class TableSession(Protocol):
    def updates(self) -> AsyncIterator[SessionUpdate]: ...

    def bid(self, bid: int) -> None: ...

    def play(self, card: int) -> None: ...

    def choose_trump(self, suit: Suit) -> None: ...

    # The special cards' intents (docs/rules.md, "Special cards"): the view's phase and its
    # ``legal_choices`` / ``legal_cards`` / ``swap_takes`` say which is asked.

    def name_trump(self, suit: Suit | None) -> None:
        """The Werewolf's holder names trump (None: no trump)."""
        ...

    def declare(self, choice: int) -> None:
        """What a played Juggler, Cloud or Shapeshifter is (a ``Declaration`` value)."""
        ...

    def adjust_bid(self, bid: int) -> None:
        """The Cloud's taker's new bid."""
        ...

    def pass_card(self, card: int) -> None:
        """The card passed to the left after a Juggler's trick."""
        ...

    def swap(self, give: int | None, take: int | None) -> None:
        """The Witch's swap: a hand card for a trick card, or both None to keep the hand."""
        ...

    def chat(self, text: str) -> None: ...

    def start_game(self) -> None:
        """Host only: start with the seats filled so far (bots fill the rest)."""
        ...

    def add_bot(self) -> None:
        """Host only: seat a bot in the lobby."""
        ...

    def remove_bot(self, seat: int) -> None:
        """Host only: take the bot in ``seat`` out of the lobby."""
        ...

    def lobby_settings(
        self,
        seats: int,
        bot_level: str,
        restrict_last_bid: str,
        *,
        hidden_bids: bool | None = None,
        forehead: bool | None = None,
        length: str | None = None,
        specials: Sequence[str] | None = None,
    ) -> None:
        """Host only: the table's seats (3-6), its bots' level and the last-bid rule, and
        the house rules (None: as they are; ``specials``: the special cards' wire names)."""
        ...

    def rematch(self) -> None: ...

    async def close(self) -> None: ...
