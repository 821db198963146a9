"""``verify`` of a privately dealt special game's voided attempt (docs/private-deal.md
section 16, docs/record-format.md): an attempt voided for a revoke after the Werewolf's
holder had played the turned card it took. That play has no open in the transcript (the
card was face up), so ``verify`` must leave it out when it matches the recorded plays to
the opens, and still replay it to find the revoke.

The records are made as the host makes them: the deal by ``PrivateRound`` (every envelope
signed as the seats sign them), the void with its actions, fault, culprit and charge, then
the round dealt again and played to its end. Nothing here is written by hand."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from netplay import fairdeal
from netplay.mental import audit_transcript, played_items
from netplay.signing import SigningKey
from wizard_tui.game import Deal, Game, GameConfig, Phase, Play, TableRules, dealer_of
from wizard_tui.game.actions import NameTrump
from wizard_tui.game.codec import action_to_wire
from wizard_tui.game.special_engine import SpecialGame
from wizard_tui.game.specials import Special
from wizard_tui.private_deal import PrivateRound, item_cards, round_setup
from wizard_tui.record import (
    PRIVATE_PROTOCOL,
    VOIDED,
    GameRecord,
    GameRecorder,
    PlayerEntry,
    RecordError,
    parse_record,
)
from wizard_tui.verify import verify_document, verify_record

from .special_games import _move_privately

PLAYERS, SIZE = 3, 12
SPECIALS = frozenset({Special.WEREWOLF, Special.CLOUD})


def _attempt(
    config: GameConfig,
    game_id: bytes,
    keys: list[SigningKey],
    attempt: int,
    rng: random.Random,
    revoke: bool,
    charged: int | None = None,
) -> tuple[Any, ...] | None:
    """Attempt ``attempt`` of round 1 played with random legal actions, the deal's moves made
    privately. ``revoke``: once the Werewolf's holder has played the turned card, the first
    seat on turn that holds a card it may not play plays it, and the attempt stops there
    (None if that never happens). ``charged``: the seat that pays for the attempt before
    (it scores -10 a card). Returns the game, the deal, the actions and the revoker."""
    public = [k.public_key for k in keys]
    dealer = dealer_of(config.first_dealer, 1, PLAYERS)
    setup = round_setup(
        game_id, 1, PLAYERS, dealer, public, attempt, hand_size=SIZE, specials=SPECIALS
    )
    deal = PrivateRound(setup, keys, [rng.randbytes(32) for _ in keys], specials=SPECIALS)
    game = Game(config)
    assert isinstance(game, SpecialGame)
    if charged is not None:
        game.charge(charged)
    game.apply(Deal(deal.deck(deal.deal()[0])))
    turned = game.turned_card
    actions: list[Any] = []
    holder: int | None = None
    taken_played = False
    while game.phase not in (Phase.DEAL, Phase.GAME_OVER):
        if revoke and taken_played and game.phase is Phase.PLAY:
            seat = game.turn
            off = [c for c in game.hand(seat) if c not in game.legal_plays()]
            if off:
                deal.play(seat, off[0])  # its open: the relay cannot know it revokes
                actions.append(Play(seat, off[0]))
                return game, deal, actions, seat
        action = rng.choice(game.legal_actions())
        before = game.turned_card
        game.apply(action)
        _move_privately(deal, action, before, {})
        actions.append(action)
        if isinstance(action, NameTrump):
            holder = action.seat
        if isinstance(action, Play) and (action.seat, action.card) == (holder, turned):
            taken_played = True
    if revoke:
        return None
    return game, deal, actions, None


def voided_record(seed: int) -> GameRecord | None:
    """A one-round private game whose attempt 0 is voided for a revoke made after the
    Werewolf's holder played the turned card; attempt 1 is played to the end. None if this
    seed's attempt 0 never gets there."""
    rng = random.Random(f"private-special-void/{seed}")
    rules = TableRules(specials=SPECIALS, rounds=(SIZE,))
    config = GameConfig(PLAYERS, rng.randrange(PLAYERS), rules)
    game_id = rng.randbytes(fairdeal.GAME_ID_BYTES)
    keys = [SigningKey.from_private_bytes(rng.randbytes(32)) for _ in range(PLAYERS)]
    entries = [PlayerEntry(f"bot {s}", "bot") for s in range(PLAYERS)]
    recorder = GameRecorder(
        game_id,
        entries,
        config,
        protocol=PRIVATE_PROTOCOL,
        signing_keys=[k.public_key for k in keys],
    )
    voided = _attempt(config, game_id, keys, 0, rng, revoke=True)
    if voided is None:
        return None
    _, deal, actions, seat = voided
    envelopes = deal.finish()  # the void asks every seat to reveal: the replay needs the deck
    recorder.add_private_redeal(
        1,
        deal.setup,
        envelopes,
        f"seat {seat} revoked",
        fault="must_follow_suit",
        culprit=seat,
        actions=[action_to_wire(a) for a in actions],
    )
    recorder.add_charge(1, 0, seat, VOIDED)
    scored = _attempt(config, game_id, keys, 1, rng, revoke=False, charged=seat)
    assert scored is not None
    game, deal, _, _ = scored
    recorder.add_private_round(game.results[-1], deal.setup, deal.finish())
    return recorder.record()


def _found() -> GameRecord:
    for seed in range(40):
        record = voided_record(seed)
        if record is not None:
            return record
    raise AssertionError("no seed has the holder play the turned card before a revoke")


def test_a_void_after_the_werewolfs_turned_card_was_played_verifies() -> None:
    record = _found()
    (void,) = record.redeals
    holder = next(a[1] for a in void.actions if a[0] == "name_trump")
    deal = void.private_deal
    assert deal is not None
    items = audit_transcript(deal.setup, deal.envelopes).items
    turned = item_cards(SPECIALS)[items[deal.setup.public_positions[0]]]
    assert ("play", holder, turned) in void.actions  # played before the revoke
    opened = [(s, item_cards(SPECIALS)[i]) for s, i in played_items(deal.setup, deal.envelopes)]
    assert (holder, turned) not in opened  # with no open: it was face up
    assert void.actions[-1][0] == "play" and void.actions[-1][1] == void.culprit
    verify_record(record)
    verify_document(record.to_dict())  # and through the record's file form


def test_a_void_blaming_another_seat_or_recording_another_play_is_refused() -> None:
    record = _found()
    doc = record.to_dict()
    (void,) = doc["redeals"]
    culprit = void["culprit"]
    # The revoke charged to another seat: the replay refuses the revoker's card.
    other = copy.deepcopy(doc)
    other["redeals"][0]["culprit"] = (culprit + 1) % PLAYERS
    other["charges"][0]["seat"] = (culprit + 1) % PLAYERS
    with pytest.raises(RecordError) as info:
        verify_document(other)
    assert info.value.rule == "redeal" and "the replay refuses seat" in str(info.value.detail)
    # The turned card's play recorded as another seat's: the plays are not the opens.
    turned = parse_record(copy.deepcopy(doc)).redeals[0]
    holder = next(a[1] for a in turned.actions if a[0] == "name_trump")
    moved = copy.deepcopy(doc)
    played = [a for a in moved["redeals"][0]["actions"] if a[0] == "play" and a[1] == holder]
    played[0][1] = (holder + 1) % PLAYERS
    with pytest.raises(RecordError) as info:
        verify_document(moved)
    assert info.value.rule == "redeal"
