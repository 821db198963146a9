"""A table's house rules (docs/rules.md, "House rules"): the options a host chooses in the
lobby, carried in the game's configuration, the journal, the wire and the record's ``rules``.

One value, ``TableRules``, with one wire form (``to_wire``/``from_wire``): the record's
``rules`` object is that form, so a record of the plain game keeps exactly the ``rules`` it
always had (``{"restrict_last_bid": ...}``), and each house rule adds its key only when on.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from .cards import DECK_SIZE
from .rules import MAX_ROUNDS, RestrictLastBid, check_players, rounds_for
from .specials import PAIRED, Special


class Length(StrEnum):
    """The named lengths of a game; a chosen list of rounds is the fourth kind."""

    FULL = "full"  # 1, 2, ... up to 60 / players cards
    SHORT = "short"  # the first half of the full game's rounds
    UP_AND_DOWN = "up-and-down"  # 1 up to 60 / players, then back down to 1


LIST_LENGTH = "list"  # what ``length_name`` calls a chosen list of rounds


class RulesError(ValueError):
    """A set of house rules that cannot be played, with the reason in words."""


@dataclass(frozen=True, slots=True)
class TableRules:
    """The house rules in force. The defaults are the bare rules of RULES.md."""

    restrict_last_bid: RestrictLastBid = RestrictLastBid.NEVER
    hidden_bids: bool = False  # every bid sealed, all revealed together (no restriction)
    forehead: bool = False  # one-card rounds: see the others' cards, not your own
    # Cards dealt to each player, round by round; None is the full game (1 .. 60 / players).
    rounds: tuple[int, ...] | None = None
    # The anniversary special cards in the deck (docs/rules.md, "Special cards").
    specials: frozenset[Special] = frozenset()

    def __post_init__(self) -> None:
        if type(self.restrict_last_bid) is not RestrictLastBid:  # a plain string: convert it
            object.__setattr__(self, "restrict_last_bid", RestrictLastBid(self.restrict_last_bid))
        if self.rounds is not None and type(self.rounds) is not tuple:
            object.__setattr__(self, "rounds", tuple(self.rounds))
        if type(self.specials) is not frozenset:
            object.__setattr__(self, "specials", frozenset(self.specials))

    @property
    def last_bid_rule(self) -> RestrictLastBid:
        """The restricted last bid as played: never under hidden bids, where nobody bids
        knowing the others' bids (docs/rules.md, "Hidden bids")."""
        return RestrictLastBid.NEVER if self.hidden_bids else self.restrict_last_bid

    def round_sizes(self, players: int) -> tuple[int, ...]:
        """Cards per player in each round, in the order played."""
        if self.rounds is None:
            return tuple(range(1, rounds_for(players) + 1))
        return self.rounds

    def check(self, players: int) -> None:
        """Raise ``RulesError`` unless these rules can be played by ``players``."""
        check_players(players)
        for name in ("hidden_bids", "forehead"):
            if type(getattr(self, name)) is not bool:
                raise RulesError(f"{name} must be true or false")
        self._check_specials()
        if self.rounds is None:
            return
        if not self.rounds:
            raise RulesError("a game has at least one round")
        if len(self.rounds) > MAX_ROUNDS:
            raise RulesError(f"a game has at most {MAX_ROUNDS} rounds, not {len(self.rounds)}")
        most = DECK_SIZE // players
        for size in self.rounds:
            if type(size) is not int or not 1 <= size <= most:
                raise RulesError(
                    f"a round of {players} players deals 1 to {most} cards each, not {size!r}"
                )

    def _check_specials(self) -> None:
        if not all(type(card) is Special for card in self.specials):
            raise RulesError("specials must be special cards")
        paired = self.specials & PAIRED
        if paired and paired != PAIRED:
            raise RulesError("the Dragon and the Fairy are played together or not at all")
        if self.forehead and Special.WEREWOLF in self.specials:
            raise RulesError("the Werewolf cannot be played with the forehead round")

    def to_wire(self) -> dict[str, Any]:
        """The record's ``rules`` object: ``restrict_last_bid`` always, each house rule only
        when it is on (so the plain game's records stay what they were)."""
        wire: dict[str, Any] = {"restrict_last_bid": self.restrict_last_bid.value}
        if self.hidden_bids:
            wire["hidden_bids"] = True
        if self.forehead:
            wire["forehead"] = True
        if self.rounds is not None:
            wire["rounds"] = list(self.rounds)
        if self.specials:
            wire["specials"] = [card.wire_name for card in sorted(self.specials)]
        return wire

    @classmethod
    def from_wire(cls, wire: Mapping[str, Any], players: int) -> TableRules:
        """The rules a ``to_wire`` object names; ``RulesError`` for anything else (an unknown
        key included: a rule this program does not know cannot be played by it)."""
        if not isinstance(wire, Mapping):
            raise RulesError("the rules must be an object")
        unknown = sorted(str(k) for k in wire if k not in _WIRE_KEYS)
        if unknown:
            raise RulesError(f"unknown rule {', '.join(unknown)}")
        restrict = wire.get("restrict_last_bid", RestrictLastBid.NEVER.value)
        try:
            restrict_rule = RestrictLastBid(restrict)
        except ValueError:
            choices = ", ".join(m.value for m in RestrictLastBid)
            raise RulesError(f"restrict_last_bid is {restrict!r}, not one of {choices}") from None
        rounds = wire.get("rounds")
        if rounds is not None and type(rounds) not in (list, tuple):
            raise RulesError("rounds must be a list of numbers of cards")
        rules = cls(
            restrict_rule,
            wire.get("hidden_bids", False),
            wire.get("forehead", False),
            None if rounds is None else tuple(rounds),
            _specials_from_wire(wire["specials"]) if "specials" in wire else frozenset(),
        )
        rules.check(players)
        return rules


_WIRE_KEYS = frozenset({"restrict_last_bid", "hidden_bids", "forehead", "rounds", "specials"})


def _specials_from_wire(names: object) -> frozenset[Special]:
    """The ``specials`` list: each card's wire name once, in card id order (one wire form
    per set, so a record's digest names one set of rules)."""
    if type(names) is not list or not all(type(name) is str for name in names):
        raise RulesError("specials must be a list of special card names")
    try:
        cards = [Special.parse(name) for name in names]
    except ValueError as exc:
        raise RulesError(str(exc)) from None
    if not cards or [card.wire_name for card in sorted(set(cards))] != names:
        raise RulesError("specials must name each card once, in card order, and at least one")
    return frozenset(cards)


def length_rounds(length: str, players: int) -> tuple[int, ...] | None:
    """The ``rounds`` of a length as a player names it: ``full``, ``short``, ``up-and-down``,
    or a comma-separated list of cards per round (``1,2,4,11``). ``RulesError`` otherwise."""
    check_players(players)
    top = rounds_for(players)
    text = length.strip().lower()
    if text == Length.FULL:
        return None
    if text == Length.SHORT:
        return tuple(range(1, (top + 1) // 2 + 1))  # half, rounded up: 15 rounds give 8
    if text == Length.UP_AND_DOWN:
        return (*range(1, top + 1), *range(top - 1, 0, -1))
    try:
        rounds = tuple(int(part) for part in text.split(","))
    except ValueError:
        raise RulesError(
            f"length {length!r}: full, short, up-and-down, or a list like 1,2,4"
        ) from None
    TableRules(rounds=rounds).check(players)
    return rounds


def length_name(rules: TableRules, players: int) -> str:
    """``full``, ``short``, ``up-and-down``, or ``list``: what the lobby names the length."""
    for length in Length:
        if rules.rounds == length_rounds(length, players):
            return length.value
    return LIST_LENGTH


def length_text(rules: TableRules, players: int) -> str:
    """The length as ``length_rounds`` reads it back: a name, or the list of rounds."""
    name = length_name(rules, players)
    if name != LIST_LENGTH:
        return name
    return ",".join(str(size) for size in rules.round_sizes(players))
