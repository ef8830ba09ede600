"""In-memory BM25 over normalised, stemmed search tokens (rank-bm25's BM25Okapi)."""

from __future__ import annotations

from collections.abc import Collection, Sequence

import numpy as np
from rank_bm25 import BM25Okapi

from pastor.text.normalize import tokenize
from pastor.text.stemmer import get_stemmer


class _Pretokenized(tuple[str, ...]):
    """Marker for `from_tokens`: documents arrive already tokenized (the start-up cache). A sequence of
    texts by type, so `texts` keeps one type; told apart from every real sequence by identity."""


PRETOKENIZED = _Pretokenized()


class LexicalIndex:
    """BM25 over `texts`, answering with their `ids`; queries go through the same tokenizer."""

    def __init__(
        self,
        ids: Sequence[str],
        texts: Sequence[str],
        *,
        stemmer: str = "rslp",
        k1: float = 1.5,
        b: float = 0.75,
        stopwords: bool | Collection[str] = True,
        tokens: Sequence[list[str]] = (),
    ):
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
        self._postings = self._invert(self._bm25) if self._bm25 is not None else {}

    @classmethod
    def from_tokens(cls, ids: Sequence[str], docs: Sequence[list[str]], **kwargs) -> LexicalIndex:
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
        scores = self._scores(terms)
        positive = int(np.count_nonzero(scores > 0))
        n = min(n, positive)
        if n == 0:
            return []
        # argpartition finds the n best in O(N); only those n are sorted.
        top = np.argpartition(-scores, n - 1)[:n]
        top = top[np.argsort(-scores[top], kind="stable")]
        return [(self.ids[i], float(scores[i])) for i in top]

    def _invert(self, bm25: BM25Okapi) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        """Postings (documents, term frequencies) per term, from rank-bm25's own counts.

        rank-bm25's `get_scores` walks every document in Python for each query term (measured
        12–63 ms per query here); scoring only the documents that contain a term gives the same
        numbers in well under a millisecond."""
        postings: dict[str, tuple[list[int], list[int]]] = {}
        for row, freqs in enumerate(bm25.doc_freqs):
            for term, tf in freqs.items():
                docs, tfs = postings.setdefault(term, ([], []))
                docs.append(row)
                tfs.append(tf)
        self._norm = bm25.k1 * (1 - bm25.b + bm25.b * np.asarray(bm25.doc_len) / bm25.avgdl)
        return {t: (np.asarray(d, dtype=np.int32), np.asarray(f, dtype=np.float64)) for t, (d, f) in postings.items()}

    def _scores(self, terms: list[str]) -> np.ndarray:
        """BM25Okapi scores, identical to `get_scores` (a repeated query term counts again)."""
        bm25 = self._bm25
        assert bm25 is not None, "a corpus without tokens is never scored (`search` returns first)"
        scores = np.zeros(len(self.ids))
        for term in terms:
            if term not in self._postings:
                continue
            docs, tf = self._postings[term]
            scores[docs] += (bm25.idf.get(term) or 0) * (tf * (bm25.k1 + 1) / (tf + self._norm[docs]))
        return scores
