"""The lobby: seats filling up, the addresses friends type to join, and (for the host)
adding bots and starting the game once 3 to 6 seats are taken."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import Screen

from ...session import LobbyUpdate
from ..glyphs import clean
from ..messages import AddBot, StartGame
from ..widgets.banner import Banner
from ..widgets.base import CardWidget
from ..widgets.journal import RecentLog
from ..widgets.keybar import KeyBar


class LobbyView(CardWidget):
    """The seats and the join addresses, drawn from the latest ``LobbyUpdate``."""

    def show(self, update: LobbyUpdate | None) -> None:
        self.update = update
        self.refresh(layout=True)

    update: LobbyUpdate | None = None

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
        out.append(f"Wizard lobby {g.dot} {who}\n\n", self.style("seat--me"))
        out.append(f"Seats: {filled} of {len(u.seats)} taken", accent)
        out.append(" (a game needs 3 to 6 players)\n", muted)
        for i, seat in enumerate(u.seats):
            out.append(f" {i + 1}  ")
            if seat is None:
                out.append("(empty)\n", muted)
                continue
            name = clean(seat.name, 24)
            out.append(self.fit(name, 24), self.style("seat--me") if i == u.my_seat else "")
            tags = []
            if i == u.my_seat:
                tags.append("you")
            if seat.kind == "bot":
                tags.append("bot")
            out.append(f" {', '.join(tags):<9}", muted)
            if seat.kind == "human":
                link = g.online if seat.connected else f"{g.offline} away"
                out.append(link, self.style("text--ok" if seat.connected else "text--error"))
            out.append("\n")
        if u.addresses:
            out.append("\nFriends join with:\n", accent)
            join = getattr(self.app, "join_command", None) or _address_and_port
            for address in u.addresses:
                out.append(f"  {clean(join(address, u.port), 76)}\n")
            for line in getattr(self.app, "reach_lines", ()):  # SSH, browser (reach/)
                out.append(f"  {clean(line, 76)}\n")
        if u.fingerprint:
            # The host's key as this table's handshake proved it: compared aloud, it
            # catches a man in the middle (docs/security.md).
            out.append("\nHost fingerprint: ", accent)
            out.append(clean(u.fingerprint, 24))
            tip = (
                "players who join must see the same"
                if u.is_host
                else "check the host shows the same"
            )
            out.append(f"  ({tip})\n", muted)
        out.append("\n")
        if u.is_host:
            out.append("a", accent)
            out.append(": add a bot    ")
            if u.can_start:
                out.append("Enter", accent)
                out.append(" or ")
                out.append("g", accent)
                out.append(": start the game (bots fill empty seats)")
            else:
                out.append("The game can start once 3 seats are taken.", muted)
        else:
            out.append("Waiting for the host to start the game.", muted)
        return out


class LobbyScreen(Screen):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("a", "add_bot", "Add bot"),
        Binding("enter,g", "start", "Start", key_display="⏎"),
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

    def on_mount(self) -> None:
        self.watch(self.app, "lobby", self._show)

    def _show(self, update: LobbyUpdate | None) -> None:
        self.query_one(LobbyView).show(update)
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        update: LobbyUpdate | None = self.app.lobby
        if action == "add_bot":
            if update is None or not update.is_host:
                return False
            return True if None in update.seats else None
        if action == "start":
            if update is None or not update.is_host:
                return False
            return True if update.can_start else None
        return True

    def action_add_bot(self) -> None:
        self.post_message(AddBot())

    def action_start(self) -> None:
        self.post_message(StartGame())

    def action_chat(self) -> None:
        self.app.open_chat()


def _address_and_port(address: str, port: int) -> str:
    return f"{address}  port {port}"
