"""The content check of verse vectors: served only when they are what the embedder wrote.

A table of the right shape can still hold zeros, NaN or noise (a broken build, a damaged copy, a bad
release), and search would then fall back to keywords without a word. Before a local vector file or a
published release is served, three checks run, cheapest first:

1. the shape and the norms: every row finite and of length 1, as every `Embedder` returns them;
2. the digest: the SHA-256 of the vector bytes the builder wrote into the manifest (`DIGEST_KEY`);
3. a fixed sample of `SAMPLE_SIZE` rows re-embedded with the loaded embedder must give the same vectors
   (cosine ≥ `MIN_COSINE`): this catches what passes the first two, e.g. unit-length noise whose
   digest was taken after it was written.

Measured (`python -m bench.bench_vector_check`, USE multilingual, the full index's shape 62,201×512):
the whole check costs about 0.4 s, most of it the sample's embedding and the digest."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence

import numpy as np

from pastor.errors import PastorError

DIGEST_KEY = "vectors_sha256"
SAMPLE_SIZE = 32
# The sample's cosine to its re-embedding was 1.0000000 (within 1.2e-7) for USE and all-MiniLM-L6-v2, whatever
# the batch; the nearest other verse of a sampled row's build batch reached 0.89 (USE) and 0.87 (MiniLM), random
# unit rows 0.09 (`bench/bench_vector_check.py`; docs/deployment.md, "Vetores verificados"). 0.98 sits above any
# other verse and leaves room for the float rounding of another BLAS or CPU.
MIN_COSINE = 0.98
# Rows of length 1 within float32 rounding; a row this far off was not written by `unit_rows`.
NORM_TOLERANCE = 1e-3
# An all-zero row is what `unit_rows` returns for a text without words: a handful are tolerated.
ZERO_ROW_SHARE = 0.001

# The texts of the rows at some positions, as (id, text embedded): the corpus or the table's own column.
TextsAt = Callable[[list[int]], list[tuple[str, str]]]


class VectorsRefused(PastorError):
    """Vectors that must not be served; the message, in Portuguese, says why."""


def vectors_digest(matrix: np.ndarray | None) -> str:
    """The SHA-256 of the float32 bytes of `matrix`, row after row (0.15 s for 62k×512 here)."""
    data = np.ascontiguousarray(np.zeros((0, 0)) if matrix is None else matrix, dtype=np.float32)
    return hashlib.sha256(data.data).hexdigest()


def sample_positions(rows: int, size: int = SAMPLE_SIZE) -> list[int]:
    """`size` row positions spread evenly from the first row to the last (every row when fewer):
    fixed, so a restart checks the same verses, and spread, so extra translations are sampled too."""
    if rows <= size:
        return list(range(rows))
    return sorted({int(round(p)) for p in np.linspace(0, rows - 1, size)})


def shape_problem(matrix: np.ndarray, total: int | None, dim: int) -> str | None:
    if matrix.ndim != 2 or matrix.shape[1] != dim:
        return f"vetores com formato {tuple(matrix.shape)}, esperada a dimensão {dim} do modelo de embeddings"
    if total is not None and matrix.shape[0] != total:
        return f"vetores truncados: {matrix.shape[0]} linhas, esperadas {total}"
    return None


def norm_problem(matrix: np.ndarray) -> str | None:
    """Rows that `unit_rows` cannot have written: NaN or infinite (none tolerated: one poisons every
    cosine ranking it enters), or neither length 1 nor zero, or zero beyond a tiny share."""
    rows = len(matrix)
    broken = int((~np.isfinite(matrix).all(axis=1)).sum())
    if broken:
        return f"{broken} de {rows} vetores com NaN ou infinito"
    norms = np.sqrt(np.einsum("ij,ij->i", matrix, matrix, dtype=np.float64))
    zero = int((norms < NORM_TOLERANCE).sum())
    off = int(((norms >= NORM_TOLERANCE) & (np.abs(norms - 1.0) > NORM_TOLERANCE)).sum())
    if off:
        return f"{off} de {rows} vetores fora da norma 1 que o modelo de embeddings produz"
    if zero > int(rows * ZERO_ROW_SHARE):
        return f"{zero} de {rows} vetores zerados"
    return None


def digest_problem(matrix: np.ndarray, manifest: dict) -> str | None:
    """A manifest without a digest (built before it existed) passes: the other checks still apply."""
    expected = manifest.get(DIGEST_KEY)
    if expected and vectors_digest(matrix) != expected:
        return "o conteúdo dos vetores não confere com o resumo SHA-256 gravado na indexação"
    return None


def sample_problem(matrix: np.ndarray, ids: Sequence[str], texts_at: TextsAt, embedder) -> str | None:
    """Re-embed the sampled rows' texts and compare them with the stored rows."""
    positions = sample_positions(len(matrix))
    texts = texts_at(positions)
    if len(texts) != len(positions) or any(ids[p] != text_id for p, (text_id, _) in zip(positions, texts, strict=True)):
        return "os vetores não seguem a ordem dos versículos do corpus"
    fresh = embedder.encode([text for _, text in texts])
    stored = np.asarray(matrix[positions], dtype=np.float32)
    cosines = _cosines(stored, fresh)
    low = [i for i, c in enumerate(cosines) if c < MIN_COSINE]
    if not low:
        return None
    worst = int(np.argmin(cosines))
    return (
        f"os vetores não reproduzem o modelo de embeddings: {len(low)} de {len(positions)} versículos da amostra "
        f"com cosseno abaixo de {MIN_COSINE} (o menor, {texts[worst][0]}: {cosines[worst]:.2f})"
    )


def _cosines(stored: np.ndarray, fresh: np.ndarray) -> list[float]:
    """Row-wise cosine; two zero rows (a text without words, both times) agree."""
    out = []
    for a, b in zip(stored.astype(np.float64), np.asarray(fresh, dtype=np.float64), strict=True):
        na, nb = float(np.linalg.norm(a)), float(np.linalg.norm(b))
        out.append(1.0 if na == nb == 0 else float(a @ b) / (na * nb) if na and nb else 0.0)
    return out


def content_problem(
    matrix: np.ndarray | None,
    ids: Sequence[str],
    manifest: dict,
    *,
    dim: int,
    embedder=None,
    texts_at: TextsAt | None = None,
) -> str | None:
    """Why these vectors must not be served, or None. `manifest` gives the row count and the digest;
    without an embedder or `texts_at` (no texts at hand) the sample is skipped."""
    matrix = np.zeros((0, dim), np.float32) if matrix is None else np.asarray(matrix)
    problem = shape_problem(matrix, manifest.get("total"), dim)
    if problem is None and len(ids) != len(matrix):
        problem = f"{len(ids)} ids para {len(matrix)} vetores"
    problem = problem or norm_problem(matrix) or digest_problem(matrix, manifest)
    if problem is None and embedder is not None and texts_at is not None:
        problem = sample_problem(matrix, ids, texts_at, embedder)
    return problem
