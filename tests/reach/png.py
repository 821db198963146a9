"""Just enough PNG reading to tell a screenshot is not blank (8-bit RGB/RGBA, no
interlace: what Chromium's screenshots are), without an imaging library."""

from __future__ import annotations

import struct
import zlib
from collections import Counter


def pixels(data: bytes) -> tuple[int, int, list[bytes]]:
    """(width, height, one bytes object per pixel)."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, width = 8, b"", 0
    height = depth = colour = interlace = 0
    while pos < len(data):
        (length,) = struct.unpack(">I", data[pos : pos + 4])
        kind = data[pos + 4 : pos + 8]
        body = data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    assert depth == 8 and colour in (2, 6) and interlace == 0, (depth, colour, interlace)
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows: list[bytearray] = []
    prev = bytearray(stride)
    for y in range(height):
        start = y * (stride + 1)
        kind, line = raw[start], bytearray(raw[start + 1 : start + 1 + stride])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else (b if pb <= pc else c)
                line[i] = (line[i] + pred) & 255
        rows.append(line)
        prev = line
    out = [bytes(row[x * bpp : x * bpp + 3]) for row in rows for x in range(width)]
    return width, height, out


def ink(data: bytes) -> tuple[float, int]:
    """(share of pixels that differ from the commonest colour, how many colours there are)."""
    _, _, every = pixels(data)
    counts = Counter(every)
    background = counts.most_common(1)[0][1]
    return 1 - background / len(every), len(counts)


def count_near(data: bytes, colour: tuple[int, int, int], within: int = 40) -> int:
    """How many pixels are within ``within`` of ``colour`` on every channel."""
    _, _, every = pixels(data)
    return sum(all(abs(p[i] - colour[i]) <= within for i in range(3)) for p in every)
