"""Typed shapes of the named API's outputs, and the guard that keeps them plain JSON for gradio_client."""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict

# gradio_client treats any dict with a string "path" as a file to download (a 403 from /status
# when documents are on); outputs carry file names under "file" instead.
FILE_KEY = "path"
RENAMED_FILE_KEY = "file"


class Source(TypedDict):
    id: str
    reference: str
    text: str
    score: float
    cited: bool
    kind: str


class ChatUpdate(TypedDict, total=False):
    """Partial updates hold turn_id, answer and done (false); the final one holds every key."""

    turn_id: str
    answer: str
    done: bool
    mode: str
    reason: str
    query: str
    citations: list[str]
    removed_citations: list[str]
    sources: list[Source]
    provider: str
    model: str
    error: dict[str, str] | None


class SearchHit(TypedDict):
    id: str
    reference: str
    text: str
    score: float
    vector_rank: int | None
    vector_score: float | None
    lexical_rank: int | None
    lexical_score: float | None
    topic_rank: int | None
    topic_score: float | None
    kind: str


class NotFound(TypedDict):
    text: str
    reason: str


class SearchResult(TypedDict):
    mode: str
    reason: str
    results: list[SearchHit]
    references: list[str]
    not_found: list[NotFound]
    note: str  # Portuguese, when references beyond the caps were left out


class Verse(TypedDict):
    id: str
    reference: str
    text: str


class LookupReference(TypedDict):
    reference: str
    verses: list[Verse]


class LookupResult(TypedDict):
    found: bool
    references: list[LookupReference]
    not_found: list[NotFound]
    truncated: NotRequired[bool]  # present (true) when references or verses beyond the caps were left out
    note: NotRequired[str]  # then says, in Portuguese, what was left out


class IndexStatus(TypedDict):
    state: str
    rows: int
    total: int
    error: str | None


class ModelStatus(TypedDict, total=False):
    """Also what /check_provider returns; `checked_at` (HH:MM:SS) once a check has finished."""

    provider: str
    model: str
    reachable: bool | None
    detail: str
    checked_at: str
    choice: str  # why this provider answers (LLM_PROVIDER, or the automatic choice's reason)
    automatic: bool  # chosen automatically (LLM_PROVIDER empty)
    setup_hint: str  # for the operator: how to get a model's answers when it does not answer
    local: dict[str, Any]  # the local model: phase, source, done_bytes, total_bytes, reason, runtime
    elapsed_seconds: float  # /check_provider only: how long the check really took


class Status(TypedDict, total=False):
    """What /status returns; `documents` only when a documents folder is configured."""

    state: str  # "complete" only when the vectors, the topics and the query adapter all are
    pending: list[str]  # while indexing: what is still prepared after the vectors ("temas", "adaptador de consulta")
    phase: str
    ready: bool
    vectors_ready: bool
    corpus: dict[str, Any] | None
    corpus_error: str | None
    extra_corpora: list[dict[str, Any]]
    embedder: dict[str, Any] | None
    index: IndexStatus | None
    progress: dict[str, int]
    bm25_ready: bool
    prominence: dict[str, Any]
    topics: dict[str, Any]  # the topical retriever: entries and weight, or why it is off
    adapter: dict[str, Any]  # the query adapter: the question file it learned from, or why it is off
    documents: dict[str, Any]
    errors: list[str]
    uptime_seconds: int
    llm: ModelStatus
    attributions: list[str]
    index_notice: str | None  # integrity news: corruption found and rebuilt, waiting for another build
    storage_warning: str | None  # the turn log could not be written: turns kept in memory
    reindex_enabled: bool
    router: str  # which router sends messages to crisis, conversation, out of scope or the search


class ReindexResult(TypedDict):
    started: bool
    message: str


class FeedbackResult(TypedDict):
    ok: bool
    turn_id: str
    rating: str


def plain_json(value):
    """`value` with every "path" key renamed to "file", at any depth, so no client reads a file."""
    if isinstance(value, dict):
        out = {}
        for key, item in value.items():
            if key == FILE_KEY:
                key = RENAMED_FILE_KEY if RENAMED_FILE_KEY not in value else "file_path"
            out[key] = plain_json(item)
        return out
    if isinstance(value, (list, tuple)):
        return [plain_json(item) for item in value]
    return value
