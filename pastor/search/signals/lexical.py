"""The lexical signal: BM25 over the verses' words (with the extra translations' wording)."""

from __future__ import annotations

from pastor.search.fusion import Candidates
from pastor.search.signals.query import Query
from pastor.search.signals.signal import Signal, SignalInputs


class LexicalSignal(Signal):
    """BM25 over the question's words plus their biblical synonyms. A place in its list keeps a hit
    past the per-hit gate (the words are there)."""

    name = "lexical"
    label = "BM25"
    vouches = True

    def __init__(self, index, *, weight: float):
        self.index = index  # LexicalIndex or None
        self.weight = weight

    @classmethod
    def build(cls, config, resources: SignalInputs, built: dict[str, Signal]) -> LexicalSignal:
        return cls(resources.lexical, weight=config.lexical_weight)

    def active(self, query: Query) -> bool:
        return query.wants(self.name) and self.index is not None

    def candidates(self, query: Query, n: int) -> Candidates:
        if not self.active(query):
            return self.empty()
        return Candidates(self.name, self.weight, self.index.search(query.words, n))

    def terms(self, text: str) -> set[str]:
        """The content words of a text as BM25 indexes them (stemmed, without stop-words)."""
        return set(self.index.tokens(text)) if self.index is not None else set()

    def doc_terms(self, doc_id: str) -> list[str] | None:
        """The indexed words of a verse or chunk; None when this index does not hold it."""
        if self.index is None or not self.index.has(doc_id):
            return None
        return self.index.doc_tokens(doc_id)

    def over(self, source) -> LexicalSignal:
        return LexicalSignal(getattr(source, "lexical", None), weight=self.weight)
