"""The content check of verse vectors (pastor/index/verse_check.py): where to put its cosine bar, and its cost.

    python -m bench.bench_vector_check [--model use-multilingual] [--batch 256] [--repeat 5]

For each sampled row of the default corpus and extra translation (no index is built): its vector as
the build makes it (embedded inside its own build batch of `--batch` rows) against its re-embedding
alone in the sample, as the check does; the nearest other verse of the batch (what a shifted or
shuffled table would give), random unit rows and zero rows. Then the time of the whole check on a
matrix of the full index's shape."""

from __future__ import annotations

import argparse
import statistics
import time

import numpy as np

from pastor.bible.usfx import load_bible
from pastor.config import Settings
from pastor.index.verse_check import (
    DIGEST_KEY,
    MIN_COSINE,
    content_problem,
    norm_problem,
    sample_positions,
    vectors_digest,
)
from pastor.search.embedders import load_embedder
from pastor.search.rows import row_texts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", default="use-multilingual")
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    settings = Settings.from_env({})
    bible = load_bible(settings.corpus)
    extras = [b for b in map(load_bible, settings.extra_corpora) if b.sha256 != bible.sha256]
    total = sum(1 for t in (bible, *extras) for v in t.verses if v.id in bible.by_id)
    embedder = load_embedder(args.model)
    texts_at = lambda positions: row_texts(bible, extras, positions, settings.embed_window, settings.modernize)  # noqa: E731
    positions = sample_positions(total)
    built, nearest = as_built(embedder, texts_at, positions, args.batch)
    fresh = embedder.encode([text for _, text in texts_at(positions)])
    same = (built * fresh).sum(axis=1)
    noise = np.random.default_rng(0).standard_normal((len(positions), embedder.dim)).astype(np.float32)
    noise /= np.linalg.norm(noise, axis=1, keepdims=True)
    print(f"{args.model}: {total} rows, {len(positions)} sampled, bar {MIN_COSINE}")
    print(f"  re-embedded alone vs as built: min {same.min():.6f} (1 - min = {1 - same.min():.1e})")
    print(f"  nearest other verse of its batch: max {nearest.max():.4f}  median {np.median(nearest):.4f}")
    print(f"  random unit rows: max {(noise * fresh).sum(axis=1).max():.4f}; zero rows: 0")
    timing(embedder, texts_at, positions, built, total, args.repeat)


def as_built(embedder, texts_at, positions: list[int], batch: int) -> tuple[np.ndarray, np.ndarray]:
    """Each sampled row embedded within its build batch, and the best cosine of any other row of that batch."""
    rows, nearest = [], []
    for position in positions:
        start = position - position % batch
        texts = texts_at(list(range(start, start + batch)))
        vectors = embedder.encode([text for _, text in texts], batch_size=batch)
        row = vectors[position - start]
        others = np.delete(vectors, position - start, axis=0) @ row
        rows.append(row)
        nearest.append(float(others.max()))
    return np.array(rows), np.array(nearest)


def timing(embedder, texts_at, positions, built, total: int, repeat: int) -> None:
    """The check on a unit matrix of the full index's shape whose sampled rows are the real ones."""
    matrix = np.random.default_rng(1).standard_normal((total, embedder.dim)).astype(np.float32)
    matrix /= np.linalg.norm(matrix, axis=1, keepdims=True)
    matrix[positions] = built
    ids = [""] * total
    for position, (verse_id, _) in zip(positions, texts_at(positions), strict=True):
        ids[position] = verse_id
    manifest = {"total": total, DIGEST_KEY: vectors_digest(matrix)}
    parts = {
        "digest": lambda: vectors_digest(matrix),
        "norms": lambda: norm_problem(matrix),
        "sample (texts + embedding)": lambda: embedder.encode([t for _, t in texts_at(positions)]),
        "whole check": lambda: content_problem(
            matrix, ids, manifest, dim=embedder.dim, embedder=embedder, texts_at=texts_at
        ),
    }
    for name, run in parts.items():
        seconds = []
        for _ in range(repeat):
            started = time.perf_counter()
            result = run()
            seconds.append(time.perf_counter() - started)
        assert name != "whole check" or result is None, result
        print(f"  {name}: median {statistics.median(seconds) * 1000:.0f} ms, max {max(seconds) * 1000:.0f} ms")


if __name__ == "__main__":
    main()
