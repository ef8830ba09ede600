"""A replica's index: it never builds; it serves the newest published release and swaps in the next one."""

from __future__ import annotations

import logging
import shutil
import threading
import time
from collections.abc import Callable
from pathlib import Path

from pastor.config import Settings
from pastor.errors import PastorError
from pastor.replication.releases import Release, ReleaseStore
from pastor.replication.store import connect_shared
from pastor.search.embedders.embedder import Embedder
from pastor.search.storage import describe
from pastor.wiring import build_engine

log = logging.getLogger("pastor.web")

NOT_PUBLISHED = (
    "nenhum índice publicado ainda em PASTOR_INDEX_URI; rode o job `python -m pastor index` "
    "(a réplica verifica de novo a cada {seconds:g} s)"
)
MISMATCH = (
    "a versão {release} do índice publicado não corresponde a esta réplica (corpus, modelo de embeddings "
    "ou parâmetros diferentes); a réplica continua com a versão anterior"
)


class ReleaseMismatch(PastorError):
    """A published release that this replica's settings cannot serve."""


class ReplicaIndex:
    """Polls the shared store every `index_poll_seconds`; a new release is fetched into the local
    data directory (`releases/<id>/`), loaded as a whole engine beside the one serving, and handed
    to `adopt` only once it can search with vectors. Turns already running finish on the old one."""

    def __init__(self, settings: Settings, adopt: Callable[[object], None]):
        self.settings = settings
        self.adopt = adopt
        self.cache = Path(settings.data_dir) / "releases"
        self.release: Release | None = None  # the release being served
        self.adopted_at: float | None = None
        self.checked_at: float | None = None
        self.error: str | None = None
        self._store: ReleaseStore | None = None
        self._embedder: Embedder | None = None  # loaded with the first release, reused for the next ones
        self._refused: str | None = None  # the newest release, when it does not fit this replica
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self) -> ReplicaIndex:
        self._thread = threading.Thread(target=self._run, daemon=True, name="pastor-replica")
        self._thread.start()
        return self

    def stop(self, timeout: float = 10.0) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)

    def _run(self) -> None:
        while not self._stop.is_set():
            self.poll()
            self._stop.wait(self.settings.index_poll_seconds)

    def poll(self) -> bool:
        """Look for a newer release once; True when one was adopted. Never raises: a store that
        cannot be reached leaves the current release serving, with the reason in the status."""
        try:
            store = self._connect()
            latest = store.latest()
            self.checked_at = time.time()
            if latest is None:
                self.error = NOT_PUBLISHED.format(seconds=self.settings.index_poll_seconds)
                return False
            if latest.id in (self.release.id if self.release else None, self._refused):
                return False  # nothing new (a release it cannot serve is not loaded again every poll)
            engine = self._load(store, latest)
        except ReleaseMismatch as exc:  # kept out until a newer release is published
            self._refused, self.error = latest.id, str(exc)
            log.warning("réplica: %s", self.error)
            return False
        except Exception as exc:  # the store unreachable, a release half pruned: reconnect next time
            self._store = None
            self.error = f"índice compartilhado: {describe(exc)}"
            log.warning("réplica: %s", self.error)
            return False
        self.adopt(engine)
        self.release, self.adopted_at, self.error = latest, time.time(), None
        log.info("réplica: servindo a versão %s do índice", latest.id)
        self._forget_older(latest.id)
        return True

    def _connect(self):
        if self._store is None:
            self._store = ReleaseStore(connect_shared(self.settings.index_uri))
        return self._store

    def _load(self, store, release):
        dest = self.cache / release.id
        if not (dest / "index" / "manifest.json").is_file():
            partial = self.cache / f".{release.id}.partial"
            shutil.rmtree(partial, ignore_errors=True)
            store.fetch(release, partial)
            shutil.rmtree(dest, ignore_errors=True)
            partial.rename(dest)  # only a whole fetch carries the release's name
        # The embedding model is the same for every release this replica can serve: loading it again
        # took 8.8 s here, most of the time a new release needed.
        settings = self.settings.replace(data_dir=dest, background_index=False)
        engine = build_engine(settings, embedder=self._embedder)
        res = engine.resources  # loaded by build_engine
        index = res.index if res is not None else None
        if res is None or index is None or not index.ready:
            raise ReleaseMismatch(MISMATCH.format(release=release.id))
        self._embedder = res.embedder
        return engine

    def _forget_older(self, keep: str) -> None:
        """Remove fetched releases other than the one served (the old engine holds its data in memory)."""
        for path in self.cache.iterdir():
            if path.name != keep:
                shutil.rmtree(path, ignore_errors=True)

    def status(self) -> dict:
        release = self.release
        return {
            "release": release.id if release else None,
            "published": release.published if release else None,
            "adopted_at": self.adopted_at,
            "checked_at": self.checked_at,
            "poll_seconds": self.settings.index_poll_seconds,
            "error": self.error,
        }
