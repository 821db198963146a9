"""The trick on the table: one line per seat, lined up with the seat panel beside it.

After a trick completes, it stays on show with its winner for a moment (a one-shot timer,
``HOLD_SECONDS``) before the next trick's cards take its place.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.cells import cell_len
from rich.text import Text
from textual.timer import Timer

from ...game import Phase, Suit
from ...i18n import _
from ..glyphs import clean, suit_name
from ..specials import declaration_class, declaration_mark
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
    # The special cards (docs/rules.md): (seat, choice) of each declaration in this trick
    # (a Juggler's or Cloud's suit, a Shapeshifter's form), and a trick a Bomb was in,
    # which nobody takes (``winner`` is then the seat that leads next).
    declared: tuple[tuple[int, int], ...] = ()
    bombed: bool = False


def trick_declarations(
    declared: tuple[tuple[int, int, int], ...], trick: int
) -> tuple[tuple[int, int], ...]:
    """The (seat, choice) declarations of trick ``trick`` (0-based), from the view's
    ``declared`` (trick, seat, choice) of the round."""
    return tuple((seat, choice) for index, seat, choice in declared if index == trick)


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
            # A bombed trick is taken by nobody: the title says so instead of a name.
            name = _("nobody (Bomb)") if t.bombed else clean(winner, 20)
            title = _("Trick {n} of {of}: {name}").format(n=t.number, of=t.of, name=name)
            if cell_len(title) > width:  # narrow: "Trick 2/5: Ann" keeps the name whole
                title = _("Trick {n}/{of}: {name}").format(n=t.number, of=t.of, name=name)
            if t.bombed and cell_len(title) > width:  # (the Bomb is in the trick below)
                title = _("Trick {n}/{of}: {name}").format(n=t.number, of=t.of, name=_("nobody"))
            return Text(fit(title, width, g.more).rstrip(), accent)
        if t.phase in (Phase.PLAY, Phase.DECLARE):
            full = _("Trick {n} of {of}").format(n=t.number, of=t.of)
            if t.led is not None and cell_len(full) + 5 + cell_len(suit_name(t.led)) > width:
                # narrow: the led suit keeps its room
                full = _("Trick {n}/{of}").format(n=t.number, of=t.of)
            elif t.led is None and t.plays and cell_len(full) + 3 + cell_len(_("no suit")) > width:
                full = _("Trick {n}/{of}").format(n=t.number, of=t.of)  # (as narrow: "no suit")
            title = Text(full, accent)
            if t.led is not None:
                # "Trick 2 of 5 · ♥ hearts": the led suit, by shape and name, once.
                title.append(f" {g.dot} ")
                shown = t.led.letter if g.ascii else t.led.symbol
                title.append(f"{shown} {suit_name(t.led)}", self.style(f"card--{t.led.label}"))
            elif t.plays:
                title.append(f" {g.dot} " + _("no suit"))
            return title
        return Text(
            {
                Phase.BID: _("Bidding"),
                Phase.CHOOSE_TRUMP: _("The dealer names trump"),
                Phase.NAME_TRUMP: _("Werewolf names trump"),
                Phase.DEAL: _("Between rounds"),
                Phase.GAME_OVER: _("Game over"),
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
        marks = dict(t.declared)
        name_width = 0
        if self.show_names and t.names:
            name_width = min(14, max(cell_len(clean(n, 14)) for n in t.names)) + 1
        for seat in range(t.players):
            line = Text(" ")
            if name_width:
                name = t.names[seat] if seat < len(t.names) else ""
                line.append(self.fit(clean(name, 14), name_width))
            card = played.get(seat)
            if card is None:
                waiting = not t.done and t.phase is Phase.PLAY and seat == t.turn
                line.append(" " * 4 + (_("to play") if waiting else ""), muted)
                lines.append(line)
                continue
            winning = seat == t.winner
            taking = winning and not t.bombed
            line.append_text(self.card_text(card, *(["card--winning"] if taking else []), width=3))
            if seat in marks:  # "JGL♥", "SHP W": what its player declared it
                mark = marks[seat]
                line.append(declaration_mark(mark, g), self.style(declaration_class(mark)))
            elif marks:
                line.append(" ")  # (the column stays straight)
            if seat == leader:
                line.append(" " + _("led"), muted)
            if winning and t.bombed and t.done:
                line.append(f" {g.winning} " + _("leads next"), self.style("text--accent"))
            elif winning:
                note = _("takes it") if t.done else _("winning")
                line.append(f" {g.winning} {note}", self.style("text--accent"))
            lines.append(line)
        return lines
