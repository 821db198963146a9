"""Re-check a game record from scratch: the deal, every bid, every play, every score.

Nothing in the record is trusted. The seeds must open their commitments and deal exactly
the recorded hands and trump card (``docs/fairness.md``); for a privately dealt game
(``docs/private-deal.md``) each round's transcript must be the round of its setup, pass
every check of the protocol, open to the recorded hands and trump card, and play exactly
the recorded cards. The game is then replayed through
the rules engine, so a bid or a play is legal here exactly when the engine would have
accepted it at the table. The first thing that does not hold is reported as a
``RecordError`` naming its round, trick and seat and a stable rule code.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import cast

from netplay import fairdeal
from netplay.mental import (
    RELAY,
    DealFault,
    DealSetup,
    Verifier,
    audit_transcript,
    played_items,
    shown_items,
)
from netplay.signing import Envelope

from .bid_seal import opens_bid
from .deal import deal_from_deck, deck_for_round
from .game import (
    Bid,
    ChooseTrump,
    Game,
    GameConfig,
    IllegalAction,
    Play,
    PlayerAction,
    Reason,
    Suit,
    action_from_wire,
    card_name,
    dealer_of,
    is_jester,
    is_wizard,
    suit_of,
    winners,
)
from .game.actions import PassCard
from .game.hidden import Revoke, replay_round
from .game.hidden_special import check_werewolf_shown
from .game.specials import Special
from .i18n import N_, _, ngettext
from .net.check_texts import blamed, fault_phrase, rule_text
from .phrase import Phrase, phrase
from .private_deal import item_cards, opened_deck, round_setup, veiled_round
from .private_special import opened_plays
from .record import (
    UNREVEALED,
    VOIDED,
    GameRecord,
    RecordedRound,
    RecordError,
    Redeal,
    parse_record,
    read_record,
)
from .record.model import redeal_action_wire
from .verify_special import bids_made, check_private_moves, verify_special_round

# The engine's refusal reasons, as the rule a record broke.
RULE_OF_REASON = {
    Reason.BID_OUT_OF_RANGE: "bid-range",
    Reason.BID_FORBIDDEN: "bid-forbidden",
    Reason.CARD_NOT_IN_HAND: "card-not-in-hand",
    Reason.MUST_FOLLOW_SUIT: "must-follow-suit",
    Reason.NOT_YOUR_TURN: "play-order",
}


@dataclass(frozen=True, slots=True)
class Verdict:
    """The outcome of checking one file."""

    path: str
    record: GameRecord | None  # None when the file could not even be parsed
    failure: RecordError | None

    @property
    def ok(self) -> bool:
        return self.failure is None

    def line(self) -> str:
        """``OK <file> (15 rounds, winners: ...)`` or ``FAIL <file>: round R, ...: rule: what``."""
        if self.failure is not None:
            return f"FAIL {self.path}: {self.failure}"
        assert self.record is not None
        return f"OK {self.path} ({summary(self.record)})"

    def shown(self) -> str:
        """``line()`` in the language spoken (what ``wizard-tui verify`` prints); the exit
        status, the rule codes and the card names stay as they are."""
        if self.failure is not None:
            return _("FAIL {file}: {failure}").format(file=self.path, failure=self.failure.shown())
        assert self.record is not None
        return _("OK {file} ({summary})").format(file=self.path, summary=summary(self.record))


def summary(record: GameRecord) -> str:
    """``15 rounds, winners: Ann (seat 2)``, plus any redeals or failures noted during play."""
    # In the language spoken (a failure's rule code stays: it is a code).
    n = len(record.rounds)
    text = ngettext("{n} round", "{n} rounds", n).format(n=n)
    if record.complete:
        players = record.players
        names = ", ".join(
            _("{name} (seat {seat})").format(name=_printable(players[s].name), seat=s)
            for s in record.winners
        )
        text += _(", winners: {names}").format(names=names)
    else:
        said = _(", incomplete: stopped before round {next} of {rounds}")
        of = len(record.rules.round_sizes(len(record.players)))  # the game's length
        text += said.format(next=n + 1, rounds=of)
    notes = []
    if record.redeals:
        k = len(record.redeals)
        notes.append(ngettext("{n} redeal", "{n} redeals", k).format(n=k))
    if record.charges:
        seats = ", ".join(sorted({_("seat {seat}").format(seat=c.seat) for c in record.charges}))
        k = len(record.charges)
        said = ngettext("{n} void charge ({seats})", "{n} void charges ({seats})", k)
        notes.append(said.format(n=k, seats=seats))
    if record.verification_failures:
        k = len(record.verification_failures)
        said = ngettext(
            "{n} verification failure reported during play",
            "{n} verification failures reported during play",
            k,
        )
        notes.append(said.format(n=k))
    if notes:
        text += _("; recorded: {notes}").format(notes=", ".join(notes))
    return text


def verify_path(path: str | os.PathLike[str]) -> Verdict:
    """Read, parse and verify one file; never raises for a bad record."""
    shown = str(path)
    try:
        record = read_record(path)
    except RecordError as exc:
        return Verdict(shown, None, exc)
    try:
        verify_record(record)
    except RecordError as exc:
        return Verdict(shown, record, exc)
    except Exception as exc:  # a bug of ours must still not end in a traceback
        detail = phrase(
            N_("verify itself failed ({error}); please report this"),
            error=f"{type(exc).__name__}: {exc}",
        )
        return Verdict(shown, record, RecordError("internal-error", detail))
    return Verdict(shown, record, None)


def verify_document(doc: object) -> GameRecord:
    """Parse and verify a decoded JSON document; raise ``RecordError`` at the first fault."""
    record = parse_record(doc)
    verify_record(record)
    return record


def expand_paths(paths: list[str]) -> list[Path]:
    """Files as given; a directory stands for the ``*.json`` files directly in it."""
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out.extend(sorted(q for q in p.glob("*.json") if q.is_file()))
        else:
            out.append(p)
    return out


def verify_record(record: GameRecord) -> None:
    """Raise ``RecordError`` at the first thing in ``record`` that does not hold."""
    n = len(record.players)
    num_rounds = len(record.rules.round_sizes(n))  # the game's length (rules.rounds)
    if len(record.rounds) > num_rounds:
        raise RecordError(
            "round-count",
            phrase(
                N_("{got} rounds recorded; {n} players play {rounds}")
                if record.rules.rounds is None
                else N_(
                    "{got} rounds recorded; {n} players play {rounds}"
                    " in this game's length (rules.rounds)"
                ),
                got=len(record.rounds),
                n=n,
                rounds=num_rounds,
            ),
            round=num_rounds + 1,
        )
    game = Game(GameConfig(n, record.first_dealer, record.rules))
    if record.private:
        _check_attempts(record, num_rounds)
        _check_charges(record)
    for index, rnd in enumerate(record.rounds):
        if record.private:  # voided attempts of this round, before the round itself
            _verify_private_redeals(record, index + 1, game)
            for charge in record.charges:  # scored by the rules (docs/rules.md)
                if charge.round == index + 1:
                    game.charge(charge.seat)
        _verify_round(record, rnd, index + 1, game)
    if record.private and len(record.rounds) < num_rounds:
        _verify_private_redeals(record, len(record.rounds) + 1, game)
    _verify_end(record, game, num_rounds)
    _verify_redeals(record, num_rounds)


def _verify_round(record: GameRecord, rnd: RecordedRound, r: int, game: Game) -> None:
    n = len(record.players)
    if rnd.round != r:
        raise RecordError(
            "round-number",
            phrase(N_("the round says {said}, expected {r}"), said=rnd.round, r=r),
            round=r,
        )
    dealer = dealer_of(record.first_dealer, r, n)
    if rnd.dealer != dealer:
        raise RecordError(
            "dealer",
            phrase(
                N_(
                    "the record says seat {said} dealt; the deal passes one seat clockwise "
                    "from first_dealer {first}, so seat {dealer} did"
                ),
                said=rnd.dealer,
                first=record.first_dealer,
                dealer=dealer,
            ),
            round=r,
        )

    size = game.config.round_size(r)  # cards each in this round, by the game's length
    for seat, hand in enumerate(rnd.hands):
        if len(hand) != size:
            raise RecordError(
                "hand-size",
                phrase(
                    N_("{got} cards dealt; round {r} of this game deals {size} each")
                    if record.rules.rounds is None
                    else N_(
                        "{got} cards dealt; round {r} of this game deals {size} each (rules.rounds)"
                    ),
                    got=len(hand),
                    r=r,
                    size=size,
                ),
                round=r,
                seat=seat,
            )
    moves: PrivateMoves | None = None  # a privately dealt special round's moves
    if record.private:
        deck, moves = _verify_private_deal(record, rnd, r, dealer)
    else:
        deck = _verify_commit_reveal(record, rnd, r)
    dealt = deal_from_deck(deck, n, size, dealer)
    for seat, (recorded, expected) in enumerate(zip(rnd.hands, dealt.hands, strict=True)):
        if recorded != expected:
            raise RecordError(
                "hand",
                phrase(
                    N_("the seeds deal {cards}, the record says {said}"),
                    cards=_cards(expected),
                    said=_cards(recorded),
                ),
                round=r,
                seat=seat,
            )
    if rnd.special:  # docs/record-format.md, "Games with special cards"
        if rnd.turned_card != dealt.trump_card:
            raise RecordError(
                "turned-card",
                phrase(
                    N_("the seeds turn up {card}, the record says {said}"),
                    card=_card_or_none(dealt.trump_card),
                    said=_card_or_none(rnd.turned_card),
                ),
                round=r,
            )
        assert dealt.trump_card is not None  # 60 + k cards: one is always turned
        game.deal(deck)
        verify_special_round(game, rnd, r, _illegal, dealt.trump_card)
        if moves is not None:
            check_private_moves(rnd, r, dealt.trump_card, *moves, _blamed)
        if record.rules.hidden_bids:
            _verify_bid_seals(record, rnd, r, bids_made(rnd.actions or (), n))
    else:
        if rnd.trump_card != dealt.trump_card:
            raise RecordError(
                "trump-card",
                phrase(
                    N_("the seeds turn up {card}, the record says {said}"),
                    card=_card_or_none(dealt.trump_card),
                    said=_card_or_none(rnd.trump_card),
                ),
                round=r,
            )
        game.deal(deck)
        _replay_plain_round(record, rnd, r, game, size)
    _verify_scores(rnd, r, game)


def _replay_plain_round(
    record: GameRecord, rnd: RecordedRound, r: int, game: Game, size: int
) -> None:
    """A plain round from its deal on: its trump, bids and tricks through the engine."""
    n = len(record.players)
    dealer = rnd.dealer
    tc = rnd.trump_card
    if tc is not None and is_wizard(tc):
        if rnd.trump_suit is None:
            raise RecordError(
                "trump-suit",
                phrase(
                    N_(
                        "a Wizard was turned up, so the dealer must name a suit;"
                        " the record says null"
                    )
                ),
                round=r,
                seat=dealer,
            )
        game.choose_trump(dealer, rnd.trump_suit)
    else:
        expected_suit = None if tc is None or is_jester(tc) else suit_of(tc)
        if rnd.trump_suit != expected_suit:
            why = (
                phrase(N_("no trump card"))
                if tc is None
                else phrase(N_("the trump card is {card}"), card=_card(tc))
            )
            want_suit = "null" if expected_suit is None else expected_suit.label
            got_suit = "null" if rnd.trump_suit is None else rnd.trump_suit.label
            raise RecordError(
                "trump-suit",
                phrase(
                    N_("{why}, so trump_suit is {suit}; the record says {said}"),
                    why=why,
                    suit=want_suit,
                    said=got_suit,
                ),
                round=r,
            )

    for k in range(1, n + 1):
        seat = (dealer + k) % n
        try:
            game.bid(seat, rnd.bids[seat])
        except IllegalAction as exc:
            raise _illegal(exc, game, rnd.bids[seat], r, None, seat) from None
    if record.rules.hidden_bids:
        _verify_bid_seals(record, rnd, r, rnd.bids)

    if len(rnd.tricks) != size:  # one trick per card in each hand
        raise RecordError(
            "trick-count",
            phrase(N_("{got} tricks recorded, expected {size}"), got=len(rnd.tricks), size=size),
            round=r,
        )
    for t, trick in enumerate(rnd.tricks, 1):
        leader = game.trick_leader
        if trick.leader != leader:
            who = (
                phrase(N_("the dealer's left"))
                if t == 1
                else phrase(N_("the winner of trick {trick}"), trick=t - 1)
            )
            raise RecordError(
                "leader",
                phrase(
                    N_("the record says seat {said} led; {who} (seat {leader}) leads"),
                    said=trick.leader,
                    who=who,
                    leader=leader,
                ),
                round=r,
                trick=t,
                seat=trick.leader,
            )
        if len(trick.plays) != n:
            raise RecordError(
                "trick-size",
                phrase(N_("{got} cards played, expected {n}"), got=len(trick.plays), n=n),
                round=r,
                trick=t,
            )
        for seat, card in trick.plays:
            if seat != game.turn:
                raise RecordError(
                    "play-order",
                    phrase(
                        N_("seat {seat} played {card} when seat {turn} was to play"),
                        seat=seat,
                        card=_card(card),
                        turn=game.turn,
                    ),
                    round=r,
                    trick=t,
                    seat=seat,
                )
            try:
                game.play(seat, card)
            except IllegalAction as exc:
                raise _illegal(exc, game, card, r, t, seat) from None
        winner = game.tricks[-1].winner
        if trick.winner != winner:
            raise RecordError(
                "trick-winner",
                phrase(
                    N_(
                        "the record says seat {said} won; seat {winner} wins {plays} (seat:card)"
                        " with {trump}"
                    ),
                    said=trick.winner,
                    winner=winner,
                    plays=f"[{' '.join(f'{s}:{_card(c)}' for s, c in trick.plays)}]",
                    trump=_trump(game),
                ),
                round=r,
                trick=t,
            )


def _verify_scores(rnd: RecordedRound, r: int, game: Game) -> None:
    """The round's tricks won, points and totals are the ones the engine scored."""
    result = game.results[-1]
    for what, recorded, expected in (
        ("tricks-won", rnd.tricks_won, result.tricks_won),
        ("points", rnd.points, result.points),
        ("totals", rnd.totals, result.totals),
    ):
        for seat, (got, want) in enumerate(zip(recorded, expected, strict=True)):
            if got != want:
                said = phrase(
                    N_("the record says {got}, the game gives {want}"), got=got, want=want
                )
                if what == "points":
                    said = phrase(
                        N_("the record says {got}, the game gives {want} (bid {bid}, won {won})"),
                        got=got,
                        want=want,
                        bid=result.bids[seat],
                        won=result.tricks_won[seat],
                    )
                raise RecordError(
                    what,
                    said,
                    round=r,
                    seat=seat,
                )


def _verify_bid_seals(
    record: GameRecord, rnd: RecordedRound, r: int, bids: tuple[int, ...]
) -> None:
    """Hidden bids: every bid made opens the seal its seat sent before any bid was seen
    (``bid_seals``: per seat, the seal and the nonce; docs/record-format.md)."""
    n = len(record.players)
    wire = rnd.extra.get("bid_seals")
    if type(wire) is not list or len(wire) != n:
        raise RecordError(
            "bid-seals", phrase(N_("hidden bids need {n} bid seals, one per seat"), n=n), round=r
        )
    attempt = rnd.private_deal.setup.attempt if rnd.private_deal is not None else 0
    for seat, entry in enumerate(wire):
        try:
            seal, nonce = bytes.fromhex(entry["seal"]), bytes.fromhex(entry["nonce"])
        except (KeyError, TypeError, ValueError, AttributeError):
            raise RecordError(
                "bid-seals",
                phrase(N_("a bid seal is {braces} in hex"), braces="{seal, nonce}"),
                round=r,
                seat=seat,
            ) from None
        if not opens_bid(seal, record.game_id, r, attempt, seat, bids[seat], nonce):
            raise RecordError(
                "bid-seal",
                phrase(
                    N_("the bid {bid} and its nonce do not open the seat's seal"),
                    bid=bids[seat],
                ),
                round=r,
                seat=seat,
            )


def _verify_commit_reveal(record: GameRecord, rnd: RecordedRound, r: int) -> tuple[int, ...]:
    """The commitments open to the seeds; the deck is the seeds' (fairness.md)."""
    for seat, (commit, seed) in enumerate(zip(rnd.commitments, rnd.seeds, strict=True)):
        if not fairdeal.opens(commit, record.game_id, r, seat, seed):
            raise RecordError(
                "commitment",
                phrase(
                    N_(
                        "seed {seed}... does not open commitment {commit}... "
                        "for this game, round and seat"
                    ),
                    seed=seed.hex()[:16],
                    commit=commit.hex()[:16],
                ),
                round=r,
                seat=seat,
            )
    return deck_for_round(record.game_id, r, rnd.seeds, record.rules.specials)


# A fault of the record itself: the host that relayed and recorded the round is to blame.
BLAME_RECORD = N_("{detail} (blame: the relay, the host that recorded the round)")


def _blame_record(template: str, /, **params: str | int | Phrase) -> Phrase:
    return phrase(BLAME_RECORD, detail=phrase(template, **params))


def _blamed(detail: Phrase) -> Phrase:
    return phrase(BLAME_RECORD, detail=detail)


# A privately dealt special round's transcript, as the cards it moves: its opens and its
# shows, (seat, card) in order, and its gifts (pass, giver, recipient, card).
PrivateMoves = tuple[list[tuple[int, int]], list[tuple[int, int]], list[tuple[int, int, int, int]]]


def _verify_private_deal(
    record: GameRecord, rnd: RecordedRound, r: int, dealer: int
) -> tuple[tuple[int, ...], PrivateMoves | None]:
    """docs/private-deal.md section 11: the setup is the game's, the transcript passes
    every check (sections 8 and 9), and the plays in it are the recorded ones. Returns
    the cards of the final deck, position by position (the deck in deal order), and for a
    special round, its moves, which the replay of its actions checks (section 16)."""
    n = len(record.players)
    deal = rnd.private_deal
    assert deal is not None
    got = deal.setup
    attempt = sum(d.round == r for d in record.redeals)  # every voided attempt comes first
    keys = _signing_keys(record, r, attempt)
    size = len(rnd.hands[0])  # the schedule's, checked by the caller
    veiled = veiled_round(record.rules, n, r)  # a forehead round (docs/private-deal.md 15)
    specials = record.rules.specials  # the deck's items are the table's cards
    want = round_setup(
        record.game_id,
        r,
        n,
        dealer,
        keys,
        attempt,
        hand_size=size,
        veiled=veiled,
        specials=specials,
    )
    _check_setup(got, want, r)
    withheld = sorted(
        c.seat
        for c in record.charges
        if c.why == UNREVEALED and (c.round, c.attempt) == (r, attempt)
    )
    if withheld and any(isinstance(a, PassCard) for a in rnd.actions or ()):
        raise RecordError(
            "charge",
            _blame_record(
                N_(
                    "a round in which cards were passed needs every reveal to open its gifts "
                    "(docs/private-deal.md section 16): it cannot be scored without one"
                )
            ),
            round=r,
            culprit=RELAY,
        )
    try:
        if withheld:
            deck = _deck_without_reveals(got, deal.envelopes, withheld, r, specials)
        else:
            result = audit_transcript(got, deal.envelopes)
    except DealFault as fault:
        culprit = fault.culprit
        raise RecordError(
            fault.code,
            fault_phrase(fault),
            round=r,
            seat=culprit if culprit is not None and culprit >= 0 else None,
            culprit=culprit,
        ) from None
    cards = item_cards(specials)
    gifts: list[tuple[int, int, int, int]] = []
    if not withheld:
        items = result.items
        if any(i is None for i in items):  # audit_transcript only verifies finished deals
            raise RecordError(
                "not_a_deck", phrase(N_("the transcript leaves the deck unopened")), round=r
            )
        deck = tuple(cards[i] for i in items if i is not None)
        gifts = [(g.pass_index, g.giver, g.recipient, cards[g.item]) for g in result.gifts]
    for seat in range(n):
        opened = tuple(deck[k] for k in got.positions_of(seat))
        if rnd.hands[seat] != opened:
            raise RecordError(
                "hand",
                _blame_record(
                    N_(
                        "the private deal opens {cards} at the seat's positions,"
                        " the record says {said}"
                    ),
                    cards=_cards(opened),
                    said=_cards(rnd.hands[seat]),
                ),
                round=r,
                seat=seat,
                culprit=RELAY,
            )
    public = got.public_positions
    trump = deck[public[0]] if public else None
    # With special cards the turned card is ``turned_card`` (``trump_card`` may be the
    # Werewolf, which the replay checks).
    turned = rnd.turned_card if rnd.special else rnd.trump_card
    if turned != trump:
        raise RecordError(
            "turned-card" if rnd.special else "trump-card",
            _blame_record(
                N_("the private deal turns up {card}, the record says {said}"),
                card=_card_or_none(trump),
                said=_card_or_none(turned),
            ),
            round=r,
            culprit=RELAY,
        )
    opens = _played_cards(got, deal.envelopes, specials)  # audit_transcript accepted them
    if rnd.special:  # cards change hands: the replay of the actions checks the opens
        shows = [(seat, cards[item]) for seat, item in shown_items(deal.envelopes)]
        return deck, (opens, shows, gifts)
    plays = [(t, play) for t, trick in enumerate(rnd.tricks, 1) for play in trick.plays]
    for i in range(max(len(opens), len(plays))):
        if i < len(opens) and i < len(plays) and opens[i] == plays[i][1]:
            continue
        t = plays[i][0] if i < len(plays) else len(rnd.tricks) + 1
        seat = plays[i][1][0] if i < len(plays) else opens[i][0]
        shown = _seat_card(opens[i] if i < len(opens) else None)
        said = _seat_card((seat, plays[i][1][1]) if i < len(plays) else None)
        raise RecordError(
            "open-mismatch",
            _blame_record(
                N_("card {k} of the round: the transcript opens {shown}, the record plays {said}"),
                k=i + 1,
                shown=shown,
                said=said,
            ),
            round=r,
            trick=t,
            seat=seat,
            culprit=RELAY,
        )
    return deck, None


def _played_cards(
    setup: DealSetup, envelopes: Iterable[Envelope], specials: frozenset[Special]
) -> list[tuple[int, int]]:
    """The ``open`` messages' plays, (seat, card): their items as the table's cards."""
    cards = item_cards(specials)
    return [(seat, cards[item]) for seat, item in played_items(setup, envelopes)]


def _deck_without_reveals(
    setup: DealSetup,
    envelopes: Iterable[Envelope],
    withheld: list[int],
    r: int,
    specials: frozenset[Special],
) -> tuple[int, ...]:
    """A round scored from what was opened (docs/private-deal.md section 10): every envelope
    passes the checks of section 8, exactly the charged seats' reveals are missing, and
    every dealt and face-up position was opened. Its shuffle is not checked (the missing
    keys would show it); its hands, trump card and plays are."""
    view = Verifier(setup, relayed=True)
    for envelope in envelopes:
        view.receive(envelope)
    missing = view.missing_reveals()
    if missing != withheld:
        raise RecordError(
            "charge",
            _blame_record(
                N_(
                    "the record charges seat(s) {withheld} for withholding their reveal; "
                    "the transcript lacks the reveals of {missing}"
                ),
                withheld=str(withheld),
                missing=str(missing),
            ),
            round=r,
            culprit=RELAY,
        )
    deck = opened_deck(view, specials)
    if deck is None:
        raise RecordError(
            "charge",
            _blame_record(N_("a round scored without every reveal must have every card opened")),
            round=r,
            culprit=RELAY,
        )
    return deck


def _check_charges(record: GameRecord) -> None:
    """Every charge names an attempt the record holds: a voided one (at most one charge
    each), or a scored round's last attempt for a withheld reveal (a seat at most once)."""
    voided = {(d.round, d.attempt) for d in record.redeals}
    scored = {
        (i + 1, rnd.private_deal.setup.attempt)
        for i, rnd in enumerate(record.rounds)
        if rnd.private_deal is not None
    }
    seen: set[tuple[int, int, int | None]] = set()
    for c in record.charges:
        where = (c.round, c.attempt)
        if c.why == VOIDED and where not in voided:
            raise RecordError(
                "charge",
                phrase(
                    N_("seat {seat} is charged for attempt {attempt}, which was not voided"),
                    seat=c.seat,
                    attempt=c.attempt,
                ),
                round=c.round,
                seat=c.seat,
            )
        if c.why == UNREVEALED and where not in scored:
            raise RecordError(
                "charge",
                phrase(
                    N_(
                        "seat {seat} is charged for a withheld reveal in attempt {attempt}, "
                        "which was not the one scored"
                    ),
                    seat=c.seat,
                    attempt=c.attempt,
                ),
                round=c.round,
                seat=c.seat,
            )
        key = (c.round, c.attempt, None if c.why == VOIDED else c.seat)
        if key in seen:
            raise RecordError(
                "charge",
                phrase(N_("attempt {attempt} is charged twice"), attempt=c.attempt),
                round=c.round,
                seat=c.seat,
            )
        seen.add(key)


def _check_void_charge(record: GameRecord, d: Redeal, proven: int | None, where: Phrase) -> None:
    """The seat charged for a voided attempt: the one the envelopes (or the replay) prove
    caused it, when they prove one; none for the relay's own fault. Without proof (a lost
    key, an abort, a seat that left) the record's word stands: docs/private-deal.md."""
    charged = next(
        (
            c.seat
            for c in record.charges
            if c.why == VOIDED and (c.round, c.attempt) == (d.round, d.attempt)
        ),
        None,
    )
    if proven is not None and proven >= 0 and charged != proven:
        raise _void_error(
            phrase(
                N_(
                    "{where}: the envelopes prove seat {proven} caused it; the record charges {who}"
                ),
                where=where,
                proven=proven,
                who=_blame(charged),
            ),
            "charge",
            d.round,
            RELAY,
        )
    if proven == RELAY and charged is not None:
        raise _void_error(
            phrase(
                N_("{where}: the relay's fault, yet the record charges seat {seat}"),
                where=where,
                seat=charged,
            ),
            "charge",
            d.round,
            RELAY,
        )


def _check_setup(got: DealSetup, want: DealSetup, r: int) -> None:
    for name in ("game_id", "round", "attempt", "chain", "owners", "signing_keys"):
        if getattr(got, name) != getattr(want, name):
            raise RecordError(
                "deal-setup",
                _blame_record(
                    N_(
                        "the private deal's setup has another {name} than the game's"
                        " ({got}, expected {want})"
                    ),
                    name=name,
                    got=_setup_field(name, got),
                    want=_setup_field(name, want),
                ),
                round=r,
                culprit=RELAY,
            )


def _signing_keys(record: GameRecord, r: int, attempt: int) -> tuple[bytes, ...]:
    """The seats' signing keys for attempt ``attempt`` of round ``r``: the players' own,
    with the recorded stand-ins (a bot of the host playing a seat) up to that attempt."""
    keys = list(record.signing_keys)
    for change in record.stand_ins:
        if (change.round, change.attempt) <= (r, attempt):
            own = record.signing_keys[change.seat]
            keys[change.seat] = own if change.key is None else change.key
    return tuple(keys)


def _check_attempts(record: GameRecord, num_rounds: int) -> None:
    """A privately dealt round's voided attempts are numbered 0, 1, ... in order, and
    belong to a recorded round or to the one after the last (an unfinished game)."""
    seen: dict[int, int] = {}
    for d in record.redeals:
        if d.private_deal is None:
            raise RecordError(
                "redeal", phrase(N_("a commit-reveal redeal in a privately dealt game"))
            )
        if not 1 <= d.round <= min(num_rounds, len(record.rounds) + 1):
            raise RecordError("redeal", phrase(REDEAL_OF_NO_ROUND, round=d.round))
        expected = seen.get(d.round, 0)
        if d.attempt != expected:
            raise RecordError(
                "redeal",
                phrase(
                    N_("voided attempt {attempt} recorded where attempt {expected} comes"),
                    attempt=d.attempt,
                    expected=expected,
                ),
                round=d.round,
            )
        seen[d.round] = expected + 1


def _verify_private_redeals(record: GameRecord, r: int, game: Game) -> None:
    """Every voided attempt of round ``r`` (docs/private-deal.md sections 10-11): its setup
    is the game's, every recorded envelope was acceptable, the fault and culprit recorded
    are what the envelopes show (or, for a revoke, what the replay shows), and the seat
    charged for it is the one they prove (docs/rules.md, "Voided deals")."""
    n = len(record.players)
    dealer = dealer_of(record.first_dealer, r, n)
    for d in record.redeals:
        if d.round != r:
            continue
        deal = d.private_deal
        assert deal is not None
        setup = deal.setup
        keys = _signing_keys(record, r, d.attempt)
        veiled = veiled_round(record.rules, n, r)
        size = game.config.round_size(r)
        want = round_setup(
            record.game_id,
            r,
            n,
            dealer,
            keys,
            d.attempt,
            hand_size=size,
            veiled=veiled,
            specials=record.rules.specials,
        )
        _check_setup(setup, want, r)
        proven = check_voided_attempt(d, game, r)
        _check_void_charge(record, d, proven, phrase(VOIDED_ATTEMPT, attempt=d.attempt))


def check_voided_attempt(d: Redeal, game: Game, r: int) -> int | None:
    """One voided attempt of round ``r`` (its setup already checked): every recorded
    envelope was acceptable, and its fault and culprit are what the envelopes show (a
    revoke: what the replay from ``game``, the game before the round, shows). Returns the
    seat the envelopes prove at fault (``RELAY`` for the relay, None for nobody proven).
    Raises ``RecordError``. A player's program checks its own record of a void with it
    too."""
    deal = d.private_deal
    assert deal is not None
    setup = deal.setup
    where = phrase(VOIDED_ATTEMPT, attempt=d.attempt)
    specials = game.config.rules.specials  # the deck's items are the table's cards
    view = Verifier(setup, relayed=True)
    try:
        for envelope in deal.envelopes:
            view.receive(envelope)
    except DealFault as fault:
        raise _void_error(_at(where, fault_phrase(fault)), fault.code, r, fault.culprit) from None
    shown: DealFault | None = None
    if isinstance(view.fault, DealFault):  # every seat revealed; the round-end check failed
        shown = view.fault
    elif d.evidence is not None:
        if view.result is not None:
            said = phrase(N_("evidence after a clean round"))
            raise _void_error(_at(where, said), "redeal", r, RELAY)
        try:
            view.receive(d.evidence)
        except DealFault as fault:
            shown = fault
        else:
            raise _void_error(
                _at(
                    where,
                    phrase(N_("the evidence of {fault} passes every check"), fault=str(d.fault)),
                ),
                "redeal",
                r,
                RELAY,
            )
    proven: int | None = None
    if shown is not None and shown.culprit is not None and shown.culprit >= 0:
        proven = shown.culprit
    elif shown is None and d.culprit is not None and d.culprit >= 0:
        proven = d.culprit  # a revoke: _check_revoke below proves it or fails
    elif d.culprit == RELAY:
        proven = RELAY
    if shown is not None:
        # A relayed view cannot see a sender's link: what only delivery shows is the
        # host's word, which can blame no one but the relay or the envelope's signer.
        provable = shown.culprit != RELAY
        evidence_sender = d.evidence.sender if d.evidence is not None else None
        plausible = d.culprit in (None, RELAY, evidence_sender)
        if (
            shown.code != d.fault
            or (provable and shown.culprit != d.culprit)
            or (not provable and not plausible)
        ):
            raise _void_error(
                phrase(
                    N_(
                        "{where}: the record says {fault} by {who};"
                        " the envelopes show {code} by {by}"
                    ),
                    where=where,
                    fault=str(d.fault),
                    who=_blame(d.culprit),
                    code=shown.code,
                    by=_blame(shown.culprit),
                ),
                "redeal",
                r,
                RELAY,
            )
    elif view.result is not None and d.culprit is not None:
        cards = item_cards(specials)
        items = tuple(None if i is None else cards[i] for i in view.result.items)
        _check_revoke(d, items, game, r, where)
    elif d.culprit is not None and (opened := opened_deck(view, specials)) is not None:
        _check_revoke(d, opened, game, r, where)  # every card open, a reveal withheld
    elif d.culprit is not None:
        raise _void_error(
            phrase(
                N_("{where}: the record blames {who} without proof"),
                where=where,
                who=_blame(d.culprit),
            ),
            "redeal",
            r,
            RELAY,
        )
    return proven


def _check_revoke(
    d: Redeal, items: tuple[int | None, ...], game: Game, r: int, where: Phrase
) -> None:
    """A voided attempt whose deal verified, blamed on a seat: the replay of its recorded
    trump choice and bids and of the plays in its transcript must refuse that seat's card."""
    assert d.private_deal is not None
    # Its trump choice (or a Werewolf's) and bids, then its plays: what ``replay_round``
    # applies (it takes every action the engine does).
    actions: list[PlayerAction] = [action_from_wire(redeal_action_wire(a)) for a in d.actions]
    specials = game.config.rules.specials
    opened = _played_cards(d.private_deal.setup, d.private_deal.envelopes, specials)
    if specials:
        # Every action of the attempt in order, its plays among them (a declaration or a
        # Cloud's change comes between plays): the plays must be the transcript's opens.
        public = d.private_deal.setup.public_positions
        turned = items[public[0]] if public else None
        # (a face-up card a seat took, the Werewolf's turned card or a Witch's, is played
        # with no open)
        plays = opened_plays(actions, turned)  # (``items`` are cards here)
        if plays != opened:
            raise _void_error(
                phrase(
                    N_("{where}: the recorded plays are not the transcript's opens"),
                    where=where,
                ),
                "redeal",
                r,
                RELAY,
            )
    elif any(type(a) is not ChooseTrump and type(a) is not Bid for a in actions):
        raise _void_error(
            phrase(N_("{where}: a voided attempt records its trump and bids only"), where=where),
            "redeal",
            r,
            RELAY,
        )
    else:
        actions.extend(Play(seat, card) for seat, card in opened)
    deck = tuple(i for i in items if i is not None)
    try:
        if Special.WEREWOLF in specials:  # a holder that hid it is the one to blame
            check_werewolf_shown(game, deck, actions)
        replay_round(game, deck, cast("list[ChooseTrump | Bid | Play]", actions))
    except Revoke as revoke:
        if revoke.seat == d.culprit and revoke.code == d.fault:
            return
        raise _void_error(
            phrase(
                N_(
                    "{where}: the replay refuses seat {seat} ({code}),"
                    " the record blames {who} ({fault})"
                ),
                where=where,
                seat=revoke.seat,
                code=revoke.code,
                who=_blame(d.culprit),
                fault=str(d.fault),
            ),
            "redeal",
            r,
            RELAY,
        ) from None
    except (ValueError, IllegalAction):
        pass
    raise _void_error(
        phrase(
            N_("{where}: the record blames {who} for {fault}, the replay shows no fault"),
            where=where,
            who=_blame(d.culprit),
            fault=str(d.fault),
        ),
        "redeal",
        r,
        RELAY,
    )


def _void_error(detail: Phrase, code: str, r: int, culprit: int | None) -> RecordError:
    return RecordError(
        code,
        detail,
        round=r,
        seat=culprit if culprit is not None and culprit >= 0 else None,
        culprit=culprit,
    )


# Where a voided attempt's check names it, and a redeal of a round the game has not.
VOIDED_ATTEMPT = N_("voided attempt {attempt}")
REDEAL_OF_NO_ROUND = N_("a redeal of round {round}, which the game lacks")


def _at(where: Phrase, detail: Phrase) -> Phrase:
    """``voided attempt 0: <detail>``."""
    return phrase(N_("{where}: {detail}"), where=where, detail=detail)


def _blame(culprit: int | None) -> Phrase:
    """``nobody``, ``the relay``, ``seat 2``."""
    return blamed(culprit)


def _seat_card(play: tuple[int, int] | None) -> Phrase:
    """``seat 2 7H``, or ``nothing``."""
    if play is None:
        return phrase(N_("nothing"))
    return phrase(N_("seat {seat} {card}"), seat=play[0], card=_card(play[1]))


def _setup_field(name: str, setup: object) -> str:
    value = getattr(setup, name)
    if isinstance(value, bytes):
        return value.hex()[:16] + "..."
    if name == "signing_keys":
        return "[" + ", ".join(k.hex()[:8] + "..." for k in value) + "]"
    text = str(list(value)) if isinstance(value, tuple) else str(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _verify_end(record: GameRecord, game: Game, num_rounds: int) -> None:
    played = len(record.rounds)
    if record.complete and played != num_rounds:
        raise RecordError(
            "complete",
            phrase(
                N_("complete is true but only {played} of {rounds} rounds are recorded"),
                played=played,
                rounds=num_rounds,
            ),
        )
    if not record.complete and played == num_rounds:
        said = phrase(
            N_("complete is false but all {rounds} rounds are recorded"), rounds=num_rounds
        )
        raise RecordError("complete", said)
    got = sorted(record.winners)
    if record.complete:
        expected = winners(game.totals)
        if got != expected:
            raise RecordError(
                "winners",
                phrase(
                    N_(
                        "the record says {said}; the highest final total {total} belongs to {seats}"
                    ),
                    said=_seats(got),
                    total=max(game.totals),
                    seats=_seats(expected),
                ),
            )
    elif got and (not played or got != winners(game.totals)):
        # An unfinished game has no winners; we accept the current leaders too.
        raise RecordError(
            "winners",
            phrase(
                N_("the game is incomplete, yet the record names winners {seats}"),
                seats=_seats(got),
            ),
        )


def _verify_redeals(record: GameRecord, num_rounds: int) -> None:
    if record.private:
        return  # checked round by round (_verify_private_redeals)
    for d in record.redeals:
        if not 1 <= d.round <= num_rounds:
            raise RecordError("redeal", phrase(REDEAL_OF_NO_ROUND, round=d.round))
        for seat, (commit, seed) in enumerate(zip(d.commitments, d.seeds, strict=True)):
            if seed is not None and not fairdeal.opens(commit, record.game_id, d.round, seat, seed):
                raise RecordError(
                    "redeal",
                    phrase(
                        N_("attempt {attempt}: the revealed seed does not open its commitment"),
                        attempt=d.attempt,
                    ),
                    round=d.round,
                    seat=seat,
                )


def _illegal(
    exc: IllegalAction, game: Game, value: int, r: int, t: int | None, seat: int
) -> RecordError:
    rule = RULE_OF_REASON.get(exc.reason, exc.code.replace("_", "-"))
    if exc.reason is Reason.BID_OUT_OF_RANGE:
        detail = phrase(
            N_("bid {bid}; bids in round {r} are 0..{most}"),
            bid=value,
            r=r,
            most=game.config.round_size(r),
        )
    elif exc.reason is Reason.BID_FORBIDDEN:
        detail = phrase(
            N_(
                "the dealer's bid {bid} makes the bids add up to {r}, the number of tricks, "
                "which restrict_last_bid={setting} forbids"
            ),
            bid=value,
            r=game.config.round_size(r),
            setting=game.config.restrict_last_bid.value,
        )
    elif exc.reason is Reason.CARD_NOT_IN_HAND:
        detail = phrase(
            N_("played {card}, not in hand {hand}"), card=_card(value), hand=_cards(game.hand(seat))
        )
    elif exc.reason is Reason.MUST_FOLLOW_SUIT:
        led = game.led_suit
        assert led is not None
        follow = [c for c in game.hand(seat) if suit_of(c) == led]
        detail = phrase(
            N_("played {card} on a {suit} lead while holding {suit} {cards} (a revoke)"),
            card=_card(value),
            suit=_suit(led),
            cards=_cards(follow),
        )
    else:
        detail = phrase("{text}", text=rule_text(exc))  # the rules' own English, glossed
    return RecordError(rule, detail, round=r, trick=t, seat=seat)


def _card(card: int) -> str:
    """``13S``; Wizards and Jesters with their id (``W52``), since there are four of each."""
    name = card_name(card, ascii_only=True)
    return f"{name}{card}" if name in ("W", "J") else name


def _cards(cards: Iterable[int]) -> str:
    return "[" + " ".join(_card(c) for c in cards) + "]"


def _trump(game: Game) -> Phrase:
    suit = game.trump_suit
    if suit is None:
        return phrase(N_("no trump"))
    return phrase(N_("{suit} trump"), suit=_suit(suit))


def _suit(suit: Suit) -> Phrase:
    """The suit's label (``hearts``), shown as the table names it (``pgettext("suit", ...)``)."""
    return Phrase(suit.label, context="suit")


def _card_or_none(card: int | None) -> str | Phrase:
    return phrase(N_("no card")) if card is None else _card(card)


def _seats(seats: list[int]) -> Phrase:
    if not seats:
        return phrase(N_("no one"))
    return phrase(N_("seat {seats}"), seats=", ".join(map(str, seats)))


def _printable(name: str) -> str:
    return name if name.isprintable() else repr(name)
