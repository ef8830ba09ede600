"""What a searchable source offers the retriever: a vector side and a lexical side, for verses and documents."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class VectorSource(Protocol):
    """Ranked ids by cosine to a query vector (the verse index, the documents' vectors)."""

    @property
    def ready(self) -> bool: ...

    def vector_search(self, vector: np.ndarray, n: int) -> list[tuple[str, float]]: ...


class TextSource(Protocol):
    """A source searched beside the Bible (the church's documents): the text shown for each of its ids."""

    def text(self, doc_id: str) -> str | None: ...


@runtime_checkable
class LexicalSource(Protocol):
    """Ranked ids by BM25, plus the tokens the evidence gate compares with the question."""

    def search(self, query: str, n: int) -> list[tuple[str, float]]: ...

    def tokens(self, text: str) -> list[str]: ...

    def has(self, doc_id: str) -> bool: ...

    def doc_tokens(self, doc_id: str) -> list[str]: ...


def top_by_cosine(
    matrix: np.ndarray, ids: Sequence[str], vector: np.ndarray, n: int, copies: int = 1
) -> list[tuple[str, float]]:
    """Best n distinct ids by one matrix product over unit rows; an id may own `copies` rows."""
    if n <= 0 or not len(ids):
        return []
    scores = matrix @ np.asarray(vector, dtype=np.float32)
    take = min(len(scores), n * copies)  # enough rows for n ids even if copies crowd the top
    top = np.argpartition(-scores, take - 1)[:take]
    best: dict[str, float] = {}
    for i in top[np.argsort(-scores[top])]:
        best.setdefault(ids[i], float(scores[i]))
        if len(best) == n:
            break
    return list(best.items())


class VectorTable:
    """Vectors held in memory, one unit row per (id, translation): the search side of a LanceDB table.

    Measured here: LanceDB's flat search over 31k×512 took 37 ms p50 / 44 ms p95, the in-memory
    product 3 ms, so LanceDB stays the store and numpy does the search."""

    def __init__(self, ids: list[str] | None = None, matrix: np.ndarray | None = None):
        self.ids: list[str] = list(ids or [])
        self.matrix = matrix
        self.copies = max(Counter(self.ids).values(), default=1)  # rows per id: 1 + extra translations
        self._rows: dict[str, list[int]] | None = None

    @classmethod
    def from_arrow(cls, data, dim: int, id_column: str = "id") -> VectorTable:
        """From an Arrow table with an id column and a fixed-size `vector` column."""
        ids = data.column(id_column).to_pylist()
        if not ids:
            return cls()
        flat = data.column("vector").combine_chunks().flatten().to_numpy()
        return cls(ids, flat.reshape(-1, dim).astype(np.float32, copy=False))

    @property
    def ready(self) -> bool:
        return self.matrix is not None and len(self.ids) > 0

    def vector_search(self, vector: np.ndarray, n: int) -> list[tuple[str, float]]:
        """Top-n ids by cosine, de-duplicated across copies of an id (best row wins)."""
        if self.matrix is None or not self.ready:
            return []
        return top_by_cosine(self.matrix, self.ids, vector, n, copies=self.copies)

    def scores_for(self, ids: Sequence[str], vector: np.ndarray) -> dict[str, float]:
        """Cosine of the query to each given id (best of its rows); ids without a row are left out."""
        if self.matrix is None or not self.ready:
            return {}
        if self._rows is None:
            by_id: dict[str, list[int]] = {}
            for n, doc_id in enumerate(self.ids):
                by_id.setdefault(doc_id, []).append(n)
            self._rows = by_id
        wanted = [(doc_id, self._rows[doc_id]) for doc_id in ids if doc_id in self._rows]
        if not wanted:
            return {}
        flat = [row for _, rows in wanted for row in rows]
        scores = self.matrix[flat] @ np.asarray(vector, dtype=np.float32)
        out, start = {}, 0
        for doc_id, rows in wanted:
            out[doc_id] = float(scores[start : start + len(rows)].max())
            start += len(rows)
        return out
