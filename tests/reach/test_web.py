"""``wizard-tui host --web``: headless Chromium (Debian's ``chromium``) opens the page in two
tabs, each types a name and plays round 1; the host's record shows two seats with those
names, and a screenshot is not blank. Real processes on 127.0.0.1 only; Chromium may
resolve no other name. .ci/run installs Chromium; where it is missing the test says so."""

from __future__ import annotations

import asyncio
import json
import urllib.request
from pathlib import Path

import pytest

from .cdp import Tab, chromium, chromium_path
from .png import count_near, ink
from .reach_helpers import headless_host, wait_until

pytest.importorskip(
    "textual_serve", reason="the `web` extra is not installed: pip install -e '.[web]'"
)
pytestmark = pytest.mark.skipif(
    chromium_path() is None, reason="needs Debian's chromium (apt-get install chromium)"
)


FOCUS_BLUE = (1, 120, 212)  # Textual's focused Input border


def web_url(lines: list[str]) -> str:
    return next(line for line in lines if "browser:" in line).split("browser:", 1)[1].split()[0]


def records(data_home: Path) -> list[dict[str, object]]:
    folder = data_home / "wizard-tui" / "records"
    found = []
    for path in sorted(folder.glob("*.json")) if folder.exists() else []:
        try:
            found.append(json.loads(path.read_text()))
        except (OSError, ValueError):
            continue  # being written
    return found


def round_one_played(data_home: Path, names: set[str]) -> bool:
    for record in records(data_home):
        players = {p["name"] for p in record["players"]}  # type: ignore[index, union-attr]
        if names <= players and record["rounds"]:
            return True
    return False


async def sit_down(tab: Tab, name: str) -> None:
    # The terminal takes keys once it has focus: click into it first.
    await tab.click(500, 350)
    await asyncio.sleep(0.3)
    await tab.type(name)
    await tab.enter()


def test_two_browser_tabs_are_two_seats_and_play(tmp_path: Path) -> None:
    data = tmp_path / "data"
    with headless_host(data, "--web", "0", until="browser:", players=3, bots=1) as host:
        url = web_url(host.lines)
        assert url.startswith("http://127.0.0.1:")
        page = urllib.request.urlopen(url, timeout=10).read().decode()
        assert "/ws" in page and "googleapis" not in page  # nothing outside the LAN

        async def play() -> bytes:
            async with chromium(tmp_path / "profile") as browser:
                tabs = [await browser.open_tab(url), await browser.open_tab(url)]
                # Wait until each tab's table drew its name screen (the name field's focus
                # frame, Textual's blue): keys sent before it is up would be lost.
                for tab in tabs:
                    for _ in range(300):
                        if count_near(await tab.screenshot(scale=0.5), FOCUS_BLUE) > 100:
                            break
                        await asyncio.sleep(0.2)
                await sit_down(tabs[0], "Webby")
                await sit_down(tabs[1], "Tabby")
                # Bid and play round 1's one card: Enter on each tab until the host's
                # record has the round (Enter does nothing while it is not a tab's turn).
                for _ in range(120):
                    if round_one_played(data, {"Webby@web", "Tabby@web"}):
                        break
                    for tab in tabs:
                        await tab.enter()
                    await asyncio.sleep(0.5)
                return await tabs[0].screenshot()

        shot = asyncio.run(play())
        (tmp_path / "tab.png").write_bytes(shot)
        wait_until(lambda: round_one_played(data, {"Webby@web", "Tabby@web"}), "round 1 was played")
        share, colours = ink(shot)
        assert share > 0.02 and colours > 8, (share, colours)
