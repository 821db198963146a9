"""``wizard-tui verify FILE...``: re-check game records and print one line per file."""

from __future__ import annotations

import argparse
import os
import sys

from ..i18n import _
from ..verify import expand_paths, verify_path


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        help=_("game records (.json); a directory stands for the .json files in it"),
    )


def run(args: argparse.Namespace) -> int:
    """Exit status 0 when every record verifies, 1 when any fails."""
    paths = expand_paths(args.files)
    if not paths:
        print(_("FAIL: no record files found in {files}").format(files=", ".join(args.files)))
        return 1
    failed = 0
    try:
        for path in paths:
            verdict = verify_path(path)
            print(verdict.shown(), flush=True)
            failed += not verdict.ok
    except BrokenPipeError:
        # The reader (``| head``) left: stop quietly, and keep Python's exit flush quiet too.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    return 1 if failed else 0
