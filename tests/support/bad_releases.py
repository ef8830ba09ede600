"""Releases written around the job's content check, as a broken builder or a damaged copy would leave them."""

from __future__ import annotations

import json

import numpy as np

from pastor.index.verse_check import DIGEST_KEY, vectors_digest
from pastor.replication.releases import FILES, Release, ReleaseStore, new_release_id

KINDS = ("zero", "noise", "truncated")
# The words of each kind's refusal reason.
REASONS = {"zero": "vetores zerados", "noise": "não reproduzem o modelo", "truncated": "truncados: 20 linhas"}


def bad_release(store: ReleaseStore, good: Release, kind: str) -> Release:
    """A copy of `good` with zeros or unit noise and the digest of what was written (so the norms and the
    sample must catch them), or its first 20 rows under the good manifest."""
    import pyarrow as pa

    table = store.db.open_table(good.table).to_arrow()
    vectors = np.stack(table.column("vector").to_pylist()).astype(np.float32)
    manifest = dict(good.manifest)
    if kind == "truncated":
        table = table.slice(0, 20)
    else:
        noise = np.random.default_rng(11).standard_normal(vectors.shape).astype(np.float32)
        bad = np.zeros_like(vectors) if kind == "zero" else noise / np.linalg.norm(noise, axis=1, keepdims=True)
        column = pa.FixedSizeListArray.from_arrays(pa.array(bad.ravel()), vectors.shape[1])
        table = table.set_column(table.schema.get_field_index("vector"), "vector", column)
        manifest[DIGEST_KEY] = vectors_digest(bad)
    files = store.db.open_table(FILES).search().where(f"release = '{good.id}'").limit(None).to_arrow()
    written = dict(zip(files.column("name").to_pylist(), files.column("data").to_pylist(), strict=True))
    written["index/manifest.json"] = json.dumps(manifest).encode()
    return store.write(new_release_id(), table, written, good.identity, manifest)
