"""An independent game-record writer, built from the two normative specs alone.

It imports nothing from ``wizard_tui`` or ``netplay``: its own commitment and deck hashing,
its own SHAKE-256 Fisher-Yates, its own (naive, list-based) rules for a random legal game and
its own scoring. If ``wizard-tui verify`` accepts what this writes, the verifier checks the
spec and not merely agreement with the project's own engine.
"""

from __future__ import annotations

import hashlib
import random

SUIT_NAMES = ["clubs", "diamonds", "hearts", "spades"]
RESTRICT_MODES = ["never", "always", "after-round-1"]


# ---- deal-v1 ---------------------------------------------------------------------------


def commit(game_id: bytes, rnd: int, seat: int, seed: bytes) -> bytes:
    msg = b"wizard-tui/v1/commit" + game_id + rnd.to_bytes(2, "big") + bytes([seat]) + seed
    return hashlib.sha256(msg).digest()


def combined(game_id: bytes, rnd: int, seeds: list[bytes]) -> bytes:
    msg = b"wizard-tui/v1/deck" + game_id + rnd.to_bytes(2, "big")
    for s in seeds:
        msg += s
    return hashlib.sha256(msg).digest()


class _Stream:
    """The SHAKE-256 output of a key, read 4 bytes at a time; re-digested longer on demand."""

    def __init__(self, key: bytes) -> None:
        self.key = key
        self.buf = b""
        self.used = 0

    def word(self) -> int:
        while self.used + 4 > len(self.buf):
            self.buf = hashlib.shake_256(self.key).digest(len(self.buf) + 256)
        w = self.buf[self.used : self.used + 4]
        self.used += 4
        return (w[0] << 24) | (w[1] << 16) | (w[2] << 8) | w[3]


def deck_order(game_id: bytes, rnd: int, seeds: list[bytes]) -> list[int]:
    stream = _Stream(combined(game_id, rnd, seeds))
    deck = list(range(60))
    i = 59
    while i >= 1:
        m = i + 1
        limit = 2**32 - (2**32 % m)
        x = stream.word()
        while x >= limit:
            x = stream.word()
        j = x % m
        deck[i], deck[j] = deck[j], deck[i]
        i -= 1
    return deck


def deal(deck: list[int], n: int, rnd: int, dealer: int) -> tuple[list[list[int]], int | None]:
    hands: list[list[int]] = [[] for _ in range(n)]
    for j in range(n * rnd):
        hands[(dealer + 1 + j) % n].append(deck[j])
    trump = deck[n * rnd] if n * rnd < 60 else None
    return hands, trump


# ---- the rules, naively ----------------------------------------------------------------


def wizard(c: int) -> bool:
    return 52 <= c <= 55


def jester(c: int) -> bool:
    return 56 <= c <= 59


def suit(c: int) -> int:
    """0..3 for a suit card, -1 for Wizards and Jesters."""
    return c // 13 if c < 52 else -1


def led_suit(cards: list[int]) -> int | None:
    """The suit to follow: None when nothing binds (a Wizard led, or only Jesters so far)."""
    for c in cards:
        if jester(c):
            continue
        if wizard(c):
            return None
        return suit(c)
    return None


def legal_cards(hand: list[int], trick: list[int]) -> list[int]:
    led = led_suit(trick)
    if led is None or not any(suit(c) == led for c in hand):
        return list(hand)
    return [c for c in hand if suit(c) == led or wizard(c) or jester(c)]


def trick_winner_index(cards: list[int], trump: int | None) -> int:
    for k, c in enumerate(cards):
        if wizard(c):
            return k
    if trump is not None:
        trumps = [k for k, c in enumerate(cards) if suit(c) == trump]
        if trumps:
            return max(trumps, key=lambda k: cards[k])
    led = led_suit(cards)
    if led is not None:
        follows = [k for k, c in enumerate(cards) if suit(c) == led]
        return max(follows, key=lambda k: cards[k])
    return 0  # all Jesters: the first


def points(bid: int, won: int) -> int:
    return 20 + 10 * won if bid == won else -10 * abs(bid - won)


def restricted(mode: str, rnd: int) -> bool:
    return mode == "always" or (mode == "after-round-1" and rnd > 1)


# ---- a whole random game ---------------------------------------------------------------


def random_record(
    n: int,
    rng: random.Random,
    restrict: str = "never",
    rounds: int | None = None,
    wizard_trump_suit: str | None = None,
) -> dict:
    """A complete (or, with ``rounds``, stopped) record of a uniformly random legal game."""
    game_id = rng.randbytes(16)
    first_dealer = rng.randrange(n)
    total_rounds = 60 // n
    played = total_rounds if rounds is None else rounds
    totals = [0] * n
    out_rounds = []
    for rnd in range(1, played + 1):
        dealer = (first_dealer + rnd - 1) % n
        seeds = [rng.randbytes(32) for _ in range(n)]
        hands, trump_card = deal(deck_order(game_id, rnd, seeds), n, rnd, dealer)
        if trump_card is None or jester(trump_card):
            trump = None
        elif wizard(trump_card):
            name = wizard_trump_suit or rng.choice(SUIT_NAMES)
            trump = SUIT_NAMES.index(name)
        else:
            trump = suit(trump_card)

        bids = [0] * n
        for k in range(1, n + 1):
            seat = (dealer + k) % n
            options = list(range(rnd + 1))
            if seat == dealer and restricted(restrict, rnd):
                options = [b for b in options if sum(bids) + b != rnd]
            bids[seat] = rng.choice(options)

        holding = [list(h) for h in hands]
        won = [0] * n
        tricks = []
        leader = (dealer + 1) % n
        for _ in range(rnd):
            cards: list[int] = []
            plays = []
            for k in range(n):
                seat = (leader + k) % n
                card = rng.choice(legal_cards(holding[seat], cards))
                holding[seat].remove(card)
                cards.append(card)
                plays.append([seat, card])
            winner = plays[trick_winner_index(cards, trump)][0]
            won[winner] += 1
            tricks.append({"leader": leader, "plays": plays, "winner": winner})
            leader = winner

        pts = [points(bids[s], won[s]) for s in range(n)]
        totals = [totals[s] + pts[s] for s in range(n)]
        out_rounds.append(
            {
                "round": rnd,
                "dealer": dealer,
                "commitments": [commit(game_id, rnd, s, seeds[s]).hex() for s in range(n)],
                "seeds": [s.hex() for s in seeds],
                "hands": hands,
                "trump_card": trump_card,
                "trump_suit": None if trump is None else SUIT_NAMES[trump],
                "bids": bids,
                "tricks": tricks,
                "tricks_won": won,
                "points": pts,
                "totals": list(totals),
            }
        )
    complete = played == total_rounds
    best = max(totals)
    return {
        "format": "wizard-tui/record/v1",
        "game_id": game_id.hex(),
        "protocol": "commit-reveal-v1",
        "players": [{"name": f"indie {s}", "kind": "human" if s == 0 else "bot"} for s in range(n)],
        "rules": {"restrict_last_bid": restrict},
        "first_dealer": first_dealer,
        "rounds": out_rounds,
        "complete": complete,
        "winners": [s for s in range(n) if totals[s] == best] if complete else [],
    }


# ---- an independent check, for records the project writes --------------------------------


def problems(doc: dict) -> list[str]:
    """What in ``doc`` breaks the specs, by this module's own rules (empty: nothing)."""
    out: list[str] = []
    n = len(doc["players"])
    gid = bytes.fromhex(doc["game_id"])
    totals = [0] * n
    for rnd in doc["rounds"]:
        r, dealer = rnd["round"], rnd["dealer"]
        if dealer != (doc["first_dealer"] + r - 1) % n:
            out.append(f"round {r}: dealer")
        seeds = [bytes.fromhex(s) for s in rnd["seeds"]]
        for s in range(n):
            if commit(gid, r, s, seeds[s]).hex() != rnd["commitments"][s]:
                out.append(f"round {r} seat {s}: commitment")
        hands, trump_card = deal(deck_order(gid, r, seeds), n, r, dealer)
        if hands != rnd["hands"] or trump_card != rnd["trump_card"]:
            out.append(f"round {r}: deal")
        trump = None if rnd["trump_suit"] is None else SUIT_NAMES.index(rnd["trump_suit"])
        if trump_card is not None and wizard(trump_card):
            expected = trump if trump is not None else -2  # the dealer must name a suit
        else:
            expected = None if trump_card is None or jester(trump_card) else suit(trump_card)
        if trump != expected:
            out.append(f"round {r}: trump suit")
        bids = rnd["bids"]
        if any(not 0 <= b <= r for b in bids):
            out.append(f"round {r}: bid range")
        if restricted(doc["rules"]["restrict_last_bid"], r) and sum(bids) == r:
            out.append(f"round {r}: forbidden last bid")
        holding = [list(h) for h in hands]
        won = [0] * n
        leader = (dealer + 1) % n
        for t, trick in enumerate(rnd["tricks"], 1):
            seats = [(leader + k) % n for k in range(n)]
            if trick["leader"] != leader or [p[0] for p in trick["plays"]] != seats:
                out.append(f"round {r} trick {t}: order")
                break
            cards: list[int] = []
            for seat, card in trick["plays"]:
                if card not in legal_cards(holding[seat], cards):
                    out.append(f"round {r} trick {t} seat {seat}: illegal card")
                    return out
                holding[seat].remove(card)
                cards.append(card)
            leader = trick["plays"][trick_winner_index(cards, trump)][0]
            won[leader] += 1
            if trick["winner"] != leader:
                out.append(f"round {r} trick {t}: winner")
        pts = [points(bids[s], won[s]) for s in range(n)]
        totals = [totals[s] + pts[s] for s in range(n)]
        if (won, pts, totals) != (rnd["tricks_won"], rnd["points"], rnd["totals"]):
            out.append(f"round {r}: scores")
    if doc["complete"] != (len(doc["rounds"]) == 60 // n):
        out.append("complete")
    if doc["complete"] and sorted(doc["winners"]) != [
        s for s in range(n) if totals[s] == max(totals)
    ]:
        out.append("winners")
    return out
