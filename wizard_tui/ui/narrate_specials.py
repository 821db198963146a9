"""Log lines for what the special cards do (docs/rules.md, "Special cards"): the Werewolf's
trump, a declaration, a bombed trick, the Cloud's change of bid, the Juggler's pass and the
Witch's swap. Told from the events the host sent; nothing here decides anything.
"""

from __future__ import annotations

from collections.abc import Sequence
from string import Formatter

from ..game import RoundDealt, Suit
from ..game.actions import (
    BidAdjusted,
    CardsPassed,
    CardSwapped,
    Declared,
    TrickBombed,
    TrumpNamed,
)
from ..game.specials import FORM_DECLARATIONS
from ..i18n import _
from .glyphs import Glyphs, clean
from .specials import declaration_words
from .widgets.base import card_class

Segment = tuple[str, str]
SPECIAL_EVENTS = (TrumpNamed, Declared, BidAdjusted, CardsPassed, CardSwapped, TrickBombed)


def seat_name(names: Sequence[str], seat: int) -> str:
    return clean(names[seat], 24) if 0 <= seat < len(names) else _("seat {n}").format(n=seat + 1)


def card_segment(card: int, g: Glyphs) -> Segment:
    return (g.card(card), card_class(card))


def suit_segment(suit: Suit, g: Glyphs) -> Segment:
    return (g.suit(suit), f"card--{suit.label}")


def fill(template: str, style: str = "", **fields: str | Segment) -> list[Segment]:
    """``template`` (already translated) with its ``{fields}`` filled in: a plain string
    takes the line's ``style``, a segment keeps its own (a card in its suit's colour)."""
    out: list[Segment] = []
    for text, field, _spec, _conv in Formatter().parse(template):
        if text:
            out.append((text, style))
        if field is None:
            continue
        value = fields.get(field, "{" + field + "}")
        out.append(value if isinstance(value, tuple) else (value, style))
    return out


def special_turned_up(card: int, event: RoundDealt, g: Glyphs) -> list[Segment]:
    """A special card turned up for trump: the dealer names trump, or there is none."""
    turned = card_segment(card, g)
    if event.dealer_chooses_trump:
        return fill(_("{card} is turned up: the dealer names trump."), card=turned)
    if event.trump_suit is not None:  # (no special card makes a suit; said all the same)
        return fill(_("Trump card {card}."), card=turned)
    return fill(_("{card} is turned up: no trump."), card=turned)


def plays_segments(plays: tuple[tuple[int, int], ...], names: Sequence[str], g: Glyphs):
    line: list[Segment] = []
    for i, (seat, card) in enumerate(plays):
        if i:
            line.append((", ", "text--muted"))
        line += [(f"{seat_name(names, seat)} ", "text--muted"), card_segment(card, g)]
    return line


def special_event_line(event: object, names: Sequence[str], g: Glyphs) -> tuple[Segment, ...]:
    """One log line for a special card's event."""
    if isinstance(event, TrumpNamed):
        who, taken = seat_name(names, event.seat), card_segment(event.taken, g)
        if event.suit is None:
            said = _("Werewolf: {name} takes {card} and names no trump.")
            return tuple(fill(said, name=who, card=taken))
        said = _("Werewolf: {name} takes {card} and names {suit} as trump.")
        return tuple(fill(said, name=who, card=taken, suit=suit_segment(event.suit, g)))
    if isinstance(event, Declared):
        who, card = seat_name(names, event.seat), card_segment(event.card, g)
        if event.choice in FORM_DECLARATIONS:
            said = _("{name} plays {card} as {form}.")
            return tuple(fill(said, name=who, card=card, form=declaration_words(event.choice)))
        if 0 <= event.choice < len(Suit):
            said = _("{name} names {suit} for {card}.")
            return tuple(fill(said, name=who, card=card, suit=suit_segment(Suit(event.choice), g)))
        return ()
    if isinstance(event, BidAdjusted):
        said = _("Cloud: {name} changes the bid to {bid}.")
        who = seat_name(names, event.seat)
        return tuple(fill(said, "text--accent", name=who, bid=str(event.bid)))
    if isinstance(event, CardsPassed):
        return ((_("Juggler: everyone passes a card to the left."), "text--accent"),)
    if isinstance(event, CardSwapped):
        who = seat_name(names, event.seat)
        if event.give is None or event.take is None:
            return tuple(fill(_("Witch: {name} keeps the hand."), name=who))
        said = _("Witch: {name} gives {give} and takes {take} from the trick.")
        give, take = card_segment(event.give, g), card_segment(event.take, g)
        return tuple(fill(said, name=who, give=give, take=take))
    if isinstance(event, TrickBombed):
        line = [(_("Trick {n}:").format(n=event.trick + 1) + " ", "text--muted")]
        line += plays_segments(event.plays, names, g)
        said = _("Bomb: nobody takes it; {name} leads.").format(name=seat_name(names, event.leader))
        line.append((f" {g.winning} {said}", "text--accent"))
        return tuple(line)
    return ()


def pass_line(passed: int, received: int, g: Glyphs) -> tuple[Segment, ...]:
    """What this seat gave and got in the Juggler's pass (it alone learns it)."""
    said = _("You passed {given} and received {received}.")
    return tuple(fill(said, given=card_segment(passed, g), received=card_segment(received, g)))
