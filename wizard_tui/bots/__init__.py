"""Bots, by level. ``make_bot(level)`` is the one way the rest of the program gets one.

A level is a name from ``LEVELS``, optionally with options after a colon:
``hard:budget=0.3,samples=200`` (see ``HardBot`` for what they mean).
"""

from __future__ import annotations

import math
import random
from typing import Any

from ..i18n import _
from .base import Bot, SeatAction
from .easy import EasyBot
from .expert import ExpertBot
from .hard import HardBot
from .normal import NormalBot
from .random_bot import RandomBot
from .runner import BotRunner, decide_async

_LEVELS: dict[str, type[Bot]] = {
    "random": RandomBot,
    "easy": EasyBot,
    "normal": NormalBot,
    "hard": HardBot,
    "expert": ExpertBot,
}

LEVELS: tuple[str, ...] = tuple(_LEVELS)

# Option names accepted in level strings, and the keyword each stands for.
_OPTIONS: dict[str, tuple[str, type]] = {
    "budget": ("time_budget", float),
    "time_budget": ("time_budget", float),
    "bid_budget": ("bid_budget", float),
    "samples": ("max_samples", int),
    "max_samples": ("max_samples", int),
    "min_samples": ("min_samples", int),
    "exact_cards": ("exact_cards", int),
    "reads": ("play_reads", float),
}


def thinking_time(level: str) -> float | None:
    """The longest a level's bot thinks over a move, rounded up to a hundredth of a second,
    for a level that searches (hard, expert); None for one that answers at once."""
    bot = _LEVELS.get(level)
    if bot is None or not issubclass(bot, HardBot):
        return None
    return math.ceil(round(bot().longest_move * 100, 6)) / 100


def level_label(level: str) -> str:
    """A level's name with the longest its bot thinks over a move when that is noticeable:
    ``"expert (up to 1 s a move)"``; the name alone for a level that answers at once."""
    seconds = thinking_time(level)
    if seconds is None:
        return level
    return _("{level} (up to {seconds:g} s a move)").format(level=level, seconds=seconds)


def parse_level(spec: str) -> tuple[str, dict[str, Any]]:
    """``"hard:budget=0.3"`` → ``("hard", {"time_budget": 0.3})``."""
    name, _, rest = spec.partition(":")
    name = name.strip()
    if name not in _LEVELS:
        choices = ", ".join(LEVELS)
        raise ValueError(f"unknown bot level {name!r}; choose one of {choices}")
    options: dict[str, Any] = {}
    for item in filter(None, (part.strip() for part in rest.split(","))):
        key, sep, value = item.partition("=")
        if not sep or key.strip() not in _OPTIONS:
            known = ", ".join(_OPTIONS)
            raise ValueError(f"bad bot option {item!r} in {spec!r}; options are {known}")
        keyword, kind = _OPTIONS[key.strip()]
        try:
            options[keyword] = kind(value.strip())
        except ValueError:
            raise ValueError(
                f"bot option {key.strip()} needs a {kind.__name__}: {item!r}"
            ) from None
    if options and not issubclass(_LEVELS[name], HardBot):
        raise ValueError(f"bot level {name!r} takes no options")
    return name, options


def make_bot(level: str, rng: random.Random | None = None, **options: Any) -> Bot:
    """A bot of ``level`` (a name, or a name with options); ``options`` add to or override
    the options in the string."""
    name, parsed = parse_level(level)
    parsed.update(options)
    return _LEVELS[name](rng, **parsed)


__all__ = [
    "LEVELS",
    "Bot",
    "BotRunner",
    "EasyBot",
    "ExpertBot",
    "HardBot",
    "NormalBot",
    "RandomBot",
    "SeatAction",
    "decide_async",
    "level_label",
    "make_bot",
    "parse_level",
    "thinking_time",
]
