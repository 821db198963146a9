"""Rebuilding a host's table from its journal, exactly as it was when the host died.

The host writes one journal fact (``journal_facts.py``: the schema) for every event it
accepts, before it tells anyone about it. ``replay`` reads them back and applies each one
through the deal kind's host half (``deals/``), the very ``apply`` the live host used when
it accepted it: nothing of the host's transitions is re-implemented here. The result is the
table (game, record, history) and the half itself (the round in progress: commitments and
seeds in, the host's own seeds; or the private attempt the crash cut off), which
``WizardHost.from_journal`` carries on with.

The deck itself is never journaled: once every seed of a round is in, it follows from them
(``docs/fairness.md``), and the replay deals it the same way the host did. A privately dealt
round's plays are not journaled one by one: nobody but the players holds the keys of a round
in progress, so a restored host voids that round and deals it again (``lost_keys``).
``replay`` is pure (no I/O).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from netplay.commit_reveal import CommitRevealError
from netplay.errors import ProtocolError
from netplay.signing import SigningKey

from ..game import Game, GameConfig, IllegalAction
from ..game.hidden import HiddenGame, Revoke
from ..record import GameRecorder
from .deals import deal_names, find_deal_kind
from .deals.host_half import DealHostHalf
from .host_state import HostOptions, Seat, Table
from .journal import JournalContents, read_journal
from .journal_facts import (
    COMMIT_REVEAL,
    VERSION,
    BidOpened,
    BidSealed,
    FactError,
    GameEnded,
    GameHeader,
    SeatEntry,
    parse_fact,
)
from .sealed_bids import apply_sealed_fact


class RestoreError(Exception):
    """A journal that does not replay: damaged beyond its last entry, or not this version."""


@dataclass
class Replayed:
    """Everything the journal says about a game, rebuilt by applying its facts."""

    header: GameHeader
    table: Table
    half: DealHostHalf  # the deal kind's host half that applied them, as it now stands

    @property
    def game(self) -> Game | HiddenGame:
        return self.table.game

    @property
    def recorder(self) -> GameRecorder:
        return self.table.recorder

    @property
    def history_wire(self) -> list[dict[str, Any]]:
        return self.table.history_wire

    @property
    def finished(self) -> bool:
        """A ``game_over`` fact was written."""
        return self.table.finished


# --------------------------------------------------------------------------- writing


def game_entry(
    game_id: bytes,
    created: float,
    config: GameConfig,
    seats: Sequence[Seat],
    options: HostOptions,
    bot_levels: Sequence[str | None],
    signing_keys: Sequence[bytes] = (),
    bot_signers: dict[int, SigningKey] | None = None,
) -> dict[str, Any]:
    """The first entry of a journal, as a map (``GameHeader.to_wire``): who sits where, and
    how their clients resume; for a private deal, every seat's signing key and the host
    bots' private keys (the host's own secrets, like its identity key)."""
    entries = []
    for seat, level in zip(seats, bot_levels, strict=True):
        session = seat.session
        entries.append(
            SeatEntry(
                seat.name,
                seat.kind,
                level=(level or options.bot_level) if seat.kind == "bot" else None,
                session_id=session.id if session is not None else None,
                token=session.token if session is not None else None,
                key=session.key if session is not None and session.key else b"",
            )
        )
    header = GameHeader(
        game_id=game_id,
        created=created,
        config=config,
        seats=tuple(entries),
        bind=options.bind,
        port=options.port,
        records_dir=None if options.records_dir is None else str(options.records_dir),
        bot_level=options.bot_level,
        bot_delay=options.bot_delay,
        takeover_after=options.takeover_after,
        password=options.password,
        turn_time=options.turn_time,
    )
    keys = {i: k.private_bytes() for i, k in (bot_signers or {}).items()}
    header = replace(header, deal=options.deal, signing_keys=tuple(signing_keys), bot_keys=keys)
    return header.to_wire()


# --------------------------------------------------------------------------- reading


def parse_header(entry: dict[str, Any]) -> GameHeader:
    """The ``game`` entry as a ``GameHeader``; ``RestoreError`` if it is not one."""
    try:
        if entry["t"] != "game":
            raise RestoreError("the journal does not start with its game")
        if entry["v"] != VERSION:
            raise RestoreError(f"journal version {entry['v']} (this program reads {VERSION})")
        header = GameHeader.from_wire(entry)
    except (KeyError, TypeError, ValueError) as exc:
        raise RestoreError(f"the journal's game entry is malformed: {exc!r}") from None
    if header.deal not in deal_names():
        raise RestoreError(f"the journal's deal {header.deal!r} is unknown")
    return header


def replay(entries: Sequence[dict[str, Any]]) -> Replayed:
    """Rebuild the game the entries describe by applying each fact as the host did when it
    accepted it (the same code), which checks it against the engine and the deal."""
    if not entries:
        raise RestoreError("the journal is empty")
    header = parse_header(entries[0])
    half = find_deal_kind(header.deal).host()
    try:
        game, recorder = half.begin(header)
    except ValueError as exc:
        raise RestoreError(f"the journal's game entry is malformed: {exc}") from None
    table = Table(game, header.game_id, recorder, created=header.created)
    for index, entry in enumerate(entries[1:], start=2):
        try:
            fact = parse_fact(entry)
            if isinstance(fact, GameEnded):
                if not game.is_over or list(game.totals) != list(fact.totals):
                    raise FactError("the game ended differently")
                table.finished = True
            elif isinstance(fact, BidSealed | BidOpened):
                apply_sealed_fact(table, fact)  # hidden bids: as the live host applied it
            else:
                half.apply(table, fact)
        except (
            KeyError,
            TypeError,
            ValueError,
            IllegalAction,
            CommitRevealError,
            ProtocolError,
            Revoke,
        ) as exc:
            what = getattr(exc, "message", None) or repr(exc)
            raise RestoreError(
                f"journal entry {index} ({entry.get('t')}) does not replay: {what}"
            ) from None
    return Replayed(header, table, half)


def replay_journal(journal: JournalContents | Path) -> tuple[JournalContents, Replayed]:
    """A journal (read if a path) and its replay."""
    contents = journal if isinstance(journal, JournalContents) else read_journal(journal)
    return contents, replay(contents.entries)


__all__ = [
    "COMMIT_REVEAL",
    "GameHeader",
    "Replayed",
    "RestoreError",
    "SeatEntry",
    "game_entry",
    "parse_header",
    "replay",
    "replay_journal",
]
