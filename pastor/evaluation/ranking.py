"""Retrieval evaluation: ranking metrics over question sets and a timed runner, per search mode."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from pastor.search.questions import Question

# Rank-based metrics are always reported at this depth; only hit@k follows the caller's k.
DEPTH = 10


@dataclass(frozen=True)
class Evaluation:
    """One mode's mean figures over a question set (hit@k, and the rank metrics at `DEPTH`) and
    the latency percentiles of its searches, in ms."""

    n: int
    k: int
    hit: float
    recall: float
    mrr: float
    ndcg: float
    p50_ms: float
    p95_ms: float

    def metrics(self) -> dict[str, float]:
        """The figures by their printed names, in table order: hit@k, recall@10, mrr@10, ndcg@10."""
        return {
            f"hit@{self.k}": self.hit,
            f"recall@{DEPTH}": self.recall,
            f"mrr@{DEPTH}": self.mrr,
            f"ndcg@{DEPTH}": self.ndcg,
        }


# --- Metrics -----------------------------------------------------------------------------
# All take the ranking as returned by a search (best first). Only the first k positions
# count, and a gold id counts once, at its first position: a duplicate wastes its slot
# instead of scoring twice, as it would on the user's screen.


def _check_k(k: int) -> None:
    if k < 1:
        raise ValueError(f"k deve ser pelo menos 1 (recebido {k})")


def _gold_ranks(ranked_ids: Sequence[str], gold: Iterable[str], k: int) -> list[int]:
    """1-based ranks, within the top k, of the first occurrence of each gold id."""
    _check_k(k)
    wanted, ranks = set(gold), []
    for rank, verse_id in enumerate(ranked_ids[:k], start=1):
        if verse_id in wanted:
            ranks.append(rank)
            wanted.discard(verse_id)
    return ranks


def hit_at_k(ranked_ids: Sequence[str], gold: Iterable[str], k: int) -> float:
    """1.0 if any gold id is among the first k results, else 0.0."""
    return 1.0 if _gold_ranks(ranked_ids, gold, k) else 0.0


def recall_at_k(ranked_ids: Sequence[str], gold: Iterable[str], k: int) -> float:
    """Share of the distinct gold ids found among the first k results."""
    gold = set(gold)
    return len(_gold_ranks(ranked_ids, gold, k)) / len(gold) if gold else 0.0


def mrr_at_k(ranked_ids: Sequence[str], gold: Iterable[str], k: int) -> float:
    """Reciprocal rank of the first gold id within the first k results (0.0 if none)."""
    ranks = _gold_ranks(ranked_ids, gold, k)
    return 1.0 / ranks[0] if ranks else 0.0


def ndcg_at_k(ranked_ids: Sequence[str], gold: Iterable[str], k: int) -> float:
    """Binary-relevance nDCG: DCG of the ranking over the DCG of an ideal one."""
    gold = set(gold)
    dcg = sum(1.0 / math.log2(rank + 1) for rank in _gold_ranks(ranked_ids, gold, k))
    ideal = sum(1.0 / math.log2(rank + 1) for rank in range(1, min(len(gold), k) + 1))
    return dcg / ideal if ideal else 0.0


def percentile(values: Sequence[float], q: float) -> float:
    """Linear-interpolated percentile (q in 0..100), as numpy's default."""
    if not values:
        raise ValueError("percentil de uma lista vazia")
    ordered = sorted(values)
    position = (len(ordered) - 1) * q / 100.0
    low = math.floor(position)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (position - low)


# --- Runner --------------------------------------------------------------------------------


def score_question(ranked_ids: Sequence[str], gold: Iterable[str], k: int) -> dict[str, float]:
    """The per-question figures that `evaluate` averages (useful to list failures)."""
    gold = set(gold)
    return {
        f"hit@{k}": hit_at_k(ranked_ids, gold, k),
        f"recall@{DEPTH}": recall_at_k(ranked_ids, gold, DEPTH),
        f"mrr@{DEPTH}": mrr_at_k(ranked_ids, gold, DEPTH),
        f"ndcg@{DEPTH}": ndcg_at_k(ranked_ids, gold, DEPTH),
    }


def evaluate(search: Callable[[str], list[str]], questions: Sequence[Question], k: int = 6) -> Evaluation:
    """Run `search` on every question; mean metrics plus latency percentiles in ms."""
    _check_k(k)
    if not questions:
        raise ValueError("nenhuma pergunta para avaliar")
    totals: dict[str, float] = {}
    latencies = []
    for item in questions:
        # Time only the search call, not the scoring.
        start = time.perf_counter()
        ranked = list(search(item.question))
        latencies.append((time.perf_counter() - start) * 1000.0)
        for name, value in score_question(ranked, item.gold, k).items():
            totals[name] = totals.get(name, 0.0) + value
    n = len(questions)
    mean = {name: total / n for name, total in totals.items()}
    return Evaluation(
        n,
        k,
        mean[f"hit@{k}"],
        mean[f"recall@{DEPTH}"],
        mean[f"mrr@{DEPTH}"],
        mean[f"ndcg@{DEPTH}"],
        percentile(latencies, 50),
        percentile(latencies, 95),
    )


def evaluate_modes(
    searchers: Mapping[str, Callable[[str], list[str]]], questions: Sequence[Question], k: int = 6
) -> dict[str, Evaluation]:
    """`evaluate` for each retrieval mode (`hybrid`, `vector`, `lexical`…), in the given order."""
    return {mode: evaluate(search, questions, k) for mode, search in searchers.items()}


def eval_modes(retriever, k: int, ablation: bool = False, adapters: Mapping | None = None) -> dict[str, Callable]:
    """Ranking functions per mode for `evaluate_modes`, from the retriever's signals: fused, each signal
    alone (no diversity step), and with `ablation` the hybrid without each optional signal, without the
    diversity step and without each part of a signal (the query adapter). `adapters` (question → query
    adapter) replaces the retriever's adapter per question (cross-validation on its own training file)."""
    names = frozenset(s.name for s in retriever.signals)
    vector = retriever.signal("vector")

    def ranked(off=frozenset(), diversify=True):
        def search(question):
            if adapters is not None:
                vector.use_adapter(adapters[question])
            result = retriever.search(question, k=k, gated=False, off=frozenset(off), diversify=diversify)
            return [source.id for source in result.results]

        return search

    modes = {"hybrid": ranked()}
    modes.update({s.name: ranked(names - {s.name}, diversify=False) for s in retriever.signals})
    if ablation:
        modes.update({f"hybrid − {s.label}": ranked({s.name}) for s in retriever.signals if s.optional})
        modes["hybrid − diversidade"] = ranked(diversify=False)
        modes.update({f"hybrid − {label}": ranked({part}) for s in retriever.signals for part, label in s.parts})
    return modes


# --- Report --------------------------------------------------------------------------------


def format_table(results: Mapping[str, Evaluation]) -> str:
    """A Markdown table, one row per mode, for the CLI and the README."""
    hit_keys = sorted({f"hit@{row.k}" for row in results.values()}, key=lambda key: int(key.split("@")[1]))
    metrics = [*hit_keys, f"recall@{DEPTH}", f"mrr@{DEPTH}", f"ndcg@{DEPTH}"]
    header = ["modo", "n", *metrics, "p50 (ms)", "p95 (ms)"]
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join(["---"] + ["---:"] * (len(header) - 1)) + "|"]
    for mode, row in results.items():
        figures = row.metrics()
        cells = [mode, str(row.n)]
        cells += [f"{figures[m]:.3f}" if m in figures else "—" for m in metrics]
        cells += [f"{row.p50_ms:.1f}", f"{row.p95_ms:.1f}"]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)
