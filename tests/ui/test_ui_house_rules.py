"""The house rules in the lobby and at the table (issue 18; docs/ui.md): the host chooses
hidden bids, the forehead round and the length by keys alone, a list of rounds the table
cannot deal is refused in words, every player's lobby names the options in force, and the
table names them in its log and its help. Pilot, read off the screen as text."""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from wizard_tui.game import Bid, Deal, Game, GameConfig, RestrictLastBid, TableRules, seat_view
from wizard_tui.net import protocol as p
from wizard_tui.net.client import NetworkSession
from wizard_tui.net.host import HostOptions
from wizard_tui.net.hosting import hosting
from wizard_tui.session import ActionRefused, LinkChanged, LobbyUpdate, SeatInfo, TableUpdate
from wizard_tui.ui import WizardApp
from wizard_tui.ui.screens.lobby import LobbyScreen
from wizard_tui.ui.screens.overlays import HelpScreen
from wizard_tui.ui.screens.rounds import RoundsScreen
from wizard_tui.ui.screens.table import TableScreen

from .helpers import screen_text, until
from .sessions import StaticSession

SIZES = [(80, 24), (60, 20)]
WAIT = 15.0
FOUR = (
    SeatInfo("Ann", "human"),
    SeatInfo("Bob", "human"),
    SeatInfo("Cid", "bot"),
    SeatInfo("Dee", "bot"),
)


def lobby(**settings: object) -> LobbyUpdate:
    """A full table of four, Ann the host, with ``settings`` of the lobby's."""
    update = LobbyUpdate(
        seats=FOUR,
        my_seat=0,
        addresses=("192.168.1.23",),
        port=4242,
        is_host=True,
        can_start=True,
        bot_level="normal",
        restrict_last_bid="never",
        levels=(None, None, "normal", "normal"),
    )
    return dataclasses.replace(update, **settings)  # type: ignore[arg-type]


def rows(text: str) -> list[str]:
    """The screen's lines without their margins and a sheet's borders."""
    return [line.strip(" │|") for line in text.splitlines()]


def sent_settings(session: StaticSession) -> list[tuple]:
    return [s for s in session.sent if s[0] == "lobby_settings"]


def asked(seats=4, level="normal", rule="never", hidden=False, forehead=False, length="full"):
    return (
        "lobby_settings",
        *(seats, level, rule),
        ("hidden_bids", hidden),
        ("forehead", forehead),
        ("length", length),
    )


async def test_each_house_rule_is_toggled_by_its_key_and_sent() -> None:
    session = StaticSession([LinkChanged("connected"), lobby()])
    app = WizardApp(session, hosting=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.lobby)
        text = screen_text(app)
        assert "House rules: none · Full game (15 rounds)" in text
        assert "h hidden · f forehead · n length · e rounds" in text
        # Keys in quick succession build on each other, as the lobby's others do.
        await pilot.press("h")
        await until(pilot, lambda: len(sent_settings(session)) == 1)
        assert sent_settings(session)[-1] == asked(hidden=True)
        await pilot.press("f")
        await until(pilot, lambda: len(sent_settings(session)) == 2)
        assert sent_settings(session)[-1] == asked(hidden=True, forehead=True)
        for count, length in enumerate(("short", "up-and-down", "full"), start=3):
            await pilot.press("n")
            await until(pilot, lambda n=count: len(sent_settings(session)) == n)  # type: ignore[misc]
            assert sent_settings(session)[-1] == asked(hidden=True, forehead=True, length=length)
        # The host says it back: the lobby names the options in force.
        session.push(lobby(hidden_bids=True, forehead=True))
        await until(pilot, lambda: app.lobby is not None and app.lobby.hidden_bids)
        await pilot.pause()
        text = screen_text(app)
        assert "House rules: Hidden bids · Forehead round · Full game (15 rounds)" in text
        assert "Last bid restricted: does not apply (hidden bids)" in text
        await pilot.press("h")  # from the lobby the host sent: hidden bids off again
        await until(pilot, lambda: len(sent_settings(session)) == 6)
        assert sent_settings(session)[-1] == asked(forehead=True)


@pytest.mark.parametrize("size", SIZES)
async def test_a_list_of_rounds_is_typed_and_a_bad_one_refused_in_words(size) -> None:
    session = StaticSession([LinkChanged("connected"), lobby()])
    app = WizardApp(session, hosting=True)
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.lobby)
        await pilot.press("e")
        await until(pilot, lambda: isinstance(app.screen, RoundsScreen))
        await pilot.press(*"1,2,30", "enter")  # four players: at most 15 cards each
        await pilot.pause()
        assert isinstance(app.screen, RoundsScreen)
        text = " ".join(screen_text(app).split())
        assert "4 players are dealt 1 to 15 cards a round, so not 1,2,30" in text
        await pilot.press(*["backspace"] * 6, *"1,x", "enter")
        await pilot.pause()
        assert isinstance(app.screen, RoundsScreen)
        assert "'1,x' is not a length" in " ".join(screen_text(app).split())
        assert sent_settings(session) == []
        await pilot.press(*["backspace"] * 3, *"1, 2,4,11", "enter")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        assert sent_settings(session) == [asked(length="1,2,4,11")]
        session.push(lobby(length="1,2,4,11"))
        await until(pilot, lambda: app.lobby is not None and app.lobby.length != "full")
        await pilot.pause()
        text = " ".join(screen_text(app).split())
        assert "Rounds of 1,2,4,11 cards (4 rounds)" in text
        # A length's name may be typed too.
        await pilot.press("e")
        await until(pilot, lambda: isinstance(app.screen, RoundsScreen))
        await pilot.press("backspace", *"Short", "enter")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        assert sent_settings(session)[-1] == asked(length="short")
        # Esc leaves the length as it is.
        await pilot.press("e")
        await until(pilot, lambda: isinstance(app.screen, RoundsScreen))
        await pilot.press("escape")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen))
        assert len(sent_settings(session)) == 2


async def test_more_seats_than_a_list_can_deal_are_refused_in_words() -> None:
    three = lobby(seats=FOUR[:3], levels=(None, None, "normal"), length="1,2,20")
    session = StaticSession([LinkChanged("connected"), three])
    app = WizardApp(session, hosting=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.lobby)
        await pilot.press("plus")  # 4 seats cannot be dealt 20 cards each
        await pilot.pause()
        assert sent_settings(session) == []
        text = " ".join(screen_text(app).split())
        assert "4 players are dealt 1 to 15 cards a round, so not 1,2,20" in text
        await pilot.press("n")  # a named length fits any table: the words go
        await until(pilot, lambda: len(sent_settings(session)) == 1)
        assert sent_settings(session)[-1] == asked(seats=3, length="full")  # (a list: full next)
        await pilot.pause()
        assert "so not 1,2,20" not in " ".join(screen_text(app).split())


async def test_the_host_s_refusal_is_shown_in_the_lobby() -> None:
    session = StaticSession([LinkChanged("connected"), lobby()])
    app = WizardApp(session, hosting=True)
    async with app.run_test(size=(60, 20)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.lobby)
        await pilot.press("minus")
        await until(pilot, lambda: len(sent_settings(session)) == 1)
        session.push(ActionRefused("not_ready", "2 players are seated: keep 2 seats"))
        await until(pilot, lambda: "The host refused:" in screen_text(app))
        assert "keep 2 seats" in screen_text(app)


@pytest.mark.parametrize("size", SIZES)
async def test_a_joiner_s_lobby_names_the_options_in_force(size) -> None:
    guest = lobby(
        my_seat=1,
        is_host=False,
        can_start=False,
        hidden_bids=True,
        forehead=True,
        length="up-and-down",
        restrict_last_bid="always",
        fingerprint="PFXK-VUA4-WUGO-CN5N",  # its tip takes two rows at 60 columns
    )
    session = StaticSession([LinkChanged("connected"), guest])
    app = WizardApp(session)
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.lobby)
        await pilot.pause()
        text = " ".join(screen_text(app).split())
        # (At 60 columns the length goes on a line of its own.)
        assert "House rules: Hidden bids · Forehead round" in text
        assert "Up and down (29 rounds)" in text
        assert "Last bid restricted: does not apply (hidden bids)" in text
        assert "h hidden" not in text  # the host's keys only
        assert "Waiting for the host to start the game." in text  # below a wrapped line
        await pilot.press("h", "f", "n", "e")
        await pilot.pause()
        assert isinstance(app.screen, LobbyScreen)
        assert sent_settings(session) == []


def started(rules: TableRules, players: int = 4) -> list:
    """Round 1 dealt by seat 1, so seat 2 bids first: no panel opens over seat 0's log."""
    game = Game(GameConfig(players, 1, rules))
    cards = list(range(60))
    random.Random(4).shuffle(cards)
    game.apply(Deal(tuple(cards)))
    if rules.hidden_bids:  # every seat yet to bid is on turn: seat 0 has sealed its own
        while game.turn != 1:
            game.apply(Bid(game.turn, 0))
    view = seat_view(game, 0)
    assert not view.my_turn
    return [LinkChanged("connected"), TableUpdate(view=view, seats=FOUR[:players])]


@pytest.mark.parametrize("size", SIZES)
async def test_the_table_names_the_options_in_force_in_its_log_and_help(size) -> None:
    rules = TableRules(RestrictLastBid.ALWAYS, hidden_bids=True, rounds=(1, 2, 3, 4, 5, 6, 7, 8))
    app = WizardApp(StaticSession(started(rules)))
    async with app.run_test(size=size) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TableScreen))
        await pilot.pause()
        assert "House rules: Hidden bids · Short game (8 rounds)" in screen_text(app)
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        text = screen_text(app)
        assert "This table" in text
        assert "House rules: Hidden bids" in rows(text)  # (the length on its own line)
        assert "Length: Short game (8 rounds)" in text
        assert "Last bid restricted: does not apply (hidden bids)" in text


async def test_the_bare_game_s_table_says_nothing_of_house_rules() -> None:
    app = WizardApp(StaticSession(started(TableRules())))
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TableScreen))
        await pilot.pause()
        assert "House rules" not in screen_text(app)
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        assert "This table" not in screen_text(app)


async def test_the_real_host_starts_the_game_the_lobbies_name(tmp_path: Path) -> None:
    """Through the host on 127.0.0.1: options given at the start (as --hidden-bids and
    --length short give them) are the lobby's starting values, the host's keys change them,
    a joiner's lobby names them, and the game starts with them."""
    options = HostOptions(
        players=4,
        bots=2,
        rules=TableRules(hidden_bids=True),
        length="short",
        records_dir=tmp_path,
        auto_start=False,
        deal=p.DEAL_COMMIT_REVEAL,
    )
    async with hosting(options, bind="127.0.0.1", port=0) as host:
        assert host.server is not None
        key = host.server.identity.public_key
        mine = NetworkSession(
            "127.0.0.1", options.port, name="Ann", host_key=host.host_key, server_key=key
        )
        theirs = NetworkSession("127.0.0.1", options.port, name="Bob", server_key=key)
        await mine.connect()
        await theirs.connect()
        app, guest = WizardApp(mine, hosting=True), WizardApp(theirs)
        async with app.run_test(size=(80, 24)) as pilot, guest.run_test(size=(60, 20)) as other:
            await until(pilot, lambda: app.lobby is not None and app.lobby.is_host, WAIT)
            await until(pilot, lambda: app.lobby is not None and None not in app.lobby.seats, WAIT)
            text = " ".join(screen_text(app).split())
            assert "House rules: Hidden bids · Short game (8 rounds)" in text
            await pilot.press("f", "n")  # the forehead round on; short -> up and down
            await until(pilot, lambda: app.lobby is not None and app.lobby.forehead, WAIT)
            await until(pilot, lambda: app.lobby is not None and app.lobby.length != "short", WAIT)
            assert app.lobby.length == "up-and-down"
            wanted = ("Hidden bids · Forehead round", "Up and down (29 rounds)")
            await until(other, lambda: all(w in screen_text(guest) for w in wanted), WAIT)
            await pilot.press("enter")
            await until(pilot, lambda: app.table is not None, WAIT)
            rules = app.table.view.rules
            assert (rules.hidden_bids, rules.forehead) == (True, True)
            assert rules.rounds == (*range(1, 16), *range(14, 0, -1))
        await mine.close()
        await theirs.close()


async def test_a_length_the_table_cannot_deal_is_named_and_the_game_not_started() -> None:
    """``host --length 1,2,30`` at a table of four: the lobby says why, and Enter waits."""
    session = StaticSession([LinkChanged("connected"), lobby(length="1,2,30")])
    app = WizardApp(session, hosting=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.lobby)
        await pilot.pause()
        text = " ".join(screen_text(app).split())
        assert "Rounds of 1,2,30 cards" in text
        assert "4 players are dealt 1 to 15 cards a round, so not 1,2,30" in text
        assert app.screen.check_action("start", ()) is None
        await pilot.press("enter")
        await pilot.pause()
        assert ("start_game",) not in session.sent


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["play", "--length", "1,2,30"], "--length 1,2,30: a round of 4 players deals 1 to 15"),
        (["host", "--players", "5", "--length", "1,x", "--bind", "127.0.0.1"], "--length 1,x"),
    ],
)
def test_a_length_the_table_cannot_deal_is_refused_on_the_command_line(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from wizard_tui.cli import main

    assert main(argv) == 2
    assert capsys.readouterr().err.startswith(f"wizard-tui: {message}")


async def test_under_ascii_the_options_hold_no_character_above_7f() -> None:
    everything = lobby(hidden_bids=True, forehead=True, length="1,2,4,11")
    app = WizardApp(StaticSession([LinkChanged("connected"), everything]), ascii=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.lobby)
        await pilot.pause()
        text = screen_text(app)
        assert "House rules: Hidden bids - Forehead round" in text
        assert {ch for ch in text if ord(ch) > 0x7F} == set()
    rules = TableRules(hidden_bids=True, forehead=True, rounds=(1, 2, 1))
    app = WizardApp(StaticSession(started(rules)), ascii=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TableScreen))
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        text = screen_text(app)
        assert "House rules: Hidden bids - Forehead round" in text
        assert "Length: Rounds of 1,2,1 cards (3 rounds)" in text
        assert {ch for ch in text if ord(ch) > 0x7F} == set()
