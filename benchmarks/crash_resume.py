"""More kill points than the test suite has time for: runs the SIGKILL-and-resume test of
``tests/net/test_crash_resume.py`` over several games and sums up what it killed after;
then plays privately dealt games of real processes whose host and players it kills.

    python benchmarks/crash_resume.py [--games 5] [--gap 40] [--private-games 3] [--seed 1]

Each commit-reveal game kills the host every 1..``--gap`` journal entries until it ends
(instead of for the test's ~28 s), resumes it with ``wizard-tui host --resume``, and checks
the finished record, the clients' own checks and every journal left by a kill (see the
test's docstring).

Each private game (6 seats, 4 of them the host's bots, 2 ``join --bot`` players, each
process with a data directory of its own) SIGKILLs, every 0.8..2.5 s once a round was
played since the last kill and until the last round, the host (resumed with ``host
--resume``) or a player (run again, and again while it cannot reach a host that is down:
it takes its seat back and carries on its record), until the game ends. Then it verifies
every record every participant wrote and reports how many verified and were complete, out
of how many were written (goal: all). Exit status 0 when every game passed and every
record verified.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=5)
    parser.add_argument("--gap", type=int, default=40)
    parser.add_argument("--private-games", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
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
    private_ok = private_games(args.private_games, random.Random(args.seed))
    return 1 if failed or not private_ok else 0


def _env(root: Path, machine: str) -> dict[str, str]:
    home = root / machine
    home.mkdir(parents=True, exist_ok=True)
    return {**os.environ, "XDG_DATA_HOME": str(home), "PYTHONPATH": str(ROOT)}


def _spawn(root: Path, machine: str, name: str, *args: str) -> subprocess.Popen[bytes]:
    out = (root / f"{name}.out").open("ab")
    return subprocess.Popen(
        [sys.executable, "-m", "wizard_tui", *args],
        env=_env(root, machine),
        stdin=subprocess.DEVNULL,
        stdout=out,
        stderr=subprocess.STDOUT,
    )


def _host(root: Path, port: int, *args: str) -> subprocess.Popen[bytes]:
    return _spawn(
        root, "host", "host", "host", "--headless", "--bind", "127.0.0.1",
        "--port", str(port), *args,
    )  # fmt: skip


def _join(root: Path, name: str, port: int) -> subprocess.Popen[bytes]:
    target = f"127.0.0.1:{port}"
    return _spawn(root, name, name, "join", target, "--bot", "random", "--name", name)


def _listening(root: Path) -> int:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        found = re.findall(r"listening on 127\.0\.0\.1:(\d+)", (root / "host.out").read_text())
        if found:
            return int(found[-1])
        time.sleep(0.05)
    raise RuntimeError("the host did not start")


def private_game(root: Path, rng: random.Random) -> tuple[Counter[str], int, int, int, bool]:
    """One killed-and-resumed private game: kills by kind, records written, verified,
    complete, and whether every process ended as documented."""
    from wizard_tui.verify import verify_path

    records = root / "host-records"
    host = _host(root, 0, "--players", "6", "--bots", "4", "--bot-delay", "0",
                 "--takeover-after", "1", "--records", str(records))  # fmt: skip
    port = _listening(root)
    players = {name: _join(root, name, port) for name in ("ann", "ben")}
    kills: Counter[str] = Counter()
    deadline = time.monotonic() + 300
    ended_ok = True

    def progress() -> int:  # rounds the players reported so far
        return sum(p.read_text().count("\nround ") for p in root.glob("*.out"))

    def last_round() -> bool:
        # No kill in the last round (10 of 10): a player killed then, whose seat a bot
        # finishes, finds the host gone (it does not wait for it) and its record lacks it.
        return any("\nround 9: " in p.read_text() for p in root.glob("*.out"))

    try:
        while "round 1: " not in (root / "ann.out").read_text() and host.poll() is None:
            time.sleep(0.05)  # the game has begun (a lobby has nothing to resume)
        next_kill, mark = time.monotonic() + rng.uniform(0.8, 2.5), progress()
        while host.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
            for name, proc in players.items():
                if proc.poll() not in (None, 0):
                    # It could not reach the host (down for a restart: 2) or was cut off
                    # (1): as a person would, run it again.
                    ended_ok &= proc.returncode in (1, 2)
                    players[name] = _join(root, name, port)
            # The next kill once a round was played since the last: a host gives a round up
            # after 8 voided attempts, and every kill voids one.
            if time.monotonic() < next_kill or progress() < mark + 2 or last_round():
                continue
            target = rng.choice(["host", "ann", "ben"])
            if target == "host":
                host.kill()
                host.wait()
                host = _host(root, port, "--resume")
            else:
                players[target].kill()
                players[target].wait()
                players[target] = _join(root, target, port)  # run again: takes its seat back
            kills["host" if target == "host" else "player"] += 1
            next_kill, mark = time.monotonic() + rng.uniform(0.8, 2.5), progress()
        ended_ok &= host.wait(timeout=max(1.0, deadline - time.monotonic())) == 0
        for name, proc in players.items():
            # 0: it saw the end; 2: a run started as the host was ending could not reach it
            # (documented: "cannot reach"; the run before it saw the end or wrote its record).
            code = proc.wait(timeout=60)
            last = ((root / f"{name}.out").read_text().strip().splitlines() or [""])[-1]
            late = code == 2 and "cannot reach" in last
            ended_ok &= code == 0 or late
    finally:
        for proc in (host, *players.values()):
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    files = sorted(records.glob("*.json")) + sorted(root.glob("*/wizard-tui/joined/*.json"))
    verdicts = [verify_path(path) for path in files]
    verified = sum(v.ok for v in verdicts)
    complete = sum(v.ok and v.record is not None and v.record.complete for v in verdicts)
    for path, verdict in zip(files, verdicts, strict=True):
        if not verdict.ok:
            print(f"  {path.name}: {verdict.line()}")
    return kills, len(files), verified, complete, ended_ok


def private_games(games: int, rng: random.Random) -> bool:
    """``games`` private games with kills; prints one line each and the sums."""
    if games <= 0:
        return True
    kills: Counter[str] = Counter()
    written = verified = complete = failed = 0
    start = time.monotonic()
    for game in range(games):
        tmp = Path(tempfile.mkdtemp(prefix="crash-private-"))
        try:
            k, w, v, c, ok = private_game(tmp, rng)
        except Exception as exc:  # a game that could not even run counts as failed
            print(f"private game {game + 1}: FAILED ({exc!r}); its files: {tmp}")
            failed += 1
            continue
        if ok and v == w == c:
            shutil.rmtree(tmp, ignore_errors=True)
        else:
            print(f"  its files: {tmp}")
        kills += k
        written, verified, complete = written + w, verified + v, complete + c
        failed += not ok or v != w or c != w
        print(
            f"private game {game + 1}: {'ok' if ok else 'FAILED'}, kills: host {k['host']}, "
            f"players {k['player']}; records verified {v}/{w}, complete {c}/{w}"
        )
    took = time.monotonic() - start
    print(
        f"private: {games} games in {took:.0f} s, {kills['host']} host kills, "
        f"{kills['player']} player kills; records verified {verified} of {written} written "
        f"(complete: {complete}); {failed} failed"
    )
    return failed == 0


if __name__ == "__main__":
    sys.exit(main())
