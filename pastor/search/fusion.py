"""Reciprocal rank fusion of ranked lists, with an optional per-id prior."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Sequence


@dataclass
class Fused:
    id: str
    score: float
    vector_rank: int | None = None
    vector_score: float | None = None
    lexical_rank: int | None = None
    lexical_score: float | None = None
    prior: float = 0.0


def rrf(vector: Sequence[tuple[str, float]], lexical: Sequence[tuple[str, float]], *, k: int = 60,
        prior: Callable[[str], float] | None = None, vector_weight: float = 1.0,
        lexical_weight: float = 1.0) -> list[Fused]:
    """Fuse two ranked (id, score) lists: score = Σ w/(k + rank) + prior(id); ids de-duplicated.

    Ranks are 1-based; an id repeated inside one list keeps its best (first) rank."""
    fused: dict[str, Fused] = {}
    for rank, (doc_id, score) in enumerate(_unique(vector), 1):
        item = fused.setdefault(doc_id, Fused(doc_id, 0.0))
        item.vector_rank, item.vector_score = rank, score
        item.score += vector_weight / (k + rank)
    for rank, (doc_id, score) in enumerate(_unique(lexical), 1):
        item = fused.setdefault(doc_id, Fused(doc_id, 0.0))
        item.lexical_rank, item.lexical_score = rank, score
        item.score += lexical_weight / (k + rank)
    if prior is not None:
        for item in fused.values():
            item.prior = prior(item.id)
            item.score += item.prior
    return sorted(fused.values(), key=lambda f: (-f.score, f.id))


def _unique(ranked: Sequence[tuple[str, float]]) -> list[tuple[str, float]]:
    seen, out = set(), []
    for doc_id, score in ranked:
        if doc_id not in seen:
            seen.add(doc_id)
            out.append((doc_id, score))
    return out
