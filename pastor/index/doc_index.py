"""The church's documents as a search source: chunks in LanceDB, BM25 beside them, per-file state."""

from __future__ import annotations

import json
import threading
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from pastor.documents import read_folder
from pastor.index.buildlock import BuildLock, ReadOnlyData
from pastor.index.verse_manifest import SEARCH_TEXT_VERSION
from pastor.search.bm25 import LexicalIndex
from pastor.search.rows import embed_text
from pastor.search.sources import VectorTable
from pastor.search.storage import connect, table_names, write_json

TABLE = "docs"


@dataclass(frozen=True)
class RefreshReport:
    """What one refresh did: files known after it, read again, unchanged, deleted, failed."""

    files: int
    read: int
    unchanged: int
    deleted: int
    errors: int


@dataclass(frozen=True)
class DocumentFile:
    """One indexed file as the status shows it (its path inside the documents folder)."""

    path: str
    parts: int | None
    chunks: int | None
    state: str | None
    error: str | None


@dataclass(frozen=True)
class DocumentsStatus:
    """The documents source: its folder's name (never an absolute path), each file, the chunks served."""

    folder: str | None
    read_only: bool
    files: tuple[DocumentFile, ...]
    chunks: int


class DocumentSource:
    """Indexes `settings.docs_dir` incrementally: only new or changed files are read and embedded."""

    def __init__(self, settings, embedder):
        self.settings = settings
        self.embedder = embedder
        self.folder = settings.docs_dir
        self.dir = Path(settings.data_dir) / "index"
        self.manifest_path = self.dir / "docs_manifest.json"
        self.modernize = settings.modernize
        self.index = VectorTable()
        self.lexical = None
        self._texts: dict[str, str] = {}
        self._lock = threading.Lock()
        self.files: dict[str, dict] = {}
        self.read_only = False  # the data directory refused the last refresh: served as indexed before

    # -- storage -------------------------------------------------------------------------------
    def _db(self):
        return connect(self.dir)

    def _schema(self):
        import pyarrow as pa

        fields = [
            ("ref", pa.string()),
            ("file", pa.string()),
            ("part", pa.int32()),
            ("chunk", pa.int32()),
            ("title", pa.string()),
            ("text", pa.string()),
            ("search_text", pa.string()),
        ]
        if self.embedder is not None:
            fields.append(("vector", pa.list_(pa.float32(), self.embedder.dim)))
        return pa.schema(fields)

    def _table(self):
        db = self._db()
        if TABLE in table_names(db):
            return db.open_table(TABLE)
        return db.create_table(TABLE, schema=self._schema())

    def _embedder_key(self) -> dict:
        """What the stored vectors depend on: the model and how search text becomes embedder input."""
        if self.embedder is None:
            return {"name": None}
        return {
            "name": self.embedder.name,
            "dim": self.embedder.dim,
            "modernize": self.modernize,
            "search_text": SEARCH_TEXT_VERSION,
        }

    def _read_manifest(self) -> dict:
        try:
            data = json.loads(self.manifest_path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        return data if data.get("embedder") == self._embedder_key() else {}

    def _write_manifest(self) -> None:
        write_json(self.manifest_path, {"embedder": self._embedder_key(), "files": self.files})

    # -- refresh -------------------------------------------------------------------------------
    def open(self) -> None:
        """Serve what is already indexed (fast start-up); `refresh` picks up changes later."""
        with self._lock:
            manifest = self._read_manifest()
            if not manifest or TABLE not in table_names(self._db()):
                return
            self.files = manifest.get("files", {})
            self._load(self._table())

    def refresh(self) -> RefreshReport:
        """Re-read changed files, drop deleted ones, and reload the in-memory search side.

        Under the data directory's build lock, so two processes never add the same chunks twice.
        A read-only data directory keeps serving the documents indexed before (`read_only`)."""
        try:
            with self._lock, BuildLock(self.dir):
                self.read_only = False
                return self._refresh()
        except ReadOnlyData:
            self.read_only = True
            return RefreshReport(len(self.files), 0, len(self.files), 0, 0)

    def _refresh(self) -> RefreshReport:
        """The refresh itself, under the lock."""
        manifest = self._read_manifest()
        if not manifest and TABLE in table_names(self._db()):
            self._db().drop_table(TABLE)  # embedder changed or manifest lost: start over
        self.files = manifest.get("files", {})
        known = {path: info["sha256"] for path, info in self.files.items() if info.get("sha256")}
        scan = read_folder(
            self.folder,
            chunk_size=self.settings.chunk_size,
            chunk_overlap=self.settings.chunk_overlap,
            max_bytes=self.settings.doc_max_bytes,
            known=known,
            max_parts=self.settings.doc_max_parts,
            max_chunks=self.settings.doc_max_chunks,
        )
        table = self._table()
        for path in scan.deleted + [r.path for r in scan.results]:
            table.delete(f"file = {_sql(path)}")
            self.files.pop(path, None)
        for result in scan.results:
            if result.chunks:
                table.add(self._arrow(result.chunks))
            self.files[result.path] = {
                "sha256": result.sha256,
                "parts": result.parts,
                "chunks": len(result.chunks),
                "state": "error" if result.error else "indexed",
                "error": result.error,
            }
        self._write_manifest()
        self._load(table)
        return RefreshReport(
            len(self.files),
            len(scan.results),
            len(scan.unchanged),
            len(scan.deleted),
            sum(1 for r in scan.results if r.error),
        )

    def _arrow(self, chunks):
        import pyarrow as pa

        columns = {
            "ref": [c.ref for c in chunks],
            "file": [c.file for c in chunks],
            "part": [c.part for c in chunks],
            "chunk": [c.index for c in chunks],
            "title": [c.title for c in chunks],
            "text": [c.text for c in chunks],
            "search_text": [c.search_text for c in chunks],
        }
        if self.embedder is not None:
            vectors = self.embedder.encode([embed_text(c.search_text, self.modernize) for c in chunks])
            flat = pa.array(np.asarray(vectors, dtype=np.float32).ravel())
            columns["vector"] = pa.FixedSizeListArray.from_arrays(flat, self.embedder.dim)
        return pa.table(columns, schema=self._schema())

    def _load(self, table) -> None:
        data = table.to_arrow()
        ids = data.column("ref").to_pylist()
        self._texts = dict(zip(ids, data.column("text").to_pylist(), strict=True))
        search = data.column("search_text").to_pylist()
        self.lexical = LexicalIndex(ids, search, stemmer=self.settings.stemmer) if ids else None
        self.index = VectorTable.from_arrow(data, self.embedder.dim, "ref") if self.embedder else VectorTable()

    # -- queries -------------------------------------------------------------------------------
    def text(self, ref: str) -> str | None:
        return self._texts.get(ref)

    def status(self) -> DocumentsStatus:
        # The folder's name only: an absolute path tells a visitor about the server's disk.
        files = tuple(
            DocumentFile(path, info.get("parts"), info.get("chunks"), info.get("state"), info.get("error"))
            for path, info in sorted(self.files.items())
        )
        return DocumentsStatus(self.folder.name if self.folder else None, self.read_only, files, len(self._texts))


def _sql(value: str) -> str:
    return "'" + value.replace("'", "''") + "'"
