"""Game records (``docs/record-format.md``): build one from the engine, write it, read it back.

A record is one JSON document holding everything needed to re-check a whole game offline:
seats, rules, every round's commitments, seeds, hands, trump, bids, plays and scores (and,
with special cards, the card turned up and every seat action of the round). This
package owns its shape and nothing else: ``GameRecorder`` (``recorder``) collects finished
rounds (the host and ``simulate`` both use it), ``write_record`` (``files``) writes
atomically after every round, and ``read_record``/``parse_record`` (``files``, ``parse``)
turn untrusted JSON into a typed ``GameRecord`` (``model``) or raise a ``RecordError`` that
names where the document is wrong. Whether the game it describes was played by the rules is
``wizard_tui.verify``'s job.
"""

from .files import dumps_record, loads_record, read_record, write_record
from .model import (
    FORMAT,
    GAME_ID_BYTES,
    HASH_BYTES,
    MAX_RECORD_BYTES,
    PLAYER_KINDS,
    PRIVATE_PROTOCOL,
    PROTOCOL,
    PROTOCOLS,
    SIGNING_KEY_BYTES,
    SUIT_NAMES,
    UNREVEALED,
    VOIDED,
    Charge,
    GameRecord,
    PlayerEntry,
    PlayerKind,
    PrivateDealRecord,
    RecordedRound,
    RecordedTrick,
    RecordError,
    Redeal,
    RedealAction,
    StandIn,
    VerificationFailure,
    record_filename,
    redeal_action,
)
from .parse import parse_charges, parse_record, parse_round_part
from .recorder import GameRecorder, recorded_round

__all__ = [
    "FORMAT",
    "GAME_ID_BYTES",
    "HASH_BYTES",
    "MAX_RECORD_BYTES",
    "PLAYER_KINDS",
    "PRIVATE_PROTOCOL",
    "PROTOCOL",
    "PROTOCOLS",
    "SIGNING_KEY_BYTES",
    "SUIT_NAMES",
    "UNREVEALED",
    "VOIDED",
    "Charge",
    "GameRecord",
    "GameRecorder",
    "PlayerEntry",
    "PlayerKind",
    "PrivateDealRecord",
    "RecordError",
    "RecordedRound",
    "RecordedTrick",
    "Redeal",
    "RedealAction",
    "StandIn",
    "VerificationFailure",
    "dumps_record",
    "loads_record",
    "parse_charges",
    "parse_record",
    "parse_round_part",
    "read_record",
    "record_filename",
    "recorded_round",
    "redeal_action",
    "write_record",
]
