"""Records of games with special cards to test with: played by the engine with random
legal actions, dealt by commit-reveal seeds, recorded by ``GameRecorder`` as the host does
(``add_round`` from each ``RoundResult``). Nothing here is written by hand."""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Callable, Iterator
from typing import Any

from netplay import fairdeal
from netplay.signing import SigningKey
from wizard_tui.bid_seal import bid_seal
from wizard_tui.deal import deck_for_round
from wizard_tui.game import Deal, Game, GameConfig, Phase, Play, TableRules, dealer_of
from wizard_tui.game.actions import NameTrump, PassCard, SwapCard
from wizard_tui.game.special_engine import SpecialGame
from wizard_tui.game.specials import SPECIALS, Special, parse_specials
from wizard_tui.private_deal import PrivateRound, round_setup
from wizard_tui.record import PRIVATE_PROTOCOL, GameRecord, GameRecorder, PlayerEntry
from wizard_tui.verify_special import bids_made

Doc = dict[str, Any]

ALL = frozenset(SPECIALS)
# Long rounds, so that most special cards are dealt in most rounds; few of them, so that a
# game stays quick.
ROUNDS = {3: (14, 20, 17), 4: (12, 15, 11)}


def play_special_game(
    players: int,
    specials: frozenset[Special],
    seed: int,
    *,
    rounds: tuple[int, ...] | None = None,
    hidden_bids: bool = False,
    private: bool = False,
    forehead: bool = False,
) -> GameRecord:
    """A whole game with ``specials``, every action a random legal one, and its record.
    ``hidden_bids``: each round's bids sealed as every seat's program seals its bid made.
    ``private``: dealt by the private deal, its moves made as docs/private-deal.md section
    16 says. ``forehead``: its one-card rounds are forehead rounds (recorded as dealt)."""
    rng = random.Random(f"special-records/{players}/{sorted(specials)}/{seed}/{rounds}")
    rules = TableRules(
        specials=specials,
        rounds=ROUNDS.get(players) if rounds is None else rounds,
        hidden_bids=hidden_bids,
        forehead=forehead,
    )
    config = GameConfig(players, rng.randrange(players), rules)
    game = Game(config)
    game_id = rng.randbytes(fairdeal.GAME_ID_BYTES)
    entries = [PlayerEntry(f"bot {s}", "bot") for s in range(players)]
    keys = [SigningKey.from_private_bytes(rng.randbytes(32)) for _ in range(players)]
    if private:
        public = [k.public_key for k in keys]
        recorder = GameRecorder(
            game_id, entries, config, protocol=PRIVATE_PROTOCOL, signing_keys=public
        )
    else:
        recorder = GameRecorder(game_id, entries, config)
    for r in range(1, config.num_rounds + 1):
        seeds = [rng.randbytes(fairdeal.SEED_BYTES) for _ in range(players)]
        commitments = [fairdeal.commitment(game_id, r, s, seed) for s, seed in enumerate(seeds)]
        deal: PrivateRound | None = None
        if private:
            dealer = dealer_of(config.first_dealer, r, players)
            size = config.round_size(r)
            setup = round_setup(
                game_id, r, players, dealer, public, hand_size=size, specials=specials
            )
            deal = PrivateRound(setup, keys, seeds, specials=specials)
            game.apply(Deal(deal.deck(deal.deal()[0])))
        else:
            game.apply(Deal(deck_for_round(game_id, r, seeds, specials)))
        passed: dict[int, int] = {}  # a Juggler's pass so far: seat -> card
        while game.phase not in (Phase.DEAL, Phase.GAME_OVER):
            action = rng.choice(game.legal_actions())
            assert isinstance(game, SpecialGame)
            turned = game.turned_card
            game.apply(action)
            if deal is not None:
                _move_privately(deal, action, turned, passed)
        result = game.results[-1]
        if hidden_bids:
            nonces = [rng.randbytes(32) for _ in range(players)]
            made = bids_made(result.actions, players)
            seals = [bid_seal(game_id, r, 0, s, made[s], nonces[s]) for s in range(players)]
            recorder.add_bid_seals(r, seals, nonces)
        if deal is not None:
            recorder.add_private_round(result, deal.setup, deal.finish())
        else:
            recorder.add_round(result, commitments, seeds)
    return recorder.record()


def _move_privately(
    deal: PrivateRound, action: object, turned: int | None, passed: dict[int, int]
) -> None:
    """The private deal's part of an action (docs/private-deal.md section 16): a play
    opens its card, the Werewolf is shown and the turned card taken, a Juggler's pass is
    given once every seat has chosen, a Witch's given card is shown and its taken one
    taken."""
    if isinstance(action, Play):
        deal.play(action.seat, action.card)
    elif isinstance(action, NameTrump):
        assert turned is not None
        deal.show(action.seat, int(Special.WEREWOLF))
        deal.take_public(action.seat, turned)
    elif isinstance(action, PassCard):
        passed[action.seat] = action.card
        if len(passed) == deal.setup.seats:
            deal.pass_cards([passed[s] for s in range(deal.setup.seats)])
            passed.clear()
    elif isinstance(action, SwapCard) and action.give is not None and action.take is not None:
        deal.show(action.seat, action.give)
        deal.take_public(action.seat, action.take)


@functools.cache
def _doc_text(players: int, specials: frozenset[Special], seed: int) -> str:
    return json.dumps(play_special_game(players, specials, seed).to_dict())


def special_doc(players: int = 3, specials: str | frozenset[Special] = "all", seed: int = 0) -> Doc:
    """A fresh copy of a seeded special game's record document."""
    chosen = parse_specials(specials) if isinstance(specials, str) else specials
    return json.loads(_doc_text(players, chosen, seed))


def find_doc(wanted: Callable[[Doc], Any], players: int = 3, specials: str = "all") -> Doc:
    """The first seeded record for which ``wanted`` finds what a test needs (truthy)."""
    for seed in range(60):
        doc = special_doc(players, specials, seed)
        if wanted(doc):
            return doc
    raise AssertionError("no seed gives the situation this test needs")


def tricks_of(doc: Doc) -> Iterator[tuple[int, int, Doc]]:
    """(round number, trick number, trick) of every trick, both 1-based."""
    for r, rnd in enumerate(doc["rounds"], 1):
        for t, trick in enumerate(rnd["tricks"], 1):
            yield r, t, trick


def cards_in(trick: Doc) -> list[int]:
    return [card for _, card in trick["plays"]]


def action_places(doc: Doc, kind: str) -> Iterator[tuple[int, int, list[Any]]]:
    """(round number, index in its ``actions``, action) of every action of ``kind``."""
    for r, rnd in enumerate(doc["rounds"], 1):
        for i, action in enumerate(rnd["actions"]):
            if action[0] == kind:
                yield r, i, action


def trick_of_action(rnd: Doc, index: int) -> int | None:
    """The 1-based trick action ``index`` of the round belongs to: a play's own trick; a
    declaration's, a Cloud's change's, a pass's or a swap's, the trick of the last card
    played before it; None before any card (trump and bids)."""
    plays = sum(1 for a in rnd["actions"][:index] if a[0] == "play")
    n = len(rnd["hands"])
    if rnd["actions"][index][0] == "play":
        return plays // n + 1
    return None if plays == 0 else (plays - 1) // n + 1
