"""Issue 12, second round: the retrieval ideas measured on the dev set, adopted or not (figures printed).

Usage: PASTOR_CORPUS=… PASTOR_EXTRA_CORPORA=… PASTOR_PROMINENCE=… PASTOR_DATA_DIR=… \
       python -m bench.explore_retrieval [sets/retrieval/devset.jsonl]
Every variant re-fuses cached candidates of the same engine, so only the idea under test changes:
the query side of the vectors (raw / synonym-expanded / pseudo-relevance feedback from topic labels or
from the top fused verses), the topical list's parameters (entries, temperature, re-ranking), fusion depth and
RRF k, per-question-type weights, and a learned re-ranking of the fused top 50 (logistic regression, 5-fold
cross-validation by question; scikit-learn comes with sentence-transformers and is used here only).
Never run it on sets/retrieval/testset.jsonl: that set only reports."""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

import numpy as np

from pastor.config import get_settings
from pastor.evaluation.ranking import hit_at_k, mrr_at_k
from pastor.search.diversity import spread_chapters, wants_passage
from pastor.search.fusion import Candidates, fuse
from pastor.search.questions import load_questions
from pastor.search.results import Source as Hit
from pastor.search.rows import embed_text
from pastor.search.topic_index import rerank_by_cosine
from pastor.text.synonyms import expand
from pastor.wiring import build_engine

DEPTH = 100  # candidates cached per signal


class Lab:
    """One engine, the dev questions and their cached candidates; `fused` re-ranks with given knobs."""

    def __init__(self, path: str):
        self.engine = build_engine(get_settings())
        self.vectors, self.topics = self.engine.resources.index.vectors, self.engine.resources.topics
        # Plain dicts: each question also holds its cached vectors and lists below.
        self.questions = [
            {"question": q.question, "gold": list(q.gold), "topic": q.topic} for q in load_questions(path)
        ]
        encode = self.engine.resources.embedder.encode
        for q in self.questions:
            q["raw"] = encode([embed_text(q["question"])])[0]
            q["exp"] = encode([embed_text(expand(q["question"]))])[0]
            q["lexical"] = self.engine.resources.lexical.search(expand(q["question"]), DEPTH)

    def topic_list(self, q, vector, *, top_entries=12, temperature=0.08, rerank=2.0) -> list:
        topics = self.topics
        sims = topics.entry_scores(vector, q["question"])
        top = np.argpartition(-sims, top_entries - 1)[:top_entries]
        weights = np.exp((sims[top] - sims[top].max()) / temperature)
        scores = topics.weights.combine(top, weights, len(topics.verse_ids)) * topics._boost
        nonzero = np.flatnonzero(scores)
        best = nonzero[np.argsort(-scores[nonzero], kind="stable")[:DEPTH]]
        ranked = [(topics.verse_ids[i], float(scores[i])) for i in best]
        if rerank:
            cosines = self.vectors.scores_for([i for i, _ in ranked], vector)
            ranked = rerank_by_cosine(ranked, cosines, weight=rerank)
        return ranked

    def fused(self, q, lists, *, weights, k=120, depth=30, lam=0.01) -> list[Hit]:
        prior = (
            (lambda i: self.engine.resources.prominence.prior(i, lam))
            if lam and self.engine.resources.prominence
            else None
        )
        return fuse(
            [Candidates(name, weights.get(name, 1.0), ranked[:depth]) for name, ranked in lists.items()],
            k=k,
            prior=prior,
        )

    def ids(self, q, hits: list[Hit]) -> list[str]:
        if not wants_passage(q["question"]):
            hits = spread_chapters(hits, 6, 2)
        return [h.id for h in hits]

    def score(self, rankings, questions=None) -> str:
        questions = questions or self.questions
        hit = np.mean([hit_at_k(r, q["gold"], 6) for r, q in zip(rankings, questions, strict=False)])
        mrr = np.mean([mrr_at_k(r, q["gold"], 10) for r, q in zip(rankings, questions, strict=False)])
        return f"{hit:.3f} / {mrr:.3f}"


def unit(v: np.ndarray) -> np.ndarray:
    return v / np.linalg.norm(v)


def query_side(lab: Lab) -> None:
    print("\n## Query side of the vectors (hit@6 / MRR@10: vector alone, fused)")
    label_prf = {}
    for q in lab.questions:  # the question averaged with its 6 best topic labels (softmax-weighted)
        sims = lab.topics.entry_scores(q["raw"], q["question"])
        top = np.argsort(-sims)[:6]
        w = np.exp((sims[top] - sims[top].max()) / 0.08)
        label_prf[q["question"]] = (w / w.sum()) @ lab.topics.vectors[top]
    variants = {
        "raw question": lambda q: q["raw"],
        "expanded question": lambda q: q["exp"],
        "raw + expanded, averaged": lambda q: unit(q["raw"] + q["exp"]),
        "raw + 0.3 × topic labels": lambda q: unit(q["raw"] + 0.3 * label_prf[q["question"]]),
        "raw + 0.6 × topic labels": lambda q: unit(q["raw"] + 0.6 * label_prf[q["question"]]),
    }
    for name, make in variants.items():
        alone, fused = [], []
        for q in lab.questions:
            vector = make(q)
            vec = lab.vectors.vector_search(vector, DEPTH)
            alone.append([i for i, _ in vec])
            lists = {"vector": vec, "lexical": q["lexical"], "topic": lab.topic_list(q, vector)}
            fused.append(lab.ids(q, lab.fused(q, lists, weights={"vector": 1, "lexical": 1, "topic": 1.5})))
        print(f"| {name} | {lab.score(alone)} | {lab.score(fused)} |")


def cached_lists(lab: Lab) -> list[dict]:
    return [
        {
            "vector": lab.vectors.vector_search(q["exp"], DEPTH),
            "lexical": q["lexical"],
            "topic": lab.topic_list(q, q["exp"]),
        }
        for q in lab.questions
    ]


def rocchio(lab: Lab, lists: list[dict]) -> None:
    print("\n## Rocchio: the expanded question + β × centroid of the n best fused verses (fused)")
    lab.vectors.scores_for([lab.vectors.ids[0]], lab.questions[0]["exp"])  # builds the id → rows map
    for n, beta in itertools.product([3, 5, 10], [0.3, 0.6, 1.0]):
        out = []
        for q, base in zip(lab.questions, lists, strict=True):
            first = [h.id for h in lab.fused(q, base, weights={"vector": 1, "lexical": 1, "topic": 1.5})[:n]]
            centroid = np.mean([lab.vectors.matrix[lab.vectors._rows[i]].mean(0) for i in first], 0)
            vector = unit(q["exp"] + beta * unit(centroid))
            out.append(
                lab.ids(
                    q,
                    lab.fused(
                        q,
                        {**base, "vector": lab.vectors.vector_search(vector, DEPTH)},
                        weights={"vector": 1, "lexical": 1, "topic": 1.5},
                    ),
                )
            )
        print(f"| n {n}, β {beta} | {lab.score(out)} |")


def topic_grid(lab: Lab, lists: list[dict]) -> None:
    print("\n## Topical list: entries kept, softmax temperature, cosine re-ranking weight (topic alone, fused)")
    for top_entries, temperature, rerank in itertools.product([6, 12, 20, 40], [0.04, 0.08, 0.15], [0, 2.0, 4.0]):
        alone, fused = [], []
        for q, base in zip(lab.questions, lists, strict=True):
            topic = lab.topic_list(q, q["exp"], top_entries=top_entries, temperature=temperature, rerank=rerank)
            alone.append([i for i, _ in topic])
            fused.append(
                lab.ids(q, lab.fused(q, {**base, "topic": topic}, weights={"vector": 1, "lexical": 1, "topic": 1.5}))
            )
        print(
            f"| entries {top_entries}, temperature {temperature}, re-rank {rerank} | {lab.score(alone)} "
            f"| {lab.score(fused)} |"
        )


def fusion_grid(lab: Lab, lists: list[dict]) -> None:
    print("\n## Fusion: depth per signal, RRF k, topic and lexical weights, λ (best 10 by hit@6 + MRR)")
    rows = []
    for depth, k, wl, wt, lam in itertools.product(
        [30, 60], [60, 120], [0.5, 1.0], [1.0, 1.5, 2.0], [0.01, 0.015, 0.02]
    ):
        out = [
            lab.ids(q, lab.fused(q, base, weights={"vector": 1, "lexical": wl, "topic": wt}, k=k, depth=depth, lam=lam))
            for q, base in zip(lab.questions, lists, strict=True)
        ]
        rows.append((lab.score(out), depth, k, wl, wt, lam))
    for figures, *params in sorted(rows, key=lambda r: -sum(map(float, r[0].split(" / "))))[:10]:
        print(
            f"| depth {params[0]}, k {params[1]}, lexical {params[2]}, topic {params[3]}, λ {params[4]} | {figures} |"
        )


def per_type(lab: Lab, lists: list[dict]) -> None:
    print("\n## Per question type: the defaults and the best weights of each type (fused)")

    def kind(q):
        words = len(q["question"].split())
        return "keyword (1–2 words)" if words <= 2 else "long (10+ words)" if words >= 10 else "short"

    for name in ("keyword (1–2 words)", "short", "long (10+ words)"):
        pairs = [(q, base) for q, base in zip(lab.questions, lists, strict=True) if kind(q) == name]
        qs = [q for q, _ in pairs]
        rows = []
        for wv, wl, wt in itertools.product([0.5, 1.0, 1.5], [0.5, 1.0, 1.5], [1.0, 1.5, 2.0, 3.0]):
            out = [
                lab.ids(q, lab.fused(q, base, weights={"vector": wv, "lexical": wl, "topic": wt})) for q, base in pairs
            ]
            rows.append((lab.score(out, qs), (wv, wl, wt)))
        default = next(s for s, w in rows if w == (1.0, 1.0, 1.5))
        best = max(rows, key=lambda r: sum(map(float, r[0].split(" / "))))
        print(f"| {name} ({len(qs)}) | defaults {default} | best {best[0]} at vector/lexical/topic {best[1]} |")


def features(lab: Lab, q, base: dict, pool_size=50) -> tuple[list[str], np.ndarray]:
    """Per candidate of the fused top 50: signal ranks and scores, cosine, prior, topical centrality."""
    fused = lab.fused(q, base, weights={"vector": 1, "lexical": 1, "topic": 1.5})[:pool_size]
    pool = [h.id for h in fused]
    rank = {name: {i: r for r, (i, _) in enumerate(ranked, 1)} for name, ranked in base.items()}
    bm25 = dict(base["lexical"])
    top_bm25 = max(bm25.values(), default=1.0) or 1.0
    cosine = lab.vectors.scores_for(pool, q["exp"])
    best_cosine = max(cosine.values(), default=0.0)
    words = len(q["question"].split())
    rows = []
    for position, i in enumerate(pool, 1):
        row = [60 / (60 + rank[name].get(i, 200)) for name in ("vector", "lexical", "topic")]
        row += [float(i in rank[name]) for name in ("vector", "lexical", "topic")]
        row += [
            bm25.get(i, 0.0) / top_bm25,
            cosine.get(i, 0.0),
            cosine.get(i, 0.0) - best_cosine,
            np.log1p(lab.engine.resources.prominence.in_votes(i)),
            60 / (60 + position),
            float(words <= 2),
            float(words >= 10),
        ]
        rows.append(row)
    return pool, np.array(rows)


def learned_rerank(lab: Lab, lists: list[dict]) -> None:
    from sklearn.linear_model import LogisticRegression

    print("\n## Learned re-ranking of the fused top 50 (5-fold cross-validation by question)")
    data = [features(lab, q, base) for q, base in zip(lab.questions, lists, strict=True)]
    labels = [
        np.array([float(i in set(q["gold"])) for i in pool]) for (pool, _), q in zip(data, lab.questions, strict=True)
    ]
    everyone = np.arange(len(data))

    def ranked(j, scores):
        pool = data[j][0]
        return lab.ids(lab.questions[j], [Hit(pool[o]) for o in np.argsort(-scores, kind="stable")])

    print(f"| fused order (no re-ranking) | {lab.score([ranked(j, data[j][1][:, 10]) for j in everyone])} |")
    for c, seed in itertools.product([1.0, 0.1], [0, 1]):
        out = [None] * len(data)
        for fold in np.array_split(np.random.default_rng(seed).permutation(len(data)), 5):
            train = np.setdiff1d(everyone, fold)
            model = LogisticRegression(C=c, max_iter=2000).fit(
                np.vstack([data[j][1] for j in train]), np.concatenate([labels[j] for j in train])
            )
            for j in fold:
                out[j] = ranked(j, model.predict_proba(data[j][1])[:, 1])
        print(f"| logistic regression, C {c}, split seed {seed} | {lab.score(out)} |")


def main() -> None:
    path = sys.argv[1] if len(sys.argv) > 1 else "sets/retrieval/devset.jsonl"
    if "testset" in Path(path).name:
        sys.exit("o conjunto de teste só mede: explore no dev")
    lab = Lab(path)
    print(f"{len(lab.questions)} perguntas de {path}")
    query_side(lab)
    lists = cached_lists(lab)
    rocchio(lab, lists)
    topic_grid(lab, lists)
    fusion_grid(lab, lists)
    per_type(lab, lists)
    learned_rerank(lab, lists)


if __name__ == "__main__":
    main()
