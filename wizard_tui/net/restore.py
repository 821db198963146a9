"""Rebuilding a host's table from its journal, exactly as it was when the host died.

The host writes one journal entry (``wizard_tui.net.journal``) for every event it accepts,
before it tells anyone about it; this module reads them back. The entries, each a msgpack
map (``bin`` is raw bytes, ``r`` a round number):

=============  ==========================================================================
``game``       first entry: ``v`` (1), ``game_id`` bin 16, ``created`` (unix time),
               ``config`` {``players``, ``first_dealer``, ``restrict``}, ``seats`` [one per
               seat: {``name``, ``kind``, ``level`` (bots), ``session`` {``id``, ``token``,
               ``key`` bin 32} or nil}], ``host`` {``bind``, ``port``, ``records_dir``,
               ``bot_level``, ``bot_delay``, ``takeover_after``, ``password`` (bool: the
               room had one; the password itself is not kept)}
``round``      a round's deal begins: ``round``, ``local`` [[seat, seed bin 32], ...] (the
               seeds the host drew: its bots' and stood-in seats')
``commit``     a remote seat's commitment was accepted: ``round``, ``seat``, ``commitment``
``commitments``  the vector was published: ``round``, ``commitments`` [bin 32]
``seed``       a remote seat's seed was accepted: ``round``, ``seat``, ``seed``
``action``     an accepted action: ``round``, ``a`` (``trump`` | ``bid`` | ``play``),
               ``seat``, ``v`` (suit, bid or card), ``by`` (``human`` | ``bot`` |
               ``stand_in``)
``round_end``  a round was scored: ``round``, ``totals``
``redeal``     the round's deal was thrown away (a seat that had to reveal was taken over):
               ``round``, ``reason``, ``commitments`` (nil if never published),
               ``seeds`` [bin | nil]; a new ``round`` entry follows
``game_over``  ``totals``, ``winners``: written when the host closes after the end (so a
               host that died before everyone heard the end is resumed to tell them)
=============  ==========================================================================

A privately dealt game (``docs/private-deal.md``) has ``deal`` ``"private"`` in its ``game``
entry (absent: commit-reveal) and ``private`` {``signing_keys`` [bin 32 per seat],
``bot_keys`` [[seat, the host bot's Ed25519 private key bin 32], ...]}; its other entries:

=================  ======================================================================
``attempt``        an attempt of a round is dealt: ``round``, ``attempt``, ``keys`` (the
                   signing keys it uses: a stand-in's differ from the game's)
``void``           the attempt was voided: ``round``, ``attempt``, ``reason``, ``fault``,
                   ``culprit``, ``evidence`` (envelope or nil), ``actions``, ``envelopes``
                   (the record's fields of the voided attempt)
``charge``         a seat pays for a void (docs/rules.md, "Voided deals"): ``round``,
                   ``attempt``, ``seat``, ``why`` (``void`` | ``unrevealed``)
``private_round``  the attempt was verified and scored: ``round``, ``attempt``, ``deck``
                   (the opened deck, in deal order), ``actions`` [[kind, seat, value]],
                   ``envelopes`` (its transcript, as recorded)
``game_over``      as above
=================  ======================================================================

Its plays are not journaled one by one: nobody but the players holds the keys of a round
in progress, so a restored host voids that round and deals it again (``lost_keys``).

The deck itself is never journaled: once every seed of a round is in, it follows from them
(``docs/fairness.md``), and the replay deals it the same way the host did. ``replay`` is
pure (no I/O); ``restore_host`` turns a journal into a ``WizardHost`` whose seats wait for
their players to come back (bots re-created by level), whose game, round in progress
(commitments, seeds received, bot seeds) and record are what they were.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from netplay import Session
from netplay.commit_reveal import CommitRevealError, HostRound
from netplay.errors import ProtocolError
from netplay.fairdeal import shuffle_order
from netplay.signing import Envelope, SigningKey

from ..bots import make_bot
from ..game import (
    Bid,
    ChooseTrump,
    Deal,
    Game,
    GameConfig,
    IllegalAction,
    Phase,
    Play,
    RestrictLastBid,
    RoundScored,
    Suit,
)
from ..game.hidden import HiddenGame, Revoke
from ..private_deal import round_setup
from ..record import (
    PRIVATE_PROTOCOL,
    UNREVEALED,
    VOIDED,
    GameRecorder,
    PlayerEntry,
    record_filename,
)
from . import protocol as p
from .host import HostOptions, RoundDeal, Seat, WizardHost, _Table
from .journal import JournalContents, JournalWriter, read_journal

VERSION = 1


class RestoreError(Exception):
    """A journal that does not replay: damaged beyond its last entry, or not this version."""


@dataclass(frozen=True, slots=True)
class SeatEntry:
    name: str
    kind: str  # "human" | "bot"
    level: str | None = None  # bots
    session_id: str | None = None  # humans: what their client resumes with
    token: str | None = None
    key: bytes = b""


@dataclass(frozen=True, slots=True)
class GameHeader:
    game_id: bytes
    created: float
    config: GameConfig
    seats: tuple[SeatEntry, ...]
    bind: str = ""
    port: int = 0
    records_dir: str | None = None
    bot_level: str = "normal"
    bot_delay: float = 0.0
    takeover_after: float | None = None
    password: bool = False
    deal: str = p.DEAL_COMMIT_REVEAL
    turn_time: float | None = None  # (HostOptions.turn_time; absent from older journals)
    signing_keys: tuple[bytes, ...] = ()  # private deal: every seat's public key
    bot_keys: dict[int, bytes] = field(default_factory=dict)  # its host bots' private keys

    @property
    def players(self) -> tuple[PlayerEntry, ...]:
        return tuple(PlayerEntry(s.name, s.kind) for s in self.seats)  # type: ignore[arg-type]


@dataclass
class Replayed:
    """Everything the journal says about a game, rebuilt through the engine."""

    header: GameHeader
    game: Game
    recorder: GameRecorder
    history_wire: list[dict[str, Any]] = field(default_factory=list)
    deal: RoundDeal | None = None
    finished: bool = False  # a ``game_over`` entry was written
    rounds_started: int = 0
    # Private deal: the attempt in progress (round, attempt, signing keys), which the
    # restored host voids; the number of the next attempt of the round; the keys last used.
    attempt: tuple[int, int, tuple[bytes, ...]] | None = None
    next_attempt: int = 0
    keys_in_use: tuple[bytes, ...] = ()


# --------------------------------------------------------------------------- writing


def game_entry(
    game_id: bytes,
    created: float,
    config: GameConfig,
    seats: Sequence[Seat],
    options: HostOptions,
    bot_levels: Sequence[str | None],
    signing_keys: Sequence[bytes] = (),
    bot_signers: dict[int, SigningKey] | None = None,
) -> dict[str, Any]:
    """The first entry of a journal: who sits where, and how their clients resume; for a
    private deal, every seat's signing key and the host bots' private keys (the host's
    own secrets, like its identity key: a restored bot must sign as before)."""
    seat_entries: list[dict[str, Any]] = []
    for seat, level in zip(seats, bot_levels, strict=True):
        entry: dict[str, Any] = {"name": seat.name, "kind": seat.kind}
        if seat.kind == "bot":
            entry["level"] = level or options.bot_level
        session = seat.session
        if session is not None and session.key:
            entry["session"] = {"id": session.id, "token": session.token, "key": session.key}
        seat_entries.append(entry)
    game: dict[str, Any] = {
        "t": "game",
        "v": VERSION,
        "game_id": game_id,
        "created": created,
        "config": {
            "players": config.players,
            "first_dealer": config.first_dealer,
            "restrict": config.restrict_last_bid.value,
        },
        "seats": seat_entries,
        "host": {
            "bind": options.bind,
            "port": options.port,
            "records_dir": None if options.records_dir is None else str(options.records_dir),
            "bot_level": options.bot_level,
            "bot_delay": options.bot_delay,
            "takeover_after": options.takeover_after,
            "password": options.password,
            "turn_time": options.turn_time,
        },
    }
    if options.deal == p.DEAL_PRIVATE:  # (a commit-reveal entry is as it always was)
        game["deal"] = p.DEAL_PRIVATE
        game["private"] = {
            "signing_keys": list(signing_keys),
            "bot_keys": [[i, k.private_bytes()] for i, k in sorted((bot_signers or {}).items())],
        }
    return game


# --------------------------------------------------------------------------- reading


def parse_header(entry: dict[str, Any]) -> GameHeader:
    """The ``game`` entry as a ``GameHeader``; ``RestoreError`` if it is not one."""
    try:
        if entry["t"] != "game":
            raise RestoreError("the journal does not start with its game")
        if entry["v"] != VERSION:
            raise RestoreError(f"journal version {entry['v']} (this program reads {VERSION})")
        c = entry["config"]
        config = GameConfig(c["players"], c["first_dealer"], RestrictLastBid(c["restrict"]))
        seats = []
        for s in entry["seats"]:
            session = s.get("session") or {}
            seats.append(
                SeatEntry(
                    name=str(s["name"]),
                    kind=s["kind"],
                    level=s.get("level"),
                    session_id=session.get("id"),
                    token=session.get("token"),
                    key=bytes(session.get("key", b"")),
                )
            )
        if len(seats) != config.players:
            raise RestoreError(f"{len(seats)} seats for {config.players} players")
        h = entry["host"]
        game_id = entry["game_id"]
        if type(game_id) is not bytes or len(game_id) != 16:
            raise RestoreError("the game id is not 16 bytes")
        deal = entry.get("deal", p.DEAL_COMMIT_REVEAL)
        if deal not in p.DEALS:
            raise RestoreError(f"the journal's deal {deal!r} is unknown")
        keys: tuple[bytes, ...] = ()
        bot_keys: dict[int, bytes] = {}
        if deal == p.DEAL_PRIVATE:
            keys, bot_keys = _private_keys(entry["private"], config.players)
        return GameHeader(
            game_id=game_id,
            created=float(entry["created"]),
            config=config,
            seats=tuple(seats),
            bind=str(h.get("bind") or ""),
            port=int(h.get("port") or 0),
            records_dir=h.get("records_dir"),
            bot_level=str(h.get("bot_level") or "normal"),
            bot_delay=float(h.get("bot_delay") or 0.0),
            takeover_after=h.get("takeover_after"),
            password=bool(h.get("password")),
            turn_time=None if h.get("turn_time") is None else float(h["turn_time"]),
            deal=deal,
            signing_keys=keys,
            bot_keys=bot_keys,
        )
    except (KeyError, TypeError, ValueError) as exc:
        raise RestoreError(f"the journal's game entry is malformed: {exc!r}") from None


def _private_keys(raw: dict[str, Any], players: int) -> tuple[tuple[bytes, ...], dict[int, bytes]]:
    keys = tuple(bytes(k) for k in raw["signing_keys"])
    if len(keys) != players or any(len(k) != 32 for k in keys):
        raise ValueError("the signing keys are not 32 bytes per seat")
    bot_keys = {int(seat): bytes(k) for seat, k in raw["bot_keys"]}
    for seat, k in bot_keys.items():
        if not 0 <= seat < players or SigningKey.from_private_bytes(k).public_key != keys[seat]:
            raise ValueError(f"the bot key of seat {seat} is not its signing key")
    return keys, bot_keys


def replay(entries: Sequence[dict[str, Any]]) -> Replayed:
    """Rebuild the game the entries describe, checking each one against the engine and the
    commit-reveal exchange (or, for a private deal, the record) as the host did when it
    accepted it."""
    if not entries:
        raise RestoreError("the journal is empty")
    header = parse_header(entries[0])
    if header.deal == p.DEAL_PRIVATE:
        recorder = GameRecorder(
            header.game_id,
            header.players,
            header.config,
            protocol=PRIVATE_PROTOCOL,
            signing_keys=header.signing_keys,
        )
        game: Any = HiddenGame(header.config)
        apply = _apply_private
    else:
        recorder = GameRecorder(header.game_id, header.players, header.config)
        game, apply = Game(header.config), _apply
    state = Replayed(header, game, recorder, keys_in_use=header.signing_keys)
    for index, entry in enumerate(entries[1:], start=2):
        try:
            apply(state, entry)
        except (
            KeyError,
            TypeError,
            ValueError,
            IllegalAction,
            CommitRevealError,
            ProtocolError,
            Revoke,
        ) as exc:
            what = getattr(exc, "message", None) or repr(exc)
            raise RestoreError(
                f"journal entry {index} ({entry.get('t')}) does not replay: {what}"
            ) from None
    return state


def _apply(state: Replayed, e: dict[str, Any]) -> None:
    t = e["t"]
    game = state.game
    deal = state.deal
    if t == "round":
        r = e["round"]
        if game.phase is not Phase.DEAL or r != game.round + 1:
            raise ValueError(f"round {r} begins while round {game.round} is {game.phase}")
        local = {int(seat): bytes(seed) for seat, seed in e["local"]}
        state.deal = RoundDeal(HostRound(state.header.game_id, r, game.players, local))
        state.rounds_started = r
    elif t in ("commit", "commitments", "seed", "redeal"):
        if deal is None or deal.exchange.round != e["round"]:
            raise ValueError(f"no deal of round {e['round']} is in progress")
        if t == "commit":
            deal.exchange.add_commitment(e["seat"], bytes(e["commitment"]))
        elif t == "commitments":
            deal.commitments = deal.exchange.publish_commitments()
            if deal.commitments != [bytes(c) for c in e["commitments"]]:
                raise ValueError("the published commitments differ from the ones received")
            _maybe_deal(state)
        elif t == "seed":
            deal.exchange.add_seed(e["seat"], bytes(e["seed"]))
            _maybe_deal(state)
        else:
            if deal.seeds is not None:
                raise ValueError("a dealt round cannot be redealt")
            if e["commitments"] is not None:
                state.recorder.add_redeal(
                    e["round"],
                    [bytes(c) for c in e["commitments"]],
                    [None if s is None else bytes(s) for s in e["seeds"]],
                    str(e["reason"]),
                )
            state.deal = None
    elif t == "action":
        if deal is None or deal.seeds is None or e["round"] != game.round:
            raise ValueError(f"an action of round {e['round']} outside its round")
        seat, value = e["seat"], e["v"]
        kind = e["a"]
        if kind == "play":
            action: Bid | Play | ChooseTrump = Play(seat, value)
        elif kind == "bid":
            action = Bid(seat, value)
        elif kind == "trump":
            action = ChooseTrump(seat, Suit(value))
        else:
            raise ValueError(f"unknown action {kind!r}")
        for event in game.apply(action):
            if isinstance(event, RoundScored):
                result = game.results[-1]
                assert deal.commitments is not None
                state.recorder.add_round(result, deal.commitments, deal.seeds)
                state.history_wire.append(round_wire(result, deal.commitments, deal.seeds))
                state.deal = None
    elif t == "round_end":
        if len(game.results) != e["round"] or list(game.totals) != list(e["totals"]):
            raise ValueError(f"round {e['round']} ended differently")
    elif t == "game_over":
        if not game.is_over or list(game.totals) != list(e["totals"]):
            raise ValueError("the game ended differently")
        state.finished = True
    else:
        raise ValueError(f"unknown entry {t!r}")


def _apply_private(state: Replayed, e: dict[str, Any]) -> None:
    """One entry of a privately dealt game (see the module docstring)."""
    t = e["t"]
    game: HiddenGame = state.game  # type: ignore[assignment]
    if t == "game_over":
        if not game.is_over or list(game.totals) != list(e["totals"]):
            raise ValueError("the game ended differently")
        state.finished = True
        return
    r, attempt = e["round"], e["attempt"]
    if t == "charge":  # a seat paid for a void (private_host.py): before the round's score
        if r != game.full.round + 1 or e["why"] not in (VOIDED, UNREVEALED):
            raise ValueError(f"a charge in round {r} after round {game.full.round}")
        game.charge(int(e["seat"]))
        state.recorder.add_charge(r, attempt, int(e["seat"]), e["why"])
        return
    if t == "attempt":
        if game.phase is not Phase.DEAL or r != game.full.round + 1:
            raise ValueError(f"round {r} is dealt after round {game.full.round}")
        if state.attempt is not None or attempt != state.next_attempt:
            raise ValueError(f"attempt {attempt} of round {r} follows no attempt")
        keys = tuple(bytes(k) for k in e["keys"])
        _record_key_changes(state, r, attempt, keys)
        state.attempt = (r, attempt, keys)
        state.rounds_started = r
        return
    if state.attempt is None or state.attempt[:2] != (r, attempt):
        raise ValueError(f"no attempt {attempt} of round {r} is in progress")
    setup = _setup(state, r, attempt, state.attempt[2])
    envelopes = [Envelope.from_wire(w) for w in e["envelopes"]]
    if t == "void":
        evidence = None if e["evidence"] is None else Envelope.from_wire(e["evidence"])
        state.recorder.add_private_redeal(
            r,
            setup,
            envelopes,
            str(e["reason"]),
            fault=e["fault"],
            culprit=e["culprit"],
            evidence=evidence,
            actions=e["actions"],
        )
        state.next_attempt = attempt + 1
    elif t == "private_round":
        result = game.restore_round(e["deck"], [_action(a) for a in e["actions"]])
        state.recorder.add_private_round(result, setup, envelopes)
        state.history_wire.append(p.result_wire(result, None))
        state.next_attempt = 0
    else:
        raise ValueError(f"unknown entry {t!r}")
    state.attempt = None


def _record_key_changes(state: Replayed, r: int, attempt: int, keys: tuple[bytes, ...]) -> None:
    """What ``PrivateDealing.start_round`` records when a seat's key changes (stand-ins)."""
    own = state.header.signing_keys
    for seat, (old, new) in enumerate(zip(state.keys_in_use, keys, strict=True)):
        if old != new:
            state.recorder.add_stand_in(r, attempt, seat, None if new == own[seat] else new)
    state.keys_in_use = keys


def _setup(state: Replayed, r: int, attempt: int, keys: Sequence[bytes]) -> Any:
    game: HiddenGame = state.game  # type: ignore[assignment]
    dealer = (game.full.dealer + 1) % game.players
    return round_setup(state.header.game_id, r, game.players, dealer, keys, attempt)


def actions_wire(actions: Sequence[Bid | Play | ChooseTrump]) -> list[list[Any]]:
    """A round's actions as ``private_round`` entries keep them: [kind, seat, value]."""
    out: list[list[Any]] = []
    for a in actions:
        if isinstance(a, Play):
            out.append(["play", a.seat, a.card])
        elif isinstance(a, Bid):
            out.append(["bid", a.seat, a.bid])
        else:
            out.append(["trump", a.seat, int(a.suit)])
    return out


def _action(wire: Sequence[Any]) -> Bid | Play | ChooseTrump:
    kind, seat, value = wire
    if kind == "play":
        return Play(seat, value)
    if kind == "bid":
        return Bid(seat, value)
    if kind == "trump":
        return ChooseTrump(seat, Suit(value))
    raise ValueError(f"unknown action {kind!r}")


def _maybe_deal(state: Replayed) -> None:
    """What ``WizardHost._advance_deal`` does once the last seed is in: deal."""
    deal = state.deal
    assert deal is not None
    exchange = deal.exchange
    if deal.commitments is not None and deal.seeds is None and not exchange.missing_seeds():
        deal.seeds = exchange.seeds()
        state.game.apply(Deal(tuple(shuffle_order(exchange.combined_seed(), 60))))


def round_wire(result: Any, commitments: Sequence[bytes], seeds: Sequence[bytes]) -> dict[str, Any]:
    """A finished round as the host publishes it: the seeds, and the commitments they open
    (a client that was away during the round checks them with those)."""
    wire = p.result_wire(result, list(seeds))
    wire["commitments"] = list(commitments)
    return wire


# --------------------------------------------------------------------------- the host


def restore_host(
    contents: JournalContents | Path,
    options: HostOptions,
    *,
    rng: random.Random | None = None,
    host_cls: type[WizardHost] = WizardHost,
) -> WizardHost:
    """A host holding the journal's game as it was, appending to the same journal.

    ``options`` gives what the command line may change (records directory, bot delay,
    takeover grace, addresses); the seats, the rules and the game come from the journal.
    Call ``WizardHost.adopt_sessions`` once its server exists, so players can resume.
    """
    if not isinstance(contents, JournalContents):
        contents = read_journal(contents)
    state = replay(contents.entries)
    header = state.header
    options.players = header.config.players
    options.bots = 0
    options.auto_start = False
    options.restrict_last_bid = header.config.restrict_last_bid
    options.bot_level = header.bot_level
    options.deal = header.deal
    host = host_cls(options, rng=rng)
    host_rng = host._rng
    seats: list[Seat | None] = []
    for i, entry in enumerate(header.seats):
        if entry.kind == "bot":
            level = entry.level or header.bot_level
            bot = make_bot(level, random.Random(host_rng.getrandbits(64)))
            seats.append(Seat(entry.name, "bot", bot=bot, level=level))
            continue
        session = None
        if entry.session_id is not None and entry.token is not None and entry.key:
            session = Session(
                id=entry.session_id, name=entry.name, token=entry.token, seat=i, key=entry.key
            )
            session.reason = "host restarted"
        seats.append(Seat(entry.name, "human", session))
        if header.signing_keys:
            seats[-1].signing_key = header.signing_keys[i]  # type: ignore[union-attr]
    host.seats = seats
    if host.private is not None:
        signers = {seat: SigningKey.from_private_bytes(k) for seat, k in header.bot_keys.items()}
        host.private.restore(header.signing_keys, signers, state.keys_in_use)
    table = _Table(state.game, header.game_id, state.recorder)
    table.deal = state.deal
    table.finished = state.finished
    table.history_wire = state.history_wire
    table.created = header.created
    host.table = table
    host.journal = None if state.finished else JournalWriter.reopen(contents)
    host.restored = state
    if options.records_dir is not None:
        # A record write the crash cut short leaves its temporary file (never the record).
        for leftover in Path(options.records_dir).glob(f".{record_filename(header.game_id)}.*.tmp"):
            with contextlib.suppress(OSError):
                leftover.unlink()
    return host
