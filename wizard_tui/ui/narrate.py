"""Sentences for the log: what happened at the table, told from the events the host sent.

A line is a tuple of (text, component class) segments, so its colours come from CSS.
Nothing here decides anything about the game; it only puts events into words.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..game import (
    BidMade,
    CardPlayed,
    Event,
    GameOver,
    RoundDealt,
    RoundScored,
    Suit,
    TrickWon,
    TrumpChosen,
    is_jester,
)
from ..game.specials import is_special
from ..i18n import _, join_names, ngettext
from ..phrase import detail_of
from ..session import ActionRefused, ChatLine, LinkChanged, RoundVerified
from .glyphs import Glyphs, clean, suit_name
from .narrate_specials import (
    SPECIAL_EVENTS,
    card_segment,
    fill,
    special_event_line,
    special_turned_up,
)
from .refusals import refusal_text
from .widgets.base import card_class

Segment = tuple[str, str]
Line = tuple[Segment, ...]


def _name(names: Sequence[str], seat: int) -> str:
    return clean(names[seat], 24) if 0 <= seat < len(names) else _("seat {n}").format(n=seat + 1)


def event_line(event: Event, names: Sequence[str], g: Glyphs) -> Line | None:
    """One log line for an event, or None for events the table already shows (a card played)."""
    if isinstance(event, RoundDealt):
        deals = _("Round {round}: {dealer} deals.").format(
            round=event.round, dealer=_name(names, event.dealer)
        )
        head: list[Segment] = [(deals + " ", "text--accent")]
        card = event.trump_card
        if card is None:
            head.append((_("No trump card: all cards are dealt."), ""))
        elif is_special(card):  # (its id lies past the Jesters': asked first)
            head += special_turned_up(card, event, g)
        elif event.dealer_chooses_trump:
            head += [(_("A Wizard is turned up: the dealer names trump."), "")]
        elif is_jester(card):
            head += [(_("A Jester is turned up: no trump."), "")]
        elif event.trump_suit is None:  # a Wizard, and a Werewolf's holder names trump
            head += fill(_("Trump card {card}."), card=card_segment(card, g))
        else:
            head += [
                (_("Trump card") + " ", ""),
                (g.card(card), card_class(card)),
                (": ", ""),
                (suit_name(event.trump_suit), f"card--{event.trump_suit.label}"),
                (".", ""),
            ]
        return tuple(head)
    if isinstance(event, TrumpChosen):
        # TRANSLATORS: "{suit}" is drawn as "♥H hearts".
        before, _sep, after = _("{name} names {suit} as trump.").partition("{suit}")
        return (
            (before.format(name=_name(names, event.seat)), ""),
            (g.suit(event.suit), f"card--{event.suit.label}"),
            (after.format(name=_name(names, event.seat)), ""),
        )
    if isinstance(event, SPECIAL_EVENTS):
        return special_event_line(event, names, g)
    if isinstance(event, BidMade | CardPlayed):
        return None  # shown in the seat panel and trick area; bids get one line when done
    if isinstance(event, TrickWon):
        line: list[Segment] = [(_("Trick {n}:").format(n=event.trick + 1) + " ", "text--muted")]
        for i, (seat, card) in enumerate(event.plays):
            if i:
                line.append((", ", "text--muted"))
            line += [(f"{_name(names, seat)} ", "text--muted"), (g.card(card), card_class(card))]
        takes = _("{name} takes it.").format(name=_name(names, event.winner))
        line.append((f" {g.winning} {takes}", "text--accent"))
        return tuple(line)
    if isinstance(event, RoundScored):
        line = [(_("Round {round} scored:").format(round=event.round) + " ", "text--accent")]
        for seat, (pts, total) in enumerate(zip(event.points, event.totals, strict=True)):
            if seat:
                line.append((", ", ""))
            line += [
                (f"{_name(names, seat)} ", ""),
                (f"{pts:+d}", "text--ok" if pts > 0 else "text--error"),
                (f" ({total})", ""),
            ]
        return tuple(line)
    if isinstance(event, GameOver):
        who = join_names([_name(names, s) for s in event.winners])
        best = max(event.totals) if event.totals else 0
        if len(event.winners) == 1:
            said = ngettext(
                "Game over: {who} wins with {n} point.",
                "Game over: {who} wins with {n} points.",
                best,
            )
        else:
            said = ngettext(
                "Game over: {who} win with {n} point.",
                "Game over: {who} win with {n} points.",
                best,
            )
        return ((said.format(who=who, n=best), "text--accent"),)
    return None


def bids_line(
    bids: Sequence[int | None], tricks: int, names: Sequence[str], revealed: bool = False
) -> Line:
    """All the bids of a round, once the last is made (``revealed``: hidden bids, all
    shown at once)."""
    made = ", ".join(f"{_name(names, s)} {b}" for s, b in enumerate(bids) if b is not None)
    total = sum(b for b in bids if b is not None)
    if revealed:
        said = ngettext(
            "The bids are revealed: {made} ({total} bid for {n} trick).",
            "The bids are revealed: {made} ({total} bid for {n} tricks).",
            tricks,
        )
    else:
        said = ngettext(
            "Bids: {made} ({total} bid for {n} trick).",
            "Bids: {made} ({total} bid for {n} tricks).",
            tricks,
        )
    return ((said.format(made=made, total=total, n=tricks), ""),)


def chat_line(chat: ChatLine) -> Line:
    # A player's chat is kept short; the host's notes are ours, and a translated void
    # reason can run past 200 characters (it is wrapped, never cut).
    text = clean(chat.text, 200 if chat.seat is not None or chat.watcher else 600)
    if chat.watcher:
        who = _("{name} (watching)").format(name=clean(chat.name, 24))
        return ((f"<{who}> ", "text--muted"), (text, ""))
    if chat.seat is None:
        return ((f"* {text}", "text--muted"),)
    return ((f"<{clean(chat.name, 24)}> ", "text--accent"), (text, ""))


def verified_line(v: RoundVerified, g: Glyphs) -> Line:
    if v.ok and not v.checked:  # played by a bot of the host's while we were away
        text = _("Round {round} not checked: dealt while you were away").format(round=v.round)
        return ((text, "text--muted"),)
    if v.ok:
        return ((f"{g.ok} {verified_text(v)}", "text--ok"),)
    alarm = _("ALARM, round {round}:").format(round=v.round)
    return ((f"{g.alarm} {alarm} {failure_detail(v)}", "text--error"),)


def verified_text(v: RoundVerified) -> str:
    """A check that passed, in the language spoken (the client's English detail says only
    how it was checked)."""
    if "earlier run" in v.detail:
        return _("Round {round}: checked by an earlier run of this program").format(round=v.round)
    return _("Round {round}: deal verified").format(round=v.round)


def failure_detail(v: RoundVerified) -> str:
    """What failed, without the round it names again, in the language spoken (a detail
    made without a phrase, by an older or other session, shows its English)."""
    if v.said is not None:  # our own words (a translation runs longer than the English)
        return clean(detail_of(v.said).shown(), 400)
    text = clean(v.detail)
    prefix = f"round {v.round}: "
    return text[len(prefix) :] if text.lower().startswith(prefix) else text


def refused_line(r: ActionRefused, led: Suit | None = None) -> Line:
    said = _("The host refused that: {reason}").format(reason=refusal_text(r, led))
    return ((said, "text--error"),)


def link_line(change: LinkChanged) -> Line:
    detail = f" ({clean(change.detail)})" if change.detail else ""
    if change.state == "connected":
        return ((_("Connected to the table.") + detail, "text--ok"),)
    if change.state == "reconnecting":
        return (
            (_("Lost the connection; reconnecting{detail}.").format(detail=detail), "text--error"),
        )
    return ((_("The connection is closed{detail}.").format(detail=detail), "text--error"),)
