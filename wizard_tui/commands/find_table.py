"""``wizard-tui join`` without an address: browse the LAN for announced tables and pick one.

One table: offered with a yes/no question. Several: a numbered list. None: how to type an
address. The answer is only a hint (reach/discovery.py): joining then goes through the
usual handshake and known-hosts pin, and a table that has gone away fails to connect.
"""

from __future__ import annotations

import asyncio
import sys

from ..cli import UserError
from ..i18n import N_, _
from ..reach.discovery import DEFAULT_BROWSE_SECONDS, Table, browse

NONE_FOUND = N_(
    "no table was found on the LAN in {seconds:g} s: type the host's address, e.g. "
    "`wizard-tui join 192.168.1.20` (the host's screen shows it)"
)


def _ask(prompt: str) -> str:
    print(prompt, end="", flush=True)
    line = sys.stdin.readline()
    if not line:
        raise UserError(_("no answer: give the host's address, e.g. `wizard-tui join HOST`"))
    return line.strip()


def choose(tables: list[Table], seconds: float) -> Table:
    """The table the player picks from ``tables``."""
    if not tables:
        raise UserError(_(NONE_FOUND).format(seconds=seconds))
    if len(tables) == 1:
        table = tables[0]
        print(_("found {table}").format(table=table.describe()))
        print(
            _("  host fingerprint (as announced, checked when you connect): {fingerprint}").format(
                fingerprint=table.fingerprint
            )
        )
        answer = _ask(_("join it? [Y/n] ")).lower()
        if answer not in ("", "y", "yes", _("y")):
            raise UserError(_("not joined: give an address to join another table"))
        return table
    print(_("found {n} tables:").format(n=len(tables)))
    for i, table in enumerate(tables, 1):
        print(f"  {i}. {table.describe()}  [{table.fingerprint}]")
    answer = _ask(_("which one? [1-{n}] ").format(n=len(tables)))
    if not answer.isdigit() or not 1 <= int(answer) <= len(tables):
        raise UserError(_("not a table number: {answer!r}").format(answer=answer))
    return tables[int(answer) - 1]


def find_table(seconds: float = DEFAULT_BROWSE_SECONDS) -> Table:
    print(_("looking for tables on the LAN ({seconds:g} s)...").format(seconds=seconds), flush=True)
    try:
        tables = asyncio.run(browse(seconds))
    except OSError as exc:
        raise UserError(
            _(
                "cannot look for tables on this network ({exc}): type the host's "
                "address, e.g. `wizard-tui join 192.168.1.20`"
            ).format(exc=exc)
        ) from None
    return choose(tables, seconds)
