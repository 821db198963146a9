"""Two programs of one account are two players (issue 12 item 6), and a new run clears the
round secrets a killed one left (item 10)."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

from wizard_tui.net.deals.private.round_secrets import STALE_SECONDS, SecretStore
from wizard_tui.net.keys import PLAYERS_DIR, claim_player_dir, load_identity, load_signing_key

CLAIM = "import sys; from pathlib import Path; from wizard_tui.net.keys import claim_player_dir; "


def _claim_in_child(data: Path, then: str = "") -> subprocess.Popen[str]:
    code = CLAIM + f"print(claim_player_dir(Path({str(data)!r})), flush=True); {then}"
    return subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)


def test_each_running_program_has_a_player_identity_of_its_own(tmp_path: Path) -> None:
    mine = claim_player_dir(tmp_path)
    assert mine == tmp_path / PLAYERS_DIR / "1"
    # Another program of the account, while this one runs: the next slot, other keys.
    child = _claim_in_child(tmp_path, "__import__('time').sleep(30)")
    try:
        assert child.stdout is not None
        theirs = Path(child.stdout.readline().strip())
        assert theirs == tmp_path / PLAYERS_DIR / "2"
        assert load_identity(mine).public_key != load_identity(theirs).public_key
        assert load_signing_key(mine).public_key != load_signing_key(theirs).public_key
    finally:
        child.kill()  # a SIGKILL frees its slot
        child.wait()
    # Its next run gets the same slot back, and with it the same keys (its seat by its key).
    again = _claim_in_child(tmp_path)
    out, _ = again.communicate(timeout=30)
    assert Path(out.strip()) == theirs


def test_a_new_run_clears_the_round_secrets_a_killed_one_left(tmp_path: Path) -> None:
    game = bytes(16)
    store = SecretStore(tmp_path / "secrets", exclusive=True)
    for r in (1, 2, 3):
        store.save(game, r, 0, bytes([r]) * 32)
    store.save(bytes([9]) * 16, 5, 1, bytes(32))  # another game's, long over
    assert store.prune((game, 3, 0)) == 3
    assert [p.name for p in store.directory.iterdir()] == [store.path(game, 3, 0).name]
    assert store.load(game, 3, 0) == bytes([3]) * 32  # the attempt it carries on

    # A folder other programs may share: only secrets older than a day go.
    shared = SecretStore(tmp_path / "shared")
    shared.save(game, 1, 0, bytes(32))
    shared.save(game, 2, 0, bytes(32))
    old = time.time() - STALE_SECONDS - 60
    os.utime(shared.path(game, 1, 0), (old, old))
    assert shared.prune() == 1
    assert [p.name for p in shared.directory.iterdir()] == [shared.path(game, 2, 0).name]


def test_a_bad_record_part_from_the_host_is_dropped() -> None:
    """Bad input never crashes the player's program: a malformed part is not recorded."""
    from wizard_tui.game import GameConfig
    from wizard_tui.net.own_record import OwnRecord
    from wizard_tui.net.record_share import part_messages
    from wizard_tui.record import GameRecorder, PlayerEntry

    players = [PlayerEntry(f"p{i}", "human") for i in range(3)]
    recorder = GameRecorder(bytes(16), players, GameConfig(3, 0))
    sent: list[dict] = []
    own = OwnRecord(recorder, 0, None, send=sent.append, on_error=lambda text: None)
    for bad in (
        {"round": 1},
        {"round": 1, "chunks": ["text"]},
        {"round": 1, "chunks": [b"{not json"]},
        {"round": 1, "chunks": [b"[" * 100_000 + b"]" * 100_000]},
        *part_messages({"round": 1, "redeals": "none", "played": None}),
        *part_messages({"round": 2, "redeals": [], "played": {"round": 7}}),
    ):
        own.on_part(bad)
    assert recorder.rounds == [] and sent == []
