"""A kind of deal: how a round's cards reach the seats. Each kind is a package under
``wizard_tui.net.deals`` with a host half (``host.py``, run by the host core) and a seat half
(``seat.py``, run by a player's session), named together by one ``DealKind``."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class DealKind:
    name: str  # as on the wire, in the journal and the record: "commit-reveal", "private"
    summary: str  # one line for --help and the lobby
    host: Callable[..., Any]  # makes the host half (see deals/host_half.py)
    seat: Callable[..., Any]  # makes the seat half (see deals/seat_half.py)
    # Whether it deals the forehead round (docs/rules.md): each card open to every seat but
    # its holder. The private deal does not yet (docs/private-deal.md, "The forehead round").
    forehead: bool = False
    # Whether it deals the special cards (docs/rules.md, "Special cards").
    specials: bool = False
    # Whether it also deals the cards that move cards between hands (the Werewolf, the
    # Juggler, the Witch: ``MOVING_SPECIALS``): a passed card learned by its new holder
    # alone, a swapped one shown at the swap (docs/private-deal.md section 16).
    moves: bool = False
    # Whether it deals the special cards into the forehead round. The private deal does not
    # yet (docs/private-deal.md section 16).
    forehead_specials: bool = False


__all__ = ["DealKind"]
