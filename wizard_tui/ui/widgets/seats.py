"""Every seat on one line each: who is on turn, name, dealer, bid, tricks won, score, link.

A disconnected seat that a bot will take over shows a countdown; the only timer here runs
while such a countdown is showing, so an idle table redraws nothing.
"""

from __future__ import annotations

import math
import time

from rich.cells import cell_len
from rich.text import Text
from textual.timer import Timer

from ...game import BLIND_CARD
from ...i18n import _
from ...session import SeatInfo
from ..glyphs import clean
from .base import rjust
from .hand import SLOT
from .lines import LinesWidget


class SeatsPanel(LinesWidget):
    """The parent calls ``show`` with the seats and the numbers from the view."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.seats: tuple[SeatInfo, ...] = ()
        self.me = self.turn = self.dealer = -1
        self.bids: tuple[int | None, ...] = ()
        self.won: tuple[int, ...] = ()
        self.totals: tuple[int, ...] = ()
        self.sealed: frozenset[int] = frozenset()  # hidden bids: who has sealed (not what)
        # A forehead round: per seat the card on its forehead (None: none shown), and
        # whether this seat's own is face down (docs/rules.md, "The forehead round").
        self.foreheads: tuple[int | None, ...] = ()
        self.face_down = False
        self._deadlines: dict[int, float] = {}
        self._ticker: Timer | None = None

    def show(
        self,
        seats: tuple[SeatInfo, ...],
        *,
        me: int,
        turn: int,
        dealer: int,
        bids: tuple[int | None, ...],
        won: tuple[int, ...],
        totals: tuple[int, ...],
        sealed: tuple[int, ...] = (),
        foreheads: tuple[int | None, ...] = (),
        face_down: bool = False,
    ) -> None:
        if seats != self.seats:
            now = time.monotonic()
            self._deadlines = {
                i: now + s.takeover_in for i, s in enumerate(seats) if s.takeover_in is not None
            }
            if self._deadlines and self._ticker is None:
                self._ticker = self.set_interval(1.0, self.redraw)
            elif not self._deadlines and self._ticker is not None:
                self._ticker.stop()
                self._ticker = None
        self.seats, self.me, self.turn, self.dealer = seats, me, turn, dealer
        self.bids, self.won, self.totals = bids, won, totals
        self.sealed = frozenset(sealed)
        self.foreheads, self.face_down = foreheads, face_down
        self.redraw()

    def _link(self, index: int, seat: SeatInfo, short: bool) -> tuple[str, str]:
        g = self.glyphs
        if index in self._deadlines:
            left = max(0, math.ceil(self._deadlines[index] - time.monotonic()))
            if seat.connected:  # on turn with a turn time; at 0 it is away (a bot decides)
                said = _("away: bot") if left == 0 else _("bot in {n}s").format(n=left)
                return said, "text--error"
            if left == 0:  # takeover_in 0: a bot plays the seat until its player is back
                return f"{g.offline} " + _("bot plays"), "text--error"
            said = _("bot {n}s") if short else _("bot in {n}s")
            return f"{g.offline} " + said.format(n=left), "text--error"
        if not seat.connected:
            return f"{g.offline} " + _("away"), "text--error"
        if seat.kind == "bot":
            return _("bot"), "text--muted"
        return g.online, "text--ok"

    def _forehead_cell(self, seat: int) -> Text:
        """The card on ``seat``'s forehead as this seat sees it: the card, face down for
        this seat's own, blank once played."""
        cell = Text(" ")
        card = self.foreheads[seat] if seat < len(self.foreheads) else None
        if card is not None:
            cell.append_text(self.card_text(card, width=SLOT - 1))
        elif seat == self.me and self.face_down:
            cell.append_text(self.card_text(BLIND_CARD, width=SLOT - 1))
        else:
            cell.append(" " * (SLOT - 1))
        return cell

    @staticmethod
    def need_text(bid: int | None, won: int, short: bool) -> str:
        """How this seat stands against its bid: tricks still needed, on it, or over."""
        if bid is None:
            return ""
        if won < bid:
            return f"-{bid - won}" if short else _("need {n}").format(n=bid - won)
        if won == bid:
            return "=" if short else _("on bid")
        return f"+{won - bid}" if short else _("over {n}").format(n=won - bid)

    def _need_room(self) -> int:
        samples = (self.need_text(11, 2, False), self.need_text(2, 2, False))
        widest = max(cell_len(t) for t in (*samples, self.need_text(2, 11, False)))
        return min(10, max(7, widest + 1))

    def build(self, width: int) -> list[Text]:
        g = self.glyphs
        short = width < 46  # narrow terminals: the short forms, so the names keep room
        # The need column fits this language's words ("need 9", "chybí 9"), up to 10 cells.
        need_width = 3 if short else self._need_room()
        score_width = 5 if short else 6
        fixed = 2 + 2 + 6 + need_width + score_width + 1
        link_width = max(0, min(9 if short else 12, width - fixed - 6))
        name_width = max(4, width - fixed - link_width)
        forehead = self.face_down or any(card is not None for card in self.foreheads)
        if forehead:  # a card's column after each name: the card on that seat's forehead
            taken = min(SLOT, max(0, name_width - 8))  # from the name while it keeps 8 cells
            name_width -= taken
            link_width = max(0, link_width - (SLOT - taken))  # the rest from the link
        card_head = " " * SLOT if forehead else ""
        head = rjust(_("Tricks"), 6) + "".rjust(need_width) + rjust(_("Score"), score_width)
        header = "  " + self.fit(_("Player"), name_width) + card_head + "  " + head
        lines = [Text(header, self.style("text--muted"))]
        for i, seat in enumerate(self.seats):
            on_turn = i == self.turn
            you = "" if short else " " + _("(you)")
            name = clean(seat.name, 40) + (you if i == self.me else "")
            bid = self.bids[i] if i < len(self.bids) else None
            won = self.won[i] if i < len(self.won) else 0
            total = self.totals[i] if i < len(self.totals) else 0
            line = Text()
            # Only the marker and the name light up for the seat on turn: moving the turn
            # then repaints two short spans, not two whole rows.
            who = Text((g.turn if on_turn else " ") + " ")
            who.append(self.fit(name, name_width), self.style("seat--me") if i == self.me else "")
            if on_turn:
                who.stylize(self.style("seat--turn"))
            line.append_text(who)
            if forehead:
                line.append_text(self._forehead_cell(i))
            line.append(" D" if i == self.dealer else "  ")
            tricks = f"{won}/{g.dash if bid is None else bid}" if bid is not None else ""
            line.append(f"{tricks:>6}")
            need = self.need_text(bid, won, short)
            need_style = "text--ok" if bid is not None and won == bid else "text--muted"
            if i in self.sealed:  # hidden bids: sealed, its bid unknown (ours: shown)
                tricks = tricks or g.sealed
                said = _("sealed")
                need = said if cell_len(said) <= need_width - 1 else g.sealed
                need_style = "text--ok"
            line.append(" " + self.fit(need, need_width - 1), self.style(need_style))
            line.append(f"{total:>{score_width}} ")
            link, link_style = self._link(i, seat, short)
            line.append(self.fit(link, link_width), self.style(link_style))
            lines.append(line)
        return lines
