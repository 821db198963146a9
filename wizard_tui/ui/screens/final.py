"""The final standings, with a rematch, the score pad and the chat still at hand."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import Screen

from ...i18n import N_, _, join_names
from ...session import GameFinished
from ..glyphs import clean
from ..messages import AskRematch
from ..widgets.banner import Banner
from ..widgets.base import CardWidget
from ..widgets.chart import TotalsChart
from ..widgets.journal import RecentLog
from ..widgets.keybar import KeyBar

if TYPE_CHECKING:
    from textual import getters

    from ..table_app import TableApp


class Standings(CardWidget):
    def __init__(self, finished: GameFinished, names: tuple[str, ...], me: int, **kw) -> None:
        super().__init__(**kw)
        self.finished = finished
        self.names = names
        self.me = me
        self.rematch_asked = False

    def get_content_height(self, container, viewport, width: int) -> int:
        return len(self.render().plain.splitlines())

    def render(self) -> Text:
        f = self.finished
        accent, muted = self.style("text--accent"), self.style("text--muted")
        out = Text(no_wrap=True, overflow="ellipsis", end="")
        winners = [clean(self.names[s], 24) for s in f.winners if s < len(self.names)]
        if self.me in f.winners:
            title = _("You win!") if len(f.winners) == 1 else _("You share the win!")
        elif len(winners) == 1:
            title = _("{names} wins.").format(names=join_names(winners))
        else:
            title = _("{names} share the win.").format(names=join_names(winners))
        out.append(_("Game over.") + f" {title}\n\n", accent)
        order = sorted(range(len(f.totals)), key=lambda s: (-f.totals[s], s))
        place = 0
        for rank, seat in enumerate(order):
            if rank == 0 or f.totals[seat] != f.totals[order[rank - 1]]:
                place = rank + 1
            name = (
                clean(self.names[seat], 24)
                if seat < len(self.names)
                else _("seat {n}").format(n=seat + 1)
            )
            line = Text(f" {place}. ")
            line.append(self.fit(name + (" " + _("(you)") if seat == self.me else ""), 22))
            line.append(f"{f.totals[seat]:>6}")
            if seat in f.winners:
                line.append("  " + _("winner"), accent)
                line.stylize(self.style("seat--turn"))
            out.append_text(line)
            out.append("\n")
        if f.record_path:
            # The path in full, folded to the column: it is what the player copies.
            width = max(20, self.content_size.width or 44)
            path = clean(f.record_path, 200)
            out.append("\n" + _("The game record is saved in") + "\n", muted)
            for start in range(0, len(path), width):
                out.append(path[start : start + width] + "\n", muted)
        out.append("\n")
        if self.rematch_asked:
            out.append(_("Rematch asked; waiting for the others."), muted)
        else:
            out.append("r", accent)
            out.append(": " + _("rematch") + "   ")
            out.append("s", accent)
            out.append(": " + _("score pad") + "   ")
            out.append("q", accent)
            out.append(": " + _("quit"))
        return out


class FinalScreen(Screen):
    if TYPE_CHECKING:  # the app it runs in (``WizardApp``), typed as Textual does its own
        app = getters.app(TableApp)

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r", "rematch", N_("Rematch")),
        Binding("s", "scores", N_("Scores")),
        Binding("c", "app.chat", N_("Chat")),
        Binding("question_mark,f1", "app.help", N_("Help"), key_display="?"),
    ]

    def __init__(self, finished: GameFinished, names: tuple[str, ...], me: int) -> None:
        super().__init__()
        self.standings = Standings(finished, names, me, id="standings")
        self.chart = TotalsChart(id="chart")

    AUTO_FOCUS = None

    # Textual annotates it ``ClassVar[...] | None``, which mypy takes for an instance variable.
    HORIZONTAL_BREAKPOINTS: ClassVar[list[tuple[int, str]]] = [  # type: ignore[misc]
        (0, "-narrow"),
        (80, "-normal"),
    ]

    def compose(self) -> ComposeResult:
        yield Banner()
        with Vertical(id="final"):
            with Horizontal(id="final-top"):
                yield self.standings
                yield self.chart
            yield RecentLog(id="journal")
        yield KeyBar()

    def on_mount(self) -> None:
        table = self.app.table
        if table is not None:
            self.chart.show(tuple(s.name for s in table.seats), table.view.history)
        self.chart.border_title = _("Totals by round")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "rematch":
            return None if self.standings.rematch_asked else True
        return True

    def action_rematch(self) -> None:
        self.standings.rematch_asked = True
        self.standings.refresh(layout=True)
        self.post_message(AskRematch())
        self.refresh_bindings()

    def action_scores(self) -> None:
        from .overlays import ScoreScreen

        self.app.push_screen(ScoreScreen())
