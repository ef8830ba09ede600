"""Hybrid retrieval: explicit references first, then the signals' ranked lists fused by RRF, then gates."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, fields, replace
from typing import cast

from pastor.bible.lookup import Lookup, lookup
from pastor.config import Settings
from pastor.search.diversity import spread_chapters, wants_passage
from pastor.search.fusion import Candidates, fuse
from pastor.search.gates import Calibration, Evidence, Gate
from pastor.search.modes import SearchMode
from pastor.search.need import need_text
from pastor.search.results import NotFound, SearchResult, Source
from pastor.search.signals import LexicalSignal, Query, QueryEncoder, Signal, SignalInputs, VectorSignal
from pastor.text.pastoral_vocabulary import is_pastoral

# An explicit passage can be long (Salmos 119 has 176 verses); the prompt gets at most this many
# verses, from at most this many distinct references, however many the question lists.
MAX_REFERENCE_VERSES = 40
MAX_REFERENCES = 10
# With `source="all"`, up to this many church-document chunks join the k verses.
DOC_SLOTS = 3
DIVERSITY = "diversity"  # the step evaluation can switch off (as `diversify=False`)


@dataclass(frozen=True)
class RetrievalConfig:
    """The retrieval section of the settings; the gate thresholds are not environment settings. Small talk is
    not the retriever's to decide: the care router sends it to conversation before any search."""

    rrf_k: int
    candidates: int
    per_chapter: int
    prominence_weight: float
    lexical_weight: float
    topic_weight: float
    pastors_weight: float
    adapter_weight: float
    modernize: bool
    expand_queries: bool = True
    scope_classifier: bool = False  # the gate also tells a pastoral message by meaning (PASTOR_SCOPE_CLASSIFIER)
    gate: Gate = field(default_factory=Gate)

    @classmethod
    def from_settings(cls, settings: Settings, **overrides) -> RetrievalConfig:
        names = {f.name for f in fields(cls)} & {f.name for f in fields(Settings)}
        return cls(**{**{name: getattr(settings, name) for name in names}, **overrides})

    @classmethod
    def declared(cls, **overrides) -> RetrievalConfig:
        """The declared defaults of the settings (no environment), with `overrides`."""
        return cls.from_settings(Settings.from_env({}), **overrides)

    def replace(self, **changes) -> RetrievalConfig:
        return replace(self, **changes)


class Retriever:
    """Searches one Bible (plus optional document sources) with the signals it is given."""

    def __init__(
        self,
        config: RetrievalConfig,
        signals: Sequence[Signal],
        inputs: SignalInputs,
        *,
        encoder: QueryEncoder,
        scope=None,
    ):
        self.bible = inputs.bible
        self.scope = scope  # PastoralScope: pastoral by meaning, where the vocabulary has no word for it
        self.config = config
        self.signals = tuple(signals)  # fused in this order
        self.encoder = encoder
        self.prominence = inputs.prominence  # the prior's source; its share is the config's weight
        self.extra_sources = tuple(inputs.documents)  # the church's documents, each searched by the same signals

    def signal(self, name: str) -> Signal | None:
        return next((s for s in self.signals if s.name == name), None)

    def _vector(self) -> VectorSignal | None:
        """The signal registered as "vector" (the registry builds it as a VectorSignal)."""
        return cast("VectorSignal | None", self.signal("vector"))

    def _lexical(self) -> LexicalSignal | None:
        """The signal registered as "lexical" (the registry builds it as a LexicalSignal)."""
        return cast("LexicalSignal | None", self.signal("lexical"))

    @property
    def adapter(self):
        """The vector signal's query adapter (None when off); the signal alone replaces it."""
        vector = self._vector()
        return vector.adapter if vector is not None else None

    def embed(self, question: str):
        """The question's vector exactly as a search embeds it (the query adapter is trained on it)."""
        return self.encoder.vector(question)

    @property
    def calibration(self) -> Calibration | None:
        vector = self._vector()
        return vector.calibration if vector is not None else None

    @property
    def vectors_ready(self) -> bool:
        vector = self._vector()
        return bool(vector is not None and vector.ready)

    def search(
        self,
        question: str,
        k: int = 6,
        *,
        source: str = "all",
        off: frozenset[str] = frozenset(),
        diversify: bool = True,
        gated: bool = True,
        exclude: frozenset[str] = frozenset(),
    ) -> SearchResult:
        """Search. `off` (signal or part names), `diversify` and `gated=False` exist so evaluation can
        isolate each signal and measure ranking apart from the gates; `exclude` holds verse ids already shown in
        the conversation, which a follow-up does not show again (an explicit reference still looks them up)."""
        question = question.strip()
        found = lookup(question, self.bible, max_references=MAX_REFERENCES, max_verses=MAX_REFERENCE_VERSES)
        not_found = tuple(NotFound(item.text, item.reason) for item in found.not_found)
        explicit = _reference_sources(found)
        if explicit:
            references = tuple(passage.reference for passage in found.references)
            return SearchResult(
                SearchMode.REFERENCE,
                f"referência explícita: {', '.join(references)}",
                explicit,
                references,
                not_found,
                found.note,
            )
        if not_found:
            return SearchResult(SearchMode.NO_EVIDENCE, not_found[0].reason, (), (), not_found)
        need = need_text(question)  # a story pasted twice, emoji, a long story: read for the need it tells
        query = Query(need, self.encoder.words(need), frozenset(off))
        return self._hybrid(query, k, source, diversify, gated, exclude)

    # -- hybrid search -------------------------------------------------------------------------
    def _hybrid(
        self, query: Query, k: int, source: str, diversify: bool, gated: bool, exclude: frozenset[str] = frozenset()
    ) -> SearchResult:
        if self.encoder.embedder is not None and any(s.needs_vector and s.active(query) for s in self.signals):
            query.vector = self.encoder.vector(query.text)
        # Each source is fused on its own: BM25 scores and ranks of verses and of the church's
        # documents are not comparable, and documents must not crowd Scripture out (or vice versa).
        runs: list[list[Candidates]] = []
        per_source = []
        if source in ("all", "bible"):
            lists = [s.candidates(query, self.config.candidates) for s in self.signals]
            runs.append(lists)
            per_source.append(
                (fuse(lists, k=self.config.rrf_k, prior=self.prior), k, diversify and not wants_passage(query.text))
            )
        if source in ("all", "docs"):
            slots = k if source == "docs" else DOC_SLOTS
            for extra in self.extra_sources:
                signals = [s for s in (s.over(extra) for s in self.signals) if s is not None]
                lists = [s.candidates(query, self.config.candidates) for s in signals]
                runs.append(lists)
                per_source.append((fuse(lists, k=self.config.rrf_k), slots, False))

        evidence = self._evidence(query, runs)
        mode, reason = self.config.gate.decide(evidence, self.calibration)
        if not gated:
            mode, reason = SearchMode.RAG, "sem portões (avaliação)"
        if mode == SearchMode.NO_EVIDENCE:
            return SearchResult(mode, reason, off_topic=evidence.off_topic or not evidence.pastoral)
        sources: list[Source] = []
        for fused, slots, spread in per_source:
            kept = [s for s in fused if s.id not in exclude and self._keep(s, mode, gated)]
            if spread and self.config.per_chapter > 0:
                kept = spread_chapters(kept, slots, self.config.per_chapter)
            sources += [self._resolve(s) for s in kept[:slots]]
        return SearchResult(mode, reason, tuple(sources))

    @property
    def prior(self) -> Callable[[str], float] | None:
        """The prominence share of a verse's score, or None when there is no prior or its weight is 0."""
        prominence, weight = self.prominence, self.config.prominence_weight
        return (lambda doc_id: prominence.prior(doc_id, weight)) if prominence is not None and weight > 0 else None

    def _evidence(self, query: Query, runs: list[list[Candidates]]) -> Evidence:
        lexical = self._lexical()
        query_terms = lexical.terms(query.text) if lexical is not None else set()
        coverage = 0.0
        if query_terms and lexical is not None:  # terms come from the lexical signal only
            # BM25 scores from different sources (verses, documents) are not comparable, so the
            # best coverage among each source's first few hits is the evidence.
            coverage = max(
                [
                    len(query_terms & set(self._doc_terms(lexical, doc_id))) / len(query_terms)
                    for lists in runs
                    for c in lists
                    if c.signal == "lexical"
                    for doc_id, _ in c.ranked[:5]
                ],
                default=0.0,
            )
        vectors = [hit for lists in runs for c in lists if c.signal == "vector" for hit in c.for_gates]
        vectors.sort(key=lambda h: -h[1])
        best = vectors[0][1] if query.wants("vector") and self.vectors_ready and vectors else None
        return Evidence(best, coverage, len(query_terms), *self._scope(query.text, best))

    def _scope(self, question: str, best: float | None) -> tuple[bool, bool]:
        """(pastoral, off-topic): the pastoral vocabulary or the scope classifier's P(pastoral) over its bar;
        off-topic when the classifier is sure the message asks for a thing (a recipe, a celebrity), which the
        gate refuses even when a verse happens to sit near it. No embedding while the vectors are not ready."""
        vocabulary = is_pastoral(question)
        if self.scope is None or best is None or not self.scope.available():
            return vocabulary, False
        probability = self.scope.probability(question)
        return vocabulary or probability >= self.scope.threshold, probability < self.scope.off_topic_bar

    def _doc_terms(self, lexical: LexicalSignal, doc_id: str) -> list[str]:
        """The indexed words of a verse or chunk, from the lexical signal over the source that holds it."""
        for signal in [lexical] + [lexical.over(s) for s in self.extra_sources]:
            terms = signal.doc_terms(doc_id)
            if terms is not None:
                return terms
        return []

    def _keep(self, item: Source, mode: SearchMode, gated: bool) -> bool:
        """Per-hit gate: lexical support, a vector score above the unrelated band, or a place in a list
        that vouches for its hits (the topics, curated by Bible students, are evidence of their own)."""
        if not gated:
            return True
        if mode == SearchMode.LEXICAL_FALLBACK:
            return item.ranked_in("lexical")
        return any(item.ranked_in(s.name) for s in self.signals if s.vouches) or self.config.gate.keep_vector_hit(
            item.score_in("vector"), self.calibration
        )

    def _resolve(self, item: Source) -> Source:
        """The fused source, with the reference and text the user sees."""
        verse = self.bible.by_id.get(item.id)
        if verse is not None:
            return replace(item, reference=verse.reference, text=verse.text, kind="verse")
        return replace(item, reference=item.id, text=self._doc_text(item.id), kind="doc")

    def _doc_text(self, doc_id: str) -> str:
        for source in self.extra_sources:
            text = source.text(doc_id)
            if text is not None:
                return text
        return ""


def _reference_sources(found: Lookup) -> tuple[Source, ...]:
    return tuple(
        Source(verse.id, verse.reference, verse.text, score=1.0)
        for passage in found.references
        for verse in passage.verses
    )  # already capped by the lookup
