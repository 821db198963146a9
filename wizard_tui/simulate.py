"""Whole games between bots, in-process, with the real commit-reveal deal and real records.

Every simulated round is dealt the way the host deals a networked one (``docs/fairness.md``):
one 32-byte seed per seat, their commitments, then the deck from the combined seed. So every
record ``simulate`` writes verifies like a played game's. Bots see nothing but
``seat_view(game, seat)``.

With ``deal="private"`` every round is dealt by the private deal instead
(``docs/private-deal.md``, ``wizard_tui.private_deal``): every seat a ``DealPlayer`` with
its own Ed25519 signing key for the game and round keys derived from its seed of that round
(so duplicate mode still replays the same hands), a ``DealRelay`` between them, every card
played released in an ``open`` envelope and every round key revealed at the round's end.
The record then holds each round's setup and transcript.

Randomness: game ids, first dealers and seeds come from ``secrets``, except when a seed is
given for reproducible runs; only then do they come from a seeded ``random.Random``.
``duplicate`` mode replays each deal set (a game id, a first dealer and every round's seeds)
once per seat rotation, so every bot plays every hand and card luck cancels in comparisons.
"""

from __future__ import annotations

import dataclasses
import functools
import math
import multiprocessing
import random
import secrets
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from rich.cells import cell_len

from netplay import fairdeal
from netplay.signing import SigningKey

from .arena import Estimate, SeatTally, estimate, field_margins
from .bid_seal import bid_seal, new_nonce
from .bots import Bot, make_bot
from .deal import deck_for_round
from .game import (
    Bid,
    ChooseTrump,
    Game,
    GameConfig,
    IllegalAction,
    Length,
    Phase,
    Play,
    RestrictLastBid,
    TableRules,
    dealer_of,
    length_rounds,
    resolve_blind,
    rounds_for,
    seat_view,
    winners,
)
from .game.actions import AdjustBid, Declare, NameTrump, PassCard, SwapCard
from .game.specials import Special
from .i18n import N_, _, ngettext
from .private_deal import PrivateRound, round_setup, veiled_round
from .private_special import SpecialMoves
from .record import PRIVATE_PROTOCOL, GameRecord, GameRecorder, PlayerEntry, write_record
from .verify_special import bids_made

DEALS = ("commit-reveal", "private")


class SimulationError(Exception):
    """A bot did something the rules refuse (a bug in that bot), or the setup is impossible."""


@dataclass(frozen=True, slots=True)
class DealSet:
    """Everything random about one game: replaying it gives the same hands every round."""

    game_id: bytes
    first_dealer: int
    seeds: tuple[tuple[bytes, ...], ...]  # [round - 1][seat]: one per scheduled round

    @property
    def players(self) -> int:
        return len(self.seeds[0])


def new_deal_set(
    players: int, rng: random.Random | None = None, rounds: int | None = None
) -> DealSet:
    """A fresh game id, first dealer and per-round seeds: from ``secrets``, or from ``rng``
    (reproducible runs only). ``rounds``: how many rounds the game's length schedules
    (``GameConfig.num_rounds``); None: the full game's 60 / players."""
    n = players
    rounds = rounds_for(players) if rounds is None else rounds
    if rng is None:
        return DealSet(
            fairdeal.new_game_id(),
            secrets.randbelow(n),
            tuple(tuple(fairdeal.new_seed() for _ in range(n)) for _ in range(rounds)),
        )
    game_id = rng.randbytes(fairdeal.GAME_ID_BYTES)
    first_dealer = rng.randrange(n)
    seeds = tuple(
        tuple(rng.randbytes(fairdeal.SEED_BYTES) for _ in range(n)) for _ in range(rounds)
    )
    return DealSet(game_id, first_dealer, seeds)


@dataclass(frozen=True, slots=True)
class GamePlayed:
    record: GameRecord
    decisions: tuple[int, ...]  # per seat: how many times its bot decided
    decide_seconds: tuple[float, ...]  # per seat: time inside ``bot.decide``


def play_game(
    bots: Sequence[Bot],
    deal_set: DealSet,
    rules: TableRules | RestrictLastBid = RestrictLastBid.NEVER,
    players: Sequence[PlayerEntry] | None = None,
    *,
    deal: str = "commit-reveal",
    signing_keys: Sequence[SigningKey] | None = None,
    rounds: int | None = None,
) -> GamePlayed:
    """Play one whole game, seat ``s`` held by ``bots[s]``, and return its record.

    ``deal``: ``"commit-reveal"`` or ``"private"``; a private deal signs with
    ``signing_keys`` (one per seat; fresh ones when None). ``rounds``: stop after that many
    rounds (an incomplete game's record), for quick tests.
    """
    n = len(bots)
    if deal_set.players != n:
        raise SimulationError(f"{n} bots for a deal set of {deal_set.players} seats")
    if deal not in DEALS:
        raise SimulationError(f"unknown deal {deal!r}: one of {', '.join(DEALS)}")
    private = deal == "private"
    specials = rules.specials if isinstance(rules, TableRules) else frozenset()
    if private and specials and isinstance(rules, TableRules) and rules.forehead:
        raise SimulationError(
            "the private deal cannot deal special cards in the forehead round yet: "
            "use commit-reveal"
        )
    if private:
        signing_keys = signing_keys or [SigningKey.generate() for _ in range(n)]
        if len(signing_keys) != n:
            raise SimulationError(f"{len(signing_keys)} signing keys for {n} seats")
    config = GameConfig(n, deal_set.first_dealer, rules)
    if len(deal_set.seeds) < config.num_rounds:
        raise SimulationError(
            f"a deal set of {len(deal_set.seeds)} rounds for a game of {config.num_rounds}"
        )
    game = Game(config)
    entries = players or [PlayerEntry(f"{b.level}-{s}", "bot") for s, b in enumerate(bots)]
    if private:
        assert signing_keys is not None
        public_keys = [k.public_key for k in signing_keys]
        recorder = GameRecorder(
            deal_set.game_id, entries, config, protocol=PRIVATE_PROTOCOL, signing_keys=public_keys
        )
    else:
        recorder = GameRecorder(deal_set.game_id, entries, config)
    decisions = [0] * n
    seconds = [0.0] * n
    clock = time.perf_counter
    gid = deal_set.game_id
    for r, seeds in enumerate(deal_set.seeds[: config.num_rounds][:rounds], 1):
        round_deal: PrivateRound | None = None
        moves: SpecialMoves | None = None  # a special round's deal messages (show, gifts)
        if private:
            assert signing_keys is not None
            dealer = dealer_of(deal_set.first_dealer, r, n)
            veiled = veiled_round(config.rules, n, r)
            size = game.config.round_size(r)
            setup = round_setup(
                gid, r, n, dealer, public_keys, hand_size=size, veiled=veiled, specials=specials
            )
            round_deal = PrivateRound(setup, signing_keys, seeds, specials=specials)
            hands, turned = round_deal.deal()
            game.deal(round_deal.deck(hands))
            if specials:
                assert turned is not None  # (a round with special cards turns a card up)
                moves = SpecialMoves(round_deal, turned)
        else:
            # Commit first, then deal from the seeds: the order of the real protocol.
            commitments = [fairdeal.commitment(gid, r, s, seed) for s, seed in enumerate(seeds)]
            game.deal(round_deck(gid, r, seeds, specials))
        while game.phase is not Phase.DEAL and game.phase is not Phase.GAME_OVER:
            seat = game.turn
            view = seat_view(game, seat)
            bot = bots[seat]
            start = clock()
            action = bot.decide(view)
            seconds[seat] += clock() - start
            if type(action) is Play:  # "play your card" (a forehead round): the card held
                action = resolve_blind(game, action)
            decisions[seat] += 1
            _apply(game, seat, bot, action)
            if moves is not None:
                moves.follow(action)
            elif round_deal is not None and type(action) is Play:
                round_deal.play(seat, action.card)
        if config.rules.hidden_bids:
            # The bids as made: a Cloud may have changed the scored ones since they were sealed.
            result = game.results[-1]
            made = bids_made(result.actions, n) if config.rules.specials else result.bids
            _seal_bids(recorder, gid, r, made, round_deal)
        if round_deal is not None:
            recorder.add_private_round(game.results[-1], round_deal.setup, round_deal.finish())
        else:
            recorder.add_round(game.results[-1], commitments, seeds)
    return GamePlayed(recorder.record(), tuple(decisions), tuple(seconds))


def round_deck(
    game_id: bytes, r: int, seeds: Sequence[bytes], specials: frozenset[Special]
) -> tuple[int, ...]:
    """Round ``r``'s deck from the seats' seeds: ``deck_for_round``'s for the plain deck;
    with special cards, the shuffle of the table's N = 60 + k cards, item i standing for card
    ``deck_cards(specials)[i]`` (docs/fairness.md)."""
    return deck_for_round(game_id, r, seeds, specials)


def _seal_bids(
    recorder: GameRecorder,
    game_id: bytes,
    r: int,
    bids: Sequence[int],
    round_deal: PrivateRound | None,
) -> None:
    """Hidden bids: the round's seals, as every seat's program would have sent them (here
    the views alone kept the bids hidden: each bot bid seeing no other's)."""
    attempt = round_deal.setup.attempt if round_deal is not None else 0
    nonces = [new_nonce() for _ in bids]
    seals = [bid_seal(game_id, r, attempt, s, b, nonces[s]) for s, b in enumerate(bids)]
    recorder.add_bid_seals(r, seals, nonces)


_SPECIAL_ACTIONS = (NameTrump, Declare, AdjustBid, PassCard, SwapCard)


def _apply(game: Game, seat: int, bot: Bot, action: object) -> None:
    # The engine's own methods, not ``apply``: no event list per decision. (``type(x) is``
    # rather than isinstance: a subclass of an action is not one.)
    try:
        if type(action) is Play:
            game.play(action.seat, action.card)
        elif type(action) is Bid:
            game.bid(action.seat, action.bid)
        elif type(action) is ChooseTrump:
            game.choose_trump(action.seat, action.suit)
        elif type(action) in _SPECIAL_ACTIONS:
            game.apply(action)  # type: ignore[arg-type]
        else:
            raise SimulationError(f"bot {bot.level!r} at seat {seat} returned {action!r}")
    except IllegalAction as exc:
        raise SimulationError(
            f"bot {bot.level!r} at seat {seat} made an illegal move in round {game.round}: "
            f"{action!r} ({exc.code}: {exc.message})"
        ) from None


# --------------------------------------------------------------------------- a whole match


@dataclass(frozen=True, slots=True)
class SimulationConfig:
    players: int = 4
    games: int = 1  # games; in duplicate mode, deal sets (each played once per rotation)
    bots: tuple[str, ...] = ("random",)  # one level for every seat, or one per seat
    restrict_last_bid: RestrictLastBid = RestrictLastBid.NEVER
    hidden_bids: bool = False  # the house rules (docs/rules.md)
    forehead: bool = False
    length: str = "full"  # full, short, up-and-down, or cards per round: "1,2,4"
    seed: str | None = None  # reproducible run; None draws everything from ``secrets``
    duplicate: bool = False
    records: Path | None = None  # write one record per game into this directory
    deal: str = "commit-reveal"  # or "private": docs/private-deal.md
    specials: frozenset[Special] = frozenset()  # the special cards in the deck

    def table_rules(self) -> TableRules:
        """The rules every game of the match is played by."""
        return TableRules(
            self.restrict_last_bid,
            self.hidden_bids,
            self.forehead,
            length_rounds(self.length, self.players),
            self.specials,
        )

    def levels(self) -> tuple[str, ...]:
        """The level of each entry (entry e sits at seat e unless in duplicate mode)."""
        if len(self.bots) == 1:
            return self.bots * self.players
        if len(self.bots) != self.players:
            raise SimulationError(
                f"{len(self.bots)} bot levels for {self.players} players: "
                "give one level for every seat, or one per seat"
            )
        return self.bots


@dataclass(slots=True)
class SimulationReport:
    config: SimulationConfig
    games: int  # games played (deal sets x rotations in duplicate mode)
    deals: int  # deal sets
    seconds: float
    tallies: list[SeatTally]  # per entry of ``config.levels()``
    records: list[Path]

    def by_level(self) -> dict[str, SeatTally]:
        groups: dict[str, list[SeatTally]] = {}
        for tally in self.tallies:
            groups.setdefault(tally.level, []).append(tally)
        out = {}
        for level, group in groups.items():
            merged = functools.reduce(SeatTally.merged, group)
            # Entries of one level play the same deals: average their margins deal by deal,
            # so the interval counts deals, not entries times deals.
            merged.margins = [
                math.fsum(m) / len(group) for m in zip(*(t.margins for t in group), strict=True)
            ]
            out[level] = merged
        return out

    def to_json(self) -> dict[str, Any]:
        seats = [{"seat": e, **t.summary()} for e, t in enumerate(self.tallies)]
        return {
            "games": self.games,
            "seconds": self.seconds,
            "players": self.config.players,
            "deals": self.deals,
            "duplicate": self.config.duplicate,
            "restrict_last_bid": self.config.restrict_last_bid.value,
            "rules": self.config.table_rules().to_wire(),
            "deal": self.config.deal,
            "seed": self.config.seed,
            "records": None if self.config.records is None else str(self.config.records),
            "seats": seats,
            "levels": [t.summary() for t in self.by_level().values()],
            "differences": [
                {"levels": [a, b], "mean": est.mean, "ci95": list(est.interval or ()) or None}
                for a, b, est in self.differences()
            ],
        }

    def differences(self) -> list[tuple[str, str, Estimate]]:
        """Duplicate mode: for each pair of levels, the mean per deal set of the first's
        margin minus the second's, with its 95% interval (the deals are common to both, so
        this is sharper than comparing their two intervals)."""
        levels = list(self.by_level().items())
        if not self.config.duplicate or len(levels) < 2:
            return []
        levels.sort(key=lambda lt: -math.fsum(lt[1].margins))
        out = []
        for i, (a, ta) in enumerate(levels):
            for b, tb in levels[i + 1 :]:
                diffs = [x - y for x, y in zip(ta.margins, tb.margins, strict=True)]
                out.append((a, b, estimate(diffs)))
        return out

    def _differences(self) -> list[str]:
        rows = []
        for a, b, est in self.differences():
            ci = "-"
            if est.interval is not None:
                ci = f"[{est.interval[0]:+.1f}, {est.interval[1]:+.1f}]"
            name = f"{_level_name(a)} - {_level_name(b)}"
            rows.append(
                "  "
                + _("{pair}: {mean} a deal set, 95% CI {ci}").format(
                    pair=name, mean=f"{est.mean:+.1f}", ci=ci
                )
            )
        if not rows:
            return []
        return ["", _("difference in vs field, deal set by deal set:"), *rows]

    def table(self) -> str:
        """The human-readable report: one row per entry (and per level when levels repeat),
        its words in the language spoken; the numbers, the bot levels and the option values
        are the same in every language (``--json`` is the machine-readable form)."""
        c = self.config
        rate = self.games / self.seconds if self.seconds > 0 else float("inf")
        games = ngettext("{n} game", "{n} games", self.games).format(n=self.games)
        if c.duplicate:
            games = _("{games} ({deals} deal sets x {players} rotations)").format(
                games=games, deals=self.deals, players=c.players
            )
        parts = [
            games,
            ngettext("{n} player", "{n} players", c.players).format(n=c.players),
            _("restrict last bid: {value}").format(value=c.restrict_last_bid.value),
        ]
        if c.hidden_bids:
            parts.append(_("hidden bids (the restriction ignored)"))
        if c.length != Length.FULL:
            parts.append(_("length: {length}").format(length=c.length))
        if c.specials:
            parts.append(_("specials: {cards}").format(cards=_specials_text(c.specials)))
        seconds = f"{self.seconds:.2f}"
        parts.append(
            _("{seconds} s ({rate} games/s)").format(
                seconds=seconds, rate=f"{rate:.{0 if rate >= 10 else 2}f}"
            )
        )
        head = ", ".join(parts)
        label = _("entry") if c.duplicate else _("seat")
        rows = [(str(e), t.summary()) for e, t in enumerate(self.tallies)]
        levels = self.by_level()
        if 1 < len(levels) < len(self.tallies):
            rows += [(_("all"), t.summary()) for t in levels.values()]
        cells = [_row_cells(key, s, c.duplicate) for key, s in rows]
        header = [_(h) for h in (HEADERS_DUPLICATE if c.duplicate else HEADERS)]
        header[0] = label
        widths = [
            max(least, cell_len(h), *(cell_len(row[i]) for row in cells))
            for i, (least, h) in enumerate(zip(WIDTHS, header, strict=False))
        ]
        lines = [head, "", _line(header, widths)]
        lines += [_line(row, widths) for row in cells]
        if c.duplicate:
            lines += self._differences()
        lines.append("")
        if c.duplicate:
            lines.append(
                _(
                    "95% CI: Student t interval of the mean score per game; vs field: score"
                    " minus the mean of all entries on the same deals."
                )
            )
        else:
            lines.append(_("95% CI: Student t interval of the mean score per game."))
        if self.records:
            k = len(self.records)
            said = ngettext("{n} record written to {dir}", "{n} records written to {dir}", k)
            lines.append(said.format(n=k, dir=c.records))
        return "\n".join(lines)


def _specials_text(specials: frozenset[Special]) -> str:
    if len(specials) == len(Special):
        return "all"
    return ",".join(card.wire_name for card in sorted(specials))


# The report's columns: each header, the least width of its column, and whether it is
# left-aligned; the space before each. Columns grow to their (translated) header.
# TRANSLATORS: the headers of simulate's report table; short words (a column each).
HEADERS = (
    N_("seat"),
    N_("bot"),
    N_("games"),
    N_("mean score"),
    N_("95% CI"),
    N_("wins"),
    N_("bid hit"),
    N_("|bid err|"),
    N_("us/decision"),
)
HEADERS_DUPLICATE = (*HEADERS, N_("vs field"), N_("95% CI"))
WIDTHS = (5, 10, 6, 10, 17, 6, 7, 9, 11, 8, 0)
LEFT = (False, True, False, False, True, False, False, False, False, False, True)
SPACE = ("", "  ", " ", " ", "  ", " ", " ", " ", " ", "  ", "  ")


def _line(cells: Sequence[str], widths: Sequence[int]) -> str:
    out = []
    for i, (text, width) in enumerate(zip(cells, widths, strict=False)):
        pad = " " * max(0, width - cell_len(text))  # by cells, not len: accented words
        out.append(SPACE[i] + (text + pad if LEFT[i] else pad + text))
    return "".join(out).rstrip()


def _row_cells(key: str, s: dict[str, Any], duplicate: bool) -> list[str]:
    def f(x: float | None, spec: str) -> str:
        return "-" if x is None else format(x, spec)

    def ci(pair: list[float] | None) -> str:
        return "-" if pair is None else f"[{pair[0]:.1f}, {pair[1]:.1f}]"

    us = None if s["mean_decision_seconds"] is None else s["mean_decision_seconds"] * 1e6
    cells = [
        key,
        s["bot"],
        str(s["games"]),
        f(s["mean_score"], ".1f"),
        ci(s["mean_score_ci95"]),
        f(s["win_rate"], ".1%"),
        f(s["bid_accuracy"], ".1%"),
        f(s["mean_abs_bid_error"], ".2f"),
        f(us, ".1f"),
    ]
    if duplicate:
        cells += [f(s.get("margin_vs_field"), "+.1f"), ci(s.get("margin_vs_field_ci95"))]
    return cells


ProgressFn = Callable[[int, int], None]  # (games played, games in the run)


def run_simulation(
    config: SimulationConfig,
    on_game: Callable[[GamePlayed], None] | None = None,
    *,
    jobs: int = 1,
    on_progress: ProgressFn | None = None,
) -> SimulationReport:
    """Play ``config.games`` games (or deal sets in duplicate mode) and tally every bot.

    ``jobs`` > 1 plays the deal sets in that many worker processes. Everything random about
    a deal set and its bots follows from the seed and the deal set's index alone, and the
    results are tallied in deal order, so a seeded run reports the same with any ``jobs``.
    ``on_progress(done, total)`` is called as games finish (in any order).
    """
    levels = config.levels()
    n = config.players
    rounds_for(n)  # a clear error for an impossible table before anything is played
    rules = config.table_rules()
    try:
        rules.check(n)
    except ValueError as exc:
        raise SimulationError(str(exc)) from None
    if config.specials and config.deal == "private" and rules.forehead:
        raise SimulationError(
            "the private deal cannot deal special cards in the forehead round yet: "
            "use commit-reveal"
        )
    for level in set(levels):
        make_bot(level)  # unknown levels fail now, not mid-run
    if config.records is not None:
        config.records.mkdir(parents=True, exist_ok=True)
    tallies = [SeatTally(level) for level in levels]
    written: list[Path] = []
    rotations = n if config.duplicate else 1
    total = config.games * rotations
    games = 0
    start = time.perf_counter()
    work = functools.partial(play_deal_set, config)
    jobs = max(1, min(jobs, config.games))
    if jobs == 1:
        outcomes: Iterator[list[GamePlayed]] = map(work, range(config.games))
    else:
        outcomes = _in_processes(work, config.games, jobs, rotations, total, on_progress)
    for played_games in outcomes:
        deal_scores = [0.0] * n  # per entry, summed over rotations
        for k, played in enumerate(played_games):
            entry_at = _entries(n, k)
            games += 1
            _tally(played, entry_at, tallies, deal_scores)
            if config.records is not None:
                written.append(_write(config, played.record, entry_at, k))
            if on_game is not None:
                on_game(played)
            if on_progress is not None and jobs == 1:
                on_progress(games, total)
        if config.duplicate:
            for e, margin in enumerate(field_margins([s / n for s in deal_scores])):
                tallies[e].margins.append(margin)
    seconds = time.perf_counter() - start
    return SimulationReport(config, games, config.games, seconds, tallies, written)


def _entries(n: int, k: int) -> list[int]:
    """Rotation ``k``: seat -> entry."""
    return [(seat + k) % n for seat in range(n)]


def play_deal_set(config: SimulationConfig, d: int) -> list[GamePlayed]:
    """Deal set ``d`` of a run, played once (or once per rotation in duplicate mode).

    A module-level function of ``config`` and ``d`` only, so a worker process can run it.
    """
    levels = config.levels()
    n = config.players
    seeded = config.seed is not None
    deal_rng = random.Random(f"wizard-tui/simulate/{config.seed}/deal/{d}") if seeded else None
    rules = config.table_rules()
    deal_set = new_deal_set(n, deal_rng, len(rules.round_sizes(n)))
    out = []
    for k in range(n if config.duplicate else 1):
        entry_at = _entries(n, k)
        bots = [
            make_bot(
                levels[e],
                random.Random(f"wizard-tui/simulate/{config.seed}/deal/{d}/rot/{k}/bot/{e}")
                if seeded
                else None,
            )
            for e in entry_at
        ]
        names = [PlayerEntry(f"{_level_name(levels[e])}-{e}", "bot") for e in entry_at]
        signing_keys = None
        if config.deal == "private" and seeded:
            key_rng = random.Random(f"wizard-tui/simulate/{config.seed}/keys/{d}/rot/{k}")
            signing_keys = [SigningKey.from_private_bytes(key_rng.randbytes(32)) for _ in range(n)]
        out.append(
            play_game(
                bots,
                deal_set,
                rules,
                names,
                deal=config.deal,
                signing_keys=signing_keys,
            )
        )
    return out


def _in_processes(
    work: Callable[[int], list[GamePlayed]],
    count: int,
    jobs: int,
    rotations: int,
    total: int,
    on_progress: ProgressFn | None,
) -> Iterator[list[GamePlayed]]:
    """``work(0) .. work(count - 1)`` in ``jobs`` processes, yielded in index order."""
    # spawn: no fork of a process that may hold threads (a Textual app, the bot runner).
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context) as pool:
        futures = {d: pool.submit(work, d) for d in range(count)}
        pending = set(futures.values())
        done_games = 0
        try:
            for d in range(count):
                future = futures.pop(d)  # dropped once yielded: the games are not kept
                while not future.done():
                    finished, pending = wait(pending, return_when=FIRST_COMPLETED)
                    done_games += rotations * len(finished)
                    if on_progress is not None:
                        on_progress(min(done_games, total), total)
                if future in pending:  # done between the check and the wait
                    pending.discard(future)
                    done_games += rotations
                    if on_progress is not None:
                        on_progress(min(done_games, total), total)
                yield future.result()
        finally:
            for f in pending:
                f.cancel()


def _level_name(level: str) -> str:
    """``hard:budget=0.3`` -> ``hard``: the name without its options."""
    return level.partition(":")[0]


def _tally(
    played: GamePlayed, entry_at: list[int], tallies: list[SeatTally], deal_scores: list[float]
) -> None:
    rounds = played.record.rounds
    final = rounds[-1].totals
    best = winners(final)
    for seat, e in enumerate(entry_at):
        tallies[e].add_game(
            final[seat],
            (r.bids[seat] for r in rounds),
            (r.tricks_won[seat] for r in rounds),
            1 / len(best) if seat in best else 0.0,
        )
        tallies[e].add_decisions(played.decisions[seat], played.decide_seconds[seat])
        deal_scores[e] += final[seat]


def _write(config: SimulationConfig, record: GameRecord, entry_at: list[int], k: int) -> Path:
    assert config.records is not None
    if not config.duplicate:
        return write_record(config.records, record, fsync=False)
    # The rotations of one deal set share its game id, so the file names carry the rotation.
    extra = {"duplicate": {"rotation": k, "entries": entry_at}}
    record = dataclasses.replace(record, extra=extra)
    return write_record(
        config.records, record, name=f"{record.game_id.hex()}-{k}.json", fsync=False
    )
