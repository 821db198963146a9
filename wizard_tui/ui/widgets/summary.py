"""The end-of-round moment: who made their bid, who missed and by how much, the points and
the new totals, and who leads. It opens over the log when a round is scored, stays until a
key (Enter, Space, x) or ``HOLD_SECONDS``, and the next bid panel waits for it."""

from __future__ import annotations

from collections.abc import Callable

from rich.text import Text
from textual.timer import Timer

from ...game import RoundScored
from ...i18n import _, join_names
from ..glyphs import clean
from .base import fit
from .lines import LinesWidget

HOLD_SECONDS = 8.0


class RoundSummary(LinesWidget):
    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.scored: RoundScored | None = None
        self.names: tuple[str, ...] = ()
        self.me = -1
        self.of = 0
        self.display = False
        self._timer: Timer | None = None
        self.on_close: Callable[[], None] | None = (
            None  # called once the summary closes (the table opens its panels)
        )

    @property
    def is_open(self) -> bool:
        return bool(self.display) and self.scored is not None

    def open(
        self,
        scored: RoundScored,
        names: tuple[str, ...],
        me: int,
        of: int,
        seconds: float | None = None,
    ) -> None:
        seconds = HOLD_SECONDS if seconds is None else seconds
        self.scored, self.names, self.me, self.of = scored, names, me, of
        self.border_title = (
            _("Round {round} of {rounds} scored").format(round=scored.round, rounds=of)
            if of
            else _("Round scored")
        )
        self.border_subtitle = _("Enter: go on")
        self.display = True
        if self._timer is not None:
            self._timer.stop()
        self._timer = self.set_timer(seconds, self.close) if seconds > 0 else None
        self.rebuild()

    def close(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        was_open = self.display
        self.display = False
        if was_open and self.on_close is not None:
            self.on_close()

    def _seat_name(self, seat: int) -> str:
        name = (
            clean(self.names[seat], 24)
            if seat < len(self.names)
            else _("seat {n}").format(n=seat + 1)
        )
        return name + (" " + _("(you)") if seat == self.me else "")

    @staticmethod
    def outcome(bid: int, won: int) -> str:
        """In words, not colour alone: made it, or missed by how many (over or under)."""
        if won == bid:
            return _("made it")
        if won > bid:
            return _("{n} over").format(n=won - bid)
        return _("{n} under").format(n=bid - won)

    def build(self, width: int) -> list[Text]:
        s = self.scored
        if s is None:
            return [Text()]
        ok, bad = self.style("text--ok"), self.style("text--error")
        accent = self.style("text--accent")
        name_width = max(4, min(16, width - 36))
        lines = []
        for seat, (bid, won, pts, total) in enumerate(
            zip(s.bids, s.tricks_won, s.points, s.totals, strict=True)
        ):
            me = self.style("seat--me") if seat == self.me else ""
            line = Text(self.fit(self._seat_name(seat), name_width), me)
            line.append(" " + _("bid {bid:>2} took {won:>2}").format(bid=bid, won=won) + "  ")
            made = won == bid
            line.append(fit(self.outcome(bid, won), 9, self.glyphs.more), ok if made else bad)
            line.append(f"{pts:>+5}", ok if pts > 0 else bad)
            line.append(f"{total:>6}", accent)
            lines.append(line)
        best = max(s.totals) if s.totals else 0
        leaders = [self._seat_name(i) for i, t in enumerate(s.totals) if t == best]
        said = _("{names} leads with {n}") if len(leaders) == 1 else _("{names} lead with {n}")
        lines.append(Text(said.format(names=join_names(leaders), n=best), accent))
        return lines
