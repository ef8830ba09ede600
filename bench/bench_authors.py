"""Retrieval on the blind authors' sets (issue 31): per author and pooled, per signal and fused — hit@6, MRR@10,
recall@10 against the verses a pastor opens first; how often a verse the author would never open for that person
stands in the top 3 of a message of distress; how many verses a follow-up repeats from the answer before it.

    python -m bench.bench_authors                 # the training authors (role train in datasets/manifest.jsonl)
    python -m bench.bench_authors --held-out      # the held-out author too: once per round, reported as it comes
"""

from __future__ import annotations

import argparse
import functools
import sys

from pastor.answer.followup import searched_without_model
from pastor.answer.history import History, Message
from pastor.config import get_settings
from pastor.datasets import manifest
from pastor.evaluation.authors import SHOWN, AuthorFigures, AuthorItem, figures, load_author
from pastor.evaluation.ranking import eval_modes
from pastor.wiring import build_engine


def author_files(held_out: bool) -> list[tuple[str, object]]:
    roles = ("train", "held_out") if held_out else ("train",)
    return [(e.path, e.file) for e in manifest() if e.path.startswith("authors/") and e.role in roles]


def query(item: AuthorItem) -> str:
    """What the app searches without a model: a follow-up that points back carries the previous question."""
    history = History(tuple(Message("user", text) for text in item.previous))
    return searched_without_model(history, item.message) if item.previous else item.message


def repeats(items: list[AuthorItem], search) -> tuple[int, int, int]:
    """(follow-ups whose top 6 repeats a verse the previous answer showed, follow-ups, verses repeated)."""
    with_repeat = repeated = total = 0
    for item in items:
        if not item.previous:
            continue
        earlier = AuthorItem(
            item.previous[-1], item.previous[:-1], item.need, "plain", item.distress, False, (), (), item.where
        )
        shown = set(search(query(earlier))[:SHOWN])
        now = search(query(item))[:SHOWN]
        common = len(shown.intersection(now))
        total += 1
        with_repeat += common > 0
        repeated += common
    return with_repeat, total, repeated


def row(name: str, mode: str, f: AuthorFigures) -> str:
    harsh, counted = f.harsh
    rate = f"{harsh}/{counted} ({harsh / counted:.1%})" if counted else "—"
    return f"| {name} | {mode} | {f.n} | {f.hit:.3f} | {f.mrr:.3f} | {f.recall:.3f} | {rate} |"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--held-out", action="store_true", help="also the held-out author (once per round)")
    args = parser.parse_args()
    engine = build_engine(get_settings())
    if engine.resources.index is None or not engine.resources.index.ready:
        print("aviso: índice vetorial incompleto; rode `python -m pastor index` antes", file=sys.stderr)
    # Each message is searched once per ranking, for its author's figures and the pooled ones alike.
    modes = {
        mode: functools.lru_cache(maxsize=None)(search) for mode, search in eval_modes(engine.retriever, 10).items()
    }
    pooled: dict[str, list[AuthorItem]] = {}
    print("| author | ranking | n | hit@6 | MRR@10 | recall@10 | never-open verse in top 3 (distress) |")
    print("|---|---|---:|---:|---:|---:|---|")
    follow_ups = []
    for path, file in author_files(args.held_out):
        items, unread = load_author(file)
        if unread:
            print(f"{path}: {len(unread)} referências não lidas (fora da medida): {unread[:3]}", file=sys.stderr)
        for mode, search in modes.items():
            print(row(path.removeprefix("authors/"), mode, figures(items, lambda i, s=search: s(query(i)))))
            pooled.setdefault(mode, []).extend(items)
        follow_ups.append((path, repeats(items, modes["hybrid"])))
    for mode, items in pooled.items():
        print(row("**pooled**", mode, figures(items, lambda i, s=modes[mode]: s(query(i)))))
    print()
    for path, (with_repeat, total, repeated) in follow_ups:
        print(f"{path}: follow-ups repeating a verse already shown: {with_repeat}/{total} ({repeated} verses)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
