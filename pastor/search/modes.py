"""The modes a search can end in, decided by explicit references, small talk and the evidence gates."""

from __future__ import annotations

from enum import StrEnum


class SearchMode(StrEnum):
    """A `StrEnum`, so a mode is its own JSON value ("rag") and compares equal to it. A turn's own
    modes (crisis, out of scope, provider unavailable) are `pastor.answer.turn_modes.Mode`."""

    REFERENCE = "reference"  # explicit references looked up deterministically
    RAG = "rag"  # hybrid search passed the evidence gates
    LEXICAL_FALLBACK = "lexical_fallback"  # only keyword evidence (or vectors not ready yet)
    CONVERSATIONAL = "conversational"  # greetings, thanks, questions about the assistant
    NO_EVIDENCE = "no_evidence"  # fixed message, no model call
