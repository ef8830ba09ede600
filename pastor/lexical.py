"""In-memory BM25 over normalised, stemmed search tokens (rank-bm25's BM25Okapi)."""

from __future__ import annotations

from collections.abc import Collection, Sequence

import numpy as np
from rank_bm25 import BM25Okapi

from .normalize import tokenize
from .stemmer import get_stemmer


# Marker for `from_tokens`: documents arrive already tokenized (the start-up cache).
PRETOKENIZED = object()


class LexicalIndex:
    """BM25 over `texts`, answering with their `ids`; queries go through the same tokenizer."""

    def __init__(self, ids: Sequence[str], texts: Sequence[str], *, stemmer: str = "rslp",
                 k1: float = 1.5, b: float = 0.75, stopwords: bool | Collection[str] = True,
                 tokens: Sequence[list[str]] = ()):
        if texts is not PRETOKENIZED and len(ids) != len(texts):
            raise ValueError(f"{len(ids)} ids para {len(texts)} textos")
        self.ids = list(ids)
        self._stemmer = get_stemmer(stemmer)
        self._stopwords = stopwords
        self._docs = [self.tokens(t) for t in texts] if texts is not PRETOKENIZED else list(tokens)
        self._row = {doc_id: i for i, doc_id in enumerate(self.ids)}
        # BM25Okapi divides by the mean document length: an empty or token-less corpus has none.
        has_tokens = any(self._docs)
        self._bm25 = BM25Okapi(self._docs, k1=k1, b=b) if has_tokens else None

    @classmethod
    def from_tokens(cls, ids: Sequence[str], docs: Sequence[list[str]], **kwargs) -> "LexicalIndex":
        """Build from documents tokenized earlier (tokenizing the Bible is the slow part)."""
        if len(ids) != len(docs):
            raise ValueError(f"{len(ids)} ids para {len(docs)} documentos")
        return cls(ids, PRETOKENIZED, tokens=docs, **kwargs)

    @property
    def docs(self) -> list[list[str]]:
        return self._docs

    def __len__(self) -> int:
        return len(self.ids)

    def tokens(self, text: str) -> list[str]:
        """The search tokens of a query or document (normalised, no stop-words, stemmed)."""
        return tokenize(text, self._stemmer, self._stopwords)

    def has(self, doc_id: str) -> bool:
        return doc_id in self._row

    def doc_tokens(self, doc_id: str) -> list[str]:
        return self._docs[self._row[doc_id]]

    def search(self, query: str, n: int) -> list[tuple[str, float]]:
        """Up to `n` (id, score) pairs with a positive score, best first."""
        terms = self.tokens(query)
        if not terms or n <= 0 or self._bm25 is None:
            return []
        scores = self._bm25.get_scores(terms)
        positive = int(np.count_nonzero(scores > 0))
        n = min(n, positive)
        if n == 0:
            return []
        # argpartition finds the n best in O(N); only those n are sorted.
        top = np.argpartition(-scores, n - 1)[:n]
        top = top[np.argsort(-scores[top], kind="stable")]
        return [(self.ids[i], float(scores[i])) for i in top]
