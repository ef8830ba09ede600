"""Routing before retrieval: precision and recall per route on any set's dev or held-out split, the crisis bar's
sweep on dev, cross-validation by author of the trained router, and its training and warm-start cost."""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path

import numpy as np

from pastor.care.router import Router
from pastor.datasets import dataset

HERE = Path(__file__).resolve().parent
INDEPENDENT = dataset("routing/routing_set_independent.jsonl")  # written by someone who saw no code, patterns or sets
OLD = dataset("routing/routing_set.jsonl")  # written by the pattern author: kept for comparison
ROUND7 = dataset("routing/routing_set_round7.jsonl")  # rounds 7, 8, 13 and 14: a fresh author's set each, all held-out
ROUND8 = dataset(
    "routing/routing_set_round8.jsonl"
)  # (rounds 3 to 6 and 9 to 12 were run, reported and retired into the
ROUND13 = dataset("routing/routing_set_round13.jsonl")  # training data)
ROUND14 = dataset("routing/routing_set_round14.jsonl")
# The retrieval dev set's questions are pastoral: none of them is a crisis (issue 21, round 3: a quarter of
# them went to the crisis reply by meaning and no routing set showed it).
PASTORAL_DEV = dataset("retrieval/devset.jsonl")
ROUTES = ("crisis", "conversational", "out_of_scope", "ordinary")
# The router does not tell a pastoral question from an off-topic one (the evidence gate does): both are ordinary.
AS_ROUTED = {"pastoral": "ordinary", "off_topic": "ordinary", "other": "ordinary"}


def load(path: Path, split: str) -> list[tuple[str, str, str]]:
    """(gold route as the router sees it, gold route as written, text) of one split."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    picked = []
    for row in rows:
        if row.get("split", "dev") == split:  # a set of one split without the field is a dev set
            written = row.get("route", row.get("mode"))
            picked.append((AS_ROUTED.get(written, written), written, row["text"]))
    return picked


def load_pastoral_dev() -> list[tuple[str, str, str]]:
    """The retrieval dev set's questions, all ordinary for the router."""
    lines = PASTORAL_DEV.read_text(encoding="utf-8").splitlines()
    return [("ordinary", "pastoral", json.loads(line)["question"]) for line in lines if line.strip()]


def pastoral_report(router: Router, show_errors: bool) -> None:
    """How many pastoral questions the router takes away from the search."""
    rows = load_pastoral_dev()
    got = [router.route(text) for _, _, text in rows]
    taken = Counter(g.name for g in got if g.name != "ordinary")
    print(
        f"\npastoral questions (sets/retrieval/devset.jsonl, dev): {len(rows)}; routed away from the search: "
        + (", ".join(f"{name} {n}" for name, n in sorted(taken.items())) or "none")
    )
    if show_errors:
        for (_, _, text), g in zip(rows, got, strict=True):
            if g.name != "ordinary":
                print(f"  {g.name:>14} ({g.by}) {text}")


def unseen(router: Router, rows: list[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
    """The rows whose text `router` was not trained on: a retired held-out set has none, and two blind authors
    sometimes write the same short message ("tchau, fica com Deus", "quanto tá o dólar hoje?")."""
    trained = {e.text for e in router.semantic.examples} if router.semantic else set()
    return [row for row in rows if row[2].strip() not in trained]


def report(router: Router, rows: list[tuple[str, str, str]], title: str, show_errors: bool) -> None:
    fresh = unseen(router, rows)
    if not fresh:
        print(
            f"\n{title}: every message is a training message (a retired held-out set, "
            "sets/notes/routing_training.md): the figures below are the fit, not a test"
        )
    elif len(fresh) < len(rows):
        print(
            f"\n{title}: {len(rows) - len(fresh)} of {len(rows)} messages are also training messages "
            "(sets/notes/routing_training.md); the figures on the other "
            f"{len(fresh)} follow the table"
        )
    got = [router.route(text).name for _, _, text in rows]
    counts = Counter((gold, g) for (gold, _, _), g in zip(rows, got, strict=True))
    print(f"\n{title}: {len(rows)} messages — router: {router.active}")
    print(f"{'route':<15} {'n':>4} {'precision':>9} {'recall':>7}")
    for route in ROUTES:
        true = sum(n for (gold, _), n in counts.items() if gold == route)
        predicted = sum(n for (_, g), n in counts.items() if g == route)
        hit = counts[(route, route)]
        print(f"{route:<15} {true:>4} {hit / predicted if predicted else 0:>9.1%} {hit / true if true else 0:>7.1%}")
    not_crisis = [(written, g) for (gold, written, _), g in zip(rows, got, strict=True) if gold != "crisis"]
    alarms = Counter(written for written, g in not_crisis if g == "crisis")
    total = Counter(written for written, _ in not_crisis)
    print(
        f"false alarms (not crisis → crisis): {sum(alarms.values())}/{len(not_crisis)} "
        f"({sum(alarms.values()) / max(len(not_crisis), 1):.1%}); by written route: "
        + ", ".join(f"{w} {alarms[w]}/{n}" for w, n in sorted(total.items()))
    )
    if show_errors:
        for (gold, written, text), g in zip(rows, got, strict=True):
            if g != gold:
                print(f"  {written:>14} → {g:<14} {text}")
    if fresh and len(fresh) < len(rows):
        seen = {id(row) for row in fresh}  # the rows routed above, not routed again
        kept = [(row, g == "crisis") for row, g in zip(rows, got, strict=True) if id(row) in seen]
        print(f"without the training messages ({len(fresh)}): {_figures(*_counts(kept))}")


def crisis_counts(router: Router, rows: list[tuple[str, str, str]]) -> tuple[int, int, int, int]:
    """(crises found, crises, false alarms, messages that are not a crisis) of `router` on `rows`."""
    return _counts([(row, router.route(row[2]).name == "crisis") for row in rows])


def _counts(routed: list[tuple[tuple[str, str, str], bool]]) -> tuple[int, int, int, int]:
    crisis = [g for (gold, _, _), g in routed if gold == "crisis"]
    alarms = [g for (gold, _, _), g in routed if gold != "crisis"]
    return sum(crisis), len(crisis), sum(alarms), len(alarms)


def crisis_figures(router: Router, rows: list[tuple[str, str, str]]) -> str:
    """Crisis recall and false alarms (not crisis → crisis) of `router` on `rows`."""
    return _figures(*crisis_counts(router, rows))


def _figures(found: int, crises: int, alarms: int, others: int) -> str:
    recall = f"recall {found / crises:.1%} ({found}/{crises}), " if crises else ""
    return f"{recall}false alarms {alarms}/{others} ({alarms / max(others, 1):.1%})"


BARS = (0.8, 0.9, 1.0, 1.1, 1.2, 1.3, 1.4)


def sweep(router: Router, sets: dict[str, list[tuple[str, str, str]]]) -> None:
    """The crisis bar chosen on dev: recall and false alarms for each candidate crisis score, on each dev set."""
    print(
        "crisis bar sweep (crisis score of the trained router): "
        + "; ".join(f"{name} ({len(rows)} messages)" for name, rows in sets.items())
    )
    for bar in BARS:
        router.semantic.crisis_bar = bar
        print(f"  crisis score ≥ {bar:.2f}: " + " | ".join(crisis_figures(router, rows) for rows in sets.values()))


class MemoEmbedder:
    """The app's embedder, remembering every text it embedded: cross-validation embeds each message once."""

    def __init__(self, embedder):
        self.embedder, self.name, self._seen = embedder, embedder.name, {}

    def encode(self, texts):
        missing = [t for t in dict.fromkeys(texts) if t not in self._seen]
        if missing:
            self._seen.update(zip(missing, self.embedder.encode(missing), strict=True))
        return np.array([self._seen[t] for t in texts])


def cross_validate(embedder) -> None:
    """Leave one author out: trained on the project's examples and the other authors' files, measured on
    the one left out (every route, the full router: lexicon, rules and the classifier); then every author's
    figures pooled, per crisis bar."""
    from pastor.care.semantic import CRISIS_SCORE, SemanticRouter, load_examples, training_examples
    from pastor.care.training import load_messages, training_files

    memo = MemoEmbedder(embedder)
    pooled = {bar: np.zeros(4, dtype=int) for bar in BARS}
    worst = {bar: 1.0 for bar in BARS}
    for left_out in training_files():
        kept = [m for path in training_files() if path != left_out for m in load_messages(path)]
        router = Router(SemanticRouter(memo, training_examples(kept)))
        rows = [(AS_ROUTED.get(m.route, m.route), m.route, m.text) for m in load_messages(left_out)]
        print(f"\nleft out {left_out.name} (trained on the project's {len(load_examples())} examples + {len(kept)})")
        for bar in BARS:
            router.semantic.crisis_bar = bar
            counts = crisis_counts(router, rows)
            pooled[bar] += counts
            worst[bar] = min(worst[bar], counts[0] / counts[1]) if counts[1] else worst[bar]
            print(f"  crisis score ≥ {bar:.2f}: {_figures(*counts)}")
        router.semantic.crisis_bar = CRISIS_SCORE
        report(router, rows, f"{left_out.name} at the chosen bar", False)
    print(f"\nevery author left out in turn, pooled (the chosen bar is {CRISIS_SCORE:.2f}):")
    for bar in BARS:
        print(f"  crisis score ≥ {bar:.2f}: {_figures(*pooled[bar])}; the worst author's recall {worst[bar]:.1%}")


def timing(embedder, cache_dir: Path) -> None:
    """Training time with an empty cache, then the start with the cache warm (printed, never asserted)."""
    import shutil
    import tempfile

    from pastor.care.semantic import SemanticRouter
    from pastor.classify.cache import MEMORY

    folder = Path(tempfile.mkdtemp(dir=cache_dir.parent if cache_dir.parent.is_dir() else None))
    try:
        MEMORY.clear()
        cold = SemanticRouter(embedder, cache_dir=folder)
        MEMORY.clear()  # a new process: only the folder is left
        warm = SemanticRouter(embedder, cache_dir=folder)
        print(
            f"trained router: {len(cold.examples)} examples; training with an empty cache "
            f"(embedding them + fitting the heads) {cold.load_seconds:.2f} s; start with the cache warm "
            f"{warm.load_seconds * 1000:.0f} ms (from cache: {warm.from_cache})"
        )
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def everyday_report(router: Router, rows: list[tuple[str, str, str]], paragraphs: Path) -> None:
    """False alarms where nothing is wrong (issue 32): the set's everyday messages, and every prefix (word by
    word) of ordinary paragraphs, what a streamed or cut message looks like."""
    everyday = [text for _, written, text in rows if written == "ordinary"]
    alarms = [text for text in everyday if router.route(text).name == "crisis"]
    print(
        f"\nfalse alarms on the set's ordinary messages: {len(alarms)}/{len(everyday)}"
        + (f" ({len(alarms) / len(everyday):.1%})" if everyday else "")
    )
    for text in alarms:
        print(f"  crisis: {text}")
    texts = [json.loads(line)["text"] for line in paragraphs.read_text(encoding="utf-8").splitlines() if line.strip()]
    prefixes = alarmed = 0
    flagged = []
    for text in texts:
        words = text.split()
        hits = [
            " ".join(words[:n]) for n in range(1, len(words) + 1) if router.route(" ".join(words[:n])).name == "crisis"
        ]
        prefixes += len(words)
        alarmed += len(hits)
        flagged += hits[:1]
    print(
        f"prefixes of {len(texts)} ordinary paragraphs ({paragraphs.name}) routed to crisis: {alarmed}/{prefixes}"
        f" ({alarmed / max(prefixes, 1):.1%}); paragraphs with at least one: {len(flagged)}/{len(texts)}"
    )
    for text in flagged:
        print(f"  first crisis prefix: …{text[-80:]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--split",
        choices=("dev", "held_out"),
        default="dev",
        help="held_out: run once per round, after the changes are frozen, and report it as it comes",
    )
    parser.add_argument("--lexicon-only", action="store_true", help="without the semantic router (as at start-up)")
    parser.add_argument("--errors", action="store_true", help="list the misrouted messages (dev only)")
    parser.add_argument(
        "--sweep",
        action="store_true",
        help="crisis recall and false alarms on dev for several crisis score bars of the trained router",
    )
    parser.add_argument("--cv", action="store_true", help="cross-validation, leaving one training author out")
    parser.add_argument("--timing", action="store_true", help="training time and warm-cache start of the router")
    parser.add_argument(
        "--set",
        type=Path,
        default=INDEPENDENT,
        help=f"the routing set (default {INDEPENDENT.name}; {ROUND7.name}, {ROUND8.name}, {ROUND13.name} "
        f"and {ROUND14.name} only held_out; rounds 3 to 6 and 9 to 12 are training messages now)",
    )
    parser.add_argument(
        "--old", action="store_true", help="also the pattern author's set (sets/routing/routing_set.jsonl)"
    )
    parser.add_argument(
        "--everyday",
        type=Path,
        help="ordinary paragraphs (JSONL with text): false alarms on the set's ordinary messages and on every "
        "prefix of the paragraphs (e.g. sets/routing/everyday_paragraphs.jsonl, held out)",
    )
    args = parser.parse_args()
    semantic = None
    if not args.lexicon_only:
        from pastor.care.semantic import SemanticRouter
        from pastor.classify.cache import CLASSIFIERS_DIR
        from pastor.config import get_settings
        from pastor.search.embedders import load_embedder

        settings = get_settings()
        embedder = load_embedder(settings.embedding_model)
        if args.cv:
            cross_validate(embedder)
            return
        if args.timing:
            timing(embedder, settings.data_dir / CLASSIFIERS_DIR)
            return
        semantic = SemanticRouter(embedder, cache_dir=settings.data_dir / CLASSIFIERS_DIR)
    router = Router(semantic)
    if args.sweep and semantic is not None:
        # Rounds 4, 9 and 10's dev rows are training messages now: `--cv` measures the bar on every author left out.
        dev_sets = {"independent dev": load(INDEPENDENT, "dev"), "own dev": load(OLD, "dev")}
        sweep(router, {**dev_sets, "pastoral dev": load_pastoral_dev()})
        return
    report(router, load(args.set, args.split), f"{args.set.name}, {args.split}", args.errors and args.split == "dev")
    if args.split == "dev":
        pastoral_report(router, args.errors)
    if args.everyday:
        everyday_report(router, load(args.set, args.split), args.everyday)
    if args.old:
        report(router, load(OLD, "dev"), "old set (pattern author), dev", False)
        report(router, load(OLD, "test"), "old set (pattern author), test", False)


if __name__ == "__main__":
    main()
