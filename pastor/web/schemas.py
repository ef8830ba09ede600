"""Typed shapes of the named API's outputs, and the guard that keeps them plain JSON for gradio_client."""

from __future__ import annotations

from typing import Any, NotRequired, TypedDict, cast

from pastor.answer.turn import TurnError, TurnUpdate
from pastor.search.results import SearchResult as Search
from pastor.search.results import Source as FoundSource
from pastor.search.signals import NAMES as SIGNALS

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
    error: dict[str, Any] | None
    notes: list[str]  # Portuguese notes about the answer (keyword search only, references left out…)


# The two fields each signal adds to a hit, and their types.
_PARTS = (("rank", int), ("score", float))


# One rank and one score per registered signal (`vector_rank`, `vector_score`, …): a new signal shows
# up here, in the API's description and in the evaluation table without another edit. Those fields are
# built from the registry at import, which mypy cannot read (hence the ignore below).
SearchHit = TypedDict(
    "SearchHit",
    {
        "id": str,
        "reference": str,
        "text": str,
        "score": float,
        **{f"{name}_{part}": kind | None for name in SIGNALS for part, kind in _PARTS},  # type: ignore[misc]
        "kind": str,
    },
)


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
    state: str  # one word for the model: "ok" (answers), "starting" (being prepared or checked) or "error"
    detail: str
    checked_at: str
    choice: str  # why this provider answers (LLM_PROVIDER, or the automatic choice's reason)
    automatic: bool  # chosen automatically (LLM_PROVIDER empty)
    setup_hint: str  # for the operator: how to get a model's answers while it does not answer (else empty)
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
    health: list[dict[str, Any]]  # one record per component: component, label, state, reason, since
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


# -- the one place the API's shapes are built from the typed results ------------------------------------
def source_json(source: FoundSource) -> Source:
    return {
        "id": source.id,
        "reference": source.reference,
        "text": source.text,
        "score": round(source.score, 6),
        "cited": source.cited,
        "kind": source.kind,
    }


def hit_json(source: FoundSource) -> SearchHit:
    hit: dict[str, Any] = {
        "id": source.id,
        "reference": source.reference,
        "text": source.text,
        "score": round(source.score, 6),
    }
    for name in SIGNALS:
        score = source.score_in(name)
        hit[f"{name}_rank"] = source.rank_in(name)
        hit[f"{name}_score"] = round(score, 6) if score is not None else None
    hit["kind"] = source.kind
    return cast(SearchHit, hit)


def search_json(result: Search) -> SearchResult:
    return {
        "mode": result.mode,
        "reason": result.reason,
        "results": [hit_json(s) for s in result.results],
        "references": list(result.references),
        "not_found": [{"text": n.text, "reason": n.reason} for n in result.not_found],
        "note": result.note,
    }


def error_json(error: TurnError | None) -> dict[str, Any] | None:
    if error is None:
        return None
    return {"type": error.type, "message": error.message, "provider": error.provider, "partial": error.partial}


def chat_json(update: TurnUpdate) -> ChatUpdate:
    """A partial update: turn_id, answer and done; the final one: every key."""
    if not update.done:
        return {"turn_id": update.turn_id, "answer": update.answer, "done": False}
    result = update.result
    return plain_json(
        {
            "turn_id": update.turn_id,
            "answer": update.answer,
            "done": True,
            "mode": result.mode or "",
            "reason": result.reason,
            "query": result.query,
            "citations": list(result.citations),
            "removed_citations": list(result.removed_citations),
            "sources": [source_json(s) for s in result.sources],
            "provider": update.provider,
            "model": update.model,
            "error": error_json(result.error),
            "notes": list(result.notes),
        }
    )


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
