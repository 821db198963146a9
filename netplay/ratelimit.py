"""A token bucket: the per-connection message rate limit. No clock of its own.

The caller passes ``now`` (monotonic seconds), so tests drive time by hand.
"""

from __future__ import annotations


class TokenBucket:
    """Allows ``burst`` messages at once, refilled at ``rate`` per second."""

    def __init__(self, rate: float, burst: int, now: float) -> None:
        self.rate = rate
        self.burst = burst
        self._tokens = float(burst)
        self._stamp = now

    def take(self, now: float) -> bool:
        """Spend one token; False when none is left (the message is over the limit)."""
        elapsed = max(0.0, now - self._stamp)  # a clock that steps back refills nothing
        self._tokens = min(float(self.burst), self._tokens + elapsed * self.rate)
        self._stamp = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        return False
