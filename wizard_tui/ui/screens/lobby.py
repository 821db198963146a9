"""The lobby: seats filling up, the addresses friends type to join, and (for the host) the
evening's table: bots in and out, their level, 3 to 6 seats, the last-bid rule, and the
start once 3 seats are taken. Every change is asked of the host, which sends the lobby back."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen

from ...bots import LEVELS, level_label
from ...session import LobbyUpdate
from ..glyphs import clean
from ..messages import AddBot, ChangeTable, RemoveBot, StartGame
from ..widgets.banner import Banner
from ..widgets.base import CardWidget
from ..widgets.journal import RecentLog
from ..widgets.keybar import KeyBar

BOT_LEVELS = LEVELS
LAST_BID_RULES = ("never", "always", "after-round-1")
RULE_WORDS = {
    "never": "off",
    "always": "bids may not add up",
    "after-round-1": "from round 2",
}


def _next(options: tuple[str, ...], current: str) -> str:
    if current not in options:
        return options[0]
    return options[(options.index(current) + 1) % len(options)]


class LobbyView(CardWidget):
    """The seats and the join addresses, drawn from the latest ``LobbyUpdate``."""

    update: LobbyUpdate | None = None
    cursor = 0  # the seat the host's keys act on

    def show(self, update: LobbyUpdate | None) -> None:
        self.update = update
        if update is not None:
            self.cursor = min(self.cursor, max(0, len(update.seats) - 1))
        self.refresh(layout=True)

    def get_content_height(self, container, viewport, width: int) -> int:
        return len(self.render().plain.splitlines())

    def render(self) -> Text:
        u = self.update
        g = self.glyphs
        out = Text(no_wrap=True, overflow="ellipsis", end="")
        if u is None:
            return out
        accent, muted = self.style("text--accent"), self.style("text--muted")
        filled = sum(s is not None for s in u.seats)
        role = "host" if u.is_host else "guest"
        me = u.seats[u.my_seat] if u.my_seat is not None else None
        who = f"you are {clean(me.name, 24)} ({role})" if me is not None else "watching"
        out.append(f"Wizard lobby {g.dot} {who}\n", self.style("seat--me"))
        out.append(f"Seats: {filled} of {len(u.seats)} taken", accent)
        if None not in u.seats:
            out.append("  Table full", self.style("text--ok"))
            if len(u.seats) < 6 and u.is_host:
                out.append(" (a adds a seat)", muted)
        elif filled < 3:
            out.append(" (a game needs 3 to 6 players)", muted)
        out.append("\n")
        for i, seat in enumerate(u.seats):
            chosen = u.is_host and i == self.cursor
            out.append(f"{g.turn if chosen else ' '}{i + 1}  ", accent if chosen else "")
            if seat is None:
                out.append("(empty)\n", muted)
                continue
            name = clean(seat.name, 24)
            out.append(self.fit(name, 24), self.style("seat--me") if i == u.my_seat else "")
            tags = []
            if i == u.my_seat:
                tags.append("you")
            if seat.kind == "bot":
                level = u.levels[i] if i < len(u.levels) else None
                tags.append(f"bot, {level}" if level else "bot")
            out.append(f" {', '.join(tags):<12}", muted)
            if seat.kind == "human":
                link = g.online if seat.connected else f"{g.offline} away"
                out.append(link, self.style("text--ok" if seat.connected else "text--error"))
            out.append("\n")
        if u.bot_level or u.restrict_last_bid:
            out.append("Bots: ", accent)
            out.append(level_label(u.bot_level) if u.bot_level else "?")
            out.append(f"   {g.dot} Last bid restricted: ", accent)
            rule = u.restrict_last_bid
            out.append(f"{rule} ({RULE_WORDS.get(rule, '')})\n" if rule != "never" else "no\n")
        if u.addresses:
            out.append("Friends join with: ", accent)
            join = getattr(self.app, "join_command", None) or _address_and_port
            out.append(f"{clean(join(u.addresses[0], u.port), 76)}\n")
            for address in u.addresses[1:3]:
                out.append(f"  or {clean(join(address, u.port), 72)}\n", muted)
            for line in getattr(self.app, "reach_lines", ()):  # SSH, browser (reach/)
                out.append(f"  or {clean(line, 72)}\n", muted)
        if u.fingerprint and not getattr(self.app, "solo", False):
            # The host's key as this table's handshake proved it: compared aloud, it
            # catches a man in the middle (docs/security.md).
            out.append("Host fingerprint: ", accent)
            out.append(clean(u.fingerprint, 24))
            tip = "joining players must see the same" if u.is_host else "the host shows the same?"
            out.append(f"  ({tip})\n", muted)
        if u.is_host:
            if u.can_start:
                out.append("Enter", accent)
                out.append(" starts (bots fill empty seats)   ")
            else:
                out.append("The game can start once 3 seats are taken.   ", muted)
            out.append("?", accent)
            out.append(" lobby keys")
        else:
            out.append("Waiting for the host to start the game.", muted)
        return out


class LobbyScreen(Screen):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter,g", "start", "Start", key_display="⏎"),
        Binding("a", "add_bot", "Bot+"),
        Binding("x,delete", "remove_bot", "Bot-", key_display="x"),
        Binding("l", "bot_level", "Level"),
        Binding("minus", "seats(-1)", "Seats", key_display="-+"),
        Binding("plus,equals_sign", "seats(1)", "Seats", show=False),
        Binding("r", "rule", "Rule"),
        Binding("up,k", "seat(-1)", "Seat", show=False),
        Binding("down,j", "seat(1)", "Seat", show=False),
        Binding("c", "chat", "Chat"),
        Binding("question_mark,f1", "app.help", "Help", key_display="?"),
    ]

    AUTO_FOCUS = None

    def compose(self) -> ComposeResult:
        yield Banner()
        with Vertical(id="lobby"):
            yield LobbyView(id="lobby-view")
            yield RecentLog(id="journal")
        yield KeyBar()

    # The settings last asked of the host, until its lobby says them back: keys pressed
    # in quick succession build on each other, not on a lobby from before the first.
    _asked: tuple[int, str, str] | None = None

    def on_mount(self) -> None:
        self.watch(self.app, "lobby", self._show)
        self.watch(self.app, "refusal", self._refused, init=False)

    def _refused(self) -> None:
        self._asked = None  # the host said no: start again from its lobby

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
        host_only = ("add_bot", "remove_bot", "bot_level", "seats", "rule", "seat", "start")
        if action in host_only and (update is None or not update.is_host):
            return False
        assert update is not None or action not in host_only
        if action == "add_bot":
            return True if None in update.seats or len(update.seats) < 6 else None
        if action == "remove_bot":
            return True if self._bot_to_remove(update) is not None else None
        if action == "bot_level":
            return True if update.bot_level else None
        if action == "rule":
            return True if update.restrict_last_bid else None
        if action == "start":
            return True if update.can_start else None
        return True

    def _bot_to_remove(self, update: LobbyUpdate) -> int | None:
        """The chosen seat's bot, else the last bot."""
        bots = [i for i, s in enumerate(update.seats) if s is not None and s.kind == "bot"]
        cursor = self._view.cursor
        if cursor in bots:
            return cursor
        return bots[-1] if bots else None

    def _change(self, *, seats: int | None = None, level: str = "", rule: str = "") -> None:
        u: LobbyUpdate | None = self.app.lobby
        if u is None:
            return
        base = self._asked or _settings_of(u)
        asked = (
            seats if seats is not None else base[0],
            level or base[1] or "normal",
            rule or base[2] or "never",
        )
        self._asked = asked
        self.post_message(ChangeTable(*asked))

    def action_add_bot(self) -> None:
        self.post_message(AddBot())

    def action_remove_bot(self) -> None:
        u = self.app.lobby
        seat = self._bot_to_remove(u) if u is not None else None
        if seat is not None:
            self.post_message(RemoveBot(seat))

    def _now(self) -> tuple[int, str, str] | None:
        u = self.app.lobby
        return None if u is None else self._asked or _settings_of(u)

    def action_bot_level(self) -> None:
        if now := self._now():
            self._change(level=_next(BOT_LEVELS, now[1]))

    def action_rule(self) -> None:
        if now := self._now():
            self._change(rule=_next(LAST_BID_RULES, now[2]))

    def action_seats(self, delta: int) -> None:
        if now := self._now():
            wanted = now[0] + delta
            if 3 <= wanted <= 6:
                self._change(seats=wanted)

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


def _settings_of(update: LobbyUpdate) -> tuple[int, str, str]:
    return (len(update.seats), update.bot_level, update.restrict_last_bid)


def _address_and_port(address: str, port: int) -> str:
    return f"{address}  port {port}"
