"""The modes a turn can be in, shared by the gates, the chat turn, the page and the API."""

from __future__ import annotations

from enum import StrEnum


class Mode(StrEnum):
    """A `StrEnum`, so a mode is its own JSON value ("rag") and compares equal to it."""

    REFERENCE = "reference"  # explicit references looked up deterministically
    RAG = "rag"  # hybrid search passed the evidence gates
    LEXICAL_FALLBACK = "lexical_fallback"  # only keyword evidence (or vectors not ready yet)
    CONVERSATIONAL = "conversational"  # greetings, thanks, questions about the assistant
    NO_EVIDENCE = "no_evidence"  # fixed message, no model call
    CRISIS = "crisis"  # safety message first, no model call
    OUT_OF_SCOPE = "out_of_scope"  # medical, legal or financial advice: a kind fixed reply, no model call
    # The model could not be reached (or refused) before writing anything: the retrieved verses are
    # shown under a fixed introduction with how to enable a model. A mode, not only a reason, so a
    # client never takes the verses-only answer for a model's answer in the retrieval's mode.
    PROVIDER_UNAVAILABLE = "provider_unavailable"
