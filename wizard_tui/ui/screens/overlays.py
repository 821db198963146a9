"""Screens laid over the table for a look and closed with the same key (or Enter, or Esc):
the score pad, the last trick, help; plus the chat line and the quit confirmation."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Input, Static

from ...game import DECK_SIZE, Phase, SeatView
from ...game.specials import Special
from ...i18n import N_, _
from ...session import TableUpdate
from ..house_rules import table_rules_lines
from ..specials import EFFECTS, special_name
from ..widgets.fulllog import FullLog
from ..widgets.scorepad import ScorePad
from ..widgets.trick import TrickState, TrickView, trick_declarations
from .common import last_trick, scorepad_data

if TYPE_CHECKING:
    from textual import getters

    from ..table_app import TableApp


class ScoreScreen(ModalScreen[None]):
    if TYPE_CHECKING:  # the app it runs in (``WizardApp``), typed as Textual does its own
        app = getters.app(TableApp)

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s,enter,escape", "close", N_("Close"), key_display="s"),
        Binding("q", "app.request_quit", N_("Quit"), show=False),
        Binding("up,k", "scroll(-1)", N_("Up"), show=False),
        Binding("down,j", "scroll(1)", N_("Down"), show=False),
        Binding("pageup", "scroll(-10)", N_("Page up"), show=False),
        Binding("pagedown,space", "scroll(10)", N_("Page down"), show=False),
        Binding("home", "scroll(-1000)", N_("Top"), show=False),
        Binding("end", "scroll(1000)", N_("End"), show=False),
    ]

    # It opens at its last rounds and keeps them in sight as rounds are added, until the
    # player scrolls away from its end; back at the end, it follows it again. (It used to
    # scroll to its end at every update, so a player's Home or Up was undone a moment
    # after opening, or at the table's next move.)
    _follow = True

    def action_scroll(self, lines: int) -> None:
        pad = self.query_one("#pad-scroll", VerticalScroll)
        target = max(0, pad.scroll_y + lines)
        # (Said at once: an update in between must not take the pad back to its end. Up
        # never follows, even before the pad is laid out and its end is not known yet.)
        self._follow = lines > 0 and target >= pad.max_scroll_y
        pad.scroll_to(y=target, animate=False)

    def compose(self) -> ComposeResult:
        with Vertical(id="sheet") as box:
            box.border_title = _("Score pad")
            yield ScorePad(part="head", id="pad-head")
            with VerticalScroll(id="pad-scroll"):
                yield ScorePad(part="body")
            yield Static(_("up/down, PgUp/PgDn scroll; s, Enter or Esc: back"), classes="hint")

    def on_mount(self) -> None:
        self.watch(self.app, "table", self._sync)
        self.watch(self.app, "verifications", self._sync)
        scroll = self.query_one("#pad-scroll", VerticalScroll)
        self.watch(scroll, "scroll_y", self._scrolled, init=False)
        # Its end is known once its rows are laid out, which can take more than one refresh
        # after an update: follow it whenever the rows' height changes.
        self.watch(scroll, "virtual_size", self._to_end)

    def _sync(self) -> None:
        for pad in self.query(ScorePad):
            scorepad_data(pad, self.app.table, self.app.checks)

    def _to_end(self) -> None:
        if self._follow:  # (unless the player scrolled away from it)
            self.query_one("#pad-scroll", VerticalScroll).scroll_end(animate=False, immediate=True)

    def _scrolled(self, old: float, new: float) -> None:
        """Scrolled by other means too (the mouse wheel): up, it no longer follows its end;
        down to it, it does again. (Only the direction says so: this runs a moment after
        the scroll, when rounds added since may have moved the end on.)"""
        end = self.query_one("#pad-scroll", VerticalScroll).max_scroll_y
        if end > 0 and new >= end:
            self._follow = True
        elif new < old:
            self._follow = False

    def action_close(self) -> None:
        self.dismiss(None)


class LastTrickScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("t,enter,escape", "close", N_("Close"), key_display="t"),
        Binding("q", "app.request_quit", N_("Quit"), show=False),
    ]

    def __init__(self, update: TableUpdate) -> None:
        super().__init__()
        self.update = update

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog") as box:
            box.border_title = _("Last trick")
            yield TrickView(show_names=True)
            yield Static(_("t, Enter or Esc: back"), classes="hint")

    def on_mount(self) -> None:
        found = last_trick(self.update)
        view = self.update.view
        if found is None:
            return
        number, trick = found
        of = view.hand_size if view.tricks else len(view.history[-1].tricks)
        # This round's declarations (the view keeps this round's only).
        declared = trick_declarations(view.declared, number - 1) if view.tricks else ()
        self.query_one(TrickView).state = TrickState(
            players=view.players,
            phase=Phase.PLAY,
            number=number,
            of=of,
            plays=trick.plays,
            winner=trick.winner,
            led=None,
            turn=-1,
            names=tuple(s.name for s in self.update.seats),
            done=True,
            declared=declared,
            bombed=trick.bombed,
        )

    def action_close(self) -> None:
        self.dismiss(None)


KEYS = (
    ("{arrows}, h l", N_("move along your hand")),
    ("Enter, Space", N_("play the selected card (dimmed cards may not be played now)")),
    ("b", N_("bring back the bid or trump panel if you put it aside")),
    ("0-9, Enter", N_("bid, in the bid panel ({arrows} work too; x hides it)")),
    ("c d h s", N_("name trump, when you deal and a Wizard is turned up")),
    ("s", N_("score pad: bid, tricks, points and total for every round")),
    ("t", N_("the last trick")),
    ("v, F2", N_("view the whole log (the table shows the latest lines)")),
    ("c", N_("chat (Enter sends, Esc or an empty line cancels)")),
    ("?, F1", N_("this help")),
    ("q", N_("quit (asks first during a game); Ctrl+Q quits at once")),
    (N_("mouse"), N_("click a card to select it, click it again to play it")),
)

# TRANSLATORS: the rules in short, in the help; keep each line within 72 characters.
RULES = N_(
    """\
60 cards: 1 to 13 in four suits, 4 Wizards (W, above everything) and
4 Jesters (J, below everything). Round r deals r cards to each player;
the next card is turned up for trump (a Jester: no trump; a Wizard:
the dealer names it; none left in the last round: no trump).
Everyone bids how many tricks they will take. Follow the led suit if
you can; a Wizard or a Jester may always be played. The first Wizard
wins the trick, else the highest trump, else the highest card of the
led suit (only Jesters: the first Jester).
Exactly your bid scores 20 + 10 per trick; otherwise you lose 10 for
every trick over or under. A table may restrict the last bid so that
the bids cannot add up to the number of tricks."""
)

# TRANSLATORS: keep each line within 72 characters; the letters C D H S are the keys.
SYMBOLS = N_(
    """\
{turn} whose turn    D the dealer    {winning} the card winning the trick
Suits by symbol or letter as well as colour: C clubs, D diamonds,
H hearts, S spades. --ascii draws letters only."""
)

LOBBY_NOTE = N_(
    "The last-bid rule: the dealer may not bid so that the bids add up to the\n"
    "number of tricks. The game starts with the players seated: empty seats\n"
    "are left out.\n"
    "A guest only chats and waits for the host to start."
)


LOBBY_KEYS = (
    (N_("up/down, j k"), N_("choose a seat")),
    ("a", N_("add a bot (in an empty seat, or a new seat up to 6)")),
    ("x", N_("take the chosen seat's bot out (or the last bot)")),
    ("l", N_("the bots' level: random, easy, normal, hard, expert")),
    ("- +", N_("fewer or more seats (3 to 6; people keep theirs)")),
    ("r", N_("the last-bid rule: never, always, after round 1")),
    ("h", N_("hidden bids on or off (sealed, shown together)")),
    ("f", N_("the forehead round on or off (one-card rounds)")),
    ("n", N_("the length: full, short (half the rounds), up and down")),
    ("e", N_("type the rounds as cards per round: 1,2,4,11")),
    ("p", N_("the special cards: 1-8 on or off, a all, 0 none")),
    ("Enter, g", N_("start the game (once 3 seats are taken)")),
    ("c", N_("chat")),
    ("b", N_("the browser address as a QR code (host --web)")),
    ("?, F1", N_("this help")),
    ("q", N_("quit")),
)


def _key_lines(out: Text, keys: tuple[tuple[str, str], ...], arrows: str = "") -> None:
    """Each key and what it does, the keys in a column (padded by cells, not characters)."""
    shown = [(_(k).format(arrows=arrows), _(what).format(arrows=arrows)) for k, what in keys]
    width = max(cell_len(k) for k, _what in shown) + 2
    for key, what in shown:
        out.append("  " + key + " " * (width - cell_len(key)), "bold")
        out.append(what + "\n")


HOUSE_RULES_NOTE = N_("With hidden bids the last-bid rule does not apply.")


def lobby_help_text() -> Text:
    out = Text()
    out.append(_("Lobby keys (the host)") + "\n", "bold")
    _key_lines(out, LOBBY_KEYS)
    out.append("\n" + _(LOBBY_NOTE))
    out.append("\n" + _(HOUSE_RULES_NOTE))
    return out


def this_table_text(view: SeatView | None, dot: str, arrows: str = "") -> Text:
    """The options in force at this table, above the keys, one line each; nothing for the
    bare rules. With special cards, what each of those in the deck does, and their keys."""
    out = Text()
    lines = table_rules_lines(view.rules, view.players, dot) if view is not None else []
    if lines:
        out.append(_("This table") + "\n", "bold")
        out.append("\n".join(f"  {line}" for line in lines) + "\n\n")
    if view is not None and view.rules.specials:
        out.append_text(specials_help_text(view.rules.specials, arrows))
    return out


# The keys of the special cards' decisions, for the help of a table that plays them.
SPECIAL_KEYS = (
    ("c d h s, n", N_("Werewolf: name trump (n: no trump)")),
    ("c d h s, w j", N_("declare a suit, or a Wizard (w) or Jester (j)")),
    ("{arrows}, - +", N_("Cloud: your new bid, then Enter")),
    ("Enter", N_("Juggler: pass the selected hand card to the left")),
    (N_("up/down"), N_("Witch: change rows (take, give); Enter swaps")),
)


def specials_help_text(specials: Iterable[Special], arrows: str = "") -> Text:
    """``Special cards``: each one in the deck (``DRG Dragon: ...``), then their keys."""
    out = Text()
    out.append(_("Special cards") + "\n", "bold")
    chosen = sorted(specials)
    said = _("{n} cards: a trump card is turned up even in the last round.")
    out.append("  " + said.format(n=DECK_SIZE + len(chosen)) + "\n")
    for card in chosen:
        out.append(f"  {card.short_name} ", "bold")
        out.append(f"{special_name(card)}: {_(EFFECTS[card])}\n")
    _key_lines(out, SPECIAL_KEYS, arrows)
    out.append("\n")
    return out


def help_text(arrows: str, turn: str, winning: str) -> Text:
    out = Text()
    out.append(_("Keys") + "\n", "bold")
    _key_lines(out, KEYS, arrows)
    out.append("\n" + _("Wizard in short") + "\n", "bold")
    out.append(_(RULES) + "\n")
    out.append("\n" + _("Symbols") + "\n", "bold")
    out.append(_(SYMBOLS).format(turn=turn, winning=winning))
    return out


class HelpScreen(ModalScreen[None]):
    if TYPE_CHECKING:  # the app it runs in (``WizardApp``), typed as Textual does its own
        app = getters.app(TableApp)

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("question_mark,f1,enter,escape", "close", N_("Close"), key_display="?"),
        Binding("q", "app.request_quit", N_("Quit"), show=False),
    ]

    def __init__(self, lobby: bool = False) -> None:
        super().__init__()
        self.lobby = lobby  # opened from the lobby: the lobby's keys

    def compose(self) -> ComposeResult:
        g = self.app.glyphs
        with Vertical(id="sheet") as box:
            box.border_title = _("Lobby help") if self.lobby else _("Help")
            with VerticalScroll():
                if self.lobby:
                    text = lobby_help_text()
                else:
                    table = self.app.table
                    text = this_table_text(table.view if table else None, g.dot, g.arrows)
                    text.append_text(help_text(g.arrows, g.turn, g.winning))
                yield Static(text)
            yield Static(_("?, Enter or Esc: back"), classes="hint")

    def action_close(self) -> None:
        self.dismiss(None)


class LogScreen(ModalScreen[None]):
    """The whole log, scrollable (the table shows only the latest lines)."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("v,f2,enter,escape", "close", N_("Close"), key_display="v"),
        Binding("up,k", "scroll(-1)", N_("Up"), show=False),
        Binding("down,j", "scroll(1)", N_("Down"), show=False),
        Binding("pageup,b", "scroll(-10)", N_("Page up"), show=False),
        Binding("pagedown,space", "scroll(10)", N_("Page down"), show=False),
        Binding("q", "app.request_quit", N_("Quit"), show=False),
    ]

    def compose(self) -> ComposeResult:
        with Vertical(id="sheet") as box:
            box.border_title = _("Log")
            yield FullLog()
            yield Static(_("up/down, PgUp/PgDn scroll; v, Enter or Esc: back"), classes="hint")

    def action_scroll(self, lines: int) -> None:
        log = self.query_one(FullLog)
        log.scroll_to(y=log.scroll_y + lines, animate=False)

    def action_close(self) -> None:
        self.dismiss(None)


class ChatScreen(ModalScreen[str | None]):
    """A one-line chat input at the bottom. Enter sends; Enter on an empty line or Esc cancels."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", N_("Cancel"))]

    def compose(self) -> ComposeResult:
        chat = Input(placeholder=_("Say something; Enter sends"), max_length=200, compact=True)
        chat.cursor_blink = False
        with Vertical(id="chat-box"):
            yield chat

    @on(Input.Submitted)
    def _send(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        self.dismiss(text or None)

    def action_cancel(self) -> None:
        self.dismiss(None)


RESUME_COMMAND = "wizard-tui host --resume"


class QuitScreen(ModalScreen[bool]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,q", "answer(True)", N_("Leave")),
        Binding("n,escape", "answer(False)", N_("Stay"), key_display="n"),
    ]

    def compose(self) -> ComposeResult:
        app = self.app
        if getattr(app, "solo", False):
            what = _("This program runs the game: leaving ends it.")
        elif getattr(app, "hosting", False):
            what = (
                _("You are the host: leaving stops the game for everyone.")
                + "\n"
                + _("Carry it on later with: {command}").format(command=RESUME_COMMAND)
            )
        else:
            what = _("The game goes on without you (a bot may take your seat).")
        with Vertical(id="dialog") as box:
            box.border_title = _("Leave the game?")
            yield Static(what)
            yield Static(_("y or q: leave      n or Esc: stay"), classes="hint")

    def action_answer(self, leave: bool) -> None:
        self.dismiss(leave)
