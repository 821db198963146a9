"""argparse's own words (``usage:``, ``options``, its error messages) in the language spoken.

argparse looks its strings up with ``gettext.gettext`` in the default domain, at call time,
through its module globals ``_`` and ``ngettext``: pointing those at ``wizard_tui.i18n``
puts them through our catalog, whose language ``--lang`` chose. The msgids below are
argparse's own (Python 3.11 to 3.13), listed here so that extraction puts them in the
catalogs; an argparse string not listed stays English.
"""

from __future__ import annotations

import argparse

from . import i18n
from .i18n import N_

ARGPARSE_MESSAGES = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("show program's version number and exit"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("the following arguments are required: %s"),
    N_("one of the arguments %s is required"),
    N_("unrecognized arguments: %s"),
    N_("not allowed with argument %s"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("invalid %(type)s value: %(value)r"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
)


def install() -> None:
    """Route argparse's lookups through our catalog (before any parser is built: the
    section titles are looked up when a parser is made)."""
    argparse._ = i18n._  # type: ignore[attr-defined]
    argparse.ngettext = i18n.ngettext  # type: ignore[attr-defined]
