"""Citation validation: keep only references backed by the turn's sources, removing the rest exactly.

Citations are found on the canonical view of the answer (`pastor.text.canonical`), so a zero-width
space, a decomposed accent, a Cyrillic look-alike or Markdown emphasis inside a book name hides
nothing; each deletion is mapped back to the original text, which is what the page shows."""

from __future__ import annotations

import bisect
from collections.abc import Set
from dataclasses import dataclass, field
from typing import NamedTuple

from pastor.answer_filter.removal import deletions_for
from pastor.answer_filter.shapes import pseudo_references
from pastor.bible.references import find_references
from pastor.documents.refs import DOC_REF_PATTERN
from pastor.text.canonical import Canonical, canonical
from pastor.text.fold import fold

NO_ANCHOR_NOTE = (
    "Observação: esta resposta não citou um versículo específico. Os trechos consultados estão listados abaixo."
)


@dataclass(frozen=True)
class Citation:
    """A kept citation where the reader sees it: its span `[start, end)` in the answer as shown, its
    reference in its own form (`Jo 14.27` reads `João 14:27`) and the verse or document ids it names.
    The page links it from these, never by reading the answer again."""

    start: int
    end: int
    reference: str
    ids: tuple[str, ...]


@dataclass
class ValidationResult:
    text: str
    citations: list[str] = field(default_factory=list)  # canonical verse refs and doc refs kept
    removed: list[str] = field(default_factory=list)  # unsupported citations, as written
    cited_ids: frozenset[str] = frozenset()  # the verse and document ids the kept citations name
    spans: list[Citation] = field(default_factory=list)  # the kept citations, placed in `text`


@dataclass(frozen=True)
class Item:
    """One citation in the canonical text: a verse reference, a document reference or a look-alike."""

    start: int
    end: int
    text: str
    kind: str  # "verse" | "doc" | "pseudo"
    kept: bool

    def shifted(self, offset: int) -> Item:
        return Item(self.start + offset, self.end + offset, self.text, self.kind, self.kept)


class Found(NamedTuple):
    """A citation in a validated text: its span, its label and whether the sources support it."""

    start: int
    end: int
    label: str
    supported: bool
    kind: str = "verse"  # "verse" | "doc" | "pseudo"
    ids: tuple[str, ...] = ()  # the verse ids (or the document id) a supported citation names


# -- finding citations -----------------------------------------------------------------------------
def _supported(match, allowed_verses) -> bool:
    return (
        match.error is None
        and match.reference is not None
        and all(v in allowed_verses for v in match.reference.verse_ids())
    )


def _found(text: str, allowed_verses=frozenset(), allowed_docs=frozenset(), pseudo: bool = True) -> list[Found]:
    """Every citation-shaped span of a (canonical) text, supported or not, in order; without `pseudo`,
    no look-alikes (they are never supported, and a supported citation never depends on them)."""
    found = [
        Found(m.start(), m.end(), m.group(), m.group() in allowed_docs, "doc", (m.group(),))
        for m in DOC_REF_PATTERN.finditer(text)
    ]
    for match in find_references(text):
        if not _overlaps(match.start, match.end, found):
            reference = match.reference if _supported(match, allowed_verses) else None
            found.append(
                Found(
                    match.start,
                    match.end,
                    reference.format() if reference else match.text,
                    reference is not None,
                    ids=tuple(reference.verse_ids()) if reference else (),
                )
            )
    if not pseudo:
        return sorted(found)
    for start, end in pseudo_references(text):
        if not _overlaps(start, end, found):
            found.append(Found(start, end, text[start:end], False, "pseudo"))
    return sorted(found)


def _items(text: str, allowed_verses, allowed_docs) -> list[Item]:
    return [
        Item(f.start, f.end, text[f.start : f.end], f.kind, f.supported)
        for f in _found(text, allowed_verses, allowed_docs)
    ]


def _overlaps(start: int, end: int, spans) -> bool:
    return any(start < s.end and s.start < end for s in spans)


def output_citations(text: str, allowed_verses=frozenset(), allowed_docs=frozenset()) -> list[Found]:
    """Every citation in a validated text (in a correct one, all are supported)."""
    return _found(text, allowed_verses, allowed_docs)


# -- applying deletions -------------------------------------------------------------------------------
@dataclass(frozen=True)
class Output:
    """The text left after the deletions, with where each kept piece came from."""

    text: str
    pieces: tuple[tuple[int, int, int], ...]  # (output start, original start, original end)

    def original(self, pos: int) -> int:
        """Original position of output character `pos`."""
        index = bisect.bisect_right(self.pieces, (pos, float("inf"))) - 1
        out_start, start, _ = self.pieces[index]
        return start + pos - out_start

    def position(self, original: int) -> int:
        """Output length of everything before `original`."""
        index = bisect.bisect_right(self.pieces, original, key=lambda p: p[1]) - 1
        if index < 0:
            return 0
        out_start, start, end = self.pieces[index]
        return out_start + min(original, end) - start

    def junctions(self) -> list[int]:
        """Output positions where something was deleted just before."""
        spots, previous_end = [], 0
        for out_start, start, end in self.pieces:
            if start > previous_end:
                spots.append(out_start)
            previous_end = end
        return spots


def apply(text: str, deletions, limit: int | None = None) -> Output:
    """`text[:limit]` without the deleted spans (overlapping spans merge)."""
    limit = len(text) if limit is None else limit
    parts, pieces, pos, size = [], [], 0, 0
    for start, end in sorted(deletions) + [(limit, limit)]:
        start = min(start, limit)
        if start > pos:
            parts.append(text[pos:start])
            pieces.append((size, pos, start))
            size += start - pos
        pos = max(pos, end)
        if pos >= limit:
            break
    return Output("".join(parts), tuple(pieces))


def original_deletions(view: Canonical, deletions) -> list[tuple[int, int]]:
    """Deletions of the canonical view as spans of the original text."""
    return [view.span(start, end) for start, end in deletions]


def placed(shown: str, allowed_verses, allowed_docs, offset: int = 0) -> list[Citation]:
    """The supported citations of a validated text from `offset` on (a point after a space, outside any
    citation), placed where the reader sees them: read on its canonical view, as the validator reads, and
    widened over the emphasis markers that hug them."""
    view = canonical(shown[offset:])
    spans = []
    for found in _found(view.text, allowed_verses, allowed_docs, pseudo=False):
        if found.supported:
            start, end = view.span(found.start, found.end)
            spans.append(Citation(offset + start, offset + end, found.label, found.ids))
    return spans


def _repair_joins(text: str, deletions: list, allowed_verses, allowed_docs, out_from: int = 0):
    """Deleting can glue text into a new reference (`Jo (Jo 3:17) 3:18` → `Jo 3:18`): drop the
    glued part after the junction, never what precedes it, so released text stays valid."""
    repaired: list[str] = []
    repairs: list[tuple[int, int]] = []
    while deletions:
        out = apply(text, deletions)
        bad = [c for c in output_citations(out.text[out_from:], allowed_verses, allowed_docs) if not c.supported]
        if not bad:
            break
        start, end = bad[0].start + out_from, bad[0].end + out_from
        joint = next((j for j in out.junctions() if start <= j < end), start)
        deletions = deletions + [(out.original(joint), out.original(end - 1) + 1)]
        repaired.append(out.text[start:end])
        repairs.append((out.original(joint), out.original(end - 1) + 1))
    return deletions, repaired, repairs


@dataclass(frozen=True)
class Window:
    """Where planning starts: items before `start` are final, and so is the output before `out`."""

    start: int = 0
    out: int = 0
    items: tuple[Item, ...] = ()


@dataclass(frozen=True)
class Plan:
    """What to delete from a canonical text, and the canonical text that is left."""

    items: tuple[Item, ...]
    deletions: tuple[tuple[int, int], ...]  # sorted spans of the canonical text to drop
    output: Output
    repaired: tuple[str, ...]  # glued references removed after the first pass
    repairs: tuple[tuple[int, int], ...] = ()  # their spans, in the order they were found


def plan(text: str, folded: str, allowed_verses, allowed_docs, window: Window = Window()) -> Plan:
    """Plan the deletions for a canonical text (`folded` is `fold(text)`)."""
    fresh = [i.shifted(window.start) for i in _items(text[window.start :], allowed_verses, allowed_docs)]
    items = list(window.items) + fresh
    deletions = deletions_for(text, folded, items)
    deletions, repaired, repairs = _repair_joins(text, deletions, allowed_verses, allowed_docs, window.out)
    return Plan(tuple(items), tuple(sorted(deletions)), apply(text, deletions), tuple(repaired), tuple(repairs))


def validate(text: str, allowed_verses: Set[str], allowed_docs: Set[str] = frozenset()) -> ValidationResult:
    """Remove every citation the sources do not support; keep the supported ones as written."""
    view = canonical(text)
    planned = plan(view.text, fold(view.text), allowed_verses, allowed_docs)
    kept = output_citations(planned.output.text, allowed_verses, allowed_docs)
    labels = [c.label for c in kept]
    removed = [
        view.slice(i.start, i.end)
        for i in planned.items
        if not i.kept and any(a <= i.start and i.end <= b for a, b in planned.deletions)
    ]
    shown = apply(text, original_deletions(view, planned.deletions)).text
    cited = frozenset(i for c in kept if c.supported for i in c.ids)
    return ValidationResult(
        shown,
        list(dict.fromkeys(labels)),
        removed + list(planned.repaired),
        cited,
        placed(shown, allowed_verses, allowed_docs),
    )
