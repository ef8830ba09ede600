"""Reading the numbers after a Bible book's name: chapters, verses, ranges and lists (`3:16`, `1:1-2:3`,
`5:3,5`, `13,4`, `Sl 23; 91`), into the segments of a reference."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from pastor.bible import canon
from pastor.bible.canon import Book


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


# Where a book name may start: not after a letter, and not after a digit when it begins with one.
BOOK_START = r"(?:(?<![^\W_])(?=\d)|(?<![^\W\d_])(?!\d))"


@lru_cache(maxsize=1)
def book_pattern() -> re.Pattern:
    # Any folded form, the longest that fits (`canon.alias_regex`), then an optional final dot.
    # A letter right before a name hides it, and so does a digit before a numbered one (`21Co`);
    # `_Romanos_` (emphasis) or `3:16Romanos 8:28` do not. A comma may come before `capítulo`.
    return re.compile(BOOK_START + r"(" + canon.alias_regex() + r")\.?(?=[\s\d]|,\s*cap)", re.UNICODE)


# Any run of digits is read whole; only 1 to 3 digits can be a chapter or a verse, so `Sl 23 e 1000`
# ends at `23` and `2024` in `Salmos 23; 2024` is just a year.
_NUM = re.compile(r"\d+")
_MAX_DIGITS = 3
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


class Scanner:
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

    def peeked_number(self) -> int:
        """The number `peek_number_after` saw, once its separator is taken: always there."""
        number = self.number()
        assert number is not None, "read only after peek_number_after found it"
        return number

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
            end = self.peeked_number()
        return Segment(chapter, None, end, None)

    def range_from(self, chapter: int, verse: int) -> Segment:
        if not self.peek_number_after(_RANGE):
            return Segment(chapter, verse, chapter, verse)
        save = self.pos
        self.take(_RANGE)
        end = self.number()
        if end is not None and self.peek_number_after(self.chapter_verse):  # `1:1-2:3`, `5,20-6,2`
            self.take(self.chapter_verse)
            return Segment(chapter, verse, end, self.peeked_number())
        if end is None:
            self.pos = save
            return Segment(chapter, verse, chapter, verse)
        return Segment(chapter, verse, chapter, end)

    def more_segments(self, last: Segment) -> Segment | None:
        """`5:3,5`, `5:3 e 5`, `3:16; 4:1` continue the same book."""
        save = self.pos
        sep = self.take(_COMMA_LIST if self.comma else _LIST)
        if not sep or book_pattern().match(self.text, self.pos) or _NUMBERED_NAME.match(self.text, self.pos):
            self.pos = save  # `João 3:16 e 2 Coríntios 5:17`: the number starts the next book
            return None
        number = self.number()
        if number is None:
            self.pos = save  # `Salmos 23; 2024`: a year, not a chapter
            return None
        if self.peek_number_after(self.chapter_verse):
            self.take(self.chapter_verse)
            return self.range_from(number, self.peeked_number())
        if sep.group(1) == ";" or last.whole_chapter:
            if sep.group(1) == ";" or sep.group(1) == "e":
                return self.chapters_from(number)  # `Sl 23; 91`, `Gn 1; 3-4`
            self.pos = save
            return None
        return self.range_from(last.end_chapter, number)
