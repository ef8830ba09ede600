"""Retrieval signals: each a module with one `Signal` subclass, registered here in fusion order."""

from __future__ import annotations

from pastor.search.signals.lexical import LexicalSignal
from pastor.search.signals.pastors import PastorsSignal
from pastor.search.signals.query import Query, QueryEncoder
from pastor.search.signals.signal import Signal, SignalInputs
from pastor.search.signals.topics import TopicSignal
from pastor.search.signals.vector import VectorSignal

# Adding a signal: a module with a `Signal` subclass, and its class here. The retriever fuses them in
# this order; the API, the evaluation table and the status read their names from here.
REGISTRY: tuple[type[Signal], ...] = (VectorSignal, LexicalSignal, TopicSignal, PastorsSignal)
NAMES: tuple[str, ...] = tuple(cls.name for cls in REGISTRY)


def build_signals(config, resources: SignalInputs) -> list[Signal]:
    """Every registered signal that can run with what is loaded, in registration order."""
    built: dict[str, Signal] = {}
    for cls in REGISTRY:
        signal = cls.build(config, resources, built)
        if signal is not None:
            built[signal.name] = signal
    return list(built.values())


__all__ = ["NAMES", "REGISTRY", "Query", "QueryEncoder", "SignalInputs", "Signal", "build_signals"]
