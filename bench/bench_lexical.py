"""Benchmark: BM25 build time and query latency, rank-bm25 vs bm25s (prints figures, asserts nothing).

    python -m bench.bench_lexical [--repeat 5] [--n 50] [--corpus corpus/por-almeida1911.usfx.xml.gz]

Both libraries get the same tokens (pastor.text.normalize.tokenize, RSLP), so the figures compare
the scoring only; `LexicalIndex` adds the query's tokenization on top of rank-bm25.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import numpy as np

from pastor.bible.usfx import load_bible
from pastor.search.bm25 import LexicalIndex
from pastor.text.normalize import tokenize

ROOT = Path(__file__).resolve().parent.parent

DEFAULT_CORPUS = ROOT / "corpus" / "por-almeida1911.usfx.xml.gz"  # shipped

# What people ask: keywords, short questions and long outpourings, with and without accents.
QUERIES = (
    "medo",
    "ansiedade",
    "estou com medo do futuro",
    "não consigo perdoar meu pai",
    "perdi minha mãe e não consigo parar de chorar",
    "oracao nao respondida",
    "Deus amou o mundo de tal maneira",
    "o Senhor é o meu pastor",
    "dívidas e dinheiro",
    "como vencer a tentação",
    "meu casamento está acabando",
    "solidão",
    "luto",
    "tenho raiva do meu irmão",
    "esperança para quem está doente",
    "o que é a fé",
    "vida eterna e ressurreição",
    "amar os inimigos",
    "paciência na espera",
    "orgulho e humildade",
    "justiça e paz",
    "força na fraqueza",
    "inveja",
    "vício em bebida",
    "descanso para a alma",
    "como ser salvo",
    "depressão e tristeza profunda",
    "por que Deus permite o sofrimento",
    "gratidão",
    "to triste demais, nada tem graça",
)


def percentiles(samples: list[float]) -> str:
    ms = sorted(s * 1000 for s in samples)
    p95 = ms[min(len(ms) - 1, int(round(0.95 * (len(ms) - 1))))]
    return f"p50 {statistics.median(ms):7.2f} ms   p95 {p95:7.2f} ms"


def top(scores: np.ndarray, n: int) -> list[int]:
    n = min(n, int(np.count_nonzero(scores > 0)))
    if n == 0:
        return []
    best = np.argpartition(-scores, n - 1)[:n]
    return best[np.argsort(-scores[best], kind="stable")].tolist()


def timed(fn, *args):
    start = time.perf_counter()
    result = fn(*args)
    return result, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--repeat", type=int, default=5, help="rounds over the query list")
    parser.add_argument("--n", type=int, default=50, help="hits per query (the app's candidates)")
    args = parser.parse_args()

    bible = load_bible(args.corpus)
    ids, texts = [v.id for v in bible.verses], [v.text for v in bible.verses]
    print(f"corpus: {args.corpus.name}, {len(ids)} verses; {len(QUERIES)} queries x {args.repeat}")

    # Tokens shared by both libraries.
    docs, took = timed(lambda: [tokenize(t) for t in texts])
    print(f"tokenize corpus (modernize, fold, stop-words, RSLP): {took:6.2f} s")
    queries = [tokenize(q) for q in QUERIES]

    # rank-bm25, as LexicalIndex uses it.
    from rank_bm25 import BM25Okapi

    okapi, took = timed(BM25Okapi, docs)
    print(f"\nrank-bm25 BM25Okapi build:            {took:6.2f} s")
    samples = [
        timed(lambda q: top(okapi.get_scores(q), args.n), q)[1] for _ in range(args.repeat) for q in queries if q
    ]
    print(f"rank-bm25 get_scores + top-{args.n}:        {percentiles(samples)}")

    index, took = timed(LexicalIndex, ids, texts)
    print(f"LexicalIndex build (tokenize + BM25):  {took:6.2f} s")
    samples = [timed(index.search, q, args.n)[1] for _ in range(args.repeat) for q in QUERIES]
    print(f"LexicalIndex.search (with tokenize):   {percentiles(samples)}")

    # bm25s on the same tokens (Robertson's idf, like BM25Okapi; no epsilon floor).
    try:
        import bm25s
    except ImportError:
        print("\nbm25s not installed: skipped")
        return
    fast = bm25s.BM25(k1=1.5, b=0.75, method="robertson")
    _, took = timed(lambda: fast.index(docs, show_progress=False))
    print(f"\nbm25s build:                          {took:6.2f} s")
    vocab = fast.vocab_dict

    def bm25s_top(q):
        known = [t for t in q if t in vocab]
        return top(fast.get_scores(known), args.n) if known else []

    samples = [timed(bm25s_top, q)[1] for _ in range(args.repeat) for q in queries if q]
    print(f"bm25s get_scores + top-{args.n}:            {percentiles(samples)}")

    # Same ranking? (top-10 overlap between the two libraries)
    overlaps = [len(set(top(okapi.get_scores(q), 10)) & set(bm25s_top(q))) / 10 for q in queries if q]
    print(f"top-10 overlap rank-bm25 vs bm25s:     {statistics.mean(overlaps):.0%}")


if __name__ == "__main__":
    main()
