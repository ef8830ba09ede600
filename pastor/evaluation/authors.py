"""The blind authors' retrieval sets: a person's message, the verses a pastor opens first and never opens."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from pastor.bible.references import find_references
from pastor.evaluation.ranking import DEPTH, hit_at_k, mrr_at_k, recall_at_k

SHOWN = 6  # the verses a member sees for a message
HARSH_TOP = 3  # a wounding verse in the first three is what a person in pain reads first


@dataclass(frozen=True)
class AuthorItem:
    """One line of an author's file, its references read into verse ids."""

    message: str
    previous: tuple[str, ...]  # the person's earlier messages, for a follow-up
    need: str
    form: str  # plain, short, emoji, long, followup, typos
    distress: bool
    asks_for_hard: bool  # the person asked for rebuke, the law, judgement
    open_ids: tuple[str, ...]  # the verses a pastor opens first, best first
    never_ids: tuple[str, ...]  # the verses a pastor never opens for this person
    where: str  # file and line

    @property
    def tone_counts(self) -> bool:
        """Whether this message counts for the tone figure: distress, and no harsh verse asked for."""
        return self.distress and not self.asks_for_hard


def verse_ids(reference: str) -> tuple[str, ...]:
    """The verse ids one written reference covers ("Mateus 11:28-30" → three); () when it names none."""
    matches = [m for m in find_references(reference) if m.reference is not None and not m.error]
    return tuple(v for m in matches for v in m.reference.verse_ids())


def load_author(path: Path) -> tuple[list[AuthorItem], list[str]]:
    """The items of an author's JSONL file and the references that name no verse (listed, then left out)."""
    items, unread = [], []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        row = json.loads(line)
        where = f"{path.name}:{number}"
        ids = {}
        for field in ("open", "never"):
            ids[field] = []
            for reference in row[field]:
                found = verse_ids(reference)
                if not found:
                    unread.append(f"{where} {field}: {reference}")
                ids[field] += [v for v in found if v not in ids[field]]
        items.append(
            AuthorItem(
                row["message"],
                tuple(row.get("previous") or ()),
                row["need"],
                row["form"],
                bool(row["distress"]),
                bool(row["asks_for_hard"]),
                tuple(ids["open"]),
                tuple(ids["never"]),
                where,
            )
        )
    return [i for i in items if i.open_ids], unread


@dataclass(frozen=True)
class AuthorFigures:
    """One ranking's figures over an author's messages."""

    n: int
    hit: float  # hit@6
    mrr: float  # MRR@10
    recall: float  # recall@10
    harsh: tuple[int, int]  # (messages with a never-open verse in the top 3, messages of distress counted)


def figures(items: Sequence[AuthorItem], ranked: Callable[[AuthorItem], list[str]]) -> AuthorFigures:
    """hit@6, MRR@10, recall@10 against the verses opened first, and how often a verse the author would never
    open for that person stands in the top 3 of a message of distress (not asked for)."""
    hits = mrr = recall = 0.0
    harsh = counted = 0
    for item in items:
        ids = ranked(item)
        hits += hit_at_k(ids, item.open_ids, SHOWN)
        mrr += mrr_at_k(ids, item.open_ids, DEPTH)
        recall += recall_at_k(ids, item.open_ids, DEPTH)
        if item.tone_counts:
            counted += 1
            harsh += any(v in item.never_ids for v in ids[:HARSH_TOP])
    n = max(len(items), 1)
    return AuthorFigures(len(items), hits / n, mrr / n, recall / n, (harsh, counted))
