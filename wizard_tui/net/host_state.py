"""What a Wizard host holds: its options, its seats and the game at its table. Plain data,
no I/O: the host core (``host.py``), the deal kinds' host halves and the restore path share
these types, and none of them imports another for them."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from netplay.sessions import Session

from ..bots import Bot
from ..game import Game, TableRules
from ..game.hidden import HiddenGame
from ..record import GameRecorder
from ..session import SeatInfo, SeatKind
from .journal_facts import COMMIT_REVEAL
from .sealed_round import SealedRound

DEFAULT_DEAL_STEP_TIMEOUT = 20.0  # seconds (HostOptions.deal_step_timeout)


@dataclass
class HostOptions:
    players: int = 4  # seats at the table when it starts by itself
    bots: int = 0  # bots seated from the start
    bot_level: str = "normal"
    # The house rules (docs/rules.md); their ``rounds`` are the length's, made for the
    # table's size when the game starts (``length``: full, short, up-and-down or a list).
    rules: TableRules = field(default_factory=TableRules)
    length: str = "full"
    records_dir: Path | None = None  # None: keep no records
    bot_delay: float = 0.0  # seconds a bot waits before acting, so people can follow
    auto_start: bool = True  # start when every seat is filled (headless hosting)
    addresses: tuple[str, ...] = ()  # what friends should type, shown in the lobby
    port: int = 0
    # Crash safety and takeover (docs/architecture.md): where each game's journal goes
    # (None: no journal), the seconds before a bot plays for a player who dropped (None:
    # never), and what the journal keeps so `host --resume` can listen the same way.
    journal_dir: Path | None = None
    takeover_after: float | None = None
    bind: str = ""
    password: bool = False  # the room has a password (the journal keeps only this)
    # How rounds are dealt: a deal kind's name (wizard_tui/net/deals/): "commit-reveal"
    # (docs/fairness.md: the host computes every hand) or "private" (docs/private-deal.md:
    # nobody, the host included, sees another's hand).
    deal: str = COMMIT_REVEAL
    # The private deal: seconds a connected player's program has to send a deal message it
    # owes (its pass, key release or reveal) before the host disconnects it (`deal_timeout`)
    # and treats the seat like one that left (None: wait forever). Bids and plays are people's
    # and never time out.
    deal_step_timeout: float | None = DEFAULT_DEAL_STEP_TIMEOUT
    # Seconds a connected person on turn has to decide before a bot decides for the seat and
    # it is marked away (turn_time.py; None: no limit).
    turn_time: float | None = None
    # Spectators may watch (watchers.py; `host --no-watchers` turns them away).
    watchers: bool = True


@dataclass
class Seat:
    name: str
    kind: str  # "human" | "bot"
    session: Session | None = None
    bot: Bot | None = None
    level: str | None = None  # a bot's level, for the journal
    stand_in: Bot | None = None  # a bot playing for this human seat while its player is away
    takeover_at: float | None = None  # clock time a bot takes this seat over, when counting
    signing_key: bytes | None = None  # a player's Ed25519 public key (the private deal)
    away: bool = False  # its player let the turn time run out: a bot decides (turn_time.py)
    turn_at: float | None = None  # clock time its turn time runs out, while it counts
    # The private deal: the seat voided too many deals, and a bot plays it for the rest of
    # the game (private_host.py, docs/rules.md "Voided deals"); its player watches.
    forfeited: bool = False

    @property
    def player_bot(self) -> Bot | None:
        """The bot that decides for this seat now, if any."""
        return self.bot or self.stand_in

    @property
    def connected(self) -> bool:
        return self.kind == "bot" or (self.session is not None and self.session.connected)

    @property
    def host_deals(self) -> bool:
        """The host does this seat's part of the deal (draws its seed): a bot's, or one a
        bot holds for a player who left. An away player's program is connected and still
        does its own (turn_time.py)."""
        return self.bot is not None or (self.stand_in is not None and not self.away)

    def info(self, now: float | None = None) -> SeatInfo:
        takeover_in = None  # 0: a bot plays the seat now
        if self.stand_in is not None or self.away:
            takeover_in = 0.0
        elif self.takeover_at is not None and now is not None:
            takeover_in = round(max(0.0, self.takeover_at - now), 1)
        elif self.turn_at is not None and now is not None:  # the turn time of the seat on turn
            takeover_in = round(max(0.0, self.turn_at - now), 1)
        kind: SeatKind = "bot" if self.kind == "bot" else "human"
        return SeatInfo(self.name, kind, self.connected, takeover_in)


@dataclass
class Table:
    """One game at the table: created at start (or rebuilt from a journal), replaced by a
    rematch. The deal in progress is the deal kind's host half's, not the table's."""

    game: Game | HiddenGame
    game_id: bytes
    recorder: GameRecorder
    finished: bool = False
    record_path: Path | None = None
    history_wire: list[dict[str, Any]] = field(default_factory=list)
    created: float = 0.0  # unix time the game started
    over_msg: dict[str, Any] | None = None  # the game_over message, once it is over
    sealing: SealedRound | None = None  # hidden bids: the round's seals (sealed_bids.py)


def queried(game: Game | HiddenGame) -> Game:
    """The table's game for what reads a ``Game`` (views, the wire form): a ``HiddenGame``
    offers ``Game``'s whole query interface (game/hidden.py), with every hand empty."""
    return cast(Game, game)


__all__ = ["DEFAULT_DEAL_STEP_TIMEOUT", "HostOptions", "Seat", "Table", "queried"]
