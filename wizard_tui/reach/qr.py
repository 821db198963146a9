"""The browser URL as a QR code a phone can scan off the lobby (``host --web``).

Two modules a character (half blocks), dark modules drawn as the glyph: shown black on white,
it scans the right way round whatever the terminal's colours. segno comes with the ``web``
extra; without it there is no code, only the URL."""

from __future__ import annotations

from itertools import zip_longest

QUIET_ZONE = 2  # modules of white around the code; scanners want some, the lobby is small

_HALVES = {(False, False): " ", (True, False): "▀", (False, True): "▄", (True, True): "█"}


def qr_lines(url: str) -> list[str] | None:
    """The code as text lines (dark = glyph), or None when segno is not installed."""
    try:
        import segno
    except ImportError:
        return None
    rows = [
        [bool(m) for m in row] for row in segno.make(url, error="l").matrix_iter(border=QUIET_ZONE)
    ]
    width = len(rows[0])
    lines = []
    for top, bottom in zip_longest(rows[::2], rows[1::2], fillvalue=[False] * width):
        lines.append("".join(_HALVES[pair] for pair in zip(top, bottom, strict=True)))
    return lines


__all__ = ["QUIET_ZONE", "qr_lines"]
