"""A private seat's cards as its own deal knows them (``deals/private/gifts.holding``):
at every position of games with all nine special cards, dealt privately in one process,
each seat's hand (in the engine's order), legal cards, latest pass and the gifts it holds
are the engine's, put together from its dealt hand, the host's public view (plays, swaps)
and its deal player's gives and received gifts (docs/private-deal.md section 16)."""

from __future__ import annotations

import hashlib
import random

from netplay.mental import RoundVerified
from netplay.signing import SigningKey
from wizard_tui.game import Game, GameConfig, Phase, TableRules, dealer_of, seat_view
from wizard_tui.game.actions import Action, Deal, PassCard, Play
from wizard_tui.game.hidden_special import HIDDEN_CARD, HiddenSpecialGame
from wizard_tui.game.specials import SPECIALS, Special
from wizard_tui.net.deals.private.gifts import Holding, holding, jugglers_in, view_with_holding
from wizard_tui.private_deal import PrivateRound, round_setup
from wizard_tui.private_special import SpecialMoves, gift_passes

GAME_ID = bytes(range(16))
ALL = frozenset(SPECIALS)


def fixed(label: str) -> bytes:
    return hashlib.sha256(label.encode()).digest()


def test_each_seats_hand_is_the_engines_at_every_position() -> None:
    moved = {"passes": 0, "face_up": 0, "again": 0}
    for seed in range(6):
        players = 3 + seed % 3
        play_game(f"h-{seed}", players, (8, 10, 12), random.Random(seed), moved)
    assert moved["passes"] and moved["face_up"], moved  # (a taken card passed as a gift)


def test_a_card_passed_to_a_seat_is_passed_on_as_a_new_gift() -> None:
    """A Vampire copying the turned-up Juggler makes a pass, and the Juggler a second one
    (the Werewolf's holder took it face up), in which a card received at the first is
    passed on. (The round secrets ``j-343-*`` deal the turned Juggler, the Werewolf and
    the Vampire.)"""
    moved = {"passes": 0, "face_up": 0, "again": 0}
    play_game("j", 3, (10,), random.Random(1), moved, secret="j-343", eager=True)
    assert moved["again"] and moved["passes"] >= 2 * 3, moved


def play_game(
    label: str,
    players: int,
    sizes: tuple[int, ...],
    rng: random.Random,
    moved: dict[str, int],
    *,
    secret: str | None = None,
    eager: bool = False,
) -> None:
    """A game of random actions (``eager``: the Juggler and the Vampire played first, a
    card received passed on), each seat's holding checked at every position."""
    config = GameConfig(players, 0, TableRules(specials=ALL, rounds=sizes))
    signing = [SigningKey.from_private_bytes(fixed(f"{label}-{s}")) for s in range(players)]
    public = [k.public_key for k in signing]
    real = Game(config)
    host = HiddenSpecialGame(config)
    for r, size in enumerate(sizes, 1):
        dealer = dealer_of(config.first_dealer, r, players)
        setup = round_setup(GAME_ID, r, players, dealer, public, hand_size=size, specials=ALL)
        base = secret if secret is not None else f"{label}-{r}"
        secrets = [fixed(f"{base}-{s}") for s in range(players)]
        deal = PrivateRound(setup, signing, secrets, specials=ALL)
        hands, turned = deal.deal()
        assert turned is not None
        real.apply(Deal(deal.deck(hands)))
        holder = next((s for s in range(players) if Special.WEREWOLF in hands[s]), None)
        host.start_round(turned, holder)
        follow = SpecialMoves(deal, turned)
        while real.phase not in (Phase.DEAL, Phase.GAME_OVER):
            legal = real.legal_actions()
            gifts = _held(deal, hands, host, real.turn).gifts if eager else {}
            action = _choose(legal, rng, eager, gifts)
            assert not isinstance(action, Deal)  # (a seat's action)
            if type(action) is PassCard:
                before = _held(deal, hands, host, action.seat)
                moved["again"] += action.card in before.gifts
                moved["face_up"] += action.card not in hands[action.seat]
            real.apply(action)
            follow.follow(action)
            host.apply(PassCard(action.seat, HIDDEN_CARD) if type(action) is PassCard else action)
            moved["passes"] += type(action) is PassCard
            if real.phase in (Phase.DEAL, Phase.GAME_OVER):
                break
            for s in range(players):
                held = _held(deal, hands, host, s)
                assert held.complete
                assert held.hand == real.held_cards(s), (r, s)
                assert held.last_pass == real.last_pass(s)
                assert set(held.gifts) <= set(held.hand)
                merged = view_with_holding(seat_view(host, s), held)
                mine = seat_view(real, s)
                assert (merged.hand, merged.legal_cards, merged.last_pass) == (
                    mine.hand,
                    mine.legal_cards,
                    mine.last_pass,
                )
        deal.finish()
        result = deal.relay.view.result
        assert isinstance(result, RoundVerified)
        deck = tuple(deal.cards[i] for i in result.items if i is not None)
        host.finish_round(deck, gift_passes(result.gifts, deal.cards, players))
        done = real.results[-1]
        assert host.results[-1] == done
        # One pass per Juggler, and per Vampire copying one, in each trick but the last.
        made = sum(1 for a in done.actions if type(a) is PassCard) // players
        assert made == sum(jugglers_in(t.cards, done.turned_card) for t in done.tricks[:-1])


def _held(
    deal: PrivateRound, hands: tuple[tuple[int, ...], ...], host: HiddenSpecialGame, s: int
) -> Holding:
    return holding(deal.players[s], deal.cards, hands[s], seat_view(host, s))


def _choose(
    legal: list[Action], rng: random.Random, eager: bool, gifts: dict[int, tuple[int, int]]
) -> Action:
    if eager:
        first = [
            a for a in legal if type(a) is Play and a.card in (Special.JUGGLER, Special.VAMPIRE)
        ]
        if first:
            return first[0]
        passes = [a for a in legal if type(a) is PassCard]
        if passes:
            again = [a for a in passes if a.card in gifts]
            if again:
                return again[0]
    return rng.choice(legal)
