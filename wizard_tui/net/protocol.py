"""The Wizard protocol on top of netplay: message names, schemas and the wire form of views.

Everything that crosses the wire between a Wizard host and its clients is built or
checked here, so ``docs/protocol.md``, the host and the client agree on one
spelling. Values are plain msgpack types: ints, strs, bins, lists, maps with str keys.
"""

from __future__ import annotations

from typing import Any, cast

import msgpack

from netplay import Limits
from netplay.errors import BAD_MESSAGE, ProtocolError
from netplay.schema import Bin, Bool, Int, Message, Nullable, Optional, Schemas, Str
from netplay.signing import WIRE as ENVELOPE

from ..game import (
    MAX_HAND,
    MAX_ROUNDS,
    BidMade,
    CardPlayed,
    Event,
    Game,
    GameOver,
    Phase,
    RestrictLastBid,
    RoundDealt,
    RoundResult,
    RoundScored,
    RulesError,
    SeatView,
    Suit,
    TableRules,
    Trick,
    TrickWon,
    TrumpChosen,
    seat_view,
)
from ..game.actions import (
    AdjustBid,
    BidAdjusted,
    CardsPassed,
    CardSwapped,
    Declare,
    Declared,
    PassCard,
    SpecialEvent,
    SwapCard,
    TrickBombed,
    TrumpNamed,
)
from ..game.codec import PlayerAction, action_from_wire, action_to_wire, actions_to_wire
from ..game.forehead import BLIND_CARD, is_forehead_round
from ..game.special_engine import SpecialGame
from ..game.specials import ALL_CARD_IDS, Declaration, deck_cards
from ..game.view import new_seat_view
from ..session import SeatInfo

PROTOCOL = "wizard-tui"
VERSION = 1
DEFAULT_PORT = 16060  # "60 cards"; unassigned by IANA

# A bot client plays as fast as the host answers: a whole game is at most ~300 messages
# per client (~550 in the longest, 3-player up-and-down), which the burst covers; a flood
# is still cut off within about a second.
LIMITS = Limits(rate=500.0, burst=1000)

MAX_CHAT = 200
# Every chat line goes to every seat, so a flood of them, even within LIMITS, would fill
# everyone's send queue and cut them off: chat has its own limit, far above typing speed.
CHAT_RATE = 2.0
CHAT_BURST = 20
# A round's ordinal is 1..MAX_ROUND (a game's length, docs/rules.md "Game length": up to
# 60 rounds); what counts a round's cards (a bid, a hand, its tricks) is 0..MAX_HAND.
MAX_ROUND = MAX_ROUNDS
_SEAT = Int(0, 5)
_ROUND = Int(1, MAX_ROUND)
MAX_CARD_ID = ALL_CARD_IDS - 1  # the highest card id: the Vampire (68)

# Reason codes the host adds to the engine's (``wizard_tui.game.Reason``).
NOT_YOUR_SEAT = "not_your_seat"
NOT_SEATED = "not_seated"
NOT_HOST = "not_host"
STALE_ROUND = "stale_round"
LOBBY_CLOSED = "lobby_closed"
NOT_READY = "not_ready"
CHAT_TOO_FAST = "chat_too_fast"
TABLE_FULL = "table_full"  # every seat is taken (a late friend may watch: join --watch)
# A deal message of the other deal protocol (``commit``/``seed`` at a private host,
# ``sign_key``/``deal``/``lost``/``abort`` at a commit-reveal one): it can never apply.
WRONG_DEAL = "wrong_deal"
# Spectators (watchers.py): the host takes none, or has as many as it takes.
NO_WATCHERS = "no_watchers"
WATCHERS_FULL = "watchers_full"
WATCHING = "watching"  # a watcher sent what only a seat may (a bid, a deal message, ...)
MAX_WATCHERS = 8  # watchers at one table; they take no seat

# -- client -> host ----------------------------------------------------------------------

# ``auto``: the player's program decided this for its away player (turn_time.py); such a
# move does not count as the player being back.
_AUTO = Optional(Bool())
BID = Message("bid", seat=_SEAT, round=_ROUND, bid=Int(0, MAX_HAND), auto=_AUTO)
# ``open``: the private deal's signed open envelope of the card (docs/private-deal.md, K4).
# A card id: 0..59, and 60..68 for the special cards (docs/rules.md, "Special cards"; a
# game without them refuses those as ``not_a_card``).
_CARD = Int(0, MAX_CARD_ID)
PLAY = Message(
    "play",
    seat=_SEAT,
    round=_ROUND,
    card=Int(BLIND_CARD, MAX_CARD_ID),
    open=Optional(ENVELOPE),
    auto=_AUTO,
)
TRUMP = Message("trump", seat=_SEAT, round=_ROUND, suit=Int(0, 3), auto=_AUTO)
# The special cards' decisions (docs/protocol.md, "Special cards"): each message is named as
# the action codec names the action (``game/codec.py``), and checked like a bid or a play.
NAME_TRUMP = Message("name_trump", seat=_SEAT, round=_ROUND, suit=Int(-1, 3), auto=_AUTO)
DECLARE = Message("declare", seat=_SEAT, round=_ROUND, choice=Int(0, 5), auto=_AUTO)
ADJUST_BID = Message("adjust_bid", seat=_SEAT, round=_ROUND, bid=Int(0, MAX_HAND), auto=_AUTO)
PASS_CARD = Message("pass_card", seat=_SEAT, round=_ROUND, card=_CARD, auto=_AUTO)
# ``show``: the private deal's signed envelope showing the card given (docs/private-deal.md
# section 16: a ``show``, a ``show_gift``; none for a face-up card the seat took).
SWAP = Message(
    "swap",
    seat=_SEAT,
    round=_ROUND,
    give=Nullable(_CARD),
    take=Nullable(_CARD),
    show=Optional(ENVELOPE),
    auto=_AUTO,
)
SPECIAL_INTENTS = ("name_trump", "declare", "adjust_bid", "pass_card", "swap")
# The turn time (turn_time.py): the player is at the keyboard again (any key at its table);
# the host's table hands the seat on turn to a bot.
HERE = Message("here")
HAND_TO_BOT = Message("hand_to_bot", seat=_SEAT)
CHAT = Message("chat", text=Str(1, MAX_CHAT, printable=True))
CLAIM_HOST = Message("claim_host", key=Str(1, 128, printable=True))
START = Message("start")
ADD_BOT = Message("add_bot")
# The host's lobby (docs/protocol.md, "The lobby"): take a bot out of a seat; the table's
# seats (3-6), its bots' level and the restricted last bid, all three each time.
REMOVE_BOT = Message("remove_bot", seat=_SEAT)
LOBBY_SETTINGS = Message(
    "lobby_settings",
    seats=Int(3, 6),
    bot_level=Str(1, 16, printable=True),
    restrict_last_bid=Str(1, 32, printable=True),
    # The house rules (docs/rules.md): absent keys leave them as they are.
    hidden_bids=Optional(Bool()),
    forehead=Optional(Bool()),
    length=Optional(Str(1, 64, printable=True)),
    # The special cards (docs/rules.md), as on the command line: their wire names separated
    # by commas (any order), "all" or "none".
    specials=Optional(Str(1, 128, printable=True)),
)
REMATCH = Message("rematch")
COMMIT = Message("commit", round=_ROUND, commitment=Bin(32))
SEED = Message("seed", round=_ROUND, seed=Bin(32))
# The private deal (docs/protocol.md, "A privately dealt round").
_ATTEMPT = Int(0, 0xFFFF)
SIGN_KEY = Message("sign_key", key=Bin(32))
DEAL = Message("deal", round=_ROUND, attempt=_ATTEMPT, env=ENVELOPE)
LOST = Message("lost", round=_ROUND, attempt=_ATTEMPT)
ABORT = Message(
    "abort",
    round=_ROUND,
    attempt=_ATTEMPT,
    code=Str(1, 64, printable=True),
    culprit=Nullable(Int(-1, 5)),
)
# A player's own record: the host's record of a finished round (record_share.py).
RECORD = Message("record", round=_ROUND)
# Hidden bids (docs/protocol.md, "Hidden bids"): a seat's seal of its bid, and its opening
# once every seal is published. Any byte is a bid here: one the round does not allow is a
# bad opening (refused, and a stand-in bids for the seat), not a malformed message.
BID_SEAL = Message("bid_seal", round=_ROUND, attempt=_ATTEMPT, seal=Bin(32), auto=_AUTO)
BID_OPEN = Message("bid_open", round=_ROUND, attempt=_ATTEMPT, bid=Int(0, 255), nonce=Bin(32))

INBOUND = Schemas(
    HERE,
    HAND_TO_BOT,
    BID,
    PLAY,
    TRUMP,
    NAME_TRUMP,
    DECLARE,
    ADJUST_BID,
    PASS_CARD,
    SWAP,
    CHAT,
    CLAIM_HOST,
    START,
    ADD_BOT,
    REMOVE_BOT,
    LOBBY_SETTINGS,
    REMATCH,
    COMMIT,
    SEED,
    SIGN_KEY,
    DEAL,
    LOST,
    ABORT,
    RECORD,
    BID_SEAL,
    BID_OPEN,
)

# Reason codes of hidden bids (sealed_bids.py).
SEALED_BIDS = "sealed_bids"  # a plain ``bid`` at a table of hidden bids: seal it instead
ALREADY_SEALED = "already_sealed"  # a second seal, or a seal once every seal is published
NOT_SEALING = "not_sealing"  # a seal or opening when no sealed bid is asked (or a stale one)
BAD_OPENING = "bad_opening"  # an opening that does not open the seat's seal: a stand-in bids

# Deal protocols a host may choose (``--deal``); the ``game`` message names it.
DEAL_PRIVATE = "private"
DEAL_COMMIT_REVEAL = "commit-reveal"
DEALS = (DEAL_PRIVATE, DEAL_COMMIT_REVEAL)
# Reason codes of the private deal's host side.
BAD_ENVELOPE = "bad_envelope"  # an envelope that is not one, or not the play's open
STALE_ATTEMPT = "stale_attempt"  # a deal message for an attempt that was voided
DEAL_TIMEOUT = "deal_timeout"  # fatal: a player's program did not send a deal message it owed
# fatal: a joiner did not send what it owes before the game starts (its sign_key) in time; its
# seat is freed for someone else
LOBBY_TIMEOUT = "lobby_timeout"
# fatal: an away player's program did not move for it within the turn time (turn_time.py)
TURN_TIMEOUT = "turn_timeout"


def bid_msg(seat: int, round_number: int, bid: int) -> dict[str, Any]:
    return {"t": "bid", "seat": seat, "round": round_number, "bid": bid}


def play_msg(seat: int, round_number: int, card: int) -> dict[str, Any]:
    return {"t": "play", "seat": seat, "round": round_number, "card": card}


def trump_msg(seat: int, round_number: int, suit: int) -> dict[str, Any]:
    return {"t": "trump", "seat": seat, "round": round_number, "suit": suit}


def special_msg(action: PlayerAction, round_number: int) -> dict[str, Any]:
    """The message of a special card's decision (``name_trump``, ``declare``, ``adjust_bid``,
    ``pass_card``, ``swap``): the action codec's kind and seat, and its value by name."""
    kind, seat, value = action_to_wire(action)
    if type(value) is list:  # a swap's [give, take]: plain ints (not a ``Special``)
        value = [None if v is None else int(v) for v in value]
    elif value is not None:
        value = int(value)
    msg: dict[str, Any] = {"t": kind, "seat": int(seat), "round": round_number}
    if kind == "name_trump":
        msg["suit"] = value
    elif kind == "declare":
        msg["choice"] = value
    elif kind == "adjust_bid":
        msg["bid"] = value
    elif kind == "pass_card":
        msg["card"] = value
    elif kind == "swap":
        msg["give"], msg["take"] = (None, None) if value is None else value
    else:
        raise ValueError(f"{kind} is not a special card's decision")
    return msg


def special_action(msg: dict[str, Any]) -> PlayerAction:
    """The action a (schema-checked) special decision message asks for."""
    t, seat = msg["t"], msg["seat"]
    if t == "name_trump":
        return action_from_wire([t, seat, msg["suit"]])
    if t == "declare":
        return Declare(seat, msg["choice"])
    if t == "adjust_bid":
        return AdjustBid(seat, msg["bid"])
    if t == "pass_card":
        return PassCard(seat, msg["card"])
    if t == "swap":
        return SwapCard(seat, msg["give"], msg["take"])
    raise ValueError(f"{t} is not a special card's decision")


def deal_msg(round_number: int, attempt: int, envelope: dict[str, Any]) -> dict[str, Any]:
    """A private-deal envelope (either way: to the host, and relayed by it)."""
    return {"t": "deal", "round": round_number, "attempt": attempt, "env": envelope}


# -- host -> client ----------------------------------------------------------------------


def seat_info_wire(info: SeatInfo | None) -> dict[str, Any] | None:
    if info is None:
        return None
    out: dict[str, Any] = {"name": info.name, "kind": info.kind, "connected": info.connected}
    if info.takeover_in is not None:
        out["takeover_in"] = info.takeover_in
    return out


def seat_info_from_wire(d: Any) -> SeatInfo | None:
    if d is None:
        return None
    _expect(type(d) is dict, "seat info must be a map")
    kind = d.get("kind")
    _expect(kind in ("human", "bot"), "seat kind must be human or bot")
    name = d.get("name")
    _expect(type(name) is str and 0 < len(name) <= 64, "seat name must be a short string")
    connected = d.get("connected")
    _expect(type(connected) is bool, "seat connected must be a bool")
    takeover = d.get("takeover_in")
    _expect(takeover is None or type(takeover) in (int, float), "takeover_in must be a number")
    return SeatInfo(name, kind, connected, None if takeover is None else float(takeover))


def trick_wire(trick: Trick) -> list[Any]:
    """``[leader, cards, winner]``; a trick a Bomb was in (docs/rules.md, "Special cards")
    has a fourth item, ``true``: nobody took it, and ``winner`` is the seat that leads next."""
    if trick.bombed:
        return [trick.leader, list(trick.cards), trick.winner, True]
    return [trick.leader, list(trick.cards), trick.winner]


def specials_view_wire(view: SeatView) -> dict[str, Any]:
    """The keys a view of a game with special cards adds (none in any other game, whose
    views stay byte for byte as they were): the card turned up at the deal, the round's
    declarations, what the seat on turn may choose, the trick cards a Witch may take,
    this seat's own latest pass (the card it gave, the card it got: nobody else's), and the
    round's swaps (public: both cards are face up)."""
    return {
        "turned_card": view.turned_card,
        "declared": [list(d) for d in view.declared],
        "legal_choices": list(view.legal_choices),
        "swap_takes": list(view.swap_takes),
        "last_pass": None if view.last_pass is None else list(view.last_pass),
        "swaps": [list(s) for s in view.swaps],
    }


def view_wire(view: SeatView) -> dict[str, Any]:
    """A seat's view without its history (sent separately, once per round)."""
    return {
        "seat": view.seat,
        "players": view.players,
        "rules": view.rules.to_wire(),
        "round": view.round,
        "dealer": view.dealer,
        "phase": view.phase.value,
        "turn": view.turn,
        "hand": list(view.hand),
        "trump_card": view.trump_card,
        "trump_suit": None if view.trump_suit is None else int(view.trump_suit),
        "bids": list(view.bids),
        "tricks_won": list(view.tricks_won),
        "totals": list(view.totals),
        "leader": view.trick_leader,
        "trick": [card for _, card in view.trick],
        "led": None if view.led_suit is None else int(view.led_suit),
        "winning": view.trick_winner,
        "tricks": [trick_wire(t) for t in view.tricks],
        "legal_cards": list(view.legal_cards),
        "legal_bids": list(view.legal_bids),
        "forbidden_bid": view.forbidden_bid,
        # Only in a forehead round (docs/rules.md): a plain view's wire stays as it was.
        **({"foreheads": list(view.foreheads)} if view.forehead else {}),
        **(specials_view_wire(view) if view.rules.specials else {}),
    }


def public_view_wire(game: Game) -> dict[str, Any]:
    """What everyone may see of ``game`` now, as a view with no seat: a watcher's view.

    Built from the game's public state only (never from a seat's view, which holds a hand:
    with commit-reveal the host knows them all), so its hand and legal moves are empty."""
    return {
        "seat": None,
        "players": game.players,
        "rules": game.config.rules.to_wire(),
        "round": game.round,
        "dealer": game.dealer,
        "phase": game.phase.value,
        "turn": game.turn,
        "hand": [],
        "trump_card": game.trump_card,
        "trump_suit": None if game.trump_suit is None else int(game.trump_suit),
        "bids": list(game.bids),
        "tricks_won": list(game.tricks_won),
        "totals": list(game.totals),
        "leader": game.trick_leader,
        "trick": [card for _, card in game.trick],
        "led": None if game.led_suit is None else int(game.led_suit),
        "winning": game.trick_winner,
        "tricks": [trick_wire(t) for t in game.tricks],
        "legal_cards": [],
        "legal_bids": [],
        "forbidden_bid": None,
        **(_public_specials(game) if game.config.rules.specials else {}),
    }


def _public_specials(game: Game) -> dict[str, Any]:
    """A public view's special-card keys: the turned card, the declarations and the swaps,
    and no seat's choices or pass."""
    special = cast(SpecialGame, game)  # (a game whose rules have special cards is one)
    return {
        "turned_card": special.turned_card,
        "declared": [list(d) for d in special.declarations],
        "legal_choices": [],
        "swap_takes": [],
        "last_pass": None,
        "swaps": [list(s) for s in special.swaps],
    }


def _each_view_alone(game: Game) -> bool:
    """Whether each seat's view must be built on its own, the slow way: hidden bidding
    (every seat on turn, its view holding its bid alone), a forehead round (per seat what
    it sees), or a game with special cards (its views hold each seat's own choices and
    pass, docs/protocol.md "Special cards": never spliced from another seat's view)."""
    rules = game.config.rules
    return bool(_hidden_bidding(game) or is_forehead_round(rules, game.hand_size) or rules.specials)


def views_wire(game: Game) -> list[dict[str, Any]]:
    """``view_wire(seat_view(game, seat))`` for every seat, built from one full view.

    The host sends one view per seat after every action (the hot path of its latency):
    views differ only in the seat's own hand and in what the seat to act may do, so the
    rest is built once. ``tests/net`` checks this equals the slow way at every step of
    random games.
    """
    n = game.players
    if _each_view_alone(game):
        return [view_wire(seat_view(game, seat)) for seat in range(n)]
    actor = game.turn if 0 <= game.turn < n else 0
    base = view_wire(seat_view(game, actor))
    views = []
    for seat in range(n):
        if seat == actor:
            views.append(base)
            continue
        held = game.hand_mask(seat)
        views.append(
            {
                **base,
                "seat": seat,
                "hand": [card for card in game.dealt_hand(seat) if held >> card & 1],
                "legal_cards": [],
                "legal_bids": [],
                "forbidden_bid": None,
            }
        )
    return views


def _hidden_bidding(game: Game) -> bool:
    """Hidden bids are being made: the seats' views differ in their turn and bids too."""
    return game.phase is Phase.BID and game.config.rules.hidden_bids


# The fields of a view that differ between the seats' views of one moment (``views_wire``).
_PER_SEAT = ("seat", "hand", "legal_cards", "legal_bids", "forbidden_bid")


def state_payloads(game: Game, seats: list[Any], events: list[Any]) -> list[bytes]:
    """The ``state`` message of every seat after an action, as msgpack: for seat ``s``, what
    ``encode_payload({"t": "state", "view": views_wire(game)[s], "seats": seats, "events":
    events})`` gives but for the order of the view's keys (a map's order means nothing).

    What the seats' messages share (most of the view, the seats, the events) is packed once
    and each seat's own fields (``_PER_SEAT``) are spliced in: the host sends these after
    every action, and packing six whole ~500-byte messages was a good part of the time
    before the last one was written (docs/performance.md, latency). ``tests/net`` checks
    that each decodes to exactly that message.
    """
    n = game.players
    # (Rare: hidden bidding, once a round; a forehead round; special cards) each seat's
    # view packed alone.
    if _each_view_alone(game):
        return [
            _pack({"t": "state", "view": view, "seats": seats, "events": events})
            for view in views_wire(game)
        ]
    actor = game.turn if 0 <= game.turn < n else 0
    base = view_wire(seat_view(game, actor))
    shared = {key: value for key, value in base.items() if key not in _PER_SEAT}
    head = b"\x84" + _pack("t") + _pack("state") + _pack("view") + _map_header(len(base))
    head += _pairs(shared)
    tail = _pack("seats") + _pack(seats) + _pack("events") + _pack(events)
    payloads = []
    for seat in range(n):
        if seat == actor:
            own = {key: base[key] for key in _PER_SEAT}
        else:
            held = game.hand_mask(seat)
            own = {
                "seat": seat,
                "hand": [card for card in game.dealt_hand(seat) if held >> card & 1],
                "legal_cards": [],
                "legal_bids": [],
                "forbidden_bid": None,
            }
        payloads.append(head + _pairs(own) + tail)
    return payloads


def _pack(value: Any) -> bytes:
    return msgpack.packb(value, use_bin_type=True)  # as netplay.framing.encode_payload


def _map_header(size: int) -> bytes:
    """msgpack's header of a map of ``size`` entries (fixmap, or map 16)."""
    return bytes([0x80 | size]) if size <= 15 else b"\xde" + size.to_bytes(2, "big")


def _pairs(d: dict[str, Any]) -> bytes:
    """The packed keys and values of ``d``, without the map's header."""
    return _pack(d)[len(_map_header(len(d))) :]


def result_wire(result: RoundResult, seeds: list[bytes] | None) -> dict[str, Any]:
    """A finished round as the host publishes it, with the seeds that open its deal (None:
    a privately dealt round, whose keys went out as ``deal`` envelopes)."""
    wire: dict[str, Any] = {
        "round": result.round,
        "dealer": result.dealer,
        "hands": [list(h) for h in result.hands],
        "trump_card": result.trump_card,
        "trump_suit": None if result.trump_suit is None else int(result.trump_suit),
        "bids": list(result.bids),
        "tricks": [trick_wire(t) for t in result.tricks],
        "tricks_won": list(result.tricks_won),
        "points": list(result.points),
        "totals": list(result.totals),
    }
    if result.actions:  # a round with special cards: every seat action, to replay it
        wire["turned_card"] = result.turned_card
        wire["actions"] = actions_to_wire(result.actions)
    if seeds is not None:
        wire["seeds"] = list(seeds)
    return wire


def event_wire(event: Event | SpecialEvent) -> list[Any]:
    if isinstance(event, CardPlayed):
        return ["played", event.seat, event.card]
    if isinstance(event, TrickWon):
        return ["trick", event.trick, event.plays[0][0], event.winner, [c for _, c in event.plays]]
    if isinstance(event, BidMade):
        return ["bid", event.seat, event.bid]
    if isinstance(event, TrumpChosen):
        return ["trump", event.seat, int(event.suit)]
    if isinstance(event, RoundDealt):
        suit = None if event.trump_suit is None else int(event.trump_suit)
        wire = ["dealt", event.round, event.dealer, event.trump_card, suit]
        if event.dealer_chooses_trump != _wizard_turned(event.trump_card):
            # With special cards the dealer may name trump for another card, or not for a
            # Wizard (a Werewolf's holder does): said outright (a plain game never needs it).
            wire.append(event.dealer_chooses_trump)
        return wire
    if isinstance(event, RoundScored):
        return [
            "scored",
            event.round,
            list(event.bids),
            list(event.tricks_won),
            list(event.points),
            list(event.totals),
        ]
    if isinstance(event, GameOver):
        return ["over", list(event.totals), list(event.winners)]
    return _special_event_wire(event)


def _special_event_wire(event: Any) -> list[Any]:
    """The special cards' events (docs/protocol.md, "Special cards"). A pass names only its
    trick: which card each seat passed is in the passer's and the receiver's views alone."""
    if isinstance(event, TrumpNamed):
        return ["trump_named", event.seat, event.taken, _suit_or_nil(event.suit)]
    if isinstance(event, Declared):
        return ["declared", event.seat, event.card, event.choice]
    if isinstance(event, BidAdjusted):
        return ["bid_adjusted", event.seat, event.bid]
    if isinstance(event, CardsPassed):
        return ["passed", event.trick]
    if isinstance(event, CardSwapped):
        return ["swapped", event.seat, event.trick, event.give, event.take]
    if isinstance(event, TrickBombed):
        first = event.plays[0][0] if event.plays else event.leader
        return ["bombed", event.trick, first, event.leader, [c for _, c in event.plays]]
    raise TypeError(f"not an event: {event!r}")


def _wizard_turned(card: int | None) -> bool:
    return card is not None and 52 <= card < 56


def _suit_or_nil(suit: Suit | None) -> int | None:
    return None if suit is None else int(suit)


# -- decoding what the host sent (a client never trusts it blindly) ----------------------


def _expect(ok: bool, problem: str) -> None:
    if not ok:
        raise ProtocolError(BAD_MESSAGE, f"the host sent a malformed message: {problem}")


# The checks below run on every int of every view a client receives, the hot path of
# docs/protocol.md's latency: the problem is formatted only when there is one.


def _int(value: Any, lo: int, hi: int, what: str) -> int:
    if type(value) is not int or not lo <= value <= hi:
        _expect(False, f"{what} must be an int in {lo}..{hi}")
    return value


def _opt_int(value: Any, lo: int, hi: int, what: str) -> int | None:
    return None if value is None else _int(value, lo, hi, what)


def _ints(value: Any, lo: int, hi: int, what: str, max_len: int = 128) -> tuple[int, ...]:
    if type(value) is not list or len(value) > max_len:
        _expect(False, f"{what} must be a list")
    for v in value:
        if type(v) is not int or not lo <= v <= hi:
            _expect(False, f"{what} must be an int in {lo}..{hi}")
    return tuple(value)


_BIG = 1 << 31


def _trick_from_wire(value: Any, players: int, max_card: int = 59) -> Trick:
    """A completed trick; with special cards (``max_card`` past 59) a bombed one carries a
    fourth item, ``true``."""
    bombed = max_card > 59 and type(value) is list and len(value) == 4 and value[3] is True
    _expect(
        type(value) is list and (len(value) == 3 or bombed), "a trick is [leader, cards, winner]"
    )
    leader = _int(value[0], 0, players - 1, "trick leader")
    cards = _ints(value[1], 0, max_card, "trick cards", players)
    winner = _int(value[2], 0, players - 1, "trick winner")
    if bombed:
        return Trick(leader, cards, winner, True)
    return Trick(leader, cards, winner)


# Enum members by wire value: a dict lookup is several times cheaper than ``Phase(value)``
# (an unknown or unhashable value raises KeyError or TypeError, caught like the enum's own).
_PHASES = {phase.value: phase for phase in Phase}
_RESTRICTS = {rule.value: rule for rule in RestrictLastBid}
_SUITS = tuple(Suit)


def _opt_suit(value: Any, what: str) -> Suit | None:
    return None if value is None else _SUITS[_int(value, 0, 3, what)]


def _checked_header(
    players: Any,
    seat: Any,
    rules: Any,
    round_number: Any,
    dealer: Any,
    trump_card: Any,
    trump_suit: Any,
    watching: bool = False,
) -> tuple[Any, ...]:
    """A view's round header, checked: (players, seat, rules, rounds in the game, round,
    its cards each, dealer, trump card, trump suit, the highest card id the game deals). A
    watcher's view has no seat (``-1`` in the view)."""
    players = _int(players, 3, 6, "players")
    try:
        table_rules = TableRules.from_wire(rules, players)
    except RulesError as exc:
        raise ProtocolError(
            BAD_MESSAGE, f"the host sent rules this table cannot play: {exc}"
        ) from None
    sizes = table_rules.round_sizes(players)  # cards each, round by round
    n_rounds = len(sizes)
    round_number = _int(round_number, 0, n_rounds, "round")
    if watching:
        _expect(seat is None, "a watcher's view has no seat")
    max_card = deck_cards(table_rules.specials)[-1]  # 59, or the last special card's id
    return (
        players,
        -1 if watching else _int(seat, 0, players - 1, "seat"),
        table_rules,
        n_rounds,
        round_number,
        sizes[round_number - 1] if round_number else 0,  # the hand size
        _int(dealer, 0, players - 1, "dealer"),
        _opt_int(trump_card, 0, max_card, "trump card"),
        _opt_suit(trump_suit, "trump suit"),
        max_card,
    )


def view_from_wire(d: Any, history: tuple[RoundResult, ...]) -> SeatView:
    """A view the host sent, checked (one view alone; a session reads its stream of views
    with a ``ViewReader``). A view with no seat is read as a watcher's."""
    return ViewReader(watching=type(d) is dict and d.get("seat") is None).read(d, history)


class ViewReader:
    """Checks and builds the views one host sends to one client, in the order they come.

    Every value of every view is checked as ``docs/protocol.md`` says, but what the host
    resends unchanged is checked once: the round's header (table size, seat, rule, round,
    dealer, trump), the bids, tricks won and totals (which change a few times a round), and
    the completed tricks (a view whose first tricks equal those of the last view checked,
    at the same table size, reuses the ``Trick``s checked then and checks only the new
    ones). "Unchanged" means equal as values, and a view is built only from values that
    passed every check (a host that resends ``1.0`` for a ``1`` it sent before gets the
    checked ``1``). So the client's part of the latency path (``docs/performance.md``)
    does not redo them; a refused value is never kept.
    """

    def __init__(self, *, watching: bool = False) -> None:
        self._watching = watching  # a watcher's views: no seat, no hand, no legal move
        self._players = 0
        self._tricks_wire: list[list[Any]] = []  # the wire form of ``_tricks``: our copy
        self._tricks: tuple[Trick, ...] = ()
        self._header_wire: tuple[Any, ...] | None = None  # as sent ...
        self._header: tuple[Any, ...] = ()  # ... and as checked (see ``_checked_header``)
        self._lists_wire: list[Any] = [None, None, None]  # bids, tricks won, totals as sent
        self._lists: list[tuple[Any, ...]] = [(), (), ()]  # ... and as checked

    def read(self, d: Any, history: tuple[RoundResult, ...]) -> SeatView:
        _expect(type(d) is dict, "a view must be a map")
        try:
            return self._read(d, history)
        except (KeyError, IndexError, ValueError, TypeError) as exc:
            if isinstance(exc, ProtocolError):
                raise
            raise ProtocolError(
                BAD_MESSAGE, f"the host sent a malformed view: {exc!r:.80}"
            ) from None

    def _read(self, d: dict[str, Any], history: tuple[RoundResult, ...]) -> SeatView:
        header = (
            d["players"],
            d["seat"],
            d["rules"],
            d["round"],
            d["dealer"],
            d["trump_card"],
            d["trump_suit"],
        )
        if header != self._header_wire:
            self._header = _checked_header(*header, watching=self._watching)
            self._header_wire = header
            self._lists_wire = [None, None, None]  # checked against the old table size
        (
            players,
            seat,
            rules,
            n_rounds,
            round_number,
            hand_size,
            dealer,
            trump_card,
            trump_suit,
            max_card,
        ) = self._header
        last_seat = players - 1
        held = 0 if self._watching else 20  # a watcher holds no card and has no move
        leader = _int(d["leader"], -1, last_seat, "leader")
        trick_cards = _ints(d["trick"], 0, max_card, "trick", players)
        bids, won, totals = self._slow_lists(d["bids"], d["tricks_won"], d["totals"], players)
        foreheads, legal_low = _foreheads(d, rules, hand_size, seat, players, self._watching)
        legal_high = max_card if legal_low == 0 else BLIND_CARD  # a forehead round: blind only
        turn = _int(d["turn"], -1, last_seat, "turn")
        if rules.specials:  # (the view's last fields: docs/protocol.md, "Special cards")
            specials = _special_fields(d, players, max_card, self._watching, turn == seat)
        else:
            _expect(SPECIAL_VIEW_KEYS.isdisjoint(d), "special cards' keys in a game without them")
            specials = ()
        return new_seat_view(
            seat,
            players,
            n_rounds,
            rules,
            round_number,
            hand_size,
            dealer,
            _PHASES[d["phase"]],
            turn,
            _ints(d["hand"], 0, max_card, "hand", 0 if legal_low < 0 else held),
            foreheads,
            trump_card,
            trump_suit,
            bids,
            won,
            totals,
            leader,
            tuple([((leader + i) % players, c) for i, c in enumerate(trick_cards)]),
            _opt_suit(d["led"], "led suit"),
            _opt_int(d["winning"], 0, last_seat, "winning seat"),
            self._completed(d["tricks"], players, max_card),
            history,
            _ints(
                d["legal_cards"],
                legal_low,
                legal_high,
                "legal cards",
                held,
            ),
            _ints(d["legal_bids"], 0, 20, "legal bids", held and 21),
            _opt_int(d["forbidden_bid"], 0, 20, "forbidden bid"),
            *specials,
        )

    def _slow_lists(
        self, bids: Any, won: Any, totals: Any, players: int
    ) -> tuple[tuple[Any, ...], ...]:
        """The bids, tricks won and totals, each checked again only when it changed."""
        wire, checked = self._lists_wire, self._lists
        if bids != wire[0]:
            _expect(type(bids) is list and len(bids) == players, "bids must be one per seat")
            checked[0] = tuple([_opt_int(b, 0, 20, "bid") for b in bids])
            wire[0] = bids
        if won != wire[1]:
            checked[1] = _ints(won, 0, 20, "tricks won", players)
            wire[1] = won
        if totals != wire[2]:
            checked[2] = _ints(totals, -_BIG, _BIG, "totals", players)
            wire[2] = totals
        return checked[0], checked[1], checked[2]

    def _completed(self, value: Any, players: int, max_card: int) -> tuple[Trick, ...]:
        """The round's completed tricks: those the last view had, then any new ones."""
        _list(value, 20)
        known = len(self._tricks_wire)
        if players != self._players or len(value) < known or value[:known] != self._tricks_wire:
            self._players, self._tricks_wire, self._tricks = players, [], ()  # a new round
            known = 0
        if len(value) > known:
            new = tuple([_trick_from_wire(t, players, max_card) for t in value[known:]])
            self._tricks += new
            self._tricks_wire += [trick_wire(t) for t in new]
        return self._tricks


SPECIAL_VIEW_KEYS = frozenset(
    {"turned_card", "declared", "legal_choices", "swap_takes", "last_pass", "swaps"}
)


def _special_fields(
    d: dict[str, Any], players: int, max_card: int, watching: bool, on_turn: bool
) -> tuple[Any, ...]:
    """The keys of a view of a game with special cards, checked (docs/protocol.md, "Special
    cards"): its turned card, declarations, legal choices, swap takes, last pass and swaps,
    the view's last fields in order. A watcher's view has no choice and no pass; a seat's
    choices come only while it is on turn."""
    declared = []
    for entry in _list(d["declared"], 128):
        _expect(type(entry) is list and len(entry) == 3, "a declaration is [trick, seat, choice]")
        declared.append(
            (
                _int(entry[0], 0, MAX_HAND - 1, "declared trick"),
                _int(entry[1], 0, players - 1, "declaring seat"),
                _int(entry[2], 0, max(Declaration), "declaration"),
            )
        )
    held = 21 if on_turn and not watching else 0
    choices = _ints(d["legal_choices"], -1, MAX_HAND, "legal choices", held)
    takes = _ints(d["swap_takes"], 0, max_card, "swap takes", held and players)
    passed = d["last_pass"]
    last_pass = None
    if passed is not None:
        _expect(not watching, "a watcher's view shows no pass")
        pair = _ints(passed, 0, max_card, "last pass", 2)
        _expect(len(pair) == 2 and pair[0] != pair[1], "a pass is [card given, card got]")
        last_pass = (pair[0], pair[1])
    swaps = []
    for entry in _list(d["swaps"], MAX_HAND):  # (at most one per trick)
        _expect(type(entry) is list and len(entry) == 4, "a swap is [trick, seat, give, take]")
        trick, seat, give, take = entry
        swaps.append(
            (
                _int(trick, 0, MAX_HAND - 1, "swap trick"),
                _int(seat, 0, players - 1, "swapping seat"),
                _int(give, 0, max_card, "card given"),
                _int(take, 0, max_card, "card taken"),
            )
        )
    turned = _opt_int(d["turned_card"], 0, max_card, "turned card")
    return (turned, tuple(declared), choices, takes, last_pass, tuple(swaps))


def _foreheads(
    d: dict[str, Any], rules: Any, hand_size: int, seat: Any, players: int, watching: bool
) -> tuple[tuple[int | None, ...], int]:
    """A view's ``foreheads`` (per seat the card this seat sees on that seat's forehead)
    and the lowest legal card id it may name: ``BLIND_CARD`` in a forehead round, where the
    seat holds no card it sees, else 0. Outside a forehead round the field is absent."""
    if not is_forehead_round(rules, hand_size) or watching:
        _expect("foreheads" not in d, "foreheads outside a forehead round")
        return (None,) * players, 0
    if "foreheads" not in d:  # between rounds, or a phase with nothing on a forehead
        return (None,) * players, BLIND_CARD
    shown = _list(d["foreheads"], players)
    _expect(len(shown) == players, "foreheads must be one per seat")
    checked = tuple([_opt_int(card, 0, 59, "forehead card") for card in shown])
    _expect(checked[seat] is None, "a view never shows a seat its own forehead card")
    return checked, BLIND_CARD


def _list(value: Any, max_len: int) -> list[Any]:
    _expect(type(value) is list and len(value) <= max_len, "expected a list")
    return value


def result_from_wire(
    d: Any, players: int, rules: TableRules | None = None
) -> tuple[RoundResult, list[bytes]]:
    """A finished round the host published, checked; in a game with special cards (``rules``)
    with its turned card and every seat action of the round (``actions``), which replay it."""
    _expect(type(d) is dict, "a round result must be a map")
    specials = rules is not None and bool(rules.specials)
    max_card = deck_cards(rules.specials)[-1] if rules is not None else 59
    try:
        seeds = _list(d.get("seeds", []), players)  # a privately dealt round has none
        _expect(len(seeds) in (0, players), "one seed per seat")
        _expect(all(type(s) is bytes and len(s) == 32 for s in seeds), "seeds are 32 bytes")
        hands = _list(d["hands"], players)
        _expect(len(hands) == players, "one hand per seat")
        trump_suit = d["trump_suit"]
        extra: dict[str, Any] = {}
        if specials:
            extra["turned_card"] = _opt_int(d["turned_card"], 0, max_card, "turned card")
            extra["actions"] = _actions_from_wire(d["actions"], players, max_card)
        else:
            _expect("actions" not in d, "actions in a round without special cards")
        result = RoundResult(
            round=_int(d["round"], 1, MAX_ROUND, "round"),
            dealer=_int(d["dealer"], 0, players - 1, "dealer"),
            hands=tuple(_ints(h, 0, max_card, "hand", 20) for h in hands),
            trump_card=_opt_int(d["trump_card"], 0, max_card, "trump card"),
            trump_suit=None if trump_suit is None else Suit(_int(trump_suit, 0, 3, "trump")),
            bids=_ints(d["bids"], 0, 20, "bids", players),
            tricks=tuple(_trick_from_wire(t, players, max_card) for t in _list(d["tricks"], 20)),
            tricks_won=_ints(d["tricks_won"], 0, 20, "tricks won", players),
            points=_ints(d["points"], -_BIG, _BIG, "points", players),
            totals=_ints(d["totals"], -_BIG, _BIG, "totals", players),
            **extra,
        )
        return result, list(seeds)
    except (KeyError, ValueError, TypeError) as exc:
        if isinstance(exc, ProtocolError):
            raise
        raise ProtocolError(BAD_MESSAGE, f"the host sent a malformed round: {exc!r:.80}") from None


# Each seat action's value range in a round's ``actions`` (``game/codec.py``'s wire form);
# a card's high end is the game's highest card id (``None`` here).
_ACTION_VALUES: dict[str, tuple[int, int | None]] = {
    "trump": (0, 3),
    "bid": (0, MAX_HAND),
    "play": (0, None),
    "name_trump": (-1, 3),
    "declare": (0, max(Declaration)),
    "adjust_bid": (0, MAX_HAND),
    "pass_card": (0, None),
}


def _actions_from_wire(value: Any, players: int, max_card: int) -> tuple[PlayerAction, ...]:
    """A round's seat actions, in order, each ``[kind, seat, value]`` checked."""
    actions = []
    for wire in _list(value, 128):
        _expect(type(wire) is list and len(wire) == 3, "an action is [kind, seat, value]")
        kind, seat, v = wire
        _int(seat, 0, players - 1, "action seat")
        if kind == "swap":
            _expect(v is None or (type(v) is list and len(v) == 2), "a swap is [give, take]")
            for card in v or ():
                _int(card, 0, max_card, "swapped card")
        else:
            _expect(type(kind) is str and kind in _ACTION_VALUES, "an action's kind")
            lo, hi = _ACTION_VALUES[kind]
            _int(v, lo, max_card if hi is None else hi, f"{kind} value")
        actions.append(action_from_wire(wire))
    return tuple(actions)


def event_from_wire(e: Any, players: int) -> Event | SpecialEvent | None:
    """An engine event, or None for a kind this client does not know (newer host)."""
    _expect(type(e) is list and len(e) >= 1 and type(e[0]) is str, "an event is [kind, ...]")
    kind, args = e[0], e[1:]
    try:
        if kind == "played":
            seat = _int(args[0], 0, players - 1, "seat")
            return CardPlayed(seat, _int(args[1], 0, MAX_CARD_ID, "card"))
        if kind == "trick":
            leader = _int(args[1], 0, players - 1, "leader")
            winner = _int(args[2], 0, players - 1, "winner")
            cards = _ints(args[3], 0, MAX_CARD_ID, "cards", players)
            plays = tuple(((leader + i) % players, c) for i, c in enumerate(cards))
            return TrickWon(_int(args[0], 0, 19, "trick"), winner, plays)
        if kind == "bid":
            return BidMade(_int(args[0], 0, players - 1, "seat"), _int(args[1], 0, 20, "bid"))
        if kind == "trump":
            return TrumpChosen(
                _int(args[0], 0, players - 1, "seat"), Suit(_int(args[1], 0, 3, "s"))
            )
        if kind == "dealt":
            suit = _opt_int(args[3], 0, 3, "trump suit")
            return RoundDealt(
                _int(args[0], 1, MAX_ROUND, "round"),
                _int(args[1], 0, players - 1, "dealer"),
                _opt_int(args[2], 0, MAX_CARD_ID, "trump card"),
                None if suit is None else Suit(suit),
                args[4] if len(args) > 4 and type(args[4]) is bool else _wizard_turned(args[2]),
            )
        if kind == "scored":
            return RoundScored(
                _int(args[0], 1, MAX_ROUND, "round"),
                _ints(args[1], 0, 20, "bids", players),
                _ints(args[2], 0, 20, "tricks", players),
                _ints(args[3], -_BIG, _BIG, "points", players),
                _ints(args[4], -_BIG, _BIG, "totals", players),
            )
        if kind == "over":
            return GameOver(
                _ints(args[0], -_BIG, _BIG, "totals", players),
                _ints(args[1], 0, players - 1, "winners", players),
            )
        if kind in _SPECIAL_EVENTS:
            return _special_event(kind, args, players)
    except (IndexError, ValueError, TypeError) as exc:
        if isinstance(exc, ProtocolError):
            raise
        raise ProtocolError(BAD_MESSAGE, f"the host sent a malformed event: {exc!r:.80}") from None
    return None


_SPECIAL_EVENTS = frozenset(
    {"trump_named", "declared", "bid_adjusted", "passed", "swapped", "bombed"}
)


def _special_event(kind: str, args: list[Any], players: int) -> SpecialEvent:
    """One of the special cards' events (``_special_event_wire``), checked."""
    last = players - 1
    if kind == "trump_named":
        suit = _opt_int(args[2], 0, 3, "named suit")
        return TrumpNamed(
            _int(args[0], 0, last, "seat"),
            _int(args[1], 0, MAX_CARD_ID, "card taken"),
            None if suit is None else Suit(suit),
        )
    if kind == "declared":
        return Declared(
            _int(args[0], 0, last, "seat"),
            _int(args[1], 0, MAX_CARD_ID, "card"),
            _int(args[2], 0, max(Declaration), "declaration"),
        )
    if kind == "bid_adjusted":
        return BidAdjusted(_int(args[0], 0, last, "seat"), _int(args[1], 0, MAX_HAND, "bid"))
    if kind == "passed":
        return CardsPassed(_int(args[0], 0, MAX_HAND - 1, "trick"))
    if kind == "swapped":
        return CardSwapped(
            _int(args[0], 0, last, "seat"),
            _int(args[1], 0, MAX_HAND - 1, "trick"),
            _opt_int(args[2], 0, MAX_CARD_ID, "card given"),
            _opt_int(args[3], 0, MAX_CARD_ID, "card taken"),
        )
    first = _int(args[1], 0, last, "first seat")
    cards = _ints(args[3], 0, MAX_CARD_ID, "cards", players)
    return TrickBombed(
        _int(args[0], 0, MAX_HAND - 1, "trick"),
        _int(args[2], 0, last, "next leader"),
        tuple(((first + i) % players, c) for i, c in enumerate(cards)),
    )


def charges_from_wire(wire: Any, result: RoundResult) -> tuple[tuple[int, int, str], ...]:
    """A private round's ``charges`` (``round_end``): [attempt, seat, why] for each seat that
    paid for a void in it (docs/rules.md, "Voided deals"). Absent: nobody paid."""
    if wire is None:
        return ()
    n = len(result.points)
    _expect(
        type(wire) is list
        and len(wire) <= 64
        and all(
            type(c) is list
            and len(c) == 3
            and type(c[0]) is int
            and 0 <= c[0] <= 0xFFFF
            and type(c[1]) is int
            and 0 <= c[1] < n
            and c[2] in ("void", "unrevealed")
            for c in wire
        ),
        "charges",
    )
    return tuple((c[0], c[1], c[2]) for c in wire)
