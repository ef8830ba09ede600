"""Benchmark: vocabulary size and tokenize time per stemmer, and BM25-only dev-set figures.

    python -m bench.bench_stemmers [--corpus corpus/por-almeida1911.usfx.xml.gz] [--no-eval]

Prints, for rslp / snowball / none: distinct tokens over the whole corpus and the time to
tokenize it with a cold stemmer cache; then lexical-only retrieval on sets/retrieval/devset.jsonl for
each stemmer, for the stop-word list with and without "nao", and without modernize
(figures only, asserts nothing).
"""

from __future__ import annotations

import argparse
import re
import time
from pathlib import Path

from pastor.bible.usfx import load_bible
from pastor.datasets import dataset
from pastor.evaluation.ranking import evaluate, format_table
from pastor.search.bm25 import LexicalIndex
from pastor.search.questions import Question, load_questions
from pastor.text import normalize as normalize_module
from pastor.text.normalize import _modern_token, fold, normalize
from pastor.text.stemmer import NoStemmer, RSLPStemmer, SnowballStemmer
from pastor.text.stopwords import STOPWORDS

ROOT = Path(__file__).resolve().parent.parent

DEFAULT_CORPUS = ROOT / "corpus" / "por-almeida1911.usfx.xml.gz"  # shipped
STEMMERS = {"rslp": RSLPStemmer, "snowball": SnowballStemmer, "none": NoStemmer}


def vocabulary(texts: list[str]) -> None:
    _modern_token.cache_clear()
    start = time.perf_counter()
    normalized = [normalize(t).split() for t in texts]
    cold = time.perf_counter() - start
    words = [[w for w in ws if w not in STOPWORDS] for ws in normalized]
    start = time.perf_counter()
    for t in texts:
        normalize(t)
    warm = time.perf_counter() - start
    tokens = sum(len(w) for w in words)
    folded = {w for t in texts for w in re.findall(r"[a-z0-9]+", fold(t))}
    print(f"normalize (modernize + fold) corpus: {cold:5.2f} s cold, {warm:5.2f} s warm; {tokens} content tokens")
    print(
        f"distinct words: {len(folded)} folded as written, "
        f"{len({w for ws in normalized for w in ws})} after modernize, "
        f"{len({w for ws in words for w in ws})} without stop-words\n"
    )
    print("| stemmer | distinct tokens | stem the corpus (cold cache) |")
    print("|---|---:|---:|")
    for name, cls in STEMMERS.items():
        stemmer = cls()
        start = time.perf_counter()
        stems = [stemmer.stem_many(ws) for ws in words]
        took = time.perf_counter() - start
        print(f"| {name} | {len({s for ss in stems for s in ss})} | {took:.2f} s |")


def top_50(index: LexicalIndex):
    """A search for `evaluate`: the ids of the index's 50 best BM25 matches of a question."""
    return lambda q: [d for d, _ in index.search(q, 50)]


def dev_eval(ids: list[str], texts: list[str], questions: list[Question]) -> None:
    variants = {f"bm25 {name}": {"stemmer": name} for name in STEMMERS}
    variants["bm25 rslp, 'nao' kept"] = {"stemmer": "rslp", "stopwords": STOPWORDS - {"nao"}}
    results = {}
    for label, options in variants.items():
        results[label] = evaluate(top_50(LexicalIndex(ids, texts, **options)), questions, k=6)
    # The same without the 1911 -> modern spelling step, to see what it buys.
    modernize = normalize_module.modernize
    normalize_module.modernize = lambda text: text
    try:
        index = LexicalIndex(ids, texts, stemmer="rslp")
        results["bm25 rslp, no modernize"] = evaluate(top_50(index), questions, k=6)
    finally:
        normalize_module.modernize = modernize
    print(f"\nlexical only, sets/retrieval/devset.jsonl ({len(questions)} questions):\n")
    print(format_table(results))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--no-eval", action="store_true", help="skip the dev-set evaluation")
    args = parser.parse_args()
    bible = load_bible(args.corpus)
    ids, texts = [v.id for v in bible.verses], [v.text for v in bible.verses]
    print(f"corpus: {args.corpus.name}, {len(texts)} verses\n")
    vocabulary(texts)
    if not args.no_eval:
        dev_eval(ids, texts, load_questions(dataset("retrieval/devset.jsonl")))


if __name__ == "__main__":
    main()
