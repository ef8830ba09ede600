"""Builds the retriever from the retrieval settings and what is loaded (corpus, indexes, prior)."""

from __future__ import annotations

from pastor.config import Settings
from pastor.search.retrieval import RetrievalConfig, Retriever
from pastor.search.signals import QueryEncoder, SignalInputs, build_signals


def build_retriever(config: RetrievalConfig, resources: SignalInputs) -> Retriever:
    """A retriever over `resources` with every registered signal, configured by `config`."""
    prominence, weight = resources.prominence, config.prominence_weight
    prior = (lambda doc_id: prominence.prior(doc_id, weight)) if prominence is not None and weight > 0 else None
    encoder = QueryEncoder(resources.embedder, config.expand_queries, config.modernize)
    return Retriever(resources.bible, config, build_signals(config, resources), encoder=encoder, prior=prior,
                     documents=resources.documents)


def retriever_from_settings(settings: Settings, resources: SignalInputs) -> Retriever:
    """The app's retriever: the settings' retrieval section, small talk answered as conversation."""
    return build_retriever(RetrievalConfig.from_settings(settings, smalltalk=True), resources)
