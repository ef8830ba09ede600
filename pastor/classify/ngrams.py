"""Hashed character n-grams of folded text and a binary logistic regression over them, in numpy."""

from __future__ import annotations

import zlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from pastor.text.fold import fold_words

# Short pieces of words survive typos and slang ("me mata", "mematar", "m4tar") where whole words and the
# sentence vector do not; 2^16 buckets keep collisions rare for a few thousand messages.
BUCKETS = 1 << 16
SIZES = (2, 3, 4, 5)


@dataclass(frozen=True)
class SparseRows:
    """Rows of hashed features: row i holds `indices[starts[i]:starts[i+1]]` with those `values`."""

    starts: np.ndarray
    indices: np.ndarray
    values: np.ndarray

    def __len__(self) -> int:
        return len(self.starts) - 1

    def dot(self, weights: np.ndarray) -> np.ndarray:
        """Each row's dot product with `weights` (one per bucket)."""
        products = self.values * weights[self.indices]
        sums = np.add.reduceat(products, self.starts[:-1]) if len(products) else np.zeros(len(self))
        return np.where(np.diff(self.starts) > 0, sums, 0.0)

    def transposed_dot(self, per_row: np.ndarray) -> np.ndarray:
        """Σ_i per_row[i] · row_i, one value per bucket."""
        rows = np.repeat(per_row, np.diff(self.starts))
        return np.bincount(self.indices, weights=self.values * rows, minlength=BUCKETS)


def ngram_counts(text: str) -> Counter:
    """The buckets of the 2- to 5-grams of the folded words, each word padded with a space on both sides."""
    padded = " " + " ".join(fold_words(text).split()) + " "
    return Counter(
        zlib.crc32(padded[i : i + size].encode()) % BUCKETS for size in SIZES for i in range(len(padded) - size + 1)
    )


def ngram_rows(texts: Sequence[str]) -> SparseRows:
    """Sublinear counts (1 + log tf), each row of length 1: a long message weighs no more than a short one."""
    starts: list[int] = [0]
    indices: list[int] = []
    values: list[float] = []
    for text in texts:
        counts = ngram_counts(text)
        weights = 1.0 + np.log(np.array(list(counts.values()), dtype=np.float64))
        indices.extend(counts)
        values.extend(weights / max(float(np.linalg.norm(weights)), 1e-12))
        starts.append(len(indices))
    return SparseRows(
        np.array(starts, dtype=np.int64), np.array(indices, dtype=np.int64), np.array(values, dtype=np.float64)
    )


def fit_binary(rows: SparseRows, positive: np.ndarray, l2: float, iterations: int = 400) -> np.ndarray:
    """Logistic regression weights (one per bucket, then the bias) by Nesterov's accelerated gradient. Rows have
    length 1, so the loss's smoothness is at most (1 + 1) / 4 + l2 and the step 1/that needs no tuning."""
    target = np.asarray(positive, dtype=np.float64)
    if len(target) != len(rows) or target.min() == target.max():
        raise ValueError("o modelo de n-gramas precisa de um rótulo por mensagem e dos dois rótulos")
    step = 1.0 / (0.5 + l2)
    current = previous = np.zeros(BUCKETS + 1)
    for iteration in range(1, iterations + 1):
        look_ahead = current + (iteration - 2) / (iteration + 1) * (current - previous)
        error = (_sigmoid(rows.dot(look_ahead[:-1]) + look_ahead[-1]) - target) / len(target)
        gradient = np.append(rows.transposed_dot(error) + l2 * look_ahead[:-1], error.sum())
        previous, current = current, look_ahead - step * gradient
    return current


def probability(rows: SparseRows, weights: np.ndarray) -> np.ndarray:
    """P(positive) of each row under `weights` from `fit_binary`."""
    return _sigmoid(rows.dot(weights[:-1]) + weights[-1])


def _sigmoid(logits: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-np.clip(logits, -40, 40)))
