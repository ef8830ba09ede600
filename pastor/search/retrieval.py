"""Hybrid retrieval: explicit references first, then vectors + BM25 fused by RRF, then gates."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import numpy as np

from pastor.search.modes import Mode
from pastor.bible.lookup import lookup
from pastor.search.diversity import spread_chapters, wants_passage
from pastor.search.fusion import Hit, fuse
from pastor.search.gates import Calibration, Evidence, Gate
from pastor.search.topic_index import rerank_by_cosine
from pastor.text.synonyms import expand
from pastor.text.pastoral_vocabulary import is_pastoral

# An explicit passage can be long (Salmos 119 has 176 verses); the prompt gets at most this many
# verses, from at most this many distinct references, however many the question lists.
MAX_REFERENCE_VERSES = 40
MAX_REFERENCES = 10
# With `source="all"`, up to this many church-document chunks join the k verses.
DOC_SLOTS = 3
# The reason given when a message is conversation, answered without sources.
CONVERSATION_REASON = "conversa: saudação, agradecimento ou pergunta sobre o assistente"
# Topical candidates re-ranked by cosine before fusion: a deep list, as topics recall well (dev set:
# a gold verse in the top 100 for 66% of questions, in the top 30 for 51%).
TOPIC_DEPTH = 100


@dataclass
class SearchResult:
    mode: str
    reason: str
    results: list[Hit]
    references: list[str] = field(default_factory=list)  # canonical forms found in the question
    not_found: list[dict] = field(default_factory=list)
    note: str = ""  # Portuguese, when explicit references were left out (see `bible.lookup`)

    def as_dict(self) -> dict:
        return {"mode": self.mode, "reason": self.reason,
                "results": [h.as_dict() for h in self.results],
                "references": self.references, "not_found": self.not_found, "note": self.note}


class Retriever:
    """Searches one Bible (plus optional document sources) through a vector index and BM25."""

    def __init__(self, bible, *, embedder, index, lexical, prominence=None, prominence_weight: float = 0.0,
                 gate: Gate | None = None, rrf_k: int = 60, candidates: int = 30, lexical_weight: float = 1.0,
                 smalltalk: Callable[[str], bool] | None = None, extra_sources=(),
                 expand_queries: bool = True, modernize: bool = True, topics=None, topic_weight: float = 0.0,
                 per_chapter: int = 0, adapter=None, adapter_weight: float = 2.0):
        self.bible = bible
        self.embedder = embedder
        self.index = index
        self.lexical = lexical
        self.prominence = prominence
        self.prominence_weight = prominence_weight
        self.gate = gate or Gate()
        self.rrf_k = rrf_k
        self.lexical_weight = lexical_weight
        self.candidates = candidates
        self.smalltalk = smalltalk
        self.expand_queries = expand_queries
        self.modernize = modernize
        self.extra_sources = tuple(extra_sources)  # e.g. church documents, same search interface
        self.topics = topics  # TopicIndex: Nave's and Torrey's topics (a third ranked list)
        self.topic_weight = topic_weight
        self.per_chapter = per_chapter  # at most this many of the k sources from one chapter (0 = off)
        self.adapter = adapter  # QueryAdapter: the question moved toward the verses pastors open (Bible only)
        self.adapter_weight = adapter_weight  # the vector list's weight while the adapter is on

    @property
    def calibration(self) -> Calibration | None:
        data = self.index.calibration if self.index else None
        return Calibration(data["mean"], data["std"]) if data else None

    @property
    def vectors_ready(self) -> bool:
        return bool(self.index is not None and self.index.ready)

    def search(self, question: str, k: int = 6, *, source: str = "all", use_vectors: bool = True,
               use_lexical: bool = True, use_topics: bool = True, diversify: bool = True, gated: bool = True,
               use_adapter: bool = True) -> SearchResult:
        """Search; the `use_*` flags, `diversify` and `gated=False` exist so evaluation can isolate
        each signal and measure ranking apart from the gates."""
        question = question.strip()
        found = lookup(question, self.bible, max_references=MAX_REFERENCES, max_verses=MAX_REFERENCE_VERSES)
        explicit = self._reference_hits(found)
        if explicit:
            return SearchResult(Mode.REFERENCE, f"referência explícita: {', '.join(r['reference'] for r in found['references'])}",
                                explicit, [r["reference"] for r in found["references"]], found["not_found"],
                                found.get("note", ""))
        if found["not_found"]:
            return SearchResult(Mode.NO_EVIDENCE, found["not_found"][0]["reason"], [], [], found["not_found"])
        if self.smalltalk and self.smalltalk(question):
            return SearchResult(Mode.CONVERSATIONAL, CONVERSATION_REASON, [])
        flags = {"vector": use_vectors, "lexical": use_lexical, "topic": use_topics, "diversify": diversify,
                 "adapter": use_adapter}
        return self._hybrid(question, k, source, flags, gated)

    # -- explicit references ---------------------------------------------------------------------
    def _reference_hits(self, found: dict) -> list[Hit]:
        hits = []
        for ref in found["references"]:
            for verse in ref["verses"]:  # already capped in total by the lookup
                hits.append(Hit(verse["id"], verse["reference"], verse["text"], 1.0))
        return hits

    # -- hybrid search -------------------------------------------------------------------------
    def _hybrid(self, question: str, k: int, source: str, flags: dict, gated: bool) -> SearchResult:
        wanted = (flags["vector"] and self.vectors_ready) or (flags["topic"] and self._topics_on)
        query_vector = self.query_vector(question) if wanted and self.embedder is not None else None
        # Each source is fused on its own: BM25 scores and ranks of verses and of the church's
        # documents are not comparable, and documents must not crowd Scripture out (or vice versa).
        all_vector, all_lexical, per_source = [], [], []
        if source in ("all", "bible"):
            adapted = self._adapted(query_vector, flags)
            lists = self._lists(self.index, self.lexical, question, query_vector, flags, adapted)
            lists["topic"] = self._topic_list(question, query_vector) if flags["topic"] else []
            fused = fuse(lists, weights=self._weights(adapted is not None), k=self.rrf_k, prior=self._prior())
            per_source.append((fused, k, flags["diversify"] and not wants_passage(question)))
            # The gates were calibrated on the plain question's cosines: they keep seeing those.
            all_vector += self._plain_best(query_vector) if adapted is not None else lists["vector"]
            all_lexical.append(lists["lexical"])
        if source in ("all", "docs"):
            slots = k if source == "docs" else DOC_SLOTS
            for extra in self.extra_sources:
                lists = self._lists(extra.index, extra.lexical, question, query_vector, flags)
                per_source.append((fuse(lists, weights=self._weights(), k=self.rrf_k), slots, False))
                all_vector += lists["vector"]
                all_lexical.append(lists["lexical"])
        all_vector.sort(key=lambda h: -h[1])

        evidence = self._evidence(question, all_vector, all_lexical, flags["vector"] and self.vectors_ready)
        mode, reason = self.gate.decide(evidence, self.calibration)
        if not gated:
            mode, reason = Mode.RAG, "sem portões (avaliação)"
        if mode == Mode.NO_EVIDENCE:
            return SearchResult(mode, reason, [])
        hits = []
        for fused, slots, diversify in per_source:
            kept = [h for h in fused if self._keep(h, mode, gated)]
            if diversify and self.per_chapter > 0:
                kept = spread_chapters(kept, slots, self.per_chapter)
            hits += [self._resolve(h) for h in kept[:slots]]
        return SearchResult(mode, reason, hits)

    def _lists(self, index, lexical, question: str, query_vector, flags: dict, adapted=None) -> dict[str, list]:
        """The vector and BM25 candidates of one source (empty when off or not ready). With an adapted
        query, the vector list is ranked by it but scored by the plain cosine, which the per-hit gate
        and the relevance labels are calibrated on."""
        vector = index.vector_search(query_vector if adapted is None else adapted, self.candidates) \
            if flags["vector"] and query_vector is not None and index is not None and index.ready else []
        if adapted is not None and vector:
            plain = index.vectors.scores_for([doc_id for doc_id, _ in vector], query_vector)
            vector = [(doc_id, plain[doc_id]) for doc_id, _ in vector]
        words = lexical.search(self.lexical_query(question), self.candidates) \
            if flags["lexical"] and lexical is not None else []
        return {"vector": vector, "lexical": words}

    @property
    def _topics_on(self) -> bool:
        return self.topics is not None and self.topic_weight > 0 and self.topics.ready

    def _topic_list(self, question: str, query_vector, n: int | None = None) -> list[tuple[str, float]]:
        """The topical candidates re-ranked by cosine; the first `n` (default: `candidates`)."""
        if not self._topics_on or query_vector is None:
            return []
        ranked = self.topics.search(query_vector, question, max(TOPIC_DEPTH, n or 0))
        if self.vectors_ready:
            ranked = rerank_by_cosine(ranked, self.index.vectors.scores_for([i for i, _ in ranked], query_vector))
        return ranked[:n or self.candidates]

    def _weights(self, adapted: bool = False) -> dict[str, float]:
        return {"vector": self.adapter_weight if adapted else 1.0, "lexical": self.lexical_weight,
                "topic": self.topic_weight}

    def _adapted(self, query_vector, flags: dict):
        """The question vector moved by the query adapter, when one is loaded and the vectors are on."""
        if self.adapter is None or not flags["adapter"] or not flags["vector"] or query_vector is None \
                or not self.vectors_ready or self.adapter.dim != len(query_vector):
            return None
        return self.adapter.apply(query_vector)

    def _plain_best(self, query_vector) -> list[tuple[str, float]]:
        """The best plain cosine in the verse index (one matrix product), for the evidence gate."""
        return self.index.vector_search(query_vector, 1)

    def lexical_query(self, question: str) -> str:
        """The question plus the biblical wording of its modern words (`medo` → `temor`)."""
        return expand(question) if self.expand_queries else question

    def query_vector(self, question: str) -> np.ndarray:
        """The embedder sees the expanded question too: the verses say `temor`, people write `medo`
        (dev set, issue 12: fused hit@6 0.526 → 0.550 with the topic weight at 1.5)."""
        from pastor.search.index import embed_text
        return self.embedder.encode([embed_text(self.lexical_query(question), self.modernize)])[0]

    def _prior(self):
        if self.prominence is None or self.prominence_weight <= 0:
            return None
        return lambda doc_id: self.prominence.prior(doc_id, self.prominence_weight)

    def _evidence(self, question, vector_hits, lexical_lists, vectors: bool) -> Evidence:
        query_terms = set(self.lexical.tokens(question)) if self.lexical else set()
        coverage = 0.0
        if query_terms:
            # BM25 scores from different sources (verses, documents) are not comparable, so the
            # best coverage among each source's first few hits is the evidence.
            coverage = max([len(query_terms & set(self._doc_terms(doc_id))) / len(query_terms)
                            for hits in lexical_lists for doc_id, _ in hits[:5]], default=0.0)
        best = vector_hits[0][1] if vectors and vector_hits else None
        return Evidence(best, coverage, len(query_terms), is_pastoral(question))

    def _doc_terms(self, doc_id: str) -> list[str]:
        for lexical in [self.lexical] + [s.lexical for s in self.extra_sources]:
            if lexical is not None and lexical.has(doc_id):
                return lexical.doc_tokens(doc_id)
        return []

    def _keep(self, item: Hit, mode: str, gated: bool) -> bool:
        """Per-hit gate: lexical support, a vector score above the unrelated band, or a place in
        the topical list (curated by Bible students, so it is evidence of its own)."""
        if not gated:
            return True
        if mode == Mode.LEXICAL_FALLBACK:
            return item.lexical_rank is not None
        return item.lexical_rank is not None or item.topic_rank is not None \
            or self.gate.keep_vector_hit(item.vector_score, self.calibration)

    def _resolve(self, item: Hit) -> Hit:
        """The fused hit, with the reference and text the user sees."""
        verse = self.bible.by_id.get(item.id)
        if verse is not None:
            item.reference, item.text, item.kind = verse.reference, verse.text, "verse"
        else:
            item.reference, item.text, item.kind = self._doc_lookup(item.id)
        return item

    def _doc_lookup(self, doc_id: str) -> tuple[str, str, str]:
        for source in self.extra_sources:
            text = source.text(doc_id)
            if text is not None:
                return doc_id, text, "doc"
        return doc_id, "", "doc"
