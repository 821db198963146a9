"""``--specials`` of ``wizard-tui host`` and ``play``: what it refuses in words (the private
deal with a card it cannot deal yet; a Dragon without its Fairy; a name no card has), what it
chooses (commit-reveal when no deal is named, but private for the cards that move none), and
a headless host with all nine cards and a ``join --bot`` process: both exit 0 and both
records verify (several joiners in one process: test_special_games.py)."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

import pytest
from test_net_games import _machine, _output_line

from wizard_tui.cli import main
from wizard_tui.commands import options
from wizard_tui.game.specials import SPECIALS, Special
from wizard_tui.verify import verify_path


@pytest.mark.parametrize("command", ["host", "play"])
def test_the_private_deal_with_special_cards_is_refused_in_words(
    command: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # (All nine are dealt privately now; the forehead round with them is not yet.)
    argv = [command, "--specials", "dragon,fairy", "--forehead", "--deal", "private"]
    if command == "host":
        argv.append("--headless")
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "the private deal cannot deal the special cards yet" in err
    assert "--deal commit-reveal" in err


def test_a_dragon_without_its_fairy_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["host", "--headless", "--specials", "dragon"]) == 2
    assert "the Dragon and the Fairy" in capsys.readouterr().err


def test_a_name_no_card_has_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["play", "--specials", "juggler,wizard"])
    assert exit_.value.code == 2
    assert "not a special card: 'wizard'" in capsys.readouterr().err


def test_special_cards_choose_the_private_deal() -> None:
    parser = argparse.ArgumentParser()
    options.add_rules(parser)
    options.add_deal(parser)
    args = parser.parse_args(["--specials", "all"])
    assert args.specials == frozenset(SPECIALS)
    assert options.chosen_deal(args) == "private"  # (all nine are dealt privately)
    rules = options.house_rules(args, options.restrict_mode(args))
    assert rules.specials == frozenset(SPECIALS)
    args = parser.parse_args(["--specials", "fairy,dragon,bmb"])
    assert args.specials == {Special.DRAGON, Special.FAIRY, Special.BOMB}
    assert options.chosen_deal(parser.parse_args([])) == "private"  # (no special card)


def test_special_cards_that_move_no_card_are_dealt_privately() -> None:
    """The private deal deals the Dragon, Fairy, Bomb, Cloud, Shapeshifter and Vampire (no
    card changes hands), the Werewolf and the Witch: chosen when no deal is named, and taken
    when named; with the forehead round, commit-reveal."""
    parser = argparse.ArgumentParser()
    options.add_rules(parser)
    options.add_deal(parser)
    still = ["--specials", "dragon,fairy,bomb,cloud,shapeshifter,vampire"]
    assert options.chosen_deal(parser.parse_args(still)) == "private"
    assert options.chosen_deal(parser.parse_args([*still, "--deal", "private"])) == "private"
    assert options.chosen_deal(parser.parse_args([*still, "--forehead"])) == "commit-reveal"
    args = parser.parse_args(["--specials", "cloud,juggler"])
    assert options.chosen_deal(args) == "private"
    # The Werewolf and the Witch too are dealt privately (a show, the cards taken face up).
    assert options.chosen_deal(parser.parse_args(["--specials", "cloud,werewolf"])) == "private"
    assert options.chosen_deal(parser.parse_args(["--specials", "cloud,witch"])) == "private"


async def test_a_headless_host_and_a_join_bot_play_all_nine(tmp_path: Path) -> None:
    cli = [sys.executable, "-m", "wizard_tui"]
    records = tmp_path / "records"
    procs: list[asyncio.subprocess.Process] = []
    try:
        async with asyncio.timeout(60):
            host = await asyncio.create_subprocess_exec(
                *cli,
                *("host", "--headless", "--bind", "127.0.0.1", "--port", "0"),
                *("--players", "3", "--bots", "2"),
                *("--specials", "all", "--length", "short", "--bot-level", "easy"),
                *("--records", str(records)),
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                env=_machine(tmp_path / "host"),
            )
            procs.append(host)
            assert host.stdout is not None
            port = int((await _output_line(host.stdout, r"listening on 127\.0\.0\.1:(\d+)"))[1])
            for i in range(1):  # (one is enough here: several in test_special_games.py)
                procs.append(
                    await asyncio.create_subprocess_exec(
                        *cli,
                        *("join", f"127.0.0.1:{port}", "--bot", "easy", "--name", f"p{i}"),
                        stdout=asyncio.subprocess.PIPE,
                        stderr=asyncio.subprocess.PIPE,
                        env=_machine(tmp_path / f"player{i}"),
                    )
                )
            outputs = await asyncio.gather(*(proc.communicate() for proc in procs))
    finally:
        for proc in procs:
            if proc.returncode is None:
                proc.kill()
                await proc.wait()
    for proc, (out, err) in zip(procs, outputs, strict=True):
        assert proc.returncode == 0, (out.decode(), err.decode())
    for out, _err in outputs[1:]:
        text = out.decode()
        assert text.count("deal verified") == 10, text  # short: 10 rounds of 3 players
        assert "VERIFICATION FAILED" not in text
    [record] = sorted(records.glob("*.json"))
    verdict = verify_path(record)
    assert verdict.ok, verdict.line()
    assert verdict.record is not None and verdict.record.rules.specials == frozenset(SPECIALS)
    for i in range(1):
        [own] = (tmp_path / f"player{i}" / "data" / "wizard-tui" / "joined").glob("*.json")
        mine = verify_path(own)
        assert mine.ok, mine.line()
