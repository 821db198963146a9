"""``wizard-tui simulate``: play whole games between bots and report how each bot did."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path
from typing import TextIO

from ..cli import UserError
from ..game import RestrictLastBid
from ..i18n import _
from ..net.deals import FOREHEAD_DEAL, forehead_refusal
from . import options


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--players", type=int, default=4, metavar="N", help=_("players per game, 3..6 (default 4)")
    )
    parser.add_argument(
        "--games",
        type=int,
        default=1,
        metavar="G",
        help=_("games to play (default 1); with --duplicate, deal sets, each played N times"),
    )
    parser.add_argument(
        "--seed",
        metavar="S",
        help=_(
            "make the run reproducible: game ids, first dealers, deal seeds "
            "and the bots' random choices all follow from S (bots that think "
            "against a clock may still vary); without it, deals come from "
            "the secure generator"
        ),
    )
    parser.add_argument(
        "--bots",
        default="random",
        metavar="LEVEL[,LEVEL...]",
        help=_(
            "one bot level for every seat, or one per seat (default random); "
            "a level may carry options, as in hard:budget=0.3,samples=200"
        ),
    )
    parser.add_argument(
        "--restrict-last-bid",
        choices=[m.value for m in RestrictLastBid],
        default=RestrictLastBid.NEVER.value,
        help=_("when the dealer may not make the bids total the round number (default never)"),
    )
    options.add_house_rules(parser)
    options.add_specials(
        parser,
        _(
            "play with special cards: a comma-separated list of {names}, or all "
            "(the dragon and the fairy only together); with --deal private, not in the "
            "forehead round"
        ),
    )
    parser.add_argument(
        "--records", type=Path, metavar="DIR", help=_("write each game's record into DIR")
    )
    parser.add_argument(
        "--duplicate",
        action="store_true",
        help=_("replay every deal with the seats rotated, so every bot plays every hand"),
    )
    parser.add_argument(
        "--deal",
        choices=["commit-reveal", "private"],
        default="commit-reveal",
        help=_(
            "how every round is dealt: commit-reveal (docs/fairness.md, the "
            "default) or private (docs/private-deal.md: every seat encrypts "
            "and shuffles, hands stay private; slower, and records hold "
            "every signed message)"
        ),
    )
    parser.add_argument(
        "--json", action="store_true", help=_("print one JSON object instead of the table")
    )
    parser.add_argument(
        "--jobs",
        type=int,
        default=None,
        metavar="N",
        help=_(
            "play games in N processes (default: one per core); a seeded run "
            "reports the same with any N"
        ),
    )


def run(args: argparse.Namespace) -> int:
    from ..bots import make_bot
    from ..simulate import SimulationConfig, SimulationError, run_simulation

    if not 3 <= args.players <= 6:
        raise UserError(_("--players must be 3 to 6, not {players}").format(players=args.players))
    if args.games < 1:
        raise UserError(_("--games must be at least 1, not {games}").format(games=args.games))
    levels = split_levels(args.bots)
    for level in levels:
        try:
            make_bot(level)
        except (ValueError, TypeError) as exc:
            raise UserError(str(exc)) from None
    jobs = default_jobs() if args.jobs is None else args.jobs
    if jobs < 1:
        raise UserError(_("--jobs must be at least 1, not {jobs}").format(jobs=jobs))
    if len(levels) not in (1, args.players):
        raise UserError(
            _(
                "--bots lists {n} levels for {players} players: give one "
                "level for every seat, or one per seat"
            ).format(n=len(levels), players=args.players)
        )
    if args.forehead and forehead_refusal(args.deal):
        raise UserError(
            _("the {deal} deal cannot deal the forehead round yet: use --deal {other}").format(
                deal=args.deal, other=FOREHEAD_DEAL
            )
        )
    config = SimulationConfig(
        players=args.players,
        games=args.games,
        bots=levels,
        restrict_last_bid=RestrictLastBid(args.restrict_last_bid),
        hidden_bids=args.hidden_bids,
        forehead=args.forehead,
        length=args.length,
        seed=args.seed,
        duplicate=args.duplicate,
        records=args.records,
        deal=args.deal,
        specials=args.specials,
    )
    bar = ProgressBar(sys.stderr) if sys.stderr.isatty() else None
    try:
        report = run_simulation(config, jobs=jobs, on_progress=bar)
    except SimulationError as exc:
        raise UserError(str(exc)) from None
    except OSError as exc:
        raise UserError(
            _("cannot write records to {records}: {error}").format(
                records=args.records, error=exc.strerror or exc
            )
        ) from None
    finally:
        if bar is not None:
            bar.close()
    if args.json:
        print(json.dumps(report.to_json()))
    else:
        print(report.table())
    return 0


def split_levels(text: str) -> tuple[str, ...]:
    """``hard:budget=0.3,samples=200,easy`` -> ``("hard:budget=0.3,samples=200", "easy")``.

    Commas separate levels, but also a level's options: a ``key=value`` part with no colon
    continues the level before it.
    """
    levels: list[str] = []
    for part in (p.strip() for p in text.split(",")):
        if levels and "=" in part and ":" not in part:
            levels[-1] += "," + part
        else:
            levels.append(part)
    return tuple(levels)


def default_jobs() -> int:
    """One process per core this process may run on."""
    try:
        return len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # not on every platform
        return os.cpu_count() or 1


class ProgressBar:
    """``[#####.....] 12/30 games, 0:42`` redrawn in place: for a terminal, never a pipe."""

    WIDTH = 30

    def __init__(self, stream: TextIO) -> None:
        self.stream = stream
        self.start = time.monotonic()
        self.drawn = False

    def __call__(self, done: int, total: int) -> None:
        filled = self.WIDTH * done // total if total else self.WIDTH
        elapsed = int(time.monotonic() - self.start)
        bar = "#" * filled + "." * (self.WIDTH - filled)
        games = _("{done}/{total} games").format(done=done, total=total)
        text = f"\r[{bar}] {games}, {elapsed // 60}:{elapsed % 60:02d}"
        self.stream.write(text)
        self.stream.flush()
        self.drawn = True

    def close(self) -> None:
        if self.drawn:
            self.stream.write("\n")
            self.stream.flush()
