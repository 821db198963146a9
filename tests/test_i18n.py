"""The translations: every catalog complete and clean, the plurals right, the shipped .mo
files exactly what the .po files compile to, the language chosen in the documented order,
and nothing translated where the wire or a record would see it."""

from __future__ import annotations

import gettext
import io
import string
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from rich.cells import cell_len

from wizard_tui import i18n
from wizard_tui.cli import build_parser, lang_in

LOCALE = i18n.locale_dir()
TRANSLATED = tuple(code for code in i18n.LANGUAGES if code != i18n.SOURCE_LANGUAGE)


def po_path(code: str) -> Path:
    return LOCALE / code / "LC_MESSAGES" / f"{i18n.DOMAIN}.po"


def catalog(code: str) -> Catalog:
    with po_path(code).open("rb") as f:
        return read_po(f, locale=code)


def messages(cat: Catalog) -> Iterator[Message]:
    return (m for m in cat if m.id)


def forms(message: Message) -> tuple[str, ...]:
    texts = message.string if isinstance(message.string, tuple | list) else (message.string,)
    return tuple(text or "" for text in texts)


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    i18n.setup("en")


def test_every_language_has_a_catalog_with_the_template_s_messages() -> None:
    with (LOCALE / f"{i18n.DOMAIN}.pot").open("rb") as f:
        template = {(m.id if isinstance(m.id, str) else m.id[0], m.context) for m in read_po(f)}
    template.discard(("", None))
    assert len(template) > 300  # the UI's and the CLI's strings, not a stub
    for code in TRANSLATED:
        ids = {
            (m.id if isinstance(m.id, str) else m.id[0], m.context) for m in messages(catalog(code))
        }
        assert ids == template, (code, sorted(template ^ ids)[:5])


@pytest.mark.parametrize("code", TRANSLATED)
def test_catalog_complete_no_fuzzy_and_nfc(code: str) -> None:
    cat = catalog(code)
    assert not cat.fuzzy
    for m in messages(cat):
        assert not m.fuzzy, (code, m.id)
        texts = forms(m)
        assert texts and all(texts), (code, "untranslated", m.id)
        for text in texts:
            assert unicodedata.is_normalized("NFC", text), (code, m.id)


def _fields(text: str) -> set[str]:
    """The ``{name}`` fields and argparse's ``%(name)s`` / ``%s`` of a message."""
    out = {
        f"{{{name}:{spec}!{conv}}}"
        for _, name, spec, conv in string.Formatter().parse(text)
        if name is not None
    }
    for marker in ("%s", "%r"):
        if marker in text.replace("%%", ""):
            out.add(marker)
    out |= {part.split(")")[0] for part in text.split("%(")[1:]}
    return out


@pytest.mark.parametrize("code", TRANSLATED)
def test_translations_keep_the_fields_and_the_edges(code: str) -> None:
    for m in messages(catalog(code)):
        source = m.id if isinstance(m.id, str) else m.id[1]
        for text in forms(m):
            assert _fields(text) == _fields(source), (code, m.id, text)
            # Lines that others line up (CLI columns) and argparse's "usage: " keep their edges.
            assert text.startswith(" ") == source.startswith(" "), (code, m.id)
            assert text.endswith((" ", "\n")) == source.endswith((" ", "\n")), (code, m.id)


@pytest.mark.parametrize("code", TRANSLATED)
def test_shipped_mo_is_what_the_po_compiles_to(code: str) -> None:
    compiled = io.BytesIO()
    write_mo(compiled, catalog(code))
    shipped = (LOCALE / code / "LC_MESSAGES" / f"{i18n.DOMAIN}.mo").read_bytes()
    assert shipped == compiled.getvalue(), f"run `make i18n`: {code}'s .mo is stale"


# Each language's words for 0, 1, 2, 5, 21 tricks, as a reader of that language says them.
TRICKS = {
    "en": ("tricks", "trick", "tricks", "tricks", "tricks"),
    "es": ("bazas", "baza", "bazas", "bazas", "bazas"),
    "it": ("prese", "presa", "prese", "prese", "prese"),
    "de": ("Stiche", "Stich", "Stiche", "Stiche", "Stiche"),
    # Czech: 1 štych, 2-4 štychy, 0 and 5+ štychů; 21 is "21 štychů" (as GNU gettext's rule).
    "cs": ("štychů", "štych", "štychy", "štychů", "štychů"),
}
POINTS = {
    "en": ("points", "point", "points", "points", "points"),
    "es": ("puntos", "punto", "puntos", "puntos", "puntos"),
    "it": ("punti", "punto", "punti", "punti", "punti"),
    "de": ("Punkten", "Punkt", "Punkten", "Punkten", "Punkten"),
    "cs": ("body", "bodem", "body", "body", "body"),
}


@pytest.mark.parametrize("code", i18n.LANGUAGES)
def test_plural_forms_for_0_1_2_5_21(code: str) -> None:
    from wizard_tui.ui.narrate import bids_line

    i18n.setup(code)
    for n, word in zip((0, 1, 2, 5, 21), TRICKS[code], strict=True):
        text = bids_line([1, None, None], n, ["Ann", "Bob", "Cy"])[0][0]
        assert f"{n} {word})" in text, (code, n, text)
    for n, word in zip((0, 1, 2, 5, 21), POINTS[code], strict=True):
        said = i18n.ngettext(
            "Game over: {who} wins with {n} point.", "Game over: {who} wins with {n} points.", n
        ).format(who="Ann", n=n)
        assert f"{n} {word}" in said, (code, n, said)


def test_plural_header_is_gnu_s_not_cldr_s_millions_form() -> None:
    """Babel writes CLDR's three forms for es and it (the second is for millions); the
    catalogs say GNU's two, so "2 bazas" is never the millions form."""
    for code in ("es", "it", "de"):
        assert catalog(code).plural_forms == "nplurals=2; plural=(n != 1);", code
    assert catalog("cs").num_plurals == 3


def test_language_order_lang_then_setting_then_environment() -> None:
    env = {"LANG": "de_DE.UTF-8", "LC_MESSAGES": "it_IT.UTF-8"}
    assert i18n.choose("cs", env) == "cs"  # --lang (or the settings file) first
    assert i18n.choose(None, env) == "it"  # LC_MESSAGES before LANG
    assert i18n.choose(None, {"LANG": "cs_CZ.UTF-8"}) == "cs"
    assert i18n.choose(None, {"LANGUAGE": "fr:es", "LANG": "de_DE"}) == "es"
    assert i18n.choose(None, {"LANGUAGE": "fr", "LANG": "de_DE"}) == "de"
    assert i18n.choose(None, {"LC_ALL": "es_ES", "LANG": "de_DE"}) == "es"
    assert i18n.choose(None, {"LANG": "C.UTF-8"}) == "en"
    assert i18n.choose(None, {"LANG": "fr_FR.UTF-8"}) == "en"  # no catalog: English
    assert i18n.choose(None, {}) == "en"
    assert i18n.choose("pt_BR", env) == "en"


def test_lang_option_is_read_before_the_parser_and_wins() -> None:
    assert lang_in(["play", "--lang", "de"]) == "de"
    assert lang_in(["--lang=it", "play"]) == "it"
    assert lang_in(["join", "--", "--lang", "de"]) is None
    assert build_parser().parse_args(["play", "--lang", "cs"]).language == "cs"


def test_help_and_argparse_words_in_the_language(capsys: pytest.CaptureFixture[str]) -> None:
    from wizard_tui.argparse_i18n import install
    from wizard_tui.cli import main

    with pytest.raises(SystemExit):
        main(["--lang", "de", "play", "--help"])
    out = capsys.readouterr().out
    assert out.startswith("Aufruf: wizard-tui play")
    assert "Optionen:" in out and "diese Hilfe zeigen und beenden" in out
    assert "ein Spiel allein gegen Bots in deinem Terminal" in out
    i18n.setup("en")
    install()
    with pytest.raises(SystemExit):
        main(["--lang", "en", "play", "--help"])
    assert capsys.readouterr().out.startswith("usage: wizard-tui play")


def test_cli_errors_in_the_language(capsys: pytest.CaptureFixture[str]) -> None:
    from wizard_tui.cli import main

    assert main(["--lang", "cs", "play", "--players", "9"]) == 2
    assert "stůl má 3 až 6 míst" in capsys.readouterr().err


def test_catalog_loads_through_the_stdlib_alone() -> None:
    """At run time only gettext reads the .mo files (Babel is a development tool)."""
    for code in TRANSLATED:
        t = gettext.translation(i18n.DOMAIN, LOCALE, languages=[code])
        assert t.pgettext("card", "W") != "W" or code == "en"


# Words drawn in a fixed room: (context, msgid) -> the cells they may take.
ROOM = {
    (None, "Tricks"): 6,
    (None, "Score"): 6,
    (None, "Bid"): 3,
    (None, "Won"): 3,
    (None, "Pts"): 4,
    (None, "Total"): 5,
    (None, "bid/won"): 7,
    (None, "pts"): 4,
    (None, "Rnd"): 3,
    (None, "total"): 6,
    # Beside the turned-up card (trumpcard.py: 13 cells).
    (None, "Trump"): 13,
    (None, "none: all"): 13,
    (None, "cards dealt"): 13,
    (None, "none"): 13,
    (None, "(a Jester)"): 13,
    (None, "the dealer"): 13,
    (None, "names it"): 13,
    (None, "dealer's pick"): 13,
    (None, "the Werewolf"): 13,
    (None, "took"): 9,  # "took DRG": the word, a space, a card of three cells
    # The special cards' help lines (ui/specials.py EFFECTS: 44 characters at most).
    (None, "takes the trick over all, but a Fairy beats it"): 44,
    (None, "lowest card; takes a trick with a Dragon in it"): 44,
    (None, "nobody takes its trick"): 44,
    (None, "its holder takes the trump card, names trump"): 44,
    (None, "a named suit's 7.5; then all pass a card left"): 44,
    (None, "a named suit's 9.75; its taker's bid goes 1 up/down"): 44,
    (None, "played as a Wizard or a Jester, as declared"): 44,
    (None, "may swap a hand card for one of its trick"): 44,
    (None, "a copy of the card turned up at the deal"): 44,
    # The round summary's outcome column (9 cells).
    (None, "made it"): 9,
    (None, "{n} over"): 9,
    (None, "{n} under"): 9,
    # The seat panel's need column (seats.py: up to 10 cells, a space included).
    (None, "need {n}"): 9,
    (None, "on bid"): 9,
    (None, "over {n}"): 9,
    ("card", "W"): 1,
    ("card", "J"): 1,
}


@pytest.mark.parametrize("code", TRANSLATED)
def test_words_fit_their_columns(code: str) -> None:
    found = {(m.context, m.id): m.string for m in messages(catalog(code))}
    for key, room in ROOM.items():
        text = str(found[key]).replace("{n}", "9" if key[1].startswith(("need", "over")) else "10")
        assert cell_len(text) <= room, (code, key, text)


def test_the_mo_files_are_package_data() -> None:
    """The wheel ships every compiled catalog (pyproject's package-data patterns match them)."""
    import tomllib

    root = LOCALE.parent
    config = tomllib.loads((root.parent / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["wizard_tui"]
    for code in TRANSLATED:
        mo = (LOCALE / code / "LC_MESSAGES" / f"{i18n.DOMAIN}.mo").relative_to(root)
        assert any(mo.match(pattern) for pattern in patterns), mo
