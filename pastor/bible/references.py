"""Find, resolve and format Bible references written in free Portuguese text."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache

from pastor.bible import canon
from pastor.bible.canon import Book
from pastor.text.fold import fold

# A verse-count oracle: (book code, chapter) -> number of verses (0 = no such chapter).
Counts = Callable[[str, int], int]


def _oracle(counts) -> Counts:
    """None → canonical counts; a loaded Bible → its highest verse number per chapter."""
    if counts is None:
        return canonical_counts
    return getattr(counts, "last_verse", counts)


@dataclass(frozen=True)
class Segment:
    """A contiguous stretch: one verse, a range, a whole chapter (verses None) or across chapters."""

    start_chapter: int
    start_verse: int | None
    end_chapter: int
    end_verse: int | None

    @property
    def whole_chapter(self) -> bool:
        return self.start_verse is None


@dataclass(frozen=True)
class Reference:
    book: Book
    segments: tuple[Segment, ...]

    def format(self) -> str:
        """Canonical form: `João 3:16`, `Salmos 23:1-3`, `Gênesis 1:1-2:3`, `Mateus 5:3,5`, `Salmos 23`."""
        parts, chapter = [], None
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


# Where a book name may start: not after a letter, and not after a digit when it begins with one.
BOOK_START = r"(?:(?<![^\W_])(?=\d)|(?<![^\W\d_])(?!\d))"


@lru_cache(maxsize=1)
def _book_pattern() -> re.Pattern:
    # Any folded form, the longest that fits (`canon.alias_regex`), then an optional final dot.
    # A letter right before a name hides it, and so does a digit before a numbered one (`21Co`);
    # `_Romanos_` (emphasis) or `3:16Romanos 8:28` do not. A comma may come before `capítulo`.
    return re.compile(BOOK_START + r"(" + canon.alias_regex() + r")\.?(?=[\s\d]|,\s*cap)", re.UNICODE)


_ORDINAL_WORD = re.compile(r"(?:primeir|segund|terceir)[ao]s?\s", re.UNICODE)
_LIST_NUMBER = re.compile(r"\d\.\s")
# Any run of digits is read whole; only 1 to 3 digits can be a chapter or a verse, so `Sl 23 e 1000`
# ends at `23` and `2024` in `Salmos 23; 2024` is just a year.
_NUM = re.compile(r"\d+")
_MAX_DIGITS = 3
# Digits glued to a reference by `:` or a dash that could not be read (`Jo 3:1000`, `Jo 3:16-1000`).
_DANGLING = re.compile(r"[:\-–—]\d+")
# A numbered book this parser does not know (`; 1 Corinthians 13:4`, `e 4 João 1:1`) starts a new citation.
_NUMBERED_NAME = re.compile(r"(?:[1-9]\.?(?:[ºª°]|[ao](?![^\W\d_]))?\.?|iv|i{1,3}\.?)\s*[^\W\d_]+\.?\s+\d+\s*[:.]\s*\d")
_CHAPTER_WORD = re.compile(r"\s*,?\s*(?:capitulos?|cap\.?)\s*")
_VERSE_WORD = re.compile(r"\s*,?\s*(?:versiculos?|vers\.|vv?\.|v\.?)\s*")
# Catholic books number most psalms one lower (Greek numbering) and give ours in brackets: `Sl 22(23)`.
_PSALM_HEBREW = re.compile(r"\s*\((\d{1,3})\)")
_RANGE = re.compile(r"\s*[-–—]\s*")
# A dot separates chapter and verse only inside a number (`3.16`): `João 3:16-18. 1 Coríntios` is two sentences.
_CV_SEP = re.compile(r"\s*:\s*(?=\d)|\.(?=\d)")
# Where a comma separates chapter and verse (`Os 11,1-4.8`, `2 Co 5,20-6,2`, Catholic and European
# notation), a dot separates verses and a comma after a range starts the next chapter.
_COMMA_CV = re.compile(r"\s*,\s*(?=\d)")
_COMMA_LIST = re.compile(r"\s*(;|\be\b)\s*(?=\d)|\.(?=\d)")
_LIST = re.compile(r"\s*(,|;|\be\b)\s*(?=\d)")


class _Scanner:
    """Reads the numbers after a book name in folded text: chapters, verses, ranges and lists."""

    def __init__(self, text: str, pos: int, book: Book):
        self.text, self.pos, self.book = text, pos, book
        self.comma = False  # chapter and verse separated by a comma (`13,4`)

    def take(self, pattern: re.Pattern) -> re.Match | None:
        match = pattern.match(self.text, self.pos)
        if match:
            self.pos = match.end()
        return match

    def number(self) -> int | None:
        """The number at the cursor, if it can be a chapter or a verse (else nothing is read)."""
        match = _NUM.match(self.text, self.pos)
        if not match or len(match.group()) > _MAX_DIGITS:
            return None
        self.pos = match.end()
        return int(match.group())

    def peek_number_after(self, pattern: re.Pattern) -> bool:
        match = pattern.match(self.text, self.pos)
        number = match and _NUM.match(self.text, match.end())
        return bool(number and len(number.group()) <= _MAX_DIGITS)

    def parse(self) -> tuple[Segment, ...] | None:
        said_chapter = bool(self.take(_CHAPTER_WORD))
        self.take(re.compile(r"\s*"))
        chapter = self.number()
        if chapter is None:
            return None
        hebrew = _PSALM_HEBREW.match(self.text, self.pos) if self.book.code == "PSA" else None
        if hebrew and abs(int(hebrew.group(1)) - chapter) <= 1:
            chapter, self.pos = int(hebrew.group(1)), hebrew.end()  # `Sl 22(23)`: the Hebrew number is ours
        first = self.first_segment(chapter, said_chapter)
        segments = [first]
        while True:
            more = self.more_segments(segments[-1])
            if more is None:
                break
            segments.append(more)
        return tuple(segments)

    @property
    def chapter_verse(self) -> re.Pattern:
        return _COMMA_CV if self.comma else _CV_SEP

    def verse_after_chapter(self) -> int | None:
        """The verse that follows a chapter: `3:16`, `3.16`, `13,4`, `8 versículo 28`, `21 4`."""
        start = self.pos
        for pattern in (_CV_SEP, _VERSE_WORD, _COMMA_CV, re.compile(r"\s+(?=\d)")):
            if self.take(pattern):
                verse = self.number()
                # `Apocalipse 21 4`: a bare space only separates chapter and verse when the
                # verse is not itself followed by `:` (which would make it a new chapter).
                if verse is not None and not (pattern.pattern == r"\s+(?=\d)" and _CV_SEP.match(self.text, self.pos)):
                    self.comma = pattern is _COMMA_CV
                    return verse
            self.pos = start
        return None

    def first_segment(self, chapter: int, said_chapter: bool) -> Segment:
        verse = self.verse_after_chapter()
        if verse is None:
            if (
                self.book.single_chapter
                and not said_chapter
                and not (chapter == 1 and not self.peek_number_after(_RANGE))
            ):
                return self.range_from(1, chapter)  # `Jd 24-25`: the numbers are verses
            return self.chapters_from(chapter)
        return self.range_from(chapter, verse)

    def chapters_from(self, chapter: int) -> Segment:
        """A whole chapter, or a run of whole chapters: `Salmos 23`, `Gn 1-3`."""
        end = chapter
        if self.peek_number_after(_RANGE):
            self.take(_RANGE)
            end = self.number()
        return Segment(chapter, None, end, None)

    def range_from(self, chapter: int, verse: int) -> Segment:
        if not self.peek_number_after(_RANGE):
            return Segment(chapter, verse, chapter, verse)
        save = self.pos
        self.take(_RANGE)
        end = self.number()
        if self.peek_number_after(self.chapter_verse):  # `1:1-2:3`, `5,20-6,2`
            self.take(self.chapter_verse)
            end_verse = self.number()
            return Segment(chapter, verse, end, end_verse)
        if end is None:
            self.pos = save
            return Segment(chapter, verse, chapter, verse)
        return Segment(chapter, verse, chapter, end)

    def more_segments(self, last: Segment) -> Segment | None:
        """`5:3,5`, `5:3 e 5`, `3:16; 4:1` continue the same book."""
        save = self.pos
        sep = self.take(_COMMA_LIST if self.comma else _LIST)
        if not sep or _book_pattern().match(self.text, self.pos) or _NUMBERED_NAME.match(self.text, self.pos):
            self.pos = save  # `João 3:16 e 2 Coríntios 5:17`: the number starts the next book
            return None
        number = self.number()
        if number is None:
            self.pos = save  # `Salmos 23; 2024`: a year, not a chapter
            return None
        if self.peek_number_after(self.chapter_verse):
            self.take(self.chapter_verse)
            return self.range_from(number, self.number())
        if sep.group(1) == ";" or last.whole_chapter:
            if sep.group(1) == ";" or sep.group(1) == "e":
                return self.chapters_from(number)  # `Sl 23; 91`, `Gn 1; 3-4`
            self.pos = save
            return None
        return self.range_from(last.end_chapter, number)


def find_references(text: str) -> list[RefMatch]:
    """Every reference in `text`, with spans into the original text."""
    folded = fold(text)
    matches: list[RefMatch] = []
    pos = 0
    pattern = _book_pattern()
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
    if deutero:
        book = canon.by_code()["GEN"]  # placeholder shape for scanning; never returned
    elif (book := canon.resolve_book(original)) is None:
        return None
    scanner = _Scanner(folded, found.end(), book)
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
    return bool(lead) and bool(_book_pattern().match(folded, found.start() + lead.end()))


def parse_reference(text: str) -> Reference:
    """Parse a text that is exactly one reference; raise ValueError with a Portuguese reason."""
    found = find_references(text.strip())
    if len(found) != 1 or found[0].start != 0 or found[0].end != len(text.strip()):
        raise ValueError(f"Referência não reconhecida: {text!r}")
    if found[0].error:
        raise ValueError(found[0].error)
    return found[0].reference


def _format_id(verse_id: str) -> str:
    code, rest = verse_id.split(" ")
    return f"{canon.by_code()[code].name} {rest}"


def format_verse_id(verse_id: str) -> str:
    """`JHN 3:16` → `João 3:16`."""
    return _format_id(verse_id)
