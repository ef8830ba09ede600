"""Hybrid retrieval: explicit references first, then vectors + BM25 fused by RRF, then gates."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Callable

import numpy as np

from pastor.search.modes import Mode
from pastor.bible.lookup import lookup
from pastor.search.fusion import Fused, rrf
from pastor.search.gates import Calibration, Evidence, Gate
from pastor.text.synonyms import expand
from pastor.text.topics import is_pastoral

# An explicit passage can be long (Salmos 119 has 176 verses); the prompt gets at most this many
# verses, from at most this many distinct references, however many the question lists.
MAX_REFERENCE_VERSES = 40
MAX_REFERENCES = 10
# With `source="all"`, up to this many church-document chunks join the k verses.
DOC_SLOTS = 3
# The reason given when a message is conversation, answered without sources.
CONVERSATION_REASON = "conversa: saudação, agradecimento ou pergunta sobre o assistente"


@dataclass
class Hit:
    id: str
    reference: str
    text: str
    score: float
    vector_rank: int | None = None
    vector_score: float | None = None
    lexical_rank: int | None = None
    lexical_score: float | None = None
    kind: str = "verse"  # "verse" | "doc"

    def as_dict(self) -> dict:
        data = asdict(self)
        for key in ("score", "vector_score", "lexical_score"):
            if data[key] is not None:
                data[key] = round(data[key], 6)
        return data


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
                 expand_queries: bool = True, modernize: bool = True):
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
        self.extra_sources = list(extra_sources)  # e.g. church documents, same search interface

    @property
    def calibration(self) -> Calibration | None:
        data = (self.index.status.manifest or {}).get("calibration") if self.index else None
        return Calibration(data["mean"], data["std"]) if data else None

    @property
    def vectors_ready(self) -> bool:
        return bool(self.index is not None and self.index.ready)

    def search(self, question: str, k: int = 6, *, source: str = "all", use_vectors: bool = True,
               use_lexical: bool = True, gated: bool = True) -> SearchResult:
        """Search; `use_vectors`/`use_lexical`/`gated=False` exist so evaluation can isolate
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
        return self._hybrid(question, k, source, use_vectors, use_lexical, gated)

    # -- explicit references ---------------------------------------------------------------------
    def _reference_hits(self, found: dict) -> list[Hit]:
        hits = []
        for ref in found["references"]:
            for verse in ref["verses"]:  # already capped in total by the lookup
                hits.append(Hit(verse["id"], verse["reference"], verse["text"], 1.0))
        return hits

    # -- hybrid search -------------------------------------------------------------------------
    def _hybrid(self, question: str, k: int, source: str, use_vectors: bool, use_lexical: bool,
                gated: bool) -> SearchResult:
        query_vector = self.query_vector(question) if use_vectors and self.vectors_ready else None
        # Each source is fused on its own: BM25 scores and ranks of verses and of the church's
        # documents are not comparable, and documents must not crowd Scripture out (or vice versa).
        sources = []
        if source in ("all", "bible"):
            sources.append((self.index, self.lexical, self._prior(), k))
        if source in ("all", "docs"):
            slots = k if source == "docs" else DOC_SLOTS
            sources += [(s.index, s.lexical, None, slots) for s in self.extra_sources]
        all_vector, all_lexical, per_source = [], [], []
        for index, lexical, prior, slots in sources:
            vector_hits = index.vector_search(query_vector, self.candidates) \
                if query_vector is not None and index is not None and index.ready else []
            lexical_hits = lexical.search(self.lexical_query(question), self.candidates) \
                if use_lexical and lexical is not None else []
            all_vector += vector_hits
            all_lexical.append(lexical_hits)
            fused = rrf(vector_hits, lexical_hits, k=self.rrf_k, prior=prior, lexical_weight=self.lexical_weight)
            per_source.append((fused, slots))
        all_vector.sort(key=lambda h: -h[1])

        evidence = self._evidence(question, all_vector, all_lexical, query_vector is not None)
        mode, reason = self.gate.decide(evidence, self.calibration)
        if not gated:
            mode, reason = Mode.RAG, "sem portões (avaliação)"
        if mode == Mode.NO_EVIDENCE:
            return SearchResult(mode, reason, [])
        hits = []
        for fused, slots in per_source:
            hits += [self._hit(f) for f in fused if self._keep(f, mode, gated)][:slots]
        return SearchResult(mode, reason, hits)

    def lexical_query(self, question: str) -> str:
        """BM25 query: the question plus the biblical wording of its modern words."""
        return expand(question) if self.expand_queries else question

    def query_vector(self, question: str) -> np.ndarray:
        from pastor.search.index import embed_text
        return self.embedder.encode([embed_text(question, self.modernize)])[0]

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

    def _keep(self, item: Fused, mode: str, gated: bool) -> bool:
        """Per-hit gate: a hit needs lexical support or a vector score above the unrelated band."""
        if not gated:
            return True
        if mode == Mode.LEXICAL_FALLBACK:
            return item.lexical_rank is not None
        return item.lexical_rank is not None or self.gate.keep_vector_hit(item.vector_score, self.calibration)

    def _hit(self, item: Fused) -> Hit:
        verse = self.bible.by_id.get(item.id)
        if verse is not None:
            reference, text, kind = verse.reference, verse.text, "verse"
        else:
            reference, text, kind = self._doc_lookup(item.id)
        return Hit(item.id, reference, text, item.score, item.vector_rank, item.vector_score,
                   item.lexical_rank, item.lexical_score, kind)

    def _doc_lookup(self, doc_id: str) -> tuple[str, str, str]:
        for source in self.extra_sources:
            text = source.text(doc_id)
            if text is not None:
                return doc_id, text, "doc"
        return doc_id, "", "doc"
