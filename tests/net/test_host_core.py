"""The host's rules driven with no socket and no event loop.

The host's core (``HostCore``) takes inputs and returns effects; its adapter
(``WizardHost``) reads the clock, schedules the timers and runs the bots through its
``HostRuntime``; here that is ``FakeRuntime`` (a clock the test moves, timers it fires, bots
it runs) and the server is ``FakeServer`` (it keeps what the host sent, and for each message
how many journal entries were on the disk then). The tests feed the host's inputs (joins,
messages, disconnects, time) and assert on what came out; some drive the bare core, with
no adapter at all, and assert on the effects ``handle`` returns.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from open_deal import KIND as OPEN_DEAL
from open_deal import OpenDealHost

from netplay import Session
from netplay.commit_reveal import ClientRound
from netplay.sessions import SessionTable
from wizard_tui.bots import Bot
from wizard_tui.game import Phase, SeatView, rounds_for, seat_view
from wizard_tui.net import protocol as p
from wizard_tui.net.deals import register_deal_kind, unregister_deal_kind
from wizard_tui.net.host import BOT_PACING, HostCore, HostOptions
from wizard_tui.net.host_adapter import WizardHost
from wizard_tui.net.host_effects import (
    AskBot,
    BotDecided,
    Broadcast,
    CancelTimer,
    Effect,
    GameFinished,
    Joined,
    Journal,
    Left,
    OpenJournal,
    Received,
    Restored,
    Resumed,
    Send,
    SendPayload,
    StartTimer,
    Stopped,
    TimerFired,
    Welcome,
    WriteRecord,
)
from wizard_tui.net.host_runtime import BotDone
from wizard_tui.net.journal import read_journal
from wizard_tui.net.restore import replay
from wizard_tui.record import read_record


class _Timer:
    def __init__(self, when: float, fire: Callable[[], None]) -> None:
        self.when, self.fire, self.cancelled = when, fire, False

    def cancel(self) -> None:
        self.cancelled = True


class FakeRuntime:
    """A clock the test moves; timers and bots that run when the test says so."""

    def __init__(self) -> None:
        self.t = 1000.0
        self.timers: list[_Timer] = []
        self.bots: list[tuple[_Timer, Bot, SeatView, BotDone]] = []

    def now(self) -> float:
        return self.t

    def call_later(self, delay: float, fire: Callable[[], None]) -> _Timer:
        timer = _Timer(self.t + max(0.0, delay), fire)
        self.timers.append(timer)
        return timer

    def ask_bot(
        self, bot: Bot, view: SeatView, fallback: Callable[[SeatView], Any], done: BotDone
    ) -> _Timer:
        handle = _Timer(self.t, lambda: None)
        self.bots.append((handle, bot, view, done))
        return handle

    def advance(self, seconds: float = 0.0) -> None:
        """Move the clock on, firing every timer due (in order) and every bot asked."""
        end = self.t + seconds
        while True:
            self.run_bots()
            due = [t for t in self.timers if not t.cancelled and t.when <= end]
            if not due:
                break
            timer = min(due, key=lambda t: t.when)
            self.timers.remove(timer)
            self.t = max(self.t, timer.when)
            timer.fire()
        self.t = end

    def run_bots(self) -> None:
        while self.bots:
            handle, bot, view, done = self.bots.pop(0)
            if not handle.cancelled:
                done(bot.decide(view), False)  # type: ignore[arg-type]


class FakeServer:
    """What the host sent, each with the journal's entry count at that moment."""

    def __init__(self, journal_dir: Path | None = None) -> None:
        self.sessions = SessionTable()
        self.sent: list[tuple[str | None, dict[str, Any], int]] = []  # (session id, msg, entries)
        self.errors: list[tuple[str, str]] = []
        self.journal_dir = journal_dir

    def _entries(self) -> int:
        if self.journal_dir is None or not self.journal_dir.exists():
            return 0
        paths = list(self.journal_dir.glob("*.journal"))
        return len(read_journal(paths[0]).entries) if paths else 0

    def send(self, session: Session, msg: dict[str, Any]) -> None:
        self.sent.append((session.id, msg, self._entries()))

    def send_payload(self, session: Session, payload: bytes) -> None:
        import msgpack

        self.sent.append((session.id, msgpack.unpackb(payload), self._entries()))

    def broadcast(self, msg: dict[str, Any]) -> None:
        self.sent.append((None, msg, self._entries()))

    def error(self, session: Session, code: str, message: str, *, fatal: bool = False) -> None:
        self.errors.append((session.id, code))
        session.connected = False

    def forget(self, session: Session) -> None:
        pass

    def to(self, session: Session) -> list[dict[str, Any]]:
        return [m for sid, m, _ in self.sent if sid in (None, session.id)]


def _session(name: str) -> Session:
    return Session(id=f"id-{name}", name=name, token=f"tok-{name}", connected=True, key=b"k" * 32)


def _host(tmp_path: Path, **kw: Any) -> tuple[WizardHost, FakeRuntime, FakeServer]:
    options = HostOptions(
        players=3,
        bots=1,
        bot_level="random",
        records_dir=tmp_path / "records",
        journal_dir=tmp_path / "games",
        **kw,
    )
    runtime = FakeRuntime()
    host = WizardHost(options, rng=random.Random(5), runtime=runtime)
    server = FakeServer(options.journal_dir)
    host.server = server  # type: ignore[assignment]
    return host, runtime, server


def _join(host: WizardHost, runtime: FakeRuntime, *names: str) -> list[Session]:
    sessions = []
    for name in names:
        session = _session(name)
        host.on_join(session, {})
        sessions.append(session)
        runtime.advance()
    return sessions


class Players:
    """The two people at the table: they answer the deal and play the first legal move."""

    def __init__(self, host: WizardHost, server: FakeServer, sessions: list[Session]) -> None:
        self.host, self.server, self.sessions = host, server, sessions
        self.rounds: dict[int, ClientRound] = {}
        self.seen = 0

    def answer(self) -> None:
        """Answer every deal message the host sent since the last call."""
        new, self.seen = self.server.sent[self.seen :], len(self.server.sent)
        table = self.host.table
        assert table is not None
        for sid, msg, _ in new:
            for s in self.sessions:
                if sid not in (None, s.id) or s.seat is None:
                    continue
                if msg["t"] == "round":
                    cr = ClientRound(table.game_id, msg["round"], s.seat, 3)
                    self.rounds[s.seat] = cr
                    self.host.on_message(s, cr.commit_message())
                elif msg["t"] == "commitments" and s.seat in self.rounds:
                    cr = self.rounds[s.seat]
                    cr.receive_commitments(msg)
                    self.host.on_message(s, cr.seed_message())

    def move(self) -> bool:
        """The seat on turn, if a person's, makes its first legal move."""
        table = self.host.table
        assert table is not None
        game = table.game
        for s in self.sessions:
            if s.seat == game.turn and game.phase in (Phase.CHOOSE_TRUMP, Phase.BID, Phase.PLAY):
                view = seat_view(game, s.seat)  # type: ignore[arg-type]
                r = game.round
                if view.phase is Phase.PLAY:
                    self.host.on_message(s, p.play_msg(s.seat, r, view.legal_cards[0]))
                elif view.phase is Phase.BID:
                    self.host.on_message(s, p.bid_msg(s.seat, r, view.legal_bids[0]))
                else:
                    self.host.on_message(s, p.trump_msg(s.seat, r, 0))
                return True
        return False


def _play_rounds(host: WizardHost, runtime: FakeRuntime, players: Players, rounds: int) -> None:
    table = host.table
    assert table is not None
    for _ in range(2000):
        players.answer()
        runtime.advance()
        if len(table.game.results) >= rounds:
            return
        if not players.move():
            runtime.advance()
    raise AssertionError("the game did not move on")


def test_lobby_to_game_to_a_scored_round(tmp_path: Path) -> None:
    host, runtime, server = _host(tmp_path)
    alice, bob = _join(host, runtime, "alice", "bob")
    # The lobby filled (two people, one bot) and the host started by itself.
    lobby = [m for m in server.to(alice) if m["t"] == "lobby"]
    assert lobby and lobby[-1]["seats"][2]["kind"] == "bot"
    assert host.table is not None
    assert [m["t"] for m in server.to(alice) if m["t"] in ("game", "round")] == ["game", "round"]
    _play_rounds(host, runtime, Players(host, server, [alice, bob]), 1)
    ends = [m for m in server.to(bob) if m["t"] == "round_end"]
    assert len(ends) == 1 and ends[0]["result"]["round"] == 1
    assert len(ends[0]["result"]["seeds"]) == 3  # published at the round's end
    assert host.table.recorder.record().rounds[0].round == 1
    entries = read_journal(next((tmp_path / "games").glob("*.journal"))).entries
    assert [e["t"] for e in entries].count("round_end") == 1


def test_the_record_is_an_effect_written_after_the_steps_journal_entries(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    host, runtime, server = _host(tmp_path)
    records = tmp_path / "records"
    steps: list[tuple[list[Effect], list[Path]]] = []
    run = host.run_effects

    def spy(effects: list[Effect]) -> None:
        steps.append((list(effects), sorted(records.glob("*.json")) if records.exists() else []))
        run(effects)

    monkeypatch.setattr(host, "run_effects", spy)
    alice, bob = _join(host, runtime, "alice", "bob")
    _play_rounds(host, runtime, Players(host, server, [alice, bob]), 1)
    writing = [(e, before) for e, before in steps if any(isinstance(x, WriteRecord) for x in e)]
    assert len(writing) == 1  # the round's end
    effects, before = writing[0]
    assert before == []  # the step itself wrote nothing: running its effects did
    (write,) = [e for e in effects if isinstance(e, WriteRecord)]
    assert any(isinstance(e, Journal) and e.entry["t"] == "round_end" for e in effects)
    assert host.table is not None and host.table.record_path == write.path
    assert [r.round for r in read_record(write.path).rounds] == [1]


def test_an_action_out_of_turn_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    host, runtime, server = _host(tmp_path)
    alice, bob = _join(host, runtime, "alice", "bob")
    players = Players(host, server, [alice, bob])
    players.answer()
    players.answer()
    table = host.table
    assert table is not None
    # The seeds are random: the host's bot may be first; it moves when the clock does.
    for _ in range(50):
        if table.game.turn in (alice.seat, bob.seat):
            break
        runtime.advance(1.0)
    assert table.game.phase in (Phase.BID, Phase.CHOOSE_TRUMP)
    assert table.game.turn in (alice.seat, bob.seat)
    wrong = alice if table.game.turn != alice.seat else bob
    before = (table.game.actions, table.game.turn)
    assert wrong.seat is not None
    if table.game.phase is Phase.BID:
        msg = p.bid_msg(wrong.seat, 1, 0)
    else:
        msg = p.trump_msg(wrong.seat, 1, 0)
    entries = len(read_journal(next((tmp_path / "games").glob("*.journal"))).entries)
    effects = host.handle(Received(wrong, msg), runtime.now())
    # Its one effect: the refusal, to the sender alone; nothing journaled, nothing changed.
    assert [type(e) for e in effects] == [Send]
    (refusal,) = effects
    assert isinstance(refusal, Send) and refusal.session is wrong
    assert (refusal.msg["t"], refusal.msg["code"]) == ("refused", "not_your_turn")
    assert (table.game.actions, table.game.turn) == before
    assert len(read_journal(next((tmp_path / "games").glob("*.journal"))).entries) == entries
    # An accepted one: journaled before handle returns its sends (a state per person).
    right = alice if wrong is bob else bob
    assert right.seat == table.game.turn and right.seat is not None
    view = seat_view(table.game, right.seat)  # type: ignore[arg-type]
    if view.phase is Phase.BID:
        msg = p.bid_msg(right.seat, 1, view.legal_bids[0])
    else:
        msg = p.trump_msg(right.seat, 1, 0)
    effects = host.handle(Received(right, msg), runtime.now())
    # Its effects: the fact's entry first, then a state per person; none ran yet.
    assert isinstance(effects[0], Journal) and effects[0].entry["t"] == "action"
    assert not any(isinstance(e, Journal) for e in effects[1:])
    assert {e.session.id for e in effects if isinstance(e, SendPayload)} == {alice.id, bob.id}
    path = next((tmp_path / "games").glob("*.journal"))
    assert len(read_journal(path).entries) == entries
    sent = len(server.sent)
    host.run_effects(effects)
    after = read_journal(path).entries
    assert len(after) == entries + 1 and after[-1] == effects[0].entry
    # ... and the server got the sends once the entry was on the disk.
    assert [n for _, _, n in server.sent[sent:]] == [entries + 1] * (len(server.sent) - sent)


def test_a_card_for_the_round_just_over_is_refused_while_the_next_is_dealt(
    tmp_path: Path,
) -> None:
    # A card of round 1 (sent twice, or by a table a moment behind) that reaches the host
    # once the round is over and round 2's seeds are still coming (the engine waits for
    # its deck, its round still 1): refused as out of its phase, nothing journaled. It
    # used to raise inside the host's callback ("an action of round 1 outside its round").
    host, runtime, server = _host(tmp_path)
    alice, bob = _join(host, runtime, "alice", "bob")
    _play_rounds(host, runtime, Players(host, server, [alice, bob]), 1)
    table = host.table
    assert table is not None and alice.seat is not None
    assert table.game.phase is Phase.DEAL and table.game.round == 1
    path = next((tmp_path / "games").glob("*.journal"))
    entries = len(read_journal(path).entries)
    card = table.recorder.record().rounds[0].hands[alice.seat][0]
    effects = host.handle(Received(alice, p.play_msg(alice.seat, 1, card)), runtime.now())
    assert [type(e) for e in effects] == [Send]
    (refusal,) = effects
    assert isinstance(refusal, Send) and refusal.session is alice
    assert (refusal.msg["t"], refusal.msg["code"]) == ("refused", "wrong_phase")
    host.run_effects(effects)
    assert len(read_journal(path).entries) == entries
    assert table.game.phase is Phase.DEAL and table.game.round == 1


def test_a_dropped_player_is_taken_over_when_its_time_runs_out(tmp_path: Path) -> None:
    host, runtime, server = _host(tmp_path, takeover_after=30.0)
    alice, bob = _join(host, runtime, "alice", "bob")
    players = Players(host, server, [alice, bob])
    players.answer()
    players.answer()
    assert bob.seat is not None
    seat = host.seats[bob.seat]
    assert seat is not None
    bob.connected = False
    host.on_disconnect(bob)
    seats = [m for m in server.sent if m[1]["t"] == "seats"][-1][1]["seats"]
    assert seats[bob.seat]["takeover_in"] == 30.0
    runtime.advance(29.0)
    assert seat.stand_in is None
    runtime.advance(1.0)
    assert seat.stand_in is not None  # a bot plays the seat now
    chats = [m["text"] for _, m, _ in server.sent if m["t"] == "chat"]
    assert "a bot plays for bob until they are back" in chats
    # And the game goes on without bob: the stand-in moves for the seat.
    players.sessions = [alice]
    _play_rounds(host, runtime, players, 1)


def test_a_takeover_countdown_is_a_timer_effect_and_its_end_an_input(tmp_path: Path) -> None:
    host, runtime, server = _host(tmp_path, takeover_after=30.0)
    alice, bob = _join(host, runtime, "alice", "bob")
    players = Players(host, server, [alice, bob])
    players.answer()
    players.answer()
    assert bob.seat is not None
    seat = host.seats[bob.seat]
    assert seat is not None
    key, now = ("takeover", bob.seat), runtime.now()
    bob.connected = False
    effects = host.handle(Left(bob), now)
    assert StartTimer(key, 30.0) in effects  # the core starts no timer: it asks for one
    host.run_effects(effects)
    bob.connected = True
    assert CancelTimer(key) in host.handle(Resumed(bob), now + 10)
    assert host.handle(TimerFired(key), now + 30) == []  # a late one changes nothing
    assert seat.stand_in is None
    bob.connected = False
    assert StartTimer(key, 30.0) in host.handle(Left(bob), now + 40)
    effects = host.handle(TimerFired(key), now + 70)
    assert seat.stand_in is not None  # a bot plays the seat now
    texts = [e.msg.get("text") for e in effects if isinstance(e, Broadcast)]
    assert "a bot plays for bob until they are back" in texts


def test_a_bot_is_paced_by_a_timer_asked_by_an_effect_and_answers_as_an_input(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    host, runtime, server = _host(tmp_path, bot_delay=2.0)
    steps: list[list[Effect]] = []
    run = host.run_effects

    def spy(effects: list[Effect]) -> None:
        steps.append(list(effects))
        run(effects)

    monkeypatch.setattr(host, "run_effects", spy)
    alice, bob = _join(host, runtime, "alice", "bob")
    players = Players(host, server, [alice, bob])
    table = host.table
    assert table is not None
    bot = next(i for i, s in enumerate(host.seats) if s is not None and s.kind == "bot")
    on_turn = (Phase.CHOOSE_TRUMP, Phase.BID, Phase.PLAY)
    for _ in range(200):  # the clock never moves: the bot's pacing never ends by itself
        players.answer()
        runtime.advance()
        if table.game.turn == bot and table.game.phase in on_turn:
            break
        players.move()
    else:
        raise AssertionError("the bot never came on turn")
    effects = [e for step in steps for e in step]
    assert StartTimer(BOT_PACING, 2.0) in effects
    assert not any(isinstance(e, AskBot) for e in effects)  # not before its pacing ended
    actions, now = len(table.game.actions), runtime.now() + 2.0
    (asked,) = host.handle(TimerFired(BOT_PACING), now)
    assert isinstance(asked, AskBot)
    assert (asked.seat, asked.position, asked.view.seat) == (bot, host.position, bot)
    action = asked.bot.decide(asked.view)
    # An answer for another position (one gone by) is dropped; the asked one acts.
    assert host.handle(BotDecided(bot, asked.position - 1, action), now) == []
    assert len(table.game.actions) == actions
    effects = host.handle(BotDecided(bot, asked.position, action), now)
    assert isinstance(effects[0], Journal) and effects[0].entry["t"] == "action"
    assert len(table.game.actions) == actions + 1


def test_every_message_is_sent_after_the_facts_it_tells_are_journaled(tmp_path: Path) -> None:
    host, runtime, server = _host(tmp_path)
    alice, bob = _join(host, runtime, "alice", "bob")
    _play_rounds(host, runtime, Players(host, server, [alice, bob]), 2)
    path = next((tmp_path / "games").glob("*.journal"))
    entries = read_journal(path).entries

    def on_disk(count: int, t: str, **fields: Any) -> int:
        """How many ``t`` entries with ``fields`` the first ``count`` entries hold."""
        return sum(
            1
            for e in entries[:count]
            if e["t"] == t and all(e.get(k) == v for k, v in fields.items())
        )

    told = {"commitments": 0, "round_end": 0, "actions": 0}
    for sid, msg, count in server.sent:
        if msg["t"] == "commitments":
            assert on_disk(count, "commitments", round=msg["round"]) == 1
            told["commitments"] += 1
        elif msg["t"] == "round_end":
            assert on_disk(count, "round_end", round=msg["result"]["round"]) == 1
            told["round_end"] += 1
        elif msg["t"] == "state" and sid == alice.id:
            # Every trump, bid and card alice has been told of was on the disk before.
            told["actions"] += sum(e[0] in ("bid", "played", "trump") for e in msg["events"])
            assert on_disk(count, "action") >= told["actions"]
    assert told["commitments"] == on_disk(len(entries), "commitments") >= 2
    assert told["round_end"] == on_disk(len(entries), "round_end") == 2
    assert told["actions"] == on_disk(len(entries), "action") > 10


def test_a_host_rebuilt_from_its_facts_is_the_live_one(tmp_path: Path) -> None:
    host, runtime, server = _host(tmp_path)
    alice, bob = _join(host, runtime, "alice", "bob")
    players = Players(host, server, [alice, bob])
    _play_rounds(host, runtime, players, 1)
    for _ in range(5):  # into round 2: its deal done, a few bids in
        players.answer()
        runtime.advance()
        players.move()
    table = host.table
    assert table is not None and table.game.round == 2
    path = next((tmp_path / "games").glob("*.journal"))
    state = replay(read_journal(path).entries)
    assert state.game.actions == table.game.actions
    assert state.recorder.record() == table.recorder.record()
    live, restored = host.deal_half.deal, state.half.deal  # type: ignore[attr-defined]
    assert (restored.commitments, restored.seeds) == (live.commitments, live.seeds)
    # The "crash": a new host from the journal, with the same runtime; its players resume.
    again = WizardHost.from_journal(path, host.options, runtime=runtime)
    again.server = FakeServer()  # type: ignore[assignment]
    assert again.table is not None
    assert [seat_view(again.table.game, s) for s in range(3)] == [  # type: ignore[arg-type]
        seat_view(table.game, s)  # type: ignore[arg-type]
        for s in range(3)
    ]
    again.resume_play()
    assert again.journal is not None
    again.journal.close()


def test_the_bare_core_takes_a_fake_clocks_time_as_the_games_creation(tmp_path: Path) -> None:
    # No adapter, no runtime, no server: inputs in, effects out. The game's journal header
    # (and its table) carry the time of the input that started it, never a clock's.
    options = HostOptions(players=3, bots=1, bot_level="random", journal_dir=tmp_path)
    core = HostCore(options, rng=random.Random(3))
    alice, bob = _session("alice"), _session("bob")
    (welcome, started) = core.handle(Joined(alice, {}), 5.0)
    assert isinstance(welcome, Welcome) and welcome.reply == {"players": 3}
    assert started == StartTimer(("joined", alice.id), 0.0)
    lobby = core.handle(TimerFired(started.key), 6.0)  # (after the welcome: the lobby)
    assert [type(e) for e in lobby] == [Send] and core.table is None
    assert isinstance(core.handle(Joined(bob, {}), 7.0)[0], Welcome)
    effects = core.handle(TimerFired(("joined", bob.id)), 1234.5)
    (opened,) = [e for e in effects if isinstance(e, OpenJournal)]
    assert opened.header["t"] == "game" and opened.header["created"] == 1234.5
    assert core.table is not None and core.table.created == 1234.5
    assert opened.path.parent == tmp_path  # (not created: the core touches no file)
    assert list(tmp_path.iterdir()) == []
    # Its next round's messages come after the header, in the same step's effects.
    kinds = [e.msg["t"] for e in effects if isinstance(e, Broadcast)]
    assert kinds == ["round"]
    assert effects.index(opened) < next(
        i for i, e in enumerate(effects) if isinstance(e, Broadcast)
    )


def test_a_round_end_that_deals_the_next_is_one_step_of_follow_ups(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Both people drop and bots take their seats: the host draws every seed, so the step of
    # a round's last card also ends the round, deals the next and moves its bot. Each of
    # those transitions is a follow-up input of that one step, handled after the one before
    # it returned (the core never re-enters itself); the step's effects are theirs in order.
    host, runtime, _ = _host(tmp_path, takeover_after=0.0)
    alice, bob = _join(host, runtime, "alice", "bob")
    steps: list[list[Effect]] = []
    run = host.run_effects

    def spy(effects: list[Effect]) -> None:
        steps.append(list(effects))
        run(effects)

    monkeypatch.setattr(host, "run_effects", spy)
    depth, deepest = [0], [0]
    after_change = host._after_change

    def nested(events: Any) -> None:
        depth[0] += 1
        deepest[0] = max(deepest[0], depth[0])
        try:
            after_change(events)
        finally:
            depth[0] -= 1

    monkeypatch.setattr(host, "_after_change", nested)
    for session in (alice, bob):
        session.connected = False
        host.on_disconnect(session)
    table = host.table
    assert table is not None
    for _ in range(200):
        runtime.advance()
        if len(table.game.results) >= 2:
            break
    assert len(table.game.results) >= 2
    assert deepest[0] == 1  # one change at a time, never one inside another
    step = next(e for e in steps if any(_entry(x) == "round_end" for x in e))
    entries = [_entry(e) for e in step if isinstance(e, Journal)]
    assert entries == ["action", "round_end", "round", "commitments"]
    said = [e.msg["t"] for e in step if isinstance(e, Broadcast)]
    assert said == ["round_end", "round", "commitments"]
    # The states of the last card, then those of the new deal, then its bot is asked.
    states = [i for i, e in enumerate(step) if isinstance(e, SendPayload)]
    assert len(states) == 4  # (two people's, twice)
    new_deal = step.index(
        next(e for e in step if isinstance(e, Broadcast) and e.msg["t"] == "round")
    )
    assert states[1] < new_deal < states[2]
    asked = step[-1]  # last: the bot on turn in the new deal decides (asked once)
    assert isinstance(asked, AskBot) and asked.view.round == entries_round(step) + 1
    assert sum(isinstance(e, AskBot) for e in step) == 1


def entries_round(step: list[Effect]) -> int:
    """The round a step's ``round_end`` entry ended."""
    return next(
        e.entry["round"] for e in step if isinstance(e, Journal) and _entry(e) == "round_end"
    )


def _entry(effect: Effect) -> str | None:
    return effect.entry["t"] if isinstance(effect, Journal) else None


def test_a_restored_host_carries_on_by_an_input_of_its_own(tmp_path: Path) -> None:
    # The journal of a game whose host died right after round 1 ended: the bare core rebuilt
    # from it carries on when handed ``Restored`` (once its server would listen): the
    # players' takeover countdowns start, the record is written, and round 2 is dealt.
    host, runtime, server = _host(tmp_path, takeover_after=30.0)
    alice, bob = _join(host, runtime, "alice", "bob")
    _play_rounds(host, runtime, Players(host, server, [alice, bob]), 1)
    entries = read_journal(next((tmp_path / "games").glob("*.journal"))).entries
    cut = next(i for i, e in enumerate(entries) if e["t"] == "round_end") + 1
    assert entries[cut]["t"] == "round"  # (which the restored host must journal again)
    options = dataclasses.replace(host.options)
    core = HostCore.from_replay(replay(entries[:cut]), options, rng=random.Random(1))
    assert core.table is not None and core.table.game.round == 1
    humans = [i for i, s in enumerate(core.seats) if s is not None and s.kind == "human"]
    effects = core.handle(Restored(), 2000.0)
    timers = [e for e in effects if isinstance(e, StartTimer)]
    assert [(t.key, t.delay) for t in timers] == [(("takeover", i), 30.0) for i in humans]
    assert all(core.seats[i].takeover_at == 2030.0 for i in humans)  # type: ignore[union-attr]
    assert any(isinstance(e, WriteRecord) for e in effects)
    (began,) = [e for e in effects if isinstance(e, Journal)]
    assert (began.entry["t"], began.entry["round"]) == ("round", 2)
    (told,) = [e for e in effects if isinstance(e, Broadcast)]
    assert told.msg == {"t": "round", "round": 2, "dealer": told.msg["dealer"]}
    assert effects.index(began) < effects.index(told)
    assert core.handle(Restored(), 2001.0) != []  # (an input like any: it is its own step)


def test_a_stopped_core_cancels_its_timers_and_hears_none_after(tmp_path: Path) -> None:
    core = HostCore(HostOptions(players=3, bots=1, bot_level="random"), rng=random.Random(4))
    alice = _session("alice")
    _, started = core.handle(Joined(alice, {}), 1.0)
    assert isinstance(started, StartTimer)
    assert core.handle(Stopped(), 2.0) == [CancelTimer(started.key)]
    assert core.handle(TimerFired(started.key), 3.0) == []  # (its lobby is never sent)


def test_a_journal_the_adapter_cannot_open_is_given_up_by_an_input(tmp_path: Path) -> None:
    # The journal's directory is a file: the adapter cannot create the journal and tells
    # the core (``JournalLost``); from then on the core's steps journal nothing, and the
    # game goes on.
    blocked = tmp_path / "games"
    blocked.write_text("not a directory")
    host, runtime, server = _host(tmp_path)
    alice, bob = _join(host, runtime, "alice", "bob")
    assert host.table is not None and host.journal is None and not host.journaling
    steps: list[list[Effect]] = []
    run = host.run_effects

    def spy(effects: list[Effect]) -> None:
        steps.append(list(effects))
        run(effects)

    host.run_effects = spy  # type: ignore[method-assign]
    _play_rounds(host, runtime, Players(host, server, [alice, bob]), 1)
    assert not any(isinstance(e, Journal) for step in steps for e in step)
    assert [m["t"] for m in server.to(alice)].count("round_end") == 1


# --------------------------------------------------------------------------- a new deal kind


def test_a_new_deal_kind_plays_a_whole_game_with_no_change_to_the_host(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    register_deal_kind(OPEN_DEAL)  # open_deal/: a package and this line
    try:
        options = HostOptions(players=3, bots=1, bot_level="random", deal=OPEN_DEAL.name)
        runtime = FakeRuntime()
        host = WizardHost(options, rng=random.Random(2), runtime=runtime)
        server = FakeServer()
        host.server = server  # type: ignore[assignment]
        steps: list[list[Effect]] = []
        run = host.run_effects

        def spy(effects: list[Effect]) -> None:
            steps.append(list(effects))
            run(effects)

        monkeypatch.setattr(host, "run_effects", spy)
        alice, bob = _join(host, runtime, "alice", "bob")
        assert isinstance(host.deal_half, OpenDealHost)
        assert [m["deal"] for m in server.to(alice) if m["t"] == "lobby"][-1] == OPEN_DEAL.name
        players = Players(host, server, [alice, bob])
        for _ in range(5000):
            runtime.advance()
            if host.table is not None and host.table.finished:
                break
            players.move()
        table = host.table
        assert table is not None and table.finished and host.finished.is_set()
        assert len(table.game.results) == rounds_for(3)
        ends = [m for m in server.to(alice) if m["t"] == "round_end"]
        assert [m["result"]["round"] for m in ends] == list(range(1, rounds_for(3) + 1))
        assert [m["t"] for m in server.to(bob)][-1] == "game_over"
        # The game's end is the last step's effect, after its game_over is broadcast.
        (last,) = [step for step in steps if any(isinstance(e, GameFinished) for e in step)]
        kinds = [type(e) for e in last]
        over = [i for i, e in enumerate(last) if isinstance(e, Broadcast)][-1]
        assert last[over].msg["t"] == "game_over" and kinds.index(GameFinished) > over
        # Another kind's exchange is refused: this host asks for no commitment.
        host.on_message(alice, {"t": "commit", "round": 1, "commitment": bytes(32)})
        assert server.to(alice)[-1]["code"] == p.WRONG_DEAL
    finally:
        unregister_deal_kind(OPEN_DEAL.name)
