"""The verse index: an embedded LanceDB table with a manifest, built in resumable batches.

A rebuild over a complete index builds a second table beside it and swaps the manifest (one
atomic rename) when the new table is complete, so search keeps its vectors and their calibration
meanwhile, and after a rebuild that fails (its partial table is removed)."""

from __future__ import annotations

import json
import shutil
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from pastor.bible.usfx import Bible
from pastor.errors import PastorError
from pastor.index.buildlock import BuildBusy, BuildLock, ReadOnlyData
from pastor.search.rows import Row, build_rows, embed_text  # noqa: F401 (re-exported)
from pastor.search.sources import VectorTable, top_by_cosine  # noqa: F401 (re-exported)
from pastor.search.storage import connect, describe, save_array, table_names, write_json
from pastor.text.datafile import logical_name

MANIFEST_VERSION = 1
TABLE = "verses"
# A rebuild beside a complete index fills the other table of the pair, then swaps.
BESIDE = {"verses": "verses_b", "verses_b": "verses"}

# How search text is derived from verse text; bump when that changes so old tables rebuild.
SEARCH_TEXT_VERSION = "modern-fold-1"

WAITING_NOTICE = "outra indexação deste diretório de dados está em andamento; aguardando ela terminar"
READ_ONLY_NOTICE = "diretório de dados somente leitura: o índice existente é usado como está, sem reindexar"

Progress = Callable[[int, int], None]


class IndexBuildError(PastorError):
    """The index cannot be built or opened; the message is for users."""


@dataclass
class IndexStatus:
    state: str  # "missing" | "indexing" | "complete" | "partial" | "error"
    rows: int = 0
    total: int = 0
    error: str | None = None
    manifest: dict = field(default_factory=dict)


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
        self.vectors = VectorTable()  # the search side; LanceDB stays the store
        # The manifest of the vectors in memory (its calibration drives the gates). `status` follows
        # a build; this changes only when a complete table replaces the one being served.
        self.serving: dict = {}

    # -- manifest -----------------------------------------------------------------------------
    def expected(self, bible: Bible, extras: Sequence[Bible] = ()) -> dict:
        return {
            "version": MANIFEST_VERSION,
            "corpus": {"file": logical_name(bible.path), "sha256": bible.sha256, "verses": len(bible.verses)},
            "extras": [{"file": logical_name(b.path), "sha256": b.sha256} for b in extras],
            "embedder": {"name": self.embedder.name, "dim": self.embedder.dim},
            "params": {
                "window": self.window,
                "search_text": SEARCH_TEXT_VERSION,
                "modernize": self.modernize,
                "metric": "cosine",
            },
        }

    def read_manifest(self, path: Path | None = None) -> dict:
        try:
            data = json.loads((path or self.manifest_path).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    @staticmethod
    def _same(manifest: dict, expected: dict) -> bool:
        return all(manifest.get(k) == v for k, v in expected.items())

    # -- tables --------------------------------------------------------------------------------
    def _db(self):
        return connect(self.dir)

    def _schema(self):
        import pyarrow as pa

        return pa.schema(
            [
                ("id", pa.string()),
                ("book", pa.string()),
                ("book_name", pa.string()),
                ("chapter", pa.int32()),
                ("verse", pa.int32()),
                ("translation", pa.string()),
                ("text", pa.string()),
                ("search_text", pa.string()),
                ("vector", pa.list_(pa.float32(), self.embedder.dim)),
            ]
        )

    def _open_table(self, create: bool, name: str | None = None):
        name = name or self.read_manifest().get("table", TABLE)
        db = self._db()
        if name in table_names(db):
            return db.open_table(name)
        if not create:
            return None
        return db.create_table(name, schema=self._schema())

    def _vector_files(self, name: str) -> tuple[Path, Path]:
        return self.dir / f"{name}.vectors.npy", self.dir / f"{name}.ids.json"

    def _drop_table(self, name: str) -> None:
        """Remove a table and its numpy copy, even when LanceDB can no longer open it."""
        db = self._db()
        try:
            if name in table_names(db):
                db.drop_table(name)
        except Exception:  # a corrupted table may refuse to be dropped: its folder goes instead
            pass
        shutil.rmtree(self.dir / "lancedb" / f"{name}.lance", ignore_errors=True)
        for path in self._vector_files(name):
            path.unlink(missing_ok=True)

    def table_problem(self, name: str, total: int | None) -> str | None:
        """Why the stored table cannot be trusted, or None. Reads the id column of every fragment,
        so a truncated data file or a lost `_versions` folder is found, not only a lost table."""
        try:
            table = self._open_table(create=False, name=name)
            if table is None:
                return "a tabela de vetores não existe"
            rows = table.search().select(["id"]).limit(None).to_arrow().num_rows
        except Exception as exc:
            return f"tabela ilegível ({type(exc).__name__})"
        if total is not None and rows != total:
            return f"a tabela tem {rows} linhas, esperado {total}"
        return None

    def inspect(self, bible: Bible, extras: Sequence[Bible] = ()) -> IndexStatus:
        """State of what is on disk, without building anything."""
        expected = self.expected(bible, extras)
        manifest = self.read_manifest()
        total = len(bible.verses) * (1 + len(extras))
        if not manifest:
            return IndexStatus("missing", 0, total)
        if not self._same(manifest, expected):
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
        return self.ready and self.serving.get("state") == "complete" and self._same(self.serving, expected)

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
        if live.get("state") == "complete" and self._same(live, expected) and not rebuild:
            problem = self.table_problem(name, live.get("total"))
            if problem is None:
                if (
                    not self.vectors.ready
                    or self.serving.get("table", TABLE) != name
                    or self.status.state != "complete"
                ):
                    self._serve(self._load_matrix(name), live)  # e.g. another process finished while we waited
                self.status = IndexStatus("complete", live["total"], live["total"], None, live)
                return self.status
            self.notice = f"índice corrompido ({problem}); reconstruindo a partir do corpus"
            rebuild = True
        rows = build_rows(bible, extras, self.window, self.modernize)
        if live.get("state") == "complete":
            return self._build_beside(live, expected, rows, progress, cancel)
        if live and (rebuild or not self._same(live, expected) or self.table_problem(name, None)):
            self._drop_table(name)
            self.manifest_path.unlink(missing_ok=True)
            self._serve(VectorTable(), {})
        status, vectors = self._fill(name, self.manifest_path, expected, rows, progress, cancel)
        if status.state == "complete":
            self._serve(vectors, status.manifest)
        return status

    def _build_beside(self, live: dict, expected: dict, rows: list[Row], progress, cancel) -> IndexStatus:
        """Fill the other table while the live one keeps serving, then swap the manifests."""
        serving = self.status if self.ready else None
        name = BESIDE.get(live.get("table", TABLE), TABLE)
        pending = self.read_manifest(self.next_path)
        if not (
            pending.get("table") == name and self._same(pending, expected) and self.table_problem(name, None) is None
        ):
            self._drop_table(name)  # a stale or broken leftover: start the new table afresh
            self.next_path.unlink(missing_ok=True)
        status, vectors = self._fill(name, self.next_path, expected, rows, progress, cancel)
        if status.state != "complete":
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
            table.add(self._arrow(batch, vectors))
            status.rows = start + len(batch)
            manifest["rows"] = status.rows
            write_json(path, manifest)
            if progress:
                progress(status.rows, len(rows))
        if table.count_rows() != len(rows):
            raise IndexBuildError(f"a tabela tem {table.count_rows()} linhas, esperado {len(rows)}")
        vectors = self._load_matrix(name)
        manifest.update(
            state="complete",
            rows=len(rows),
            build_seconds=round(time.perf_counter() - started, 1),
            calibration=self.calibrate(vectors=vectors),
        )
        write_json(path, manifest)
        self.status = IndexStatus("complete", len(rows), len(rows), None, manifest)
        return self.status, vectors

    def _arrow(self, batch: list[Row], vectors: np.ndarray):
        import pyarrow as pa

        columns = {name: [getattr(r, name) for r in batch] for name in Row.__dataclass_fields__}
        flat = pa.array(np.asarray(vectors, dtype=np.float32).ravel())
        columns["vector"] = pa.FixedSizeListArray.from_arrays(flat, self.embedder.dim)
        return pa.table(columns, schema=self._schema())

    # -- search --------------------------------------------------------------------------------
    def _serve(self, vectors: VectorTable, manifest: dict) -> None:
        """Search from now on with `vectors`, gated by `manifest`'s calibration: swapped together."""
        self.vectors, self.serving = vectors, manifest

    @property
    def calibration(self) -> dict | None:
        """The calibration of the vectors being served (not of a build in progress)."""
        return self.serving.get("calibration")

    def _load_matrix(self, name: str) -> VectorTable:
        """The table's vectors for memory: exact search by one matrix product (see `VectorTable`)."""
        table = self._open_table(create=False, name=name)
        loaded = VectorTable.from_arrow(table.to_arrow().select(["id", "vector"]), self.embedder.dim)
        # A copy as plain numpy, named after its table: a restart then reads 64 MB instead of
        # importing and opening LanceDB (importing lancedb alone measured 3.5 s here).
        vectors, id_file = self._vector_files(name)
        save_array(vectors, loaded.matrix)
        write_json(id_file, loaded.ids)
        return loaded

    def _load_cached_matrix(self, manifest: dict) -> bool:
        """The numpy copy of a complete table, when it matches the manifest's row count. The
        table itself is not opened: if it was damaged, search still works from this copy and
        the next build (at start, in the background) finds the damage and rebuilds."""
        vectors, id_file = self._vector_files(manifest.get("table", TABLE))
        try:
            ids = json.loads(id_file.read_text(encoding="utf-8"))
            matrix = np.load(vectors)
        except (OSError, ValueError):
            return False
        if len(ids) != manifest.get("total") or matrix.shape != (len(ids), self.embedder.dim):
            return False
        self._serve(VectorTable(ids, matrix), manifest)
        return True

    def open(self, bible: Bible, extras: Sequence[Bible] = ()) -> IndexStatus:
        """Open an existing complete index (fast path at start-up)."""
        manifest = self.read_manifest()
        if (
            manifest.get("state") == "complete"
            and self._same(manifest, self.expected(bible, extras))
            and self._load_cached_matrix(manifest)
        ):
            self.status = IndexStatus("complete", manifest["total"], manifest["total"], None, manifest)
            return self.status
        self.status = self.inspect(bible, extras)
        if self.status.state == "complete":
            try:
                self._serve(self._load_matrix(manifest.get("table", TABLE)), manifest)
            except Exception as exc:  # counted but unreadable: the next build rebuilds it
                self.status = IndexStatus(
                    "partial",
                    0,
                    self.status.total,
                    f"tabela ilegível ({type(exc).__name__}); será reconstruída",
                    manifest,
                )
        return self.status

    @property
    def ready(self) -> bool:
        return self.vectors.ready

    def vector_search(self, vector: np.ndarray, n: int) -> list[tuple[str, float]]:
        """Top-n verse ids by cosine, de-duplicated across translations (best row wins)."""
        return self.vectors.vector_search(vector, n)

    def scores_for(self, ids: Sequence[str], vector: np.ndarray) -> dict[str, float]:
        """The cosine of the query to each given verse id being served (ids without a row left out)."""
        return self.vectors.scores_for(ids, vector)

    def rows(self) -> tuple[list[str], np.ndarray]:
        """The ids and the matrix of the vectors being served (one row per verse and translation)."""
        return self.vectors.ids, self.vectors.matrix

    def calibrate(self, pairs: int = 4000, seed: int = 7, vectors: VectorTable | None = None) -> dict:
        """Cosine distribution of random unrelated verse pairs (different books) of `vectors`
        (default: the ones being served)."""
        rng = np.random.default_rng(seed)
        vectors = self.vectors if vectors is None else vectors
        ids, matrix = vectors.ids, vectors.matrix
        n = len(ids)
        a, b = rng.integers(0, n, pairs), rng.integers(0, n, pairs)
        keep = np.array([ids[i].split()[0] != ids[j].split()[0] for i, j in zip(a, b)])
        if not keep.any():  # a one-book corpus: pairs of different verses are the best stand-in
            keep = np.array([ids[i] != ids[j] for i, j in zip(a, b)])
        if not keep.any():  # a single verse: no band at all, so the vector gates never pass
            return {"pairs": 0, "mean": 0.0, "std": 0.0, "p50": 0.0, "p95": 0.0, "p99": 0.0}
        sims = np.einsum("ij,ij->i", matrix[a[keep]], matrix[b[keep]])
        return {
            "pairs": int(keep.sum()),
            "mean": float(sims.mean()),
            "std": float(sims.std()),
            "p50": float(np.percentile(sims, 50)),
            "p95": float(np.percentile(sims, 95)),
            "p99": float(np.percentile(sims, 99)),
        }
