"""The seat half of the commit-reveal deal (``docs/fairness.md``, ``docs/protocol.md``).

Each round this seat draws a seed and sends only its commitment; once the host published
every commitment (and ours is among them, unchanged) it sends the seed, to the host alone.
At the round's end the host publishes every seed, and the ``RoundChecker`` replays the round
from the deck they give. A round dealt while this seat was away, with a seed the host drew
for it, is replayed against the published commitments (``AwayRound``) and reported as not
checked.
"""

from __future__ import annotations

from typing import Any, ClassVar

from netplay.commit_reveal import ClientRound, CommitRevealError

from ....game import RoundResult
from ....i18n import N_
from ....phrase import in_round, phrase
from ....session import RoundVerified
from ...check_texts import EARLIER_RUN, exchange_phrase
from ...protocol import MAX_ROUND
from ...wire_check import KEY_BYTES, byte_strings, int_in
from ..seat_half import SeatHalf, SeatPort
from .away_round import AwayRound


class CommitRevealSeat(SeatHalf):
    """This seat's part in every commit-reveal round of a game."""

    messages: ClassVar[frozenset[str]] = frozenset({"commitments", "redeal"})

    def __init__(self, port: SeatPort) -> None:
        super().__init__(port)
        self._exchanges: dict[int, ClientRound] = {}
        self._commitments: dict[int, list[bytes]] = {}  # the vectors we accepted, by round
        # Rounds the host dealt for this seat while a bot held it (takeover.py), and those
        # of them whose commitments are still to come.
        self._away: dict[int, AwayRound] = {}
        self._away_pending: set[int] = set()

    def exchange(self, r: int) -> ClientRound | None:
        """This seat's exchange of round ``r``, while it has one."""
        return self._exchanges.get(r)

    def game(self, msg: dict[str, Any]) -> None:
        self._exchanges.clear()
        self._commitments.clear()
        self._away.clear()
        self._away_pending.clear()

    def on_message(self, msg: dict[str, Any]) -> None:
        if msg.get("t") == "commitments":
            self._on_commitments(msg)
        else:
            self._on_redeal(msg)

    # -- a round -----------------------------------------------------------------------------

    def round(self, msg: dict[str, Any]) -> None:
        self._start_exchange(msg["round"])

    def _start_exchange(self, r: int) -> None:
        port = self.port
        game_id, config, seat = port.game_id, port.config, port.seat
        if game_id is None or config is None or seat is None:
            return
        exchange = self._exchanges.get(r)
        if exchange is None:
            exchange = ClientRound(
                game_id, r, seat, config.players, new_seed=port.settings.new_seed
            )
            self._exchanges[r] = exchange
        port.send(exchange.commit_message())

    def _on_commitments(self, msg: dict[str, Any]) -> None:
        r = msg.get("round")
        if type(r) is not int:
            return
        exchange = self._exchanges.get(r)
        if exchange is None:
            if r in self._away_pending:
                self._away_round(r, msg.get("commitments"))
            return
        try:
            exchange.receive_commitments(msg)
        except CommitRevealError as exc:
            # The host changed our commitment or sent a bad vector: never reveal into it.
            said = exchange_phrase(exc, exchange.round)
            self.port.verified(RoundVerified.of(exchange.round, False, said))
            return
        self._commitments[exchange.round] = list(msg["commitments"])
        self.port.send(exchange.seed_message())

    # -- the round's end -----------------------------------------------------------------------

    def round_end(self, result: RoundResult, seeds: list[bytes], msg: dict[str, Any]) -> None:
        port = self.port
        checker, own, r = port.checker, port.own, result.round
        if checker is None:
            return
        away = self._away.get(r)
        outcome = checker.check(
            away or self._exchanges.get(r), result, seeds, port.views.last(r), port.views.dealt(r)
        )
        said = outcome.said
        checked = True
        if outcome.ok and own is not None and r in own.earlier:
            # Not away: this program restarted, and its last run checked the round live
            # and recorded it (own_record.py). It stays checked.
            said = in_round(r, phrase(EARLIER_RUN))
        elif away is not None:
            how = phrase(away.how)  # one of AwayRound's marked sentences
            said = phrase(N_("{detail} (dealt while you were away: {how})"), detail=said, how=how)
            # No seed of ours is in this deal and its commitments reached us only with or
            # after it, so they prove nothing: consistent is all it can be, never "checked"
            # (docs/protocol.md, Seat takeover). A mismatch is still a failure.
            checked = not outcome.ok
            if outcome.ok:
                said = in_round(
                    r,
                    phrase(
                        N_(
                            "dealt while you were away ({how}): its commitments came after "
                            "the deal, so the deal is not checked; the hands, plays and scores "
                            "are consistent"
                        ),
                        how=how,
                    ),
                )
        port.verified(RoundVerified.of(outcome.round, outcome.ok, said, checked))
        # Recorded as published, verified or not (a failure is in the record too, and
        # ``verify`` then finds it again); not without the commitments we saw.
        commitments = self._commitments.get(r)
        if commitments is not None and own is not None:
            own.commit_reveal_round(r, lambda rec: rec.add_round(result, commitments, seeds))

    def missed_round(
        self, result: RoundResult, seeds: list[bytes], wire: dict[str, Any], earlier: bool
    ) -> None:
        """If our program took no part in its deal (no seed of ours, or the host redealt
        it), check it with its commitments."""
        r, commitments, seat = result.round, wire.get("commitments"), self.port.seat
        if r not in self._away and type(commitments) is list and seat is not None:
            exchange = self._exchanges.get(r)
            if exchange is None or (
                len(commitments) > seat and commitments[seat] != exchange.commitment
            ):
                self._exchanges.pop(r, None)
                self._away_round(
                    r, commitments, AwayRound.EARLIER_RUN if earlier else AwayRound.DRAWN
                )
        self.round_end(result, seeds, wire)

    # -- reconnects and rounds dealt while this seat was away (takeover.py) -------------------

    def snapshot(self, deal: Any) -> None:
        if type(deal) is not dict or type(deal.get("round")) is not int:
            return
        r = int_in(deal["round"], 1, MAX_ROUND, "snapshot deal round")
        vector = deal.get("commitments")
        if deal.get("drawn") is True:  # a bot held our seat when this round was dealt
            self._exchanges.pop(r, None)
            self._away_pending.add(r)
            if vector is not None:
                self._on_commitments({"t": "commitments", "round": r, "commitments": vector})
            return
        exchange = self._exchanges.get(r)
        if exchange is None:
            if deal.get("committed") is not True:
                # The round began while we were away: draw a seed and commit now.
                self._start_exchange(r)
            elif vector is not None and deal.get("seed_received") is True:
                # An earlier run of this program dealt it (this one restarted and came back
                # by its key): replay it as a round dealt away (not checked).
                self._away_round(r, vector, AwayRound.EARLIER_RUN)
            return  # else our seed for it is lost: the host must redeal
        if deal.get("committed") is not True:
            self.port.send(exchange.commit_message())
        elif vector is not None and deal.get("seed_received") is not True:
            if r not in self._commitments:
                self._on_commitments({"t": "commitments", "round": r, "commitments": vector})
            else:
                self.port.send(exchange.seed_message())

    def _on_redeal(self, msg: dict[str, Any]) -> None:
        """The host threw a deal away (a seat that had to reveal was taken over): forget our
        seed for it, so the new deal gets a fresh one, and keep the discarded deal."""
        r = msg.get("round")
        if type(r) is not int:
            return
        self._exchanges.pop(r, None)
        self._commitments.pop(r, None)
        own = self.port.own
        commitments, seeds = msg.get("commitments"), msg.get("seeds")
        if (
            own is not None
            and type(commitments) is list
            and type(seeds) is list
            and len(commitments) == len(seeds) == len(own.recorder.players)
            and all(type(c) is bytes and len(c) == KEY_BYTES for c in commitments)
            and all(s is None or (type(s) is bytes and len(s) == KEY_BYTES) for s in seeds)
        ):
            reason = msg.get("reason")
            own.recorder.add_redeal(r, commitments, seeds, reason if type(reason) is str else "")
            own.save()

    def _away_round(self, r: int, commitments: Any, how: str = AwayRound.DRAWN) -> None:
        game_id, config = self.port.game_id, self.port.config
        if game_id is None or config is None:
            return
        vector = byte_strings(commitments, config.players, "commitments")
        self._away_pending.discard(r)
        self._away[r] = AwayRound(game_id, r, vector, how)
        self._commitments[r] = vector


__all__ = ["CommitRevealSeat"]
