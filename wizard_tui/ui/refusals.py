"""Why the host refused an intent, in the language spoken, from the refusal's code.

The code (``wizard_tui.game.Reason`` or a protocol code) is what the wire carries; its
English message is built by the host. Each known code has a translated sentence here; an
unknown code shows the host's English text as it came.
"""

from __future__ import annotations

from ..game import Suit
from ..i18n import N_, _
from ..phrase import recognise
from ..session import ActionRefused
from .glyphs import clean, suit_name

# code -> a sentence for it (marked here, translated when shown).
REASONS: dict[str, str] = {
    "wrong_phase": N_("that cannot be done now"),
    "not_your_turn": N_("it is not your turn"),
    "not_a_seat": N_("there is no such seat"),
    "game_over": N_("the game is over"),
    "bad_deck": N_("the deck is not a whole deck"),
    "not_a_suit": N_("trump must be one of the four suits"),
    "not_a_bid": N_("a bid is a whole number"),
    "bid_out_of_range": N_("a bid is between 0 and the number of tricks"),
    "bid_forbidden": N_("the last bid may not make the bids add up to the number of tricks"),
    "not_a_card": N_("that is not a card"),
    "card_not_in_hand": N_("that card is not in your hand"),
    "must_follow_suit": N_("you must follow the led suit"),
    "unknown_action": N_("the host does not know that action"),
    "not_your_seat": N_("a bot plays your seat for the rest of the game"),
    "not_seated": N_("you do not hold a seat"),
    "not_host": N_("only the host can do that"),
    "stale_round": N_("that round is not being dealt"),
    "lobby_closed": N_("the game has already started"),
    "chat_too_fast": N_("you are sending chat too fast: wait a moment"),
    "table_full": N_("a table has at most 6 seats"),
    "bad_envelope": N_("the host could not read that message"),
    "stale_attempt": N_("that deal was started again"),
    "must_play_blind": N_("in this round you play your card unseen"),  # a forehead round
    "not_a_choice": N_("that is not one of the choices offered"),  # the special cards
    "not_in_trick": N_("that card is not in the trick"),
}

# The host's English message -> a sentence for it, for codes that stand for several reasons
# (``not_ready`` above all): these are the host's fixed sentences (wizard_tui/net/host.py).
MESSAGES: dict[str, str] = {
    "there is no bot in that seat": N_("there is no bot in that seat"),
    "no such rule for the last bid": N_("no such rule for the last bid"),
    "Wizard needs 3 players: add bots": N_("Wizard needs 3 players: add bots"),
    "a player's signing key has not arrived yet": N_("a player's signing key has not arrived yet"),
    "the game is not over yet": N_("the game is not over yet"),
    "no deal is in progress": N_("no deal is in progress"),
    "no game is in progress": N_("no game is in progress"),
    "only a connected player's seat can be handed": N_(
        "only a connected player's seat can be handed"
    ),
}


# The host's sentences with fields in them (wizard_tui/net/host.py, deals/host_half.py), read
# back field for field (``phrase.recognise``): before the code, which covers several reasons.
WORDED: tuple[str, ...] = (
    N_("a watcher can only chat"),
    N_("bot levels are {levels}"),
    N_("{seated} players are seated: keep {seated} seats"),
    N_("you play seat {mine}, not seat {other}"),
    N_("that was meant for round {sent}; this is round {now}"),
    N_("round {round} is not in the host's record"),
    N_("round {round} of the record was sent already"),
    N_("this host deals by {deal}: no {what} is asked"),
    # A rule the table's deal cannot deal (wizard_tui/net/deals/__init__.py: a lobby's
    # settings or a rematch asked for it).
    N_("the {deal} deal cannot deal the forehead round yet: play it with --deal {other}"),
    N_("the {deal} deal cannot deal the special cards yet: play them with --deal {other}"),
    N_(
        "the {deal} deal cannot deal the special cards into the forehead round yet: play "
        "them with --deal {other}"
    ),
)


def refusal_text(refused: ActionRefused, led: Suit | None = None) -> str:
    """The reason in the language spoken; ``led``: the suit led now (to name it)."""
    if refused.code == "must_follow_suit" and led is not None:
        return _("you must follow {suit}").format(suit=suit_name(led))
    if (worded := recognise(refused.message, WORDED)) is not None:
        return clean(worded.shown())
    known = MESSAGES.get(refused.message) or REASONS.get(refused.code)
    return _(known) if known is not None else clean(refused.message)
