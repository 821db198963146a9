"""The turn time at the table (no network): a seat marked away is its player's again at
any key, the host's table hands the seat on turn to a bot with one key, and the seats
panel shows a connected seat's countdown and its away state."""

from __future__ import annotations

from wizard_tui.session import SeatInfo, TableUpdate
from wizard_tui.ui import WizardApp
from wizard_tui.ui.widgets.seats import SeatsPanel

from .helpers import until
from .sessions import StaticSession
from .tables import SEATS, mid_trick

SIZE = (80, 24)


class TurnTimeSession(StaticSession):
    def here(self) -> None:
        self.sent.append(("here",))

    def hand_to_bot(self, seat: int) -> None:
        self.sent.append(("hand_to_bot", seat))


def _with_seats(updates: list, seats: tuple[SeatInfo, ...]) -> list:
    return [
        TableUpdate(u.view, seats, u.events) if isinstance(u, TableUpdate) else u for u in updates
    ]


def _seats_text(app: WizardApp) -> str:
    panel = app.screen.query_one(SeatsPanel)
    return "\n".join(line.plain for line in panel.build(60))


async def test_any_key_takes_an_away_seat_back() -> None:
    away = (SeatInfo("Ann", "human", True, 0.0), *SEATS[1:])
    session = TurnTimeSession(_with_seats(mid_trick(), away))
    app = WizardApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.table is not None)
        assert "away: bot" in _seats_text(app)
        await pilot.press("s")  # any key, bound or not
        await until(pilot, lambda: ("here",) in session.sent)


async def test_no_here_while_the_seat_is_not_away() -> None:
    counting = (SEATS[0], SeatInfo("Bob", "human", True, 20.0), *SEATS[2:])
    session = TurnTimeSession(_with_seats(mid_trick(), counting))
    app = WizardApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.table is not None)
        text = _seats_text(app)
        assert "bot in 20s" in text, text  # a connected seat's turn time
        await pilot.press("z")
        await pilot.press("I")  # the host's key: the seat on turn (ours here) is refused
        await pilot.pause()
        assert ("here",) not in session.sent
        assert not [s for s in session.sent if s[0] == "hand_to_bot"]


async def test_the_host_hands_the_seat_on_turn_to_a_bot() -> None:
    updates = mid_trick()
    last = updates[-2] if not isinstance(updates[-1], TableUpdate) else updates[-1]
    assert isinstance(last, TableUpdate)
    view = last.view
    other_turn = [
        u for u in updates if isinstance(u, TableUpdate) and u.view.turn not in (-1, view.seat)
    ]
    assert other_turn
    session = TurnTimeSession([updates[0], other_turn[-1]])
    app = WizardApp(session)
    async with app.run_test(size=SIZE) as pilot:
        await until(pilot, lambda: app.table is not None)
        await pilot.press("I")
        await until(pilot, lambda: ("hand_to_bot", other_turn[-1].view.turn) in session.sent)
