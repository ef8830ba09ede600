"""The question as the signals read it: its words (with biblical synonyms) and, once embedded, its vector."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from pastor.search.embedders.embedder import Embedder
from pastor.search.rows import embed_text
from pastor.text.synonyms import expand


@dataclass(frozen=True)
class QueryEncoder:
    """Turns a question into what the signals search with; one per retriever."""

    embedder: Embedder | None = None
    expand_queries: bool = True
    modernize: bool = True

    def words(self, question: str) -> str:
        """The question plus the biblical wording of its modern words (`medo` → `temor`)."""
        return expand(question) if self.expand_queries else question

    def vector(self, question: str) -> np.ndarray:
        """The embedder sees the expanded question too: the verses say `temor`, people write `medo`
        (dev set, issue 12: fused hit@6 0.526 → 0.550 with the topic weight at 1.5)."""
        assert self.embedder is not None, "only a retriever with vectors embeds its questions"
        return self.embedder.encode([embed_text(self.words(question), self.modernize)])[0]


@dataclass
class Query:
    """One search's question: the text, its words for BM25, the parts switched off (evaluation) and the
    vector, embedded at most once and only when a signal needs it."""

    text: str
    words: str
    off: frozenset[str] = frozenset()
    vector: np.ndarray | None = field(default=None, repr=False)

    def wants(self, name: str) -> bool:
        """False when evaluation switched this signal or part off."""
        return name not in self.off
