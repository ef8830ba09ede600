"""The search side's status for the Status tab and `/status`: what is loaded, its health, and the credits it owes."""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from pastor.config import Settings
from pastor.health import Health, HealthBoard
from pastor.index.doc_index import DocumentsStatus
from pastor.index.resources import SearchResources
from pastor.index.verse_manifest import IndexStatus
from pastor.search.rows import aligned
from pastor.text.notice import credit_for


@dataclass(frozen=True)
class PartStatus:
    """A part of the search that is on (with the facts of its subclass) or off, `detail` saying why."""

    enabled: bool
    detail: str = ""


@dataclass(frozen=True)
class TopicsStatus(PartStatus):
    """The topical retriever: how many topics it matches and its weight in fusion."""

    entries: int | None = None
    weight: float | None = None


@dataclass(frozen=True)
class AdapterStatus(PartStatus):
    """The query adapter: the question file it learned from and its list's weight."""

    file: str | None = None
    questions: int | None = None
    weight: float | None = None


@dataclass(frozen=True)
class ProminenceStatus(PartStatus):
    """The prominence prior: its table, how many verses it rates, its weight."""

    file: str | None = None
    verses: int | None = None
    weight: float | None = None


@dataclass(frozen=True)
class EmbedderStatus:
    """The embedding model: loaded (with its dimension) or not, with the reason."""

    name: str
    dim: int | None
    loaded: bool
    error: str | None = None


@dataclass(frozen=True)
class ExtraCorpus:
    """A translation searched beside the main text (and offered to the reader): its verses, and how many of them
    the index holds (those numbered as in the main text)."""

    file: str
    sha256: str
    verses: int
    credit: str
    aligned: int


@dataclass(frozen=True)
class SearchStatus:
    """The engine's part of the status (the runtime adds the provider, phase and uptime); `state` is
    "complete" only when the vectors, the topics and the query adapter all are."""

    state: str
    pending: tuple[str, ...]
    ready: bool
    vectors_ready: bool
    corpus: dict | None  # the Bible's own counts (`Bible.stats`), without the versification differences
    extra_corpora: tuple[ExtraCorpus, ...]
    embedder: EmbedderStatus
    index: IndexStatus | None
    index_notice: str | None
    progress: tuple[int, int]  # (done, total) rows of the running build; the table's rows when none runs
    bm25_ready: bool
    prominence: ProminenceStatus
    topics: TopicsStatus
    adapter: AdapterStatus
    errors: tuple[str, ...]
    health: tuple[Health, ...]
    documents: DocumentsStatus | None = None  # only with a documents folder


def search_status(
    settings: Settings,
    res: SearchResources,
    retriever,
    health: HealthBoard,
    *,
    indexing: bool,
    progress: tuple[int, int],
) -> SearchStatus:
    """The engine's part of the status (the runtime adds the provider, phase and uptime)."""
    bible, embedder = res.bible, res.embedder
    index = res.index.status if res.index is not None else None
    embedder_error = health.reason("embedder")
    state = "error" if embedder_error else (index.state if index else "missing")
    adapter = adapter_status(settings, retriever, health, training=indexing and bool(res.index and res.index.ready))
    pending = pending_parts(res, adapter) if indexing else []
    if indexing and (state != "complete" or pending):
        state = "indexing"  # complete only when the topics and the adapter built after the vectors are too
    corpus = bible.stats() if bible else None
    if corpus:
        corpus.pop("differences", None)
    return SearchStatus(
        state=state,
        pending=tuple(pending),
        ready=bool(bible) and (res.lexical is not None),
        vectors_ready=bool(res.index and res.index.ready),
        corpus=corpus,
        extra_corpora=tuple(
            ExtraCorpus(b.path.name, b.sha256, len(b.verses), b.credit, aligned(bible, b)) for b in res.extras
        ),
        embedder=(
            EmbedderStatus(embedder.name, embedder.dim, True)
            if embedder
            else EmbedderStatus(settings.embedding_model, None, False, embedder_error)
        ),
        index=index,
        index_notice=res.index.notice if res.index is not None else None,
        # No build running: the progress is the table's own count (a complete index reads 62.201 / 62.201).
        progress=(progress[0], progress[1]) if indexing else ((index.rows, index.total) if index else (0, 0)),
        bm25_ready=res.lexical is not None,
        prominence=prominence_status(settings, res),
        topics=topics_status(settings, res),
        adapter=adapter,
        errors=tuple(health.messages()),
        health=tuple(health.records()),
        documents=res.docs.status() if res.docs is not None else None,
    )


def credits(settings: Settings, res: SearchResources) -> list[str]:
    """The attributions of the data in use now: each loaded dataset carries its own."""
    datasets = [res.bible, *res.extras, res.prominence]
    found = [d.credit for d in datasets if d is not None]
    if res.topics is not None:
        found += topic_credits(tuple(str(p) for p in settings.topics))
    return list(dict.fromkeys(c for c in found if c))


@lru_cache(maxsize=8)
def topic_credits(paths: tuple[str, ...]) -> tuple[str, ...]:
    """The topical Bibles' credits, matched once: matching hashes their few MB of content, and
    the page asks for the credits under every answer."""
    return tuple(credit_for(p) for p in paths if Path(p).exists())


def topics_status(settings: Settings, res: SearchResources) -> TopicsStatus:
    if res.topics is None:
        return TopicsStatus(False, "desligado (PASTOR_TOPICS vazio, arquivos ausentes ou sem modelo)")
    if not res.topics.ready:
        return TopicsStatus(False, "aguardando a indexação dos temas")
    return TopicsStatus(True, entries=len(res.topics.labels), weight=settings.topic_weight)


ADAPTER_WAITING = "aguardando o índice vetorial"
ADAPTER_TRAINING = "em treinamento (o índice vetorial está pronto)"


def pending_parts(res: SearchResources, adapter: AdapterStatus) -> list[str]:
    """What the running build still prepares after the vectors (in words, for the status tab)."""
    parts = ["temas"] if res.topics is not None and not res.topics.ready else []
    if not adapter.enabled and adapter.detail in (ADAPTER_WAITING, ADAPTER_TRAINING):
        parts.append("adaptador de consulta")
    return parts


def adapter_status(settings: Settings, retriever, health: HealthBoard, training: bool = False) -> AdapterStatus:
    """The query adapter: learned, off, failed, or waiting (`training`: the vectors are ready and the
    build is running, so it is being trained now)."""
    adapter = retriever.adapter if retriever is not None else None
    if adapter is not None:
        return AdapterStatus(
            True, file=adapter.info.get("file"), questions=adapter.info.get("questions"), weight=settings.adapter_weight
        )
    if settings.adapter_questions is None:
        return AdapterStatus(False, "desligado (PASTOR_ADAPTER_QUESTIONS vazio)")
    if health.reason("adapter"):
        return AdapterStatus(False, f"erro: {health.reason('adapter')}")
    return AdapterStatus(False, ADAPTER_TRAINING if training else ADAPTER_WAITING)


def prominence_status(settings: Settings, res: SearchResources) -> ProminenceStatus:
    if settings.prominence is None:
        return ProminenceStatus(False, "desligado (PASTOR_PROMINENCE vazio)")
    if not Path(settings.prominence).exists():
        return ProminenceStatus(
            False, f"desligado: {Path(settings.prominence).name} não encontrado (veja a seção Corpus do README)"
        )
    if res.prominence is None:
        return ProminenceStatus(False, "erro ao carregar; veja os erros")
    return ProminenceStatus(
        True, file=Path(settings.prominence).name, verses=len(res.prominence), weight=settings.prominence_weight
    )
