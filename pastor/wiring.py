"""Composition root: the engine, provider, turn log and chat service, built from settings in one place."""

from __future__ import annotations

import logging

from pastor.answer.chat import ChatService
from pastor.answer.routing import Router
from pastor.answer.semantic_router import SemanticRouter
from pastor.answer.turnlog import TurnLog
from pastor.config import Settings
from pastor.providers import load_provider
from pastor.search.engine import Engine


def build_engine(settings: Settings) -> Engine:
    """Corpus, BM25, prior, embedder and retriever (raises CorpusError when the corpus is missing)."""
    return Engine(settings).load()


def build_provider(settings: Settings):
    """The configured provider (raises ProviderError when it cannot be set up); never another one."""
    return load_provider(settings)


def build_turnlog(settings: Settings) -> TurnLog:
    return TurnLog(settings.data_dir / "logs", max_bytes=settings.log_max_bytes, log_text=settings.log_text,
                   retention_days=settings.log_retention_days)


log = logging.getLogger(__name__)


def build_router(settings: Settings, engine: Engine) -> Router:
    """The crisis lexicon and rules, with the semantic router on the engine's embedder when it is loaded
    and wanted; without it (no embedder, or it failed) the lexicon and rules still route alone."""
    if not settings.semantic_router or engine.embedder is None:
        return Router()
    try:
        return Router(SemanticRouter(engine.embedder))
    except Exception:  # routing by words must survive a broken embedder
        log.exception("semantic router failed to load; routing by the lexicon and rules only")
        return Router()


def build_chat(settings: Settings, engine: Engine, provider=None, *, turnlog: TurnLog | None = None) -> ChatService:
    """A chat service over the engine's retriever and Bible, with the configured provider and turn log."""
    return ChatService(engine.retriever, engine.bible, provider or build_provider(settings),
                       turnlog=turnlog or build_turnlog(settings), top_k=settings.top_k,
                       history_turns=settings.history_turns, max_chars=settings.max_message_chars,
                       crisis_contacts=settings.crisis_contacts, deadline=settings.llm_timeout,
                       router=build_router(settings, engine), translations=engine.translations)
