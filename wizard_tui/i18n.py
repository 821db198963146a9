"""Translations: every sentence a player reads goes through here (stdlib ``gettext``).

The catalogs are ``wizard_tui/locale/<lang>/LC_MESSAGES/wizard_tui.mo``, compiled from the
``.po`` files beside them and shipped in the wheel; English is the source language (the
``msgid``), so English needs no catalog. One language per process: each player runs their own
client (an SSH or browser seat is its own process too), so each table speaks its own player's
language. Nothing on the wire, in records or in reason codes is translated: only what is shown.

``_`` and the others look the catalog up at call time, so text marked at import time (Textual
``BINDINGS``, tables of help lines) is marked with ``N_`` and translated where it is drawn.
"""

from __future__ import annotations

import gettext
import os
from collections.abc import Mapping, Sequence
from pathlib import Path

DOMAIN = "wizard_tui"
SOURCE_LANGUAGE = "en"
# The languages with a catalog, English (the source) first.
LANGUAGES: tuple[str, ...] = ("en", "es", "it", "cs", "de")
# Where a language comes from when no --lang or setting names one, in gettext's own order.
ENVIRONMENT = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")

_translation: gettext.NullTranslations = gettext.NullTranslations()
_language = SOURCE_LANGUAGE


def locale_dir() -> Path:
    return Path(__file__).with_name("locale")


def normalize(code: str) -> str | None:
    """``cs_CZ.UTF-8`` -> ``cs``, ``de-AT`` -> ``de``; None for a language without a catalog
    (and for ``C``/``POSIX``, which mean "no particular language")."""
    base = code.split(".", 1)[0].split("@", 1)[0].replace("-", "_").strip().lower()
    short = base.split("_", 1)[0]
    return short if short in LANGUAGES else None


def choose(lang: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """The language to speak: ``lang`` (from ``--lang`` or the settings file) if it has a
    catalog, else the first of ``LANGUAGE`` (a colon-separated list), ``LC_ALL``,
    ``LC_MESSAGES``, ``LANG`` that is set, else English."""
    if lang:
        return normalize(lang) or SOURCE_LANGUAGE
    env = os.environ if environ is None else environ
    for variable in ENVIRONMENT:
        value = env.get(variable, "")
        if not value:
            continue
        if variable == "LANGUAGE":
            found = [normalize(part) for part in value.split(":") if part]
            if any(found):
                return next(code for code in found if code)
            continue  # an unknown LANGUAGE list falls through to LC_ALL, as in GNU gettext
        return normalize(value) or SOURCE_LANGUAGE
    return SOURCE_LANGUAGE


def setup(lang: str | None = None, environ: Mapping[str, str] | None = None) -> str:
    """Speak ``choose(lang, environ)`` from now on; returns the language code."""
    global _translation, _language
    code = choose(lang, environ)
    _translation = translation_for(code)
    _language = code
    return code


def translation_for(code: str) -> gettext.NullTranslations:
    if code == SOURCE_LANGUAGE:
        return gettext.NullTranslations()
    return gettext.translation(DOMAIN, locale_dir(), languages=[code], fallback=True)


def language() -> str:
    """The language being spoken (a code of ``LANGUAGES``)."""
    return _language


def _(message: str) -> str:
    return _translation.gettext(message)


def N_(message: str) -> str:
    """Marks ``message`` for the catalog without translating it (translated where shown)."""
    return message


def ngettext(singular: str, plural: str, n: int) -> str:
    return _translation.ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    return _translation.pgettext(context, message)


def join_names(names: Sequence[str]) -> str:
    """``A``, ``A and B``, ``A, B and C`` in the language being spoken."""
    if not names:
        return ""
    if len(names) == 1:
        return names[0]
    # TRANSLATORS: joins a list of names: "{rest}" is "Ann, Bob", "{last}" is "Cy".
    return _("{rest} and {last}").format(rest=", ".join(names[:-1]), last=names[-1])
