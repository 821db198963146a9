"""Privately dealt games (``simulate --deal private``): their records verify, and a record
whose deal or plays were changed is refused naming the round, the rule and the culprit."""

from __future__ import annotations

import functools
import json
import random
from pathlib import Path
from typing import Any

import msgpack
import pytest

from netplay.mental import RELAY, DealSetup
from netplay.mental.protocol import MESSAGE_TAG, decode_body
from netplay.signing import Envelope, Sealer, SigningKey
from wizard_tui.bots import make_bot
from wizard_tui.cli import main
from wizard_tui.record import PRIVATE_PROTOCOL, RecordError, dumps_record, parse_record
from wizard_tui.simulate import new_deal_set, play_game
from wizard_tui.verify import verify_document

Doc = dict[str, Any]
PLAYERS = 3
ROUNDS = 4  # of 20: enough for every tamper below, and about a second to play


@functools.cache
def _game() -> tuple[str, tuple[bytes, ...]]:
    rng = random.Random("private-deal-records")
    keys = [SigningKey.from_private_bytes(rng.randbytes(32)) for _ in range(PLAYERS)]
    bots = [make_bot("random", random.Random(rng.random())) for _ in range(PLAYERS)]
    played = play_game(
        bots, new_deal_set(PLAYERS, rng), deal="private", signing_keys=keys, rounds=ROUNDS
    )
    return dumps_record(played.record), tuple(k.private_bytes() for k in keys)


def doc() -> Doc:
    """A fresh copy of a seeded 3-player private-deal game, its first 4 rounds."""
    return json.loads(_game()[0])


def signing_key(seat: int) -> SigningKey:
    return SigningKey.from_private_bytes(_game()[1][seat])


def failure(document: Doc) -> RecordError:
    with pytest.raises(RecordError) as info:
        verify_document(document)
    return info.value


def bodies(rnd: Doc) -> list[tuple[Doc, dict[str, Any]]]:
    """Each envelope of a round with its decoded body."""
    envelopes = rnd["private_deal"]["envelopes"]
    return [(e, decode_body(bytes.fromhex(e["body"]))) for e in envelopes]


# -- honest records ----------------------------------------------------------------------------


def test_private_game_record_verifies_and_holds_the_whole_transcript() -> None:
    d = doc()
    record = verify_document(d)
    assert record.private and not record.complete and len(record.rounds) == ROUNDS
    assert d["protocol"] == PRIVATE_PROTOCOL
    keys = [signing_key(s).public_key.hex() for s in range(PLAYERS)]
    assert d["signing_keys"] == keys
    for r, rnd in enumerate(d["rounds"], 1):
        assert "commitments" not in rnd and "seeds" not in rnd
        setup = DealSetup.from_json(rnd["private_deal"]["setup"])
        assert setup.round == r and [k.hex() for k in setup.signing_keys] == keys
        assert setup.chain[0] == (rnd["dealer"] + 1) % PLAYERS
        kinds = [body["t"] for _, body in bodies(rnd)]
        n = PLAYERS
        assert (
            kinds
            == ["shuffle"] * n
            + ["lock"] * n
            + ["release"] * n
            + ["open"] * (n * r)
            + ["reveal"] * n
        )
        opens = [(e["from"], b["item"]) for e, b in bodies(rnd) if b["t"] == "open"]
        plays = [tuple(p) for t in rnd["tricks"] for p in t["plays"]]
        assert opens == plays
    # Reading and writing give back the same document, byte for byte.
    assert json.loads(dumps_record(parse_record(d))) == d


def test_complete_six_player_private_game_from_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["simulate", "--players", "6", "--deal", "private", "--seed", "p", "--json"]
    assert main([*argv, "--records", str(tmp_path)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["deal"] == "private" and report["games"] == 1
    (path,) = tmp_path.glob("*.json")
    d = json.loads(path.read_text())
    assert d["protocol"] == PRIVATE_PROTOCOL and d["complete"] and len(d["rounds"]) == 10
    assert d["rounds"][-1]["trump_card"] is None  # round 10 deals all 60 cards
    assert main(["verify", str(path)]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"OK {path} (10 rounds, winners: ")
    # The same file with one envelope body changed fails, from the command line too.
    env = d["rounds"][0]["private_deal"]["envelopes"][-1]
    env["body"] = _flip(env["body"])
    path.write_text(json.dumps(d))
    assert main(["verify", str(path)]) == 1
    assert capsys.readouterr().out.startswith(f"FAIL {path}: round 1: bad_signature: ")


def test_commit_reveal_stays_the_default() -> None:
    rng = random.Random(3)
    bots = [make_bot("random", random.Random(s)) for s in range(PLAYERS)]
    record = play_game(bots, new_deal_set(PLAYERS, rng), rounds=2).record
    assert not record.private and record.to_dict()["protocol"] == "commit-reveal-v1"
    assert "signing_keys" not in record.to_dict()
    verify_document(record.to_dict())


# -- tampering ---------------------------------------------------------------------------------


def _flip(hex_text: str) -> str:
    return hex_text[:-1] + ("0" if hex_text[-1] != "0" else "1")


def test_a_changed_hand_is_the_recorders_fault() -> None:
    d = doc()
    hands = d["rounds"][2]["hands"]
    hands[0][1], hands[1][1] = hands[1][1], hands[0][1]
    exc = failure(d)
    assert (exc.rule, exc.round, exc.trick, exc.seat, exc.culprit) == ("hand", 3, None, 0, RELAY)


def test_a_changed_trump_card_is_the_recorders_fault() -> None:
    d = doc()
    rnd = d["rounds"][1]
    rnd["trump_card"] = rnd["hands"][0][0]
    exc = failure(d)
    assert (exc.rule, exc.round, exc.culprit) == ("trump-card", 2, RELAY)


def test_a_changed_play_does_not_match_the_transcript() -> None:
    d = doc()
    trick = d["rounds"][3]["tricks"][1]  # round 4, trick 2
    seat, card = trick["plays"][1]
    hand = d["rounds"][3]["hands"][seat]
    trick["plays"][1][1] = next(c for c in hand if c != card)
    exc = failure(d)
    assert (exc.rule, exc.round, exc.trick, exc.seat, exc.culprit) == (
        "open-mismatch",
        4,
        2,
        seat,
        RELAY,
    )


def test_plays_swapped_between_tricks_do_not_match_the_transcript() -> None:
    """Both cards were in the hand, so only the transcript's order tells the lie."""
    d = doc()
    tricks = d["rounds"][1]["tricks"]  # round 2: two tricks
    first = next(i for i, p in enumerate(tricks[0]["plays"]) if p[0] == tricks[1]["leader"])
    a, b = tricks[0]["plays"][first], tricks[1]["plays"][0]
    a[1], b[1] = b[1], a[1]
    exc = failure(d)
    assert (exc.rule, exc.round, exc.trick, exc.seat) == ("open-mismatch", 2, 1, a[0])


def test_a_modified_envelope_body_fails_its_signature() -> None:
    d = doc()
    envelopes = d["rounds"][1]["private_deal"]["envelopes"]
    envelopes[4]["body"] = _flip(envelopes[4]["body"])  # a lock pass's deck
    exc = failure(d)
    assert (exc.rule, exc.round, exc.seat, exc.culprit) == ("bad_signature", 2, None, RELAY)
    assert "blame: the relay" in str(exc)


def test_a_dropped_envelope_is_the_relays_fault() -> None:
    d = doc()
    del d["rounds"][0]["private_deal"]["envelopes"][1]
    exc = failure(d)
    assert (exc.rule, exc.round, exc.culprit) == ("out_of_order", 1, RELAY)


def _resign(rnd: Doc, env: Doc, body: dict[str, Any]) -> None:
    """Replace ``env``'s body with ``body``, signed by its sender: what a cheating seat sends."""
    setup = DealSetup.from_json(rnd["private_deal"]["setup"])
    seat = env["from"]
    sealer = Sealer(signing_key(seat), MESSAGE_TAG, setup.context, seat, env["seq"])
    signed = sealer.seal(msgpack.packb(body, use_bin_type=True))
    env.update(signed.to_json())


def test_a_swapped_released_key_is_the_releasers_fault() -> None:
    d = doc()
    rnd = d["rounds"][2]
    env, body = next((e, b) for e, b in bodies(rnd) if b["t"] == "release" and e["from"] == 1)
    keys = body["keys"]
    body["keys"] = keys[32:64] + keys[:32] + keys[64:]  # its first two keys trade places
    _resign(rnd, env, body)
    Envelope.from_json(env)  # a well-formed, validly signed envelope
    exc = failure(d)
    assert (exc.rule, exc.round, exc.seat, exc.culprit) == ("released_key_mismatch", 3, 1, 1)
    assert "blame: seat 1" in str(exc)


def test_a_false_claim_is_the_players_fault() -> None:
    d = doc()
    rnd = d["rounds"][3]
    env, body = [(e, b) for e, b in bodies(rnd) if b["t"] == "open"][5]
    body["item"] = (body["item"] + 1) % 60
    _resign(rnd, env, body)
    exc = failure(d)
    seat = env["from"]
    assert (exc.rule, exc.round, exc.seat, exc.culprit) == ("wrong_claim", 4, seat, seat)


def test_a_setup_other_than_the_games_is_refused() -> None:
    d = doc()
    setup = d["rounds"][1]["private_deal"]["setup"]
    setup["chain"] = setup["chain"][::-1]
    exc = failure(d)
    assert (exc.rule, exc.round, exc.culprit) == ("deal-setup", 2, RELAY)
    assert "chain" in exc.detail


def test_other_signing_keys_are_refused() -> None:
    d = doc()
    d["signing_keys"][2] = SigningKey.from_private_bytes(bytes(32)).public_key.hex()
    exc = failure(d)
    assert (exc.rule, exc.round) == ("deal-setup", 1) and "signing_keys" in exc.detail


@pytest.mark.parametrize(
    ("change", "rule"),
    [
        (lambda d: d.pop("signing_keys"), "missing-field"),
        (lambda d: d["rounds"][0].pop("private_deal"), "missing-field"),
        (lambda d: d["rounds"][0]["private_deal"]["setup"].update(owners=[7] * 60), "bad-value"),
        (lambda d: d["rounds"][0]["private_deal"]["envelopes"][0].pop("sig"), "bad-value"),
        (lambda d: d.update(redeals=[{"round": 1}]), "missing-field"),
    ],
)
def test_malformed_private_records(change: Any, rule: str) -> None:
    d = doc()
    change(d)
    assert failure(d).rule == rule
