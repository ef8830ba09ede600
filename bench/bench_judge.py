"""A blind judge's sheet (issue 31): the top 6 verses the app shows for messages of an author nobody trained on,
and the judge's ratings read back into figures.

    python -m bench.bench_judge sheet sets/authors/retrieval_e.jsonl --n 40 > sheet.jsonl
    python -m bench.bench_judge score ratings.jsonl

The sheet gives each message and its six verses (reference and text, in the reader's default translation) and
nothing else: not the author's lists, not the scores, not which signal found a verse. The judge writes one line
per message: {"id": …, "ratings": [r1, …, r6]} with 0 = not apt, 1 = partly, 2 = apt.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

from pastor.care.router import Router
from pastor.config import get_settings
from pastor.providers.none import NoneProvider
from pastor.search.pastor_choices import load_choices
from pastor.wiring import build_chat, build_engine

SHOWN = 6


def sheet(path: Path, n: int, seed: int) -> int:
    items, _ = load_choices(path)
    picked = random.Random(seed).sample(items, min(n, len(items)))
    settings = get_settings()
    engine = build_engine(settings)
    chat = build_chat(settings, engine, NoneProvider(), router=Router())
    for number, item in enumerate(picked, 1):
        history = [{"role": "user", "content": text} for text in item.previous]
        result = chat.ask(item.message, history).result
        verses = [s for s in result.sources if s.kind == "verse"][:SHOWN]
        row = {
            "id": number,
            "previous": list(item.previous),
            "message": item.message,
            "verses": [{"reference": s.reference, "text": s.text} for s in verses],
        }
        print(json.dumps(row, ensure_ascii=False))
    return 0


def score(path: Path) -> int:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    ratings = [r["ratings"] for r in rows]
    flat = [x for r in ratings for x in r]
    mean = sum(flat) / max(len(flat), 1)
    apt_top3 = sum(any(x == 2 for x in r[:3]) for r in ratings)
    print(
        f"messages: {len(rows)}; verses rated: {len(flat)}; mean rating {mean:.2f} of 2; "
        f"an apt verse (2) in the top 3: {apt_top3}/{len(rows)}"
    )
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    make = commands.add_parser("sheet")
    make.add_argument("file", type=Path)
    make.add_argument("--n", type=int, default=40)
    make.add_argument("--seed", type=int, default=31)
    read = commands.add_parser("score")
    read.add_argument("file", type=Path)
    args = parser.parse_args()
    return sheet(args.file, args.n, args.seed) if args.command == "sheet" else score(args.file)


if __name__ == "__main__":
    sys.exit(main())
