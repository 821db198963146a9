"""A headless network player: a bot that joins a host like any person would.

``wizard-tui join HOST --bot LEVEL`` runs this. It acts only on its own seat's view,
and its exit status says whether the game finished with every round verified.
"""

from __future__ import annotations

import logging

from ..bots import Bot, decide_async
from ..game import PlayerAction, SeatView
from ..session import ActionRefused, GameFinished, LinkChanged, RoundVerified, TableUpdate
from .client import NetworkSession
from .decisions import DECIDING_PHASES, decision_key, first_legal_move

log = logging.getLogger("wizard_tui.bot_player")


async def _decide(bot: Bot, view: SeatView) -> PlayerAction:
    """The bot's action; the first legal move if it fails (the game must not stall)."""
    try:
        return await decide_async(bot, view)
    except Exception:
        log.exception("the bot failed in phase %s: it makes the first legal move", view.phase)
        return first_legal_move(view)


async def play_as_bot(session: NetworkSession, bot: Bot, *, quiet: bool = False) -> int:
    """Play until the game ends; 0 if it finished and every round verified, else 1."""
    answered: tuple[object, ...] | None = None
    async for update in session.updates():
        if isinstance(update, TableUpdate):
            view = update.view
            if view.my_turn and view.phase in DECIDING_PHASES:
                # A voided deal repeats the round's decisions: count the voids too.
                key = decision_key(view, session.voided_attempts)
                if key == answered:
                    continue
                answered = key
                session.act(await _decide(bot, view))
        elif isinstance(update, RoundVerified):
            if not update.ok:
                log.error("verification failed: %s", update.detail)
                print(f"VERIFICATION FAILED: {update.detail}", flush=True)
            elif not quiet:
                print(update.detail, flush=True)
        elif isinstance(update, ActionRefused):
            log.warning("host refused: %s (%s)", update.message, update.code)
            answered = None  # let the bot try again on the next update
        elif isinstance(update, GameFinished):
            if not quiet:
                print(f"game over: totals {list(update.totals)}, winners {list(update.winners)}")
            await session.record_settled()  # what it missed, from the host, into its record
            break
        elif isinstance(update, LinkChanged):
            if update.state == "closed":
                print(f"disconnected: {update.detail}", flush=True)
                break
            # An action sent as the link went down was lost; the snapshot after the
            # reconnect may show the same decision again, and it must be answered.
            answered = None
    await session.close()
    if session.record_path is not None and not quiet:
        print(f"your record of the game: {session.record_path}", flush=True)
    return 0 if session.all_verified else 1
