"""Command-line options shared by several subcommands."""

from __future__ import annotations

import argparse
import getpass
import sys

from netplay.pake import generate_room_code

from ..bots import LEVELS
from ..cli import UserError
from ..game import Length, RestrictLastBid, RulesError, TableRules, length_rounds
from ..game.specials import SPECIALS, Special, parse_specials
from ..i18n import _
from ..net.deals import FOREHEAD_DEAL, SPECIALS_DEAL, forehead_refusal, specials_refusal
from ..paths import login_name


def add_name(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--name", default=login_name(), help=_("your name at the table (default: your login name)")
    )


def add_rules(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--restrict-last-bid",
        choices=[m.value for m in RestrictLastBid if m is not RestrictLastBid.NEVER],
        default=None,
        help=_(
            "the dealer may not make the bids add up to the round's tricks "
            "(always, or from round 2 on); off by default"
        ),
    )
    add_house_rules(parser)
    add_specials(parser)


def add_specials(parser: argparse.ArgumentParser, help_text: str | None = None) -> None:
    """The special cards (docs/rules.md, "Special cards"), none by default. ``help_text``
    (translated, ``{names}`` for the cards' names) is for a command whose deal differs:
    host's and play's otherwise."""
    names = ", ".join(card.wire_name for card in SPECIALS)
    if help_text is None:
        help_text = _(
            "play with special cards: a comma-separated list of {names}, or all "
            "(the dragon and the fairy only together); with the forehead round they are "
            "dealt by commit-reveal"
        )
    parser.add_argument(
        "--specials",
        type=_specials,
        default=frozenset(),
        metavar="LIST",
        help=help_text.format(names=names),
    )


def _specials(text: str) -> frozenset[Special]:
    try:
        return parse_specials(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def check_specials(args: argparse.Namespace) -> None:
    """Refuse special cards that cannot be played together (the Dragon without the Fairy,
    the Werewolf with the forehead round), before any table opens."""
    try:
        house_rules(args, restrict_mode(args)).check(args.players)
    except RulesError as exc:
        raise UserError(_("--specials: {reason}").format(reason=exc)) from None


def add_house_rules(parser: argparse.ArgumentParser) -> None:
    """The house rules of docs/rules.md, each off (the full game) by default."""
    parser.add_argument(
        "--hidden-bids",
        action="store_true",
        help=_("every player bids at once, sealed; the bids are shown together"),
    )
    parser.add_argument(
        "--forehead",
        action="store_true",
        help=_("in one-card rounds you see the others' cards, not your own"),
    )
    parser.add_argument(
        "--length",
        default=Length.FULL.value,
        metavar="LENGTH",
        help=_(
            "full (the default), short (the first half of the rounds), up-and-down "
            "(1 up to the most cards and back to 1), or a list of cards per round such as 1,2,4"
        ),
    )


def check_length(args: argparse.Namespace) -> None:
    """Refuse a --length that a table of --players cannot deal, before any table opens
    (the host would otherwise fail to start the game)."""
    length = getattr(args, "length", Length.FULL.value)
    try:
        length_rounds(length, args.players)
    except RulesError as exc:
        raise UserError(
            _("--length {length}: {reason}").format(length=length, reason=exc)
        ) from None


def house_rules(args: argparse.Namespace, restrict: RestrictLastBid) -> TableRules:
    """The rules the options name, but for the length's rounds (``length_rounds`` makes
    them once the table's size is known)."""
    return TableRules(
        restrict,
        hidden_bids=bool(getattr(args, "hidden_bids", False)),
        forehead=bool(getattr(args, "forehead", False)),
        specials=frozenset(getattr(args, "specials", None) or ()),
    )


def add_deal(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--deal",
        choices=("private", "commit-reveal"),
        default=None,  # private; commit-reveal with --forehead (``chosen_deal``)
        help=_(
            "how every round is dealt: private (docs/private-deal.md: every "
            "player shuffles and locks the deck, and nobody, the host "
            "included, sees another player's cards; the default) or "
            "commit-reveal (docs/fairness.md: nobody can stack the deck, but "
            "the host's program computes every hand)"
        ),
    )


def chosen_deal(args: argparse.Namespace) -> str:
    """The deal the options name: private by default, commit-reveal for a game with the
    forehead round the private deal cannot deal, or with special cards and the forehead
    round (docs/private-deal.md section 16); a private deal named with those is refused."""
    deal = getattr(args, "deal", None)
    forehead = bool(getattr(args, "forehead", False))
    specials = frozenset(getattr(args, "specials", None) or ())
    if deal is None:
        if specials and specials_refusal("private", specials, forehead=forehead):
            return SPECIALS_DEAL
        return FOREHEAD_DEAL if forehead and forehead_refusal("private") else "private"
    if specials and specials_refusal(deal, specials, forehead=forehead):
        raise UserError(
            _(
                "the {deal} deal cannot deal the special cards into the forehead round yet: "
                "use --deal {other}, or leave out --deal"
            ).format(deal=deal, other=SPECIALS_DEAL)
            if specials_refusal(deal, specials) is None
            else _(
                "the {deal} deal cannot deal the special cards yet: use --deal {other}, or "
                "leave out --deal"
            ).format(deal=deal, other=SPECIALS_DEAL)
        )
    if forehead and forehead_refusal(deal):
        raise UserError(
            _("the {deal} deal cannot deal the forehead round yet: use --deal {other}").format(
                deal=deal, other=FOREHEAD_DEAL
            )
        )
    return deal


def restrict_mode(args: argparse.Namespace) -> RestrictLastBid:
    value = getattr(args, "restrict_last_bid", None)
    return RestrictLastBid(value) if value else RestrictLastBid.NEVER


def add_bot_level(parser: argparse.ArgumentParser, default: str = "normal") -> None:
    parser.add_argument(
        "--bot-level",
        choices=LEVELS,
        default=default,
        help=_("how well bots play (default: {default})").format(default=default),
    )


def add_table_looks(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--ascii", action="store_true", help=_("draw suits as letters (for terminals without ♣♦♥♠)")
    )
    parser.add_argument(
        "--bell", action="store_true", help=_("ring the terminal bell on your turn")
    )
    parser.add_argument(
        "--theme",
        type=_theme,
        default=None,
        metavar="NAME",
        help=_("a Textual colour theme, e.g. nord or ansi-dark (also the settings file's theme)"),
    )
    # The settings file's language (config.py): kept for the translations, no option yet.
    parser.set_defaults(language=None)


def _theme(text: str) -> str:
    from ..config import ConfigError, check

    try:
        return str(check("theme", text, "--theme"))
    except ConfigError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def add_password(parser: argparse.ArgumentParser, *, host: bool) -> None:
    what = _("players must give to join") if host else _("the host asks for")
    group = parser.add_mutually_exclusive_group()
    group.add_argument(
        "--password",
        metavar="PASSWORD",
        default=None,
        help=_(
            "the room password {what} (visible to other users of this "
            "computer in the process list: prefer --password-prompt where "
            "that matters)"
        ).format(what=what),
    )
    if host:
        group.add_argument(
            "--room-code",
            action="store_true",
            help=_(
                "make up a room password: a random code of 8 letters and digits "
                "(about 40 bits, strong by construction), printed for you to "
                "tell the players"
            ),
        )
    group.add_argument(
        "--password-prompt",
        action="store_true",
        help=_(
            "ask for the room password without echoing it; when input is not "
            "a terminal, read it from the first line of standard input (for "
            "scripts)"
        ),
    )


def room_password(args: argparse.Namespace) -> str | None:
    """The room password from ``--password``, ``--password-prompt`` or ``--room-code`` (made
    up here), or None."""
    if getattr(args, "room_code", False):
        return generate_room_code()
    if getattr(args, "password_prompt", False):
        try:
            if sys.stdin.isatty():
                password = getpass.getpass(_("room password: "))
            else:
                password = sys.stdin.readline().rstrip("\r\n")
        except EOFError:
            password = ""
    else:
        if getattr(args, "password", None) is None:
            return None
        password = args.password
    if not password.strip():
        raise UserError(_("the room password is empty: give one, or leave out the option"))
    return password
