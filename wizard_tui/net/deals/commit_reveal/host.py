"""The host half of the commit-reveal deal. (Being moved here from the host by the redesign.)"""

from __future__ import annotations


class CommitRevealHost:
    """Placeholder until the host core's redesign fills it in."""
