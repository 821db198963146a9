"""The games this installation hosted, from their journals: list them, find one to resume.

Each hosted game has a journal ``data_dir()/games/<game id hex>.journal``
(``wizard_tui.net.journal``). A game is *unfinished* while its journal has no
``game_over`` entry: ``wizard-tui host --resume`` carries it on, ``wizard-tui games``
lists it. Reading a summary scans the entries without replaying them; resuming replays
them (``wizard_tui.net.restore``).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..i18n import _
from ..paths import data_dir
from ..record import record_filename
from .journal import JournalContents, JournalError, list_journals, read_journal
from .restore import GameHeader, RestoreError, parse_header


def games_dir() -> Path:
    """Where the host keeps its journals."""
    return data_dir() / "games"


@dataclass(frozen=True, slots=True)
class SavedGame:
    path: Path
    contents: JournalContents | None  # None: unreadable
    header: GameHeader | None
    round_reached: int = 0  # the last round that began
    rounds: int = 0  # rounds in the game
    finished: bool = False
    problem: str = ""  # why it cannot be read, or what was dropped from its end

    @property
    def game_id_hex(self) -> str:
        if self.header is not None:
            return self.header.game_id.hex()
        return self.path.name.removesuffix(".journal")

    @property
    def status(self) -> str:
        if self.header is None:
            return "unreadable"
        return "finished" if self.finished else "unfinished"

    @property
    def record_path(self) -> Path | None:
        """The game's record, if the host wrote one (after its first round)."""
        if self.header is None or self.header.records_dir is None:
            return None
        path = Path(self.header.records_dir) / record_filename(self.header.game_id)
        return path if path.exists() else None

    def describe(self) -> str:
        """One line for people: id prefix, round, players."""
        if self.header is None:
            return f"{self.game_id_hex[:8]} ({self.problem})"
        players = ", ".join(s.name for s in self.header.seats)
        return _("{game_id}, round {round} of {rounds}, {players}").format(
            game_id=self.game_id_hex[:8],
            round=self.round_reached,
            rounds=self.rounds,
            players=players,
        )


def summarize(path: Path) -> SavedGame:
    try:
        contents = read_journal(path)
        if not contents.entries:
            raise RestoreError("the journal is empty")
        header = parse_header(contents.entries[0])
    except (JournalError, RestoreError) as exc:
        return SavedGame(path, None, None, problem=str(exc))
    # The last round that began: a ``round`` entry (commit-reveal) or an ``attempt`` of a
    # privately dealt round.
    began = ("round", "attempt")
    reached = max((e.get("round", 0) for e in contents.entries if e["t"] in began), default=0)
    finished = any(e["t"] == "game_over" for e in contents.entries)
    problem = f"{contents.torn_bytes} torn bytes at the end" if contents.torn_bytes else ""
    return SavedGame(
        path,
        contents,
        header,
        round_reached=int(reached),
        rounds=len(header.config.rules.round_sizes(header.config.players)),
        finished=finished,
        problem=problem,
    )


def saved_games(directory: Path | None = None) -> list[SavedGame]:
    """Every journaled game, most recently played first."""
    return [summarize(path) for path in list_journals(directory or games_dir())]


def unfinished_games(directory: Path | None = None) -> list[SavedGame]:
    return [g for g in saved_games(directory) if g.status == "unfinished"]


def find_game(prefix: str, directory: Path | None = None) -> SavedGame:
    """The unfinished game whose id starts with ``prefix`` (any if ``prefix`` is empty: the
    most recently played). Raises ``LookupError`` with a message for people."""
    games = unfinished_games(directory)
    prefix = prefix.strip().lower()
    if not games:
        raise LookupError(_("there is no unfinished game to resume (wizard-tui games lists them)"))
    if not prefix:
        return games[0]
    matches = [g for g in games if g.game_id_hex.startswith(prefix)]
    if not matches:
        raise LookupError(
            _("no unfinished game has an id starting with {prefix!r}").format(prefix=prefix)
        )
    if len(matches) > 1:
        ids = ", ".join(g.game_id_hex[:12] for g in matches)
        said = _("{prefix!r} matches several games ({ids}): give more of the id")
        raise LookupError(said.format(prefix=prefix, ids=ids))
    return matches[0]
