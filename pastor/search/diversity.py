"""Source diversity: the k sources shown should not be k verses of one chapter, unless a passage is asked for."""

from __future__ import annotations

import re
from collections.abc import Sequence

from pastor.search.results import Source
from pastor.text.fold import fold

# Words that ask for a passage rather than an answer: then neighbouring verses are the point.
_PASSAGE = re.compile(
    r"\b(capitulo|capitulos|passagem|trecho|historia d[eoa]s?|parabola|narrativa|versiculos seguidos)\b"
)


def wants_passage(question: str) -> bool:
    return bool(_PASSAGE.search(fold(question)))


def chapter_of(hit_id: str) -> str | None:
    """`JHN 3:16` → `JHN 3`; documents (no `:`) have no chapter."""
    head, sep, _ = hit_id.rpartition(":")
    return head if sep and " " in head else None


def spread_chapters(hits: Sequence[Source], slots: int, per_chapter: int) -> list[Source]:
    """Reorder so the first `slots` hits hold at most `per_chapter` verses of any chapter.

    Hits pushed out keep their order after the chosen ones (nothing is dropped), and if the list
    runs short of other chapters the pushed-out hits fill the remaining slots."""
    chosen: list[Source] = []
    deferred: list[Source] = []
    counts: dict[str, int] = {}
    for hit in hits:
        chapter = chapter_of(hit.id)
        if len(chosen) < slots and (chapter is None or counts.get(chapter, 0) < per_chapter):
            chosen.append(hit)
            if chapter is not None:
                counts[chapter] = counts.get(chapter, 0) + 1
        else:
            deferred.append(hit)
    return chosen + deferred
