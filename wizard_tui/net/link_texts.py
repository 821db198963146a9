"""The player's words for what netplay and the host say about the connection.

netplay knows nothing of catalogs: its messages (a dropped link, a refused password, a host
key that changed, a host turning a player away) are English, and stay English in logs. The
player reads them in their own language: each English message we know is read back into
one of these templates (``phrase.recognise``) and shown translated; one we do not know
shows as it came.
"""

from __future__ import annotations

import re

from netplay.errors import NetplayError
from netplay.identity import HostKeyChanged

from ..game import Suit
from ..i18n import N_, _, language
from ..phrase import Gloss, Phrase, phrase, recognise
from .check_texts import DEAL_FAULTS

# Each template's English is the message as netplay (or our host) makes it, field for field.
TEMPLATES: tuple[str, ...] = (
    # The client's own link (netplay/client.py).
    N_("you left the game"),
    N_("connected to {host}:{port}"),
    N_("gave up reconnecting after {seconds} s: {detail}"),
    N_("the host is not taking our messages"),
    N_("lost the connection to the host"),
    N_("nothing heard from the host for {seconds} s"),
    N_("the host sent something this client cannot read: {detail}"),
    N_(
        "the host closed the connection during the secure handshake (it may be busy, "
        "shutting down, or refusing your address after wrong passwords)"
    ),
    N_(
        "the secure handshake with {host} failed ({detail}): it is not a {protocol} host, "
        "or something on the network altered the connection"
    ),
    # The room password (netplay/secure.py).
    N_("this game has a room password: ask the host for it"),
    N_(
        "you gave a room password, but this host does not ask for one, so it cannot prove "
        "it is the game you meant: check the address, or join without one"
    ),
    N_("wrong room password: check it with the host and try again"),
    # The host's server turning a connection away (netplay/server.py).
    N_("the host removed you from the game"),
    N_("the host failed to add you; see the host's log"),
    N_("your seat was taken over by a newer connection"),
    N_("the host heard nothing from you for {seconds} s"),
    N_("the host already has {count} connections; try again later"),
    N_(
        "this host does not know your session (it may have restarted, or it was joined "
        "with another identity key): join again as a new player"
    ),
    # Our host's refusals (wizard_tui/net/host.py, watchers.py).
    N_("the game has already started; ask for a rematch later"),
    N_("every seat is taken"),
    N_("this host does not take watchers"),
    N_("this table has {count} watchers already"),
    N_("your program did not move for you while you were away"),
    N_("your program did not take its turn in the deal in time"),
    N_(
        "your program did not send its signing key within {seconds} s: your seat was given "
        "up (join again)"
    ),
    # The keys on this computer (netplay/identity.py).
    N_(
        "the known-hosts file {path} cannot be read ({why}). Fix it, or delete it to trust "
        "every host anew on its next connection."
    ),
    N_(
        "your identity key {path} cannot be read ({why}). Restore it from a backup, or move "
        "it away to make a new one (hosts that knew you will then see a new player key)."
    ),
    N_("{path} holds a {kind}, not an X25519 key: move it away to make a new identity"),
    # This program's own keys (wizard_tui/net/keys.py).
    N_(
        "your signing key {path} cannot be read ({why}): restore it, or move it away to "
        "make a new one"
    ),
    N_("cannot use the player directory {path}: {why}"),
    N_("{count} programs of this account are playing already"),
)


# What our host announces to the table (a chat line of seat None; net/takeover.py,
# turn_time.py, deals/commit_reveal/host.py).
ANNOUNCEMENTS: tuple[str, ...] = (
    N_("a bot plays for {name} until they are back"),
    N_("{name}'s time ran out: a bot plays for them until they press a key"),
    N_("{name}'s time ran out: their program plays for them until they press a key"),
    N_("{name}'s program did not move in time: it was disconnected"),
    N_("round {round} is dealt again: {detail}"),
    N_("seat {seat} ({name}) dropped before revealing its seed; a bot took it over"),
    N_("{name}'s program did not take its turn in the deal: it was disconnected"),
    # Why the host voided a private deal's attempt (deals/private/host.py), said in the
    # seat's note of the void.
    N_("{name} (seat {seat}) left: a bot plays the seat"),
    N_("{name} (seat {seat}) lost the round's keys"),
    N_("seat {seat} revealed its keys before the round's end"),
    N_("the host restarted: the round's keys are gone"),
)


# The other reasons the private deal's host gives for a void or a round scored without a
# seat's reveal (deals/private/host.py), and what it puts around a reason in its chat line.
# The wrappers come first: their {detail} is read again, so the reason inside them too.
VOID_WRAPPERS: tuple[str, ...] = (
    N_("round {round}: {detail}: scored from the cards played"),
    N_("{detail} (blame: {who})"),
    N_("{detail} after every card was played"),
    N_("round-end check: {detail}"),
)
VOID_REASONS: tuple[str, ...] = (
    N_("seat {seat} stopped the round: its check found {code}, blaming {who}"),
    N_("seat {seat} stopped the round: its check found {code}"),
    N_("{name} (seat {seat}) left without revealing its keys"),
    N_("{name} (seat {seat}) lost the round's keys after every card"),
    # A revoke the replay found (the rules' own words for it, game/engine.py).
    N_("seat {seat} revoked: {card} is not in your hand"),
    N_("seat {seat} revoked: you must follow {suit} (or play a Wizard or Jester)"),
)
SUIT_NAMES = frozenset(s.label for s in Suit)
# Whom a reason blames, as the host words it.
WHO: tuple[str, ...] = (N_("the relay"), N_("nobody"), N_("seat {seat}"))


def announcement_text(text: str) -> str:
    """A line our host announced, in the language spoken (unknown ones as they came; in
    English, every one as it came: a check's code stays a code there)."""
    return text if language() == "en" else announced(text).shown()


def announced(text: str, depth: int = 0) -> Phrase:
    """A line or a void's reason from our host as a phrase whose English is ``text``: one
    of our templates (its ``detail`` and ``who`` read again), a private deal's check
    (``code: netplay's detail``, shown as our sentence for the code), or the text as it is."""
    found = recognise(text, (*ANNOUNCEMENTS, *VOID_WRAPPERS, *VOID_REASONS))
    if found is None or depth > 4:  # a reason nests two or three deep, never more
        head, sep, _rest = text.partition(": ")
        if sep and head in DEAL_FAULTS:
            return phrase("{text}", text=Gloss(text, phrase(DEAL_FAULTS[head])))
        return phrase("{text}", text=text)
    params = dict(found.params)
    inner, who = params.get("detail"), params.get("who")
    if isinstance(inner, str):
        params["detail"] = announced(inner, depth + 1)
    if isinstance(who, str):
        params["who"] = recognise(who, WHO) or who
    code = params.get("code")
    if isinstance(code, str) and code in DEAL_FAULTS:  # a check's code: our sentence for it
        params["code"] = Gloss(code, phrase(DEAL_FAULTS[code]))
    suit = params.get("suit")
    if isinstance(suit, str) and suit in SUIT_NAMES:  # the table's word for it
        params["suit"] = Phrase(suit, context="suit")
    return Phrase(found.template, tuple(params.items()))


def said_of(text: str) -> Phrase:
    """``text`` as a phrase: one of ours if we know it (a ``detail`` field inside it read
    the same way), else the text as it is."""
    found = recognise(text, TEMPLATES)
    if found is None:
        return phrase("{text}", text=text)
    inner = found.param("detail")
    if isinstance(inner, str):
        params = dict(found.params)
        params["detail"] = said_of(inner)
        return Phrase(found.template, tuple(params.items()))
    return found


def link_text(text: str) -> str:
    """What netplay said, in the language spoken."""
    return said_of(text).shown()


def error_text(exc: NetplayError) -> str:
    """A netplay error for the player, in the language spoken (English: as netplay says it)."""
    if language() == "en":
        return exc.message
    if isinstance(exc, HostKeyChanged):
        return host_key_changed(exc)
    return link_text(exc.message)


def host_key_changed(exc: HostKeyChanged) -> str:
    """The loud warning of a host whose key is not the one pinned for it."""
    said = _(
        "WARNING: THE HOST KEY OF {host} HAS CHANGED.\n"
        "  pinned fingerprint:  {pinned}\n"
        "  offered fingerprint: {offered}\n"
        "Someone may be intercepting this connection (a man in the middle), or the host "
        "reinstalled the game or now runs on another computer. Not joining.\n"
        "Ask the host's player to read out the fingerprint shown on their screen. Only if it "
        "matches the offered one, forget its entry{where} and connect again."
    )
    # The file it is pinned in, as netplay named it (HostKeyChanged keeps no other copy).
    store = re.search(r"forget .+? in (.+) and connect again\.$", exc.message, re.DOTALL)
    where = _(" in {path}").format(path=store.group(1)) if store else ""
    host = exc.label or _("this host")
    return said.format(host=host, pinned=exc.pinned, offered=exc.offered, where=where)


__all__ = [
    "ANNOUNCEMENTS",
    "TEMPLATES",
    "VOID_REASONS",
    "VOID_WRAPPERS",
    "WHO",
    "announced",
    "announcement_text",
    "error_text",
    "host_key_changed",
    "link_text",
    "said_of",
]
