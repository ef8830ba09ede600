"""Evidence gates: decide the turn's mode from how strong the retrieved evidence is."""

from __future__ import annotations

from dataclasses import dataclass

from pastor.search.modes import SearchMode


@dataclass(frozen=True)
class Calibration:
    """Cosine distribution of unrelated verse pairs for the loaded embedder (from the manifest)."""

    mean: float
    std: float

    def z(self, cosine: float) -> float:
        return (cosine - self.mean) / self.std if self.std > 0 else 0.0


@dataclass(frozen=True)
class Evidence:
    best_cosine: float | None  # None when vectors are not ready
    lexical_coverage: float  # share of the query's content words found in the best lexical hit
    lexical_terms: int  # how many content words the query has
    pastoral: bool = False  # pastoral vocabulary (pastor.text.pastoral_vocabulary) or meaning (pastoral_scope)
    off_topic: bool = False  # the scope classifier is sure it asks for a thing (pastoral_scope.OFF_TOPIC)


@dataclass(frozen=True)
class Gate:
    """Thresholds are z-scores against the embedder's own unrelated-pair band, not raw cosines,
    because each model has its own band of similarities."""

    # Chosen on sets/retrieval/devset.jsonl + sets/retrieval/offtopic_dev.jsonl (bench/tune_retrieval.py).
    best_z: float = 3.5  # the best vector match must stand this far above unrelated pairs
    hit_z: float = 2.0  # each vector-only hit must stand this far above
    lexical_coverage: float = 0.67  # share of content words the best lexical hit must contain
    lexical_min_terms: int = 1
    pastoral_z: float = 1.0  # lower bar when the message is plainly within pastoral scope
    pastoral_lexical_coverage: float = 0.3  # while vectors are not ready, for a pastoral message

    def decide(self, evidence: Evidence, calibration: Calibration | None) -> tuple[SearchMode, str]:
        if evidence.off_topic:  # "como fazer pão de queijo?" sits near a verse about bread, and is still a recipe
            return SearchMode.NO_EVIDENCE, "pelo sentido, um pedido fora do tema pastoral"
        lexical_ok = (
            evidence.lexical_terms >= self.lexical_min_terms and evidence.lexical_coverage >= self.lexical_coverage
        )
        if evidence.best_cosine is not None and calibration is not None:
            z = calibration.z(evidence.best_cosine)
            if z >= self.best_z:
                return SearchMode.RAG, f"melhor similaridade {evidence.best_cosine:.3f} (z={z:.1f} ≥ {self.best_z})"
            if evidence.pastoral and z >= self.pastoral_z:
                return SearchMode.RAG, (
                    f"tema pastoral e similaridade {evidence.best_cosine:.3f} (z={z:.1f} ≥ {self.pastoral_z})"
                )
            if lexical_ok:
                return SearchMode.LEXICAL_FALLBACK, (
                    f"similaridade vetorial fraca (z={z:.1f} < {self.best_z}), mas "
                    f"{evidence.lexical_coverage:.0%} das palavras aparecem no texto"
                )
            return (
                SearchMode.NO_EVIDENCE,
                f"similaridade vetorial fraca (z={z:.1f} < {self.best_z}) e pouca sobreposição lexical",
            )
        if lexical_ok:
            return SearchMode.LEXICAL_FALLBACK, (
                f"índice vetorial indisponível; {evidence.lexical_coverage:.0%} das palavras aparecem no texto"
            )
        # The first minutes after install (vectors still being built): a plainly pastoral message
        # ("estou com medo do futuro") gets the keyword hits, ranked with the prominence prior,
        # instead of the no-evidence message, as long as a content word of it is in the verse.
        if evidence.pastoral and evidence.lexical_coverage >= self.pastoral_lexical_coverage:
            return SearchMode.LEXICAL_FALLBACK, (
                f"índice vetorial indisponível; tema pastoral e "
                f"{evidence.lexical_coverage:.0%} das palavras aparecem no texto"
            )
        return SearchMode.NO_EVIDENCE, "índice vetorial indisponível e pouca sobreposição lexical"

    def keep_vector_hit(self, cosine: float | None, calibration: Calibration | None) -> bool:
        return cosine is not None and calibration is not None and calibration.z(cosine) >= self.hit_z
