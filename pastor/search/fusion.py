"""Weighted reciprocal rank fusion of the signals' ranked lists into `Source`s."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

from pastor.search.results import SignalRank, Source

Ranked = Sequence[tuple[str, float]]


@dataclass(frozen=True)
class Candidates:
    """What one signal returns for one question: its name, its weight in the fusion and its ranked
    (id, score) list; `evidence` is the list the gates read (by default the ranked list itself)."""

    signal: str
    weight: float
    ranked: Ranked
    evidence: Ranked | None = None

    @property
    def for_gates(self) -> Ranked:
        return self.ranked if self.evidence is None else self.evidence


def fuse(lists: Iterable[Candidates], *, k: int = 60, prior: Callable[[str], float] | None = None) -> list[Source]:
    """Fuse ranked lists: score = Σ weight/(k + rank) + prior(id); ids de-duplicated.

    Ranks are 1-based; an id repeated inside one list keeps its best (first) rank."""
    scores: dict[str, float] = {}
    ranks: dict[str, dict[str, SignalRank]] = {}
    for candidates in lists:
        for rank, (doc_id, score) in enumerate(_unique(candidates.ranked), 1):
            ranks.setdefault(doc_id, {})[candidates.signal] = SignalRank(rank, score)
            scores[doc_id] = scores.get(doc_id, 0.0) + candidates.weight / (k + rank)
    fused = []
    for doc_id, score in scores.items():
        share = prior(doc_id) if prior is not None else 0.0
        fused.append(
            Source(doc_id, score=score + share if prior is not None else score, ranks=ranks[doc_id], prior=share)
        )
    return sorted(fused, key=lambda s: (-s.score, s.id))


def rrf(
    vector: Ranked,
    lexical: Ranked,
    *,
    k: int = 60,
    prior: Callable[[str], float] | None = None,
    vector_weight: float = 1.0,
    lexical_weight: float = 1.0,
) -> list[Source]:
    """`fuse` of a vector list and a BM25 list."""
    return fuse(
        [Candidates("vector", vector_weight, vector), Candidates("lexical", lexical_weight, lexical)], k=k, prior=prior
    )


def _unique(ranked: Ranked) -> list[tuple[str, float]]:
    seen, out = set(), []
    for doc_id, score in ranked:
        if doc_id not in seen:
            seen.add(doc_id)
            out.append((doc_id, score))
    return out
