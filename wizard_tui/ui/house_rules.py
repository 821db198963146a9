"""The house rules in force (docs/rules.md, "House rules") in words, for the lobby (every
player's, from the ``LobbyUpdate``) and the table (from ``SeatView.rules``).

Only words: what a length deals is ``length_rounds``'s and ``TableRules.round_sizes``'s.
"""

from __future__ import annotations

from ..game import Length, TableRules, length_name, length_rounds, length_text, rounds_for
from ..game.table_rules import LIST_LENGTH
from ..i18n import N_, _, ngettext
from .glyphs import clean

LENGTH_WORDS = {
    Length.FULL.value: N_("Full game"),
    Length.SHORT.value: N_("Short game"),
    Length.UP_AND_DOWN.value: N_("Up and down"),
}
# The lengths the lobby's n key steps through (a list of rounds is typed, with e).
NAMED_LENGTHS = tuple(LENGTH_WORDS)
# The last-bid rule (a RestrictLastBid value): its name, and what it means.
RULE_WORDS = {
    "always": (N_("always"), N_("bids may not add up")),
    "after-round-1": (N_("after round 1"), N_("from round 2")),
}


def last_bid_words(rule: str, hidden_bids: bool) -> str:
    """The restricted last bid in words; with hidden bids it does not apply (docs/rules.md)."""
    if hidden_bids:
        return _("does not apply (hidden bids)")
    if rule == "never":
        return _("no")
    if rule not in RULE_WORDS:
        return clean(rule, 24)
    name, meaning = RULE_WORDS[rule]
    return f"{_(name)} ({_(meaning)})"


def rounds_of(length: str, players: int) -> int | None:
    """How many rounds ``length`` deals to ``players``; None if it cannot be dealt."""
    try:
        rounds = length_rounds(length, players)
    except ValueError:  # RulesError, or a table size that is no table's
        return None
    return len(TableRules(rounds=rounds).round_sizes(players))


def length_problem(length: str, players: int) -> str | None:
    """Why ``players`` cannot play ``length`` (``length_rounds`` decides), in words; None
    if they can."""
    if rounds_of(length, players) is not None:
        return None
    shown = clean(length.strip(), 40)
    parts = [part.strip() for part in length.split(",")]
    if not all(part.isdecimal() for part in parts):
        return _(
            "{length} is not a length: type full, short, up-and-down, or the cards "
            "of each round, such as 1,2,4,11"
        ).format(length=f"'{shown}'")
    # The full game's number of rounds is also the most cards a round can deal each.
    return _("{players} players are dealt 1 to {most} cards a round, so not {length}").format(
        players=players, most=rounds_for(players), length=shown
    )


def length_words(length: str, rounds: int | None) -> str:
    """``Short game (8 rounds)``; a chosen list as ``Rounds of 1,2,4 cards (3 rounds)``."""
    known = LENGTH_WORDS.get(length.strip().lower())
    if known is not None:
        said = _(known)
    else:
        said = _("Rounds of {cards} cards").format(cards=clean(length.replace(" ", ""), 64))
    if rounds is None:
        return said
    count = ngettext("{n} round", "{n} rounds", rounds).format(n=rounds)
    return f"{said} ({count})"


def flag_words(hidden_bids: bool, forehead: bool) -> list[str]:
    """The house rules that are on or off, one phrase each of those on."""
    said = []
    if hidden_bids:
        said.append(_("Hidden bids"))
    if forehead:
        said.append(_("Forehead round"))
    return said


def specials_phrase(rules: TableRules) -> list[str]:
    """``Special cards DRG FRY BMB`` (their short names, in card order), if any are in."""
    if not rules.specials:
        return []
    cards = " ".join(card.short_name for card in sorted(rules.specials))
    return [_("Special cards {cards}").format(cards=cards)]


def table_option_words(rules: TableRules, players: int) -> list[str]:
    """The options of a game in progress, from its view's ``rules``."""
    name = length_name(rules, players)
    length = length_text(rules, players) if name == LIST_LENGTH else name
    rounds = len(rules.round_sizes(players))
    flags = flag_words(rules.hidden_bids, rules.forehead)
    return [*flags, *specials_phrase(rules), length_words(length, rounds)]


def is_plain(rules: TableRules, players: int) -> bool:
    """No house rule on: the full game of RULES.md."""
    plain_length = length_name(rules, players) == Length.FULL
    return not rules.hidden_bids and not rules.forehead and not rules.specials and plain_length


def table_rules_lines(rules: TableRules, players: int, dot: str) -> list[str]:
    """The options of a game in progress as the help names them, one line each (``House
    rules: ...``, ``Length: ...``, ``Last bid restricted: ...``; short enough for 60
    columns), ``dot`` between the house rules; none for the bare rules."""
    restricted = rules.restrict_last_bid.value != "never"
    if is_plain(rules, players) and not restricted:
        return []
    *flags, length = table_option_words(rules, players)
    last_bid = last_bid_words(rules.restrict_last_bid.value, rules.hidden_bids)
    return [
        _("House rules:") + " " + (f" {dot} ".join(flags) or _("none")),
        _("Length:") + " " + length,
        _("Last bid restricted:") + " " + last_bid,
    ]
