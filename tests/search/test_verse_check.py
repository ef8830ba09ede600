"""The content check of verse vectors (issue 32): zeros, noise, truncation, NaN and a wrong digest are refused."""

from __future__ import annotations

import numpy as np
import pytest

from pastor.index.verse_check import (
    DIGEST_KEY,
    MIN_COSINE,
    SAMPLE_SIZE,
    content_problem,
    norm_problem,
    sample_positions,
    vectors_digest,
)
from pastor.search.rows import build_rows
from tests.support.core_fixtures import MINI_VERSES, HashEmbedder


@pytest.fixture(scope="module")
def built(mini_bible):
    """The mini corpus as the build embeds it: ids, texts, the good matrix and its manifest."""
    rows = build_rows(mini_bible)
    matrix = HashEmbedder().encode([r.search_text for r in rows])
    return rows, matrix


def unit_noise(shape, seed: int = 3) -> np.ndarray:
    noise = np.random.default_rng(seed).standard_normal(shape).astype(np.float32)
    return noise / np.linalg.norm(noise, axis=1, keepdims=True)


def signed(matrix: np.ndarray) -> dict:
    """A manifest whose digest was taken over `matrix`, as a (broken) builder would write it."""
    return {"total": MINI_VERSES, DIGEST_KEY: vectors_digest(matrix)}


def test_every_kind_of_bad_vectors_is_refused_with_its_reason_and_good_ones_pass(built):
    rows, good = built
    ids = [r.id for r in rows]
    zero = np.zeros_like(good)
    noise = unit_noise(good.shape)
    nan, inf, swapped, doubled = good.copy(), good.copy(), good.copy(), good.copy()
    nan[3, 0] = np.nan
    inf[7, 5] = np.inf
    swapped[[2, 9]] = swapped[[9, 2]]  # still unit rows, other bytes than the builder's
    doubled[4] *= 2
    shuffled = good[::-1].copy()
    cases = {
        # name: (matrix, ids, manifest, the reason's words, or None when it must pass)
        "good": (good, ids, signed(good), None),
        "good, built before digests existed": (good, ids, {"total": MINI_VERSES}, None),
        "zero, digest of the zeros": (zero, ids, signed(zero), "vetores zerados"),
        "zero, the builder's digest": (zero, ids, signed(good), "vetores zerados"),
        "noise, digest of the noise": (noise, ids, signed(noise), "não reproduzem o modelo de embeddings"),
        "noise, the builder's digest": (noise, ids, signed(good), "resumo SHA-256"),
        "rows shuffled, digest of them": (shuffled, ids, signed(shuffled), "não reproduzem o modelo de embeddings"),
        "truncated": (good[:20], ids[:20], signed(good), "truncados: 20 linhas, esperadas 25"),
        "NaN": (nan, ids, signed(nan), "1 de 25 vetores com NaN ou infinito"),
        "infinite": (inf, ids, signed(inf), "NaN ou infinito"),
        "wrong digest": (swapped, ids, signed(good), "não confere com o resumo SHA-256"),
        "not unit length": (doubled, ids, signed(doubled), "fora da norma 1"),
        "another dimension": (good[:, :32], ids, signed(good), "dimensão 64"),
        "ids out of order": (good, ids[::-1], signed(good), "ordem dos versículos"),
        "fewer ids than vectors": (good, ids[:-1], signed(good), "24 ids para 25 vetores"),
    }
    texts = {i: (r.id, r.search_text) for i, r in enumerate(rows)}
    wrong = []
    for name, (matrix, row_ids, manifest, expected) in cases.items():
        embedder = HashEmbedder()
        got = content_problem(
            matrix,
            row_ids,
            manifest,
            dim=64,
            embedder=embedder,
            texts_at=lambda positions: [texts[p] for p in positions],
        )
        if (expected is None and got is not None) or (expected is not None and (got is None or expected not in got)):
            wrong.append((name, expected, got))
    assert wrong == []


def test_the_sample_reason_names_the_worst_verse_and_the_bar(built):
    rows, good = built
    noise = unit_noise(good.shape)
    reason = content_problem(
        noise,
        [r.id for r in rows],
        signed(noise),
        dim=64,
        embedder=HashEmbedder(),
        texts_at=lambda positions: [(rows[p].id, rows[p].search_text) for p in positions],
    )
    assert f"{MINI_VERSES} de {MINI_VERSES} versículos da amostra" in reason and str(MIN_COSINE) in reason
    assert any(f"o menor, {r.id}:" in reason for r in rows)


def test_the_sample_is_tens_of_fixed_rows_spread_to_the_last_one():
    assert sample_positions(10) == list(range(10))
    spread = sample_positions(62_201)
    assert len(spread) == SAMPLE_SIZE and spread[0] == 0 and spread[-1] == 62_200
    assert spread == sample_positions(62_201)  # the same verses at every start
    assert max(np.diff(spread)) <= 62_201 // (SAMPLE_SIZE - 1) + 1  # every part of the table, extras included


def test_only_the_sample_is_embedded_however_large_the_table():
    total = 5_000
    texts = [f"versiculo numero {i} palavra{i}" for i in range(total)]
    embedder = HashEmbedder()
    matrix = embedder.encode(texts)
    embedder.reset()
    assert (
        content_problem(
            matrix,
            [str(i) for i in range(total)],
            {"total": total},
            dim=64,
            embedder=embedder,
            texts_at=lambda positions: [(str(p), texts[p]) for p in positions],
        )
        is None
    )
    assert embedder.calls == 1 and len(embedder.texts) == SAMPLE_SIZE


def test_a_few_zero_rows_are_tolerated_as_texts_without_words():
    """`unit_rows` leaves a text without words at zero: 1 in 1,000 rows passes, more does not."""
    matrix = unit_noise((2_000, 16))
    matrix[:2] = 0
    assert norm_problem(matrix) is None
    matrix[2] = 0
    assert norm_problem(matrix) == "3 de 2000 vetores zerados"


def test_the_digest_is_of_the_float32_bytes_in_row_order(built):
    _, good = built
    assert vectors_digest(good) == vectors_digest(good.astype(np.float64))  # stored as float32 either way
    assert vectors_digest(good) != vectors_digest(good[::-1])
    assert vectors_digest(np.asfortranarray(good)) == vectors_digest(good)
