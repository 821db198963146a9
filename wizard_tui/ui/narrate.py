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
    TrickWon,
    TrumpChosen,
    is_jester,
    is_wizard,
    suit_of,
)
from ..session import ActionRefused, ChatLine, LinkChanged, RoundVerified
from .glyphs import Glyphs, clean

Segment = tuple[str, str]
Line = tuple[Segment, ...]


def card_class(card: int) -> str:
    if is_wizard(card):
        return "card--wizard"
    if is_jester(card):
        return "card--jester"
    suit = suit_of(card)
    assert suit is not None
    return f"card--{suit.label}"


def _name(names: Sequence[str], seat: int) -> str:
    return clean(names[seat], 24) if 0 <= seat < len(names) else f"seat {seat + 1}"


def event_line(event: Event, names: Sequence[str], g: Glyphs) -> Line | None:
    """One log line for an event, or None for events the table already shows (a card played)."""
    if isinstance(event, RoundDealt):
        head: list[Segment] = [
            (f"Round {event.round}: {_name(names, event.dealer)} deals. ", "text--accent")
        ]
        card = event.trump_card
        if card is None:
            head.append(("No trump card: all cards are dealt.", ""))
        elif event.dealer_chooses_trump:
            head += [("A Wizard is turned up: the dealer names trump.", "")]
        elif is_jester(card):
            head += [("A Jester is turned up: no trump.", "")]
        else:
            assert event.trump_suit is not None
            head += [
                ("Trump card ", ""),
                (g.card(card), card_class(card)),
                (": ", ""),
                (event.trump_suit.label, f"card--{event.trump_suit.label}"),
                (".", ""),
            ]
        return tuple(head)
    if isinstance(event, TrumpChosen):
        return (
            (f"{_name(names, event.seat)} names ", ""),
            (g.suit(event.suit), f"card--{event.suit.label}"),
            (" as trump.", ""),
        )
    if isinstance(event, BidMade | CardPlayed):
        return None  # shown in the seat panel and trick area; bids get one line when done
    if isinstance(event, TrickWon):
        line: list[Segment] = [(f"Trick {event.trick + 1}: ", "text--muted")]
        for i, (seat, card) in enumerate(event.plays):
            if i:
                line.append((", ", "text--muted"))
            line += [(f"{_name(names, seat)} ", "text--muted"), (g.card(card), card_class(card))]
        line.append((f" {g.winning} {_name(names, event.winner)} takes it.", "text--accent"))
        return tuple(line)
    if isinstance(event, RoundScored):
        line = [(f"Round {event.round} scored: ", "text--accent")]
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
        who = " and ".join(_name(names, s) for s in event.winners)
        best = max(event.totals) if event.totals else 0
        return (
            (
                f"Game over: {who} {'wins' if len(event.winners) == 1 else 'win'} "
                f"with {best} points.",
                "text--accent",
            ),
        )
    return None


def bids_line(bids: Sequence[int | None], tricks: int, names: Sequence[str]) -> Line:
    """All the bids of a round, once the last is made."""
    made = ", ".join(f"{_name(names, s)} {b}" for s, b in enumerate(bids) if b is not None)
    total = sum(b for b in bids if b is not None)
    plural = "" if tricks == 1 else "s"
    return ((f"Bids: {made} ({total} bid for {tricks} trick{plural}).", ""),)


def chat_line(chat: ChatLine) -> Line:
    text = clean(chat.text)
    if chat.seat is None:
        return ((f"* {text}", "text--muted"),)
    return ((f"<{clean(chat.name, 24)}> ", "text--accent"), (text, ""))


def _detail(v: RoundVerified) -> str:
    """The check's detail without the round it names again ("round 3: deal verified")."""
    text = clean(v.detail)
    prefix = f"round {v.round}: "
    return text[len(prefix) :] if text.lower().startswith(prefix) else text


def verified_line(v: RoundVerified, g: Glyphs) -> Line:
    if v.ok and not v.checked:  # played by a bot of the host's while we were away
        return ((f"Round {v.round} not checked: {_detail(v)}", "text--muted"),)
    if v.ok:
        detail = _detail(v)
        if detail.lower() in ("verified", "deal verified", ""):
            return ((f"{g.ok} Round {v.round}: deal verified", "text--ok"),)
        return ((f"{g.ok} Round {v.round} verified: {detail}", "text--ok"),)
    return ((f"{g.alarm} ALARM, round {v.round}: {_detail(v)}", "text--error"),)


def refused_line(r: ActionRefused) -> Line:
    return ((f"The host refused that: {clean(r.message)}", "text--error"),)


def link_line(change: LinkChanged) -> Line:
    detail = f" ({clean(change.detail)})" if change.detail else ""
    if change.state == "connected":
        return ((f"Connected to the table.{detail}", "text--ok"),)
    if change.state == "reconnecting":
        return ((f"Lost the connection; reconnecting{detail}.", "text--error"),)
    return ((f"The connection is closed{detail}.", "text--error"),)
