"""Does the query adapter carry across authors? Train on one author's dev questions, measure on the other's.

Usage: python -m bench.adapter_transfer [sets/retrieval/devset.jsonl] [--split 171]
Lines 1–171 of the dev set were written by the project's first author, lines 172–271 by a second author
who saw neither the code nor the other sets (bench/README.md). Each half trains an adapter
(`pastor.search.adapter.train`, the defaults the app uses) that is measured on the other half, beside
the same ranking without the adapter. The held-out set is not read."""

from __future__ import annotations

import sys
from pathlib import Path

from pastor.config import get_settings
from pastor.evaluation.ranking import Evaluation, eval_modes, evaluate
from pastor.search.adapter import train
from pastor.search.questions import load_questions
from pastor.wiring import build_engine


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    path = args[0] if args else "sets/retrieval/devset.jsonl"
    if "testset" in Path(path).name:
        sys.exit("o conjunto de teste só mede: use o dev")
    split = int(sys.argv[sys.argv.index("--split") + 1]) if "--split" in sys.argv else 171
    engine = build_engine(get_settings())
    retriever = engine.retriever
    if not retriever.vectors_ready:
        sys.exit("índice vetorial incompleto: rode `python -m pastor index` antes")
    questions = load_questions(path)
    halves = {"autor 1": questions[:split], "autor 2": questions[split:]}
    print(
        "| treino → medição | n | hybrid sem adaptador | hybrid com adaptador | vetor sem | vetor com |\n"
        "|---|---:|---|---|---|---|"
    )
    for source, target in (("autor 1", "autor 2"), ("autor 2", "autor 1")):
        retriever.signal("vector").use_adapter(train(retriever, halves[source]))
        modes = eval_modes(retriever, 10)
        cells = []
        for mode in ("hybrid", "vector"):
            plain = evaluate(lambda q, m=mode: _plain(retriever, q, m), halves[target])
            adapted = evaluate(modes[mode], halves[target])
            cells += [_figure(plain), _figure(adapted)]
        print(f"| {source} → {target} | {len(halves[target])} | {cells[0]} | {cells[1]} | {cells[2]} | {cells[3]} |")


def _plain(retriever, question: str, mode: str) -> list[str]:
    if mode == "hybrid":
        return [h.id for h in retriever.search(question, k=10, gated=False, off={"adapter"}).results]
    off = {"adapter", "lexical", "topic"}
    return [h.id for h in retriever.search(question, k=10, gated=False, off=off, diversify=False).results]


def _figure(result: Evaluation) -> str:
    return f"{result.hit:.3f} / {result.mrr:.3f}"


if __name__ == "__main__":
    main()
