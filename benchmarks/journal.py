"""What journaling costs the host per accepted action: one framed entry, written and fsynced.

    python benchmarks/journal.py [--entries 2000] [--dir DIR]

Appends ``--entries`` entries the size of a real ``action`` entry to a fresh journal in
``--dir`` (default: a temporary directory beside the user data directory's file system, the
one real journals live on: ``wizard_tui.paths.data_dir()``), three ways: with ``fsync``
(what the host does), with ``fdatasync``, and with neither (page cache only), and prints the
median and p99 time per entry of each. The file system matters more than anything else
here: an ext4 file on an SSD costs about a millisecond per fsync, tmpfs nearly nothing, a
network file system far more.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

from wizard_tui.net.journal import JournalWriter, encode_entry
from wizard_tui.paths import data_dir

ENTRY = {"t": "action", "a": "play", "seat": 3, "v": 42, "by": "human"}


def run(directory: Path, entries: int, mode: str) -> list[float]:
    path = directory / f"bench-{mode}.journal"
    writer = JournalWriter.create(path, {"t": "game"}, sync=mode == "fsync")
    fd = writer._fd  # noqa: SLF001  (the journal keeps its file to itself)
    assert fd is not None
    frame = encode_entry(ENTRY)
    times = []
    try:
        for _ in range(entries):
            start = time.perf_counter()
            if mode == "fdatasync":
                os.write(fd, frame)
                os.fdatasync(fd)
            else:
                writer.append(ENTRY)
            times.append(time.perf_counter() - start)
    finally:
        writer.close()
        path.unlink()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--entries", type=int, default=2000)
    parser.add_argument("--dir", type=Path, default=None)
    args = parser.parse_args()
    base = args.dir
    if base is None:
        base = data_dir()
        base.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=base, prefix="journal-bench-") as tmp:
        print(f"{args.entries} entries of {len(encode_entry(ENTRY))} bytes in {tmp}")
        for mode in ("fsync", "fdatasync", "none"):
            times = sorted(run(Path(tmp), args.entries, mode))
            median = statistics.median(times) * 1e6
            p99 = times[int(len(times) * 0.99) - 1] * 1e6
            print(f"  {mode:<10} median {median:8.1f} us   p99 {p99:8.1f} us per entry")


if __name__ == "__main__":
    main()
