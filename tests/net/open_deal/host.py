"""The open deal's host half: a fresh seed a round, sent with the round, dealt at once."""

from __future__ import annotations

import secrets
from typing import ClassVar

from netplay.fairdeal import shuffle_order
from wizard_tui.game import DECK_SIZE, Deal, Event, Game, dealer_of
from wizard_tui.game.hidden import HiddenGame
from wizard_tui.net import protocol as p
from wizard_tui.net.deals.host_half import DealHostBase
from wizard_tui.net.host_state import Table
from wizard_tui.net.journal_facts import Fact, GameHeader
from wizard_tui.record import GameRecorder


class OpenDealHost(DealHostBase):
    name: ClassVar[str] = "open-test"

    def begin(self, header: GameHeader) -> tuple[Game | HiddenGame, GameRecorder]:
        return Game(header.config), GameRecorder(header.game_id, header.players, header.config)

    def apply(self, table: Table, fact: Fact) -> list[Event]:
        raise ValueError("an open deal journals nothing")

    def start_round(self) -> None:
        table = self.port.table
        assert table is not None
        game = table.game
        r = game.round + 1
        seed = secrets.token_bytes(32)
        dealer = dealer_of(game.config.first_dealer, r, game.players)
        self.port.broadcast({"t": "round", "round": r, "dealer": dealer, "open_seed": seed})
        self.port.changed(game.apply(Deal(tuple(shuffle_order(seed, DECK_SIZE)))))

    def between_rounds(self) -> None:
        self.start_round()

    def round_scored(self) -> None:
        table = self.port.table
        assert table is not None
        result = p.result_wire(table.game.results[-1], None)
        self.port.broadcast({"t": "round_end", "result": result})
