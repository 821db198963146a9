"""The seat half of the private deal. (Being moved here from the session by the redesign.)"""

from __future__ import annotations


class PrivateSeatHalf:
    """Placeholder until the session's redesign fills it in."""
