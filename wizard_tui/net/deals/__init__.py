"""The kinds of deal, found by name (as python-chess finds a variant): a new kind is one
package here plus one line in ``_BUILT_IN``."""

from __future__ import annotations

from collections.abc import Iterable

from ...game.specials import SPECIALS, Special
from .commit_reveal import KIND as COMMIT_REVEAL
from .kind import DealKind
from .private import KIND as PRIVATE

_BUILT_IN: tuple[DealKind, ...] = (PRIVATE, COMMIT_REVEAL)
_KINDS: dict[str, DealKind] = {kind.name: kind for kind in _BUILT_IN}


def deal_kinds() -> tuple[DealKind, ...]:
    """Every kind known, the default first."""
    return tuple(_KINDS.values())


def deal_names() -> tuple[str, ...]:
    return tuple(_KINDS)


def find_deal_kind(name: str) -> DealKind:
    """The kind called ``name``; KeyError, naming the known kinds, for any other."""
    try:
        return _KINDS[name]
    except KeyError:
        raise KeyError(f"no deal called {name!r} (known: {', '.join(_KINDS)})") from None


FOREHEAD_DEAL = "commit-reveal"  # the deal a forehead game uses when none is named


# The refusals below are the host's English, as every refusal it sends: a player reads them
# in its own language from the same templates (``WORDED``, wizard_tui/ui/refusals.py), and
# the command line says them itself (commands/options.py, ``chosen_deal``).


def forehead_refusal(deal: str) -> str | None:
    """Why a game with the forehead round cannot be dealt by ``deal``, or None if it can."""
    kind = _KINDS.get(deal)
    if kind is None or kind.forehead:
        return None
    return (
        f"the {deal} deal cannot deal the forehead round yet: play it with --deal {FOREHEAD_DEAL}"
    )


SPECIALS_DEAL = "commit-reveal"  # the deal a game with special cards uses when none is named


# The special cards that move a card between hands (docs/rules.md, "Special cards"): a deal
# kind deals them only if it says so (``DealKind.moves``).
MOVING_SPECIALS: frozenset[Special] = frozenset({Special.WEREWOLF, Special.JUGGLER, Special.WITCH})


def specials_refusal(
    deal: str, specials: Iterable[Special] = SPECIALS, *, forehead: bool = False
) -> str | None:
    """Why a game with the special cards ``specials`` (and the forehead round if
    ``forehead``) cannot be dealt by ``deal``, or None if it can. The private deal deals
    every special card, but not into the forehead round (docs/private-deal.md section 16)."""
    kind = _KINDS.get(deal)
    chosen = frozenset(specials)
    if kind is None or not chosen:
        return None
    if not kind.specials or (chosen & MOVING_SPECIALS and not kind.moves):
        return (
            f"the {deal} deal cannot deal the special cards yet: play them with "
            f"--deal {SPECIALS_DEAL}"
        )
    if forehead and not kind.forehead_specials:
        return (
            f"the {deal} deal cannot deal the special cards into the forehead round yet: "
            f"play them with --deal {SPECIALS_DEAL}"
        )
    return None


def register_deal_kind(kind: DealKind) -> None:
    """Adds a kind from outside the package (the tests' open deal does)."""
    if kind.name in _KINDS:
        raise ValueError(f"a deal called {kind.name!r} is already known")
    _KINDS[kind.name] = kind


def unregister_deal_kind(name: str) -> None:
    if any(kind.name == name for kind in _BUILT_IN):
        raise ValueError(f"{name!r} is built in")
    _KINDS.pop(name, None)


__all__ = [
    "COMMIT_REVEAL",
    "FOREHEAD_DEAL",
    "MOVING_SPECIALS",
    "PRIVATE",
    "SPECIALS_DEAL",
    "DealKind",
    "deal_kinds",
    "deal_names",
    "find_deal_kind",
    "forehead_refusal",
    "register_deal_kind",
    "specials_refusal",
    "unregister_deal_kind",
]
