"""The score pad, like the paper one: for every round each player's bid, tricks won, points
and running total. It narrows gracefully: two lines per round, then totals only. In a game
of another length (docs/rules.md, "Game length") each round's label also holds its cards."""

from __future__ import annotations

from rich.text import Text
from textual.reactive import reactive

from ...game import RoundResult
from ...i18n import _
from ..glyphs import clean
from .base import CardWidget, fit, rjust

ROUND_COL = 4
ROUND_COL_WITH_CARDS = 7  # "22 18+ ": the round, then its cards each
FULL = 19  # " Bid Won  Pts Total" per player
TWO_LINE = 12  # "  2/1    +30" over "         120"


class ScorePad(CardWidget):
    names: reactive[tuple[str, ...]] = reactive(())
    history: reactive[tuple[RoundResult, ...]] = reactive((), layout=True)
    # The round in progress: its number, bids so far and tricks so far (None when between rounds).
    current: reactive[tuple[int, tuple[int | None, ...], tuple[int, ...]] | None] = reactive(
        None, layout=True
    )
    checks: reactive[dict[int, bool]] = reactive(dict, always_update=True)
    # The cards each round deals (``TableRules.round_sizes``); () or the full game's 1, 2, ...
    # keep the narrow round column.
    sizes: reactive[tuple[int, ...]] = reactive((), layout=True)

    def __init__(self, *, part: str = "all", **kwargs) -> None:
        """``part``: "all", or "head" (names and captions: kept on screen above a scrolling
        "body", so a long pad never scrolls its header away)."""
        super().__init__(**kwargs)
        self.part = part

    @property
    def _with_cards(self) -> bool:
        """Some round deals another number of cards than its number: show both."""
        return any(size != number for number, size in enumerate(self.sizes, 1))

    @property
    def _round_col(self) -> int:
        return ROUND_COL_WITH_CARDS if self._with_cards else ROUND_COL

    def _cards(self, number: int) -> str:
        """The cards of round ``number``, right-aligned after its number ("" if not shown)."""
        if not self._with_cards or not 1 <= number <= len(self.sizes):
            return ""
        return f"{self.sizes[number - 1]:>{ROUND_COL_WITH_CARDS - ROUND_COL}}"

    def _col(self, width: int) -> int:
        return (width - self._round_col) // max(1, len(self.names))

    def _mode(self, width: int) -> str:
        col = self._col(width)
        if col > FULL:
            return "full"
        if col > TWO_LINE:
            return "two"
        return "totals"

    def get_content_height(self, container, viewport, width: int) -> int:
        per_round = 2 if self._mode(width) == "two" else 1
        rows = len(self.history) * per_round + (1 if self.current else 0)
        body = rows + (1 if self._mode(width) == "totals" else 0)
        return {"all": 2 + body, "head": 2, "body": body}[self.part]

    def _round_label(self, number: int) -> Text:
        g = self.glyphs
        ok_mark = g.ok if len(g.ok) == 1 else "+"
        bad_mark = g.alarm if len(g.alarm) == 1 else "!"
        label = Text(f"{number:>2}")
        label.append(self._cards(number), self.style("text--muted"))
        check = self.checks.get(number)
        if check is True:
            label.append(ok_mark, self.style("text--ok"))
        elif check is False:
            label.append(bad_mark, self.style("text--error"))
        else:
            label.append(" ")
        label.append(" ")
        return label

    def render(self) -> Text:
        whole = self._render_all()
        if self.part == "all":
            return whole
        lines = whole.split("\n", allow_blank=True)
        kept = lines[:2] if self.part == "head" else lines[2:]
        out = Text(no_wrap=True, overflow="crop", end="")
        for i, line in enumerate(kept):
            if i:
                out.append("\n")
            out.append_text(line)
        return out

    def _render_all(self) -> Text:
        width = self.content_size.width
        mode = self._mode(width)
        col = self._col(width)
        g = self.glyphs
        muted = self.style("text--muted")
        accent = self.style("text--accent")
        out = Text(no_wrap=True, overflow="crop", end="")
        round_col = self._round_col
        # Header: names, then the column captions.
        out.append(" " * round_col)
        for name in self.names:
            shown = clean(name, 30)
            if len(shown) > col - 1:
                shown = self.fit(shown, col - 1)
            out.append(rjust(shown, col - 1) + " ", accent)
        out.append("\n")
        caption = captions(mode)
        if self._with_cards:
            # TRANSLATORS: the score pad's round column in a game of another length: "Rd" over
            # the round's number (2 cells), a space, "Cds" over its cards each (3 cells).
            out.append(fit(_("Rd Cds"), ROUND_COL_WITH_CARDS - 1, "") + " ", muted)
        else:
            out.append(fit(_("Rnd"), ROUND_COL - 1, "") + " ", muted)
        for _name in self.names:
            out.append(rjust(caption, col - 1)[-(col - 1) :] + " ", muted)
        for result in self.history:
            out.append("\n")
            out.append_text(self._round_label(result.round))
            second = Text(" " * round_col)
            for bid, won, pts, total in zip(
                result.bids, result.tricks_won, result.points, result.totals, strict=True
            ):
                pts_style = self.style("text--ok" if pts > 0 else "text--error")
                if mode == "full":
                    out.append(" " * (col - 1 - FULL) + f"{bid:>4}{won:>4}")
                    out.append(f"{pts:>+5}", pts_style)
                    out.append(f"{total:>6} ", accent)
                elif mode == "two":
                    out.append(" " * (col - 1 - TWO_LINE) + f"{bid:>3}/{won:<3}")
                    out.append(f"{pts:>+5} ", pts_style)
                    second.append(f"{total:>{col - 1}} ", accent)
                else:
                    out.append(f"{total:>{col - 1}} ", pts_style)
            if mode == "two":
                out.append("\n")
                out.append_text(second)
        if self.current is not None:
            number, bids, so_far = self.current
            out.append("\n")
            out.append(f"{number:>2}{self._cards(number)}{g.dot} ", muted)
            for bid_so_far, tricks in zip(bids, so_far, strict=False):
                shown = g.dash if bid_so_far is None else str(bid_so_far)
                if mode == "full":
                    cell = " " * (col - 1 - FULL) + f"{shown:>4}{tricks:>4}"
                elif mode == "two":
                    cell = " " * (col - 1 - TWO_LINE) + f"{shown:>3}/{tricks:<3}"
                else:
                    cell = f"{shown}/{tricks}".rjust(col - 1)
                out.append(cell.ljust(col), muted)
        if mode == "totals":
            out.append("\n")
            out.append(_("s: the full pad"), muted)
        return out


def captions(mode: str) -> str:
    """The column captions over each player, in the language spoken, each cut to its
    column ("Bid" to 3 cells, "Pts" to 4...), so a longer word never shifts the numbers."""
    if mode == "full":
        return (
            rjust(_cut(_("Bid"), 3), 4)
            + rjust(_cut(_("Won"), 3), 4)
            + rjust(_cut(_("Pts"), 4), 5)
            + rjust(_cut(_("Total"), 5), 6)
        )
    if mode == "two":
        # TRANSLATORS: the score pad's narrow caption: the bid and the tricks won (7 cells).
        return fit(_("bid/won"), 7, "") + rjust(_cut(_("pts"), 4), 5)
    return _cut(_("total"), 6)


def _cut(text: str, width: int) -> str:
    """``text`` cut to ``width`` cells, not padded."""
    return fit(text, width, "").rstrip()
