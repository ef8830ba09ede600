"""The verse index: an embedded LanceDB table with a manifest, built in resumable batches."""

from __future__ import annotations

import json
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from pastor.bible.usfx import Bible
from pastor.search.sources import VectorTable, top_by_cosine  # noqa: F401 (top_by_cosine re-exported)
from pastor.search.storage import connect, table_names, write_json

MANIFEST_VERSION = 1
TABLE = "verses"

# How search text is derived from verse text; bump when that changes so old tables rebuild.
SEARCH_TEXT_VERSION = "modern-fold-1"

Progress = Callable[[int, int], None]


class IndexBuildError(Exception):
    """The index cannot be built or opened; the message is for users."""


@dataclass
class Row:
    id: str
    book: str
    book_name: str
    chapter: int
    verse: int
    translation: str
    text: str
    search_text: str


@dataclass
class IndexStatus:
    state: str  # "missing" | "indexing" | "complete" | "partial" | "error"
    rows: int = 0
    total: int = 0
    error: str | None = None
    manifest: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        return {"state": self.state, "rows": self.rows, "total": self.total, "error": self.error}


def embed_text(text: str, modernize: bool = True) -> str:
    """What the embedder sees: the verse in modern spelling, accents folded (measured better)."""
    from pastor.text import normalize
    return normalize.fold(normalize.modernize(text) if modernize else text)


def build_rows(bible: Bible, extras: Sequence[Bible] = (), window: int = 0, modernize: bool = True) -> list[Row]:
    """One row per verse of the main translation, then one per aligned verse of each extra."""
    from pastor.bible import canon
    rows = []
    for translation in (bible, *extras):
        verses = [v for v in translation.verses if v.id in bible.by_id]  # aligned by verse id
        for i, v in enumerate(verses):
            context = _window(verses, i, window)
            rows.append(Row(v.id, v.book, canon.by_code()[v.book].name, v.chapter, v.verse,
                            translation.name, v.text, embed_text(context, modernize)))
    return rows


def _window(verses, i: int, window: int) -> str:
    """The verse with up to `window` neighbours on each side, inside the same chapter."""
    if window <= 0:
        return verses[i].text
    here = verses[i]
    near = [v for v in verses[max(0, i - window): i + window + 1]
            if v.book == here.book and v.chapter == here.chapter]
    return " ".join(v.text for v in near)


class VerseIndex:
    """Owns the LanceDB table and its manifest under `data_dir/index/`."""

    def __init__(self, data_dir: Path, embedder, *, window: int = 0, batch_size: int = 256,
                 modernize: bool = True):
        self.dir = Path(data_dir) / "index"
        self.embedder = embedder
        self.window = window
        self.modernize = modernize
        self.batch_size = batch_size
        self.manifest_path = self.dir / "manifest.json"
        self.lock = threading.Lock()
        self.status = IndexStatus("missing")
        self.vectors = VectorTable()  # the search side; LanceDB stays the store

    # -- manifest -----------------------------------------------------------------------------
    def expected(self, bible: Bible, extras: Sequence[Bible] = ()) -> dict:
        return {
            "version": MANIFEST_VERSION,
            "corpus": {"file": bible.path.name, "sha256": bible.sha256, "verses": len(bible.verses)},
            "extras": [{"file": b.path.name, "sha256": b.sha256} for b in extras],
            "embedder": {"name": self.embedder.name, "dim": self.embedder.dim},
            "params": {"window": self.window, "search_text": SEARCH_TEXT_VERSION, "modernize": self.modernize,
                       "metric": "cosine"},
        }

    def read_manifest(self) -> dict:
        try:
            return json.loads(self.manifest_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}

    def _write_manifest(self, manifest: dict) -> None:
        write_json(self.manifest_path, manifest)  # atomic: never a half-written manifest

    @staticmethod
    def _same(manifest: dict, expected: dict) -> bool:
        return all(manifest.get(k) == v for k, v in expected.items())

    # -- table ---------------------------------------------------------------------------------
    def _db(self):
        return connect(self.dir)

    def _schema(self):
        import pyarrow as pa
        return pa.schema([
            ("id", pa.string()), ("book", pa.string()), ("book_name", pa.string()),
            ("chapter", pa.int32()), ("verse", pa.int32()), ("translation", pa.string()),
            ("text", pa.string()), ("search_text", pa.string()),
            ("vector", pa.list_(pa.float32(), self.embedder.dim)),
        ])

    def _open_table(self, create: bool):
        db = self._db()
        if TABLE in table_names(db):
            return db.open_table(TABLE)
        if not create:
            return None
        return db.create_table(TABLE, schema=self._schema())

    def _drop(self) -> None:
        db = self._db()
        if TABLE in table_names(db):
            db.drop_table(TABLE)
        for path in (self.manifest_path, self.dir / "vectors.npy", self.dir / "vector_ids.json"):
            if path.exists():
                path.unlink()

    def inspect(self, bible: Bible, extras: Sequence[Bible] = ()) -> IndexStatus:
        """State of what is on disk, without building anything."""
        expected = self.expected(bible, extras)
        manifest = self.read_manifest()
        total = len(bible.verses) * (1 + len(extras))
        if not manifest:
            return IndexStatus("missing", 0, total)
        if not self._same(manifest, expected):
            return IndexStatus("partial", 0, total, "parâmetros mudaram; o índice será reconstruído", manifest)
        table = self._open_table(create=False)
        rows = table.count_rows() if table is not None else 0
        total = manifest.get("total", total)  # extras count only the verses aligned with the main text
        state = "complete" if manifest.get("state") == "complete" and rows == total else "partial"
        return IndexStatus(state, rows, total, None, manifest)

    def build(self, bible: Bible, extras: Sequence[Bible] = (), *, rebuild: bool = False,
              progress: Progress | None = None, cancel: threading.Event | None = None) -> IndexStatus:
        """Build or resume; nothing is recomputed when the manifest matches a complete table."""
        with self.lock:
            try:
                return self._build(bible, extras, rebuild, progress, cancel)
            except Exception as exc:  # the status page shows it; the caller decides what next
                self.status = IndexStatus("error", self.status.rows, self.status.total,
                                          f"falha ao indexar: {exc}")
                raise

    def _build(self, bible, extras, rebuild, progress, cancel) -> IndexStatus:
        expected = self.expected(bible, extras)
        current = self.inspect(bible, extras)
        if rebuild or (current.manifest and not self._same(current.manifest, expected)):
            self._drop()
            current = IndexStatus("missing", 0, current.total)
        if current.state == "complete":
            self.status = current
            self._load_matrix()
            return current

        rows = build_rows(bible, extras, self.window, self.modernize)
        table = self._open_table(create=True)
        done = table.count_rows()  # each add() is one commit, so this is exact after a crash
        manifest = {**expected, "state": "partial", "rows": done, "total": len(rows)}
        self._write_manifest(manifest)
        self.status = IndexStatus("indexing", done, len(rows), None, manifest)
        started = time.perf_counter()
        for start in range(done, len(rows), self.batch_size):
            if cancel is not None and cancel.is_set():
                self.status = IndexStatus("partial", start, len(rows), None, manifest)
                return self.status
            batch = rows[start:start + self.batch_size]
            vectors = self.embedder.encode([r.search_text for r in batch])
            table.add(self._arrow(batch, vectors))
            self.status.rows = start + len(batch)
            manifest["rows"] = self.status.rows
            self._write_manifest(manifest)
            if progress:
                progress(self.status.rows, len(rows))
        if table.count_rows() != len(rows):
            raise IndexBuildError(f"a tabela tem {table.count_rows()} linhas, esperado {len(rows)}")
        self._load_matrix()
        manifest.update(state="complete", rows=len(rows), build_seconds=round(time.perf_counter() - started, 1),
                        calibration=self.calibrate())
        self._write_manifest(manifest)
        self.status = IndexStatus("complete", len(rows), len(rows), None, manifest)
        return self.status

    def _arrow(self, batch: list[Row], vectors: np.ndarray):
        import pyarrow as pa
        columns = {name: [getattr(r, name) for r in batch] for name in Row.__dataclass_fields__}
        flat = pa.array(np.asarray(vectors, dtype=np.float32).ravel())
        columns["vector"] = pa.FixedSizeListArray.from_arrays(flat, self.embedder.dim)
        return pa.table(columns, schema=self._schema())

    # -- search --------------------------------------------------------------------------------
    def _load_matrix(self) -> None:
        """Keep the vectors in memory: exact search by one matrix product (see `VectorTable`)."""
        table = self._open_table(create=False)
        self.vectors = VectorTable.from_arrow(table.to_arrow().select(["id", "vector"]), self.embedder.dim)
        # A copy as plain numpy: a restart then reads 64 MB instead of importing and opening
        # LanceDB (importing lancedb alone measured 3.5 s here). The table stays the store.
        np.save(self.dir / "vectors.npy", self.vectors.matrix)
        write_json(self.dir / "vector_ids.json", self.vectors.ids)

    def _load_cached_matrix(self, manifest: dict) -> bool:
        """The numpy copy of a complete table, when it matches the manifest's row count."""
        try:
            ids = json.loads((self.dir / "vector_ids.json").read_text(encoding="utf-8"))
            matrix = np.load(self.dir / "vectors.npy")
        except (OSError, ValueError):
            return False
        if len(ids) != manifest.get("total") or matrix.shape != (len(ids), self.embedder.dim):
            return False
        if not (self.dir / "lancedb" / f"{TABLE}.lance").is_dir():
            return False  # the store itself is gone: the slow path reports it as partial
        self.vectors = VectorTable(ids, matrix)
        return True

    def open(self, bible: Bible, extras: Sequence[Bible] = ()) -> IndexStatus:
        """Open an existing complete index (fast path at start-up)."""
        manifest = self.read_manifest()
        if manifest.get("state") == "complete" and self._same(manifest, self.expected(bible, extras)) \
                and self._load_cached_matrix(manifest):
            self.status = IndexStatus("complete", manifest["total"], manifest["total"], None, manifest)
            return self.status
        self.status = self.inspect(bible, extras)
        if self.status.state == "complete":
            self._load_matrix()
        return self.status

    @property
    def ready(self) -> bool:
        return self.vectors.ready and self.status.state == "complete"

    def vector_search(self, vector: np.ndarray, n: int) -> list[tuple[str, float]]:
        """Top-n verse ids by cosine, de-duplicated across translations (best row wins)."""
        return self.vectors.vector_search(vector, n)

    def calibrate(self, pairs: int = 4000, seed: int = 7) -> dict:
        """Cosine distribution of random unrelated verse pairs (different books)."""
        rng = np.random.default_rng(seed)
        ids, matrix = self.vectors.ids, self.vectors.matrix
        n = len(ids)
        a, b = rng.integers(0, n, pairs), rng.integers(0, n, pairs)
        keep = np.array([ids[i].split()[0] != ids[j].split()[0] for i, j in zip(a, b)])
        if not keep.any():  # a one-book corpus: pairs of different verses are the best stand-in
            keep = np.array([ids[i] != ids[j] for i, j in zip(a, b)])
        if not keep.any():  # a single verse: no band at all, so the vector gates never pass
            return {"pairs": 0, "mean": 0.0, "std": 0.0, "p50": 0.0, "p95": 0.0, "p99": 0.0}
        sims = np.einsum("ij,ij->i", matrix[a[keep]], matrix[b[keep]])
        return {"pairs": int(keep.sum()), "mean": float(sims.mean()), "std": float(sims.std()),
                "p50": float(np.percentile(sims, 50)), "p95": float(np.percentile(sims, 95)),
                "p99": float(np.percentile(sims, 99))}
