"""In-process ``TableSession``s for the UI tests: no network, same updates a host sends.

``LocalSession`` runs a real ``Game`` with bots in the other seats, dealing each round from
``random.Random(seed)``; ``StaticSession`` replays a fixed list of updates (for snapshots).
Both record the intents they receive in ``sent``.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Callable, Sequence
from typing import TYPE_CHECKING

from wizard_tui.game import (
    Bid,
    ChooseTrump,
    Deal,
    Event,
    Game,
    GameConfig,
    GameOver,
    IllegalAction,
    Phase,
    Play,
    PlayerAction,
    RestrictLastBid,
    RoundScored,
    SeatView,
    Suit,
    TableRules,
    seat_view,
)
from wizard_tui.game.actions import AdjustBid, Declare, NameTrump, PassCard, SwapCard
from wizard_tui.game.specials import deck_cards
from wizard_tui.session import (
    ActionRefused,
    ChatLine,
    GameFinished,
    LinkChanged,
    LobbyUpdate,
    RoundVerified,
    SeatInfo,
    SessionUpdate,
    TableUpdate,
)

if TYPE_CHECKING:
    from wizard_tui.bots import Bot

NAMES = ("Ann", "Bob", "Cid", "Dee", "Eve", "Fay")

_CLOSE = object()


class RecordingSession:
    """The intent half of a session: records every intent in ``sent``."""

    def __init__(self) -> None:
        self.sent: list[tuple] = []
        self.closed = False
        self._queue: asyncio.Queue | None = None
        self._early: list[object] = []

    def push(self, item: object) -> None:
        if self._queue is None:
            self._early.append(item)
        else:
            self._queue.put_nowait(item)

    async def _drain(self) -> AsyncIterator[SessionUpdate]:
        self._queue = asyncio.Queue()
        for item in self._early:
            self._queue.put_nowait(item)
        self._early.clear()
        while True:
            item = await self._queue.get()
            if item is _CLOSE:
                return
            yield item  # type: ignore[misc]

    def bid(self, bid: int) -> None:
        self.sent.append(("bid", bid))

    def play(self, card: int) -> None:
        self.sent.append(("play", card))

    def choose_trump(self, suit: Suit) -> None:
        self.sent.append(("choose_trump", suit))

    def chat(self, text: str) -> None:
        self.sent.append(("chat", text))

    # The special cards' intents (docs/rules.md, "Special cards").

    def name_trump(self, suit: Suit | None, *, auto: bool = False) -> None:
        self.sent.append(("name_trump", suit))

    def declare(self, choice: int, *, auto: bool = False) -> None:
        self.sent.append(("declare", choice))

    def adjust_bid(self, bid: int, *, auto: bool = False) -> None:
        self.sent.append(("adjust_bid", bid))

    def pass_card(self, card: int, *, auto: bool = False) -> None:
        self.sent.append(("pass_card", card))

    def swap(self, give: int | None, take: int | None, *, auto: bool = False) -> None:
        self.sent.append(("swap", give, take))

    def start_game(self) -> None:
        self.sent.append(("start_game",))

    def add_bot(self) -> None:
        self.sent.append(("add_bot",))

    def remove_bot(self, seat: int) -> None:
        self.sent.append(("remove_bot", seat))

    def lobby_settings(
        self,
        seats: int,
        bot_level: str,
        restrict_last_bid: str,
        *,
        hidden_bids: bool | None = None,
        forehead: bool | None = None,
        length: str | None = None,
        specials: Sequence[str] | None = None,
    ) -> None:
        # A house rule left None stays as it is: only the others are recorded, in order.
        house_rules = {
            "hidden_bids": hidden_bids,
            "forehead": forehead,
            "length": length,
            "specials": specials,
        }
        changed = tuple((key, value) for key, value in house_rules.items() if value is not None)
        self.sent.append(("lobby_settings", seats, bot_level, restrict_last_bid, *changed))

    def rematch(self) -> None:
        self.sent.append(("rematch",))

    async def close(self) -> None:
        self.closed = True
        self.push(_CLOSE)


class StaticSession(RecordingSession):
    """Yields ``updates`` in order, then nothing more until closed."""

    def __init__(self, updates: Sequence[SessionUpdate]) -> None:
        super().__init__()
        for update in updates:
            self.push(update)

    def updates(self) -> AsyncIterator[SessionUpdate]:
        return self._drain()


class LocalSession(RecordingSession):
    """A whole game in-process: this seat is played through the UI, the rest by bots."""

    def __init__(
        self,
        players: int = 3,
        *,
        seat: int = 0,
        seed: int = 1,
        first_dealer: int = 0,
        restrict: RestrictLastBid = RestrictLastBid.NEVER,
        bots: dict[int, Bot] | None = None,
        deck_for: Callable[[int], Sequence[int]] | None = None,
        lobby: bool = False,
        from_round: int = 1,
        rules: TableRules | None = None,  # house rules; None: the bare rules with ``restrict``
    ) -> None:
        super().__init__()
        self.seat = seat
        self.rng = random.Random(seed)
        self.game = Game(GameConfig(players, first_dealer, rules or restrict))
        from wizard_tui.bots import make_bot  # here: StaticSession's users skip its import

        self.bots: dict[int, Bot] = {
            s: make_bot("random", random.Random(seed * 100 + s)) for s in range(players)
        }
        # Before ``from_round`` a bot plays this seat too and nothing is sent: the UI joins a
        # game in progress, as after a reconnect.
        self.stand_in = self.bots.pop(seat)
        self.from_round = from_round
        self.bots.update(bots or {})
        self.deck_for = deck_for
        self.infos = tuple(
            SeatInfo(NAMES[s], "human" if s == seat else "bot") for s in range(players)
        )
        self.refusals: list[ActionRefused] = []
        self.started = not lobby
        if lobby:
            self.push(self._lobby())
        else:
            self.push(LinkChanged("connected"))
            self._advance([])

    def updates(self) -> AsyncIterator[SessionUpdate]:
        return self._drain()

    @property
    def view(self) -> SeatView:
        return seat_view(self.game, self.seat)

    def requeue_lobby(self) -> None:
        """Forget the updates queued so far and queue the lobby as it is now (after a
        test changed ``infos``)."""
        self._early.clear()
        self.push(self._lobby())

    def _lobby(self) -> LobbyUpdate:
        return LobbyUpdate(
            seats=(*self.infos, *([None] * (6 - len(self.infos)))),
            my_seat=self.seat,
            addresses=("192.168.1.23", "10.0.0.5"),
            port=4242,
            is_host=True,
            can_start=len(self.infos) >= 3,
        )

    def _update(self, events: Sequence[Event]) -> None:
        if self.game.round < self.from_round:
            return
        self.push(TableUpdate(view=self.view, seats=self.infos, events=tuple(events)))

    def _act(self, action: PlayerAction) -> None:
        try:
            events = self.game.apply(action)
        except IllegalAction as exc:
            refusal = ActionRefused(exc.code, exc.message)
            self.refusals.append(refusal)
            self.push(refusal)
            return
        self._advance(events)

    def _advance(self, events: list[Event]) -> None:
        """Send the update for ``events``, then deal and let bots act until this seat must."""
        game = self.game
        while True:
            over = next((e for e in events if isinstance(e, GameOver)), None)
            if any(isinstance(e, RoundScored) for e in events):
                self._update(events)
                events = []
                if game.round >= self.from_round:
                    self.push(RoundVerified(game.round, True, f"round {game.round} deal verified"))
            if over is not None:
                self.push(GameFinished(over.totals, over.winners, None))
                return
            if game.phase is Phase.GAME_OVER:
                return
            if game.phase is Phase.DEAL:
                deck = self._deck(game.round + 1)
                events = events + game.apply(Deal(tuple(deck)))
                continue
            if game.turn == self.seat and game.round >= self.from_round:
                self._update(events)
                return
            self._update(events)
            if game.config.rules.specials:  # the first legal action: a game the test laid out
                events = game.apply(game.legal_actions()[0])
                continue
            bot = self.stand_in if game.turn == self.seat else self.bots[game.turn]
            events = game.apply(bot.decide(seat_view(game, game.turn)))

    def _deck(self, round_number: int) -> list[int]:
        if self.deck_for is not None:
            return list(self.deck_for(round_number))
        deck = list(deck_cards(self.game.config.rules.specials))
        self.rng.shuffle(deck)
        return deck

    # ------------------------------------------------------------------ intents

    def bid(self, bid: int) -> None:
        super().bid(bid)
        self._act(Bid(self.seat, bid))

    def play(self, card: int) -> None:
        super().play(card)
        self._act(Play(self.seat, card))

    def choose_trump(self, suit: Suit) -> None:
        super().choose_trump(suit)
        self._act(ChooseTrump(self.seat, suit))

    def name_trump(self, suit: Suit | None, *, auto: bool = False) -> None:
        super().name_trump(suit)
        self._act(NameTrump(self.seat, suit))

    def declare(self, choice: int, *, auto: bool = False) -> None:
        super().declare(choice)
        self._act(Declare(self.seat, choice))

    def adjust_bid(self, bid: int, *, auto: bool = False) -> None:
        super().adjust_bid(bid)
        self._act(AdjustBid(self.seat, bid))

    def pass_card(self, card: int, *, auto: bool = False) -> None:
        super().pass_card(card)
        self._act(PassCard(self.seat, card))

    def swap(self, give: int | None, take: int | None, *, auto: bool = False) -> None:
        super().swap(give, take)
        self._act(SwapCard(self.seat, give, take))

    def chat(self, text: str) -> None:
        super().chat(text)
        self.push(ChatLine(self.seat, NAMES[self.seat], text))

    def add_bot(self) -> None:
        super().add_bot()
        n = len(self.infos)
        if n < 6 and not self.started:
            self.infos = (*self.infos, SeatInfo(NAMES[n], "bot"))
            self.push(self._lobby())

    def start_game(self) -> None:
        super().start_game()
        if self.started:
            return
        self.started = True
        players = len(self.infos)
        self.game = Game(GameConfig(players, self.game.config.first_dealer))
        from wizard_tui.bots import make_bot

        self.bots = {
            s: make_bot("random", random.Random(s)) for s in range(players) if s != self.seat
        }
        self._advance([])
