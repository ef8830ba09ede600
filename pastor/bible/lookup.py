"""Resolve the references written in a text against a loaded Bible, with caps on the work done."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pastor.bible.references import Reference, find_references, format_verse_id
from pastor.bible.unmatched import Unmatched, explain

# One request must never produce unbounded work: "Sl 1-150" written 500 times is 1.2 million
# verses. Distinct references and verses beyond these caps are left out, with a note saying so.
MAX_REFERENCES = 10
MAX_VERSES = 200


@dataclass(frozen=True)
class VerseText:
    """One verse a reference names: its id (`JHN 3:16`), its reference as read (`João 3:16`) and its text."""

    id: str
    reference: str
    text: str


@dataclass(frozen=True)
class Passage:
    """A reference found in the text, in its canonical form, and the verses it names (capped)."""

    reference: str
    verses: tuple[VerseText, ...]


@dataclass(frozen=True)
class Lookup:
    """What `lookup` resolved: the passages, what named none (and why), and a note when the caps left some out."""

    references: tuple[Passage, ...] = ()
    not_found: tuple[Unmatched, ...] = ()
    note: str = ""  # Portuguese, only when references or verses beyond the caps were left out

    @property
    def found(self) -> bool:
        return bool(self.references)

    @property
    def truncated(self) -> bool:
        return bool(self.note)

    def as_dict(self) -> dict[str, Any]:
        """The CLI's `lookup --json` and the API's `/lookup` shape: found, references, not_found, and
        `truncated` and `note` only when something was left out (the plain shape stays as it was)."""
        shape: dict[str, Any] = {
            "found": self.found,
            "references": [
                {
                    "reference": passage.reference,
                    "verses": [{"id": v.id, "reference": v.reference, "text": v.text} for v in passage.verses],
                }
                for passage in self.references
            ],
            "not_found": [{"text": n.text, "reason": n.reason} for n in self.not_found],
        }
        if self.truncated:
            shape.update(truncated=True, note=self.note)
        return shape


def lookup(
    text: str, bible, *, max_references: int = MAX_REFERENCES, max_verses: int = MAX_VERSES, explain_all: bool = False
) -> Lookup:
    """Resolve every reference in `text` (the CLI/API `lookup` contract), repeated ones once.

    When something was left out the result has a Portuguese `note` (and is `truncated`).
    `explain_all` (the CLI and API, where the whole text is meant as references) also says why the
    rest names nothing: unknown books, a book without chapter, or no reference at all; chat leaves
    it off, as a message is mostly not references."""
    references: list[Passage] = []
    not_found: list[Unmatched] = []
    seen: set[str] = set()
    verses_left, skipped_refs, skipped_verses = max_verses, 0, 0
    matches = find_references(text)
    for match in matches:
        key = match.reference.format() if match.reference is not None else match.text
        if key in seen:
            continue
        seen.add(key)
        if len(references) + len(not_found) >= max_references:
            skipped_refs += 1
            continue
        # The translation's own numbering decides (Bíblia Livre has Apocalipse 12:18 but no
        # Salmos 46:3); only a book outside the canon is refused before looking.
        reference = match.reference
        if reference is None:  # no such book, or one outside the canon: the match says why
            not_found.append(Unmatched(match.text, match.error or ""))
            continue
        error = reference.check(bible)
        ids, error = ([], error) if error else _present_ids(reference, bible)
        if error:
            not_found.append(Unmatched(match.text, error))
            continue
        if verses_left <= 0:
            skipped_refs += 1
            continue
        skipped_verses += max(0, len(ids) - verses_left)
        verses = [bible.by_id[i] for i in ids[:verses_left]]
        verses_left -= len(verses)
        references.append(Passage(reference.format(), tuple(VerseText(v.id, v.reference, v.text) for v in verses)))
    if explain_all:
        not_found += explain(
            text, [(m.start, m.end) for m in matches], max_references - len(references) - len(not_found)
        )
    left_out = skipped_refs or skipped_verses
    note = truncation_note(max_references, max_verses, skipped_refs, skipped_verses) if left_out else ""
    return Lookup(tuple(references), tuple(not_found), note)


def truncation_note(max_references: int, max_verses: int, skipped_refs: int, skipped_verses: int) -> str:
    """What a capped lookup left out, in words a reader understands."""
    left_out = []
    if skipped_refs:
        left_out.append(f"{skipped_refs} referência{'s' if skipped_refs != 1 else ''}")
    if skipped_verses:
        left_out.append(f"{skipped_verses} versículo{'s' if skipped_verses != 1 else ''}")
    return (
        f"Mostrando no máximo {max_references} referências e {max_verses} versículos por pedido; "
        f"ficaram de fora {' e '.join(left_out)}. Peça as passagens restantes em outra mensagem."
    )


def _present_ids(reference: Reference, bible) -> tuple[list[str], str | None]:
    """The ids the translation has, or a reason: each segment must yield at least one verse.

    A chapter or range skips a verse the translation does not number separately."""
    ids: list[str] = []
    for seg in reference.segments:
        wanted = Reference(reference.book, (seg,)).verse_ids(bible)
        present = [i for i in wanted if i in bible.by_id]
        if not present:
            return [], f"{format_verse_id(wanted[0])} não existe nesta tradução."
        ids.extend(present)
    return list(dict.fromkeys(ids)), None
