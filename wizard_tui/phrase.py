"""A sentence kept as its English template and its named fields, not as finished text.

What a round check found is shown to the player in the player's language, and written to
the record and the logs in English, byte for byte as before: one ``Phrase`` gives both.
``english()`` is the template filled in without translation (what records and logs keep);
``shown()`` looks the template up in the catalog first (what the table draws). A field may
be a ``Phrase`` itself (rendered the same way) or plain text and numbers (inserted as they
are: a name, a card, or a netplay detail with no catalog entry).

Templates are marked with ``N_`` where they are written, so ``make i18n`` finds them.
"""

from __future__ import annotations

import re
import string
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from .i18n import N_, _, pgettext


@dataclass(frozen=True, slots=True)
class Phrase:
    template: str  # the English msgid, with ``{name}`` fields
    params: tuple[tuple[str, str | int | Phrase | Gloss], ...] = ()
    context: str | None = None  # the msgctxt, for a word marked with ``pgettext``

    def english(self) -> str:
        """The template filled in, untranslated: the text of records and logs."""
        return self.template.format(**{k: _english(v) for k, v in self.params})

    def shown(self) -> str:
        """The template in the language spoken, filled in: the text a player reads."""
        said = _(self.template) if self.context is None else pgettext(self.context, self.template)
        return said.format(**{k: _shown(v) for k, v in self.params})

    def param(self, name: str) -> str | int | Phrase | Gloss | None:
        return next((v for k, v in self.params if k == name), None)

    def __str__(self) -> str:
        return self.english()


@dataclass(frozen=True, slots=True)
class Gloss:
    """A field whose English was made elsewhere (a rule's or netplay's message, with no
    catalog entry): ``english`` as it came for records, ``said`` (ours) for the player."""

    english_text: str
    said: Phrase

    def english(self) -> str:
        return self.english_text

    def shown(self) -> str:
        return self.said.shown()


def phrase(template: str, /, **params: str | int | Phrase | Gloss) -> Phrase:
    """``phrase(N_("seat {seat} led"), seat=2)``."""
    return Phrase(template, tuple(params.items()))


# How every round check's result names its round (a seat's check, ``wizard_tui/net``).
ROUND = N_("round {round}: {detail}")


def in_round(r: int, detail: Phrase) -> Phrase:
    """``round 3: <detail>``."""
    return phrase(ROUND, round=r, detail=detail)


def detail_of(said: Phrase) -> Phrase:
    """The detail of an ``in_round`` phrase (the phrase itself if it names no round)."""
    inner = said.param("detail")
    return inner if said.template == ROUND and isinstance(inner, Phrase) else said


def _english(value: str | int | Phrase | Gloss) -> str | int:
    return value.english() if isinstance(value, Phrase | Gloss) else value


def _shown(value: str | int | Phrase | Gloss) -> str | int:
    return value.shown() if isinstance(value, Phrase | Gloss) else value


def recognise(text: str, templates: Iterable[str]) -> Phrase | None:
    """The phrase of ``templates`` whose English is ``text`` (its fields read back out of
    it), or None. For English text made elsewhere from a template we know (netplay's
    messages: netplay knows nothing of catalogs)."""
    for template in templates:
        found = _pattern(template).fullmatch(text)
        if found is not None:
            said = Phrase(template, tuple(found.groupdict().items()))
            if said.english() == text:
                return said
    return None


@cache
def _pattern(template: str) -> re.Pattern[str]:
    out: list[str] = []
    seen: set[str] = set()
    for literal, name, _spec, _conv in string.Formatter().parse(template):
        out.append(re.escape(literal))
        if name is None:
            continue
        if name in seen:
            out.append(f"(?P={name})")
        else:
            seen.add(name)
            out.append(f"(?P<{name}>.+?)")
    return re.compile("".join(out), re.DOTALL)


__all__ = ["ROUND", "Gloss", "Phrase", "detail_of", "in_round", "phrase", "recognise"]
