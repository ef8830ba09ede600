"""A replica's index: it never builds; it serves the newest published release that it can, and swaps in the next one."""

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
    "ou parâmetros diferentes)"
)
REFUSED = "a versão {release} do índice publicado foi recusada na verificação dos vetores: {reason}"
# What the replica does instead, after the reason a release was refused.
KEEPS = "; a réplica continua com a versão {release}"
OLDER = "; a réplica serve a versão {release}, a mais recente que passou na verificação"
NONE_GOOD = "; nenhuma versão publicada pode ser servida por esta réplica"


class ReleaseRefused(PastorError):
    """A published release that this replica must not serve: its vectors failed the content check."""


class ReleaseMismatch(ReleaseRefused):
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
        self._refused: dict[str, str] = {}  # release id → why it was refused (never loaded again)
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
        """Look for a newer release once; True when one was adopted. Releases newer than the one served
        are tried newest first, so a refused one (its reason in the status and, once, in the log) leaves
        the current one serving, or, at start, the newest that passes. Never raises: a store that
        cannot be reached leaves the current release serving, with the reason in the status."""
        try:
            store = self._connect()
            found = store.available()
            self.checked_at = time.time()
            if not found:
                self.error = NOT_PUBLISHED.format(seconds=self.settings.index_poll_seconds)
                return False
            adopted = self._first_good(store, self._candidates(found))
        except Exception as exc:  # the store unreachable, a release half pruned: reconnect next time
            self._store = None
            self.error = f"índice compartilhado: {describe(exc)}"
            log.warning("réplica: %s", self.error)
            return False
        newest = self._refused.get(found[-1].id)
        if adopted is None:
            if newest is not None:
                served = self.release.id if self.release else None
                self.error = newest + (KEEPS.format(release=served) if served else NONE_GOOD)
            return False
        release, engine = adopted
        self.adopt(engine)
        self.release, self.adopted_at = release, time.time()
        self.error = newest + OLDER.format(release=release.id) if newest is not None else None
        log.info("réplica: servindo a versão %s do índice", release.id)
        self._forget_older(release.id)
        return True

    def _candidates(self, found: list[Release]) -> list[Release]:
        """The releases newer than the one served and not refused before, newest first."""
        served = self.release
        newer = [r for r in found if served is None or (r.published, r.id) > (served.published, served.id)]
        return [r for r in reversed(newer) if r.id not in self._refused]

    def _first_good(self, store: ReleaseStore, candidates: list[Release]):
        """(release, engine) of the first candidate this replica can serve, or None; each refusal is
        remembered, logged once, and its fetched copy removed."""
        for release in candidates:
            try:
                return release, self._load(store, release)
            except ReleaseRefused as exc:
                self._refused[release.id] = str(exc)
                log.warning("réplica: %s", exc)
                shutil.rmtree(self.cache / release.id, ignore_errors=True)
        return None

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
        if res is not None and res.embedder is not None:
            self._embedder = res.embedder  # this replica's model, whatever the release: kept even when refused
        index = res.index if res is not None else None
        if res is not None and index is not None and not index.ready and index.refused is not None:
            raise ReleaseRefused(REFUSED.format(release=release.id, reason=index.refused))
        if res is None or index is None or not index.ready:
            raise ReleaseMismatch(MISMATCH.format(release=release.id))
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
            "refused": [{"release": r, "reason": why} for r, why in self._refused.items()],
        }
