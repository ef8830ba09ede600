"""Follow-ups without a model (issue 22): hit@6 and MRR@10 of a follow-up searched alone, searched with the
previous question (what the chat does when no model can rewrite), and of the previous question alone.

Usage (figures are printed; nothing is asserted), on the built index of PASTOR_DATA_DIR (default data/):
  python -m bench.bench_followups              # the dev split (tune on this one only)
  python -m bench.bench_followups --held-out   # the held_out split: once per round, after changes are frozen

The set (`sets/retrieval/followup_pairs.jsonl`, written blind: see bench/README.md) pairs a first message with a
follow-up that only makes sense after it, and the verses a pastor would open for the follow-up in that
context. What a perfect rewrite would find is unknown; the previous question alone is the reference
the combination should at least reach. Searches run as the app runs them (gates on, k=10)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

PAIRS = ROOT / "sets" / "retrieval" / "followup_pairs.jsonl"
DEVSET = ROOT / "sets" / "retrieval" / "devset.jsonl"


def load_pairs(split: str) -> list[dict]:
    pairs = [json.loads(line) for line in PAIRS.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [p for p in pairs if p["split"] == split]


def variants(previous: str, message: str) -> dict[str, str]:
    """The query each way of searching sends for one message after `previous`."""
    from pastor.answer.followup import searched_without_model, with_previous
    from pastor.answer.history import History, Message

    history = History((Message("user", previous), Message("assistant", "…")))
    return {
        "follow-up alone": message,
        "with previous (the app, no model)": searched_without_model(history, message),
        "with previous, always": with_previous(history, message),
        "previous alone (reference)": previous,
    }


def new_subjects() -> list[tuple[str, dict]]:
    """The cost side: dev-set questions that stand alone, each asked after the previous dev question of
    another topic (joining them to it can only hurt). sets/retrieval/devset.jsonl is a dev set: tuning may
    see it."""
    questions = [json.loads(line) for line in DEVSET.read_text(encoding="utf-8").splitlines() if line.strip()]
    return [
        (questions[i - 1]["question"], questions[i])
        for i in range(1, len(questions))
        if questions[i - 1].get("topic") != questions[i].get("topic")
    ]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--held-out", action="store_true", help="the held_out split instead of dev (run once)")
    parser.add_argument("--misses", action="store_true", help="list the pairs the app's query misses (dev only)")
    args = parser.parse_args()
    split = "held_out" if args.held_out else "dev"
    os.environ.setdefault("PASTOR_DOCS_DIR", "")
    from pastor.config import get_settings
    from pastor.evaluation.ranking import evaluate, format_table
    from pastor.search.modes import SearchMode
    from pastor.search.questions import Question
    from pastor.wiring import build_engine

    engine = build_engine(get_settings())
    if not engine.retriever.vectors_ready:
        sys.exit("o índice vetorial não está completo nesta pasta de dados: rode `python -m pastor index`")
    pairs = load_pairs(split)
    searched: dict[str, list[str]] = {}  # query → ranked ids (queries repeat across variants)
    refused: dict[str, int] = {}

    def search(query: str) -> list[str]:
        if query not in searched:
            result = engine.retriever.search(query, k=10)
            searched[query] = [h.id for h in result.results]
            refused[query] = int(result.mode == SearchMode.NO_EVIDENCE)
        return searched[query]

    names = list(variants("", ""))
    app = names[1]
    results, no_evidence = {}, {}
    for name in names:
        questions = [Question(variants(p["previous"], p["followup"])[name], tuple(p["gold"])) for p in pairs]
        results[name] = evaluate(search, questions, k=6)
        no_evidence[name] = sum(refused[q.question] for q in questions)
    joined = sum(variants(p["previous"], p["followup"])[app] != p["followup"] for p in pairs)
    print(
        f"split {split}: {len(pairs)} pares; sem modelo, o chat juntou a pergunta anterior em {joined} de {len(pairs)}"
    )
    print(format_table(results))
    print("sem evidência (resposta fixa): " + "; ".join(f"{n}: {count}" for n, count in no_evidence.items()))
    cost = {}
    subjects = new_subjects()
    for name in names[:3]:
        cost[name] = evaluate(
            search,
            [Question(variants(prev, item["question"])[name], tuple(item["gold"])) for prev, item in subjects],
            k=6,
        )
    joined = sum(variants(prev, item["question"])[app] != item["question"] for prev, item in subjects)
    print(f"\ncusto: {len(subjects)} perguntas novas (devset.jsonl) depois de outra; o chat juntou {joined}")
    print(format_table(cost))
    print("(p50/p95: a query repeated across rows comes from a cache; latency is bench_retrieval.py's figure)")
    if args.misses and not args.held_out:
        for pair in pairs:
            query = variants(pair["previous"], pair["followup"])[app]
            if not set(search(query)[:6]) & set(pair["gold"]):
                print(f"- {pair['followup']!r} ← {pair['previous'][:60]!r}: {search(query)[:6]}")


if __name__ == "__main__":
    main()
