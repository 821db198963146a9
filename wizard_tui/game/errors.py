"""Why an action was refused: a stable reason code a client can show, plus a sentence."""

from __future__ import annotations

from enum import StrEnum


class Reason(StrEnum):
    """Reason codes are part of the wire protocol: never rename one."""

    WRONG_PHASE = "wrong_phase"
    NOT_YOUR_TURN = "not_your_turn"
    NOT_A_SEAT = "not_a_seat"
    GAME_OVER = "game_over"
    BAD_DECK = "bad_deck"
    NOT_A_SUIT = "not_a_suit"
    NOT_A_BID = "not_a_bid"
    BID_OUT_OF_RANGE = "bid_out_of_range"
    BID_FORBIDDEN = "bid_forbidden"
    NOT_A_CARD = "not_a_card"
    CARD_NOT_IN_HAND = "card_not_in_hand"
    MUST_FOLLOW_SUIT = "must_follow_suit"
    UNKNOWN_ACTION = "unknown_action"
    MUST_PLAY_BLIND = "must_play_blind"  # a forehead round: a player names no card of its own
    # The special cards (docs/rules.md, "Special cards"):
    NOT_A_CHOICE = "not_a_choice"  # a declaration, new bid or swap the engine does not offer
    NOT_IN_TRICK = "not_in_trick"  # the Witch's player takes a card not in the trick (or it)


class IllegalAction(Exception):
    """The engine refused an action. Its state is exactly as before the attempt."""

    def __init__(self, reason: Reason, message: str) -> None:
        super().__init__(message)
        self.reason = reason
        self.message = message

    @property
    def code(self) -> str:
        return self.reason.value

    def __repr__(self) -> str:
        return f"IllegalAction({self.reason.value!r}, {self.message!r})"
