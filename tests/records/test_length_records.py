"""Records of games of another length (docs/rules.md, "Game length"): random games of random
lengths verify and hold the schedule's rounds, and ``verify`` refuses a record whose length
(``rules.rounds``) or a round's number of cards was changed."""

from __future__ import annotations

import functools
import json
import random
from itertools import accumulate
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wizard_tui.bots import make_bot
from wizard_tui.game import RestrictLastBid, TableRules, length_rounds
from wizard_tui.record import GameRecord, RecordError, dumps_record
from wizard_tui.simulate import new_deal_set, play_game
from wizard_tui.verify import verify_document, verify_record

Doc = dict[str, Any]


def _played(
    players: int, length: str, restrict: RestrictLastBid, seed: int, deal: str = "commit-reveal"
) -> GameRecord:
    rng = random.Random(f"length-records/{players}/{length}/{restrict}/{seed}")
    rules = TableRules(restrict, rounds=length_rounds(length, players))
    rounds = len(rules.round_sizes(players))
    bots = [make_bot("random", random.Random(rng.random())) for _ in range(players)]
    return play_game(bots, new_deal_set(players, rng, rounds), rules, deal=deal).record


def _assert_plays_its_schedule(record: GameRecord, sizes: tuple[int, ...]) -> None:
    n = len(record.players)
    assert record.complete and len(record.rounds) == len(sizes)
    assert [r.round for r in record.rounds] == list(range(1, len(sizes) + 1))
    for rnd, size in zip(record.rounds, sizes, strict=True):
        assert [len(hand) for hand in rnd.hands] == [size] * n
        assert len(rnd.tricks) == size == sum(rnd.tricks_won)
        assert all(0 <= bid <= size for bid in rnd.bids)
        assert (rnd.trump_card is None) == (n * size == 60)
    for seat in range(n):
        running = list(accumulate(r.points[seat] for r in record.rounds))
        assert running == [r.totals[seat] for r in record.rounds]


def _lengths(players: int) -> st.SearchStrategy[str]:
    top = 60 // players
    chosen = st.lists(st.integers(1, top), min_size=1, max_size=10).map(
        lambda sizes: ",".join(map(str, sizes))
    )
    return st.one_of(st.sampled_from(["full", "short", "up-and-down"]), chosen)


@settings(max_examples=20, deadline=None)
@given(
    data=st.data(),
    players=st.integers(3, 6),
    restrict=st.sampled_from(list(RestrictLastBid)),
    seed=st.integers(0, 2**16),
)
def test_random_games_of_random_lengths_play_their_schedule_and_verify(
    data: st.DataObject, players: int, restrict: RestrictLastBid, seed: int
) -> None:
    length = data.draw(_lengths(players), label="length")
    record = _played(players, length, restrict, seed)
    sizes = TableRules(rounds=length_rounds(length, players)).round_sizes(players)
    _assert_plays_its_schedule(record, sizes)
    verify_record(record)
    assert verify_document(json.loads(dumps_record(record))) == record  # through its file form


@pytest.mark.parametrize(("players", "length"), [(4, "2,1,2"), (3, "20,1,20")])
def test_privately_dealt_games_of_a_length_verify(players: int, length: str) -> None:
    sizes = length_rounds(length, players)
    assert sizes is not None
    record = _played(players, length, RestrictLastBid.AFTER_ROUND_1, 0, deal="private")
    _assert_plays_its_schedule(record, sizes)
    verify_record(record)


# ------------------------------------------------------------------ tampering


@functools.cache
def _text(players: int, length: str, deal: str) -> str:
    return dumps_record(_played(players, length, RestrictLastBid.ALWAYS, 1, deal))


def _doc(players: int, length: str, deal: str = "commit-reveal") -> Doc:
    doc: Doc = json.loads(_text(players, length, deal))
    verify_document(doc)  # honest before
    return doc


def _failure(doc: Doc) -> tuple[str, int | None, int | None]:
    with pytest.raises(RecordError) as info:
        verify_document(doc)
    return info.value.rule, info.value.round, info.value.seat


def _one_size_more(doc: Doc) -> tuple[str, int | None, int | None]:
    doc["rules"]["rounds"][2] += 1  # round 3 "should" have dealt one more card each
    return "hand-size", 3, 0


def _swap_two_rounds(doc: Doc) -> tuple[str, int | None, int | None]:
    rounds = doc["rules"]["rounds"]
    rounds[1], rounds[2] = rounds[2], rounds[1]
    return "hand-size", 2, 0


def _drop_the_last_round(doc: Doc) -> tuple[str, int | None, int | None]:
    doc["rules"]["rounds"].pop()
    return "round-count", len(doc["rules"]["rounds"]) + 1, None


def _add_a_round(doc: Doc) -> tuple[str, int | None, int | None]:
    doc["rules"]["rounds"].append(1)  # claimed complete, one round short of the length
    return "complete", None, None


def _a_card_less_in_a_hand(doc: Doc) -> tuple[str, int | None, int | None]:
    doc["rounds"][3]["hands"][1].pop()
    return "hand-size", 4, 1


def _a_card_less_each(doc: Doc) -> tuple[str, int | None, int | None]:
    # The top round's hands cut to one card fewer each, and the length saying so: those are
    # the first cards the seeds deal, but the card after them is not the recorded trump card.
    sizes = doc["rules"]["rounds"]
    top = sizes.index(max(sizes))
    sizes[top] -= 1
    for hand in doc["rounds"][top]["hands"]:
        hand.pop()
    return "trump-card", top + 1, None


TAMPERS = [
    _one_size_more,
    _swap_two_rounds,
    _drop_the_last_round,
    _add_a_round,
    _a_card_less_in_a_hand,
    _a_card_less_each,
]


@pytest.mark.parametrize("tamper", TAMPERS, ids=lambda f: f.__name__.strip("_"))
@pytest.mark.parametrize(("players", "length"), [(4, "short"), (6, "up-and-down")])
def test_a_tampered_length_is_refused(tamper: Any, players: int, length: str) -> None:
    doc = _doc(players, length)
    expected = tamper(doc)
    assert _failure(doc) == expected


def test_a_short_game_claimed_as_the_full_game_is_incomplete() -> None:
    doc = _doc(4, "short")
    del doc["rules"]["rounds"]
    assert _failure(doc) == ("complete", None, None)


def test_an_up_and_down_game_claimed_as_the_full_game_has_too_many_rounds() -> None:
    doc = _doc(6, "up-and-down")
    del doc["rules"]["rounds"]
    assert _failure(doc) == ("round-count", 11, None)


def test_a_list_claimed_as_the_full_game_deals_other_hands() -> None:
    doc = _doc(3, "2,1,3")
    del doc["rules"]["rounds"]  # the full game's round 1 deals one card each, not two
    assert _failure(doc) == ("hand-size", 1, 0)


@pytest.mark.parametrize("rounds", [[0, 1, 2], [], [1, 2, "3"], [21, 1, 1], "1,2,3"])
def test_a_length_no_table_can_play_is_refused(rounds: object) -> None:
    doc = _doc(3, "1,2,3")
    doc["rules"]["rounds"] = rounds
    assert _failure(doc)[0] == "bad-value"


def test_a_tampered_length_of_a_private_game_is_refused() -> None:
    doc = _doc(3, "1,3,2", "private")
    doc["rules"]["rounds"] = [1, 2, 3]
    assert _failure(doc) == ("hand-size", 2, 0)


def test_a_private_round_whose_setup_deals_another_size_is_refused() -> None:
    """Cut round 2 to 2 cards each in the length and the record: its signed setup still
    deals 3, which the game's setup (two cards each) is not."""
    doc = _doc(3, "1,3,2", "private")
    doc["rules"]["rounds"] = [1, 2, 2]
    rnd = doc["rounds"][1]
    for hand in rnd["hands"]:
        hand.pop()
    rule, r, _ = _failure(doc)
    assert (rule, r) == ("deal-setup", 2)
