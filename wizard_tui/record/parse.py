"""``parse_record``: untrusted JSON into a typed ``GameRecord``, or a ``RecordError`` that
names where the document is wrong."""

from __future__ import annotations

import json
from typing import Any

from netplay.errors import ProtocolError
from netplay.mental import PROTOCOL as PRIVATE_PROTOCOL
from netplay.mental import DealSetup
from netplay.signing import Envelope

from ..game import DECK_SIZE, PlayerAction, RulesError, Suit, TableRules, action_from_wire
from ..game.specials import Special, deck_cards
from ..i18n import N_
from ..phrase import Phrase, phrase
from .model import (
    CHARGE_REASONS,
    FORMAT,
    GAME_ID_BYTES,
    HASH_BYTES,
    PLAYER_KINDS,
    PROTOCOLS,
    SIGNING_KEY_BYTES,
    SUIT_NAMES,
    Charge,
    GameRecord,
    PlayerEntry,
    PrivateDealRecord,
    RecordedRound,
    RecordedTrick,
    RecordError,
    Redeal,
    StandIn,
    VerificationFailure,
)

_TOP_FIELDS = (
    "format",
    "game_id",
    "protocol",
    "players",
    "rules",
    "first_dealer",
    "rounds",
    "complete",
    "winners",
)
_ROUND_FIELDS = (
    "round",
    "dealer",
    "commitments",
    "seeds",
    "hands",
    "trump_card",
    "trump_suit",
    "bids",
    "tricks",
    "tricks_won",
    "points",
    "totals",
)
_PRIVATE_ROUND_FIELDS = tuple(
    "private_deal" if k == "commitments" else k for k in _ROUND_FIELDS if k != "seeds"
)
_EXTRA_TOP = ("redeals", "verification_failures")
_SPECIAL_ROUND_FIELDS = ("turned_card", "actions")  # a round of a game with special cards


class _Reader:
    """Typed access to untrusted JSON; every complaint names its JSON path and place."""

    def __init__(
        self, round_number: int | None = None, cards: frozenset[int] | None = None
    ) -> None:
        self.round = round_number
        # The card ids of the game's deck when it has special cards; None: the plain 0..59.
        self.cards = cards

    def fail(self, rule: str, detail: str | Phrase, **where: int | None) -> RecordError:
        return RecordError(rule, detail, round=where.pop("round", self.round), **where)

    def obj(self, value: object, path: str, **where: int | None) -> dict[str, Any]:
        if type(value) is not dict:
            raise self.fail(
                "wrong-type",
                phrase(
                    N_("{path} must be an object, found {kind}"),
                    path=_path(path),
                    kind=_kind(value),
                ),
                **where,
            )
        return value

    def get(self, obj: dict[str, Any], key: str, path: str, **where: int | None) -> Any:
        if key not in obj:
            said = phrase(N_("{path} has no field {key}"), path=_path(path), key=repr(key))
            raise self.fail("missing-field", said, **where)
        return obj[key]

    def integer(self, value: object, path: str, **where: int | None) -> int:
        if type(value) is not int:
            raise self.fail(
                "wrong-type",
                phrase(
                    N_("{path} must be an integer, found {value}"), path=path, value=_show(value)
                ),
                **where,
            )
        return value

    def seat(self, value: object, n: int, path: str, **where: int | None) -> int:
        seat = self.integer(value, path, **where)
        if not 0 <= seat < n:
            said = phrase(
                N_("{path} is {seat}, not a seat 0..{last}"), path=path, seat=seat, last=n - 1
            )
            raise self.fail("bad-value", said, **where)
        return seat

    def card(self, value: object, path: str, **where: int | None) -> int:
        card = self.integer(value, path, **where)
        if self.cards is not None:
            if card not in self.cards:
                specials = sorted(self.cards)[DECK_SIZE:]
                raise self.fail(
                    "bad-value",
                    phrase(
                        N_(
                            "{path} is {card}, not a card of this game's deck (0..{last} and its "
                            "special cards {specials})"
                        ),
                        path=path,
                        card=card,
                        last=DECK_SIZE - 1,
                        specials=str(specials),
                    ),
                    **where,
                )
        elif not 0 <= card < DECK_SIZE:
            raise self.fail(
                "bad-value",
                phrase(
                    N_("{path} is {card}, not a card id 0..{last}"),
                    path=path,
                    card=card,
                    last=DECK_SIZE - 1,
                ),
                **where,
            )
        return card

    def string(self, value: object, path: str, **where: int | None) -> str:
        if type(value) is not str:
            said = phrase(
                N_("{path} must be a string, found {value}"), path=path, value=_show(value)
            )
            raise self.fail("wrong-type", said, **where)
        return value

    def hexbytes(self, value: object, size: int, path: str, **where: int | None) -> bytes:
        text = self.string(value, path, **where)
        if len(text) != 2 * size or not all(c in "0123456789abcdefABCDEF" for c in text):
            raise self.fail(
                "bad-value",
                phrase(
                    N_("{path} must be {digits} hex digits, found {value}"),
                    path=path,
                    digits=2 * size,
                    value=_show(text),
                ),
                **where,
            )
        return bytes.fromhex(text)

    def array(
        self, value: object, path: str, length: int | None = None, **where: int | None
    ) -> list[Any]:
        if type(value) is not list:
            said = phrase(N_("{path} must be a list, found {kind}"), path=path, kind=_kind(value))
            raise self.fail("wrong-type", said, **where)
        if length is not None and len(value) != length:
            raise self.fail(
                "wrong-length",
                phrase(
                    N_("{path} has {got} entries, expected {length}"),
                    path=path,
                    got=len(value),
                    length=length,
                ),
                **where,
            )
        return value

    def per_seat(self, value: object, n: int, path: str) -> list[Any]:
        return self.array(value, path, n)


def parse_record(doc: object) -> GameRecord:
    """Check a decoded JSON value against the record format and return it typed.

    Checks shapes, types, hex lengths, enum values, per-seat list lengths and id ranges;
    not whether the game was played by the rules (``wizard_tui.verify`` does that).
    """
    rd = _Reader()
    top = rd.obj(doc, "the record")
    fmt = rd.get(top, "format", "the record")
    if fmt != FORMAT:
        said = phrase(N_("format is {got}, expected {want}"), got=_show(fmt), want=repr(FORMAT))
        raise RecordError("format", said)
    for key in _TOP_FIELDS:
        rd.get(top, key, "the record")
    protocol = top["protocol"]
    if protocol not in PROTOCOLS:
        expected = phrase(N_("{one} or {other}"), one=repr(PROTOCOLS[0]), other=repr(PROTOCOLS[1]))
        said = phrase(N_("protocol is {got}, expected {want}"), got=_show(protocol), want=expected)
        raise RecordError("protocol", said)
    private = protocol == PRIVATE_PROTOCOL
    game_id = rd.hexbytes(top["game_id"], GAME_ID_BYTES, "game_id")

    players_raw = rd.array(top["players"], "players")
    players = []
    for seat, raw in enumerate(players_raw):
        p = rd.obj(raw, f"players[{seat}]", seat=seat)
        name = rd.string(rd.get(p, "name", f"players[{seat}]", seat=seat), f"players[{seat}].name")
        kind = rd.get(p, "kind", f"players[{seat}]", seat=seat)
        if kind not in PLAYER_KINDS:
            raise RecordError(
                "bad-value",
                phrase(
                    N_("{path} is {value}, not human or bot"),
                    path=f"players[{seat}].kind",
                    value=_show(kind),
                ),
                seat=seat,
            )
        players.append(PlayerEntry(name, kind))
    n = len(players)
    if not 3 <= n <= 6:
        raise RecordError("players", phrase(N_("{n} players: Wizard is played by 3 to 6"), n=n))

    try:
        rules = TableRules.from_wire(rd.obj(top["rules"], "rules"), n)
    except RulesError as exc:
        raise RecordError("bad-value", f"rules: {exc}") from None

    first_dealer = rd.seat(top["first_dealer"], n, "first_dealer")
    signing_keys: tuple[bytes, ...] = ()
    if private:
        keys_raw = rd.per_seat(rd.get(top, "signing_keys", "the record"), n, "signing_keys")
        signing_keys = tuple(
            rd.hexbytes(k, SIGNING_KEY_BYTES, f"signing_keys[{s}]", seat=s)
            for s, k in enumerate(keys_raw)
        )
    rounds = tuple(
        _parse_round(raw, i, n, private, rules.specials)
        for i, raw in enumerate(rd.array(top["rounds"], "rounds"))
    )
    complete = top["complete"]
    if type(complete) is not bool:
        said = phrase(N_("complete must be true or false, found {value}"), value=_show(complete))
        raise RecordError("wrong-type", said)
    winners_raw = rd.array(top["winners"], "winners")
    winner_seats = tuple(rd.seat(w, n, f"winners[{i}]") for i, w in enumerate(winners_raw))

    redeals = _parse_redeals(top.get("redeals", []), n, private)
    failures = _parse_failures(top.get("verification_failures", []), n)
    stand_ins = _parse_stand_ins(top.get("stand_ins", []), n) if private else ()
    charges = parse_charges(top.get("charges", []), n) if private else ()
    private_top = ("signing_keys", "stand_ins", "charges")
    known = (*_TOP_FIELDS, *_EXTRA_TOP, *(private_top if private else ()))
    extra = {k: v for k, v in top.items() if k not in known}
    return GameRecord(
        game_id=game_id,
        players=tuple(players),
        rules=rules,
        first_dealer=first_dealer,
        rounds=rounds,
        complete=complete,
        winners=winner_seats,
        redeals=redeals,
        verification_failures=failures,
        extra=extra,
        protocol=protocol,
        signing_keys=signing_keys,
        stand_ins=stand_ins,
        charges=charges,
    )


def parse_charges(raw: object, n: int) -> tuple[Charge, ...]:
    rd = _Reader()
    out = []
    for i, entry in enumerate(rd.array(raw, "charges")):
        at = f"charges[{i}]"
        d = rd.obj(entry, at)
        for key in ("round", "attempt", "seat", "why"):
            rd.get(d, key, at)
        why = d["why"]
        if why not in CHARGE_REASONS:
            said = phrase(
                N_("{path} must be one of {values}"),
                path=f"{at}.why",
                values=str(list(CHARGE_REASONS)),
            )
            raise RecordError("wrong-type", said)
        out.append(
            Charge(
                rd.integer(d["round"], f"{at}.round"),
                rd.integer(d["attempt"], f"{at}.attempt"),
                rd.seat(d["seat"], n, f"{at}.seat"),
                why,
            )
        )
    return tuple(out)


def _parse_stand_ins(raw: object, n: int) -> tuple[StandIn, ...]:
    rd = _Reader()
    out = []
    for i, entry in enumerate(rd.array(raw, "stand_ins")):
        at = f"stand_ins[{i}]"
        d = rd.obj(entry, at)
        for key in ("round", "attempt", "seat", "key"):
            rd.get(d, key, at)
        key_hex = d["key"]
        out.append(
            StandIn(
                rd.integer(d["round"], f"{at}.round"),
                rd.integer(d["attempt"], f"{at}.attempt"),
                rd.seat(d["seat"], n, f"{at}.seat"),
                None if key_hex is None else rd.hexbytes(key_hex, SIGNING_KEY_BYTES, f"{at}.key"),
            )
        )
    return tuple(out)


def _parse_round(
    raw: object,
    index: int,
    n: int,
    private: bool = False,
    specials: frozenset[Special] = frozenset(),
) -> RecordedRound:
    at = f"rounds[{index}]"
    cards = frozenset(deck_cards(specials)) if specials else None
    rd = _Reader(index + 1, cards)  # failures name the round by its position in the list
    r = rd.obj(raw, at)
    fields = _PRIVATE_ROUND_FIELDS if private else _ROUND_FIELDS
    if specials:  # docs/record-format.md, "Games with special cards"
        fields = (*fields, *_SPECIAL_ROUND_FIELDS)
    for key in fields:
        rd.get(r, key, at)
    number = rd.integer(r["round"], f"{at}.round")
    dealer = rd.seat(r["dealer"], n, f"{at}.dealer")

    def seat_list(key: str) -> list[Any]:
        return rd.per_seat(r[key], n, f"{at}.{key}")

    commitments: tuple[bytes, ...] = ()
    seeds: tuple[bytes, ...] = ()
    private_deal = None
    if private:
        private_deal = _parse_private_deal(rd, r["private_deal"], f"{at}.private_deal")
    else:
        commitments = tuple(
            rd.hexbytes(c, HASH_BYTES, f"{at}.commitments[{s}]", seat=s)
            for s, c in enumerate(seat_list("commitments"))
        )
        seeds = tuple(
            rd.hexbytes(c, HASH_BYTES, f"{at}.seeds[{s}]", seat=s)
            for s, c in enumerate(seat_list("seeds"))
        )
    hands = tuple(
        tuple(
            rd.card(c, f"{at}.hands[{s}][{k}]", seat=s)
            for k, c in enumerate(rd.array(h, f"{at}.hands[{s}]", seat=s))
        )
        for s, h in enumerate(seat_list("hands"))
    )
    trump_card = None if r["trump_card"] is None else rd.card(r["trump_card"], f"{at}.trump_card")
    suit_raw = r["trump_suit"]
    if suit_raw is None:
        trump_suit = None
    elif suit_raw in SUIT_NAMES:
        trump_suit = Suit(SUIT_NAMES.index(suit_raw))
    else:
        raise rd.fail(
            "bad-value",
            phrase(
                N_("{path} is {value}, not one of {suits} or null"),
                path=f"{at}.trump_suit",
                value=_show(suit_raw),
                suits=", ".join(SUIT_NAMES),
            ),
        )

    def ints(key: str) -> tuple[int, ...]:
        return tuple(
            rd.integer(v, f"{at}.{key}[{s}]", seat=s) for s, v in enumerate(seat_list(key))
        )

    bids = ints("bids")
    tricks = []
    for t, raw_trick in enumerate(rd.array(r["tricks"], f"{at}.tricks")):
        tat = f"{at}.tricks[{t}]"
        trick = rd.obj(raw_trick, tat, trick=t + 1)
        leader = rd.seat(rd.get(trick, "leader", tat, trick=t + 1), n, f"{tat}.leader", trick=t + 1)
        plays = []
        for k, play in enumerate(
            rd.array(rd.get(trick, "plays", tat, trick=t + 1), f"{tat}.plays")
        ):
            pat = f"{tat}.plays[{k}]"
            pair = rd.array(play, pat, 2, trick=t + 1)
            seat = rd.seat(pair[0], n, f"{pat}[0]", trick=t + 1)
            plays.append((seat, rd.card(pair[1], f"{pat}[1]", trick=t + 1, seat=seat)))
        winner = rd.seat(rd.get(trick, "winner", tat, trick=t + 1), n, f"{tat}.winner", trick=t + 1)
        bombed = False
        if specials and "bombed" in trick:
            if trick["bombed"] is not True:
                said = phrase(N_("{path}.bombed must be true when present"), path=tat)
                raise rd.fail("wrong-type", said, trick=t + 1)
            bombed = True
        tricks.append(RecordedTrick(leader, tuple(plays), winner, bombed))
    turned_card: int | None = None
    actions: tuple[PlayerAction, ...] | None = None
    if specials:
        turned_card = rd.card(r["turned_card"], f"{at}.turned_card")
        actions = _parse_actions(rd, r["actions"], f"{at}.actions", n)
    return RecordedRound(
        round=number,
        dealer=dealer,
        commitments=commitments,
        seeds=seeds,
        hands=hands,
        trump_card=trump_card,
        trump_suit=trump_suit,
        bids=bids,
        tricks=tuple(tricks),
        tricks_won=ints("tricks_won"),
        points=ints("points"),
        totals=ints("totals"),
        extra={k: v for k, v in r.items() if k not in fields},
        private_deal=private_deal,
        turned_card=turned_card,
        actions=actions,
    )


def _parse_actions(rd: _Reader, raw: object, at: str, n: int) -> tuple[PlayerAction, ...]:
    """A special round's ``actions``: each ``[kind, seat, value]`` of the action codec, its
    seat a seat and its value of the kind's type. Whether each was legal is ``verify``'s."""
    out = []
    for k, item in enumerate(rd.array(raw, at)):
        iat = f"{at}[{k}]"
        wire = rd.array(item, iat, 3)
        kind = rd.string(wire[0], f"{iat}[0]")
        seat = rd.seat(wire[1], n, f"{iat}[1]")
        value = wire[2]
        if kind == "swap" and value is not None:
            pair = rd.array(value, f"{iat}[2]", 2, seat=seat)
            for v in pair:
                rd.integer(v, f"{iat}[2]", seat=seat)
        elif kind in _ACTION_KINDS:
            rd.integer(value, f"{iat}[2]", seat=seat)
        try:
            out.append(action_from_wire(wire))
        except ValueError as exc:
            said = phrase(N_("{path} is not an action: {why}"), path=iat, why=str(exc))
            raise rd.fail("bad-value", said, seat=seat) from None
    return tuple(out)


_ACTION_KINDS = ("trump", "name_trump", "bid", "play", "declare", "adjust_bid", "pass_card")


def _parse_private_deal(rd: _Reader, raw: object, at: str) -> PrivateDealRecord:
    """``private_deal``: the setup (checked for shape here, against the game by
    ``verify``) and the envelopes (their signatures are ``verify``'s too)."""
    deal = rd.obj(raw, at)
    setup_raw = rd.obj(rd.get(deal, "setup", at), f"{at}.setup")
    try:
        setup = DealSetup.from_json(setup_raw)
    except ProtocolError as exc:
        raise rd.fail("bad-value", f"{at}.setup: {exc.message}") from None
    envelopes = []
    for i, env in enumerate(rd.array(rd.get(deal, "envelopes", at), f"{at}.envelopes")):
        try:
            envelopes.append(Envelope.from_json(env))
        except ProtocolError as exc:
            raise rd.fail("bad-value", f"{at}.envelopes[{i}]: {exc.message}") from None
    return PrivateDealRecord(setup, tuple(envelopes))


def _parse_redeals(raw: object, n: int, private: bool = False) -> tuple[Redeal, ...]:
    rd = _Reader()
    out = []
    for i, entry in enumerate(rd.array(raw, "redeals")):
        at = f"redeals[{i}]"
        d = rd.obj(entry, at)
        if private:
            out.append(_parse_private_redeal(rd, d, at, n))
            continue
        for key in ("round", "attempt", "reason", "commitments", "seeds"):
            rd.get(d, key, at)
        round_number = rd.integer(d["round"], f"{at}.round")
        commitments = tuple(
            rd.hexbytes(c, HASH_BYTES, f"{at}.commitments[{s}]", round=round_number, seat=s)
            for s, c in enumerate(rd.array(d["commitments"], f"{at}.commitments", n))
        )
        seeds = tuple(
            None
            if s is None
            else rd.hexbytes(s, HASH_BYTES, f"{at}.seeds[{k}]", round=round_number, seat=k)
            for k, s in enumerate(rd.array(d["seeds"], f"{at}.seeds", n))
        )
        out.append(
            Redeal(
                round_number,
                rd.integer(d["attempt"], f"{at}.attempt"),
                rd.string(d["reason"], f"{at}.reason"),
                commitments,
                seeds,
            )
        )
    return tuple(out)


# The actions a voided private attempt records: its trump choice and bids; with special cards
# every action in order, the plays, declarations, Cloud's changes, Juggler's passes and
# Witch's swaps among them. ``verify`` checks which the rules allow.
_REDEAL_ACTIONS = (
    "trump",
    "name_trump",
    "bid",
    "play",
    "declare",
    "adjust_bid",
    "pass_card",
    "swap",
)


def _parse_private_redeal(rd: _Reader, d: dict[str, Any], at: str, n: int) -> Redeal:
    """A voided attempt of a private deal (docs/private-deal.md section 11)."""
    for key in ("round", "attempt", "reason", "private_deal", "fault", "culprit"):
        rd.get(d, key, at)
    round_number = rd.integer(d["round"], f"{at}.round")
    fault = d["fault"]
    if fault is not None:
        fault = rd.string(fault, f"{at}.fault")
    culprit = d["culprit"]
    if culprit is not None:
        culprit = rd.integer(culprit, f"{at}.culprit")
        if not -1 <= culprit < n:
            said = phrase(
                N_("{path} is {value}: a seat, or -1 (the relay)"),
                path=f"{at}.culprit",
                value=culprit,
            )
            raise rd.fail("bad-value", said)
    evidence = None
    if d.get("evidence") is not None:
        try:
            evidence = Envelope.from_json(d["evidence"])
        except ProtocolError as exc:
            raise rd.fail("bad-value", f"{at}.evidence: {exc.message}") from None
    actions = []
    for k, raw in enumerate(rd.array(d.get("actions", []), f"{at}.actions")):
        item = rd.array(raw, f"{at}.actions[{k}]")
        if len(item) != 3 or item[0] not in _REDEAL_ACTIONS:
            said = phrase(
                N_(
                    "{path} is not [trump|name_trump|bid|play|declare|adjust_bid|pass_card|"
                    "swap, seat, value]"
                ),
                path=f"{at}.actions[{k}]",
            )
            raise rd.fail("bad-value", said)
        seat = rd.seat(item[1], n, f"{at}.actions[{k}][1]")
        value: int | tuple[int, int] | None
        if item[0] != "swap":
            value = rd.integer(item[2], f"{at}.actions[{k}][2]")
        elif item[2] is None:
            value = None  # a kept hand
        else:
            pair = rd.array(item[2], f"{at}.actions[{k}][2]")
            if len(pair) != 2:
                said = phrase(N_("{path} is not [give, take]"), path=f"{at}.actions[{k}][2]")
                raise rd.fail("bad-value", said)
            value = (
                rd.integer(pair[0], f"{at}.actions[{k}][2][0]"),
                rd.integer(pair[1], f"{at}.actions[{k}][2][1]"),
            )
        actions.append((item[0], seat, value))
    return Redeal(
        round_number,
        rd.integer(d["attempt"], f"{at}.attempt"),
        rd.string(d["reason"], f"{at}.reason"),
        private_deal=_parse_private_deal(rd, d["private_deal"], f"{at}.private_deal"),
        fault=fault,
        culprit=culprit,
        evidence=evidence,
        actions=tuple(actions),
    )


def parse_round_part(
    doc: object, n: int, private: bool, specials: frozenset[Special] = frozenset()
) -> tuple[tuple[Redeal, ...], RecordedRound | None]:
    """One round of a record as a host publishes it to a player (``{"round", "redeals",
    "played"}``: the round's voided attempts and the round itself, in the record's JSON
    form; docs/record-format.md, "A player's own record"). ``specials``: the game's special
    cards (its ``rules.specials``), whose rounds hold their actions. ``RecordError`` if
    malformed."""
    rd = _Reader()
    part = rd.obj(doc, "the round part")
    number = rd.integer(rd.get(part, "round", "the round part"), "round")
    redeals = _parse_redeals(rd.get(part, "redeals", "the round part"), n, private)
    played_raw = rd.get(part, "played", "the round part")
    played = (
        None if played_raw is None else _parse_round(played_raw, number - 1, n, private, specials)
    )
    if any(d.round != number for d in redeals) or (played is not None and played.round != number):
        said = phrase(N_("a part of round {round} holds another round"), round=number)
        raise RecordError("round-number", said)
    return redeals, played


def _parse_failures(raw: object, n: int) -> tuple[VerificationFailure, ...]:
    rd = _Reader()
    out = []
    for i, entry in enumerate(rd.array(raw, "verification_failures")):
        at = f"verification_failures[{i}]"
        f = rd.obj(entry, at)
        for key in ("round", "seat", "detail"):
            rd.get(f, key, at)
        seat = None if f["seat"] is None else rd.seat(f["seat"], n, f"{at}.seat")
        out.append(
            VerificationFailure(
                rd.integer(f["round"], f"{at}.round"), seat, rd.string(f["detail"], f"{at}.detail")
            )
        )
    return tuple(out)


def _kind(value: object) -> str | Phrase:
    names = {dict: N_("an object"), list: N_("a list"), str: N_("a string"), bool: N_("a boolean")}
    if value is None:
        return "null"
    if type(value) in names:
        return phrase(names[type(value)])
    return (
        phrase(N_("the number {value}"), value=repr(value)) if type(value) in (int, float) else "?"
    )


def _path(path: str) -> str | Phrase:
    """A JSON path as it is; the document itself in words."""
    return phrase(N_("the record")) if path == "the record" else path


def _show(value: object) -> str:
    """A short, safe rendering of an unexpected value for an error message."""
    text = json.dumps(value, ensure_ascii=True) if _jsonable(value) else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _jsonable(value: object) -> bool:
    try:
        json.dumps(value)
    except (TypeError, ValueError):
        return False
    return True
