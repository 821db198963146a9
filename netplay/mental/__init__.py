"""Private hands without a trusted dealer: SRA mental poker on Curve25519.

``sra`` holds the primitives (item encoding, keys, passes, opening); ``protocol`` the
per-round state machines of ``private-sra-x25519-v1`` (a player, a verifier, the
relay) and its checks. Normative description: docs/private-deal.md.
"""

from .protocol import (
    PROTOCOL,
    PUBLIC,
    RELAY,
    UNDEALT,
    VEILED,
    BlindPlayed,
    CardOpened,
    DealFault,
    DealPlayer,
    DealRelay,
    DealSetup,
    EnvelopeRefused,
    Event,
    HandOpened,
    PassAccepted,
    Phase,
    PublicOpened,
    RoundFailed,
    RoundVerified,
    Send,
    Suspect,
    VeiledOpened,
    Verifier,
    audit_transcript,
    chain_from,
    deal_round_robin,
    played_items,
)
from .sra import RoundKeys

__all__ = [
    "PROTOCOL",
    "PUBLIC",
    "RELAY",
    "UNDEALT",
    "VEILED",
    "BlindPlayed",
    "CardOpened",
    "DealFault",
    "DealPlayer",
    "DealRelay",
    "DealSetup",
    "EnvelopeRefused",
    "Event",
    "HandOpened",
    "PassAccepted",
    "Phase",
    "PublicOpened",
    "RoundFailed",
    "RoundKeys",
    "RoundVerified",
    "Send",
    "Suspect",
    "VeiledOpened",
    "Verifier",
    "audit_transcript",
    "chain_from",
    "deal_round_robin",
    "played_items",
]
