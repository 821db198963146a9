"""The host half of the private deal. (Being moved here from the host by the redesign.)"""

from __future__ import annotations


class PrivateHost:
    """Placeholder until the host core's redesign fills it in."""
