"""Composition root: the engine, provider, turn log and chat service, built from settings in one place."""

from __future__ import annotations

from pastor.answer.chat import ChatService
from pastor.answer.turnlog import TurnLog
from pastor.config import Settings
from pastor.search.engine import Engine


def build_engine(settings: Settings) -> Engine:
    """Corpus, BM25, prior, embedder and retriever (raises CorpusError when the corpus is missing)."""
    return Engine(settings).load()


def build_provider(settings: Settings):
    """The configured provider (raises ProviderError when it cannot be set up); never another one."""
    from pastor.providers import load_provider
    return load_provider(settings)


def build_turnlog(settings: Settings) -> TurnLog:
    return TurnLog(settings.data_dir / "logs", max_bytes=settings.log_max_bytes, log_text=settings.log_text,
                   retention_days=settings.log_retention_days)


def build_chat(settings: Settings, engine: Engine, provider=None, *, turnlog: TurnLog | None = None) -> ChatService:
    """A chat service over the engine's retriever and Bible, with the configured provider and turn log."""
    return ChatService(engine.retriever, engine.bible, provider or build_provider(settings),
                       turnlog=turnlog or build_turnlog(settings), top_k=settings.top_k,
                       history_turns=settings.history_turns, max_chars=settings.max_message_chars,
                       crisis_contacts=settings.crisis_contacts, deadline=settings.llm_timeout)
