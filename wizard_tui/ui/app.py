"""The Textual client: ``WizardApp`` and ``run_table``, which the host/join/play commands call.

The App owns the session. One long-lived worker reads ``session.updates()`` and posts one
typed message per update; the handlers keep the server's view in a few reactives that the
screens watch. Screens post intents back up as messages and the App calls the session's
intent methods, which never wait on the network.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import inspect
import os
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import ClassVar

from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.screen import Screen
from textual.widgets import Static
from textual.worker import Worker, WorkerState

from ..game import BidMade, Phase, SeatView
from ..game.actions import CardsPassed
from ..i18n import N_, _
from ..session import GameFinished, TableSession
from . import narrate, narrate_specials
from .glyphs import Glyphs, glyphs_for
from .house_rules import is_plain, table_option_words
from .messages import (
    MESSAGE_FOR,
    AddBot,
    AdjustBidIntent,
    AskRematch,
    ChangeTable,
    ChatReceived,
    DeclareIntent,
    GameEnded,
    LinkStateChanged,
    LobbyChanged,
    MakeBid,
    NameTrumpIntent,
    PassCardIntent,
    PickTrump,
    PlayCard,
    Refused,
    RemoveBot,
    RoundChecked,
    SendChat,
    SessionEnded,
    StartGame,
    SwapIntent,
    TableChanged,
)
from .screens.final import FinalScreen
from .screens.lobby import LobbyScreen
from .screens.table import TableScreen
from .table_app import TableApp
from .widgets.banner import MIN_SIZE
from .widgets.base import Palette

SessionFactory = Callable[[], "TableSession | Awaitable[TableSession]"]

JOURNAL_LINES = 300
CLOSE_TIMEOUT = 3.0
ASCII_KEYS = {"←": "<", "→": ">", "↑": "^", "↓": "v", "⏎": "Enter", "←→": "</>"}


class WizardApp(TableApp):
    """A seat at a Wizard table, played from the terminal."""

    CSS_PATH = str(Path(__file__).with_name("wizard.tcss"))  # absolute: subclasses elsewhere
    TITLE = "Wizard"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("q", "request_quit", N_("Quit")),
        # The host's table: hand the seat on turn to a bot (the turn time, docs/security.md).
        Binding("I", "hand_to_bot", N_("Hand to bot"), show=False),
    ]

    # The server's view that the screens watch: reactives of ``TableApp`` (table_app.py).

    def __init__(
        self,
        session: TableSession | SessionFactory,
        *,
        name: str = "",
        ascii: bool = False,
        bell: bool = False,
        theme: str | None = None,
        join_command: Callable[[str, int], str] | None = None,
        hosting: bool = False,
        solo: bool = False,
        reach_lines: Sequence[str] = (),
        web_url: str | None = None,
    ) -> None:
        super().__init__()
        # This program runs the host (host, play): leaving stops the game for everyone.
        self.hosting = hosting or solo
        self.solo = solo  # a game against bots only: no notices meant for friends
        self.farewell: str | None = None  # printed to the terminal after the app exits
        if hasattr(session, "updates"):
            # (hasattr does not narrow the union for mypy: this is the session branch.)
            self.session: TableSession | None = session  # type: ignore[assignment]
            self._factory: SessionFactory | None = None
        else:
            self.session = None
            self._factory = session
        self.player_name = name
        # How the lobby tells friends to join: (address, port) -> "wizard-tui join ...".
        self.join_command = join_command
        self.reach_lines = tuple(reach_lines)  # more ways in for the lobby (reach/)
        self.web_url = web_url  # host --web: the lobby's b shows it as a QR code
        self.glyphs: Glyphs = glyphs_for(ascii)
        if ascii:
            self.add_class("-ascii")  # wizard.tcss: ASCII borders and rules too
            from .scrollbars import install

            install()
        self.palette = Palette()  # the colours every drawing widget uses
        self.ring_bell = bell
        if theme:
            self.theme = theme
        if "TEXTUAL_ANIMATIONS" not in os.environ:
            self.animation_level = "none"  # nothing moves unless the game does
        self.sub_title = name
        self._seq = 0
        self._my_turn = False
        self._exit_code = 0
        self._net: Worker[None] | None = None

    # ------------------------------------------------------------------ start and the session

    def compose(self) -> ComposeResult:
        yield self.palette
        yield Static(_("Connecting to the table..."), id="connecting")

    def on_mount(self) -> None:
        self._net = self._read_session()
        self._check_size()

    def on_resize(self, event: events.Resize) -> None:
        self._check_size(event.size.width, event.size.height)

    def _check_size(self, width: int = 0, height: int = 0) -> None:
        if not width:
            width, height = self.size
        self.too_small = width < MIN_SIZE[0] or height < MIN_SIZE[1]

    @work(group="net", exclusive=True, exit_on_error=False)
    async def _read_session(self) -> None:
        if self.session is None:
            assert self._factory is not None
            made = self._factory()
            self.session = await made if inspect.isawaitable(made) else made
        async for update in self.session.updates():
            message = MESSAGE_FOR.get(type(update))
            if message is not None:
                self.post_message(message(update))
        self.post_message(SessionEnded())

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker is not self._net or event.state is not WorkerState.ERROR:
            return
        error = event.worker.error
        self._exit_code = 1
        self.post_message(SessionEnded(f"{type(error).__name__}: {error}"))

    # ------------------------------------------------------------------ updates from the session

    def _note(self, *lines: narrate.Line | None) -> None:
        new = []
        for line in lines:
            if line:
                self._seq += 1
                new.append((self._seq, line))
        if new:
            self.journal = (*self.journal, *new)[-JOURNAL_LINES:]

    def _base(self) -> Screen | None:
        stack = self.screen_stack
        return stack[1] if len(stack) > 1 else None

    def _switch_base(self, screen: Screen) -> None:
        """Replace everything above the default screen with ``screen``."""
        while len(self.screen_stack) > 1:
            self.pop_screen()
        self.push_screen(screen)

    def _new_game(self) -> None:
        self.finished = None
        self.verifications = ()
        self.alarm = ""
        self._my_turn = False

    def on_lobby_changed(self, message: LobbyChanged) -> None:
        self.lobby = message.update
        if not isinstance(self._base(), LobbyScreen):
            self._new_game()
            self.table = None
            self._switch_base(LobbyScreen())

    def on_table_changed(self, message: TableChanged) -> None:
        update = message.update
        names = tuple(s.name for s in update.seats)
        lines = [narrate.event_line(e, names, self.glyphs) for e in update.events]
        view = update.view
        if view.last_pass is not None and any(isinstance(e, CardsPassed) for e in update.events):
            # The Juggler's pass: which card this seat gave and got, known to it alone.
            lines.append(narrate_specials.pass_line(*view.last_pass, self.glyphs))
        bidding_done = view.phase is Phase.PLAY and not view.tricks and not view.trick
        if bidding_done and any(isinstance(e, BidMade) for e in update.events):
            lines.append(
                narrate.bids_line(view.bids, view.hand_size, names, view.rules.hidden_bids)
            )
        rematch = self.finished is not None and update.view.phase is not Phase.GAME_OVER
        if rematch or not isinstance(self._base(), TableScreen):
            # A game begins (or is joined): the options in force head its log.
            self._note(self._house_rules_line(view))
        self._note(*lines)
        if rematch:
            self._new_game()
        self.table = update
        if rematch or not isinstance(self._base(), TableScreen):
            self._switch_base(TableScreen())
        my_turn = view.my_turn and view.phase not in (Phase.DEAL, Phase.GAME_OVER)
        if my_turn and not self._my_turn and self.ring_bell:
            self.bell()
        self._my_turn = my_turn

    def _house_rules_line(self, view: SeatView) -> narrate.Line | None:
        """``House rules: Hidden bids · Short game (8 rounds)``; None for the bare game."""
        if is_plain(view.rules, view.players):
            return None
        words = f" {self.glyphs.dot} ".join(table_option_words(view.rules, view.players))
        return ((_("House rules:") + " " + words, "text--accent"),)

    def on_game_ended(self, message: GameEnded) -> None:
        self.finished = message.update
        table = self.table
        names = tuple(s.name for s in table.seats) if table else ()
        me = table.view.seat if table else -1
        self.push_screen(FinalScreen(self._with_own_record(message.update), names, me))

    def _with_own_record(self, finished: GameFinished) -> GameFinished:
        """The record on this machine: the host's own for the host (the path the host
        sent), a joiner's own record (the session's), never a file on another machine."""
        if self.hosting:
            return finished
        own = getattr(self.session, "record_path", None)
        return dataclasses.replace(finished, record_path=str(own) if own else None)

    def on_chat_received(self, message: ChatReceived) -> None:
        chat = message.update
        if self.hosting and chat.seat is None and chat.name == "host key":
            # Solo: nobody to compare it with; the host: the lobby shows it already.
            return
        self._note(narrate.chat_line(chat))

    def on_round_checked(self, message: RoundChecked) -> None:
        result = message.update
        self.verifications = (*self.verifications, result)
        self._note(narrate.verified_line(result, self.glyphs))
        if not result.ok:
            self.alarm = _("round {round}: {detail}").format(
                round=result.round, detail=narrate.failure_detail(result)
            )
            if self.ring_bell:
                self.bell()

    def on_refused(self, message: Refused) -> None:
        self.refusal = message.update
        led = self.table.view.led_suit if self.table is not None else None
        self._note(narrate.refused_line(message.update, led))

    def on_link_state_changed(self, message: LinkStateChanged) -> None:
        change = message.update
        # Solo and the host's own table: a loopback link to this very program.
        quiet = self.hosting and change.state == "connected"
        if (change.state != self.link or change.detail) and not quiet:
            self._note(narrate.link_line(change))
        self.link_detail = change.detail
        self.link = change.state

    def on_session_ended(self, message: SessionEnded) -> None:
        self.ended = f" ({message.error})" if message.error else ""
        self.link = "closed"

    # ------------------------------------------------------------------ intents

    def on_key(self, event: events.Key) -> None:
        # The turn time: a seat marked away (connected, a bot deciding) is its player's
        # again at any key (docs/security.md, "No seat can stall the table").
        table = self.table
        if table is None or not 0 <= table.view.seat < len(table.seats):
            return
        seat = table.seats[table.view.seat]
        if seat.connected and seat.takeover_in == 0:
            here = getattr(self.session, "here", None)
            if here is not None:
                here()

    def action_hand_to_bot(self) -> None:
        """Host only: a bot decides for the (idle) seat on turn until its player is back."""
        table, hand = self.table, getattr(self.session, "hand_to_bot", None)
        if table is None or hand is None or table.view.turn < 0:
            return
        if table.view.turn == table.view.seat:
            self.notify(_("That is your own seat."), severity="warning")
            return
        hand(table.view.turn)

    def _connected(self) -> TableSession | None:
        """The session the intents go to (a warning while there is none yet). The handlers
        call its methods by name, so mypy checks every intent against ``TableSession``."""
        if self.session is None:
            self.notify(_("Not connected to a table yet."), severity="warning")
        return self.session

    def on_play_card(self, message: PlayCard) -> None:
        if (session := self._connected()) is not None:
            session.play(message.card)

    def on_make_bid(self, message: MakeBid) -> None:
        if (session := self._connected()) is not None:
            session.bid(message.bid)

    def on_pick_trump(self, message: PickTrump) -> None:
        if (session := self._connected()) is not None:
            session.choose_trump(message.suit)

    # The special cards: the client session's intents (docs/protocol.md).

    def on_name_trump_intent(self, message: NameTrumpIntent) -> None:
        if (session := self._connected()) is not None:
            session.name_trump(message.suit)

    def on_declare_intent(self, message: DeclareIntent) -> None:
        if (session := self._connected()) is not None:
            session.declare(message.choice)

    def on_adjust_bid_intent(self, message: AdjustBidIntent) -> None:
        if (session := self._connected()) is not None:
            session.adjust_bid(message.bid)

    def on_pass_card_intent(self, message: PassCardIntent) -> None:
        if (session := self._connected()) is not None:
            session.pass_card(message.card)

    def on_swap_intent(self, message: SwapIntent) -> None:
        if (session := self._connected()) is not None:
            session.swap(message.give, message.take)

    def on_send_chat(self, message: SendChat) -> None:
        if (session := self._connected()) is not None:
            session.chat(message.text)

    def on_start_game(self, message: StartGame) -> None:
        if (session := self._connected()) is not None:
            session.start_game()

    def on_add_bot(self, message: AddBot) -> None:
        if (session := self._connected()) is not None:
            session.add_bot()

    def on_remove_bot(self, message: RemoveBot) -> None:
        if (session := self._connected()) is not None:
            session.remove_bot(message.seat)

    def on_change_table(self, message: ChangeTable) -> None:
        if (session := self._connected()) is not None:
            # (A house rule left None is left out: the host keeps it as it is.)
            session.lobby_settings(
                message.seats,
                message.bot_level,
                message.restrict_last_bid,
                hidden_bids=message.hidden_bids,
                forehead=message.forehead,
                length=message.length,
                specials=message.specials,
            )

    def on_ask_rematch(self, message: AskRematch) -> None:
        if (session := self._connected()) is not None:
            session.rematch()

    # ------------------------------------------------------------------ actions any screen uses

    # The overlay screens load when first opened: fewer imports before the first paint.

    def action_help(self) -> None:
        from .screens.overlays import HelpScreen

        if not isinstance(self.screen, HelpScreen):
            self.push_screen(HelpScreen(lobby=isinstance(self.screen, LobbyScreen)))

    def action_chat(self) -> None:
        from .screens.overlays import ChatScreen

        if not isinstance(self.screen, ChatScreen):
            self.push_screen(ChatScreen(), self._chat_done)

    def _chat_done(self, text: str | None) -> None:
        if text:
            self.post_message(SendChat(text))

    def in_game(self) -> bool:
        return (
            self.table is not None
            and self.finished is None
            and self.ended is None
            and self.table.view.phase is not Phase.GAME_OVER
        )

    def action_request_quit(self) -> None:
        from .screens.overlays import QuitScreen

        if isinstance(self.screen, QuitScreen):
            return
        if self.in_game():
            self.push_screen(QuitScreen(), self._quit_answer)
        else:
            self.run_worker(self.leave(), group="quit", exclusive=True)

    def _quit_answer(self, leave: bool | None) -> None:
        if leave:
            if self.hosting and not self.solo:
                from .screens.overlays import RESUME_COMMAND

                said = _("The game was stopped. Carry it on with: {command}")
                self.farewell = said.format(command=RESUME_COMMAND)
            self.run_worker(self.leave(), group="quit", exclusive=True)

    async def action_quit(self) -> None:
        await self.leave()

    async def leave(self) -> None:
        """Close the session (briefly bounded) and exit with this run's status."""
        self.workers.cancel_group(self, "net")
        session = self.session
        if session is not None:
            with contextlib.suppress(TimeoutError, OSError, ConnectionError):
                await asyncio.wait_for(session.close(), CLOSE_TIMEOUT)
        self.exit(self._exit_code, return_code=self._exit_code)

    def get_key_display(self, binding: Binding) -> str:
        shown = super().get_key_display(binding)
        if self.glyphs.ascii:
            return ASCII_KEYS.get(shown, shown)
        return shown


def run_table(
    session: TableSession | SessionFactory,
    *,
    name: str = "",
    ascii: bool = False,
    bell: bool = False,
    mouse: bool = True,
    theme: str | None = None,
    join_command: Callable[[str, int], str] | None = None,
    hosting: bool = False,
    solo: bool = False,
) -> int:
    """Run the client in this terminal until the player quits; returns the exit status
    (0 after a normal quit, 1 if the session failed).

    ``session``: a ``TableSession``, or a callable (sync or async) that makes one inside the
    app's event loop. ``name``: this player's name (window subtitle). ``ascii``: suits as
    letters, no box or symbol glyphs. ``bell``: ring the terminal bell when it becomes this
    player's turn (and on a verification alarm). ``mouse``: False leaves the mouse to the
    terminal (native text selection). ``theme``: a Textual theme name, e.g. ``ansi-dark``.
    ``join_command``: how the lobby tells friends to join, from an address and the port.
    """
    app = WizardApp(
        session,
        name=name,
        ascii=ascii,
        bell=bell,
        theme=theme,
        join_command=join_command,
        hosting=hosting,
        solo=solo,
    )
    app.run(mouse=mouse)
    return _exit_status(app)


async def run_table_async(
    session: TableSession | SessionFactory,
    *,
    name: str = "",
    ascii: bool = False,
    bell: bool = False,
    mouse: bool = True,
    theme: str | None = None,
    join_command: Callable[[str, int], str] | None = None,
    hosting: bool = False,
    solo: bool = False,
    reach_lines: Sequence[str] = (),
    web_url: str | None = None,
) -> int:
    """``run_table`` inside an already running asyncio loop (e.g. beside an in-process host).

    ``reach_lines``: more ways in for the lobby to show (``ssh ...``, a browser URL);
    ``web_url``: the browser address, which the lobby can show as a QR code."""
    app = WizardApp(
        session,
        name=name,
        ascii=ascii,
        bell=bell,
        theme=theme,
        join_command=join_command,
        hosting=hosting,
        solo=solo,
        reach_lines=reach_lines,
        web_url=web_url,
    )
    await app.run_async(mouse=mouse)
    return _exit_status(app)


def _exit_status(app: WizardApp) -> int:
    """After the app ended: its farewell (e.g. how to resume) on the terminal, its status."""
    if app.farewell:
        print(app.farewell)
    return app.return_code or 0
