"""Fixed tables for the snapshot tests: real games (rules engine, seeded bots) stopped at a
chosen moment, turned into the updates a host would have sent. No network, no clock."""

from __future__ import annotations

import random
from collections.abc import Sequence

from wizard_tui.bots import RandomBot
from wizard_tui.game import (
    Action,
    Bid,
    Deal,
    Game,
    GameConfig,
    GameOver,
    Phase,
    Play,
    RestrictLastBid,
    seat_view,
)
from wizard_tui.session import (
    ChatLine,
    GameFinished,
    LinkChanged,
    LobbyUpdate,
    RoundVerified,
    SeatInfo,
    SessionUpdate,
    TableUpdate,
)

from .helpers import deck

SEATS = (
    SeatInfo("Ann", "human"),
    SeatInfo("Bob", "human"),
    SeatInfo("Cid", "bot"),
    SeatInfo("Dee", "human", connected=False),
)


def game_before_round(
    round_number: int,
    *,
    players: int = 4,
    first_dealer: int = 0,
    restrict: RestrictLastBid = RestrictLastBid.NEVER,
    seed: int = 5,
) -> Game:
    """A game whose first ``round_number - 1`` rounds seeded random bots have played."""
    game = Game(GameConfig(players, first_dealer, restrict))
    rng = random.Random(seed)
    bots = [RandomBot(random.Random(seed * 10 + s)) for s in range(players)]
    while not (game.phase is Phase.DEAL and game.round + 1 == round_number):
        if game.phase is Phase.DEAL:
            cards = list(range(60))
            rng.shuffle(cards)
            game.apply(Deal(tuple(cards)))
        else:
            game.apply(bots[game.turn].decide(seat_view(game, game.turn)))
    return game


def updates_for(
    game: Game, actions: Sequence[Action], seats: tuple[SeatInfo, ...] = SEATS
) -> list[SessionUpdate]:
    """What a host sends seat 0 while ``actions`` are applied: one table update per action,
    with the earlier rounds' verifications and a chat line along the way."""
    out: list[SessionUpdate] = [LinkChanged("connected")]
    out += [RoundVerified(r.round, True, "deal verified") for r in game.results]
    for i, action in enumerate(actions):
        events = game.apply(action)
        out.append(TableUpdate(view=seat_view(game, 0), seats=seats, events=tuple(events)))
        if i == 1:
            out.append(ChatLine(1, "Bob", "good luck, all"))
    return out


def mid_trick() -> list[SessionUpdate]:
    """Round 5 of 15: Cid led the 9 of hearts, Dee's 13 of hearts is winning; our turn, and
    of our five cards only the hearts and the Wizard may be played. Trump: diamonds."""
    game = game_before_round(5, first_dealer=1)  # round 5 dealt by seat 1; seat 2 leads
    # Card j goes to seat (2 + j) % 4; the 21st card is trump.
    cards = deck(
        *("H9", "H13", "H12", "D1", "D2", "S13", "H3", "C1", "D3", "S12", "C7"),
        *("C2", "D4", "S11", "W", "C3", "D5", "S10", "S2", "C4", "D8"),
    )
    actions = [Deal(cards), Bid(2, 1), Bid(3, 2), Bid(0, 2), Bid(1, 1), Play(2, 34), Play(3, 38)]
    return updates_for(game, actions)


def bidding(restrict: RestrictLastBid = RestrictLastBid.ALWAYS) -> list[SessionUpdate]:
    """Round 5, we deal and bid last under the restricted last bid: 2 is ruled out."""
    game = game_before_round(5, first_dealer=0, restrict=restrict)
    cards = deck("H9", "H13", "H12", "W", "D2", "S13", "H3", "C1", "D3", "S12", "C7", "C2")
    actions = [Deal(cards), Bid(1, 1), Bid(2, 2), Bid(3, 0)]
    return updates_for(game, actions)


def choosing_trump() -> list[SessionUpdate]:
    """Round 5, we deal and a Wizard is turned up."""
    game = game_before_round(5, first_dealer=0)
    head = ("H9", "H13", "H12", "J", "D2", "S13", "H3", "C1", "D3", "S12", "C7", "C2")
    cards = deck(*head, "D4", "S11", "H1", "C3", "D5", "S10", "S2", "C4", "W")
    return updates_for(game, [Deal(cards)])


def lobby() -> list[SessionUpdate]:
    return [
        LinkChanged("connected"),
        LobbyUpdate(
            seats=(SEATS[0], SEATS[1], SeatInfo("Cid", "bot"), None, None, None),
            my_seat=0,
            addresses=("192.168.1.23", "10.0.0.5"),
            port=4242,
            is_host=True,
            can_start=True,
            bot_level="normal",
            restrict_last_bid="never",
            levels=(None, None, "normal", None, None, None),
        ),
        ChatLine(None, "host", "Bob joined from 192.168.1.40"),
    ]


def _bot_actions(game: Game, until, seed: int = 9) -> list[Action]:
    """Seeded random bots' actions (and deals) on a copy of ``game`` until ``until(game)``."""
    import copy

    scratch = copy.deepcopy(game)
    rng = random.Random(seed)
    bots = [RandomBot(random.Random(seed * 10 + s)) for s in range(scratch.players)]
    actions: list[Action] = []
    while not until(scratch):
        if scratch.phase is Phase.DEAL:
            cards = list(range(60))
            rng.shuffle(cards)
            action: Action = Deal(tuple(cards))
        else:
            action = bots[scratch.turn].decide(seat_view(scratch, scratch.turn))
        scratch.apply(action)
        actions.append(action)
    return actions


def round_scored() -> list[SessionUpdate]:
    """Round 4 just scored (the last trick taken), round 5 not dealt yet."""
    game = game_before_round(4, first_dealer=1)
    actions = _bot_actions(game, lambda g: g.round == 4 and g.phase is Phase.DEAL)
    return updates_for(game, actions)


def game_over(from_round: int = 15) -> list[SessionUpdate]:
    """A whole 4-player game between seeded bots, to the final standings: the updates from
    ``from_round`` on."""
    game = game_before_round(from_round, first_dealer=1)
    actions = _bot_actions(game, lambda g: g.phase is Phase.GAME_OVER)
    out = updates_for(game, actions)
    last = out[-1]
    assert isinstance(last, TableUpdate)
    over = next(e for e in last.events if isinstance(e, GameOver))
    return [
        *out,
        GameFinished(
            over.totals, over.winners, "/home/ann/.local/share/wizard-tui/records/game.json"
        ),
    ]
