"""Bots, by level. ``make_bot(level)`` is the one way the rest of the program gets one."""

from __future__ import annotations

import random

from .base import Bot, SeatAction
from .random_bot import RandomBot

_LEVELS: dict[str, type[Bot]] = {"random": RandomBot}

LEVELS: tuple[str, ...] = tuple(_LEVELS)


def make_bot(level: str, rng: random.Random | None = None) -> Bot:
    try:
        cls = _LEVELS[level]
    except KeyError:
        choices = ", ".join(LEVELS)
        raise ValueError(f"unknown bot level {level!r}; choose one of {choices}") from None
    return cls(rng)


__all__ = ["LEVELS", "Bot", "RandomBot", "SeatAction", "make_bot"]
