"""Special cards under the private deal, in one process: every seat's deal player, the
relay, the engine playing the real game, the host's ``HiddenSpecialGame`` and every seat's
``SeatSpecialGame`` following it from what each may know. The Werewolf is shown, the
Juggler's passes are gifts each receiver alone opens, the Witch's card is shown; at the round's
end the verified deck and gifts replay the round to the engine's own score, and the record
verifies (docs/private-deal.md section 16)."""

from __future__ import annotations

import hashlib
import random

import pytest

from netplay.mental import Gift, RoundVerified
from netplay.signing import SigningKey
from wizard_tui.game import Game, GameConfig, Phase, TableRules, dealer_of, seat_view
from wizard_tui.game.actions import CardsPassed, Deal, NameTrump, PassCard, SwapCard
from wizard_tui.game.hidden_special import HIDDEN_CARD, HiddenSpecialGame
from wizard_tui.game.seat_special import SeatSpecialGame
from wizard_tui.game.specials import SPECIALS, Special
from wizard_tui.private_deal import PrivateRound, item_cards, round_setup
from wizard_tui.private_special import SpecialMoves, culprit_of_gifts, gift_passes
from wizard_tui.record import PRIVATE_PROTOCOL, GameRecorder, PlayerEntry
from wizard_tui.verify import verify_record

GAME_ID = bytes(range(16))
ALL = frozenset(SPECIALS)


def fixed(label: str) -> bytes:
    return hashlib.sha256(label.encode()).digest()


def play_private_game(seed: int, players: int, sizes: tuple[int, ...]) -> dict[str, int]:
    """A whole game of random legal actions with all nine cards, privately dealt; returns how
    often each move happened (Werewolf shown, passes, swaps)."""
    rng = random.Random(seed)
    rules = TableRules(specials=ALL, rounds=sizes)
    config = GameConfig(players, rng.randrange(players), rules)
    signing = [SigningKey.from_private_bytes(fixed(f"sp-{seed}-{s}")) for s in range(players)]
    public = [k.public_key for k in signing]
    entries = [PlayerEntry(f"bot-{s}", "bot") for s in range(players)]
    recorder = GameRecorder(
        GAME_ID, entries, config, protocol=PRIVATE_PROTOCOL, signing_keys=public
    )
    real = Game(config)
    host = HiddenSpecialGame(config)
    seats = [SeatSpecialGame(config, s) for s in range(players)]
    cards = item_cards(ALL)
    moves = {"werewolf": 0, "passes": 0, "swaps": 0}
    for r, size in enumerate(sizes, 1):
        dealer = dealer_of(config.first_dealer, r, players)
        setup = round_setup(GAME_ID, r, players, dealer, public, hand_size=size, specials=ALL)
        secrets = [fixed(f"sp-{seed}-{r}-{s}") for s in range(players)]
        deal = PrivateRound(setup, signing, secrets, specials=ALL)
        hands, turned = deal.deal()
        assert turned is not None
        real.apply(Deal(deal.deck(hands)))
        holder = next((s for s in range(players) if Special.WEREWOLF in hands[s]), None)
        host.start_round(turned, holder)
        for s, own in enumerate(seats):
            own.start_round(turned, holder, hands[s])
        follow = SpecialMoves(deal, turned)
        while real.phase not in (Phase.DEAL, Phase.GAME_OVER):
            action = rng.choice(real.legal_actions())
            assert not isinstance(action, Deal)  # a seat's action
            events = real.apply(action)
            received = follow.follow(action)
            public_action = (
                PassCard(action.seat, HIDDEN_CARD) if type(action) is PassCard else action
            )
            host.apply(public_action)
            for s, own in enumerate(seats):
                own.apply(action if action.seat == s else public_action)
            moves["werewolf"] += type(action) is NameTrump
            moves["swaps"] += type(action) is SwapCard and action.give is not None
            if any(type(e) is CardsPassed for e in events):
                moves["passes"] += 1
                assert received is not None
                passes = deal.passes
                for s, own in enumerate(seats):
                    last = real.last_pass(s)
                    assert last is not None and received[s] == last[1]
                    own.received(received[s])
                    # Only the receiver holds its gift: every other seat's player, and the
                    # relay, hold no gift but their own.
                    giver = (s - 1) % players
                    assert set(deal.players[s].gifts) == {(m, giver) for m in range(passes)}
            if real.phase not in (Phase.DEAL, Phase.GAME_OVER):  # (not yet scored here)
                for s, own in enumerate(seats):
                    assert seat_view(own, s) == seat_view(real, s)
        transcript = deal.finish()
        result = deal.relay.view.result
        assert isinstance(result, RoundVerified)
        deck = tuple(cards[i] for i in result.items if i is not None)
        passed = gift_passes(result.gifts, cards, players)
        host.finish_round(deck, passed)
        assert host.results[-1] == real.results[-1]
        for s, own in enumerate(seats):  # each seat's own check at the round's end
            own.finish_round(deck, passed)
            assert seat_view(own, s) == seat_view(real, s)
        recorder.add_private_round(real.results[-1], setup, transcript)
    assert host.is_over and host.totals == real.totals
    verify_record(recorder.record())
    return moves


def test_private_games_with_all_nine_cards_verify() -> None:
    seen = {"werewolf": 0, "passes": 0, "swaps": 0}
    for seed in range(2):
        for move, count in play_private_game(seed, 3 + seed, (6, 9)).items():
            seen[move] += count
    assert all(seen.values()), seen  # every move happened at least once


def test_gift_passes_need_whole_passes_to_the_left() -> None:
    good = [Gift(0, 0, 1, 5), Gift(0, 1, 2, 7), Gift(0, 2, 0, 9)]
    cards = tuple(range(69))
    assert gift_passes(good, cards, 3) == [(5, 7, 9)]
    assert culprit_of_gifts(good, 3) is None
    assert culprit_of_gifts([Gift(0, 0, 2, 5), *good[1:]], 3) == 0  # to its right
    assert culprit_of_gifts(good[:2], 3) == 2  # seat 2 never gave
    assert culprit_of_gifts([*good, Gift(0, 1, 2, 8)], 3) == 1  # twice in one pass
    assert culprit_of_gifts([Gift(1, 0, 1, 5), Gift(1, 1, 2, 7), Gift(1, 2, 0, 9)], 3) == 0
    with pytest.raises(ValueError):
        gift_passes(good[:2], cards, 3)
