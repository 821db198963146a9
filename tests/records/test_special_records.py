"""Records of games with special cards (docs/record-format.md, "Games with special cards"):
games played by the engine with random legal actions verify, through their file form too;
``verify`` refuses a tampered record of each of the nine cards, and of the round's actions,
with the rule and the place; the recorder writes a plain game exactly as before."""

from __future__ import annotations

import copy
import functools
import json
from collections.abc import Callable

import pytest

from wizard_tui.game import Bid, Deal, Game, GameConfig, RoundResult, TableRules
from wizard_tui.game.specials import Special, deck_cards
from wizard_tui.record import (
    GameRecorder,
    PlayerEntry,
    RecordError,
    dumps_record,
    loads_record,
    parse_record,
)
from wizard_tui.verify import verify_document

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


def _tampered(tamper: Callable[[Doc], Where | None]) -> Doc:
    """The first seeded record ``tamper`` applies to, tampered."""
    doc = find_doc(lambda d: tamper(copy.deepcopy(d)) is not None)
    tamper(doc)
    return doc


def test_a_failing_trick_shows_each_card_as_it_counted() -> None:
    assert "DRG" in failure(_tampered(dragon_trick_to_the_wrong_seat)).detail
    got = failure(_tampered(bomb_trick_credited))
    assert "BMB" in got.detail and "nobody takes it" in got.detail
    got = failure(_tampered(_changed_declaration(SHP, (WIZARD, JESTER))))
    assert "SHP=" in got.detail or "action" in got.detail


def test_vampire_declared_wrongly_says_what_it_copies() -> None:
    assert "Vampire copies" in failure(_tampered(vampire_declared_as_the_wrong_copy)).detail


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
def _private_text(seed: int) -> str:
    still = frozenset({DRG, FRY, BMB, CLD, SHP, VMP})  # no card moves between hands
    return dumps_record(play_special_game(3, still, seed, rounds=(6, 9), private=True))


def test_a_privately_dealt_special_game_verifies_and_its_plays_are_the_opens() -> None:
    doc = json.loads(_private_text(0))
    record = verify_document(copy.deepcopy(doc))
    assert record.private and all(rnd.special for rnd in record.rounds)
    dealt = {c for rnd in record.rounds for hand in rnd.hands for c in hand}
    assert dealt & {int(s) for s in Special}  # special cards were dealt and opened
    rnd = doc["rounds"][1]
    trick = rnd["tricks"][0]
    (seat, card), (seat2, card2) = trick["plays"][0], trick["plays"][1]
    trick["plays"][0], trick["plays"][1] = [seat, card2], [seat2, card]
    got = failure(doc)
    assert (got.rule, got.round, got.trick) == ("open-mismatch", 2, 1)
