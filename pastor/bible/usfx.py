"""USFX parsing into verses with exact coordinates, noise cleaning and count validation."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from typing import Any

from lxml import etree

from pastor.bible import canon
from pastor.errors import PastorError
from pastor.text.datafile import content_sha256, logical_name, open_binary
from pastor.text.notice import credit_for


class CorpusError(PastorError):
    """The corpus file is missing, malformed, truncated or not a USFX Bible.

    The message names the file only (it reaches the web page); `path` is the full path, for the
    operator's terminal."""

    def __init__(self, message: str, path: Path | None = None):
        super().__init__(message)
        self.path = path


@dataclass(frozen=True)
class Verse:
    book: str  # USFX code
    chapter: int
    verse: int
    text: str

    @property
    def id(self) -> str:
        return verse_id(self.book, self.chapter, self.verse)

    @property
    def reference(self) -> str:
        return f"{canon.by_code()[self.book].name} {self.chapter}:{self.verse}"


def verse_id(book: str, chapter: int, verse: int) -> str:
    """Verse ids everywhere are `USFX-code chapter:verse`, e.g. `JHN 3:16`."""
    return f"{book} {chapter}:{verse}"


def parse_verse_id(value: str) -> tuple[str, int, int]:
    match = re.fullmatch(r"([1-3A-Z]{3}) (\d+):(\d+)", value.strip())
    if not match:
        raise ValueError(f"id de versículo inválido: {value!r}")
    return match.group(1), int(match.group(2)), int(match.group(3))


# Elements whose content is not verse text: notes, cross references, headings, titles.
_SKIP = {
    "f",
    "x",
    "fe",
    "s",
    "h",
    "toc",
    "rem",
    "cl",
    "ide",
    "note",
    "fig",
    "languageCode",
    "d",
    "id",
    "sts",
    "periph",
    "ms",
    "mt",
    "imt",
    "is",
    "ip",
    "ie",
    "cp",
    "ca",
    "va",
}


def clean_text(text: str) -> str:
    """Remove digitisation noise only: `*` marks, footnote residue, doubled or edge spaces."""
    text = re.sub(r"/fn/.*?/\*fn\s*", " ", text)  # Bíblia Livre footnote residue (DEU 32:5)
    # A word split at a line end across a space (holo-* *causto, ensi-* no): the hyphen is the
    # printer's, so the halves are joined. `chamou-*os` keeps its hyphen (a real one there).
    text = re.sub(r"-\*\s+\*?", "", text)
    text = text.replace("*", "")
    return re.sub(r"\s+", " ", text).strip()


@dataclass
class Bible:
    """A loaded translation: verses in canonical order plus per-chapter counts."""

    path: Path
    sha256: str
    verses: list[Verse]
    name: str = ""
    by_id: dict[str, Verse] = field(init=False, repr=False)
    counts: dict[str, list[int]] = field(init=False, repr=False)
    last: dict[tuple[str, int], int] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        self.by_id = {v.id: v for v in self.verses}
        self.counts, self.last = {}, {}
        for v in self.verses:
            self.last[v.book, v.chapter] = max(self.last.get((v.book, v.chapter), 0), v.verse)
            chapters = self.counts.setdefault(v.book, [])
            while len(chapters) < v.chapter:
                chapters.append(0)
            chapters[v.chapter - 1] += 1

    def get(self, book: str, chapter: int, verse: int) -> Verse | None:
        return self.by_id.get(verse_id(book, chapter, verse))

    def chapter_count(self, book: str) -> int:
        return len(self.counts.get(book, []))

    def verse_count(self, book: str, chapter: int) -> int:
        chapters = self.counts.get(book, [])
        return chapters[chapter - 1] if 0 < chapter <= len(chapters) else 0

    def last_verse(self, book: str, chapter: int) -> int:
        """The highest verse number in a chapter (0 if absent); above `verse_count` when there is a gap."""
        return self.last.get((book, chapter), 0)

    @cached_property
    def differences(self) -> list[dict]:
        """Count differences from the canonical versification (computed once: the status page
        polls `stats()` every few seconds)."""
        return count_differences(self)

    @cached_property
    def credit(self) -> str:
        """The attribution its licence asks for, from the NOTICE.md that covers this file ("" if none)."""
        return credit_for(self.path, self.sha256)

    def stats(self) -> dict:
        return {
            "file": self.path.name,
            "sha256": self.sha256,
            "books": len(self.counts),
            "chapters": sum(len(c) for c in self.counts.values()),
            "verses": len(self.verses),
            "differences": self.differences,
            "credit": self.credit,
        }


def count_differences(bible: Bible) -> list[dict]:
    """Chapters whose verse count differs from the canonical Protestant versification."""
    diffs: list[dict[str, Any]] = []
    for book in canon.books():
        found = bible.counts.get(book.code)
        if found is None:
            diffs.append(
                {
                    "book": book.code,
                    "name": book.name,
                    "chapter": None,
                    "expected": book.chapters,
                    "found": 0,
                    "detail": "livro ausente",
                }
            )
            continue
        for index in range(max(len(found), book.chapters)):
            expected = book.verse_counts[index] if index < book.chapters else 0
            got = found[index] if index < len(found) else 0
            present = {n for n in range(1, max(expected, got) + 5) if bible.get(book.code, index + 1, n)}
            missing = sorted(set(range(1, expected + 1)) - present)
            extra = sorted(present - set(range(1, expected + 1)))
            if missing or extra:
                detail = f"{book.name} {index + 1}: {got} versículos (canônico: {expected})"
                detail += f"; faltam {missing}" if missing else ""
                detail += f"; a mais {extra}" if extra else ""
                diffs.append(
                    {
                        "book": book.code,
                        "name": book.name,
                        "chapter": index + 1,
                        "expected": expected,
                        "found": got,
                        "missing": missing,
                        "extra": extra,
                        "detail": detail,
                    }
                )
    return diffs


def file_sha256(path: Path) -> str:
    """sha256 of the uncompressed content (a `.gz` and its plain copy agree)."""
    return content_sha256(path)


class _Collector:
    """Walks one `<book>` subtree in document order, milestone or container style."""

    def __init__(self, book: str):
        self.book = book
        self.chapter = 0
        self.current: int | None = None
        self.parts: list[str] = []
        self.verses: list[Verse] = []

    def close(self) -> None:
        if self.current is not None:
            self.verses.append(Verse(self.book, self.chapter, self.current, clean_text("".join(self.parts))))
        self.current, self.parts = None, []

    def emit(self, text: str | None) -> None:
        if text and self.current is not None:
            self.parts.append(text)

    def walk(self, el) -> None:
        tag = etree.QName(el).localname if isinstance(el.tag, str) else None
        if tag is None or tag in _SKIP:
            return
        if tag == "c":
            self.close()
            self.chapter = _number(el, "capítulo")
        elif tag == "v":
            self.close()
            if self.chapter == 0:
                raise CorpusError(f"linha {el.sourceline}: versículo fora de um capítulo em {self.book}")
            self.current = _number(el, "versículo")
        elif tag == "ve":
            self.close()
            return
        self.emit(el.text)
        for child in el:
            self.walk(child)
            self.emit(child.tail)
        if tag == "v" and (el.text or len(el)):
            self.close()  # container style: the verse ends with its element


def _number(el, what: str) -> int:
    raw = (el.get("id") or "").strip()
    match = re.match(r"\d+", raw)
    if not match:
        raise CorpusError(f"linha {el.sourceline}: {what} sem número válido (id={raw!r})")
    return int(match.group())


def load_bible(path: Path | str, name: str = "") -> Bible:
    """Parse a USFX file, book by book, so memory stays bounded by the largest book."""
    path = Path(path)
    if not path.is_file():
        raise CorpusError(
            f"Arquivo do corpus não encontrado: {path.name}. Defina PASTOR_CORPUS com o caminho de um "
            "arquivo USFX (veja a seção 'Corpus' do README).",
            path,
        )
    verses: list[Verse] = []
    seen_books: set[str] = set()
    try:
        # Opened here so an error mid-file closes it at once (lxml would leave it to the GC).
        with open_binary(path) as handle:
            for _, el in etree.iterparse(
                handle,
                events=("end",),
                tag=("{*}book", "book"),
                huge_tree=True,
                resolve_entities=False,
                no_network=True,
            ):
                code = (el.get("id") or "").strip().upper()
                if code not in canon.by_code():
                    if code and canon.alias_key(code) not in canon.deuterocanon_aliases():
                        pass  # unknown or deuterocanonical book: not part of this canon, skipped
                    el.clear()
                    continue
                if code in seen_books:
                    raise CorpusError(f"linha {el.sourceline}: livro {code} repetido")
                seen_books.add(code)
                collector = _Collector(code)
                collector.walk(el)
                collector.close()
                verses.extend(collector.verses)
                el.clear()
    except etree.XMLSyntaxError as exc:
        line = exc.lineno or (exc.position[0] if exc.position else "?")
        raise CorpusError(f"{path.name}: XML malformado ou truncado na linha {line}: {exc.msg}") from None
    except (OSError, EOFError) as exc:  # a damaged or truncated gzip
        raise CorpusError(f"{path.name}: arquivo compactado ilegível ou truncado ({exc})") from None
    if not verses:
        raise CorpusError(f"{path.name}: nenhum versículo encontrado; não parece um arquivo USFX")
    order = {b.code: b.order for b in canon.books()}
    verses.sort(key=lambda v: (order[v.book], v.chapter, v.verse))
    _check_unique(verses, path)
    return Bible(path=path, sha256=file_sha256(path), verses=verses, name=name or Path(logical_name(path)).stem)


def _check_unique(verses: list[Verse], path: Path) -> None:
    ids = set()
    for v in verses:
        if v.id in ids:
            raise CorpusError(f"{path.name}: versículo duplicado {v.id}")
        ids.add(v.id)
