"""The open deal's seat half: computes the round's deck from the announced seed, and at the
round's end checks that the host dealt this seat the hand the seed gives."""

from __future__ import annotations

from typing import Any

from netplay.fairdeal import shuffle_order
from wizard_tui.deal import deal_from_deck
from wizard_tui.game import DECK_SIZE, RoundResult
from wizard_tui.net.deals.seat_half import SeatHalf, SeatPort
from wizard_tui.session import RoundVerified


class OpenDealSeat(SeatHalf):
    def __init__(self, port: SeatPort) -> None:
        super().__init__(port)
        self.decks: dict[int, tuple[int, ...]] = {}

    def round(self, msg: dict[str, Any]) -> None:
        seed = msg.get("open_seed")
        if type(seed) is bytes and len(seed) == 32:
            self.decks[msg["round"]] = tuple(shuffle_order(seed, DECK_SIZE))

    def round_end(self, result: RoundResult, seeds: list[bytes], msg: dict[str, Any]) -> None:
        seat, config = self.port.seat, self.port.config
        deck = self.decks.get(result.round)
        if seat is None or config is None or deck is None:
            ok, detail = False, f"round {result.round}: no seed was announced"
        else:
            size = config.round_size(result.round)
            dealt = deal_from_deck(deck, config.players, size, result.dealer)
            ok = sorted(dealt.hands[seat]) == sorted(result.hands[seat])
            detail = f"round {result.round}: " + (
                "the seed's hand" if ok else "not the seed's hand"
            )
        self.port.verified(RoundVerified(result.round, ok, detail))

    def missed_round(
        self, result: RoundResult, seeds: list[bytes], wire: dict[str, Any], earlier: bool
    ) -> None:
        self.round_end(result, seeds, wire)
