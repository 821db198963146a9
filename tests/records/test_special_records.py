"""Records of games with special cards (docs/record-format.md, "Games with special cards"):
games played by the engine with random legal actions verify, through their file form too;
``verify`` refuses a tampered record of each of the nine cards, and of the round's actions,
with the rule and the place; the recorder writes a plain game exactly as before."""

from __future__ import annotations

import copy
import functools
import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from netplay.mental import audit_transcript, played_items, shown_items
from wizard_tui.cli import main
from wizard_tui.deal import deck_for_round
from wizard_tui.game import Bid, Deal, Game, GameConfig, Play, RoundResult, TableRules
from wizard_tui.game.actions import NameTrump
from wizard_tui.game.specials import Special, deck_cards
from wizard_tui.net.record_share import PartAssembler, part_messages, round_part
from wizard_tui.private_deal import item_cards
from wizard_tui.record import (
    GameRecorder,
    PlayerEntry,
    RecordedRound,
    RecordError,
    dumps_record,
    loads_record,
    parse_record,
)
from wizard_tui.verify import verify_document, verify_record
from wizard_tui.verify_special import check_private_moves

from .special_games import (
    Doc,
    action_places,
    cards_in,
    find_doc,
    play_special_game,
    special_doc,
    trick_of_action,
    tricks_of,
)

DRG, FRY, BMB, WLF = Special.DRAGON, Special.FAIRY, Special.BOMB, Special.WEREWOLF
JGL, CLD, SHP, WCH, VMP = (
    Special.JUGGLER,
    Special.CLOUD,
    Special.SHAPESHIFTER,
    Special.WITCH,
    Special.VAMPIRE,
)
WIZARD, JESTER = 4, 5  # Declaration values of the Shapeshifter's forms

Where = tuple[str, int | None, int | None, int | None]  # rule, round, trick, seat


def failure(doc: object) -> RecordError:
    with pytest.raises(RecordError) as info:
        verify_document(doc)
    return info.value


def where(exc: RecordError) -> Where:
    return (exc.rule, exc.round, exc.trick, exc.seat)


# ---- untampered games verify ------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "specials"),
    [
        (3, "all"),
        (4, "all"),
        (3, "dragon,fairy"),
        (3, "bomb"),
        (4, "werewolf"),
        (3, "juggler"),
        (4, "cloud"),
        (3, "shapeshifter"),
        (4, "witch"),
        (3, "vampire"),
        (4, "werewolf,vampire"),
    ],
)
def test_random_special_games_verify_through_their_file(players: int, specials: str) -> None:
    for seed in range(2):
        doc = special_doc(players, specials, seed)
        record = verify_document(doc)
        assert record.complete and all(rnd.special for rnd in record.rounds)
        assert parse_record(loads_record(dumps_record(record))) == record  # it round-trips
        assert json.loads(dumps_record(record)) == doc


def test_a_special_round_holds_its_actions_deck_and_effects() -> None:
    doc = special_doc(3, "all", 0)
    n, cards = 3, set(range(60)) | {int(s) for s in Special}
    assert doc["rules"]["specials"] == [s.wire_name for s in sorted(Special)]
    for rnd in doc["rounds"]:
        assert list(rnd) == [
            "round", "dealer", "commitments", "seeds", "hands", "turned_card", "trump_card",
            "trump_suit", "bids", "actions", "tricks", "tricks_won", "points", "totals",
        ]  # fmt: skip
        assert {c for hand in rnd["hands"] for c in hand} <= cards
        assert rnd["trump_card"] in (rnd["turned_card"], int(WLF))
        plays = [a[1:] for a in rnd["actions"] if a[0] == "play"]
        assert plays == [p for trick in rnd["tricks"] for p in trick["plays"]]
        assert sum(1 for a in rnd["actions"] if a[0] == "bid") == n
        for trick in rnd["tricks"]:
            assert trick.get("bombed", False) == (int(BMB) in cards_in(trick))
            assert set(trick) <= {"leader", "plays", "winner", "bombed"}
        taken = sum(1 for t in rnd["tricks"] if "bombed" not in t)
        assert sum(rnd["tricks_won"]) == taken


def test_every_kind_of_special_action_is_recorded_in_some_game() -> None:
    kinds: set[str] = set()
    for seed in range(3):
        for rnd in special_doc(3, "all", seed)["rounds"]:
            kinds |= {a[0] for a in rnd["actions"]}
    assert kinds >= {"bid", "play", "name_trump", "declare", "adjust_bid", "pass_card", "swap"}


# ---- tampering: each of the nine cards ---------------------------------------------------


def _trick_where(doc: Doc, test: Callable[[list[int], Doc], bool]) -> tuple[int, int, Doc] | None:
    return next(
        ((r, t, trick) for r, t, trick in tricks_of(doc) if test(cards_in(trick), trick)), None
    )


def dragon_trick_to_the_wrong_seat(doc: Doc) -> Where | None:
    found = _trick_where(doc, lambda c, tr: DRG in c and FRY not in c and BMB not in c)
    if found is None:
        return None
    r, t, trick = found
    trick["winner"] = (trick["winner"] + 1) % len(doc["players"])
    return ("trick-winner", r, t, None)


def fairy_loses_to_the_dragon(doc: Doc) -> Where | None:
    def dragon_and_fairy(cards: list[int], trick: Doc) -> bool:
        return DRG in cards and FRY in cards and BMB not in cards

    found = _trick_where(doc, dragon_and_fairy)
    if found is None:
        return None
    r, t, trick = found
    dragon_seat = next(s for s, c in trick["plays"] if c == DRG)
    trick["winner"] = dragon_seat  # the Fairy's player took it
    return ("trick-winner", r, t, None)


def bomb_trick_credited(doc: Doc) -> Where | None:
    found = _trick_where(doc, lambda c, tr: BMB in c)
    if found is None:
        return None
    r, t, trick = found
    del trick["bombed"]
    rnd = doc["rounds"][r - 1]
    rnd["tricks_won"][trick["winner"]] += 1  # and scored as taken
    return ("trick-bombed", r, t, None)


def werewolf_swap_names_a_card_not_turned(doc: Doc) -> Where | None:
    found = next(action_places(doc, "name_trump"), None)
    if found is None:
        return None
    r, _, _ = found
    rnd = doc["rounds"][r - 1]
    rnd["turned_card"] = rnd["hands"][0][0]  # a card dealt to seat 0, not the one turned
    return ("turned-card", r, None, None)


def werewolf_left_off_the_table(doc: Doc) -> Where | None:
    found = next(action_places(doc, "name_trump"), None)
    if found is None:
        return None
    r, _, _ = found
    rnd = doc["rounds"][r - 1]
    rnd["trump_card"] = rnd["turned_card"]  # as if nobody had swapped
    return ("trump-card", r, None, None)


def _changed_declaration(card: int, choices: tuple[int, ...]) -> Callable[[Doc], Where | None]:
    """A declaration for ``card`` changed to another of ``choices`` such that the replay
    no longer gives the record: the failure is in that round, at that trick or later."""

    def tamper(doc: Doc) -> Where | None:
        for r, i, action in action_places(doc, "declare"):
            rnd = doc["rounds"][r - 1]
            if rnd["actions"][i - 1][2] != card:  # declared for the card just played
                continue
            for choice in choices:
                if choice == action[2]:
                    continue
                trial = copy.deepcopy(doc)
                trial["rounds"][r - 1]["actions"][i][2] = choice
                try:
                    verify_document(trial)
                except RecordError as exc:
                    if exc.round == r:
                        rnd["actions"][i][2] = choice
                        return ("changed", r, trick_of_action(rnd, i), action[1])
        return None

    return tamper


def cloud_change_not_recorded(doc: Doc) -> Where | None:
    found = next(action_places(doc, "adjust_bid"), None)
    if found is None:
        return None
    r, i, action = found
    rnd = doc["rounds"][r - 1]
    del rnd["actions"][i]
    # The next action is then taken while the Cloud's taker is to change its bid, or the
    # actions end before the round does.
    rule = "action-phase" if i < len(rnd["actions"]) else "actions"
    seat = rnd["actions"][i][1] if i < len(rnd["actions"]) else action[1]
    return (rule, r, None, seat)


def cloud_change_scored_wrong(doc: Doc) -> Where | None:
    found = next(action_places(doc, "adjust_bid"), None)
    if found is None:
        return None
    r, _, action = found
    rnd = doc["rounds"][r - 1]
    seat = action[1]
    made = next(a[2] for a in rnd["actions"] if a[0] == "bid" and a[1] == seat)
    rnd["bids"][seat] = made  # scored as if the bid had not changed
    return ("bids", r, None, seat)


def witch_takes_a_card_not_in_the_trick(doc: Doc) -> Where | None:
    for r, i, action in action_places(doc, "swap"):
        if action[2] is None:
            continue
        rnd = doc["rounds"][r - 1]
        t = trick_of_action(rnd, i)
        assert t is not None  # a swap comes after its trick
        in_trick = set(cards_in(rnd["tricks"][t - 1]))
        outside = next(
            c for c in rnd["hands"][(action[1] + 1) % len(rnd["hands"])] if c not in in_trick
        )
        action[2] = [action[2][0], outside]
        return ("refused", r, t, action[1])
    return None


def vampire_declared_as_the_wrong_copy(doc: Doc) -> Where | None:
    """A Vampire that copies a card asking for nothing, declared as a Shapeshifter."""
    for r, i, action in action_places(doc, "play"):
        rnd = doc["rounds"][r - 1]
        if action[2] != VMP or rnd["turned_card"] in (JGL, CLD, SHP):
            continue
        rnd["actions"].insert(i + 1, ["declare", action[1], WIZARD])
        return ("action-phase", r, trick_of_action(rnd, i), action[1])
    return None


def vampire_copy_undeclared(doc: Doc) -> Where | None:
    """A Vampire that copies a Juggler, Cloud or Shapeshifter, played without declaring."""
    for r, i, action in action_places(doc, "play"):
        rnd = doc["rounds"][r - 1]
        if action[2] != VMP or rnd["turned_card"] not in (JGL, CLD, SHP):
            continue
        assert rnd["actions"][i + 1][0] == "declare"
        del rnd["actions"][i + 1]
        after = rnd["actions"][i + 1] if i + 1 < len(rnd["actions"]) else None
        if after is None:
            return ("actions", r, None, action[1])
        return ("action-phase", r, None, after[1])
    return None


def juggler_pass_changed(doc: Doc) -> Where | None:
    """A card passed after a Juggler's trick, changed to another card of the hand: that
    seat, or the one it passed to, later plays a card it does not hold."""
    for r, i, action in action_places(doc, "pass_card"):
        rnd = doc["rounds"][r - 1]
        played_before = {a[2] for a in rnd["actions"][:i] if a[0] == "play"}
        other = next(
            (c for c in rnd["hands"][action[1]] if c not in played_before and c != action[2]), None
        )
        if other is None:
            continue
        action[2] = other
        return ("moved", r, None, None)
    return None


TAMPERS: dict[str, Callable[[Doc], Where | None]] = {
    "dragon": dragon_trick_to_the_wrong_seat,
    "fairy": fairy_loses_to_the_dragon,
    "bomb": bomb_trick_credited,
    "werewolf-turned": werewolf_swap_names_a_card_not_turned,
    "werewolf-table": werewolf_left_off_the_table,
    "juggler-declaration": _changed_declaration(JGL, (0, 1, 2, 3)),
    "juggler-pass": juggler_pass_changed,
    "cloud-missing": cloud_change_not_recorded,
    "cloud-wrong": cloud_change_scored_wrong,
    "cloud-declaration": _changed_declaration(CLD, (0, 1, 2, 3)),
    "shapeshifter": _changed_declaration(SHP, (WIZARD, JESTER)),
    "witch": witch_takes_a_card_not_in_the_trick,
    "vampire-copy": vampire_declared_as_the_wrong_copy,
    "vampire-undeclared": vampire_copy_undeclared,
}


@pytest.mark.parametrize("name", list(TAMPERS))
def test_a_tampered_record_of_each_card_is_refused_where_it_was_changed(name: str) -> None:
    tamper = TAMPERS[name]
    doc = find_doc(lambda d: tamper(copy.deepcopy(d)) is not None)
    verify_document(copy.deepcopy(doc))  # untampered, it verifies
    expected = tamper(doc)
    assert expected is not None
    rule, r, t, seat = expected
    got = failure(doc)
    assert got.round == r, got
    if rule == "changed":  # a declaration: the replay parts from the record there or later
        assert got.trick is None or t is None or got.trick >= t, got
        return
    if rule == "moved":  # a pass: someone later plays a card it does not hold
        assert got.rule in ("card-not-in-hand", "must-follow-suit", "trick-plays"), got
        return
    if rule == "refused":  # the engine's own refusal of the swap, at the Witch's trick
        assert (got.trick, got.seat) == (t, seat), got
        assert "swap" in got.detail, got
        return
    assert got.rule == rule, got
    if t is not None:
        assert got.trick == t, got
    if seat is not None:
        assert got.seat == seat, got


def tampered(tamper: Callable[[Doc], Where | None]) -> Doc:
    """The first seeded record ``tamper`` applies to, tampered."""
    doc = find_doc(lambda d: tamper(copy.deepcopy(d)) is not None)
    tamper(doc)
    return doc


def test_a_failing_trick_shows_each_card_as_it_counted() -> None:
    assert "DRG" in failure(tampered(dragon_trick_to_the_wrong_seat)).detail
    got = failure(tampered(bomb_trick_credited))
    assert "BMB" in got.detail and "nobody takes it" in got.detail
    got = failure(tampered(_changed_declaration(SHP, (WIZARD, JESTER))))
    assert "SHP=" in got.detail or "action" in got.detail


def test_vampire_declared_wrongly_says_what_it_copies() -> None:
    assert "Vampire copies" in failure(tampered(vampire_declared_as_the_wrong_copy)).detail


# ---- tampering: the round's actions and fields ------------------------------------------


def _first_round(doc: Doc) -> Doc:
    rnd: Doc = doc["rounds"][0]
    return rnd


def test_an_action_after_the_round_is_refused() -> None:
    doc = special_doc()
    rnd = _first_round(doc)
    rnd["actions"].append(list(rnd["actions"][-1]))
    assert failure(doc).rule == "actions"
    assert failure(doc).round == 1


def test_actions_that_stop_before_the_round_ends_are_refused() -> None:
    doc = special_doc()
    _first_round(doc)["actions"].pop()
    got = failure(doc)
    assert (got.rule, got.round) == ("actions", 1)
    assert "still to" in got.detail


def test_a_trick_whose_cards_are_not_the_actions_plays_is_refused() -> None:
    doc = special_doc()
    rnd = _first_round(doc)
    trick = rnd["tricks"][1]
    trick["plays"][0], trick["plays"][1] = trick["plays"][1], trick["plays"][0]
    assert where(failure(doc)) == ("trick-plays", 1, 2, None)


def test_a_trick_called_bombed_without_a_bomb_is_refused() -> None:
    doc = find_doc(lambda d: _trick_where(d, lambda c, tr: BMB not in c) is not None)
    found = _trick_where(doc, lambda c, tr: BMB not in c)
    assert found is not None
    r, t, trick = found
    trick["bombed"] = True
    assert where(failure(doc)) == ("trick-bombed", r, t, None)


def test_a_bid_action_out_of_turn_is_refused() -> None:
    doc = special_doc()
    rnd = _first_round(doc)
    bids = [i for i, a in enumerate(rnd["actions"]) if a[0] == "bid"]
    a, b = bids[0], bids[1]
    rnd["actions"][a], rnd["actions"][b] = rnd["actions"][b], rnd["actions"][a]
    got = failure(doc)
    assert (got.rule, got.round, got.seat) == ("play-order", 1, rnd["actions"][a][1])


def test_a_card_the_game_does_not_deal_is_refused_as_a_value() -> None:
    doc = special_doc(3, "bomb")
    _first_round(doc)["hands"][0][0] = int(DRG)  # no Dragon at this table
    got = failure(doc)
    assert (got.rule, got.round, got.seat) == ("bad-value", 1, 0)
    assert "not a card of this game's deck" in got.detail


@pytest.mark.parametrize("field", ["turned_card", "actions"])
def test_a_special_round_needs_its_fields(field: str) -> None:
    doc = special_doc()
    del _first_round(doc)[field]
    assert (failure(doc).rule, failure(doc).round) == ("missing-field", 1)


def test_a_malformed_action_is_refused_by_shape() -> None:
    doc = special_doc()
    _first_round(doc)["actions"][0] = ["teleport", 0, 1]
    assert (failure(doc).rule, failure(doc).round) == ("bad-value", 1)
    doc = special_doc()
    _first_round(doc)["actions"][0] = ["bid", 0, "1"]
    assert failure(doc).rule == "wrong-type"


def test_the_scored_bids_follow_the_actions() -> None:
    doc = special_doc()
    rnd = _first_round(doc)
    bid = next(a for a in rnd["actions"] if a[0] == "bid")
    seat = bid[1]
    rnd["bids"][seat] += 1 if rnd["bids"][seat] == 0 else -1
    assert where(failure(doc)) == ("bids", 1, None, seat)


# ---- the recorder ---------------------------------------------------------------------------


def test_the_recorder_refuses_a_special_round_without_its_actions() -> None:
    config = GameConfig(3, 0, TableRules(specials=frozenset({BMB}), rounds=(1,)))
    game = Game(config)
    game.apply(Deal(deck_cards({BMB})))
    while game.legal_actions():
        game.apply(game.legal_actions()[0])
    result = game.results[-1]
    assert result.actions and result.turned_card is not None
    fields = {name: getattr(result, name) for name in RESULT_FIELDS}
    players = [PlayerEntry(f"p{s}", "bot") for s in range(3)]
    recorder = GameRecorder(bytes(16), players, config)
    with pytest.raises(ValueError, match="actions"):
        recorder.add_round(
            RoundResult(**{**fields, "actions": ()}), [bytes(32)] * 3, [bytes(32)] * 3
        )
    recorder.add_round(result, [bytes(32)] * 3, [bytes(32)] * 3)
    assert recorder.record().rounds[0].actions == result.actions
    assert recorder.record().rounds[0].turned_card == result.turned_card


def test_a_plain_game_is_recorded_without_the_special_fields() -> None:
    config = GameConfig(3, 0, TableRules(rounds=(2,)))
    game = Game(config)
    game.apply(Deal(tuple(range(60))))
    while game.legal_actions():
        game.apply(game.legal_actions()[0])
    players = [PlayerEntry(f"p{s}", "bot") for s in range(3)]
    recorder = GameRecorder(bytes(16), players, config)
    recorder.add_round(game.results[-1], [bytes(32)] * 3, [bytes(32)] * 3)
    (rnd,) = recorder.record().to_dict()["rounds"]
    assert "turned_card" not in rnd and "actions" not in rnd
    assert all(set(trick) == {"leader", "plays", "winner"} for trick in rnd["tricks"])
    fields = {name: getattr(game.results[-1], name) for name in RESULT_FIELDS}
    with pytest.raises(ValueError, match="no actions"):
        recorder.add_round(RoundResult(**{**fields, "round": 2, "actions": (Bid(0, 0),)}), [], [])


RESULT_FIELDS = (
    "round", "dealer", "hands", "trump_card", "trump_suit", "bids", "tricks", "tricks_won",
    "points", "totals", "turned_card", "actions",
)  # fmt: skip


# ---- special cards with the other house rules and the private deal ----------------------


def _hidden_doc(seed: int) -> Doc:
    record = play_special_game(3, frozenset({CLD, BMB}), seed, rounds=(9, 12), hidden_bids=True)
    return copy.deepcopy(record.to_dict())


def _changed_by_a_cloud(doc: Doc) -> list[tuple[int, int]]:
    """(round number, seat) of every bid scored other than it was made."""
    out = []
    for r, rnd in enumerate(doc["rounds"], 1):
        for action in rnd["actions"]:
            if action[0] == "bid" and rnd["bids"][action[1]] != action[2]:
                out.append((r, action[1]))
    return out


def test_hidden_bids_seal_the_bid_made_not_the_bid_a_cloud_changed() -> None:
    seed = next(s for s in range(30) if _changed_by_a_cloud(_hidden_doc(s)))
    doc = _hidden_doc(seed)
    verify_document(copy.deepcopy(doc))
    r, changed = _changed_by_a_cloud(doc)[0]
    rnd = doc["rounds"][r - 1]
    seat = next(s for s in range(3) if (r, s) not in _changed_by_a_cloud(doc))
    bid = next(a for a in rnd["actions"] if a[0] == "bid" and a[1] == seat)
    new = 1 if bid[2] == 0 else bid[2] - 1
    bid[2] = rnd["bids"][seat] = new  # a consistent round, but not the sealed bid
    assert where(failure(doc)) == ("bid-seal", r, None, seat)
    assert changed != seat


@functools.cache
def _private_text(specials: frozenset[Special], seed: int, rounds: tuple[int, ...]) -> str:
    return dumps_record(play_special_game(3, specials, seed, rounds=rounds, private=True))


def private_doc(
    specials: frozenset[Special] = frozenset(Special),
    seed: int = 0,
    rounds: tuple[int, ...] = (6, 9),
) -> Doc:
    """A fresh copy of a privately dealt special game's record."""
    return copy.deepcopy(json.loads(_private_text(specials, seed, rounds)))


def moving_doc() -> Doc:
    """A private game whose record holds a Werewolf's swap, a pass and a Witch's swap (long
    rounds deal most special cards: the first seed nearly always has them all)."""
    for seed in range(10):
        doc = private_doc(seed=seed, rounds=(16, 20))
        kinds = {a[0] for rnd in doc["rounds"] for a in rnd["actions"]}
        swaps = [a for rnd in doc["rounds"] for a in rnd["actions"] if a[0] == "swap" and a[2]]
        if {"name_trump", "pass_card"} <= kinds and swaps:
            return doc
    raise AssertionError("no seed moves every kind of card")


def test_a_privately_dealt_special_game_verifies_and_its_plays_are_the_opens() -> None:
    still = frozenset({DRG, FRY, BMB, CLD, SHP, VMP})  # no card changes hands
    doc = private_doc(still)
    record = verify_document(copy.deepcopy(doc))
    assert record.private and all(rnd.special for rnd in record.rounds)
    dealt = {c for rnd in record.rounds for hand in rnd.hands for c in hand}
    assert dealt & {int(s) for s in Special}  # special cards were dealt and opened
    rnd = doc["rounds"][1]
    trick = rnd["tricks"][0]
    (seat, card), (seat2, card2) = trick["plays"][0], trick["plays"][1]
    trick["plays"][0], trick["plays"][1] = [seat, card2], [seat2, card]
    got = failure(doc)
    assert (got.rule, got.round, got.trick) == ("trick-plays", 2, 1)


def test_a_private_game_whose_cards_change_hands_verifies() -> None:
    record = verify_document(moving_doc())
    assert record.private


def _first(doc: Doc, kind: str) -> tuple[int, int, list[Any]]:
    return next(action_places(doc, kind))


def test_a_private_pass_the_actions_change_is_refused() -> None:
    """Every seat recorded passing its right neighbour's card: a card it did not hold."""
    doc = moving_doc()
    r, _, _ = _first(doc, "pass_card")
    rnd = doc["rounds"][r - 1]
    passes = [a for a in rnd["actions"] if a[0] == "pass_card"][: len(doc["players"])]
    cards = [a[2] for a in passes]
    for a, card in zip(passes, cards[1:] + cards[:1], strict=True):
        a[2] = card
    got = failure(doc)
    assert (got.rule, got.round) == ("card-not-in-hand", r)
    assert "passes" in got.detail


def moves_of(doc: Doc, r: int) -> tuple[RecordedRound, int, list[Any], list[Any], list[Any]]:
    """Round ``r`` of a private special record, typed, with its turned card and its
    transcript's opens, shows and gifts as cards, as ``verify`` reads them."""
    record = parse_record(copy.deepcopy(doc))
    rnd = record.rounds[r - 1]
    assert rnd.private_deal is not None and rnd.turned_card is not None
    setup, envelopes = rnd.private_deal.setup, rnd.private_deal.envelopes
    cards = item_cards(record.rules.specials)
    opens = [(s, cards[i]) for s, i in played_items(setup, envelopes)]
    shows = [(s, cards[i]) for s, i in shown_items(envelopes)]
    result = audit_transcript(setup, envelopes)
    gifts = [(g.pass_index, g.giver, g.recipient, cards[g.item]) for g in result.gifts]
    return rnd, rnd.turned_card, opens, shows, gifts


def moving_round(doc: Doc) -> int:
    return next(
        r
        for r, rnd in enumerate(doc["rounds"], 1)
        if {"name_trump", "pass_card"} <= {a[0] for a in rnd["actions"]}
    )


def test_the_private_transcript_must_make_the_moves_the_actions_make() -> None:
    doc = moving_doc()
    r = moving_round(doc)
    rnd, turned, opens, shows, gifts = moves_of(doc, r)
    check_private_moves(rnd, r, turned, opens, shows, gifts)  # as recorded: it holds
    assert shows and gifts
    with pytest.raises(RecordError) as info:
        check_private_moves(rnd, r, turned, opens, shows[1:], gifts)
    assert (info.value.rule, info.value.round) == ("shown-mismatch", r)
    changed = [
        (m, g, to, (c + 1) % 60) if k == 0 else (m, g, to, c)
        for k, (m, g, to, c) in enumerate(gifts)
    ]
    with pytest.raises(RecordError) as info:
        check_private_moves(rnd, r, turned, opens, shows, changed)
    assert (info.value.rule, info.value.round) == ("pass-mismatch", r)
    with pytest.raises(RecordError) as info:
        check_private_moves(rnd, r, turned, opens[:-1], shows, gifts)
    assert (info.value.rule, info.value.round) == ("open-mismatch", r)


def test_the_werewolfs_turned_card_is_played_without_an_open() -> None:
    """The turned card the Werewolf's holder took is played face up: the transcript has no
    open of it, and one would not match the record."""
    for seed in range(10):
        doc = private_doc(seed=seed, rounds=(16, 20))
        for r, _, _ in action_places(doc, "name_trump"):
            rnd, turned, opens, shows, gifts = moves_of(doc, r)
            played = [(a.seat, a.card) for a in rnd.actions or () if isinstance(a, Play)]
            taker = next(a.seat for a in rnd.actions or () if isinstance(a, NameTrump))
            if (taker, turned) in played:  # played by its taker, not passed on
                break
        else:
            continue
        break
    else:
        raise AssertionError("no seed has a Werewolf's holder play the turned card")
    assert (taker, turned) not in opens
    with pytest.raises(RecordError) as info:
        check_private_moves(rnd, r, turned, [*opens, (taker, turned)], shows, gifts)
    assert info.value.rule == "open-mismatch"
    assert (taker, int(WLF)) in shows


def test_a_special_round_the_host_shares_reaches_a_players_record_whole() -> None:
    """A player's own record takes a round it missed from the host's record
    (``record_part`` messages): a special round comes through with its actions."""
    doc = special_doc(3, "all", 0)
    record = parse_record(copy.deepcopy(doc))
    assembler = PartAssembler(3, False, record.rules.specials)
    part = round_part(record, 2)
    assert part is not None
    got = None
    for msg in part_messages(part):
        got = assembler.receive(msg)
    assert got is not None
    r, redeals, played, charges = got
    assert (r, redeals, charges) == (2, (), ())
    assert played == record.rounds[1] and played.special
    with pytest.raises(RecordError):  # read as a plain game's round: its cards are refused
        plain = PartAssembler(3, False)
        for msg in part_messages(part):
            plain.receive(msg)


def test_forehead_rounds_with_special_cards_verify() -> None:
    specials = frozenset(Special) - {WLF}  # the Werewolf is not played with the forehead
    for seed in range(3):
        record = play_special_game(3, specials, seed, rounds=(1, 4, 1), forehead=True)
        assert record.rules.forehead and [len(r.hands[0]) for r in record.rounds] == [1, 4, 1]
        verify_record(record)
        doc = record.to_dict()
        doc["rounds"][0]["tricks"][0]["winner"] = (record.rounds[0].tricks[0].winner + 1) % 3
        got = failure(doc)
        assert (got.round, got.trick) == (1, 1) and got.rule in ("trick-winner", "trick-bombed")


def test_wizard_tui_verify_prints_ok_for_a_special_record_and_fail_for_a_tampered_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    doc = special_doc(4, "all", 1)
    good.write_text(json.dumps(doc), encoding="utf-8")
    doc["rounds"][0]["actions"].pop()
    bad.write_text(json.dumps(doc), encoding="utf-8")
    assert main(["verify", str(good)]) == 0
    assert capsys.readouterr().out.startswith(f"OK {good} (3 rounds, winners: ")
    assert main(["verify", str(bad)]) == 1
    assert capsys.readouterr().out.startswith(f"FAIL {bad}: round 1, seat ")


def _revoke(doc: Doc) -> Where | None:
    """A play changed to a card of the hand that does not follow the led suit while the
    hand holds it (the engine only finds the moment: a hand with a card it may not play)."""
    record = parse_record(copy.deepcopy(doc))
    game = Game(GameConfig(len(record.players), record.first_dealer, record.rules))
    for r, rnd in enumerate(record.rounds, 1):
        seeds = rnd.seeds
        game.apply(Deal(deck_for_round(record.game_id, r, seeds, record.rules.specials)))
        for i, action in enumerate(rnd.actions or ()):
            if isinstance(action, Play):
                held, legal = game.hand(action.seat), game.legal_plays()
                off = [c for c in held if c not in legal]
                if off:
                    doc["rounds"][r - 1]["actions"][i][2] = off[0]
                    return ("must-follow-suit", r, len(game.tricks) + 1, action.seat)
            game.apply(action)
    return None


def test_a_revoke_in_a_special_game_names_the_cards() -> None:
    doc = tampered(_revoke)
    got = failure(doc)
    expected = _revoke(find_doc(lambda d: _revoke(copy.deepcopy(d)) is not None))
    assert where(got) == expected
    assert "a revoke" in got.detail and "lead while holding" in got.detail


def vampire_trick_to_the_wrong_seat(doc: Doc) -> Where | None:
    found = _trick_where(doc, lambda c, tr: VMP in c and BMB not in c)
    if found is None:
        return None
    r, t, trick = found
    trick["winner"] = (trick["winner"] + 1) % len(doc["players"])
    return ("trick-winner", r, t, None)


def test_a_vampire_trick_is_shown_with_the_card_it_copied() -> None:
    doc = tampered(vampire_trick_to_the_wrong_seat)
    got = failure(doc)
    expected = vampire_trick_to_the_wrong_seat(
        find_doc(lambda d: vampire_trick_to_the_wrong_seat(copy.deepcopy(d)) is not None)
    )
    assert where(got) == expected
    assert got.round is not None
    turned = doc["rounds"][got.round - 1]["turned_card"]
    if turned in (WLF, VMP):  # nothing to copy: it plays as a Jester
        copied = "J"
    elif turned >= 60:
        copied = Special(turned).short_name
    elif turned >= 52:
        copied = f"{'W' if turned < 56 else 'J'}{turned}"
    else:
        copied = f"{turned % 13 + 1}{'CDHS'[turned // 13]}"
    assert f"VMP={copied}" in got.detail, (turned, got.detail)


@st.composite
def _special_sets(draw: st.DrawFn) -> frozenset[Special]:
    """Any playable set: the Dragon and the Fairy together or not at all."""
    chosen = set(draw(st.sets(st.sampled_from(sorted(Special)), min_size=1)))
    if chosen & {DRG, FRY}:
        chosen |= {DRG, FRY}
    return frozenset(chosen)


@settings(max_examples=15, deadline=None)
@given(
    specials=_special_sets(),
    players=st.integers(3, 6),
    sizes=st.lists(st.integers(1, 10), min_size=1, max_size=3),
    seed=st.integers(0, 2**16),
)
def test_random_games_with_random_special_cards_verify_and_catch_a_changed_winner(
    specials: frozenset[Special], players: int, sizes: list[int], seed: int
) -> None:
    rounds = tuple(min(s, 60 // players) for s in sizes)
    record = play_special_game(players, specials, seed, rounds=rounds)
    doc = json.loads(dumps_record(record))
    assert parse_record(doc) == verify_document(copy.deepcopy(doc))
    last = doc["rounds"][-1]
    trick = last["tricks"][-1]
    trick["winner"] = (trick["winner"] + 1) % players
    got = failure(doc)
    assert (got.round, got.trick) == (len(rounds), len(last["tricks"]))
    assert got.rule == "trick-winner"


def test_a_cloud_change_of_more_than_one_is_refused_as_not_a_choice() -> None:
    doc = find_doc(lambda d: next(action_places(d, "adjust_bid"), None) is not None)
    r, i, action = next(action_places(doc, "adjust_bid"))
    rnd = doc["rounds"][r - 1]
    made = next(a[2] for a in rnd["actions"] if a[0] == "bid" and a[1] == action[1])
    changes = [a[2] for a in rnd["actions"][:i] if a[0] == "adjust_bid" and a[1] == action[1]]
    before = changes[-1] if changes else made
    action[2] = before + 3 if before + 3 <= len(rnd["hands"][0]) else before - 3
    got = failure(doc)
    assert (got.rule, got.round, got.seat) == ("not-a-choice", r, action[1])
    assert got.trick == trick_of_action(rnd, i)


KINDS = ["bid", "play", "trump", "name_trump", "declare", "adjust_bid", "pass_card", "swap"]


def test_any_changed_action_is_a_record_error_never_a_crash() -> None:
    """Bad input never crashes ``verify``: every action changed at random (its seat, its
    value, its kind, its place) fails as a record, or still verifies."""
    rng = random.Random("special-records/fuzz")
    base = special_doc(3, "all", 0)
    refused = 0
    for _ in range(100):
        doc = copy.deepcopy(base)
        rnd = rng.choice(doc["rounds"])
        i = rng.randrange(len(rnd["actions"]))
        action = rnd["actions"][i]
        how = rng.randrange(4)
        if how == 0:
            action[1] = rng.randrange(3)
        elif how == 1:
            action[2] = rng.choice([-5, -1, 0, 1, 5, 59, 63, 68, 99, None, [0, 1], [68, 68]])
        elif how == 2:
            action[0] = rng.choice(KINDS)
        else:
            j = rng.randrange(len(rnd["actions"]))
            rnd["actions"][i], rnd["actions"][j] = rnd["actions"][j], action
        try:
            verify_document(doc)
        except RecordError as exc:
            assert exc.rule != "internal-error"
            refused += 1
    assert refused > 80  # nearly every change is caught
