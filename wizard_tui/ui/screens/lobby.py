"""The lobby: seats filling up, the addresses friends type to join, the options in force,
and (for the host) the evening's table: bots in and out, their level, 3 to 6 seats, the
last-bid rule, the house rules (hidden bids, the forehead round, the length), and the start
once 3 seats are taken. Every change is asked of the host, which sends the lobby back."""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar, NamedTuple

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen

from ...bots import LEVELS, thinking_time
from ...game.specials import Special
from ...i18n import N_, _
from ...reach.qr import qr_lines
from ...session import ActionRefused, LobbyUpdate
from ..glyphs import clean
from ..house_rules import (
    NAMED_LENGTHS,
    flag_words,
    last_bid_words,
    length_problem,
    length_words,
    rounds_of,
)
from ..messages import AddBot, ChangeTable, RemoveBot, StartGame
from ..refusals import refusal_text
from ..widgets.banner import Banner
from ..widgets.base import CardWidget
from ..widgets.journal import RecentLog
from ..widgets.keybar import KeyBar
from .qr import QrScreen
from .rounds import RoundsScreen

if TYPE_CHECKING:
    from textual import getters

    from ..table_app import TableApp

BOT_LEVELS = LEVELS
LAST_BID_RULES = ("never", "always", "after-round-1")
# The settings' codes (the wire's) in words: bot levels and last-bid rules.
SETTING_WORDS = {
    "random": N_("random"),
    "easy": N_("easy"),
    "normal": N_("normal"),
    "hard": N_("hard"),
    "expert": N_("expert"),
    "never": N_("never"),
    "always": N_("always"),
    "after-round-1": N_("after round 1"),
}


def setting_word(code: str) -> str:
    known = SETTING_WORDS.get(code)
    return _(known) if known is not None else clean(code, 24)


def level_words(level: str) -> str:
    """A bot level in words, with how long its bot may think when that is noticeable."""
    seconds = thinking_time(level)
    if seconds is None:
        return setting_word(level)
    return _("{level} (up to {seconds} s a move)").format(
        level=setting_word(level), seconds=f"{seconds:g}"
    )


def lobby_players(update: LobbyUpdate) -> int:
    """How many play if the game starts now (the seated: empty seats are dropped), or the
    seats while too few are seated to start."""
    filled = sum(s is not None for s in update.seats)
    return filled if filled >= 3 else len(update.seats)


class TableChoice(NamedTuple):
    """What the host's lobby asks of the host with ``lobby_settings``."""

    seats: int
    bot_level: str
    restrict_last_bid: str
    hidden_bids: bool
    forehead: bool
    length: str
    specials: tuple[str, ...] = ()  # the special cards' wire names, in card order


def _next(options: tuple[str, ...], current: str) -> str:
    if current not in options:
        return options[0]
    return options[(options.index(current) + 1) % len(options)]


class LobbyView(CardWidget):
    """The seats and the join addresses, drawn from the latest ``LobbyUpdate``."""

    update: LobbyUpdate | None = None
    cursor = 0  # the seat the host's keys act on
    notice = ""  # why the last change was not made (the host's refusal, or ours)

    def show(self, update: LobbyUpdate | None) -> None:
        self.update = update
        if update is not None:
            self.cursor = min(self.cursor, max(0, len(update.seats) - 1))
        self.refresh(layout=True)

    def say(self, notice: str) -> None:
        if notice != self.notice:
            self.notice = notice
            self.refresh(layout=True)

    def _wrapped(self, out: Text, parts: list[Text], indent: str) -> None:
        """``parts`` on as few lines as the width allows, a dot between them."""
        width = self.size.width or 80
        dot = f" {self.glyphs.dot} "
        column = cell_len(out.plain.rsplit("\n", 1)[-1])
        for i, part in enumerate(parts):
            if i and column + len(dot) + part.cell_len > width:
                out.append("\n" + indent)
                column = len(indent)
            elif i:
                out.append(dot)
                column += len(dot)
            out.append_text(part)
            column += part.cell_len
        out.append("\n")

    def _house_rules(self, out: Text, u: LobbyUpdate) -> None:
        """The options in force, for everyone; the host's keys for them; what went wrong."""
        accent, muted = self.style("text--accent"), self.style("text--muted")
        players = lobby_players(u)
        rounds = rounds_of(u.length, players)
        length = Text(length_words(u.length, rounds))
        if rounds is None:  # (a length from the command line that this table cannot deal)
            length.stylize(self.style("text--error"))
        words = [Text(w) for w in flag_words(u.hidden_bids, u.forehead)]
        chosen = lobby_specials(u)
        if chosen:  # "Special cards DRG FRY BMB", the cards in their own style
            cards = " ".join(card.short_name for card in chosen)
            said = _("Special cards {cards}").format(cards="{cards}")
            before, _sep, after = said.partition("{cards}")
            words.append(Text.assemble(before, (cards, self.style("card--special")), after))
        out.append(_("House rules:") + " ", accent)
        self._wrapped(out, [*(words or [Text(_("none"))]), length], "  ")
        if u.is_host:
            keys = (  # (? says more of each)
                ("h", _("hidden")),
                ("f", _("forehead")),
                ("n", _("length")),
                ("e", _("rounds")),
                ("p", _("special cards")),
            )
            parts = [Text.assemble((k, accent), " ", (what, muted)) for k, what in keys]
            out.append("  ")
            self._wrapped(out, parts, "  ")
        problem = length_problem(u.length, players) if rounds is None else None
        for said in dict.fromkeys(s for s in (self.notice, problem) if s):
            out.append(said + "\n", self.style("text--error"))

    def get_content_height(self, container, viewport, width: int) -> int:
        # As drawn: a line wider than the widget (a long notice, the fingerprint's tip at
        # 60 columns) takes two rows, and the lines below it must still show.
        text = self.render()
        text.no_wrap = False  # (Textual wraps it all the same)
        return len(text.wrap(self.app.console, max(1, width)))

    def render(self) -> Text:
        u = self.update
        g = self.glyphs
        out = Text(no_wrap=True, overflow="ellipsis", end="")
        if u is None:
            return out
        accent, muted = self.style("text--accent"), self.style("text--muted")
        filled = sum(s is not None for s in u.seats)
        me = u.seats[u.my_seat] if u.my_seat is not None else None
        if me is None:
            who = _("watching")
        elif u.is_host:
            who = _("you are {name} (host)").format(name=clean(me.name, 24))
        else:
            who = _("you are {name} (guest)").format(name=clean(me.name, 24))
        out.append(_("Wizard lobby") + f" {g.dot} {who}\n", self.style("seat--me"))
        taken = _("Seats: {n} of {of} taken").format(n=filled, of=len(u.seats))
        out.append(taken, accent)
        if None not in u.seats:
            out.append("  " + _("Table full"), self.style("text--ok"))
            if len(u.seats) < 6 and u.is_host:
                out.append(" " + _("(a adds a seat)"), muted)
        elif filled < 3:
            out.append(" " + _("(a game needs 3 to 6 players)"), muted)
        out.append("\n")
        for i, seat in enumerate(u.seats):
            chosen = u.is_host and i == self.cursor
            out.append(f"{g.turn if chosen else ' '}{i + 1}  ", accent if chosen else "")
            if seat is None:
                out.append(_("(empty)") + "\n", muted)
                continue
            name = clean(seat.name, 24)
            out.append(self.fit(name, 24), self.style("seat--me") if i == u.my_seat else "")
            tags = []
            if i == u.my_seat:
                tags.append(_("you"))
            if seat.kind == "bot":
                level = u.levels[i] if i < len(u.levels) else None
                tags.append(
                    _("bot, {level}").format(level=setting_word(level)) if level else _("bot")
                )
            # Padded by cells: a translated tag may be longer in characters than in cells.
            out.append(" " + self.fit(", ".join(tags), 12), muted)
            if seat.kind == "human":
                link = g.online if seat.connected else f"{g.offline} " + _("away")
                out.append(link, self.style("text--ok" if seat.connected else "text--error"))
            out.append("\n")
        if u.bot_level or u.restrict_last_bid:
            level = level_words(u.bot_level) if u.bot_level else "?"
            rule = last_bid_words(u.restrict_last_bid, u.hidden_bids)
            bots_and_rule = [
                Text.assemble((_("Bots:"), accent), " ", level),
                Text.assemble((_("Last bid restricted:"), accent), " ", rule),
            ]
            self._wrapped(out, bots_and_rule, "")
        self._house_rules(out, u)
        if u.addresses:
            out.append(_("Friends join with:") + " ", accent)
            join = getattr(self.app, "join_command", None) or _address_and_port
            out.append(f"{clean(join(u.addresses[0], u.port), 76)}\n")
            for address in u.addresses[1:3]:
                said = _("or {way}").format(way=clean(join(address, u.port), 72))
                out.append(f"  {said}\n", muted)
            for line in getattr(self.app, "reach_lines", ()):  # SSH, browser (reach/)
                out.append("  " + _("or {way}").format(way=clean(line, 72)) + "\n", muted)
            if getattr(self.app, "web_url", None):
                out.append("b", accent)
                said = _("shows the browser address as a QR code for phones")
                out.append(f" {said}\n", muted)
        if u.fingerprint and not getattr(self.app, "solo", False):
            # The host's key as this table's handshake proved it: compared aloud, it
            # catches a man in the middle (docs/security.md).
            out.append(_("Host fingerprint:") + " ", accent)
            out.append(clean(u.fingerprint, 24))
            tip = (
                _("joining players must see the same")
                if u.is_host
                else _("the host shows the same?")
            )
            out.append(f"  ({tip})\n", muted)
        if u.is_host:
            if u.can_start:
                out.append("Enter", accent)
                # (The game is the seated players': the host leaves empty seats out.)
                out.append(" " + _("starts with the players seated") + "   ")
            else:
                out.append(_("The game can start once 3 seats are taken.") + "   ", muted)
            out.append("?", accent)
            out.append(" " + _("lobby keys"))
        else:
            out.append(_("Waiting for the host to start the game."), muted)
        return out


class LobbyScreen(Screen):
    if TYPE_CHECKING:  # the app it runs in (``WizardApp``), typed as Textual does its own
        app = getters.app(TableApp)

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,g", "start", N_("Start"), key_display="⏎"),
        Binding("a", "add_bot", N_("Bot+")),
        Binding("x,delete", "remove_bot", N_("Bot-"), key_display="x"),
        Binding("l", "bot_level", N_("Level")),
        Binding("minus", "seats(-1)", N_("Seats"), key_display="-+"),
        Binding("plus,equals_sign", "seats(1)", N_("Seats"), show=False),
        Binding("r", "rule", N_("Rule")),
        # The house rules: not on the key bar (it is full at 80 columns); the lobby shows
        # these keys beside the options, and ? lists them.
        Binding("h", "hidden_bids", show=False),
        Binding("f", "forehead", show=False),
        Binding("n", "length", show=False),
        Binding("e", "rounds", show=False),
        Binding("p", "specials", show=False),
        Binding("up,k", "seat(-1)", N_("Seat"), show=False),
        Binding("down,j", "seat(1)", N_("Seat"), show=False),
        Binding("c", "chat", N_("Chat")),
        Binding("b", "qr_code", N_("QR"), show=False),
        Binding("question_mark,f1", "app.help", N_("Help"), key_display="?"),
    ]

    AUTO_FOCUS = None

    # Below 24 rows the lobby's blank rows go first (six seats, the house rules and a
    # refusal fill 60x20).
    VERTICAL_BREAKPOINTS: ClassVar[list[tuple[int, str]]] = [  # type: ignore[misc]
        (0, "-short"),
        (24, "-tall"),
    ]

    def compose(self) -> ComposeResult:
        yield Banner()
        with Vertical(id="lobby"):
            yield LobbyView(id="lobby-view")
            yield RecentLog(id="journal")
        yield KeyBar()

    # The settings last asked of the host, until its lobby says them back: keys pressed
    # in quick succession build on each other, not on a lobby from before the first.
    _asked: TableChoice | None = None

    def on_mount(self) -> None:
        self.watch(self.app, "lobby", self._show)
        self.watch(self.app, "refusal", self._refused, init=False)

    def _refused(self, refusal: ActionRefused | None) -> None:
        self._asked = None  # the host said no: start again from its lobby
        if refusal is not None:
            reason = refusal_text(refusal)
            self._view.say(_("The host refused: {reason}").format(reason=reason))

    @property
    def _view(self) -> LobbyView:
        return self.query_one(LobbyView)

    def _show(self, update: LobbyUpdate | None) -> None:
        if update is not None and self._asked == _settings_of(update):
            self._asked = None
        self._view.show(update)
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        update: LobbyUpdate | None = self.app.lobby
        host_only = (
            *("add_bot", "remove_bot", "bot_level", "seats", "rule", "seat", "start"),
            *("hidden_bids", "forehead", "length", "rounds", "specials"),
        )
        if action in host_only and (update is None or not update.is_host):
            return False
        if update is None:  # (every action below is the host's)
            return True
        if action == "add_bot":
            return True if None in update.seats or len(update.seats) < 6 else None
        if action == "remove_bot":
            return True if self._bot_to_remove(update) is not None else None
        if action == "bot_level":
            return True if update.bot_level else None
        if action == "rule":
            return True if update.restrict_last_bid else None
        if action == "start":
            # A length the table cannot deal (from the command line): the lobby says why.
            dealt = rounds_of(update.length, lobby_players(update)) is not None
            return True if update.can_start and dealt else None
        return True

    def _bot_to_remove(self, update: LobbyUpdate) -> int | None:
        """The chosen seat's bot, else the last bot."""
        bots = [i for i, s in enumerate(update.seats) if s is not None and s.kind == "bot"]
        cursor = self._view.cursor
        if cursor in bots:
            return cursor
        return bots[-1] if bots else None

    def _change(self, asked: TableChoice) -> None:
        """Ask the host for this table (made from ``_now``: keys in quick succession build
        on each other)."""
        asked = asked._replace(  # (a host that did not say: the defaults)
            bot_level=asked.bot_level or "normal",
            restrict_last_bid=asked.restrict_last_bid or "never",
        )
        self._asked = asked
        self._view.say("")
        u = self.app.lobby
        # The special cards are sent only when changed (None: as they are), as a host of
        # a version without them knows no such setting.
        said = lobby_specials_names(u) if u is not None else ()
        specials = asked.specials if asked.specials != said else None
        self.post_message(ChangeTable(*asked[:-1], specials=specials))

    def action_add_bot(self) -> None:
        self.post_message(AddBot())

    def action_remove_bot(self) -> None:
        u = self.app.lobby
        seat = self._bot_to_remove(u) if u is not None else None
        if seat is not None:
            self.post_message(RemoveBot(seat))

    def _now(self) -> TableChoice | None:
        u = self.app.lobby
        return None if u is None else self._asked or _settings_of(u)

    def action_bot_level(self) -> None:
        if now := self._now():
            self._change(now._replace(bot_level=_next(BOT_LEVELS, now.bot_level)))

    def action_rule(self) -> None:
        if now := self._now():
            rule = _next(LAST_BID_RULES, now.restrict_last_bid)
            self._change(now._replace(restrict_last_bid=rule))

    def action_seats(self, delta: int) -> None:
        if now := self._now():
            wanted = now.seats + delta
            if not 3 <= wanted <= 6:
                return
            # A chosen list of rounds may deal more cards than more seats allow: say so
            # here, in words, rather than ask and be refused.
            problem = length_problem(now.length, wanted)
            if problem is not None:
                self._view.say(problem + " " + _("(n or e changes the length)"))
                return
            self._change(now._replace(seats=wanted))

    def action_hidden_bids(self) -> None:
        if now := self._now():
            self._change(now._replace(hidden_bids=not now.hidden_bids))

    def action_forehead(self) -> None:
        if now := self._now():
            self._change(now._replace(forehead=not now.forehead))

    def action_length(self) -> None:
        """The next named length (a chosen list is followed by the full game)."""
        if now := self._now():
            self._change(now._replace(length=_next(NAMED_LENGTHS, now.length)))

    def action_rounds(self) -> None:
        """Type the cards of each round (``1,2,4,11``); a list the table cannot deal is
        refused in words and the input stays open."""
        now = self._now()
        if now is None:
            return
        seats = now.seats
        typed = "" if now.length in NAMED_LENGTHS else now.length

        def chosen(length: str | None) -> None:
            latest = self._now()  # (the lobby may have changed while the line was open)
            if length and latest is not None:
                self._change(latest._replace(length=length))

        self.app.push_screen(RoundsScreen(typed, lambda t: length_problem(t, seats)), chosen)

    def action_specials(self) -> None:
        """Choose the special cards: a row's digit turns it on or off (asked of the host)."""
        from .specials_pick import SpecialsScreen

        def current() -> frozenset[Special]:
            now = self._now()
            return frozenset(_parse_specials(now.specials)) if now is not None else frozenset()

        def change(chosen: frozenset[Special]) -> None:
            if now := self._now():
                self._change(now._replace(specials=tuple(c.wire_name for c in sorted(chosen))))

        self.app.push_screen(SpecialsScreen(current, change))

    def action_seat(self, delta: int) -> None:
        view = self._view
        u = self.app.lobby
        if u is not None and u.seats:
            view.cursor = (view.cursor + delta) % len(u.seats)
            view.refresh()
            self.refresh_bindings()

    def action_start(self) -> None:
        self.post_message(StartGame())

    def action_chat(self) -> None:
        self.app.action_chat()

    def action_qr_code(self) -> None:
        url = getattr(self.app, "web_url", None)
        if not url:
            return
        code = qr_lines(url)
        if code is None:
            self.notify(_("A QR code needs the web extra (pip install 'wizard-tui[web]')."))
            return
        self.app.push_screen(QrScreen(url, code))


def _settings_of(update: LobbyUpdate) -> TableChoice:
    return TableChoice(
        len(update.seats),
        update.bot_level,
        update.restrict_last_bid,
        update.hidden_bids,
        update.forehead,
        update.length,
        lobby_specials_names(update),
    )


def _parse_specials(names: tuple[str, ...]) -> list[Special]:
    """The special cards a lobby names (a name this version does not know is left out)."""
    cards = []
    for name in names:
        try:
            cards.append(Special.parse(str(name)))
        except ValueError:
            continue
    return sorted(set(cards))


def lobby_specials_names(update: LobbyUpdate) -> tuple[str, ...]:
    """The lobby's special cards, wire names in card order."""
    return tuple(str(name) for name in update.specials)


def lobby_specials(update: LobbyUpdate) -> list[Special]:
    return _parse_specials(lobby_specials_names(update))


def _address_and_port(address: str, port: int) -> str:
    return _("{address}  port {port}").format(address=address, port=port)
