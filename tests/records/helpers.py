"""Records to test with, and the tampering a verifier must catch.

Each ``tamper_*`` function changes a record document in place and returns where and why
``verify`` must refuse it: ``(rule, round, trick, seat)``, None where a part does not apply.
The places are found with ``independent_writer``'s own rules, not the engine's.
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from wizard_tui.bots import make_bot
from wizard_tui.game import RestrictLastBid
from wizard_tui.record import RecordError
from wizard_tui.simulate import new_deal_set, play_game
from wizard_tui.verify import verify_document

from . import independent_writer as iw

Doc = dict[str, Any]
Expect = tuple[str, int | None, int | None, int | None]


@functools.cache
def _sim_text(players: int, restrict: str, seed: int) -> str:
    rng = random.Random(f"records-test/{players}/{restrict}/{seed}")
    deal_set = new_deal_set(players, rng)
    bots = [make_bot("random", random.Random(rng.random())) for _ in range(players)]
    played = play_game(bots, deal_set, RestrictLastBid(restrict))
    return json.dumps(played.record.to_dict())


def sim_doc(players: int = 4, restrict: str = "never", seed: int = 0) -> Doc:
    """A fresh copy of a seeded simulated game's record (random bots)."""
    return json.loads(_sim_text(players, restrict, seed))


@functools.cache
def _indie_text(players: int, restrict: str, seed: int, rounds: int | None) -> str:
    rng = random.Random(f"indie-test/{players}/{restrict}/{seed}")
    return json.dumps(iw.random_record(players, rng, restrict, rounds))


def indie_doc(
    players: int = 4, restrict: str = "never", seed: int = 0, rounds: int | None = None
) -> Doc:
    """A fresh copy of a seeded record from the independent writer."""
    return json.loads(_indie_text(players, restrict, seed, rounds))


def failure(doc: object) -> RecordError:
    with pytest.raises(RecordError) as info:
        verify_document(doc)
    return info.value


def where(exc: RecordError) -> Expect:
    return (exc.rule, exc.round, exc.trick, exc.seat)


def first_doc(make: Callable[[int], Doc], wanted: Callable[[Doc], bool]) -> Doc:
    """The first of ``make(0), make(1), ...`` for which ``wanted`` holds."""
    for seed in range(200):
        doc = make(seed)
        if wanted(doc):
            return doc
    raise AssertionError("no seed gives the situation this test needs")


def _flip_hex(text: str) -> str:
    return text[:-1] + ("0" if text[-1] != "0" else "1")


# ---- tampering -------------------------------------------------------------------------


def tamper_seed(doc: Doc) -> Expect:
    doc["rounds"][2]["seeds"][1] = _flip_hex(doc["rounds"][2]["seeds"][1])
    return ("commitment", 3, None, 1)


def tamper_commitment(doc: Doc) -> Expect:
    doc["rounds"][1]["commitments"][2] = _flip_hex(doc["rounds"][1]["commitments"][2])
    return ("commitment", 2, None, 2)


def tamper_seed_and_recommit(doc: Doc) -> Expect:
    """A new seed with a matching commitment: it opens, but deals other hands."""
    rnd = doc["rounds"][3]
    gid = bytes.fromhex(doc["game_id"])
    new_seed = bytes(32)
    rnd["seeds"][0] = new_seed.hex()
    rnd["commitments"][0] = iw.commit(gid, 4, 0, new_seed).hex()
    seeds = [bytes.fromhex(s) for s in rnd["seeds"]]
    hands, _ = iw.deal(iw.deck_order(gid, 4, seeds), len(seeds), 4, rnd["dealer"])
    seat = next(s for s in range(len(hands)) if hands[s] != rnd["hands"][s])
    return ("hand", 4, None, seat)


def tamper_swap_hand_cards(doc: Doc) -> Expect:
    hands = doc["rounds"][4]["hands"]
    hands[0][1], hands[2][1] = hands[2][1], hands[0][1]
    return ("hand", 5, None, 0)


def tamper_trump_card(doc: Doc) -> Expect:
    rnd = doc["rounds"][1]
    rnd["trump_card"] = (rnd["trump_card"] + 1) % 60
    return ("trump-card", 2, None, None)


def tamper_trump_suit(doc: Doc) -> Expect:
    for rnd in doc["rounds"]:
        tc = rnd["trump_card"]
        if tc is not None and tc < 52:
            rnd["trump_suit"] = iw.SUIT_NAMES[(tc // 13 + 1) % 4]
            return ("trump-suit", rnd["round"], None, None)
    raise AssertionError("no suit card turned up")


def tamper_card_not_in_hand(doc: Doc) -> Expect:
    rnd = doc["rounds"][4]  # round 5: the trump card is in nobody's hand
    seat, _ = rnd["tricks"][1]["plays"][2]
    rnd["tricks"][1]["plays"][2][1] = rnd["trump_card"]
    return ("card-not-in-hand", 5, 2, seat)


def tamper_revoke(doc: Doc) -> Expect:
    """Swap two of a seat's plays so that it throws off while holding the led suit."""
    for rnd in doc["rounds"]:
        for t, trick in enumerate(rnd["tricks"]):
            cards: list[int] = []
            for k, (seat, card) in enumerate(trick["plays"]):
                led = iw.led_suit(cards)
                if led is not None and iw.suit(card) == led:
                    # A later play of this seat in another suit, not a Wizard or Jester.
                    for t2 in range(t + 1, len(rnd["tricks"])):
                        plays2 = rnd["tricks"][t2]["plays"]
                        k2, (_, other) = next((i, p) for i, p in enumerate(plays2) if p[0] == seat)
                        if iw.suit(other) not in (led, -1):
                            trick["plays"][k][1], plays2[k2][1] = other, card
                            return ("must-follow-suit", rnd["round"], t + 1, seat)
                cards.append(card)
    raise AssertionError("no chance to revoke in this game")


def tamper_trick_winner(doc: Doc) -> Expect:
    trick = doc["rounds"][2]["tricks"][1]
    trick["winner"] = (trick["winner"] + 1) % len(doc["players"])
    return ("trick-winner", 3, 2, None)


def tamper_leader(doc: Doc) -> Expect:
    trick = doc["rounds"][2]["tricks"][1]
    trick["leader"] = (trick["leader"] + 1) % len(doc["players"])
    return ("leader", 3, 2, trick["leader"])


def tamper_play_order(doc: Doc) -> Expect:
    plays = doc["rounds"][3]["tricks"][0]["plays"]
    plays[1], plays[2] = plays[2], plays[1]
    return ("play-order", 4, 1, plays[1][0])


def tamper_tricks_won(doc: Doc) -> Expect:
    doc["rounds"][4]["tricks_won"][2] += 1
    return ("tricks-won", 5, None, 2)


def tamper_points(doc: Doc) -> Expect:
    doc["rounds"][5]["points"][1] += 10
    return ("points", 6, None, 1)


def tamper_totals(doc: Doc) -> Expect:
    doc["rounds"][6]["totals"][3] -= 10
    return ("totals", 7, None, 3)


def tamper_winners(doc: Doc) -> Expect:
    n = len(doc["players"])
    doc["winners"] = [next(s for s in range(n) if s not in doc["winners"])]
    return ("winners", None, None, None)


def tamper_bid_too_high(doc: Doc) -> Expect:
    rnd = doc["rounds"][2]
    seat = (rnd["dealer"] + 1) % len(doc["players"])
    rnd["bids"][seat] = 4
    return ("bid-range", 3, None, seat)


def tamper_bid_negative(doc: Doc) -> Expect:
    rnd = doc["rounds"][5]
    seat = (rnd["dealer"] + 2) % len(doc["players"])
    rnd["bids"][seat] = -1
    return ("bid-range", 6, None, seat)


def tamper_forbidden_last_bid(doc: Doc, first_round: int = 1) -> Expect:
    """Under a restriction: make the dealer's bid bring the total to the round number."""
    for rnd in doc["rounds"][first_round - 1 :]:
        others = sum(b for s, b in enumerate(rnd["bids"]) if s != rnd["dealer"])
        if 0 <= rnd["round"] - others <= rnd["round"]:
            rnd["bids"][rnd["dealer"]] = rnd["round"] - others
            return ("bid-forbidden", rnd["round"], None, rnd["dealer"])
    raise AssertionError("no round where the last bid could hit the total")


def tamper_dealer(doc: Doc) -> Expect:
    rnd = doc["rounds"][3]
    rnd["dealer"] = (rnd["dealer"] + 1) % len(doc["players"])
    return ("dealer", 4, None, None)


def tamper_missing_field(doc: Doc) -> Expect:
    del doc["rounds"][2]["points"]
    return ("missing-field", 3, None, None)


def tamper_missing_top_field(doc: Doc) -> Expect:
    del doc["first_dealer"]
    return ("missing-field", None, None, None)


def tamper_wrong_type(doc: Doc) -> Expect:
    doc["rounds"][1]["bids"][2] = "1"
    return ("wrong-type", 2, None, 2)


def tamper_wrong_top_type(doc: Doc) -> Expect:
    doc["complete"] = "yes"
    return ("wrong-type", None, None, None)


def tamper_complete_too_few_rounds(doc: Doc) -> Expect:
    del doc["rounds"][5:]
    return ("complete", None, None, None)


def tamper_incomplete_with_all_rounds(doc: Doc) -> Expect:
    doc["complete"] = False
    return ("complete", None, None, None)


def tamper_round_number(doc: Doc) -> Expect:
    doc["rounds"][2]["round"] = 4
    return ("round-number", 3, None, None)


def tamper_missing_trick(doc: Doc) -> Expect:
    del doc["rounds"][6]["tricks"][-1]
    return ("trick-count", 7, None, None)


def tamper_short_trick(doc: Doc) -> Expect:
    del doc["rounds"][6]["tricks"][2]["plays"][-1]
    return ("trick-size", 7, 3, None)


def tamper_seat_list_length(doc: Doc) -> Expect:
    doc["rounds"][4]["seeds"].pop()
    return ("wrong-length", 5, None, None)


def tamper_format(doc: Doc) -> Expect:
    doc["format"] = "wizard-tui/record/v2"
    return ("format", None, None, None)


def tamper_protocol(doc: Doc) -> Expect:
    doc["protocol"] = "trust-me"
    return ("protocol", None, None, None)


def tamper_game_id(doc: Doc) -> Expect:
    doc["game_id"] = _flip_hex(doc["game_id"])
    return ("commitment", 1, None, 0)


def tamper_card_id_range(doc: Doc) -> Expect:
    doc["rounds"][2]["hands"][1][0] = 60
    return ("bad-value", 3, None, 1)


# Tampering that applies to any complete record (restrict mode "never" or not).
TAMPERS: tuple[Callable[[Doc], Expect], ...] = (
    tamper_seed,
    tamper_commitment,
    tamper_seed_and_recommit,
    tamper_swap_hand_cards,
    tamper_trump_card,
    tamper_trump_suit,
    tamper_card_not_in_hand,
    tamper_revoke,
    tamper_trick_winner,
    tamper_leader,
    tamper_play_order,
    tamper_tricks_won,
    tamper_points,
    tamper_totals,
    tamper_winners,
    tamper_bid_too_high,
    tamper_bid_negative,
    tamper_dealer,
    tamper_missing_field,
    tamper_missing_top_field,
    tamper_wrong_type,
    tamper_wrong_top_type,
    tamper_complete_too_few_rounds,
    tamper_incomplete_with_all_rounds,
    tamper_round_number,
    tamper_missing_trick,
    tamper_short_trick,
    tamper_seat_list_length,
    tamper_format,
    tamper_protocol,
    tamper_game_id,
    tamper_card_id_range,
)
