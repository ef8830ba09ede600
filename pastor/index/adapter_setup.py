"""The query adapter for the loaded index: from its cache, or learned from the question file after the vectors."""

from __future__ import annotations

import traceback
from pathlib import Path

from pastor.config import Settings
from pastor.health import HealthBoard
from pastor.index.resources import LABELS, SearchResources, fail
from pastor.search.adapter import AdapterStore, QueryAdapter
from pastor.search.adapter import train as train_adapter
from pastor.search.questions import QuestionSetError, load_questions
from pastor.search.storage import describe


def load_adapter(settings: Settings, res: SearchResources, health: HealthBoard, *, trainer=None) -> QueryAdapter | None:
    """The adapter for this embedder and index: from its cache, or (given a `trainer`, the retriever
    whose encoder and vectors it learns with) from the question file, a few seconds after the vectors
    are built. None when off or not possible."""
    path = settings.adapter_questions
    if path is None or res.index is None or not res.index.ready:
        return None
    store = AdapterStore(settings.data_dir)
    try:
        key = store.key(path, res.embedder, res.index.serving)
        adapter = store.load(key)
        if adapter is None and trainer is not None:
            questions = load_questions(path)
            adapter = train_adapter(trainer, questions, file=Path(path).name)
            store.save(key, adapter)
    except Exception as exc:  # the app works without it, unadapted; status says why
        if not isinstance(exc, (OSError, QuestionSetError, ValueError)):
            traceback.print_exc()  # not a bad file: a failure in training itself
        fail(health, "adapter", describe(exc))
        return None
    health.ok("adapter", LABELS["adapter"])
    return adapter
