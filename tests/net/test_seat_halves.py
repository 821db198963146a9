"""The deal kinds' seat halves alone, through a fake ``SeatPort``: no socket, no event loop.

Each test plays the host's part by hand: it hands a half the host's messages and answers
what the half sends, with honest seats of its own (netplay's ``ClientRound`` for a
commit-reveal round; ``DealPlayer`` behind a ``DealRelay`` for a private one), and asserts
on what the half sent, noted and reported.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import pytest

from netplay import fairdeal
from netplay.commit_reveal import ClientRound
from netplay.mental import DealPlayer, DealRelay, RoundKeys, Send
from netplay.mental.protocol import Event, decode_body
from netplay.signing import Envelope, SigningKey
from wizard_tui.game import (
    DECK_SIZE,
    Game,
    GameConfig,
    Play,
    RestrictLastBid,
    RoundResult,
    SeatView,
    seat_view,
)
from wizard_tui.net.deals import COMMIT_REVEAL, PRIVATE, find_deal_kind
from wizard_tui.net.deals.commit_reveal.seat import CommitRevealSeat
from wizard_tui.net.deals.private.seat import PrivateSeatHalf
from wizard_tui.net.deals.private.voids import CLEAN
from wizard_tui.net.deals.seat_half import SeatHalf, SeatSettings
from wizard_tui.net.round_check import RoundChecker, RoundViews
from wizard_tui.private_deal import round_setup
from wizard_tui.session import RoundVerified

GAME_ID = bytes(range(16))
PLAYERS = 3
ME = 0
CONFIG = GameConfig(PLAYERS, 0, RestrictLastBid.NEVER)


@dataclass
class FakeSecrets:
    """A ``SecretKeeper`` in memory that notes what was asked of it."""

    kept: dict[tuple[bytes, int, int], bytes] = field(default_factory=dict)
    deleted: list[tuple[int, int]] = field(default_factory=list)

    def save(self, game_id: bytes, round_number: int, attempt: int, secret: bytes) -> None:
        self.kept[(game_id, round_number, attempt)] = secret

    def load(self, game_id: bytes, round_number: int, attempt: int) -> bytes | None:
        return self.kept.get((game_id, round_number, attempt))

    def delete(self, game_id: bytes, round_number: int, attempt: int) -> None:
        self.kept.pop((game_id, round_number, attempt), None)
        self.deleted.append((round_number, attempt))

    def prune(self, keep: tuple[bytes, int, int] | None = None) -> int:
        return 0


class FakePort:
    """A ``SeatPort`` that keeps whatever the half does, for the test to look at."""

    def __init__(self, *, seed: Callable[[], bytes] = fairdeal.new_seed) -> None:
        self.settings = SeatSettings(seed, SigningKey.generate(), FakeSecrets())
        self.seat: int | None = ME
        self.game_id: bytes | None = GAME_ID
        self.config: GameConfig | None = CONFIG
        self.checker: RoundChecker | None = RoundChecker(CONFIG, ME)
        self.own = None
        self.views = RoundViews()
        self.shown: SeatView | None = None
        self.sent: list[dict[str, Any]] = []
        self.notes: list[tuple[str, str]] = []
        self.checks: list[RoundVerified] = []
        self.on_send: Callable[[dict[str, Any]], None] = lambda msg: None

    def send(self, msg: dict[str, Any]) -> None:
        self.sent.append(msg)
        self.on_send(msg)

    def note(self, name: str, text: str) -> None:
        self.notes.append((name, text))

    def verified(self, result: RoundVerified) -> None:
        self.checks.append(result)

    def show(self, view: SeatView) -> None:
        self.shown = view

    def sent_of(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.sent if m["t"] == kind]


def _play_round(deck: list[int], choose: Callable[[Game, Play], None] | None = None) -> Game:
    """Round 1 of ``CONFIG`` dealt from ``deck``, every seat taking its first legal action;
    ``choose`` is told of each play before it is applied."""
    game = Game(CONFIG)
    game.deal(deck)
    while len(game.results) < 1:
        action = game.legal_actions()[0]
        if isinstance(action, Play) and choose is not None:
            choose(game, action)
        game.apply(action)
    return game


def test_the_registry_makes_each_kind_s_seat_half() -> None:
    port = FakePort()
    assert isinstance(COMMIT_REVEAL.seat(port), CommitRevealSeat)
    assert isinstance(find_deal_kind("private").seat(port), PrivateSeatHalf)
    assert all(isinstance(kind.seat(port), SeatHalf) for kind in (COMMIT_REVEAL, PRIVATE))


# -- commit-reveal ---------------------------------------------------------------------------


def _commit_reveal_round(port: FakePort) -> tuple[CommitRevealSeat, list[bytes], list[bytes]]:
    """Round 1 dealt to the half: its commitment, the vector with two other honest seats'
    commitments, its seed. Returns the half, the vector and every seed."""
    half = CommitRevealSeat(port)
    half.game({"t": "game"})
    half.round({"t": "round", "round": 1})
    (commit,) = port.sent_of("commit")
    others = [ClientRound(GAME_ID, 1, seat, PLAYERS) for seat in (1, 2)]
    vector = [commit["commitment"], *(o.commit_message()["commitment"] for o in others)]
    half.on_message({"t": "commitments", "round": 1, "commitments": vector})
    (seed,) = port.sent_of("seed")
    seeds = [seed["seed"]]
    for other in others:
        other.receive_commitments({"t": "commitments", "round": 1, "commitments": vector})
        seeds.append(other.seed_message()["seed"])
    return half, vector, seeds


def test_a_commit_reveal_round_is_checked() -> None:
    port = FakePort()
    half, vector, seeds = _commit_reveal_round(port)
    assert fairdeal.opens(vector[ME], GAME_ID, 1, ME, port.sent_of("seed")[0]["seed"])
    deck = fairdeal.shuffle_order(fairdeal.combined_seed(GAME_ID, 1, seeds), DECK_SIZE)
    game = _play_round(deck, lambda g, play: port.views.note(seat_view(g, ME)))
    half.round_end(game.results[-1], seeds, {"t": "round_end"})
    (check,) = port.checks
    assert (check.round, check.ok, check.checked) == (1, True, True), check.detail


def test_a_commit_reveal_round_with_a_wrong_seed_fails() -> None:
    port = FakePort()
    half, _, seeds = _commit_reveal_round(port)
    deck = fairdeal.shuffle_order(fairdeal.combined_seed(GAME_ID, 1, seeds), DECK_SIZE)
    game = _play_round(deck)
    forged = [seeds[0], seeds[1], bytes(32)]  # seat 2's seed is not the one it committed to
    half.round_end(game.results[-1], forged, {"t": "round_end"})
    (check,) = port.checks
    assert not check.ok and "seat 2" in check.detail


def test_no_seed_goes_out_into_a_vector_that_changed_our_commitment() -> None:
    port = FakePort()
    half = CommitRevealSeat(port)
    half.round({"t": "round", "round": 1})
    vector = [bytes(32), bytes(32), bytes(32)]  # not our commitment at our seat
    half.on_message({"t": "commitments", "round": 1, "commitments": vector})
    assert port.sent_of("seed") == []
    (check,) = port.checks
    assert not check.ok


# -- the private deal --------------------------------------------------------------------------


class PrivateTable:
    """The host's relay and two honest seats of its own around the private half at seat 0."""

    def __init__(self) -> None:
        self.port = FakePort()
        keys = [self.port.settings.signing_key, SigningKey.generate(), SigningKey.generate()]
        self.signing_keys = [k.public_key for k in keys]
        self.half = PrivateSeatHalf(self.port)
        self.half.game({"t": "game", "signing_keys": self.signing_keys})
        self.half.started()
        self.setup = round_setup(GAME_ID, 1, PLAYERS, 0, self.signing_keys, hand_size=1)
        self.relay = DealRelay(self.setup)
        self.players = {
            seat: DealPlayer(self.setup, seat, keys[seat], RoundKeys.generate(self.setup.items))
            for seat in (1, 2)
        }
        self.port.on_send = self._from_half
        self._queue: deque[tuple[int, Envelope]] = deque()  # (sender, envelope) to relay
        self._pumping = False

    def deal(self) -> None:
        self.half.round({"t": "round", "round": 1, "attempt": 0, "dealer": 0})
        for seat, player in self.players.items():
            self._route(seat, player.start())

    def hand(self, seat: int) -> tuple[int, ...]:
        if seat == ME:
            assert self.half.deal is not None and self.half.deal.hand is not None
            return self.half.deal.hand
        hand = self.players[seat].hand
        assert hand is not None
        return tuple(hand[k] for k in self.setup.positions_of(seat))

    def play(self, seat: int, card: int) -> None:
        """``seat`` plays ``card``: the half through its play hooks, the others directly."""
        if seat == ME:
            fields = self.half.play_fields(card)
            assert fields is not None
            self._route(ME, [Send(Envelope.from_wire(fields["open"]))])
            self.half.after_play()
            return
        player = self.players[seat]
        assert player.hand is not None
        position = next(k for k, item in player.hand.items() if item == card)
        self._route(seat, player.play(position, card))

    def reveal_others(self) -> None:
        for seat, player in self.players.items():
            self._route(seat, player.reveal())

    def _from_half(self, msg: dict[str, Any]) -> None:
        if msg["t"] == "deal":
            self._route(ME, [Send(Envelope.from_wire(msg["env"]))])

    def _route(self, sender: int, events: list[Event]) -> None:
        self._queue.extend((sender, e.envelope) for e in events if isinstance(e, Send))
        if self._pumping:  # the half sent while it was handed an envelope: it waits its turn
            return
        self._pumping = True
        try:
            while self._queue:  # every envelope through the relay, in order, as a network would
                origin, envelope = self._queue.popleft()
                targets, _ = self.relay.receive(origin, envelope)
                for target in targets:
                    if target == ME:
                        wire = envelope.to_wire()
                        self.half.on_message({"t": "deal", "round": 1, "attempt": 0, "env": wire})
                    else:
                        self._route(target, self.players[target].receive(envelope))
        finally:
            self._pumping = False


def _deck_of(table: PrivateTable) -> list[int]:
    """A deck for the rules engine that deals the hands the seats opened (round 1: one card
    each, from the dealer's left), the trump card next."""
    dealt = [table.hand(seat)[0] for seat in (1, 2, 0)]
    public = table.setup.public_positions
    trump = [table.relay.view.opened[public[0]]] if public else []
    return [*dealt, *trump, *sorted(set(range(DECK_SIZE)) - set(dealt) - set(trump))]


def _reveals(port: FakePort) -> list[dict[str, Any]]:
    return [
        m
        for m in port.sent_of("deal")
        if decode_body(Envelope.from_wire(m["env"]).body)["t"] == "reveal"
    ]


def test_a_private_round_reveals_after_the_last_card_and_is_checked() -> None:
    table = PrivateTable()
    table.deal()
    assert table.half.deal is not None and table.half.deal.hand is not None
    assert table.half.signing_key.public_key == table.signing_keys[ME]
    # The host's view shows no hand; the table's view gets ours.
    game = Game(CONFIG)
    game.deal(_deck_of(table))
    hidden = seat_view(game, ME)
    shown = table.half.view_for_table(hidden)
    assert shown.hand == table.half.deal.hand
    plays: list[tuple[int, int]] = []

    def played(g: Game, play: Play) -> None:
        assert _reveals(table.port) == []  # no key before every card is out
        table.port.views.note(table.half.view_for_table(seat_view(g, ME)))
        table.play(play.seat, play.card)
        plays.append((play.seat, play.card))

    done = _play_round(_deck_of(table), played)
    assert len(_reveals(table.port)) == 1  # our reveal followed our card
    table.reveal_others()
    table.half.round_end(done.results[-1], [], {"t": "round_end"})
    (check,) = table.port.checks
    assert (check.round, check.ok) == (1, True), check.detail
    assert table.half.deal is None  # the round is over: its secret is forgotten
    assert (1, 0) in table.port.settings.secrets.deleted  # type: ignore[union-attr]


def test_a_void_closes_the_attempt_and_the_next_one_is_dealt_afresh() -> None:
    table = PrivateTable()
    table.deal()
    assert table.half.deal is not None
    table.port.views.note(seat_view(_play_round(_deck_of(table)), ME))
    assert table.port.views.last(1) is not None and table.half.voided_attempts == 0
    table.half.on_message(
        {
            "t": "void",
            "round": 1,
            "attempt": 0,
            "reason": "the host restarted",
            "code": "lost_keys",
            "culprit": None,
            "reveal": True,
        }
    )
    (report,) = table.half.voids
    assert (report.round, report.attempt, report.code) == (1, 0, "lost_keys")
    assert table.half.voided_attempts == 1
    assert ("host", "round 1 is void: the host restarted") in table.port.notes
    assert len(_reveals(table.port)) == 1  # asked to: its keys show the attempt was honest
    assert report.our_code is None  # not before every seat's keys are in
    table.reveal_others()
    assert (report.our_code, report.our_culprit) == (CLEAN, None)  # our own verdict
    assert table.half.play_fields(table.half.deal.hand[0]) is None  # type: ignore[index]
    secrets = table.port.settings.secrets
    assert (1, 0) in secrets.deleted  # type: ignore[union-attr]
    # Attempt 1 of the round: a new deal, and the voided one's views are no evidence.
    table.half.round({"t": "round", "round": 1, "attempt": 1, "dealer": 0})
    deal = table.half.deal
    assert deal is not None and (deal.round, deal.attempt) == (1, 1) and not deal.voided
    assert table.port.views.last(1) is None
    assert (GAME_ID, 1, 1) in secrets.kept  # type: ignore[union-attr]


def test_a_private_dealer_other_than_the_rules_is_refused() -> None:
    from netplay.errors import ProtocolError

    table = PrivateTable()
    with pytest.raises(ProtocolError):
        table.half.round({"t": "round", "round": 1, "attempt": 0, "dealer": 2})
    assert table.half.deal is None


def test_the_wrong_signing_key_for_our_seat_is_reported() -> None:
    port = FakePort()
    half = PrivateSeatHalf(port)
    keys = [SigningKey.generate().public_key for _ in range(PLAYERS)]
    half.game({"t": "game", "signing_keys": keys})
    half.started()
    (check,) = port.checks
    assert not check.ok and "another signing key" in check.detail


def test_a_round_missed_with_our_seed_in_it_is_checked() -> None:
    port = FakePort()
    half, vector, seeds = _commit_reveal_round(port)
    deck = fairdeal.shuffle_order(fairdeal.combined_seed(GAME_ID, 1, seeds), DECK_SIZE)
    result: RoundResult = _play_round(deck).results[-1]
    half.missed_round(result, seeds, {"commitments": vector}, earlier=False)
    assert [(c.ok, c.checked) for c in port.checks] == [(True, True)]


def test_a_round_dealt_while_away_is_consistent_but_not_checked() -> None:
    port = FakePort()
    half = CommitRevealSeat(port)
    half.game({"t": "game"})
    drawn = [ClientRound(GAME_ID, 1, seat, PLAYERS) for seat in range(PLAYERS)]  # the host's
    vector = [r.commit_message()["commitment"] for r in drawn]
    seeds = []
    for r in drawn:
        r.receive_commitments({"t": "commitments", "round": 1, "commitments": vector})
        seeds.append(r.seed_message()["seed"])
    deck = fairdeal.shuffle_order(fairdeal.combined_seed(GAME_ID, 1, seeds), DECK_SIZE)
    half.missed_round(_play_round(deck).results[-1], seeds, {"commitments": vector}, False)
    (check,) = port.checks
    assert check.ok and not check.checked and "while you were away" in check.detail
    assert port.sent == []  # nothing of ours was in that deal


def test_the_session_takes_the_seat_half_the_game_names() -> None:
    from netplay.errors import ProtocolError
    from wizard_tui.net.client import NetworkSession

    session = NetworkSession("127.0.0.1", 9, name="me")  # never connected
    assert isinstance(session.seat_half, CommitRevealSeat)  # what a host naming none deals
    others = [SigningKey.generate().public_key for _ in range(PLAYERS - 1)]
    game = {
        "t": "game",
        "game_id": GAME_ID,
        "players": [{"name": f"p{i}", "kind": "human"} for i in range(PLAYERS)],
        "first_dealer": 0,
        "rules": {"restrict_last_bid": "never"},
        "you": ME,
        "deal": PRIVATE.name,
        "signing_keys": [session.settings.signing_key.public_key, *others],
    }
    session._handle(game)
    assert isinstance(session.seat_half, PrivateSeatHalf)
    assert session.recorder is not None and session.recorder.signing_keys == tuple(
        game["signing_keys"]
    )
    assert session.verifications == []  # our key is the one announced
    with pytest.raises(ProtocolError):
        session._handle({**game, "deal": "no-such-deal"})
    assert isinstance(session.seat_half, PrivateSeatHalf)  # unchanged by a deal it lacks
