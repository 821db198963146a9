"""Shared pieces of the UI tests: waiting on conditions, scripted bots, hand-made decks."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Sequence

from textual.pilot import Pilot

from wizard_tui.bots import Bot
from wizard_tui.game import SeatView, sort_key


async def until(pilot: Pilot, condition: Callable[[], object], timeout: float = 5.0) -> None:
    """Let the app run until ``condition()`` holds; fail after ``timeout`` seconds."""
    loop = asyncio.get_running_loop()
    end = loop.time() + timeout
    while not condition():
        assert loop.time() < end, "timed out waiting for the UI"
        await pilot.pause(0.01)


class FirstLegalBot(Bot):
    """Predictable: the first legal bid (0 unless forbidden) and the first legal card in hand
    order, and clubs when it must name trump."""

    level = "first-legal"

    def choose_trump(self, view: SeatView) -> int:
        return 0

    def choose_bid(self, view: SeatView) -> int:
        return view.legal_bids[0]

    def choose_card(self, view: SeatView) -> int:
        return min(view.legal_cards, key=sort_key)


def card(text: str) -> int:
    """``H5`` -> the 5 of hearts; ``W`` / ``J`` -> the first Wizard / Jester."""
    if text == "W":
        return 52
    if text == "J":
        return 56
    suit = "CDHS".index(text[0])
    return suit * 13 + int(text[1:]) - 1


def deck(*first: str) -> tuple[int, ...]:
    """A deck that starts with the named cards, the rest in id order."""
    head = [card(c) for c in first]
    assert len(set(head)) == len(head)
    return (*head, *(c for c in range(60) if c not in head))


def decks(by_round: dict[int, Sequence[str]]) -> Callable[[int], tuple[int, ...]]:
    return lambda r: deck(*by_round.get(r, ()))


def screen_text(app) -> str:
    """What the terminal shows now, as plain text (one line per row)."""
    import io

    from rich.console import Console

    width, height = app.size
    console = Console(
        width=width,
        height=height,
        file=io.StringIO(),
        force_terminal=True,
        color_system=None,
        record=True,
        legacy_windows=False,
        safe_box=False,
    )
    # Textual has no public way to read the screen as text or cells: its compositor.
    console.print(app.screen._compositor.render_update(full=True))  # noqa: SLF001
    return console.export_text()


def screen_styles(app) -> list[list[tuple[str, object]]]:
    """Each row of the screen as (character, style) cells."""
    return [
        [(ch, seg.style) for seg in strip for ch in seg.text]
        for strip in app.screen._compositor.render_strips()  # noqa: SLF001  (as above)
    ]
