"""The vector signal: verses by cosine to the question, ranked through the query adapter when one is trained."""

from __future__ import annotations

import numpy as np

from pastor.search.fusion import Candidates
from pastor.search.gates import Calibration
from pastor.search.signals.query import Query
from pastor.search.signals.signal import Signal, SignalInputs

ADAPTER = "adapter"  # the part evaluation can switch off


class VectorSignal(Signal):
    """Nearest verses (or document chunks) by cosine. The adapter (a linear map learned from the dev
    set) moves the question toward the verses pastors open: it ranks the list, while the scores stay
    the plain cosine, which the per-hit gate and the relevance labels are calibrated on."""

    name = "vector"
    label = "vetores"
    needs_vector = True
    parts = ((ADAPTER, "adaptador"),)

    def __init__(self, index, *, adapter=None, adapter_weight: float = 2.0):
        self.index = index  # VerseIndex, or a document source's vector table
        self._adapter = adapter  # QueryAdapter or None: see `use_adapter`
        self.adapter_weight = adapter_weight  # the list's weight while the adapter is on (else 1)

    @classmethod
    def build(cls, config, resources: SignalInputs, built: dict[str, Signal]) -> VectorSignal:
        return cls(resources.index, adapter=resources.adapter, adapter_weight=config.adapter_weight)

    @property
    def adapter(self):
        """The query adapter the list is ranked through (None when off or not trained yet)."""
        return self._adapter

    def use_adapter(self, adapter) -> None:
        """Rank through `adapter` from the next search on (None: the plain question). The index
        pipeline calls it once the adapter for the vectors now served is loaded or trained, so during
        a rebuild search keeps ranking through the old one (an adapter of another dimension is ignored)."""
        self._adapter = adapter

    @property
    def ready(self) -> bool:
        return bool(self.index is not None and self.index.ready)

    @property
    def calibration(self) -> Calibration | None:
        """The unrelated-pair cosine band of the vectors served (from their manifest)."""
        data = self.index.calibration if self.index is not None else None
        return Calibration(data["mean"], data["std"]) if data else None

    def active(self, query: Query) -> bool:
        return query.wants(self.name) and self.ready

    def candidates(self, query: Query, n: int) -> Candidates:
        if not self.active(query) or query.vector is None:
            return self.empty()
        adapted = self._adapted(query, query.vector)
        if adapted is None:
            return Candidates(self.name, 1.0, self.index.vector_search(query.vector, n))
        ranked = self.index.vector_search(adapted, n)
        plain = self.index.scores_for([doc_id for doc_id, _ in ranked], query.vector)
        # The gates were calibrated on the plain question's cosines: they see its best match.
        return Candidates(
            self.name,
            self.adapter_weight,
            [(doc_id, plain[doc_id]) for doc_id, _ in ranked],
            evidence=self.index.vector_search(query.vector, 1),
        )

    def cosines(self, ids, vector) -> dict[str, float]:
        """The plain cosine of the question to each id (for signals that re-rank by it)."""
        return self.index.scores_for(ids, vector) if self.ready else {}

    def rows(self):
        """The ids and matrix of the vectors served, for training the adapter."""
        return self.index.rows()

    def over(self, source) -> VectorSignal:
        return VectorSignal(getattr(source, "index", None))

    def _adapted(self, query: Query, vector: np.ndarray):
        """The question's `vector` moved by the adapter, when one is loaded and wanted."""
        adapter = self._adapter
        if adapter is None or not query.wants(ADAPTER) or adapter.dim != len(vector):
            return None
        return adapter.apply(vector)
