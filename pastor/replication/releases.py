"""Published index releases on the shared store: written whole by the job, fetched by replicas.

A release is the verse table (`verses_<id>`, its vector column is the mirror replicas load), the
files the app reads beside it (manifest, BM25 tokens, topic vectors, query adapter) as rows of the
`files` table, and last one row in `releases`: that append is the swap. Each LanceDB commit is
atomic, and nothing names a release before its row exists, so readers only ever see complete ones;
two jobs that both publish leave two complete releases, the newer one served."""

from __future__ import annotations

import json
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

import numpy as np

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
KEEP = 3  # releases kept: the newest, and two a replica may still be fetching


@dataclass(frozen=True)
class Release:
    id: str
    published: float
    identity: dict  # what it was built from (corpus, embedder, parameters, topics, adapter)
    manifest: dict  # the verse index manifest (rows, calibration, local table name)

    @property
    def table(self) -> str:
        return f"verses_{self.id}"


class ReleaseStore:
    """The releases of one shared database (see `objectstore.connect_shared`)."""

    def __init__(self, db):
        self.db = db

    # -- reading -------------------------------------------------------------------------------
    def releases(self) -> list[Release]:
        if RELEASES not in table_names(self.db):
            return []
        rows = self.db.open_table(RELEASES).to_arrow().to_pylist()
        found = [
            Release(r["release"], r["published"], json.loads(r["identity"]), json.loads(r["manifest"])) for r in rows
        ]
        return sorted(found, key=lambda r: (r.published, r.id))

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
        """Publish the complete index of the local `data_dir` as a new release and return it."""
        import pyarrow as pa

        data_dir = Path(data_dir)
        manifest = json.loads((data_dir / "index" / "manifest.json").read_text(encoding="utf-8"))
        if manifest.get("state") != "complete":
            raise ValueError("o índice local não está completo; nada foi publicado")
        release = Release(time.strftime("%Y%m%dT%H%M%S") + "-" + uuid.uuid4().hex[:8], 0.0, identity, manifest)
        local = connect(data_dir / "index").open_table(manifest.get("table", "verses")).to_arrow()
        self.db.create_table(release.table, data=local, mode="create")
        names = [n for n in PUBLISHED_FILES if (data_dir / n).is_file()]
        files = pa.table(
            {
                "release": [release.id] * len(names),
                "name": names,
                "data": pa.array([(data_dir / n).read_bytes() for n in names], pa.large_binary()),
            }
        )
        self._append(FILES, files)
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
        self.prune()
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

    def prune(self, keep: int = KEEP) -> list[str]:
        """Drop the tables and files of all but the newest `keep` releases; their rows stay as history."""
        releases = self.releases()
        # Only published releases: a table without its row is another job's publish in progress.
        old = {r.id for r in releases[:-keep]} if len(releases) > keep else set()
        gone = []
        for name in table_names(self.db):
            if name.startswith("verses_") and name.removeprefix("verses_") in old:
                self.db.drop_table(name)
                gone.append(name.removeprefix("verses_"))
        if gone:
            listed = ", ".join(f"'{r}'" for r in gone)
            self.db.open_table(FILES).delete(f"release IN ({listed})")
        return gone
