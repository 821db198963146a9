"""The trick on the table: one line per seat, lined up with the seat panel beside it.

After a trick completes, it stays on show with its winner for a moment (a one-shot timer,
``HOLD_SECONDS``) before the next trick's cards take its place.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text
from textual.timer import Timer

from ...game import Phase, Suit
from ..glyphs import clean
from .base import fit
from .lines import LinesWidget

HOLD_SECONDS = 1.5


@dataclass(frozen=True, slots=True)
class TrickState:
    """What the trick area shows; built by the parent from the view."""

    players: int
    phase: Phase
    number: int  # 1-based trick number within the round
    of: int  # tricks in the round
    plays: tuple[tuple[int, int], ...]  # (seat, card) in play order
    winner: int | None  # seat whose card wins (so far)
    led: Suit | None
    turn: int
    names: tuple[str, ...] = ()
    done: bool = False  # a completed trick (held after it finishes, or the last-trick view)


class TrickView(LinesWidget):
    def __init__(self, *, show_names: bool = False, **kwargs) -> None:
        super().__init__(**kwargs)
        self.show_names = show_names
        self.state: TrickState | None = None
        self.held: TrickState | None = None
        self._release: Timer | None = None

    def show(self, state: TrickState) -> None:
        self.state = state
        self.redraw()

    def hold(self, done: TrickState, seconds: float | None = None) -> None:
        """Show a completed trick and its winner for ``seconds`` (default ``HOLD_SECONDS``),
        then the live trick again."""
        seconds = HOLD_SECONDS if seconds is None else seconds
        self.held = done
        if self._release is not None:
            self._release.stop()
        self._release = self.set_timer(seconds, self.release)
        self.redraw()

    def release(self) -> None:
        if self._release is not None:
            self._release.stop()
            self._release = None
        if self.held is not None:
            self.held = None
            self.redraw()

    def _title(self, t: TrickState, width: int = 80) -> Text:
        g = self.glyphs
        accent = self.style("text--accent")
        title: Text | str
        if t.done:
            winner = t.names[t.winner] if t.winner is not None and t.winner < len(t.names) else "?"
            title = f"Trick {t.number} of {t.of}: {clean(winner, 20)}"  # ◀ below says so
            return Text(fit(title, width, g.more).rstrip(), accent)
        if t.phase is Phase.PLAY:
            full = f"Trick {t.number} of {t.of}"
            if t.led is not None and len(full) + 4 + len(t.led.label) > width:
                full = f"Trick {t.number}/{t.of}"  # narrow: the led suit keeps its room
            title = Text(full, accent)
            if t.led is not None:
                # "Trick 2 of 5 · ♥ hearts": the led suit, by shape and name, once.
                title.append(f" {g.dot} ")
                shown = t.led.letter if g.ascii else t.led.symbol
                title.append(f"{shown} {t.led.label}", self.style(f"card--{t.led.label}"))
            elif t.plays:
                title.append(f" {g.dot} no suit")
            return title
        return Text(
            {
                Phase.BID: "Bidding",
                Phase.CHOOSE_TRUMP: "The dealer names trump",
                Phase.DEAL: "Between rounds",
                Phase.GAME_OVER: "Game over",
            }.get(t.phase, ""),
            self.style("text--muted"),
        )

    def build(self, width: int) -> list[Text]:
        t = self.held or self.state
        if t is None:
            return [Text()]
        g = self.glyphs
        muted = self.style("text--muted")
        lines = [self._title(t, width)]
        played = dict(t.plays)
        leader = t.plays[0][0] if t.plays else -1
        name_width = 0
        if self.show_names and t.names:
            name_width = min(14, max(len(clean(n, 14)) for n in t.names)) + 1
        for seat in range(t.players):
            line = Text(" ")
            if name_width:
                name = t.names[seat] if seat < len(t.names) else ""
                line.append(self.fit(clean(name, 14), name_width))
            card = played.get(seat)
            if card is None:
                waiting = not t.done and t.phase is Phase.PLAY and seat == t.turn
                line.append(" " * 4 + ("to play" if waiting else ""), muted)
                lines.append(line)
                continue
            winning = seat == t.winner
            line.append_text(self.card_text(card, *(["card--winning"] if winning else []), width=3))
            if seat == leader:
                line.append(" led", muted)
            if winning:
                note = "takes it" if t.done else "winning"
                line.append(f" {g.winning} {note}", self.style("text--accent"))
            lines.append(line)
        return lines
