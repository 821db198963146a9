"""The words of a seat's round check, as phrases (``wizard_tui/phrase.py``).

A failed check is written to the record and the log in English, and shown to the player in
the player's language: the checks (``round_check.py``, the deal kinds' seat halves) build
a ``Phrase`` and keep its English as the detail. Some of what they report is English made
elsewhere, by netplay (which knows nothing of catalogs) or by the rules' own messages:
here it is read back into one of our templates (the English unchanged), or glossed with a
sentence of ours for its code.
"""

from __future__ import annotations

from netplay.commit_reveal import CommitRevealError
from netplay.mental import RELAY, DealFault

from ..game import IllegalAction
from ..i18n import N_
from ..phrase import Gloss, Phrase, in_round, phrase, recognise

# How a round that an earlier run of this program checked (and recorded) is reported.
EARLIER_RUN = N_("checked by an earlier run of this program (it is in your record)")


# What netplay's commit-reveal exchange says to a seat (netplay/commit_reveal.py's
# ClientRound, and AwayRound's check), with the round it names taken off.
COMMIT_REVEAL = (
    N_("the commitments were already published"),
    N_("{got} commitments published for {seats} seats"),
    N_("the commitment of seat {seat} is malformed"),
    N_("the host published a different commitment for your seat"),
    N_("seeds published before the commitments"),
    N_("{got} seeds published for {seats}"),
    N_("{got} seeds for {seats} seats"),
    N_("the host published a different seed for you"),
    N_("the seed of seat {seat} does not match its commitment"),
)


def commit_reveal_phrase(exc: CommitRevealError, r: int) -> Phrase:
    """``round r: <what the exchange found>``; its English is the exchange's own message
    (with ``round r: `` in front if it did not name the round)."""
    return in_round(r, _exchange_detail(exc.message.removeprefix(f"round {r}: ")))


def exchange_phrase(exc: CommitRevealError, r: int) -> Phrase:
    """The exchange's message as a phrase whose English is exactly that message."""
    if exc.message.startswith(f"round {r}: "):
        return commit_reveal_phrase(exc, r)
    return _exchange_detail(exc.message)


def _exchange_detail(text: str) -> Phrase:
    found = recognise(text, COMMIT_REVEAL)
    return found if found is not None else phrase("{text}", text=text)


# A sentence for each code of a private deal's failed check (netplay/mental/protocol.py);
# netplay's English detail stays in the record.
DEAL_FAULTS: dict[str, str] = {
    "wrong_sender": N_("an envelope was signed for another seat"),
    "malformed": N_("a signed message is not one of the protocol's"),
    "out_of_order": N_("a message came at a moment the protocol does not allow"),
    "not_your_turn": N_("a pass was signed by a seat whose turn it was not"),
    "chain_mismatch": N_("a message builds on a deck we were not shown"),
    "bad_deck": N_("a deck of the wrong size, or with a value out of place"),
    "duplicate_value": N_("a deck holds one value twice"),
    "bad_release": N_("keys released for the wrong cards, or a key that is not valid"),
    "not_owner": N_("a card was played that was dealt to someone else"),
    "already_open": N_("a card was played that was already open"),
    "wrong_claim": N_("a card played opens to another card than the one claimed"),
    "bad_round_key": N_("a revealed key is not valid"),
    "shuffle_mismatch": N_("a shuffle is not a reordering of the deck it was given"),
    "lock_mismatch": N_("a locked deck does not match its keys"),
    "released_key_mismatch": N_("a released key is not the one revealed later"),
    "played_key_mismatch": N_("a played card's key is not the one revealed later"),
    "not_a_deck": N_("the final deck does not open to every card once"),
    "not_an_item": N_("a card opens to something that is not a card"),
    "duplicate_item": N_("one card opens twice in the deck"),
    "own_collision": N_("an earlier shuffle cheated: our own pass would repeat a value"),
}


def blamed(culprit: int | None) -> Phrase:
    """Who a failed check blames, worded as netplay's ``DealFault`` words it."""
    if culprit == RELAY:
        return phrase(N_("the relay"))
    if culprit is None:
        return phrase(N_("nobody"))
    return phrase(N_("seat {seat}"), seat=culprit)


def fault_phrase(fault: DealFault) -> Phrase:
    """A private deal's failed check; its English is ``str(fault)``, as netplay made it."""
    code = DEAL_FAULTS.get(fault.code)
    detail: str | Gloss = fault.detail if code is None else Gloss(fault.detail, phrase(code))
    said = phrase(N_("{detail} (blame: {who})"), detail=detail, who=blamed(fault.culprit))
    # The record's text never changes: a fault worded otherwise shows as it is.
    return said if said.english() == str(fault) else phrase("{text}", text=str(fault))


# A sentence for each rule a replayed play can break (wizard_tui/game's IllegalAction),
# said of the seat that played it; the rules' own English stays in the record.
RULES: dict[str, str] = {
    "wrong_phase": N_("that could not be done then"),
    "not_your_turn": N_("it was not that seat's turn"),
    "not_a_card": N_("that is not a card"),
    "card_not_in_hand": N_("that card was not in the player's hand"),
    "must_follow_suit": N_("the player had to follow the led suit"),
    "bid_out_of_range": N_("a bid is between 0 and the number of tricks"),
    "bid_forbidden": N_("the last bid may not make the bids add up to the number of tricks"),
    "not_a_suit": N_("trump must be one of the four suits"),
    "game_over": N_("the game is over"),
}


def rule_text(exc: IllegalAction) -> str | Gloss:
    """The rule ``exc`` names: its English message, shown as our sentence for its code."""
    said = RULES.get(exc.code)
    return exc.message if said is None else Gloss(exc.message, phrase(said))


__all__ = [
    "COMMIT_REVEAL",
    "DEAL_FAULTS",
    "EARLIER_RUN",
    "blamed",
    "commit_reveal_phrase",
    "exchange_phrase",
    "fault_phrase",
    "rule_text",
]
