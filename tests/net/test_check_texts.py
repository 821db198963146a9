"""A failed round check reads in the player's language, and its record text is the English
it always was, byte for byte; netplay's connection messages read in the language too."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from netplay import fairdeal
from netplay.commit_reveal import ClientRound, CommitRevealError
from netplay.errors import NetplayError
from netplay.identity import HostKeyChanged, IdentityError, KnownHosts
from netplay.mental import RELAY, DealFault
from wizard_tui import i18n
from wizard_tui.game import DECK_SIZE, Game, GameConfig, RestrictLastBid, RoundResult, card_name
from wizard_tui.game.engine import Trick
from wizard_tui.net.check_texts import DEAL_FAULTS, fault_phrase
from wizard_tui.net.link_texts import (
    TEMPLATES,
    announced,
    announcement_text,
    error_text,
    link_text,
    said_of,
)
from wizard_tui.net.round_check import RoundChecker
from wizard_tui.phrase import Gloss, phrase, recognise
from wizard_tui.session import RoundVerified
from wizard_tui.ui.narrate import failure_detail

GAME_ID = bytes(range(16))
CONFIG = GameConfig(3, 0, RestrictLastBid.NEVER)


@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    yield
    i18n.setup("en")


def _round_one() -> tuple[list[int], RoundResult]:
    deck = fairdeal.shuffle_order(bytes(32), DECK_SIZE)
    game = Game(CONFIG)
    game.deal(deck)
    while not game.results:
        game.apply(game.legal_actions()[0])
    return deck, game.results[-1]


def _forged(result: RoundResult, **changes: Any) -> RoundResult:
    fields: dict[str, Any] = {name: getattr(result, name) for name in result.__match_args__}
    fields.update(changes)
    return RoundResult(**fields)


def _shown_in(code: str, v: RoundVerified) -> str:
    i18n.setup(code)
    return failure_detail(v)


def test_a_wrong_dealer_reads_in_czech_and_german_and_records_the_old_english() -> None:
    deck, result = _round_one()
    outcome = RoundChecker(CONFIG, 0).check_deck(deck, _forged(result, dealer=1), None)
    v = RoundVerified.of(outcome.round, outcome.ok, outcome.said)
    assert not v.ok
    assert v.detail == "round 1: the host says seat 1 dealt; it was seat 0's deal"
    assert _shown_in("cs", v) == ("hostitel tvrdí, že rozdávalo místo 1; rozdávat mělo místo 0")
    assert _shown_in("de", v) == "der Gastgeber sagt, Platz 1 hat gegeben; Platz 0 war Geber"
    i18n.setup("de")
    assert v.detail == "round 1: the host says seat 1 dealt; it was seat 0's deal"  # unchanged


def test_a_card_not_in_the_hand_names_the_rule_in_the_language() -> None:
    deck, result = _round_one()
    first = result.tricks[0]
    stolen = first.cards[2]  # the third seat's card, played by the second
    forged = Trick(first.leader, (first.cards[0], stolen, first.cards[1]), first.winner)
    outcome = RoundChecker(CONFIG, 0).check_deck(deck, _forged(result, tricks=(forged,)), None)
    seat = (first.leader + 1) % 3
    name = card_name(stolen, ascii_only=True)
    assert outcome.detail == (
        f"round 1: trick 1, seat {seat}: {name}: {card_name(stolen)} is not in your hand"
    )
    v = RoundVerified.of(outcome.round, False, outcome.said)
    assert _shown_in("cs", v) == f"štych 1, místo {seat}: {name}: ta karta nebyla v ruce hráče"
    assert _shown_in("de", v) == (
        f"Stich 1, Platz {seat}: {name}: diese Karte war nicht auf der Hand des Spielers"
    )


def test_a_seed_that_does_not_open_its_commitment_reads_in_the_language() -> None:
    rounds = [ClientRound(GAME_ID, 1, seat, 3) for seat in range(3)]
    vector = [r.commit_message()["commitment"] for r in rounds]
    for r in rounds:
        r.receive_commitments({"t": "commitments", "round": 1, "commitments": vector})
    seeds = [r.seed_message()["seed"] for r in rounds]
    _, result = _round_one()
    outcome = RoundChecker(CONFIG, 0).check(rounds[0], result, [*seeds[:2], bytes(32)], None)
    assert outcome.detail == "round 1: the seed of seat 2 does not match its commitment"
    v = RoundVerified.of(1, False, outcome.said)
    assert _shown_in("cs", v) == "semínko místa 2 neodpovídá jeho závazku"
    assert _shown_in("de", v) == "der Seed von Platz 2 passt nicht zu seinem Commitment"
    assert _shown_in("es", v) == "la semilla del asiento 2 no coincide con su compromiso"
    assert _shown_in("it", v) == "il seme del posto 2 non corrisponde al suo impegno"


def test_every_commit_reveal_message_a_seat_can_get_is_one_of_ours() -> None:
    """The texts ClientRound raises are read back, so none shows in English in Czech."""
    seat = ClientRound(GAME_ID, 4, 0, 3)
    mine = seat.commit_message()["commitment"]
    found: list[CommitRevealError] = []
    for vector in ([mine], [bytes(32)] * 3):  # (a malformed one fails netplay's schema first)
        with pytest.raises(CommitRevealError) as caught:
            seat.receive_commitments({"t": "commitments", "round": 4, "commitments": vector})
        found.append(caught.value)
    with pytest.raises(CommitRevealError) as caught:
        seat.check_reveal([bytes(32)] * 3)  # before any vector
    found.append(caught.value)
    vector = [mine, *(ClientRound(GAME_ID, 4, s, 3).commit_message()["commitment"] for s in (1, 2))]
    seat.receive_commitments({"t": "commitments", "round": 4, "commitments": vector})
    for seeds in ([bytes(32)], [bytes(32)] * 3, [seat.seed_message()["seed"], *[bytes(32)] * 2]):
        with pytest.raises(CommitRevealError) as caught:
            seat.check_reveal(seeds)
        found.append(caught.value)
    from wizard_tui.net.check_texts import exchange_phrase

    i18n.setup("cs")
    for exc in found:
        said = exchange_phrase(exc, 4)
        assert said.english() == exc.message  # the record's text, unchanged
        assert said.shown() != exc.message, exc.message  # and translated


def test_a_private_deal_fault_keeps_netplay_s_english_and_reads_translated() -> None:
    fault = DealFault("not_owner", "seat 1 opened position 7 of seat 2", culprit=RELAY)
    said = phrase("the deal did not verify: {why}", why=fault_phrase(fault))
    assert said.english() == f"the deal did not verify: {fault}"
    i18n.setup("it")
    assert fault_phrase(fault).shown() == (
        "è stata giocata una carta distribuita a qualcun altro (colpa: l'intermediario)"
    )
    blameless = DealFault("not_a_deck", "the final deck does not open", culprit=None)
    assert fault_phrase(blameless).english() == str(blameless)
    i18n.setup("es")
    assert fault_phrase(blameless).shown().endswith("(culpa: nadie)")
    assert set(DEAL_FAULTS) >= {"wrong_claim", "shuffle_mismatch", "lock_mismatch"}


def test_a_gloss_and_an_unknown_text_keep_their_english() -> None:
    said = phrase("{rule} ({code})", rule=Gloss("as the rules said", phrase("nobody")), code="x")
    i18n.setup("de")
    assert said.english() == "as the rules said (x)"
    assert said.shown() == "niemand (x)"
    assert recognise("no such sentence", TEMPLATES) is None
    assert link_text("no such sentence") == "no such sentence"


def test_link_texts_read_back_with_their_fields_nested() -> None:
    text = "gave up reconnecting after 30 s: nothing heard from the host for 10 s"
    assert said_of(text).english() == text
    i18n.setup("cs")
    assert link_text(text) == ("opětovné připojování vzdáno po 30 s: 10 s bez zprávy od hostitele")
    i18n.setup("de")
    assert announcement_text("a bot plays for Ann until they are back") == (
        "ein Bot spielt für Ann, bis er zurück ist"
    )


def test_connect_errors_in_the_language_and_english_as_netplay_says_them(
    tmp_path: Path,
) -> None:
    changed = HostKeyChanged(bytes(32), bytes([1] * 32), label="10.0.0.2:7777", where="/k/h")
    bad = tmp_path / "known_hosts.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(IdentityError) as unreadable:
        KnownHosts(bad).expected("x")
    wrong = NetplayError(
        "bad_password", "wrong room password: check it with the host and try again"
    )
    assert [error_text(e) for e in (changed, wrong)] == [changed.message, wrong.message]
    i18n.setup("cs")
    said = error_text(changed)
    assert said.startswith("VAROVÁNÍ: KLÍČ HOSTITELE 10.0.0.2:7777 SE ZMĚNIL.")
    assert changed.pinned in said and changed.offered in said and " v /k/h " in said
    assert error_text(wrong) == "špatné heslo místnosti: ověř ho u hostitele a zkus to znovu"
    text = error_text(unreadable.value)
    assert text.startswith(f"soubor známých hostitelů {bad} nelze přečíst (")


def test_the_host_key_notice_is_in_the_language() -> None:
    from wizard_tui.net.client import NetworkSession

    session = NetworkSession("127.0.0.1", 1, name="Ann")
    i18n.setup("es")
    assert session.host_key_notice() == "aún sin conexión: no hay huella del anfitrión"


VOID_LINES = (
    # (the host's English, words the German shows)
    (
        "round 3 is dealt again: seat 1 stopped the round: its check found bad_deck, "
        "blaming seat 2 (blame: seat 2)",
        ("Runde 3 wird neu ausgeteilt", "Platz 1 hat die Runde angehalten", "(Schuld: Platz 2)"),
    ),
    (
        "round 2: seat 0 stopped the round: its check found wrong_claim after every card "
        "was played: scored from the cards played",
        ("nach den gespielten Karten gewertet", "(nachdem jede Karte gespielt war)"),
    ),
    (
        "round-end check: shuffle_mismatch: pass 3 is not a permutation",
        ("Prüfung am Rundenende: ", "Mischen"),
    ),
    (
        "seat 2 revoked: you must follow hearts (or play a Wizard or Jester)",
        ("Platz 2 hat nicht bedient", "Herz", "Zauberer"),
    ),
    ("Ann (seat 1) left without revealing its keys", ("Ann (Platz 1) ist gegangen",)),
    (
        "round 4: Bo (seat 2) lost the round's keys after every card: scored from the cards played",
        ("Runde 4: Bo (Platz 2) hat die Schlüssel der Runde nach allen Karten verloren",),
    ),
)


@pytest.mark.parametrize(("text", "words"), VOID_LINES)
def test_void_reasons_read_back_and_show_translated(text: str, words: tuple[str, ...]) -> None:
    assert announced(text).english() == text  # the record's words, as the host sent them
    assert announcement_text(text) == text  # English shows as it came
    i18n.setup("de")
    shown = announcement_text(text)
    assert all(word in shown for word in words), shown
    assert "round" not in shown and "seat" not in shown, shown


def test_a_void_reason_we_do_not_know_shows_as_it_came() -> None:
    i18n.setup("es")
    text = "seat 9 did something new: a special card"
    assert announcement_text(text) == text
    assert announcement_text("bogus_code: a detail") == "bogus_code: a detail"
