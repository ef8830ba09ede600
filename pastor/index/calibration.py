"""The calibration of a verse table: the cosine band of unrelated verse pairs, which the gates read."""

from __future__ import annotations

import numpy as np

from pastor.search.sources import VectorTable


def calibrate(vectors: VectorTable, pairs: int = 4000, seed: int = 7) -> dict[str, float]:
    """Cosine distribution of random unrelated verse pairs (different books) of `vectors`."""
    rng = np.random.default_rng(seed)
    ids, matrix = vectors.ids, vectors.matrix
    n = len(ids)
    a, b = rng.integers(0, n, pairs), rng.integers(0, n, pairs)
    keep = np.array([ids[i].split()[0] != ids[j].split()[0] for i, j in zip(a, b, strict=True)])
    if not keep.any():  # a one-book corpus: pairs of different verses are the best stand-in
        keep = np.array([ids[i] != ids[j] for i, j in zip(a, b, strict=True)])
    if not keep.any():  # a single verse: no band at all, so the vector gates never pass
        return {"pairs": 0, "mean": 0.0, "std": 0.0, "p50": 0.0, "p95": 0.0, "p99": 0.0}
    assert matrix is not None  # a table with ids has its matrix (`VectorTable.ready`)
    sims = np.einsum("ij,ij->i", matrix[a[keep]], matrix[b[keep]])
    return {
        "pairs": int(keep.sum()),
        "mean": float(sims.mean()),
        "std": float(sims.std()),
        "p50": float(np.percentile(sims, 50)),
        "p95": float(np.percentile(sims, 95)),
        "p99": float(np.percentile(sims, 99)),
    }
