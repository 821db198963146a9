"""One-line summaries: the round status at the top of the table, and the prompt above the hand."""

from __future__ import annotations

from rich.cells import cell_len
from rich.text import Text

from ...game import Phase, SeatView, is_jester, is_wizard
from ...game.specials import is_special
from ...i18n import _, ngettext
from ...session import RoundVerified
from ..glyphs import suit_name
from .lines import LinesWidget

_KEEP = object()


def cards_each(round_number: int, hand_size: int) -> str:
    """``18 cards``: what round ``round_number`` deals each player, said only where the game's
    length (docs/rules.md) makes it differ from the round's number (else "")."""
    if hand_size == round_number or hand_size < 1:
        return ""
    return ngettext("{n} card", "{n} cards", hand_size).format(n=hand_size)


class StatusLine(LinesWidget):
    """``Round r of R · Trump … · bids b / h tricks`` (and ``· h cards`` where a game's length
    deals other than r) and, on the right, link and verification."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.view: SeatView | None = None
        self.link = "connected"
        self.verified: RoundVerified | None = None

    def show(self, *, view=_KEEP, link=_KEEP, verified=_KEEP) -> None:
        if view is not _KEEP:
            self.view = view
        if link is not _KEEP:
            self.link = link
        if verified is not _KEEP:
            self.verified = verified
        self.redraw()

    def _trump(self, view: SeatView, compact: bool = False) -> Text:
        """The trump; ``compact``: a suit card without its suit's name (the turned card
        beside the hand names it), when the line is short of room."""
        out = Text(_("Trump") + " ")
        card, suit = view.trump_card, view.trump_suit
        if card is None:
            out.append(_("none"), self.style("text--muted"))
            out.append(" " + _("(all cards dealt)"))
            return out
        out.append_text(self.card_text(card))
        if is_special(card) or view.phase is Phase.NAME_TRUMP:
            # A special card turned up, or the Werewolf laid in its place (docs/rules.md).
            if suit is not None and compact:  # "Trump WLF ♥": the symbol or letter only
                out.append(" ")
                out.append(self.glyphs.suit_short(suit), self.style(f"card--{suit.label}"))
            elif suit is not None:
                out.append(", ")
                out.append_text(self.suit_text(suit))
            elif compact:
                pass  # (the words beside the trump card say who names it)
            elif view.phase in (Phase.CHOOSE_TRUMP, Phase.NAME_TRUMP):
                out.append(": " + _("to be named"))
            else:
                out.append(": " + _("no trump"))
        elif is_jester(card):
            out.append(": " + _("no trump"))
        elif is_wizard(card):
            if suit is None:
                out.append(": " + _("dealer names it"))
            else:
                out.append(", " + _("dealer chose") + " ")
                out.append_text(self.suit_text(suit))
        elif suit is not None and not compact:
            out.append(" (")
            out.append(suit_name(suit), self.style(f"card--{suit.label}"))
            out.append(")")
        return out

    def _left(self, compact: bool) -> Text:
        g = self.glyphs
        view = self.view
        left = Text()
        if view is not None and view.phase is Phase.DEAL and view.round < view.num_rounds:
            # Between rounds (and right after a --resume): the next round, not the last
            # one's trump and dealer, until it is dealt.
            said = _("Round {round} of {rounds}").format(
                round=view.round + 1, rounds=view.num_rounds
            )
            left.append(said, self.style("text--accent"))
            cards = cards_each(view.round + 1, view.rules.round_sizes(view.players)[view.round])
            if cards:
                left.append(f" {g.dot} {cards}", self.style("text--accent"))
            left.append(f" {g.dot} " + _("dealing"), self.style("text--muted"))
        elif view is not None and view.round > 0:
            said = _("Round {round} of {rounds}").format(round=view.round, rounds=view.num_rounds)
            left.append(said, self.style("text--accent"))
            cards = cards_each(view.round, view.hand_size)
            if cards:
                left.append(f" {g.dot} {cards}", self.style("text--accent"))
            left.append(f" {g.dot} ")
            left.append_text(self._trump(view, compact))
            bid_sum = sum(b for b in view.bids if b is not None)
            bids = _("bids {sum}/{tricks}").format(sum=bid_sum, tricks=view.hand_size)
            if view.phase is Phase.BID and view.rules.hidden_bids:
                bids = _("bids hidden")  # (until every bid is in: then the sum again)
            left.append(f" {g.dot} {bids}")
        return left

    def build(self, width: int) -> list[Text]:
        g = self.glyphs
        left = self._left(compact=False)
        right = Text()
        if self.verified is not None:
            v = self.verified
            if v.ok and not v.checked:
                right.append(
                    _("r{round} not checked").format(round=v.round), self.style("text--muted")
                )
            elif v.ok:
                said = _("r{round} verified").format(round=v.round)
                right.append(f"{g.ok} {said}", self.style("text--ok"))
            else:
                said = _("r{round} FAILED").format(round=v.round)
                right.append(f"{g.alarm} {said}", self.style("text--error"))
            right.append("  ")
        if self.link == "connected":
            right.append(f"{g.online} " + _("online"), self.style("text--ok"))
        else:
            right.append(f"{g.offline} {link_word(self.link)}", self.style("text--error"))
        # The right side (verification, link) always shows: the left gives way, first the
        # trump suit's name (a longer game's "· 18 cards" needs the room), then its end.
        room = width - cell_len(right.plain) - 1
        if cell_len(left.plain) > room:
            left = self._left(compact=True)
        if cell_len(left.plain) > room:
            left.truncate(max(0, room - 1), overflow="crop")
            left.append(g.more)
        space = width - cell_len(left.plain) - cell_len(right.plain)
        left.append(" " * max(1, space))
        left.append_text(right)
        return [left]


def link_word(state: str) -> str:
    """The link's state (a code from the session) in the language spoken."""
    words = {"reconnecting": _("reconnecting"), "closed": _("closed"), "connected": _("online")}
    return words.get(state, state)


class PromptLine(LinesWidget):
    """What this player should do now, or why the last key did nothing."""

    def __init__(self, **kwargs) -> None:
        super().__init__(**kwargs)
        self.text = ""
        self.urgent = False  # it is this player's turn
        self.error = ""  # shown instead of ``text`` until cleared

    def say(self, text: str, urgent: bool = False) -> None:
        self.text, self.urgent, self.error = text, urgent, ""
        self.redraw()

    def warn(self, error: str) -> None:
        self.error = error
        self.redraw()

    def build(self, width: int) -> list[Text]:
        if self.error:
            return [Text(self.fit(self.error, width), self.style("text--error"))]
        style = self.style("seat--turn") if self.urgent else self.style("text--muted")
        return [Text(self.fit(self.text, width).rstrip(), style)]
