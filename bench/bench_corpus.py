"""Benchmark: full-corpus load time and reference lookup latency (prints figures, asserts nothing).

    python -m bench.bench_corpus [--runs 3] [--repeat 20] [--corpus-dir corpus]

Targets: a corpus loads in under 3 s; a lookup after load takes well under a second.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

from pastor.bible.lookup import lookup
from pastor.bible.usfx import load_bible

ROOT = Path(__file__).resolve().parent.parent

FILES = ("por-almeida1911.usfx.xml.gz", "por-blivre.usfx.xml.gz")  # shipped; plain copies load alike

# What people type: every acceptance form plus ordinary questions with and without references.
QUERIES = (
    "João 3:16",
    "Jo 3.16",
    "1Co 13,4",
    "Salmos 23",
    "Sl 91:1-2",
    "Pv 3:5-6",
    "Mt 5:3,5",
    "Gn 1:1-2:3",
    "Romanos capítulo 8 versículo 28",
    "Apocalipse 21 4",
    "isaias 41 10",
    "Jd 24-25",
    "Jó 1:21",
    "Juízes 6:12",
    "Jz 6:12",
    "Judas 3",
    "João 30:1",
    "Mateus 5:99",
    "Salmos 151",
    "Tobias 1:1",
    "2 Coríntios 13:14",
    "Salmos 119",
    "Sl 119:105",
    "Fp 4:6-7",
    "Fp 4:13",
    "Isaías 40:31",
    "Jr 29:11",
    "Lm 3:22-23",
    "Mt 11:28-30",
    "Mt 6:25-34",
    "Lc 15:11-32",
    "Rm 8:28; 8:38-39",
    "Rm 12:1-2",
    "1 Pedro 5:7",
    "I João 1:9",
    "Primeira Coríntios 13",
    "Hb 11:1",
    "Tg 1:2-4",
    "Ef 2:8-9",
    "Gl 5:22-23",
    "2Tm 1:7",
    "Ap 21:4",
    "Js 1:9",
    "Ec 3:1-8",
    "Ct 8:6-7",
    "Estou ansioso com o trabalho, o que a Bíblia diz?",
    "tenho os 2 filhos e ex 20 pessoas na 3 casa",
    "Leia João 3:16 e 2 Coríntios 5:17, depois Salmos 23 e Rm 8:28.",
    "Meu pastor citou Mateus 5:3-12 e Lucas 6:20-23 no culto de domingo.",
    "Como perdoar alguém que me magoou muito?",
)


def corpus_dir(arg: str | None) -> Path:
    raw = arg or os.environ.get("PASTOR_TEST_CORPUS_DIR") or "corpus"
    path = Path(raw).expanduser()
    return (path if path.is_absolute() else ROOT / path).resolve()


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]


def bench_load(path: Path, runs: int):
    """Load the file `runs` times; return the last Bible and the timings in seconds."""
    timings, bible = [], None
    for _ in range(runs):
        started = time.perf_counter()
        bible = load_bible(path)
        timings.append(time.perf_counter() - started)
    return bible, timings


def bench_lookup(bible, repeat: int) -> list[float]:
    """Per-query latency in milliseconds: the median of `repeat` calls for each query."""
    lookup(QUERIES[0], bible)  # warm-up: compiles the book-name regex once
    latencies = []
    for query in QUERIES:
        calls = []
        for _ in range(repeat):
            started = time.perf_counter()
            lookup(query, bible)
            calls.append((time.perf_counter() - started) * 1000)
        latencies.append(statistics.median(calls))
    return latencies


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="loads per corpus file")
    parser.add_argument("--repeat", type=int, default=20, help="calls per lookup query")
    parser.add_argument("--corpus-dir", help="folder with the USFX files (default: the shipped corpus/)")
    args = parser.parse_args()

    folder = corpus_dir(args.corpus_dir)
    print(f"corpus: {folder}   cpu: {os.cpu_count()}   python {sys.version.split()[0]}")
    print(f"{len(QUERIES)} consultas de referência, {args.repeat} chamadas cada\n")
    for name in FILES:
        path = folder / name
        if not path.is_file():
            print(f"{name}: ausente, ignorado\n")
            continue
        bible, loads = bench_load(path, args.runs)
        latencies = bench_lookup(bible, args.repeat)
        print(f"{name}: {len(bible.verses)} versículos, {path.stat().st_size / 1e6:.1f} MB")
        print(
            f"  carga ({args.runs}x): min {min(loads):.2f} s  mediana {statistics.median(loads):.2f} s  "
            f"máx {max(loads):.2f} s   (meta < 3 s)"
        )
        print(
            f"  lookup: p50 {percentile(latencies, 0.5):.3f} ms  p95 {percentile(latencies, 0.95):.3f} ms  "
            f"máx {max(latencies):.3f} ms   (meta << 1000 ms)"
        )
        slowest = max(range(len(QUERIES)), key=latencies.__getitem__)
        print(f"  mais lenta: {QUERIES[slowest]!r} ({latencies[slowest]:.3f} ms)\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
