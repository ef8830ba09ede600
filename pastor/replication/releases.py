"""Published index releases on the shared store: written whole by the job, fetched by replicas.

A release is the verse table (`verses_<id>`, its vector column is the mirror replicas load), the
files the app reads beside it (manifest, BM25 tokens, topic vectors, query adapter) as rows of the
`files` table, and last one row in `releases`: that append is the swap. Each LanceDB commit is
atomic, and nothing names a release before its row exists, so readers only ever see complete ones;
two jobs that both publish leave two complete releases, the newer one served.

The job publishes only vectors that pass the content check (`index/verse_check.py`), and pruning never
drops the newest release that passes it, so a replica started after a bad release still finds one to
serve (each replica checks what it fetches again before serving it)."""

from __future__ import annotations

import json
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from pastor.index.verse_check import VectorsRefused, content_problem
from pastor.search.sources import VectorTable
from pastor.search.storage import connect, save_array, table_names, write_json

RELEASES = "releases"
FILES = "files"
# What a data directory holds for search besides the verse table (relative paths; absent ones are skipped).
PUBLISHED_FILES = (
    "index/manifest.json",
    "index/tokens.json.gz",
    "topics/manifest.json",
    "topics/vectors.npy",
    "topics/weights.npz",
    "topics/labels.json",
    "adapter/manifest.json",
    "adapter/adapter.npy",
)
KEEP = 3  # releases kept: the newest, and two a replica may still be fetching (plus the newest good one)
# The columns the content check reads from a verse table: ids and vectors, and the texts of its sample.
CHECKED_COLUMNS = ["id", "vector", "search_text"]


@dataclass(frozen=True)
class Release:
    id: str
    published: float
    identity: dict  # what it was built from (corpus, embedder, parameters, topics, adapter)
    manifest: dict  # the verse index manifest (rows, calibration, local table name)

    @property
    def table(self) -> str:
        return f"verses_{self.id}"


def new_release_id() -> str:
    """A release id that sorts by time: `20250101T120000-1a2b3c4d`."""
    return time.strftime("%Y%m%dT%H%M%S") + "-" + uuid.uuid4().hex[:8]


class ReleaseStore:
    """The releases of one shared database (see `objectstore.connect_shared`)."""

    def __init__(self, db, embedder=None):
        self.db = db
        self.embedder = embedder  # re-embeds the content check's sample; without it the sample is skipped

    # -- reading -------------------------------------------------------------------------------
    def releases(self) -> list[Release]:
        if RELEASES not in table_names(self.db):
            return []
        rows = self.db.open_table(RELEASES).to_arrow().to_pylist()
        found = [
            Release(r["release"], r["published"], json.loads(r["identity"]), json.loads(r["manifest"])) for r in rows
        ]
        return sorted(found, key=lambda r: (r.published, r.id))

    def available(self) -> list[Release]:
        """The releases whose verse table is still stored (not pruned), oldest first."""
        present = set(table_names(self.db))
        return [r for r in self.releases() if r.table in present]

    def latest(self) -> Release | None:
        found = self.releases()
        return found[-1] if found else None

    def fetch(self, release: Release, dest: Path) -> Path:
        """Lay `release` out in `dest` as a data directory the engine opens without LanceDB:
        the files, and the vectors as the numpy mirror `VerseIndex.open` reads first."""
        dest = Path(dest)
        files = (
            self.db.open_table(FILES)
            .search()
            .where(f"release = '{release.id}'")
            .select(["name", "data"])
            .limit(None)
            .to_arrow()
        )
        for name, data in zip(files.column("name").to_pylist(), files.column("data").to_pylist(), strict=True):
            if name not in PUBLISHED_FILES:  # only the known files, never a path the store makes up
                continue
            path = dest / name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(data)
        table = self.db.open_table(release.table).to_arrow().select(["id", "vector"])
        dim = table.schema.field("vector").type.list_size
        matrix = table.column("vector").combine_chunks().flatten().to_numpy().reshape(-1, dim)
        name = release.manifest.get("table", "verses")
        save_array(dest / "index" / f"{name}.vectors.npy", np.ascontiguousarray(matrix, dtype=np.float32))
        write_json(dest / "index" / f"{name}.ids.json", table.column("id").to_pylist())
        return dest

    # -- writing -------------------------------------------------------------------------------
    def publish(self, data_dir: Path, identity: dict) -> Release:
        """Publish the complete index of the local `data_dir` as a new release and return it; vectors
        that fail the content check are refused (`VectorsRefused`) and nothing is written."""
        data_dir = Path(data_dir)
        manifest = json.loads((data_dir / "index" / "manifest.json").read_text(encoding="utf-8"))
        if manifest.get("state") != "complete":
            raise ValueError("o índice local não está completo; nada foi publicado")
        local = connect(data_dir / "index").open_table(manifest.get("table", "verses")).to_arrow()
        problem = self.problem(local, manifest)
        if problem is not None:
            raise VectorsRefused(f"os vetores do índice local foram recusados ({problem}); nada foi publicado")
        files = {n: (data_dir / n).read_bytes() for n in PUBLISHED_FILES if (data_dir / n).is_file()}
        release = self.write(new_release_id(), local, files, identity, manifest)
        self.prune(good=release.id)  # checked above, so no need to read it back
        return release

    def write(self, release_id: str, table, files: dict[str, bytes], identity: dict, manifest: dict) -> Release:
        """Store a release as given, unchecked (`publish` checks it first): the verse table, the files,
        then its row in `releases`, the swap."""
        import pyarrow as pa

        release = Release(release_id, 0.0, identity, manifest)
        self.db.create_table(release.table, data=table, mode="create")
        rows = pa.table(
            {
                "release": [release.id] * len(files),
                "name": list(files),
                "data": pa.array(list(files.values()), pa.large_binary()),
            }
        )
        self._append(FILES, rows)
        release = Release(release.id, time.time(), identity, manifest)
        self._append(
            RELEASES,
            pa.table(
                {
                    "release": [release.id],
                    "published": [release.published],
                    "identity": [json.dumps(identity, sort_keys=True)],
                    "manifest": [json.dumps(manifest, sort_keys=True)],
                }
            ),
        )
        return release

    def _append(self, name: str, rows) -> None:
        """Add rows to `name`, creating it on first use (two first publishers: one creates, the other adds)."""
        if name not in table_names(self.db):
            try:
                self.db.create_table(name, data=rows, mode="create")
                return
            except Exception:  # created by another publisher meanwhile
                pass
        self.db.open_table(name).add(rows)

    def problem(self, table, manifest: dict) -> str | None:
        """Why a verse table (Arrow, `CHECKED_COLUMNS`) must not be served as `manifest`'s, or None."""
        dim = table.schema.field("vector").type.list_size
        vectors = VectorTable.from_arrow(table.select(["id", "vector"]), dim)
        texts = table.column("search_text")

        def texts_at(positions: list[int]) -> list[tuple[str, str]]:
            return [(vectors.ids[p], texts[p].as_py()) for p in positions]

        expected_dim = (manifest.get("embedder") or {}).get("dim", dim)
        return content_problem(
            vectors.matrix, vectors.ids, manifest, dim=expected_dim, embedder=self.embedder, texts_at=texts_at
        )

    def release_problem(self, release: Release) -> str | None:
        """Why a stored release fails the content check, or None (it reads the release's whole table)."""
        table = self.db.open_table(release.table).to_arrow().select(CHECKED_COLUMNS)
        return self.problem(table, release.manifest)

    def newest_good(self, releases: list[Release]) -> Release | None:
        """The newest of `releases` (oldest first) that passes the content check: checked newest
        first, so usually only the newest is read."""
        for release in reversed(releases):
            if self.release_problem(release) is None:
                return release
        return None

    def prune(self, keep: int = KEEP, good: str | None = None) -> list[str]:
        """Drop the tables and files of all but the newest `keep` releases and the newest one that
        passes the content check (`good`, when the caller has just checked it); their rows stay as
        history. Without a good one among the newest, older tables are read until one is found."""
        releases = self.available()
        # Only published releases: a table without its row is another job's publish in progress.
        old = {r.id for r in releases[:-keep]} if len(releases) > keep else set()
        if old:
            kept = good or getattr(self.newest_good(releases), "id", None)
            old.discard(kept or "")
        gone = []
        for name in table_names(self.db):
            if name.startswith("verses_") and name.removeprefix("verses_") in old:
                self.db.drop_table(name)
                gone.append(name.removeprefix("verses_"))
        if gone:
            listed = ", ".join(f"'{r}'" for r in gone)
            self.db.open_table(FILES).delete(f"release IN ({listed})")
        return gone
