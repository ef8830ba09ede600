"""Retrieval benchmarks: index build time and peak RSS, restart-to-ready, search latency, gates.

Usage (figures are printed; nothing is asserted), with the defaults (Almeida 1911 + Bíblia Livre + prior)
or any other setup given by the usual variables:
  [PASTOR_CORPUS=…] [PASTOR_EXTRA_CORPORA=…] [PASTOR_PROMINENCE=…] python -m bench.bench_retrieval \
      [--build] [--data-dir DIR]
--build rebuilds the index from scratch in a subprocess (time + peak RSS of that process); without it
an existing index in DIR (default: PASTOR_DATA_DIR) is used."""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(code: str, env: dict) -> tuple[float, float, str, float]:
    """Run python code in a fresh process: (wall seconds, peak RSS MB of that child, stdout, CPU seconds).

    CPU seconds (user + system of the child) say what the work costs when the machine is busy with
    other jobs, where wall time says mostly how busy it was."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - started
    if out.returncode != 0:
        sys.exit(out.stderr[-2000:])
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return wall, max(after.ru_maxrss, before.ru_maxrss) / 1024, out.stdout, cpu


def percentile(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q / 100 * (len(values) - 1))))]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--build", action="store_true")
    parser.add_argument("--data-dir", default=os.environ.get("PASTOR_DATA_DIR", "data"))
    parser.add_argument("--gates-only", action="store_true", help="only the evidence gates' figures")
    parser.add_argument(
        "--sweep",
        action="store_true",
        help="with --gates-only: the dev figures for several bars of the pastoral scope by meaning",
    )
    parser.add_argument(
        "--held-out",
        action="store_true",
        help="also the held-out sets (testset, offtopic_test, the independent routing set's "
        "held_out): once per round, after the changes are frozen",
    )
    args = parser.parse_args()
    env = {**os.environ, "PASTOR_DATA_DIR": args.data_dir, "PASTOR_DOCS_DIR": ""}
    if args.gates_only:
        os.environ.update(env)
        from pastor.config import get_settings
        from pastor.wiring import build_engine

        engine = build_engine(get_settings())
        if args.sweep:
            sweep_scope(engine)
            return
        gates(engine, args.held_out)
        return

    if args.build:
        code = (
            "from pastor.config import get_settings; from pastor.wiring import build_engine;"
            "r = build_engine(get_settings()).resources; s = r.index.build(r.bible, r.extras, rebuild=True);"
            "print(s.rows, s.manifest.get('build_seconds'))"
        )
        wall, rss, out, cpu = run(code, env)
        rows, seconds = out.split()
        print(
            f"index build: {rows} rows, {seconds} s embedding+writing, {wall:.1f} s process "
            f"({cpu:.1f} s CPU), peak RSS {rss:.0f} MB"
        )
        code = (
            (
                "import shutil, time; from pastor.config import get_settings; from pastor.wiring import build_engine;"
                "r = build_engine(get_settings()).resources; shutil.rmtree(r.topics.dir, ignore_errors=True);"
                "t = time.perf_counter(); r.topics.build(r.bible); "
                "print(len(r.topics.labels), round(time.perf_counter() - t, 1))"
            )
            if os.environ.get("PASTOR_TOPICS", "x")
            else None
        )
        if code:
            wall, rss, out, _ = run(code, env)
            entries, seconds = out.split()
            print(
                f"topic index build: {entries} labels embedded in {seconds} s, {wall:.1f} s process, "
                f"peak RSS {rss:.0f} MB"
            )

    # Restart with an unchanged index: a fresh process until search is ready (vectors + BM25).
    code = (
        "import time; t = time.perf_counter();"
        "from pastor.config import get_settings; from pastor.wiring import build_engine;"
        "e = build_engine(get_settings()); assert e.retriever.vectors_ready, e.status();"
        "e.retriever.search('estou com medo do futuro');"
        "print(round(time.perf_counter() - t, 2))"
    )
    wall, rss, out, _ = run(code, env)
    print(f"restart to ready (in-process): {out.strip()} s; whole process {wall:.1f} s; peak RSS {rss:.0f} MB")

    # Search latency over the dev set, in this process.
    os.environ.update(env)
    from pastor.config import get_settings
    from pastor.search.questions import load_questions
    from pastor.search.signals import Query
    from pastor.wiring import build_engine

    engine = build_engine(get_settings())
    questions = [q.question for q in load_questions(ROOT / "sets" / "retrieval" / "devset.jsonl")]
    for q in questions[:5]:
        engine.retriever.search(q)  # warm-up
    timings = {"search": [], "embed": [], "bm25": [], "topics": []}
    for q in questions:
        t = time.perf_counter()
        engine.retriever.search(q)
        timings["search"].append((time.perf_counter() - t) * 1000)
        t = time.perf_counter()
        vector = engine.retriever.encoder.vector(q)
        timings["embed"].append((time.perf_counter() - t) * 1000)
        query = Query(q, engine.retriever.encoder.words(q), vector=vector)
        t = time.perf_counter()
        engine.retriever.signal("lexical").candidates(query, engine.retriever.config.candidates)
        timings["bm25"].append((time.perf_counter() - t) * 1000)
        t = time.perf_counter()
        engine.retriever.signal("topic").candidates(query, engine.retriever.config.candidates)
        timings["topics"].append((time.perf_counter() - t) * 1000)
    for name, values in timings.items():
        print(f"{name}: p50 {percentile(values, 50):.1f} ms, p95 {percentile(values, 95):.1f} ms (n={len(values)})")

    gates(engine, args.held_out)


def _jsonl(name: str) -> list[dict]:
    from pastor.datasets import dataset

    folder = "routing" if name.startswith("routing_set") else "retrieval"
    path = dataset(f"{folder}/{name}")
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _gate_sets(held_out: bool) -> list[tuple[str, str, list[str]]]:
    """(route, name, questions): pastoral and off-topic, the dev sets and, with `held_out`, the held-out ones."""
    sets = [
        ("pastoral", "devset.jsonl (dev)", [q["question"] for q in _jsonl("devset.jsonl")]),
        ("off_topic", "offtopic_dev.jsonl (dev)", [q["question"] for q in _jsonl("offtopic_dev.jsonl")]),
    ]
    if held_out:
        sets += [
            ("pastoral", "testset.jsonl (held-out)", [q["question"] for q in _jsonl("testset.jsonl")]),
            ("off_topic", "offtopic_test.jsonl (held-out)", [q["question"] for q in _jsonl("offtopic_test.jsonl")]),
        ]
    independent = _jsonl("routing_set_independent.jsonl")
    for split in ("dev", "held_out") if held_out else ("dev",):
        for route in ("pastoral", "off_topic"):
            texts = [r["text"] for r in independent if r["route"] == route and r["split"] == split]
            sets.append((route, f"routing_set_independent.jsonl {route} ({split})", texts))
    # Rounds 3 to 6 were run, reported and retired into the training data (route_training/PROVENANCE.md): the
    # scope learns from their pastoral and off-topic rows, so they measure nothing here any more.
    # Rounds 9 to 12 were run, reported and retired into the training data too.
    for name in (
        (
            "routing_set_round7.jsonl",
            "routing_set_round8.jsonl",
            "routing_set_round13.jsonl",
            "routing_set_round14.jsonl",
        )
        if held_out
        else ()
    ):
        rows = _jsonl(name)  # rounds 7, 8, 13 and 14: a fresh author's set each, all held-out
        for route in ("pastoral", "off_topic"):
            sets.append((route, f"{name} {route} (held_out)", [r["text"] for r in rows if r["route"] == route]))
    return sets


def sweep_scope(engine) -> None:
    """The pastoral scope's P(pastoral) bar chosen on dev: pastoral answered and off-topic refused for each
    candidate."""
    assert engine.retriever.vectors_ready and engine.retriever.scope is not None, "índice e escopo semântico prontos"
    from pastor.search.assembly import build_retriever  # after the environment is set, as main's imports

    sets = _gate_sets(False)
    scope = engine.retriever.scope  # its P(pastoral) bar is the knob swept; the last row searches without it
    for bar in (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, None):
        retriever = engine.retriever
        if bar is None:
            config, label = engine.retriever.config.replace(scope_classifier=False), "vocabulary only"
            retriever = build_retriever(config, engine.resources.signal_inputs(engine.retriever.adapter))
        else:
            scope.threshold, label = bar, f"P(pastoral) ≥ {bar:.1f}"
        figures = []
        for route, name, questions in sets:
            refused = sum(retriever.search(q).mode == "no_evidence" for q in questions)
            share = 1 - refused / len(questions) if route == "pastoral" else refused / len(questions)
            figures.append(f"{name.split(' ')[0].replace('.jsonl', '')} {route} {share:.1%}")
        print(f"{label}: " + "; ".join(figures))


# The messages issue 21 names as turned away with the no-evidence reply.
NAMED = (
    "não consigo largar a bebida, sempre volto",
    "me sinto um lixo, inútil",
    "provações e lutas",
    "estou desempregado há oito meses",
    "tenho vergonha do meu passado",
)


def gates(engine, held_out: bool) -> None:
    """Pastoral questions answered and off-topic ones refused (no_evidence), on dev and held-out sets."""
    assert engine.retriever.vectors_ready, "o índice vetorial não está pronto: rode `python -m pastor index`"
    print("issue 21's named messages: " + "; ".join(f"{q} → {engine.retriever.search(q).mode}" for q in NAMED))
    pooled = Counter()  # (route, split) → [right, total]: the targets are on all held-out questions together
    for route, name, questions in _gate_sets(held_out):
        modes = [engine.retriever.search(q).mode for q in questions]
        refused = [q for q, m in zip(questions, modes, strict=True) if m == "no_evidence"]
        right = len(questions) - len(refused) if route == "pastoral" else len(refused)
        what = "pastoral answered" if route == "pastoral" else "off-topic refused"
        print(f"gates on {name}: {what} {right / len(questions):.1%} (n={len(questions)})")
        split = "held-out" if "held" in name else "dev"
        pooled[(what, split, "right")] += right
        pooled[(what, split, "total")] += len(questions)
        if route == "pastoral" and "dev" in name:
            for question in refused:
                print(f"    refused: {question}")
    for what in ("pastoral answered", "off-topic refused"):
        for split in ("dev", "held-out"):
            right, total = pooled[(what, split, "right")], pooled[(what, split, "total")]
            if total:
                print(f"all {split} sets: {what} {right / total:.1%} ({right}/{total})")


if __name__ == "__main__":
    main()
