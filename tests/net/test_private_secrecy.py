"""The host of a privately dealt game never holds another seat's unplayed card.

The host here keeps every message each client sent it, byte for byte as decoded, and after
every message checks its own deal state: it has opened no position but the face-up card
and the cards played. After the game, with every seat's round keys from the record's
reveals, every byte the host received is searched for every per-card key of the sender:
a card's decryption key reaches the host only in the play of that card, and the round keys
only in the reveal, once every card of the round was played. The views the host sent carry
no hand at all.
"""

from __future__ import annotations

import asyncio
import copy
from pathlib import Path
from typing import Any

import msgpack
import pytest
from net_helpers import CapturingSession, play_bots, running_host, seat_sessions
from private_helpers import assert_private_game_verified
from test_private_witch import SeededDeal, seed_decks

from netplay.mental import PUBLIC, RoundKeys
from netplay.mental.protocol import decode_body
from netplay.mental.sra import scalar_bytes, scalar_from_bytes
from netplay.signing import Envelope
from wizard_tui.game import TableRules
from wizard_tui.game.specials import SPECIALS, Special
from wizard_tui.net.deals import MOVING_SPECIALS
from wizard_tui.net.host import HostOptions
from wizard_tui.net.host_adapter import WizardHost
from wizard_tui.private_deal import item_cards


class RecordingHost(WizardHost):
    """Keeps every client message with the round, attempt and plays so far when it came,
    and checks after each one that its relay has opened nothing it should not have (a card
    not played, other than the Werewolf its holder showed)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.inbound: list[tuple[int, bytes, tuple[int, int] | None, int]] = []
        self.checks = 0

    def on_message(self, session: Any, msg: dict[str, Any]) -> None:
        deal = self.deal_half.deal  # type: ignore[attr-defined]
        at = None if deal is None else (deal.round, deal.attempt)
        # (the dealt cards open so far: played, or the Werewolf shown)
        plays = 0 if deal is None else len(deal.relay.view.plays) + len(deal.relay.view.shows)
        raw = msgpack.packb(copy.deepcopy(msg), use_bin_type=True)
        self.inbound.append((session.seat, raw, at, plays))
        super().on_message(session, msg)
        self._check_nothing_opened()

    def _check_nothing_opened(self) -> None:
        deal = self.deal_half.deal  # type: ignore[attr-defined]
        if deal is None:
            return
        view = deal.relay.view
        for position, item in view.opened.items():
            werewolf = position in view.shows and deal.card_of(item) == Special.WEREWOLF
            assert deal.setup.owners[position] == PUBLIC or position in view.plays or werewolf
        self.checks += 1


def _round_keys(envelopes: list[Envelope]) -> dict[int, RoundKeys]:
    keys = {}
    for env in envelopes:
        body = decode_body(env.body)
        if body["t"] == "reveal":
            blob = body["keys"]
            keys[env.sender] = RoundKeys.from_revealed(
                scalar_from_bytes(body["key"]),
                [scalar_from_bytes(blob[i : i + 32]) for i in range(0, len(blob), 32)],
            )
    return keys


# The plain game, and a short one with the special cards the private deal deals (those that
# move no card: docs/private-deal.md section 16), and with the Werewolf too (its holder's
# show is the one key of an unplayed card anyone receives, and it is the Werewolf's).
STILL_SPECIALS = frozenset(SPECIALS) - MOVING_SPECIALS
WEREWOLF_TABLE = STILL_SPECIALS | {Special.WEREWOLF}
DECK_SEED = 3  # seeded decks (``seed_decks``): the Werewolf reaches a client's hand every run


class SeededCapture(SeededDeal, CapturingSession):
    """A capturing client whose decks are the same from run to run."""


@pytest.mark.parametrize(
    ("rules", "length"),
    [
        (TableRules(), "full"),
        (TableRules(specials=STILL_SPECIALS), "short"),
        (TableRules(specials=WEREWOLF_TABLE), "full"),
    ],
)
async def test_the_host_never_sees_an_unplayed_card(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, rules: TableRules, length: str
) -> None:
    # Seeded, since the Werewolf's case needs the card dealt to a client at least once: an
    # unseeded game misses that about once in two thousand runs.
    seed_decks(monkeypatch, DECK_SEED)
    options = HostOptions(
        players=4, bots=1, bot_level="random", records_dir=tmp_path, rules=rules, length=length
    )
    options.deal = "private"
    async with asyncio.timeout(60), running_host(options, host_cls=RecordingHost) as host:
        sessions = await seat_sessions(options.port, 3, cls=SeededCapture)
        assert await play_bots(sessions, "random", seed=7) == [0, 0, 0]
        await host.finished.wait()
        assert_private_game_verified(host, sessions)
    assert isinstance(host, RecordingHost) and host.checks > 100
    record = host.table.recorder.record()  # type: ignore[union-attr]
    searched = played = revealed = shown = 0
    cards = item_cards(rules.specials)
    for rnd in record.rounds:
        deal = rnd.private_deal
        assert deal is not None
        setup, n, r = deal.setup, 4, rnd.round
        size = len(rnd.hands[0])
        keys = _round_keys(list(deal.envelopes))
        for seat, raw, at, plays in host.inbound:
            if at != (r, 0) or seat == 3:  # seat 3 is the host's bot
                continue
            msg = msgpack.unpackb(raw)
            if msg["t"] == "play" and "open" not in msg:  # the turned card, taken face up
                assert msg["card"] == rnd.turned_card and Special.WEREWOLF in rules.specials
                continue
            body = (
                decode_body(msg["env"]["body"] if msg["t"] == "deal" else msg["open"]["body"])
                if msg["t"] in ("deal", "play")
                else None
            )
            own = keys[seat]
            assert (scalar_bytes(own.global_key.e) in raw) == (
                body is not None and body["t"] == "reveal"
            )
            for k in setup.positions_of(seat):
                searched += 1
                if scalar_bytes(own.positions[k].d) in raw:
                    assert body is not None and body["position"] == k, (r, seat, k)
                    if body["t"] == "show":  # only the Werewolf, by its holder, in a deal msg
                        assert msg["t"] == "deal" and cards[body["item"]] == Special.WEREWOLF
                        shown += 1
                        continue
                    assert msg["t"] == "play" and body["t"] == "open"
                    played += 1
                if scalar_bytes(own.positions[k].e) in raw:
                    assert body is not None and body["t"] == "reveal", (r, seat, k)
                    assert plays == n * size  # every card of the round was down
                    revealed += 1
    # Every card of the three clients was found in its play, and its key in the reveal.
    sizes = [len(rnd.hands[0]) for rnd in record.rounds]
    assert len(sizes) > 2 and (length != "full" or sizes == [*range(1, 16)])
    assert played + shown == revealed == 3 * sum(sizes) and searched > played
    assert (shown > 0) == (Special.WEREWOLF in rules.specials)  # a client held it and showed it
    for session in sessions:
        assert isinstance(session, CapturingSession)
        states = [m for m in session.received if m["t"] == "state"]
        assert states and all(m["view"]["hand"] == [] for m in states)
        assert all(m["view"]["legal_cards"] == [] for m in states)
