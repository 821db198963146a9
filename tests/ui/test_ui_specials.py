"""The special cards at the table (docs/rules.md, "Special cards"; docs/ui.md): each drawn
with its own letters and style, in the normal look and under ``--ascii``; every choice they
ask for made by keys alone; their effects in the log; the help and the lobby naming those in
force; and no line cut or overflowing at 80x24 and 60x20.

The games are real ones (the engine's ``Game`` with special cards, decks laid out so the
wanted moment comes), played through ``LocalSession``: the other seats take the engine's
first legal action.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

import pytest
from rich.style import Style

from wizard_tui import i18n
from wizard_tui.game import Phase, Suit, TableRules, dealer_of
from wizard_tui.game.specials import SPECIALS, Declaration, Special, deck_cards
from wizard_tui.session import LinkChanged, LobbyUpdate, SeatInfo
from wizard_tui.ui import WizardApp
from wizard_tui.ui.screens.overlays import HelpScreen, LastTrickScreen
from wizard_tui.ui.screens.specials_pick import SpecialsScreen
from wizard_tui.ui.screens.table import TableScreen
from wizard_tui.ui.widgets import trick as trick_module
from wizard_tui.ui.widgets.decisions import (
    AdjustBidPanel,
    BidPanel,
    DecisionPanel,
    DeclarePanel,
    NameTrumpPanel,
    SwapPanel,
)
from wizard_tui.ui.widgets.hand import HandView
from wizard_tui.ui.widgets.lines import LinesWidget
from wizard_tui.ui.widgets.status import PromptLine
from wizard_tui.ui.widgets.trick import TrickView

from .helpers import card, screen_styles, screen_text, until
from .sessions import LocalSession, StaticSession
from .test_ui_languages import problems

PLAYERS = 3
FIRST_DEALER = 2  # round 1: seat 2 deals, we (seat 0) bid first and lead


def any_card(name: str) -> int:
    """``H7``, ``W``, ``J`` or a special card's letters (``JGL``)."""
    try:
        return int(Special.parse(name))
    except ValueError:
        return card(name)


def laid_deck(
    specials: frozenset[Special], round_number: int, hands: Mapping[int, Sequence[str]], trump: str
) -> tuple[int, ...]:
    """A deck for round ``round_number`` dealing ``hands`` (seat -> cards) and turning up
    ``trump``; the rest of ``deck_cards(specials)`` after them."""
    dealer = dealer_of(FIRST_DEALER, round_number, PLAYERS)
    queues = {seat: [any_card(c) for c in cards] for seat, cards in hands.items()}
    size = len(queues[0])
    head = [queues[(dealer + 1 + j) % PLAYERS].pop(0) for j in range(size * PLAYERS)]
    head.append(any_card(trump))
    assert len(set(head)) == len(head)
    return (*head, *(c for c in deck_cards(specials) if c not in head))


def session_for(
    specials: Sequence[Special],
    hands: Mapping[int, Sequence[str]],
    trump: str = "H7",
    round_number: int = 1,
) -> LocalSession:
    chosen = frozenset(specials)
    laid = laid_deck(chosen, round_number, hands, trump)
    rng = random.Random(3)

    def deck_for(r: int) -> Sequence[int]:
        if r == round_number:
            return laid
        shuffled = list(deck_cards(chosen))
        rng.shuffle(shuffled)
        return shuffled

    return LocalSession(
        PLAYERS,
        first_dealer=FIRST_DEALER,
        deck_for=deck_for,
        rules=TableRules(specials=chosen),
        from_round=round_number,
    )


def table(app: WizardApp) -> TableScreen:
    screen = app.screen
    assert isinstance(screen, TableScreen)
    return screen


def panel_of(app: WizardApp, kind: type[DecisionPanel]) -> DecisionPanel | None:
    screen = app.screen
    if isinstance(screen, TableScreen) and isinstance(screen.open_panel, kind):
        return screen.open_panel
    return None


def log_text(app: WizardApp) -> str:
    return "\n".join("".join(text for text, _ in line) for _, line in app.journal)


def widget_text(app: WizardApp, kind: type[LinesWidget]) -> str:
    widget: LinesWidget = app.screen.query_one(kind)
    return "\n".join(line.plain for line in widget.build(widget.content_size.width))


async def bid(pilot, app: WizardApp, value: int) -> None:
    await until(pilot, lambda: panel_of(app, BidPanel) is not None)
    await pilot.press(str(value), "enter")


async def select_in_hand(pilot, app: WizardApp, wanted: int) -> None:
    hand = app.screen.query_one(HandView)
    await until(pilot, lambda: wanted in hand.cards)
    while hand.selected != wanted:
        await pilot.press("right")


@pytest.fixture(autouse=True)
def _held(monkeypatch: pytest.MonkeyPatch) -> None:
    # A completed trick stays on show while the test reads it.
    monkeypatch.setattr(trick_module, "HOLD_SECONDS", 3600.0)


# ---------------------------------------------------------------------- drawing the cards


@pytest.mark.parametrize("ascii_only", [False, True], ids=["unicode", "ascii"])
async def test_every_special_card_drawn_by_its_letters_and_style(ascii_only: bool) -> None:
    """Nine special cards in the hand (round 10 of a 3-player game), each by its short name,
    in the special cards' style (not the Jester's: their ids lie past the Jesters'), and
    nothing above U+007F under --ascii."""
    nine = [card.short_name for card in SPECIALS]
    hands = {
        0: [*nine, "C2"],
        1: [f"C{r}" for r in range(3, 13)],
        2: [f"D{r}" for r in range(1, 11)],
    }
    session = session_for(SPECIALS, hands, trump="S5", round_number=10)
    app = WizardApp(session, name="Ann", ascii=ascii_only)
    async with app.run_test(size=(80, 24)) as pilot:
        hand = app.screen.query_one(HandView)
        await until(pilot, lambda: len(hand.cards) >= 9 and not hand.cards.count(63))
        text = screen_text(app)
        # The Werewolf went to the trump card's place: the other eight are in the hand.
        drawn = widget_text(app, HandView)
        for name in nine:
            assert name in drawn, name
        assert int(Special.WEREWOLF) not in hand.cards
        # ... where its holder is asked to name trump (us: the panel is open).
        assert "WLF" in next(row for row in drawn.splitlines() if "the Werewolf" in row)
        styles = screen_styles(app)
        # (the hand's row: the last one; the log's first line names the cards too)
        row = max(i for i, cells in enumerate(styles) if "DRG" in "".join(c for c, _s in cells))
        cells = styles[row]
        line = "".join(c for c, _s in cells)
        drg = cells[line.index("DRG")][1]
        assert isinstance(drg, Style)
        special_style = hand.style("card--special")
        jester_style = hand.style("card--jester")
        assert special_style != jester_style
        assert drg.bold and drg.italic  # never colour alone
        if ascii_only:
            assert all(ord(ch) < 128 for ch in text), [ch for ch in text if ord(ch) >= 128]


# ---------------------------------------------------------------------- the Werewolf


@pytest.mark.parametrize(
    ("key", "named"), [("s", Suit.SPADES), ("n", None)], ids=["spades", "no-trump"]
)
async def test_werewolf_names_trump_by_a_key(key: str, named: Suit | None) -> None:
    session = session_for([Special.WEREWOLF], {0: ["WLF"], 1: ["C2"], 2: ["C3"]})
    app = WizardApp(session, name="Ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: panel_of(app, NameTrumpPanel) is not None)
        panel = table(app).open_panel
        assert panel is not None
        assert "7♥" in str(panel.query_one("#question").render())
        await pilot.press(key)
        await until(pilot, lambda: ("name_trump", named) in session.sent)
        await until(pilot, lambda: session.view.phase is Phase.BID)
        await until(pilot, lambda: "Werewolf:" in log_text(app))
        said = log_text(app)
        assert "Ann takes 7♥" in said
        assert ("no trump" in said) if named is None else ("spades as trump" in said)
        # The trump area: the Werewolf lies in the trump card's place, and took the 7.
        await until(pilot, lambda: "took 7♥" in widget_text(app, HandView))
        shown = widget_text(app, HandView)
        assert "WLF" in shown
        assert card("H7") in app.screen.query_one(HandView).cards


# ---------------------------------------------------------------------- declarations


@pytest.mark.parametrize(
    ("special", "key", "choice", "mark"),
    [
        (Special.JUGGLER, "s", Declaration.SPADES, "JGL♠"),
        (Special.CLOUD, "d", Declaration.DIAMONDS, "CLD♦"),
        (Special.SHAPESHIFTER, "w", Declaration.WIZARD, "SHPW"),
        (Special.SHAPESHIFTER, "j", Declaration.JESTER, "SHPJ"),
    ],
    ids=["juggler", "cloud", "shapeshifter-wizard", "shapeshifter-jester"],
)
async def test_a_declaration_by_a_key_and_shown_in_the_trick(
    special: Special, key: str, choice: Declaration, mark: str
) -> None:
    session = session_for([special], {0: [special.short_name], 1: ["C2"], 2: ["C3"]})
    app = WizardApp(session, name="Ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await bid(pilot, app, 0)
        await until(pilot, lambda: session.view.phase is Phase.PLAY and session.view.my_turn)
        await pilot.press("enter")
        await until(pilot, lambda: panel_of(app, DeclarePanel) is not None)
        await pilot.press(key)
        await until(pilot, lambda: ("declare", int(choice)) in session.sent)
        await until(pilot, lambda: mark in widget_text(app, TrickView))
        said = log_text(app)
        if choice in (Declaration.WIZARD, Declaration.JESTER):
            assert f"Ann plays {special.short_name} as a" in said
        else:
            assert f"for {special.short_name}." in said


# ---------------------------------------------------------------------- after a trick


def round_two(special: Special) -> LocalSession:
    """Round 2 (we deal; Bob leads): we hold ``special`` and the 13 of clubs, the others
    low clubs, so ``special`` played as clubs takes the first trick."""
    hands = {0: [special.short_name, "C13"], 1: ["C2", "C4"], 2: ["C3", "C5"]}
    return session_for([special], hands, trump="H7", round_number=2)


async def play_special_first(pilot, app: WizardApp, session: LocalSession, special: Special):
    await bid(pilot, app, 1)
    await until(pilot, lambda: session.view.phase is Phase.PLAY and session.view.my_turn)
    await select_in_hand(pilot, app, int(special))
    await pilot.press("enter")


async def test_cloud_changes_the_bid_by_keys() -> None:
    session = round_two(Special.CLOUD)
    app = WizardApp(session, name="Ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await play_special_first(pilot, app, session, Special.CLOUD)
        await until(pilot, lambda: panel_of(app, DeclarePanel) is not None)
        await pilot.press("c")
        await until(pilot, lambda: panel_of(app, AdjustBidPanel) is not None)
        panel = table(app).open_panel
        assert isinstance(panel, AdjustBidPanel)
        assert panel.values == (0, 2)  # one down or one up, the legal ones only
        await pilot.press("plus", "enter")
        await until(pilot, lambda: ("adjust_bid", 2) in session.sent)
        await until(pilot, lambda: "Cloud: Ann changes the bid to 2." in log_text(app))
        assert session.view.bids[0] == 2


async def test_juggler_pass_with_the_hand_cursor() -> None:
    session = round_two(Special.JUGGLER)
    app = WizardApp(session, name="Ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await play_special_first(pilot, app, session, Special.JUGGLER)
        await until(pilot, lambda: panel_of(app, DeclarePanel) is not None)
        await pilot.press("c")
        await until(pilot, lambda: session.view.phase is Phase.PASS and session.view.my_turn)
        await until(pilot, lambda: "pass a card" in app.screen.query_one(PromptLine).text)
        await pilot.press("enter")  # the one card left: the 13 of clubs
        await until(pilot, lambda: ("pass_card", card("C13")) in session.sent)
        await until(pilot, lambda: "You passed 13♣ and received" in log_text(app))
        assert "Juggler: everyone passes a card to the left." in log_text(app)


@pytest.mark.parametrize("keep", [False, True], ids=["swap", "keep"])
async def test_witch_swap_by_keys(keep: bool) -> None:
    session = round_two(Special.WITCH)
    app = WizardApp(session, name="Ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await play_special_first(pilot, app, session, Special.WITCH)
        # The Witch has no rank: a club takes the trick; but its player swaps all the same.
        await until(pilot, lambda: panel_of(app, SwapPanel) is not None)
        panel = table(app).open_panel
        assert isinstance(panel, SwapPanel)
        takes = session.view.swap_takes
        assert panel.takes == (None, *takes)
        if keep:
            await pilot.press("enter")
            await until(pilot, lambda: ("swap", None, None) in session.sent)
            await until(pilot, lambda: "Witch: Ann keeps the hand." in log_text(app))
            return
        await pilot.press("right", "down", "enter")
        await until(pilot, lambda: any(s[0] == "swap" for s in session.sent))
        assert session.sent[-1] == ("swap", card("C13"), takes[0])
        await until(pilot, lambda: "Witch: Ann gives 13♣ and takes" in log_text(app))


async def test_bombed_trick_taken_by_nobody() -> None:
    session = session_for([Special.BOMB], {0: ["BMB"], 1: ["C2"], 2: ["C3"]})
    app = WizardApp(session, name="Ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await bid(pilot, app, 0)
        await until(pilot, lambda: session.view.phase is Phase.PLAY and session.view.my_turn)
        await pilot.press("enter")
        await until(pilot, lambda: "nobody (Bomb)" in widget_text(app, TrickView))
        assert "leads next" in widget_text(app, TrickView)
        await until(pilot, lambda: "Bomb: nobody takes it; Cid leads." in log_text(app))
        # The last trick (t) says so too, the round over.
        await pilot.press("t")
        await until(pilot, lambda: isinstance(app.screen, LastTrickScreen))
        await until(pilot, lambda: "nobody (Bomb)" in widget_text(app, TrickView))


async def test_vampire_copy_shown_beside_the_trump_card() -> None:
    session = session_for([Special.VAMPIRE], {0: ["VMP"], 1: ["C2"], 2: ["C3"]})
    app = WizardApp(session, name="Ann", ascii=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: "VMP copies 7H" in widget_text(app, HandView))


# ---------------------------------------------------------------------- help and lobby


async def test_help_names_the_special_cards_in_force() -> None:
    session = session_for([Special.BOMB, Special.WITCH], {0: ["C9"], 1: ["C2"], 2: ["C3"]})
    app = WizardApp(session, name="Ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: isinstance(app.screen, TableScreen))
        await pilot.press("x", "question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        text = str(app.screen.query_one("#sheet").query("Static").first().render())
        assert "BMB Bomb" in text and "WCH Witch" in text
        assert "DRG" not in text  # only the cards in force
        assert "Special cards BMB WCH" in text


async def test_lobby_chooses_special_cards_by_keys() -> None:
    session = LocalSession(3, lobby=True)
    app = WizardApp(session, name="Ann")
    async with app.run_test(size=(80, 24)) as pilot:
        await until(pilot, lambda: app.lobby is not None)
        await pilot.press("p")
        await until(pilot, lambda: isinstance(app.screen, SpecialsScreen))
        await pilot.press("1")  # the Dragon and the Fairy, together
        await until(pilot, lambda: any(s[0] == "lobby_settings" for s in session.sent))
        sent = session.sent[-1]
        assert ("specials", ("dragon", "fairy")) in sent[4:]
        await pilot.press("a")
        await until(pilot, lambda: len([s for s in session.sent if s[0] == "lobby_settings"]) > 1)
        names = tuple(card.wire_name for card in SPECIALS)
        assert ("specials", names) in session.sent[-1][4:]


# ---------------------------------------------------------------------- room: 80x24, 60x20


async def _to_werewolf(pilot, app: WizardApp, session: LocalSession) -> None:
    await until(pilot, lambda: panel_of(app, NameTrumpPanel) is not None)


async def _to_declare(pilot, app: WizardApp, session: LocalSession) -> None:
    await play_special_first(pilot, app, session, Special.SHAPESHIFTER)
    await until(pilot, lambda: panel_of(app, DeclarePanel) is not None)


async def _to_cloud(pilot, app: WizardApp, session: LocalSession) -> None:
    await play_special_first(pilot, app, session, Special.CLOUD)
    await until(pilot, lambda: panel_of(app, DeclarePanel) is not None)
    await pilot.press("c")
    await until(pilot, lambda: panel_of(app, AdjustBidPanel) is not None)


async def _to_pass(pilot, app: WizardApp, session: LocalSession) -> None:
    await play_special_first(pilot, app, session, Special.JUGGLER)
    await until(pilot, lambda: panel_of(app, DeclarePanel) is not None)
    await pilot.press("c")
    asked = i18n._("Juggler: pass a card to {name} ({arrows} choose, Enter passes)")
    await until(pilot, lambda: asked.split("{name}")[0] in app.screen.query_one(PromptLine).text)


async def _to_swap(pilot, app: WizardApp, session: LocalSession) -> None:
    await play_special_first(pilot, app, session, Special.WITCH)
    await until(pilot, lambda: panel_of(app, SwapPanel) is not None)


async def _to_bomb(pilot, app: WizardApp, session: LocalSession) -> None:
    await play_special_first(pilot, app, session, Special.BOMB)
    # (Cid, whose 3 would have taken it, leads next and we follow: the trick is ours
    # to see, and the bombed one's line is in the log.)
    said = i18n._("Bomb: nobody takes it; {name} leads.").format(name="Cid")
    await until(pilot, lambda: said in log_text(app))


async def _to_help(pilot, app: WizardApp, session: LocalSession) -> None:
    await until(pilot, lambda: panel_of(app, NameTrumpPanel) is not None)
    await pilot.press("x", "question_mark")
    await until(pilot, lambda: isinstance(app.screen, HelpScreen))


def _nine_in_hand() -> LocalSession:
    """Round 10: every special card in our hand (the Werewolf asks us to name trump)."""
    hands = {
        0: [*(card.short_name for card in SPECIALS), "C2"],
        1: [f"C{r}" for r in range(3, 13)],
        2: [f"D{r}" for r in range(1, 11)],
    }
    return session_for(SPECIALS, hands, trump="S5", round_number=10)


def _bomb_round() -> LocalSession:
    hands = {0: ["BMB", "C13"], 1: ["C2", "C4"], 2: ["C3", "C5"]}
    return session_for([Special.BOMB], hands, trump="H7", round_number=2)


SCREENS = {
    "werewolf": (_nine_in_hand, _to_werewolf),
    "declare": (lambda: round_two(Special.SHAPESHIFTER), _to_declare),
    "cloud": (lambda: round_two(Special.CLOUD), _to_cloud),
    "pass": (lambda: round_two(Special.JUGGLER), _to_pass),
    "swap": (lambda: round_two(Special.WITCH), _to_swap),
    "bomb": (_bomb_round, _to_bomb),
    "help": (_nine_in_hand, _to_help),
}


async def _problems_on(screen: str, size: tuple[int, int], ascii_only: bool = False) -> list[str]:
    make, reach = SCREENS[screen]
    session = make()
    app = WizardApp(session, name="Ann", ascii=ascii_only)
    async with app.run_test(size=size) as pilot:
        await reach(pilot, app, session)
        await pilot.pause()
        found = problems(app)
        if ascii_only:
            found += [
                f"not ASCII: {row!r}" for row in screen_text(app).splitlines() if not row.isascii()
            ]
    if size[0] < 80:
        # At 60 columns the key bar of every open panel (the bid's too) keeps its first
        # keys; ? lists them all.
        found = [f for f in found if not f.startswith("key bar")]
    return found


@pytest.mark.parametrize("size", [(80, 24), (60, 20)], ids=["80x24", "60x20"])
@pytest.mark.parametrize("screen", sorted(SCREENS))
async def test_special_screens_fit(screen: str, size: tuple[int, int]) -> None:
    assert await _problems_on(screen, size) == []


@pytest.mark.parametrize("screen", ["swap", "werewolf"])
async def test_special_screens_fit_in_ascii(screen: str) -> None:
    assert await _problems_on(screen, (60, 20), ascii_only=True) == []


@pytest.mark.parametrize("language", [lang for lang in i18n.LANGUAGES if lang != "en"])
async def test_special_screens_fit_in_every_language(language: str) -> None:
    i18n.setup(language)
    try:
        found = {s: await _problems_on(s, (80, 24)) for s in sorted(SCREENS)}
    finally:
        i18n.setup("en")
    assert {s: f for s, f in found.items() if f} == {}


def _lobby_with(specials: tuple[str, ...], is_host: bool) -> list:
    seats = (SeatInfo("Ann", "human"), SeatInfo("Bob", "human"), SeatInfo("Cid", "bot"))
    return [
        LinkChanged("connected"),
        LobbyUpdate(
            seats=(*seats, None, None, None),
            my_seat=0 if is_host else 1,
            addresses=("192.168.1.23",),
            port=4242,
            is_host=is_host,
            can_start=is_host,
            bot_level="normal",
            restrict_last_bid="never",
            specials=specials,
        ),
    ]


@pytest.mark.parametrize("size", [(80, 24), (60, 20)], ids=["80x24", "60x20"])
async def test_lobby_shows_the_special_cards_in_force_to_everyone(size: tuple[int, int]) -> None:
    """A guest's lobby names them; the host's picker marks those in force, uncut."""
    guest = WizardApp(StaticSession(_lobby_with(("dragon", "fairy", "bomb"), False)), name="Bob")
    async with guest.run_test(size=size) as pilot:
        await until(pilot, lambda: guest.lobby is not None)
        await pilot.pause()
        assert "Special cards DRG FRY BMB" in screen_text(guest)
        assert problems(guest) == []
    host = WizardApp(StaticSession(_lobby_with(("bomb",), True)), name="Ann")
    async with host.run_test(size=size) as pilot:
        await until(pilot, lambda: host.lobby is not None)
        await pilot.press("p")
        await until(pilot, lambda: isinstance(host.screen, SpecialsScreen))
        await pilot.pause()
        rows = screen_text(host)
        assert "[x] BMB" in rows and "[ ] DRG FRY" in rows
        assert problems(host) == []


@pytest.mark.parametrize("language", [lang for lang in i18n.LANGUAGES if lang != "en"])
async def test_the_lobby_and_picker_of_special_cards_fit_in_every_language(language: str) -> None:
    i18n.setup(language)
    try:
        found = []
        for is_host in (False, True):
            app = WizardApp(
                StaticSession(_lobby_with(tuple(c.wire_name for c in SPECIALS), is_host)),
                name="Ann",
            )
            async with app.run_test(size=(80, 24)) as pilot:
                await until(pilot, lambda app=app: app.lobby is not None)
                await pilot.pause()
                found += problems(app)
                if is_host:
                    await pilot.press("p")
                    await until(pilot, lambda app=app: isinstance(app.screen, SpecialsScreen))
                    await pilot.pause()
                    found += problems(app)
                    said = i18n._("Special cards")
                    assert said in screen_text(app), screen_text(app)
    finally:
        i18n.setup("en")
    assert found == []
