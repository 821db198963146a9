"""Hidden bids at a seat: this program's seal and opening, and its check of everyone's.

The player's side of ``sealed_bids.py`` (docs/protocol.md, "Hidden bids"). The player's bid
goes out only as a seal (``bid_seal``: a hash of the bid and a fresh nonce, ``bid_seal.py``);
the bid and nonce stay here. Once the host publishes every seal (``bid_seals``) and ours is
among them unchanged, this program opens it (``bid_open``), to the host alone. When the host
reveals every bid (``bids_open``) each must open the seal that was published for it (a
stand-in's bid for a seat whose opening failed opens the host's new seal, and says so); the
seals and nonces go into this player's own record, where ``verify`` checks them again.

It never trusts the host: a malformed message raises ``ProtocolError``; a seal vector that
changed ours, or a reveal that does not open, is a failed check (``problem``).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ..bid_seal import bid_seal, new_nonce, opens_bid
from ..game import Phase, SeatView, left_of
from .wire_check import a_list, byte_strings, expect, int_in

Send = Callable[[dict[str, Any]], None]


@dataclass(frozen=True, slots=True)
class Revealed:
    """A round's bids as revealed, with what opens each: for the record."""

    round: int
    bids: tuple[int, ...]
    seals: tuple[bytes, ...]
    nonces: tuple[bytes, ...]
    replaced: tuple[int, ...]


class SealedSeat:
    """This seat's sealed bid of the round being bid, and the table's seals."""

    def __init__(self, send: Send) -> None:
        self._send = send
        self.key: tuple[int, int] | None = None  # (round, attempt) being bid
        self.mine: tuple[int, bytes, bytes] | None = None  # our bid, nonce and seal
        self.sealed: frozenset[int] = frozenset()  # seats the host says have sealed
        self.seals: tuple[bytes, ...] | None = None  # every seal, once published
        self.opened = False  # we sent our opening
        self.revealed: Revealed | None = None
        self._back = False  # the link came back: what the host holds of ours is checked

    def _at(self, key: tuple[int, int]) -> None:
        if key != self.key:  # a new round, or an attempt dealt again: bid afresh
            self.key, self.mine, self.sealed = key, None, frozenset()
            self.seals, self.opened, self.revealed = None, False, None

    # -- the player bids

    def seal(
        self, game_id: bytes, seat: int, key: tuple[int, int], bid: int, *, auto: bool = False
    ) -> bool:
        """Seal ``bid`` and send the seal; False if this round's bid is sealed already."""
        self._at(key)
        if self.mine is not None:
            return False
        r, attempt = key
        nonce = new_nonce()
        seal = bid_seal(game_id, r, attempt, seat, bid, nonce)
        self.mine = (bid, nonce, seal)
        msg: dict[str, Any] = {"t": "bid_seal", "round": r, "attempt": attempt, "seal": seal}
        if auto:
            msg["auto"] = True
        self._send(msg)
        return True

    # -- the host's messages

    def reconnected(self) -> None:
        """The link came back (a snapshot follows): the host's next ``bid_sealed`` says what
        it holds of ours; whatever it lacks (a host restarted before it kept it, a message
        lost with the link) is sent again."""
        self._back = True

    def on_sealed(self, msg: dict[str, Any], players: int, seat: int | None) -> None:
        """Who has sealed, and whose seal is open."""
        key = self._key_of(msg)
        sealed = a_list(msg.get("sealed"), "sealed seats", max_len=players)
        opened = a_list(msg.get("opened", []), "opened seats", max_len=players)
        self._at(key)
        self.sealed = frozenset(int_in(s, 0, players - 1, "sealed seat") for s in sealed)
        back, self._back = self._back, False
        if not back or seat is None or self.mine is None:
            return
        if seat not in self.sealed:
            r, attempt = key
            self._send({"t": "bid_seal", "round": r, "attempt": attempt, "seal": self.mine[2]})
        self.opened = seat in {int_in(s, 0, players - 1, "opened seat") for s in opened}

    def on_seals(self, msg: dict[str, Any], players: int, seat: int) -> str | None:
        """Every seal: open ours if it is there unchanged. A problem, in words, if not."""
        key = self._key_of(msg)
        seals = tuple(byte_strings(msg.get("seals"), players, "bid seals"))
        self._at(key)
        self.seals, self.sealed = seals, frozenset(range(players))
        if self.mine is None:
            return None  # a bot of the host bids for us (or our program restarted)
        bid, nonce, seal = self.mine
        if seals[seat] != seal:
            return f"round {key[0]}: the host published a seal for our bid that is not ours"
        if not self.opened:
            self.opened = True
            r, attempt = key
            self._send(
                {"t": "bid_open", "round": r, "attempt": attempt, "bid": bid, "nonce": nonce}
            )
        return None

    def on_reveal(
        self, msg: dict[str, Any], players: int, seat: int, game_id: bytes
    ) -> tuple[Revealed, str | None]:
        """Every bid: each must open its published seal (a replaced seat's, the host's new
        seal). The round's seals, and a problem in words if one does not hold."""
        key = self._key_of(msg)
        r, attempt = key
        bids = tuple(
            int_in(b, 0, 255, "revealed bid") for b in a_list(msg.get("bids"), "bids", players)
        )
        expect(len(bids) == players, "revealed bids")
        nonces = tuple(byte_strings(msg.get("nonces"), players, "revealed nonces"))
        seals = tuple(byte_strings(msg.get("seals"), players, "revealed seals"))
        replaced = tuple(
            int_in(s, 0, players - 1, "replaced seat")
            for s in a_list(msg.get("replaced"), "replaced", players)
        )
        published = self.seals if self.key == key else None
        self._at(key)
        revealed = Revealed(r, bids, seals, nonces, replaced)
        self.revealed = revealed
        for other in range(players):
            if not opens_bid(seals[other], game_id, r, attempt, other, bids[other], nonces[other]):
                return revealed, f"round {r}: seat {other}'s bid does not open its seal"
            changed = published is not None and seals[other] != published[other]
            if changed and other not in replaced:
                return revealed, f"round {r}: seat {other}'s seal is not the one published"
        mine = self.mine
        if mine is not None and seat not in replaced and bids[seat] != mine[0]:
            return revealed, f"round {r}: the host revealed a bid for us we did not make"
        return revealed, None

    def result_seals(
        self,
        wire: dict[str, Any],
        players: int,
        game_id: bytes,
        attempt: int,
        made: Sequence[int] | None = None,
    ) -> tuple[tuple[bytes, ...], tuple[bytes, ...], str | None] | None:
        """A round result's ``bid_seals`` (None: it has none): the seals and nonces, and a
        problem in words if a bid of the result does not open its seal. ``made``: the bids
        as made, when they may differ from the result's scored ones (a Cloud changes one
        after it was sealed); else the result's."""
        pairs = wire.get("bid_seals")
        if pairs is None:
            return None
        entries = a_list(pairs, "bid seals", players)
        expect(
            len(entries) == players and all(type(e) is list and len(e) == 2 for e in entries),
            "bid seals",
        )
        seals = tuple(byte_strings([e[0] for e in entries], players, "bid seals"))
        nonces = tuple(byte_strings([e[1] for e in entries], players, "bid nonces"))
        r = int_in(wire.get("round"), 1, 0xFFFF, "round")
        if self.key is not None and self.key[0] == r:
            attempt = self.key[1]  # the attempt we saw bid
        bids = list(made) if made is not None else a_list(wire.get("bids"), "bids", players)
        for seat in range(players):
            if not opens_bid(seals[seat], game_id, r, attempt, seat, bids[seat], nonces[seat]):
                return seals, nonces, f"round {r}: seat {seat}'s bid does not open its seal"
        return seals, nonces, None

    @staticmethod
    def _key_of(msg: dict[str, Any]) -> tuple[int, int]:
        return (
            int_in(msg.get("round"), 1, 0xFFFF, "round"),
            int_in(msg.get("attempt"), 0, 0xFFFF, "attempt"),
        )

    # -- what the table and the bots see

    def view_for_table(self, view: SeatView, attempt: int) -> SeatView:
        """While the bids are hidden: once ours is sealed, the view shows it as our bid and
        asks for no other; the turn is the first seat in bidding order not sealed yet."""
        if view.phase is not Phase.BID or not view.rules.hidden_bids:
            return view
        if self.key != (view.round, attempt) or self.mine is None:
            return view
        bids = tuple(self.mine[0] if s == view.seat else b for s, b in enumerate(view.bids))
        first = left_of(view.dealer, view.players)
        order = [(first + k) % view.players for k in range(view.players)]
        sealed = self.sealed | {view.seat}
        waiting = next((s for s in order if s not in sealed), -1)
        return replace(view, bids=bids, legal_bids=(), turn=waiting)

    def sealed_seats(self, view: SeatView, attempt: int) -> tuple[int, ...]:
        """The seats that have sealed this round's bid, for the table (ours included)."""
        if view.phase is not Phase.BID or self.key != (view.round, attempt):
            return ()
        return tuple(sorted(self.sealed | ({view.seat} if self.mine is not None else set())))


__all__ = ["Revealed", "SealedSeat"]
