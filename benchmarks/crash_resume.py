"""More kill points than the test suite has time for: runs the SIGKILL-and-resume test of
``tests/net/test_crash_resume.py`` over several games and sums up what it killed after.

    python benchmarks/crash_resume.py [--games 5] [--gap 40]

Each game kills the host every 1..``--gap`` journal entries until it ends (instead of for
the test's ~28 s), resumes it with ``wizard-tui host --resume``, and checks the finished
record, the clients' own checks and every journal left by a kill (see the test's
docstring). Exit status 0 when every game passed.
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--gap", type=int, default=40)
    args = parser.parse_args()
    env = {
        **os.environ,
        "WIZARD_CRASH_KILL_SECONDS": "100000",
        "WIZARD_CRASH_KILL_GAP": str(args.gap),
    }
    kills, kinds, failed = 0, Counter[str](), 0
    start = time.monotonic()
    for game in range(args.games):
        run = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-s", "-p", "no:cacheprovider",
             "tests/net/test_crash_resume.py", "-k", "sigkill"],
            cwd=ROOT, env=env, capture_output=True, text=True,
        )  # fmt: skip
        found = re.search(r"(\d+) kills after entries of kinds \[(.*?)\]", run.stdout)
        ok = run.returncode == 0
        failed += not ok
        if found:
            kills += int(found.group(1))
            kinds.update(k.strip(" '") for k in found.group(2).split(","))
        print(
            f"game {game + 1}: {'ok' if ok else 'FAILED'}, {found.group(1) if found else '?'} kills"
        )
        if not ok:
            print(run.stdout[-3000:])
    took = time.monotonic() - start
    print(f"{kills} kills over {args.games} games in {took:.0f} s; {failed} failed")
    print(f"last entry before a kill, kinds seen: {', '.join(sorted(kinds))}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
