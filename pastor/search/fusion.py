"""The scored hit that travels from fusion to the API, and reciprocal rank fusion of ranked lists."""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Callable, Mapping, Sequence

# The ranked lists a hit can come from; each has a `<name>_rank` and `<name>_score` on `Hit`.
SIGNALS = ("vector", "lexical", "topic")


@dataclass
class Hit:
    """One search result: fused score, where it ranked in each signal, and (once resolved) its text."""

    id: str
    reference: str = ""
    text: str = ""
    score: float = 0.0
    vector_rank: int | None = None
    vector_score: float | None = None
    lexical_rank: int | None = None
    lexical_score: float | None = None
    topic_rank: int | None = None
    topic_score: float | None = None
    kind: str = "verse"  # "verse" | "doc"
    prior: float = 0.0

    def as_dict(self) -> dict:
        data = asdict(self)
        data.pop("prior")
        for key, value in data.items():
            if isinstance(value, float):
                data[key] = round(value, 6)
        return data

    def ranked_in(self, signal: str) -> bool:
        return getattr(self, f"{signal}_rank") is not None


Ranked = Sequence[tuple[str, float]]


def fuse(lists: Mapping[str, Ranked], *, weights: Mapping[str, float] | None = None, k: int = 60,
         prior: Callable[[str], float] | None = None) -> list[Hit]:
    """Fuse named ranked (id, score) lists: score = Σ w/(k + rank) + prior(id); ids de-duplicated.

    Ranks are 1-based; an id repeated inside one list keeps its best (first) rank. A missing
    weight is 1."""
    fused: dict[str, Hit] = {}
    for signal, ranked in lists.items():
        if signal not in SIGNALS:
            raise ValueError(f"sinal desconhecido: {signal!r}")
        weight = 1.0 if weights is None else weights.get(signal, 1.0)
        for rank, (doc_id, score) in enumerate(_unique(ranked), 1):
            hit = fused.setdefault(doc_id, Hit(doc_id))
            setattr(hit, f"{signal}_rank", rank)
            setattr(hit, f"{signal}_score", score)
            hit.score += weight / (k + rank)
    if prior is not None:
        for hit in fused.values():
            hit.prior = prior(hit.id)
            hit.score += hit.prior
    return sorted(fused.values(), key=lambda h: (-h.score, h.id))


def rrf(vector: Ranked, lexical: Ranked, *, k: int = 60, prior: Callable[[str], float] | None = None,
        vector_weight: float = 1.0, lexical_weight: float = 1.0) -> list[Hit]:
    """`fuse` of a vector list and a BM25 list."""
    return fuse({"vector": vector, "lexical": lexical}, weights={"vector": vector_weight, "lexical": lexical_weight},
                k=k, prior=prior)


def _unique(ranked: Ranked) -> list[tuple[str, float]]:
    seen, out = set(), []
    for doc_id, score in ranked:
        if doc_id not in seen:
            seen.add(doc_id)
            out.append((doc_id, score))
    return out
