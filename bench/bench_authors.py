"""Retrieval on the blind authors' sets (issue 31): per author and pooled, per signal and fused — hit@6, MRR@10,
recall@10 against the verses a pastor opens first; how often a verse the author would never open for that person
stands in the top 3 of a message of distress; how many follow-ups repeat a verse the answer before them showed.

A training author is measured with the other training authors' choices only (leave one author out); the
held-out author with every training author's, as the app runs.

    python -m bench.bench_authors                 # the training authors (role train in sets/manifest.jsonl)
    python -m bench.bench_authors --held-out      # the held-out author too: once per round, reported as it comes
"""

from __future__ import annotations

import argparse
import functools
import sys
from pathlib import Path

from pastor.answer.followup import searched_without_model
from pastor.answer.history import History, Message
from pastor.care.router import Router
from pastor.config import get_settings
from pastor.datasets import manifest
from pastor.evaluation.authors import AuthorFigures, figures, repeats
from pastor.evaluation.ranking import eval_modes
from pastor.providers.none import NoneProvider
from pastor.search.pastor_choices import PastorChoice, PastorChoices, load_choices
from pastor.wiring import build_chat, build_engine

RANKINGS = ("hybrid", "hybrid − pastores", "vector", "lexical", "topic", "pastors")


def author_files(held_out: bool) -> list[tuple[str, Path]]:
    roles = ("train", "held_out") if held_out else ("train",)
    return [
        (e.path.removeprefix("authors/"), e.file)
        for e in manifest()
        if e.path.startswith("authors/") and e.role in roles
    ]


def query(message: str, previous: tuple[str, ...]) -> str:
    """What the app searches without a model: a follow-up that points back carries the previous question."""
    history = History(tuple(Message("user", text) for text in previous))
    return searched_without_model(history, message) if previous else message


def row(name: str, mode: str, f: AuthorFigures) -> str:
    harsh, counted = f.harsh
    rate = f"{harsh}/{counted} ({harsh / counted:.1%})" if counted else "—"
    return f"| {name} | {mode} | {f.n} | {f.hit:.3f} | {f.mrr:.3f} | {f.recall:.3f} | {rate} |"


def searches_for(engine, file: Path) -> dict:
    """Each ranking's search, with the pastors' signal over every training author but `file`'s."""
    signal, everyone = engine.retriever.signal("pastors"), engine.resources.pastors
    if signal is not None and everyone is not None:
        kept = [c for c in everyone.items if not c.where.startswith(f"{file.name}:")]
        signal.use_choices(PastorChoices(kept, everyone.encode, f"{everyone.key}-{file.name}", everyone.cache_dir))
    modes = eval_modes(engine.retriever, 10, ablation=True)
    return {m: functools.lru_cache(maxsize=None)(modes[m]) for m in RANKINGS if m in modes}


def shown(chat, message: str, previous: tuple[str, ...]) -> list[str]:
    """The verses the app shows for `message` after `previous` (the chat's own path, without a model: a
    verses-only turn keeps the person's question in the conversation, not the answer)."""
    history = [{"role": "user", "content": text} for text in previous]
    return [source.id for source in chat.ask(message, history).result.sources if source.kind == "verse"]


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--held-out", action="store_true", help="also the held-out author (once per round)")
    args = parser.parse_args()
    engine = build_engine(get_settings())
    # No model, the lexicon and rules routing: the follow-ups' figure is about which verses come back.
    chat = build_chat(get_settings(), engine, NoneProvider(), router=Router())
    if engine.resources.index is None or not engine.resources.index.ready:
        print("aviso: índice vetorial incompleto; rode `python -m pastor index` antes", file=sys.stderr)
    print("| author | ranking | n | hit@6 | MRR@10 | recall@10 | never-open verse in top 3 (distress) |")
    print("|---|---|---:|---:|---:|---:|---|")
    pooled: dict[str, list[tuple[PastorChoice, list[str]]]] = {}
    follow_ups = []
    for name, file in author_files(args.held_out):
        items, unread = load_choices(file)
        if unread:
            print(f"{name}: {len(unread)} referências não lidas (fora da medida): {unread[:3]}", file=sys.stderr)
        searches = searches_for(engine, file)
        for mode, search in searches.items():
            ranked = {i: search(query(i.message, i.previous)) for i in items}
            print(row(name, mode, figures(items, ranked.__getitem__)))
            pooled.setdefault(mode, []).extend(ranked.items())
        follow_ups.append((name, repeats(items, lambda message, previous: shown(chat, message, previous))))
    for mode, pairs in pooled.items():
        ranked = dict(pairs)
        print(row("**pooled**", mode, figures(list(ranked), ranked.__getitem__)))
    print()
    ranked = dict(pooled["hybrid"])
    for form in sorted({item.form for item in ranked}):
        items = [item for item in ranked if item.form == form]
        print(row(f"pooled, form {form}", "hybrid", figures(items, ranked.__getitem__)))
    print()
    for name, (with_repeat, total) in follow_ups:
        print(f"{name}: follow-ups whose top 6 repeat a verse already shown: {with_repeat}/{total}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
