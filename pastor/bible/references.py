"""Find, resolve and format Bible references written in free Portuguese text."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from pastor.bible import canon
from pastor.bible.canon import Book
from pastor.bible.reference_scanner import (
    BOOK_START,  # noqa: F401 (re-exported for answer_filter/shapes.py)
    Scanner,
    Segment,
    book_pattern,
)
from pastor.text.fold import fold

# A verse-count oracle: (book code, chapter) -> number of verses (0 = no such chapter).
Counts = Callable[[str, int], int]


def _oracle(counts) -> Counts:
    """None → canonical counts; a loaded Bible → its highest verse number per chapter."""
    if counts is None:
        return canonical_counts
    return getattr(counts, "last_verse", counts)


@dataclass(frozen=True)
class Reference:
    book: Book
    segments: tuple[Segment, ...]

    def format(self) -> str:
        """Canonical form: `João 3:16`, `Salmos 23:1-3`, `Gênesis 1:1-2:3`, `Mateus 5:3,5`, `Salmos 23`."""
        parts: list[str] = []
        chapter: int | None = None
        for seg in self.segments:
            if seg.whole_chapter:
                text = (
                    str(seg.start_chapter)
                    if seg.start_chapter == seg.end_chapter
                    else f"{seg.start_chapter}-{seg.end_chapter}"
                )
                parts.append(("; " if parts else "") + text)
                chapter = None
                continue
            if seg.end_chapter != seg.start_chapter:
                text = f"{seg.start_chapter}:{seg.start_verse}-{seg.end_chapter}:{seg.end_verse}"
                parts.append(("; " if parts else "") + text)
                chapter = seg.end_chapter
                continue
            verses = str(seg.start_verse) if seg.start_verse == seg.end_verse else f"{seg.start_verse}-{seg.end_verse}"
            if chapter == seg.start_chapter:
                parts.append("," + verses)
            else:
                parts.append(("; " if parts else "") + f"{seg.start_chapter}:{verses}")
            chapter = seg.start_chapter
        return f"{self.book.name} {''.join(parts)}"

    def check(self, counts: Counts | None = None) -> str | None:
        """A Portuguese reason why this reference does not exist, or None when it does."""
        counts = _oracle(counts)
        name = self.book.name
        for seg in self.segments:
            for chapter, verse in ((seg.start_chapter, seg.start_verse), (seg.end_chapter, seg.end_verse)):
                total = counts(self.book.code, chapter)
                added = canon.addition(self.book.code, chapter, verse)
                if added and (total == 0 or verse is not None and verse > total):
                    return (
                        f"{name} {chapter}{f':{verse}' if verse else ''} está nas {added}, "
                        "que não fazem parte do cânon de 66 livros usado aqui (são deuterocanônicas)."
                    )
                if total == 0:
                    chapters = _chapter_total(self.book.code, counts)
                    return (
                        f"{name} tem {chapters} capítulo{'s' if chapters != 1 else ''}; "
                        f"o capítulo {chapter} não existe."
                    )
                if verse is not None and not 1 <= verse <= total:
                    return f"{name} {chapter} tem {total} versículos; o versículo {verse} não existe."
            if (seg.end_chapter, seg.end_verse or 0) < (seg.start_chapter, seg.start_verse or 0):
                return f"O intervalo em {self.format()} está invertido."
        return None

    def verse_ids(self, counts: Counts | None = None) -> list[str]:
        """Every verse id the reference covers, in order, without duplicates."""
        counts = _oracle(counts)
        ids: list[str] = []
        for seg in self.segments:
            for chapter in range(seg.start_chapter, seg.end_chapter + 1):
                first = seg.start_verse if chapter == seg.start_chapter and seg.start_verse else 1
                last = (
                    seg.end_verse if chapter == seg.end_chapter and seg.end_verse else counts(self.book.code, chapter)
                )
                ids.extend(f"{self.book.code} {chapter}:{v}" for v in range(first, last + 1))
        return list(dict.fromkeys(ids))


@dataclass(frozen=True)
class RefMatch:
    """One reference found in a text: its span, and either a Reference or a not-found reason."""

    start: int
    end: int
    text: str
    reference: Reference | None
    error: str | None


def canonical_counts(book: str, chapter: int) -> int:
    counts = canon.by_code()[book].verse_counts
    return counts[chapter - 1] if 0 < chapter <= len(counts) else 0


def _chapter_total(book: str, counts: Counts) -> int:
    chapter = 0
    while counts(book, chapter + 1):
        chapter += 1
    return chapter


_ORDINAL_WORD = re.compile(r"(?:primeir|segund|terceir)[ao]s?\s", re.UNICODE)
_LIST_NUMBER = re.compile(r"\d\.\s")
# Digits glued to a reference by `:` or a dash that could not be read (`Jo 3:1000`, `Jo 3:16-1000`).
_DANGLING = re.compile(r"[:\-–—]\d+")


def find_references(text: str) -> list[RefMatch]:
    """Every reference in `text`, with spans into the original text."""
    folded = fold(text)
    matches: list[RefMatch] = []
    pos = 0
    pattern = book_pattern()
    while True:
        found = pattern.search(folded, pos)
        if not found:
            break
        match = _read_reference(text, folded, found, matches[-1].end if matches else 0)
        if match is None:
            pos = found.start() + 1
            continue
        matches.append(match)
        pos = match.end
    return matches


# A number or ordinal right before a book name that is not part of any form of it (`4 João`, `IV João`,
# `5ª Pedro`): the reference names no book, and is never read without its number. A list marker at the
# start of a line (`4. João 3:16`) is no such number.
# `\Z`, not `$`: `$` also matches before a final newline, which would take a number ending the previous
# line as the ordinal of the book opening the next ("Hezequias 3.\nRomanos 8:28").
_LOOSE_NUMBER = re.compile(r"(?:(?<![\w.,:;/\-–])[1-9]\.?(?:[ºª°]|[ao](?![^\W\d_]))?|(?<!\w)(?:IV|I{1,3}))\.?[ \t]*\Z")
_LIST_MARKER = re.compile(r"(?:^|\n)[ \t]*\d{1,2}\.[ \t]+$")


def _loose_number(text: str, start: int, after: int) -> int | None:
    """Where a number that no form took starts, right before the name at `start` (None: there is none)."""
    if _LIST_MARKER.search(text, max(0, after - 1), start):
        return None
    number = _LOOSE_NUMBER.search(text[after:start])
    return after + number.start() if number else None


def _read_reference(text: str, folded: str, found: re.Match, after: int = 0) -> RefMatch | None:
    """The reference whose book name `found` matched (`after`: where the previous reference ended)."""
    alias = found.group(1)
    key = canon.alias_key(alias)
    original = text[found.start() : found.end(1)]
    deutero = canon.deuterocanon_aliases().get(key)
    # A deuterocanonical name scans with a placeholder shape (Genesis), never returned.
    book = canon.by_code()["GEN"] if deutero else canon.resolve_book(original)
    if book is None:
        return None
    scanner = Scanner(folded, found.end(), book)
    segments = scanner.parse()
    if segments is None:
        return None
    dangling = _DANGLING.match(folded, scanner.pos)
    if dangling:
        scanner.pos = dangling.end()  # taken with the reference, which then does not exist
    span_text = text[found.start() : scanner.pos]
    has_verse = any(not s.whole_chapter for s in segments)
    if key in canon.ambiguous() or (deutero and len(key) > 3):
        # Everyday words ("os 2 filhos", "a sabedoria 3") are books only when written as such: the
        # name capitalised (`Os`, `1ª S`, `2 livro dos Macabeus`, `Ester grega`), chapter and verse given.
        capitalised = any(next((c for c in word if c.isalpha()), "").isupper() for word in original.split())
        if not capitalised or not has_verse:
            return None
    loose = _loose_number(text, found.start(), after)
    if loose is not None:
        return RefMatch(
            loose,
            scanner.pos,
            text[loose : scanner.pos],
            None,
            f"{text[loose : found.end(1)]}: livro não reconhecido (não há livro com esse número ou ordinal).",
        )
    if deutero:
        return RefMatch(
            found.start(),
            scanner.pos,
            span_text,
            None,
            f"{deutero} não faz parte do cânon de 66 livros usado aqui (é um livro deuterocanônico).",
        )
    reference = Reference(book, segments)
    error = reference.check()
    if dangling:
        error = f"{span_text}: o número {dangling.group()[1:]} não pode ser capítulo nem versículo."
    if error and _unnumbered_reading(text, folded, found, alias):
        # "Segundo João 3:16" means "according to John 3:16", and "1. João 14:6" opening a line is
        # item 1 of a list: when the numbered reading does not exist, the caller moves on and
        # reads the unnumbered book after the word or the marker.
        return None
    return RefMatch(found.start(), scanner.pos, span_text, reference, error)


def _unnumbered_reading(text: str, folded: str, found: re.Match, alias: str) -> bool:
    """Whether the name begins with a word, or a list marker opening a line, that may not be part of
    it, and the rest is itself a book name."""
    lead = _ORDINAL_WORD.match(alias)
    if lead is None and not text[text.rfind("\n", 0, found.start()) + 1 : found.start()].strip():
        lead = _LIST_NUMBER.match(alias)
    return lead is not None and bool(book_pattern().match(folded, found.start() + lead.end()))


def named_verse_ids(text: str) -> list[str]:
    """Every verse id the references of `text` cover, in order ("Mateus 11:28-30" → three); a reference that
    names nothing (an unknown book, a verse past the chapter's end) covers none."""
    return [
        verse
        for match in find_references(text)
        if match.reference is not None and not match.error
        for verse in match.reference.verse_ids()
    ]


def parse_reference(text: str) -> Reference:
    """Parse a text that is exactly one reference; raise ValueError with a Portuguese reason."""
    found = find_references(text.strip())
    if len(found) != 1 or found[0].start != 0 or found[0].end != len(text.strip()):
        raise ValueError(f"Referência não reconhecida: {text!r}")
    if found[0].error:
        raise ValueError(found[0].error)
    reference = found[0].reference
    assert reference is not None, "a match without an error has its reference"
    return reference


def _format_id(verse_id: str) -> str:
    code, rest = verse_id.split(" ")
    return f"{canon.by_code()[code].name} {rest}"


def format_verse_id(verse_id: str) -> str:
    """`JHN 3:16` → `João 3:16`."""
    return _format_id(verse_id)
