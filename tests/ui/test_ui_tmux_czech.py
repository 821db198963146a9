"""``LANG=cs_CZ.UTF-8 wizard-tui play`` in tmux at 80x24: a whole game in Czech, by keys.

The language comes from the environment alone (no ``--lang``, no settings file), as for a
player whose SSH client forwards ``LANG``. The player answers the Czech prompts (read from
the catalog, so a prompt left in English fails the game), and every screen it looks at
must be free of the English words it would have shown. Its own tmux server (``-L``).
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import pytest

from wizard_tui import i18n

from .test_ui_tmux_play import (
    GAME_TIMEOUT,
    Terminal,
    command,
    quit_with_status_0,
    ranked,
    refused,
    unused_port,
    user_env,
    verify,
    wait_for,
)

pytestmark = pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed")

# English that a Czech table never shows (the key bar, the prompts, the panels, the log).
ENGLISH = ("Your turn", "Waiting for", "Trick ", "Round ", "Score pad", "Help", "Quit", "Player")


class CzechPlayer:
    """Answers the Czech prompts on one terminal, one look at the screen per ``step``."""

    def __init__(self, term: Terminal) -> None:
        self.term = term
        self.last = ""
        self.unchanged = 0
        self.sent = 0
        self.english: list[str] = []  # screens that showed English
        self.refusals: list[str] = []  # screens that showed a refusal from the host
        _ = i18n.translation_for("cs").gettext
        self.game_over = _("Game over.")
        self.refused = _("Refused: {reason}").split("{")[0]
        self.rematch = _("Rematch")
        self.your_turn = _("Your turn: bid").split(":")[0]  # "Jsi na tahu"
        self.goes_on = _("Round scored: Enter goes on").split(": ", 1)[1]
        self.choose_trump = _("Choose trump {dot} round {round}").split(" {")[0]
        self.bid = _("Your turn: bid").split(": ", 1)[1]
        self.play = _("Your turn: play a card ({arrows} choose, Enter plays)").split(" (")[0]
        self.play = self.play.split(": ", 1)[1]

    def step(self) -> bool:
        screen = self.term.screen()
        self.english += [word for word in ENGLISH if word in screen]
        if self.game_over in screen and self.rematch in screen:
            self.last = screen
            return True
        self.unchanged = self.unchanged + 1 if screen == self.last else 0
        self.last = screen
        prompt = next((line for line in screen.splitlines() if self.your_turn in line), "")
        if self.goes_on in screen and self.unchanged == 0:
            self.send("Enter")
        elif self.choose_trump in screen and self.unchanged == 0:
            self.send("h")
        elif self.bid in prompt and self.unchanged == 0:
            self.send("Enter")
        elif self.play in prompt:
            if self.unchanged == 0:
                self.send("Enter")
            elif self.unchanged % 4 == 0:
                self.send("Right", "Enter")
        elif refused(screen, self.refused):
            # None is right (test_ui_tmux_play.Player.saw_refusal): each is kept; a move
            # clears it, so that the game goes on to its other checks.
            if self.unchanged == 0:
                self.refusals.append(screen)
            elif self.unchanged % 4 == 3:
                self.send("Right")
        return False

    def send(self, *keys: str) -> None:
        self.term.keys(*keys)
        self.sent += len(keys)


def test_a_whole_game_in_czech_from_lang(tmp_path: Path) -> None:
    env = user_env(tmp_path)
    # LANG alone says Czech: the variables read before it are empty here.
    env.update({"LANG": "cs_CZ.UTF-8", "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": ""})
    # Six players: ten rounds, 55 cards and 10 bids of ours.
    args = "play --players 6 --bot-level random --bot-delay 0 --name Žofie"
    term = Terminal(command(args), env)
    try:
        player = CzechPlayer(term)
        end = time.monotonic() + GAME_TIMEOUT
        while not player.step():
            assert time.monotonic() < end, "the game did not end in time:\n" + player.last
            time.sleep(0.05)
        assert player.sent >= 65
        assert player.english == [], player.english
        assert player.refusals == [], player.refusals
        final = player.last
        places = ranked(final)
        assert len(places) == 6, final
        assert any("Žofie (ty)" in line for line in places), final
        assert "vítěz" in places[0]  # "winner"
        assert "Konec hry." in final and "Odveta" in final
        quit_with_status_0(term)
    finally:
        term.close()
    records = list((tmp_path / "data").rglob("records/*.json"))
    assert len(records) == 1
    verify(records[0])  # the record is the same whatever the language shown
    assert "Žofie" in records[0].read_text(encoding="utf-8")


def test_each_player_s_table_speaks_its_own_language(tmp_path: Path) -> None:
    """One game: the host's table in German (``--lang de``), a guest's in Czech (``LANG``);
    each reads its own language, and both show the same names and the same round."""
    free_port = unused_port()
    host_env = user_env(tmp_path / "host")
    host_args = (
        f"host --bind 127.0.0.1 --port {free_port} --players 3 --bots 1 --bot-delay 0.2 "
        "--name Jürgen --lang de"
    )
    host = Terminal(command(host_args), host_env)
    guest = None
    try:
        wait_for(host, "Wizard-Lobby")
        guest_env = user_env(tmp_path / "guest")
        guest_env.update({"LANG": "cs_CZ.UTF-8", "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": ""})
        guest = Terminal(command(f"join 127.0.0.1:{free_port} --name Žofie"), guest_env)
        wait_for(guest, "Čekám, až hostitel spustí hru.")  # the Czech lobby
        wait_for(host, "3 von 3 besetzt")
        host.keys("Enter")  # start the game
        german = wait_for(host, "Runde 1 von 20")
        czech = wait_for(guest, "Kolo 1 z 20")
        for screen in (german, czech):
            assert "Jürgen" in screen and "Žofie" in screen
            assert not any(word in screen for word in ENGLISH), screen
        assert "Spieler" in german and "Hráč" not in german
        assert "Hráč" in czech and "Spieler" not in czech
    finally:
        host.close()
        if guest is not None:
            guest.close()
