"""The forehead round with the private deal keeps its secrets over real sockets
(docs/private-deal.md section 15): a holder never receives its own card, nor any key that
opens it, before it plays it; the host never learns a card before it is played."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import msgpack
from net_helpers import CapturingSession, play_bots, running_host, seat_sessions
from private_helpers import assert_private_game_verified
from test_private_secrecy import RecordingHost, _round_keys

from netplay.mental import sra
from netplay.mental.protocol import decode_body
from wizard_tui.game import SeatView, TableRules
from wizard_tui.net.host import HostOptions
from wizard_tui.session import TableUpdate


class ShowingSession(CapturingSession):
    """Keeps every view it put on its table, too."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.shown_views: list[SeatView] = []

    def _emit(self, update: Any) -> None:
        if isinstance(update, TableUpdate) and update.view is not None:
            self.shown_views.append(update.view)
        super()._emit(update)


def _bodies(msg: dict) -> list[dict]:
    """The deal bodies a message carries (a relayed envelope, a play's open)."""
    envelopes = []
    if msg["t"] == "deal":
        envelopes.append(msg["env"])
    if msg["t"] == "play" and "open" in msg:
        envelopes.append(msg["open"])
    return [decode_body(env["body"]) for env in envelopes]


async def test_no_holder_and_not_the_host_sees_a_forehead_card_before_its_play(
    tmp_path: Path,
) -> None:
    options = HostOptions(
        players=4,
        bots=1,
        bot_level="normal",
        rules=TableRules(forehead=True),
        records_dir=tmp_path,
        deal="private",
    )
    async with asyncio.timeout(90), running_host(options, host_cls=RecordingHost) as host:
        sessions = await seat_sessions(options.port, 3, cls=ShowingSession)
        assert await play_bots(sessions, "normal", seed=11) == [0, 0, 0]
        await host.finished.wait()
        assert_private_game_verified(host, sessions)
    assert isinstance(host, RecordingHost) and host.checks > 10  # nothing opened early
    record = host.table.recorder.record()  # type: ignore[union-attr]
    first = record.rounds[0]
    deal = first.private_deal
    assert deal is not None and first.round == 1
    setup = deal.setup
    keys = _round_keys(list(deal.envelopes))
    items = sra.item_table(60)
    for session in sessions:
        seat = session.seat
        assert seat is not None and isinstance(session, ShowingSession)
        (position,) = setup.positions_of(seat)
        card = first.hands[seat][0]
        others_keys = [
            sra.scalar_bytes(keys[i].positions[position].d) for i in range(4) if i != seat
        ]
        played = False  # whether this seat's card was opened to all yet
        forehead_states = 0
        for msg in session.received:
            raw = msgpack.packb(msg, use_bin_type=True)
            bodies = _bodies(msg)
            if msg["t"] == "deal" and msg["round"] != 1:
                break
            if any(b["t"] == "unveil" and b["position"] == position for b in bodies):
                played = True
            if msg["t"] == "state" and msg["view"]["round"] == 1 and "foreheads" in msg["view"]:
                forehead_states += 1
                view = msg["view"]
                assert view["hand"] == [] and view["foreheads"][seat] is None
                if not played:
                    assert card not in view["trick"]
            if played:
                continue
            assert items[card] not in raw, (seat, msg["t"])  # never its value opened
            for key in others_keys:  # never a key of its position but its own
                assert key not in raw, (seat, msg["t"], [b["t"] for b in bodies])
        assert played and forehead_states > 0
        # What its table was shown: the others' round-1 cards, never its own.
        shown = [v for v in session.shown_views if v.round == 1 and v.forehead]
        assert shown
        for view in shown:
            assert view.hand == () and view.foreheads[seat] is None
            for other, seen in enumerate(view.foreheads):
                assert seen is None or seen == first.hands[other][0]
        assert any(c is not None for v in shown for c in v.foreheads)
    # The host: every key of a round-1 card reached it only in the unveil of that card or
    # in a reveal once every card of the round was down.
    for seat, raw, at, plays in host.inbound:
        if at != (1, 0):
            continue
        msg = msgpack.unpackb(raw)
        bodies = _bodies(msg)
        for k in setup.veiled_positions:
            for i in range(4):
                if sra.scalar_bytes(keys[i].positions[k].d) not in raw:
                    continue
                assert bodies, (seat, k, msg["t"])
                body = bodies[0]
                assert (body["t"] == "unveil" and body["position"] == k and i == seat) or (
                    body["t"] == "reveal" and plays == 4
                ), (seat, k, i, body["t"])
