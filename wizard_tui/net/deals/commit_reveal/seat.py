"""The seat half of the commit-reveal deal. (Being moved here from the session by the redesign.)"""

from __future__ import annotations


class CommitRevealSeat:
    """Placeholder until the session's redesign fills it in."""
