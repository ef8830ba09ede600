"""Tune fusion (vector/lexical/topic weights, prominence λ, RRF k, depth) and the evidence gates on the dev sets.

Usage: PASTOR_CORPUS=… PASTOR_DATA_DIR=… [PASTOR_PROMINENCE=…] [PASTOR_EXTRA_CORPORA=…] \
       python -m bench.tune_retrieval [sets/retrieval/devset.jsonl sets/retrieval/offtopic_dev.jsonl]
Vector, BM25 and topical candidates are computed once per question; only fusion and gates are repeated.
Never tune on sets/retrieval/testset.jsonl or sets/retrieval/offtopic_test.jsonl: those are for reporting."""

from __future__ import annotations

import itertools
import json
import sys
from pathlib import Path

from pastor.answer.turn_modes import Mode
from pastor.config import get_settings
from pastor.evaluation.ranking import hit_at_k, mrr_at_k
from pastor.search.assembly import build_retriever
from pastor.search.diversity import spread_chapters, wants_passage
from pastor.search.fusion import Candidates, fuse
from pastor.search.gates import Gate
from pastor.search.questions import load_questions
from pastor.search.retrieval import RetrievalConfig
from pastor.search.signals import Query, VectorSignal
from pastor.wiring import build_engine


def candidates(engine, question: str, n: int = 100, adapter=None):
    """The three lists of one question; the vector list ranked by the adapted question when an
    adapter is given, the evidence (gates) from the plain one, as in `Retriever`."""
    retriever = engine.retriever
    encoder, signal = retriever.encoder, retriever.signal
    query = Query(question, encoder.words(question), frozenset({"adapter"}), encoder.vector(question))
    plain = signal("vector").candidates(query, n)
    vector = (
        VectorSignal(signal("vector").index, adapter=adapter)
        .candidates(Query(question, query.words, vector=query.vector), n)
        .ranked
        if adapter is not None
        else plain.ranked
    )
    lexical = signal("lexical").candidates(query, n)
    topic = signal("topic").candidates(query, n).ranked
    return vector, lexical.ranked, retriever._evidence(query, [[plain, lexical]]), topic


def ranking(question, lists, *, weights, k, prior, depth, per_chapter):
    fused = fuse(
        [Candidates(name, weights.get(name, 1.0), ranked[:depth]) for name, ranked in lists.items()], k=k, prior=prior
    )
    if per_chapter and not wants_passage(question):
        fused = spread_chapters(fused, 6, per_chapter)
    return [h.id for h in fused]


def tune_fusion(engine, cached) -> None:
    prominence = engine.resources.prominence
    weights = [0.0, 0.006, 0.01] if prominence else [0.0]
    vector_weights = [1.0, 2.0, 3.0] if engine.retriever.adapter is not None else [1.0]
    grid = itertools.product(
        vector_weights, weights, [30, 60, 120], [0.3, 0.5, 1.0], [0.0, 1.0, 1.5, 2.0], [30, 60, 100], [2]
    )
    rows = []
    for vector_weight, weight, k, lexical_weight, topic_weight, depth, per_chapter in grid:
        prior = (lambda i, w=weight: prominence.prior(i, w)) if weight else None
        hits, mrrs = [], []
        for q, (vector, lexical, _, topic) in cached:
            ranked = ranking(
                q.question,
                {"vector": vector, "lexical": lexical, "topic": topic},
                weights={"vector": vector_weight, "lexical": lexical_weight, "topic": topic_weight},
                k=k,
                prior=prior,
                depth=depth,
                per_chapter=per_chapter,
            )
            hits.append(hit_at_k(ranked, q.gold, 6))
            mrrs.append(mrr_at_k(ranked, q.gold, 10))
        rows.append(
            (
                sum(hits) / len(hits) + sum(mrrs) / len(mrrs),
                sum(hits) / len(hits),
                sum(mrrs) / len(mrrs),
                vector_weight,
                weight,
                k,
                lexical_weight,
                topic_weight,
                depth,
                per_chapter,
            )
        )
    print(
        "\n| vector | λ | k | lexical | topic | depth | per chapter | hit@6 | mrr@10 |\n"
        "|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
    )
    r = engine.retriever  # the settings in use, for comparison with the best rows
    current = (
        r.adapter_weight if r.adapter is not None else 1.0,
        r.prominence_weight if prominence else 0.0,
        r.rrf_k,
        r.lexical_weight,
        r.topic_weight,
        r.candidates,
        r.per_chapter,
    )
    for _, hit, mrr, *params in sorted(rows, reverse=True)[:20] + [row for row in rows if tuple(row[3:]) == current]:
        print("| " + " | ".join(str(p) for p in params) + f" | {hit:.3f} | {mrr:.3f} |")


def tune_gates(engine, cached, offtopic) -> None:
    calibration = engine.retriever.calibration
    print(
        "\n| best_z | pastoral_z | lexical coverage | in-domain answered | off-topic refused |\n"
        "|---:|---:|---:|---:|---:|"
    )
    for best_z, pastoral_z, coverage in itertools.product([2.0, 2.5, 3.0, 3.5], [0.0, 1.0, 1.5, 99], [0.5, 0.67, 1.01]):
        gate = Gate(best_z=best_z, pastoral_z=pastoral_z, lexical_coverage=coverage)
        answered = sum(gate.decide(e, calibration)[0] != Mode.NO_EVIDENCE for _, (_, _, e, _) in cached)
        refused = sum(gate.decide(e, calibration)[0] == Mode.NO_EVIDENCE for e in offtopic)
        print(
            f"| {best_z} | {pastoral_z} | {coverage} | {answered / len(cached):.2f} | {refused / len(offtopic):.2f} |"
        )


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    dev = args[0] if args else "sets/retrieval/devset.jsonl"
    off = args[1] if len(args) > 1 else "sets/retrieval/offtopic_dev.jsonl"
    engine = build_engine(get_settings())
    # A retriever of its own, so the question can be searched (and the adapter trained) unexpanded.
    config = RetrievalConfig.from_settings(engine.settings, expand_queries="--no-expand" not in sys.argv)
    engine.retriever = build_retriever(config, engine.resources.signal_inputs(engine.retriever.adapter))
    if not engine.retriever.vectors_ready:
        sys.exit("índice vetorial incompleto: rode `python -m pastor index` antes")
    questions = load_questions(dev)
    adapters = _fold_adapters(engine, dev, questions)
    cached = [(q, candidates(engine, q.question, adapter=adapters.get(q.question))) for q in questions]
    offtopic = [
        candidates(engine, json.loads(line)["question"])[2]
        for line in Path(off).read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    print(
        f"{len(questions)} perguntas de {dev}, {len(offtopic)} fora do tema de {off}; "
        f"prominência: {'sim' if engine.resources.prominence else 'não'}; extras: {len(engine.resources.extras)}"
    )
    tune_fusion(engine, cached)
    tune_gates(engine, cached, offtopic)


def _fold_adapters(engine, path: str, questions) -> dict:
    """With the query adapter on, each dev question's vector list comes from an adapter trained
    without it (5 folds), as `python -m pastor eval` measures; the adapter's training is its own."""
    from pastor.cli.commands import _fold_adapters as folds

    if engine.retriever.adapter is None:
        return {}
    return folds(engine, path, questions) or {q.question: engine.retriever.adapter for q in questions}


if __name__ == "__main__":
    main()
