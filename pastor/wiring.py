"""Composition root: the engine, provider, turn log and chat service, built from settings in one place."""

from __future__ import annotations

import logging
import socket

from pastor.answer.chat import ChatService
from pastor.answer.shared_turns import SharedTurns
from pastor.answer.turnlog import TurnLog
from pastor.care.router import Router
from pastor.care.semantic import SemanticRouter
from pastor.classify.cache import CLASSIFIERS_DIR
from pastor.config import Settings
from pastor.index.engine import Engine
from pastor.providers import load_provider


def build_engine(settings: Settings, embedder=None, *, vectors: bool = True) -> Engine:
    """Corpus, BM25, prior, embedder (unless one is given; without `vectors`, none yet: `Engine.with_vectors`)
    and retriever (raises CorpusError when the corpus is missing)."""
    return Engine(settings, embedder=embedder).load(vectors=vectors)


def build_provider(settings: Settings):
    """The configured provider (raises ProviderError when it cannot be set up); never another one."""
    return load_provider(settings)


def replica_name(settings: Settings) -> str:
    """The name this process gives its turns and turn log: PASTOR_REPLICA_ID, or the host name of a
    replica (a container's); empty for a standalone app, whose ids and log file stay as they were."""
    if settings.replica_id or settings.role != "replica":
        return settings.replica_id
    return socket.gethostname()


def build_turnlog(settings: Settings) -> TurnLog:
    """The turn log; with PASTOR_REDIS_URL its turn ids are shared, so any replica takes feedback."""
    replica = replica_name(settings)
    shared = None
    if settings.redis_url:
        shared = SharedTurns.from_url(settings.redis_url, keep_days=settings.log_retention_days)
    return TurnLog(
        settings.data_dir / "logs",
        max_bytes=settings.log_max_bytes,
        log_text=settings.log_text,
        retention_days=settings.log_retention_days,
        name=f"turns-{replica}" if replica else "turns",
        shared=shared,
    )


log = logging.getLogger(__name__)


def build_router(settings: Settings, engine: Engine) -> Router:
    """The crisis lexicon and rules, with the semantic router on the engine's embedder when it is loaded
    and wanted (PASTOR_SEMANTIC_ROUTER); without it (no embedder, or it failed) the lexicon and rules still
    route alone. The evidence gate's scope classifier (PASTOR_SCOPE_CLASSIFIER) is trained here too."""
    embedder = engine.resources.embedder if engine.resources is not None else None
    if settings.scope_classifier and embedder is not None:
        _warm_scope(engine)
    if not settings.semantic_router or embedder is None:
        return Router()
    try:
        return Router(SemanticRouter(embedder, cache_dir=settings.data_dir / CLASSIFIERS_DIR))
    except Exception:  # routing by words must survive a broken embedder
        log.exception("o roteador semântico não carregou; seguem o léxico e as regras")
        return Router()


def _warm_scope(engine: Engine) -> None:
    """The evidence gate's classifier (same embedder, same authors' data) trained during the background
    load, so the first person's question does not wait for it; a failure here is retried at that question."""
    scope = engine.retriever.scope if engine.retriever is not None else None
    try:
        if scope is not None:
            scope.warm()
    except Exception:
        log.exception("o classificador do escopo pastoral não treinou ao carregar; a primeira pergunta tenta de novo")


def build_chat(
    settings: Settings, engine: Engine, provider=None, *, turnlog: TurnLog | None = None, router: Router | None = None
) -> ChatService:
    """A chat service over the engine's retriever and Bible, with the configured provider and turn log; `router`
    defaults to the trained one (`build_router`, trained here when its cache is cold)."""
    if engine.resources is None or engine.retriever is None:
        raise ValueError("build_chat precisa de um motor carregado (Engine.load)")
    return ChatService(
        engine.retriever,
        engine.resources.bible,
        provider or build_provider(settings),
        turnlog=turnlog or build_turnlog(settings),
        top_k=settings.top_k,
        history_turns=settings.history_turns,
        max_chars=settings.max_message_chars,
        crisis_contacts=settings.crisis_contacts,
        deadline=settings.llm_timeout,
        router=router or build_router(settings, engine),
        replica=replica_name(settings),
        translations=engine.translations,
    )
