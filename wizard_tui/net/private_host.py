"""The host half of the private deal lives in its deal kind's package
(``wizard_tui.net.deals.private.host``); these are its names under the old address."""

from .deals.private.host import (
    EARLY_REVEAL,
    LOST_KEYS,
    MAX_ATTEMPTS,
    MAX_CHARGES,
    PrivateDealing,
    PrivateHost,
)

__all__ = [
    "EARLY_REVEAL",
    "LOST_KEYS",
    "MAX_ATTEMPTS",
    "MAX_CHARGES",
    "PrivateDealing",
    "PrivateHost",
]
