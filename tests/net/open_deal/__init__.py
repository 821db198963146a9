"""A test-only kind of deal, "open-test": the host draws each round's seed and announces it
with the round, so every seat can compute every hand. It is the proof that a new kind is
one package plus one registry line: nothing else in wizard_tui changes for it (issue 15).
The tests register it with ``register_deal_kind(KIND)`` and take it out again after."""

from wizard_tui.net.deals import DealKind

from .host import OpenDealHost
from .seat import OpenDealSeat

KIND = DealKind(
    name=OpenDealHost.name,
    summary="every hand open: the host announces each round's seed (tests only)",
    host=OpenDealHost,
    seat=OpenDealSeat,
)

__all__ = ["KIND", "OpenDealHost", "OpenDealSeat"]
