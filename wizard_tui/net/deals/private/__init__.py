"""The private deal (docs/private-deal.md): mental poker, so nobody, the host included, sees a
card before its holder plays it."""

from ..kind import DealKind
from .host import PrivateHost
from .seat import PrivateSeatHalf

KIND = DealKind(
    name="private",
    summary="nobody, the host included, sees another's hand",
    host=PrivateHost,
    seat=PrivateSeatHalf,
    forehead=True,  # each card veiled from its holder (docs/private-deal.md section 15)
    specials=True,  # every special card (docs/private-deal.md section 16) ...
    moves=True,  # ... the Werewolf's, the Juggler's and the Witch's moves among them
    forehead_specials=False,  # ... but not in the forehead round
)
