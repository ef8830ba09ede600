"""Figures on the blind authors' retrieval sets: the verses a pastor opens first found, the ones never opened kept
out of what a person in pain reads first."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pastor.evaluation.ranking import DEPTH, hit_at_k, mrr_at_k, recall_at_k
from pastor.search.pastor_choices import PastorChoice

SHOWN = 6  # the verses a member sees for a message
HARSH_TOP = 3  # a wounding verse in the first three is what a person in pain reads first


@dataclass(frozen=True)
class AuthorFigures:
    """One ranking's figures over an author's messages."""

    n: int
    hit: float  # hit@6
    mrr: float  # MRR@10
    recall: float  # recall@10
    harsh: tuple[int, int]  # (messages with a never-open verse in the top 3, messages of distress counted)


def figures(items: Sequence[PastorChoice], ranked: Callable[[PastorChoice], list[str]]) -> AuthorFigures:
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


def repeats(items: Sequence[PastorChoice], ranked: Callable[[str, tuple[str, ...]], list[str]]) -> tuple[int, int]:
    """(follow-ups whose first six repeat a verse the answer before them showed, follow-ups), with
    `ranked(message, previous)` the app's verses for a message after its previous ones."""
    with_repeat = total = 0
    for item in items:
        if item.previous:
            shown = set(ranked(item.previous[-1], item.previous[:-1])[:SHOWN])
            total += 1
            with_repeat += bool(shown.intersection(ranked(item.message, item.previous)[:SHOWN]))
    return with_repeat, total
