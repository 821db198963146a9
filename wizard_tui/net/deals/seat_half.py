"""The seat half of a deal kind: a player's part in how each round's cards reach the seats.

A ``NetworkSession`` (``wizard_tui/net/client.py``) keeps the link, the dispatch of the
host's messages, the player's intents and records; everything that depends on the kind of
deal the host's ``game`` message names is one ``SeatHalf``, made by that kind's ``seat``
(``DealKind``, ``find_deal_kind``). A half sees its session only through a ``SeatPort``: the
game's facts, the round's evidence (``RoundViews``), the player's own record, and four
things it may do (send, note, report a check, show a view). It never sees the session.

Every hook but the round's three (``round``, ``round_end``, ``missed_round``) has a default
that does nothing, so a new kind writes only what it changes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from netplay.signing import SigningKey

from ...game import GameConfig, RoundResult, SeatView
from ...game.codec import PlayerAction
from ...record import GameRecorder, PlayerEntry
from ...session import RoundVerified
from ..own_record import OwnRecord
from ..round_check import RoundChecker, RoundViews


class SecretKeeper(Protocol):
    """Where a seat keeps a round's secret so that a restarted program can carry on
    (``deals/private/round_secrets.py``: ``SecretStore``)."""

    def save(self, game_id: bytes, round_number: int, attempt: int, secret: bytes) -> None: ...

    def load(self, game_id: bytes, round_number: int, attempt: int) -> bytes | None: ...

    def delete(self, game_id: bytes, round_number: int, attempt: int) -> None: ...

    def prune(self, keep: tuple[bytes, int, int] | None = None) -> int: ...


@dataclass
class SeatSettings:
    """What the player brings to every deal, whatever its kind."""

    new_seed: Callable[[], bytes]  # a commit-reveal seed (netplay.fairdeal.new_seed)
    signing_key: SigningKey  # signs this seat's envelopes (persistent: wizard_tui.net.keys)
    secrets: SecretKeeper | None = None  # None: round secrets live in memory only


class SeatPort(Protocol):
    """All a seat half may use of its session."""

    @property
    def settings(self) -> SeatSettings: ...

    @property
    def seat(self) -> int | None: ...

    @property
    def game_id(self) -> bytes | None: ...

    @property
    def config(self) -> GameConfig | None: ...

    @property
    def checker(self) -> RoundChecker | None:
        """The replica that checks each round (None before a game, or without a seat)."""
        ...

    @property
    def own(self) -> OwnRecord | None:
        """This player's own record of the game (None without a seat)."""
        ...

    @property
    def views(self) -> RoundViews:
        """The views of each round this seat was shown: the evidence a check compares."""
        ...

    @property
    def shown(self) -> SeatView | None:
        """The view the table shows now."""
        ...

    def send(self, msg: dict[str, Any]) -> None:
        """A message to the host (queued, never awaited)."""
        ...

    def note(self, name: str, text: str) -> None:
        """A line for the player from this program (a ``ChatLine`` of seat None)."""
        ...

    def verified(self, result: RoundVerified) -> None:
        """This seat's check of a round: kept, shown, and a failure recorded."""
        ...

    def show(self, view: SeatView) -> None:
        """The table shows ``view`` from now on (with the seats as last told)."""
        ...


class SeatHalf:
    """A deal kind's part in one player's session; see the module docstring."""

    # The host's messages of this kind (beyond ``round``), handed to ``on_message``.
    messages: ClassVar[frozenset[str]] = frozenset()
    # Only this program knows the hand: it decides for its player while the seat is away
    # (``away_player.py``); else the host's stand-in does.
    plays_for_away_player: ClassVar[bool] = False

    def __init__(self, port: SeatPort) -> None:
        self.port = port

    # -- the round's three: every kind has them ---------------------------------------------

    def round(self, msg: dict[str, Any]) -> None:
        """The host announced a round (its number already checked): take part in its deal."""
        raise NotImplementedError(f"{type(self).__name__} must take part in a round")

    def round_end(self, result: RoundResult, seeds: list[bytes], msg: dict[str, Any]) -> None:
        """A round ended (``round_end``; ``result`` is in the history already): check it."""
        raise NotImplementedError(f"{type(self).__name__} must check a round")

    def missed_round(
        self, result: RoundResult, seeds: list[bytes], wire: dict[str, Any], earlier: bool
    ) -> None:
        """A round that ended while the link was down (a snapshot's history). ``earlier``:
        an earlier run of this program checked it and recorded it."""
        raise NotImplementedError(f"{type(self).__name__} must check a missed round")

    # -- optional hooks ------------------------------------------------------------------------

    def lobby(self) -> None:
        """The lobby of a game dealt this way (sent more than once)."""

    def game(self, msg: dict[str, Any]) -> None:
        """A new game (``game``): forget the last one's deals, read what this kind adds."""

    def recorder(
        self, game_id: bytes, players: list[PlayerEntry], config: GameConfig
    ) -> GameRecorder:
        """The recorder of this player's own record of the game."""
        return GameRecorder(game_id, players, config)

    def started(self) -> None:
        """The game's checker and record exist now (right after ``game``)."""

    def snapshot(self, deal: Any) -> None:
        """After a resume: the snapshot's ``deal`` (unchecked wire), after its view."""

    def on_message(self, msg: dict[str, Any]) -> None:
        """One of ``messages``."""

    def followed(self, events: Sequence[object]) -> None:
        """The events of a ``state`` from the host, in order (what was done since the last)."""

    def view_for_table(self, view: SeatView) -> SeatView:
        """The host's view as the table and the bots should see it."""
        return view

    def play_fields(self, card: int) -> dict[str, Any] | None:
        """What goes with the play of ``card``; None: it cannot be played."""
        return {}

    def special_fields(self, action: PlayerAction) -> dict[str, Any] | None:
        """What goes with a special card's decision (the private deal: the show of the card
        a Witch's swap gives); None: it cannot be made."""
        return {}

    def after_play(self) -> None:
        """The play (or a special card's decision) just went out."""

    def send_decision(self, action: PlayerAction) -> bool:
        """True: this kind sent the special card's decision ``action`` itself (the private
        deal's Juggler's pass is a give, a deal message); False: the session sends it."""
        return False

    @property
    def voided_attempts(self) -> int:
        """How many deals of this game were voided so far (a decision's position moves on)."""
        return 0

    @property
    def bid_attempt(self) -> int:
        """The attempt of the round being bid now (hidden bids seal it): 0 unless the kind
        deals a round again after its bids (the private deal)."""
        return 0


__all__ = ["SeatHalf", "SeatPort", "SeatSettings", "SecretKeeper"]
