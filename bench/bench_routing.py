"""Routing before retrieval: precision and recall of crisis, conversational and other messages."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from pastor.answer.safety import detect_crisis  # noqa: E402
from pastor.text.smalltalk import is_conversational  # noqa: E402

SET = Path(__file__).resolve().parent / "routing_set.jsonl"
MODES = ("crisis", "conversational", "other")


def route(text: str) -> str:
    """The order of a chat turn: crisis first, then conversation, then everything else."""
    if detect_crisis(text) is not None:
        return "crisis"
    return "conversational" if is_conversational(text) else "other"


def report(rows: list[dict], split: str, show_errors: bool) -> None:
    pairs = [(row["mode"], route(row["text"])) for row in rows if row["split"] == split]
    counts = Counter(pairs)
    print(f"\n{split}: {len(pairs)} messages")
    print(f"{'mode':<15} {'n':>3} {'precision':>9} {'recall':>7}")
    for mode in MODES:
        true = sum(n for (gold, _), n in counts.items() if gold == mode)
        predicted = sum(n for (_, got), n in counts.items() if got == mode)
        hit = counts[(mode, mode)]
        precision = hit / predicted if predicted else 0.0
        recall = hit / true if true else 0.0
        print(f"{mode:<15} {true:>3} {precision:>9.1%} {recall:>7.1%}")
    other = sum(n for (gold, _), n in counts.items() if gold == "other")
    print(f"pastoral questions routed to crisis: {counts[('other', 'crisis')]}/{other} "
          f"({counts[('other', 'crisis')] / max(other, 1):.1%})")
    if show_errors:
        for row in rows:
            got = route(row["text"])
            if row["split"] == split and got != row["mode"]:
                print(f"  {row['mode']:>14} → {got:<14} {row['text']}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--errors", action="store_true", help="list the misrouted dev messages")
    args = parser.parse_args()
    rows = [json.loads(line) for line in SET.read_text(encoding="utf-8").splitlines() if line.strip()]
    report(rows, "dev", args.errors)
    report(rows, "test", False)  # held out: never look at its errors while tuning


if __name__ == "__main__":
    main()
