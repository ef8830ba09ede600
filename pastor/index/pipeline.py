"""The index pipeline, one sequence for the app's background build and `python -m pastor index` alike:
vectors → topics → query adapter → documents."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from pastor.config import Settings
from pastor.health import HealthBoard
from pastor.index.adapter_setup import load_adapter
from pastor.index.doc_index import RefreshReport
from pastor.index.resources import SearchResources
from pastor.index.verse_manifest import IndexStatus


@dataclass(frozen=True)
class IndexReport:
    """What one run built: the vector table's status, the topics and documents, and how long each took."""

    vectors: IndexStatus | None
    topics: int | None  # topic labels, None without a topical index
    seconds: dict[str, float]  # per step that ran: "vectors", "topics", "adapter", "documents"
    documents: RefreshReport | None
    cancelled: bool


class IndexPipeline:
    """Builds what the loaded resources lack, in order; each later step needs the one before it
    (topics and the adapter embed with the verse model, the adapter trains on the finished index)."""

    def __init__(self, settings: Settings, res: SearchResources, retriever, health: HealthBoard):
        self.settings = settings
        self.res = res
        self.retriever = retriever  # the adapter is trained with its encoder and vectors
        self.vector = retriever.signal("vector")  # ranks through the adapter this pipeline provides
        self.health = health

    def run(
        self,
        *,
        rebuild: bool = False,
        cancel: threading.Event | None = None,
        progress: Callable[[int, int], None] | None = None,
        on_wait: Callable[[], None] | None = None,
    ) -> IndexReport:
        """Build or resume every step; raises what a step raises (the caller decides who hears it)."""
        cancel = cancel or threading.Event()
        res, seconds = self.res, {}
        vectors = documents = None

        def timed(step: str, work):
            started = time.perf_counter()
            value = work()
            seconds[step] = round(time.perf_counter() - started, 1)
            return value

        if res.index is not None:
            vectors = timed(
                "vectors",
                lambda: res.index.build(
                    res.bible, res.extras, rebuild=rebuild, cancel=cancel, progress=progress, on_wait=on_wait
                ),
            )
        if res.topics is not None and not res.topics.ready and not cancel.is_set():
            timed("topics", lambda: res.topics.build(res.bible))
        if not cancel.is_set():  # a cache hit when nothing changed; retrained when anything did
            self.vector.use_adapter(
                timed("adapter", lambda: load_adapter(self.settings, res, self.health, trainer=self.retriever))
            )
        if res.docs is not None and not cancel.is_set():
            documents = timed("documents", res.docs.refresh)
        topics = len(res.topics.labels) if res.topics is not None and res.topics.ready else None
        return IndexReport(vectors, topics, seconds, documents, cancel.is_set())
