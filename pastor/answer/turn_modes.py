"""The modes a chat turn can be in: every search mode, and the turn's own routes and failures."""

from __future__ import annotations

from enum import StrEnum

from pastor.search.modes import SearchMode


class Mode(StrEnum):
    """A `StrEnum`, so a mode is its own JSON value ("rag") and compares equal to it (and to the
    `SearchMode` of the same value). Shared by the chat turn, the page and the API."""

    REFERENCE = SearchMode.REFERENCE.value
    RAG = SearchMode.RAG.value
    LEXICAL_FALLBACK = SearchMode.LEXICAL_FALLBACK.value
    CONVERSATIONAL = SearchMode.CONVERSATIONAL.value
    NO_EVIDENCE = SearchMode.NO_EVIDENCE.value
    CRISIS = "crisis"  # safety message first, no model call
    OUT_OF_SCOPE = "out_of_scope"  # medical, legal or financial advice: a kind fixed reply, no model call
    # The model could not be reached (or refused) before writing anything: the retrieved verses are
    # shown under a fixed introduction with how to enable a model. A mode, not only a reason, so a
    # client never takes the verses-only answer for a model's answer in the retrieval's mode.
    PROVIDER_UNAVAILABLE = "provider_unavailable"
