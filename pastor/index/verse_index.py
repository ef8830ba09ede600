"""The verse index: an embedded LanceDB table with a manifest, built in resumable batches.

A rebuild over a complete index builds a second table beside it and swaps the manifest (one
atomic rename) when the new table is complete, so search keeps its vectors and their calibration
meanwhile, and after a rebuild that fails (its partial table is removed).

Its parts: the manifest (`verse_manifest.py`), the LanceDB tables (`verse_tables.py`), their numpy
mirror (`verse_mirror.py`), the vectors being served (`verse_serving.py`) and their calibration
(`calibration.py`); this class builds, opens and swaps them."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from pastor.bible.usfx import Bible
from pastor.errors import PastorError
from pastor.index.buildlock import BuildBusy, BuildLock, ReadOnlyData
from pastor.index.calibration import calibrate
from pastor.index.verse_check import DIGEST_KEY, VectorsRefused, content_problem, vectors_digest
from pastor.index.verse_manifest import BESIDE, TABLE, IndexStatus, expected_manifest, matches, read_manifest
from pastor.index.verse_mirror import NumpyMirror
from pastor.index.verse_serving import ServedVectors
from pastor.index.verse_tables import VerseTables
from pastor.search.rows import Row, build_rows, embed_text, row_count, row_texts  # noqa: F401 (re-exported)
from pastor.search.sources import VectorTable, top_by_cosine  # noqa: F401 (re-exported)
from pastor.search.storage import describe, write_json

WAITING_NOTICE = "outra indexação deste diretório de dados está em andamento; aguardando ela terminar"
READ_ONLY_NOTICE = "diretório de dados somente leitura: o índice existente é usado como está, sem reindexar"

Progress = Callable[[int, int], None]
log = logging.getLogger("pastor.index")


class IndexBuildError(PastorError):
    """The index cannot be built or opened; the message is for users."""


class VerseIndex:
    """Owns the LanceDB table and its manifest under `data_dir/index/`."""

    def __init__(self, data_dir: Path, embedder, *, window: int = 0, batch_size: int = 256, modernize: bool = True):
        self.dir = Path(data_dir) / "index"
        self.embedder = embedder
        self.window = window
        self.modernize = modernize
        self.batch_size = batch_size
        self.manifest_path = self.dir / "manifest.json"
        self.next_path = self.dir / "manifest.next.json"  # a rebuild in progress beside the live table
        self.lock = threading.Lock()
        self.status = IndexStatus("missing")
        self.notice: str | None = None  # integrity news for the status page (corruption, waiting)
        self.refused: str | None = None  # why the vectors on disk failed the content check at `open`
        self.tables = VerseTables(self.dir, embedder.dim)
        self.mirror = NumpyMirror(self.dir)
        # The vectors in memory and their manifest (its calibration drives the gates). `status` follows
        # a build; they change only when a complete table replaces the one being served.
        self.served = ServedVectors()

    # -- manifest -----------------------------------------------------------------------------
    def expected(self, bible: Bible, extras: Sequence[Bible] = ()) -> dict:
        return expected_manifest(bible, extras, self.embedder, window=self.window, modernize=self.modernize)

    def read_manifest(self, path: Path | None = None) -> dict:
        return read_manifest(path or self.manifest_path)

    # -- tables --------------------------------------------------------------------------------
    def _open_table(self, create: bool, name: str | None = None) -> Any:
        return self.tables.open(name or self.read_manifest().get("table", TABLE), create=create)

    def _drop_table(self, name: str) -> None:
        """Remove a table and its numpy copy, even when LanceDB can no longer open it."""
        self.tables.drop(name)
        self.mirror.remove(name)

    def table_problem(self, name: str, total: int | None) -> str | None:
        """Why the stored table cannot be trusted, or None (see `VerseTables.problem`)."""
        return self.tables.problem(name, total)

    def inspect(self, bible: Bible, extras: Sequence[Bible] = ()) -> IndexStatus:
        """State of what is on disk, without building anything."""
        expected = self.expected(bible, extras)
        manifest = self.read_manifest()
        total = row_count(bible, extras)  # what a build would make, before any manifest says it
        if not manifest:
            return IndexStatus("missing", 0, total)
        if not matches(manifest, expected):
            return IndexStatus("partial", 0, total, "parâmetros mudaram; o índice será reconstruído", manifest)
        try:
            table = self._open_table(create=False, name=manifest.get("table", TABLE))
            rows = table.count_rows() if table is not None else 0
        except Exception as exc:
            return IndexStatus(
                "partial",
                0,
                total,
                f"tabela ilegível ({type(exc).__name__}); será reconstruída a partir do corpus",
                manifest,
            )
        total = manifest.get("total", total)  # extras count only the verses aligned with the main text
        state = "complete" if manifest.get("state") == "complete" and rows == total else "partial"
        return IndexStatus(state, rows, total, None, manifest)

    # -- building ------------------------------------------------------------------------------
    def build(
        self,
        bible: Bible,
        extras: Sequence[Bible] = (),
        *,
        rebuild: bool = False,
        progress: Progress | None = None,
        cancel: threading.Event | None = None,
        on_wait: Callable[[], None] | None = None,
    ) -> IndexStatus:
        """Build, resume or rebuild; nothing is recomputed when the manifest matches a complete,
        readable table. Only one build runs per data directory (other processes included);
        `on_wait` is called once if this one has to wait for another."""

        def waiting() -> None:
            self.notice = WAITING_NOTICE
            if on_wait is not None:
                on_wait()

        with self.lock:
            try:
                with BuildLock(self.dir, cancel=cancel, on_wait=waiting):
                    if self.notice in (WAITING_NOTICE, READ_ONLY_NOTICE):
                        self.notice = None
                    return self._build(bible, extras, rebuild, progress, cancel)
            except BuildBusy:
                self.notice = None
                return self.status
            except ReadOnlyData as exc:
                if self._serves(self.expected(bible, extras)):
                    self.notice = READ_ONLY_NOTICE
                    return self.status
                self._failed(exc)
                raise
            except Exception as exc:  # the status page shows it; the caller decides what next
                self._failed(exc)
                raise

    def _serves(self, expected: dict) -> bool:
        """Whether the vectors in memory are a complete index for `expected`."""
        return self.ready and self.serving.get("state") == "complete" and matches(self.serving, expected)

    def _failed(self, exc: Exception) -> None:
        """After a failed build: with vectors in memory, they keep serving (the reason on the
        status page) and the unfinished table beside them is removed, so a full disk gets its
        space back; without, the error state (a first build resumes from its batches)."""
        reason = describe(exc)
        if not (self.ready and self.serving.get("state") == "complete"):
            self.status = IndexStatus("error", self.status.rows, self.status.total, f"falha ao indexar: {reason}")
            return
        unfinished = BESIDE.get(self.serving.get("table", TABLE), TABLE)
        try:
            self._drop_table(unfinished)
            self.next_path.unlink(missing_ok=True)
        except Exception as cleanup:  # reported with the failure; the next build starts that table afresh
            reason += f"; a tabela incompleta não pôde ser removida ({describe(cleanup)})"
        total = self.serving.get("total", 0)
        self.status = IndexStatus(
            "complete",
            total,
            total,
            f"a reindexação falhou ({reason}); o índice anterior continua em uso",
            self.serving,
        )

    def _build(self, bible, extras, rebuild, progress, cancel) -> IndexStatus:
        expected = self.expected(bible, extras)
        live = self.read_manifest()
        name = live.get("table", TABLE)
        if live.get("state") == "complete" and matches(live, expected) and not rebuild:
            problem = self.table_problem(name, live.get("total"))
            if problem is None and (
                not self.vectors.ready or self.serving.get("table", TABLE) != name or self.status.state != "complete"
            ):
                problem = self._serve_table(name, live, bible, extras)  # e.g. another process finished meanwhile
            if problem is None:
                self.status = IndexStatus("complete", live["total"], live["total"], None, live)
                return self.status
            self.notice = f"índice corrompido ({problem}); reconstruindo a partir do corpus"
            rebuild = True
        rows = build_rows(bible, extras, self.window, self.modernize)
        if live.get("state") == "complete":
            return self._build_beside(live, expected, rows, progress, cancel)
        if live and (rebuild or not matches(live, expected) or self.table_problem(name, None)):
            self._drop_table(name)
            self.manifest_path.unlink(missing_ok=True)
            self._serve(VectorTable(), {})
        status, vectors = self._fill(name, self.manifest_path, expected, rows, progress, cancel)
        if status.state == "complete" and vectors is not None:  # a complete fill returns its vectors
            self._serve(vectors, status.manifest)
        return status

    def _build_beside(self, live: dict, expected: dict, rows: list[Row], progress, cancel) -> IndexStatus:
        """Fill the other table while the live one keeps serving, then swap the manifests."""
        serving = self.status if self.ready else None
        name = BESIDE.get(live.get("table", TABLE), TABLE)
        pending = self.read_manifest(self.next_path)
        if not (pending.get("table") == name and matches(pending, expected) and self.table_problem(name, None) is None):
            self._drop_table(name)  # a stale or broken leftover: start the new table afresh
            self.next_path.unlink(missing_ok=True)
        status, vectors = self._fill(name, self.next_path, expected, rows, progress, cancel)
        if status.state != "complete" or vectors is None:  # a complete fill returns its vectors
            self.status = serving or status
            return status
        write_json(self.manifest_path, status.manifest)  # the swap: one atomic rename
        self._serve(vectors, status.manifest)
        self.next_path.unlink(missing_ok=True)
        self._drop_table(live.get("table", TABLE))
        if self.notice and self.notice.startswith("índice corrompido"):
            self.notice = self.notice.replace("reconstruindo", "reconstruído")
        return status

    def _fill(
        self, name: str, path: Path, expected: dict, rows: list[Row], progress, cancel
    ) -> tuple[IndexStatus, VectorTable | None]:
        """Add the missing batches to table `name`, recording progress in the manifest at `path`;
        the complete table's vectors are returned, for the caller to serve when it commits them."""
        table = self._open_table(create=True, name=name)
        done = table.count_rows()  # each add() is one commit, so this is exact after a crash
        manifest = {**expected, "table": name, "state": "partial", "rows": done, "total": len(rows)}
        write_json(path, manifest)
        status = IndexStatus("indexing", done, len(rows), None, manifest)
        self.status = status
        started = time.perf_counter()
        for start in range(done, len(rows), self.batch_size):
            if cancel is not None and cancel.is_set():
                self.status = IndexStatus("partial", start, len(rows), None, manifest)
                return self.status, None
            batch = rows[start : start + self.batch_size]
            vectors = self.embedder.encode([r.search_text for r in batch])
            table.add(self.tables.arrow(batch, vectors))
            status.rows = start + len(batch)
            manifest["rows"] = status.rows
            write_json(path, manifest)
            if progress:
                progress(status.rows, len(rows))
        if table.count_rows() != len(rows):
            raise IndexBuildError(f"a tabela tem {table.count_rows()} linhas, esperado {len(rows)}")
        vectors = self._load_matrix(name)
        # No sample here: the embedder that just wrote these rows would only agree with itself.
        problem = content_problem(vectors.matrix, vectors.ids, {"total": len(rows)}, dim=self.embedder.dim)
        if problem is not None:  # a broken embedder (zeros, NaN): nothing of it is served or published
            self._drop_table(name)
            raise IndexBuildError(f"os vetores gerados foram recusados: {problem}")
        manifest.update(
            state="complete",
            rows=len(rows),
            build_seconds=round(time.perf_counter() - started, 1),
            calibration=self.calibrate(vectors=vectors),
            **{DIGEST_KEY: vectors_digest(vectors.matrix)},
        )
        write_json(path, manifest)
        self.status = IndexStatus("complete", len(rows), len(rows), None, manifest)
        return self.status, vectors

    # -- search --------------------------------------------------------------------------------
    @property
    def vectors(self) -> VectorTable:
        """The vectors being served."""
        return self.served.vectors

    @property
    def serving(self) -> dict:
        """The manifest of the vectors being served."""
        return self.served.manifest

    def _serve(self, vectors: VectorTable, manifest: dict) -> None:
        """Search from now on with `vectors`, gated by `manifest`'s calibration: swapped together."""
        self.served.serve(vectors, manifest)

    @property
    def calibration(self) -> dict | None:
        """The calibration of the vectors being served (not of a build in progress)."""
        return self.served.calibration

    def _load_matrix(self, name: str) -> VectorTable:
        """The table's vectors for memory, copied to the numpy mirror a restart reads (`verse_mirror.py`)."""
        loaded = self.tables.vectors(name)
        self.mirror.save(name, loaded)
        return loaded

    def _content_problem(self, vectors: VectorTable, manifest: dict, bible: Bible, extras: Sequence[Bible]):
        """Why `vectors` must not be served as `manifest`'s table, or None (`verse_check.py`): the
        sample's texts come from the corpus, as the build embedded them."""

        def texts_at(positions: list[int]) -> list[tuple[str, str]]:
            return row_texts(bible, extras, positions, self.window, self.modernize)

        return content_problem(
            vectors.matrix, vectors.ids, manifest, dim=self.embedder.dim, embedder=self.embedder, texts_at=texts_at
        )

    def _refuse(self, what: str, problem: str) -> None:
        """Remember why vectors on disk were refused, and say it once in the log."""
        self.refused = problem
        log.warning("índice: %s recusados: %s", what, problem)

    def _serve_table(self, name: str, manifest: dict, bible: Bible, extras: Sequence[Bible]) -> str | None:
        """Serve table `name`'s own vectors, copied to the numpy mirror, when they pass the content
        check; else why not (nothing changes then). Raises when the table cannot be read."""
        vectors = self.tables.vectors(name)
        problem = self._content_problem(vectors, manifest, bible, extras)
        if problem is not None:
            self._refuse("vetores da tabela do índice", problem)
            return problem
        try:
            self.mirror.save(name, vectors)
        except OSError:  # a read-only data directory: served all the same; the next build writes the copy
            pass
        self._serve(vectors, manifest)
        return None

    def _load_cached_matrix(self, manifest: dict, bible: Bible, extras: Sequence[Bible]) -> bool:
        """The numpy copy of a complete table, when its content passes the check. The table
        itself is not opened: if it was damaged, search still works from this copy and the next
        build (at start, in the background) finds the damage and rebuilds."""
        try:
            vectors = self.mirror.load(manifest.get("table", TABLE))
            problem = None if vectors is None else self._content_problem(vectors, manifest, bible, extras)
        except VectorsRefused as exc:
            vectors, problem = None, str(exc)
        if problem is not None:
            self._refuse("vetores da cópia em disco", problem)
            return False
        if vectors is None:
            return False
        self._serve(vectors, manifest)
        return True

    def open(self, bible: Bible, extras: Sequence[Bible] = ()) -> IndexStatus:
        """Open an existing complete index (fast path at start-up): its numpy copy, or the table's
        own vectors when the copy is missing or fails the content check."""
        manifest = self.read_manifest()
        self.refused = None
        if (
            manifest.get("state") == "complete"
            and matches(manifest, self.expected(bible, extras))
            and self._load_cached_matrix(manifest, bible, extras)
        ):
            self.status = IndexStatus("complete", manifest["total"], manifest["total"], None, manifest)
            return self.status
        copy_refused = self.refused
        self.status = self.inspect(bible, extras)
        total = self.status.total
        if self.status.state != "complete":
            if copy_refused is not None and self.status.error is None:
                self.status.error = f"vetores recusados: {copy_refused}"
            return self.status
        try:
            problem = self._serve_table(manifest.get("table", TABLE), manifest, bible, extras)
        except Exception as exc:  # counted but unreadable: the next build rebuilds it
            problem = f"tabela ilegível ({type(exc).__name__})"
        if problem is not None:
            self.status = IndexStatus("partial", 0, total, f"{problem}; será reconstruída a partir do corpus", manifest)
        elif copy_refused is not None:
            self.notice = (
                f"cópia dos vetores em disco recusada ({copy_refused}); "
                "em uso os vetores da tabela do índice, que passaram na verificação"
            )
        return self.status

    @property
    def ready(self) -> bool:
        return self.served.ready

    def vector_search(self, vector: np.ndarray, n: int) -> list[tuple[str, float]]:
        """Top-n verse ids by cosine, de-duplicated across translations (best row wins)."""
        return self.served.vector_search(vector, n)

    def scores_for(self, ids: Sequence[str], vector: np.ndarray) -> dict[str, float]:
        """The cosine of the query to each given verse id being served (ids without a row left out)."""
        return self.served.scores_for(ids, vector)

    def rows(self) -> tuple[list[str], np.ndarray | None]:
        """The ids and the matrix of the vectors being served (one row per verse and translation)."""
        return self.served.rows()

    def calibrate(self, pairs: int = 4000, seed: int = 7, vectors: VectorTable | None = None) -> dict:
        """Cosine distribution of random unrelated verse pairs (different books) of `vectors`
        (default: the ones being served); see `calibration.py`."""
        return calibrate(self.vectors if vectors is None else vectors, pairs, seed)
