"""The background build: the index pipeline in one thread at a time, cancellable, its progress and failure kept."""

from __future__ import annotations

import threading
import traceback

from pastor.health import HealthBoard
from pastor.index.pipeline import IndexPipeline
from pastor.index.resources import LABELS
from pastor.search.storage import describe


class BackgroundIndexer:
    """Runs `IndexPipeline.run` in a daemon thread so the app answers (by keywords) meanwhile."""

    def __init__(self, pipeline: IndexPipeline, health: HealthBoard):
        self.pipeline = pipeline
        self.health = health
        self.progress = (0, 0)
        self.thread: threading.Thread | None = None
        self.cancel = threading.Event()
        self._lock = threading.Lock()

    @property
    def running(self) -> bool:
        return self.thread is not None and self.thread.is_alive()

    def start(self, *, rebuild: bool = False, background: bool = True) -> bool:
        """Start (or resume) building; False when a build is already running."""
        with self._lock:
            if self.running:
                return False
            self.cancel.clear()
            self.thread = threading.Thread(target=self._run, args=(rebuild,), daemon=True, name="pastor-indexer")
            self.thread.start()
        if not background:
            self.thread.join()
        return True

    def _run(self, rebuild: bool) -> None:
        try:
            self.pipeline.run(
                rebuild=rebuild,
                cancel=self.cancel,
                progress=lambda done, total: setattr(self, "progress", (done, total)),
            )
            self.health.ok("indexing", LABELS["indexing"])
        except Exception as exc:
            self.health.fail("indexing", LABELS["indexing"], describe(exc))
            traceback.print_exc()

    def stop(self, timeout: float = 30.0) -> None:
        self.cancel.set()
        if self.thread is not None:
            self.thread.join(timeout)
