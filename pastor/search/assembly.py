"""Builds the retriever from the retrieval settings and what is loaded (corpus, indexes, prior)."""

from __future__ import annotations

from pathlib import Path

from pastor.classify.cache import CLASSIFIERS_DIR
from pastor.config import Settings
from pastor.search.pastoral_scope import PastoralScope
from pastor.search.retrieval import RetrievalConfig, Retriever
from pastor.search.signals import QueryEncoder, SignalInputs, build_signals


def build_retriever(config: RetrievalConfig, resources: SignalInputs, cache_dir: Path | None = None) -> Retriever:
    """A retriever over `resources` with every registered signal, configured by `config`; its pastoral scope
    keeps its trained classifier in `cache_dir` (trained at each start without one)."""
    encoder = QueryEncoder(resources.embedder, config.expand_queries, config.modernize)
    scope = (
        PastoralScope(resources.embedder, cache_dir=cache_dir)
        if config.scope_classifier and resources.embedder is not None
        else None
    )
    return Retriever(config, build_signals(config, resources), resources, encoder=encoder, scope=scope)


def retriever_from_settings(settings: Settings, resources: SignalInputs) -> Retriever:
    """The app's retriever: the settings' retrieval section, small talk answered as conversation."""
    return build_retriever(RetrievalConfig.from_settings(settings), resources, settings.data_dir / CLASSIFIERS_DIR)
