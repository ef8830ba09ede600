"""Verse prominence prior from OpenBible.info cross-references: derive the table, load it, score it."""

from __future__ import annotations

import io
import math
import os
import re
import tempfile
import zipfile
from array import array
from collections import defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import NoReturn

from pastor.bible import canon
from pastor.bible.usfx import file_sha256, parse_verse_id, verse_id
from pastor.errors import PastorError
from pastor.text.datafile import logical_name, open_binary, open_text
from pastor.text.notice import credit_for

ATTRIBUTION = "Referências cruzadas © OpenBible.info, CC BY 4.0 (https://www.openbible.info/labs/cross-references/)"

COLUMNS = ("verse", "in_refs", "in_votes", "out_refs", "out_votes", "neg_rows")
HEADER = "\t".join(COLUMNS)
COUNT_COLUMNS = COLUMNS[1:]
IN_REFS, IN_VOTES, OUT_REFS, OUT_VOTES, NEG_ROWS = range(len(COUNT_COLUMNS))

DEFAULT_OUT = Path("corpus/verse_prominence.tsv")

# OpenBible writes OSIS book names; the rest of the app speaks USFX codes. Both lists are in
# canonical order, so they pair up one to one.
OSIS_BOOKS = (
    "Gen Exod Lev Num Deut Josh Judg Ruth 1Sam 2Sam 1Kgs 2Kgs 1Chr 2Chr Ezra Neh Esth Job Ps Prov "
    "Eccl Song Isa Jer Lam Ezek Dan Hos Joel Amos Obad Jonah Mic Nah Hab Zeph Hag Zech Mal "
    "Matt Mark Luke John Acts Rom 1Cor 2Cor Gal Eph Phil Col 1Thess 2Thess 1Tim 2Tim Titus Phlm "
    "Heb Jas 1Pet 2Pet 1John 2John 3John Jude Rev"
).split()


class ProminenceError(PastorError):
    """The prominence table or the cross-references file is missing or malformed."""


def osis_to_usfx() -> dict[str, str]:
    return dict(zip(OSIS_BOOKS, (book.code for book in canon.books()), strict=True))


# ---------------------------------------------------------------------------------------------
# Loading the table
# ---------------------------------------------------------------------------------------------


class Prominence:
    """Per-verse counts, one array per column, indexed through a verse-id dictionary."""

    def __init__(self, ids: list[str], columns: dict[str, array], source: dict, credit: str = ATTRIBUTION):
        self.ids = tuple(ids)
        self.columns = columns
        self.source = source  # {"file": name, "sha256": hex}: shown on the status page
        self.credit = credit  # every table is derived from OpenBible's data: its credit travels with it
        self._index = {verse: i for i, verse in enumerate(self.ids)}

    def __len__(self) -> int:
        return len(self.ids)

    def __contains__(self, verse: str) -> bool:
        return verse in self._index

    def count(self, verse: str, column: str) -> int:
        """One count for one verse; 0 for a verse the table does not list."""
        i = self._index.get(verse)
        return 0 if i is None else self.columns[column][i]

    def in_votes(self, verse: str) -> int:
        return self.count(verse, "in_votes")

    def prior(self, verse: str, weight: float) -> float:
        """The additive boost for fused scores: log1p damps the few very popular verses."""
        return weight * math.log1p(self.in_votes(verse))

    def top(self, n: int, column: str = "in_votes") -> list[tuple[str, int]]:
        """The n highest verses by a column; ties keep canonical (file) order."""
        values = self.columns[column]
        order = sorted(range(len(self.ids)), key=lambda i: -values[i])[:n]
        return [(self.ids[i], values[i]) for i in order]


def load_prominence(path: Path | str) -> Prominence:
    """Read `verse_prominence.tsv`, checking the header and every line."""
    path = Path(path)
    if not path.is_file():
        raise ProminenceError(
            f"Tabela de proeminência não encontrada: {path}. Defina PASTOR_PROMINENCE com o caminho "
            "de verse_prominence.tsv (gere-a com `python -m pastor prominence cross_references.txt`)."
        )
    ids: list[str] = []
    columns = [array("q") for _ in COUNT_COLUMNS]
    codes = set(canon.by_code())
    # Bytes in, decoded line by line, so an encoding error can name its line.
    with open_binary(path) as handle:
        _check_header(_decode(handle.readline(), 1, path), path)
        for number, raw in enumerate(handle, start=2):
            verse, counts = _parse_line(_decode(raw, number, path), number, path, codes)
            ids.append(verse)
            for column, value in zip(columns, counts, strict=True):
                column.append(value)
    _check_unique(ids, path)
    sha256 = file_sha256(path)
    return Prominence(
        ids,
        dict(zip(COUNT_COLUMNS, columns, strict=True)),
        {"file": logical_name(path), "sha256": sha256},
        credit=credit_for(path, sha256) or ATTRIBUTION,
    )


def _decode(raw: bytes, number: int, path: Path) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ProminenceError(f"{path.name}, linha {number}: o texto não está em UTF-8.") from None


def _check_header(line: str, path: Path) -> None:
    if line.rstrip("\r\n").lstrip("\ufeff") != HEADER:
        found = line.rstrip("\r\n")[:80] or "(vazio)"
        raise ProminenceError(f"{path.name}, linha 1: cabeçalho inesperado {found!r}; esperado {HEADER!r}.")


# A well-formed line in one match; anything else goes to `_explain` for a precise message.
_LINE = re.compile(r"([1-3A-Z]{3}) (\d+):(\d+)" + r"\t(\d+)" * len(COUNT_COLUMNS) + r"\r?\n?", re.ASCII)


def _parse_line(line: str, number: int, path: Path, codes: set[str]) -> tuple[str, list[int]]:
    match = _LINE.fullmatch(line)
    if not match or match.group(1) not in codes:
        _explain(line, f"{path.name}, linha {number}")
    book, chapter, verse, *counts = match.groups()
    return verse_id(book, int(chapter), int(verse)), [int(c) for c in counts]


def _explain(line: str, where: str) -> NoReturn:
    """Raise the error that says what is wrong with a line the fast pattern rejected."""
    fields = line.rstrip("\r\n").split("\t")
    if len(fields) != len(COLUMNS):
        raise ProminenceError(
            f"{where}: esperadas {len(COLUMNS)} colunas separadas por tabulação, encontradas {len(fields)}."
        )
    try:
        book, _, _ = parse_verse_id(fields[0])
    except ValueError:
        raise ProminenceError(f"{where}: versículo inválido {fields[0]!r} (esperado como 'JHN 3:16').") from None
    if book not in canon.by_code():
        raise ProminenceError(f"{where}: livro desconhecido {book!r}.")
    for name, raw in zip(COUNT_COLUMNS, fields[1:], strict=True):
        if not (raw.isascii() and raw.isdigit()):
            raise ProminenceError(
                f"{where}: valor inválido {raw!r} na coluna {name} (esperado um inteiro não negativo)."
            )
    raise ProminenceError(f"{where}: linha malformada {line[:80]!r}.")


def _check_unique(ids: list[str], path: Path) -> None:
    if len(set(ids)) != len(ids):
        seen: set[str] = set()
        for number, verse in enumerate(ids, start=2):
            if verse in seen:
                raise ProminenceError(f"{path.name}, linha {number}: versículo repetido {verse}.")
            seen.add(verse)


# ---------------------------------------------------------------------------------------------
# Deriving the table from OpenBible's cross_references.txt (rules in shared/xref/PROVENANCE.md)
# ---------------------------------------------------------------------------------------------

Coord = tuple[int, int, int]  # (book order, chapter, verse): sorts canonically
# What `derive_prominence` counts over the rows, in the order it reports them.
TALLIES = ("positive", "zero", "negative", "ranges", "cross_chapter", "cross_book", "fallback", "self_overlap")


@dataclass(frozen=True)
class ProminenceReport:
    """What one derivation read and wrote: rows by vote sign, ranges (across chapters or books,
    reduced to their ends), rows whose own verse is in their range, the table written and its hash."""

    source: str
    rows: int
    positive: int
    zero: int
    negative: int
    ranges: int
    cross_chapter: int
    cross_book: int
    fallback: int
    self_overlap: int
    verses: int
    out: str
    sha256: str
    positive_votes: int


class _Row:
    __slots__ = ("source", "start", "end", "votes")

    def __init__(self, source: Coord, start: Coord, end: Coord, votes: int):
        self.source, self.start, self.end, self.votes = source, start, end, votes


def derive_prominence(cross_references_path: Path | str, out_path: Path | str) -> ProminenceReport:
    """Write the prominence TSV derived from `cross_references.txt` (or a `.zip` holding it)."""
    source = Path(cross_references_path)
    coords: dict[str, Coord] = {}  # each distinct ref parsed once; also the extent's input
    try:
        rows = list(_read_rows(source, coords))
    except UnicodeDecodeError:
        raise ProminenceError(f"{source.name}: o arquivo não está em UTF-8.") from None
    extent = _Extent(coords.values())
    table: dict[Coord, list[int]] = defaultdict(lambda: [0] * len(COUNT_COLUMNS))
    counts = dict.fromkeys(TALLIES, 0)
    for row in rows:
        expanded = extent.expand(row.start, row.end)
        targets = expanded or sorted({row.start, row.end})
        _tally(table, row, targets)
        _summarise(counts, row, targets, fallback=expanded is None)
    _write(table, Path(out_path))
    return ProminenceReport(
        source=source.name,
        rows=len(rows),
        **counts,
        verses=len(table),
        out=str(out_path),
        sha256=file_sha256(Path(out_path)),
        positive_votes=sum(r.votes for r in rows if r.votes > 0),
    )


def _read_rows(path: Path, coords: dict[str, Coord]) -> Iterator[_Row]:
    """Parse the data lines; anything unexpected stops with the line number."""
    books = {osis: canon.by_code()[code].order for osis, code in osis_to_usfx().items()}
    lines = _open_text(path)
    header = next(lines, "")
    if not header.startswith("From Verse"):
        raise ProminenceError(
            f"{path.name}, linha 1: cabeçalho inesperado {header[:80]!r}; "
            "esperado um arquivo cross_references.txt do OpenBible ('From Verse…')."
        )
    for number, line in enumerate(lines, start=2):
        if not line.strip():
            continue
        fields = line.rstrip("\r\n").split("\t")
        where = f"{path.name}, linha {number}"
        if len(fields) < 3:
            raise ProminenceError(f"{where}: esperadas 3 colunas (From Verse, To Verse, Votes).")
        start, dash, end = fields[1].partition("-")
        try:
            votes = int(fields[2])
        except ValueError:
            raise ProminenceError(f"{where}: votos inválidos {fields[2]!r}.") from None
        if dash and not end:
            raise ProminenceError(f"{where}: intervalo sem fim {fields[1]!r}.")
        refs = [fields[0], start, end or start]
        for ref in refs:
            if ref not in coords:
                coords[ref] = _coord(ref, books, where)
        yield _Row(coords[refs[0]], coords[refs[1]], coords[refs[2]], votes)


def _open_text(path: Path) -> Iterator[str]:
    """Lines of the text file (plain or gzip), or of `cross_references.txt` inside a zip archive."""
    if not path.is_file():
        raise ProminenceError(f"Arquivo de referências cruzadas não encontrado: {path}.")
    if zipfile.is_zipfile(path):
        with zipfile.ZipFile(path) as archive:
            names = [n for n in archive.namelist() if n.rsplit("/", 1)[-1] == "cross_references.txt"]
            if not names:
                raise ProminenceError(f"{path.name}: o zip não contém cross_references.txt.")
            with archive.open(names[0]) as member:
                yield from io.TextIOWrapper(member, encoding="utf-8-sig", newline="")
        return
    with open_text(path) as handle:  # plain or .gz
        yield from handle


_OSIS_REF = re.compile(r"([1-3]?[A-Za-z]+)\.(\d+)\.(\d+)", re.ASCII)


def _coord(ref: str, books: dict[str, int], where: str) -> Coord:
    """`1John.4.9` → (61, 4, 9)."""
    match = _OSIS_REF.fullmatch(ref.strip())
    if not match or match.group(1) not in books:
        raise ProminenceError(f"{where}: referência inválida ou livro desconhecido {ref!r}.")
    return books[match.group(1)], int(match.group(2)), int(match.group(3))


class _Extent:
    """Last chapter of each book and last verse of each chapter, as seen in the data itself."""

    def __init__(self, coords: Iterable[Coord]):
        self.last_chapter: dict[int, int] = {}
        self.last_verse: dict[tuple[int, int], int] = {}
        for book, chapter, verse in sorted(set(coords)):  # ascending: the last write is the maximum
            self.last_chapter[book] = chapter
            self.last_verse[book, chapter] = verse

    def expand(self, start: Coord, end: Coord) -> list[Coord] | None:
        """Every verse of a To range, or None when the data cannot bound it (the caller keeps
        the endpoints only). OpenBible's own export never needs that fallback."""
        if start[:2] == end[:2]:
            return [(*start[:2], v) for v in range(start[2], end[2] + 1)] or None
        chapters = self._chapters(start[:2], end[:2])
        if chapters is None:
            return None
        verses = []
        for book, chapter in chapters:
            first = start[2] if (book, chapter) == start[:2] else 1
            last = end[2] if (book, chapter) == end[:2] else self.last_verse[book, chapter]
            verses += [(book, chapter, v) for v in range(first, last + 1)]
        return verses

    def _chapters(self, first: tuple[int, int], last: tuple[int, int]) -> list[tuple[int, int]] | None:
        """Chapters from first to last, moving on to chapter 1 of the next book; None if unbounded."""
        chapters, current = [], first
        while current != last:
            if current > last or current not in self.last_verse:
                return None  # reversed, or a chapter the data never mentions (length unknown)
            chapters.append(current)
            book, chapter = current
            current = (book, chapter + 1) if chapter < self.last_chapter[book] else (book + 1, 1)
        return chapters + [last]


def _tally(table: dict[Coord, list[int]], row: _Row, targets: list[Coord]) -> None:
    """Add one row: out columns for its From verse, in columns for each verse it points to."""
    positive = max(row.votes, 0)
    negative = 1 if row.votes <= 0 else 0
    counts = table[row.source]
    counts[OUT_REFS] += 1
    counts[OUT_VOTES] += positive
    counts[NEG_ROWS] += negative
    for target in targets:
        counts = table[target]
        counts[IN_REFS] += 1
        counts[IN_VOTES] += positive
        counts[NEG_ROWS] += negative


def _summarise(summary: dict[str, int], row: _Row, targets: list[Coord], fallback: bool) -> None:
    summary["positive" if row.votes > 0 else "zero" if row.votes == 0 else "negative"] += 1
    if row.start != row.end:
        summary["ranges"] += 1
        summary["cross_chapter"] += row.start[:2] != row.end[:2]
        summary["cross_book"] += row.start[0] != row.end[0]
        summary["fallback"] += fallback
    summary["self_overlap"] += row.source in targets


def _write(table: dict[Coord, list[int]], out: Path) -> None:
    """Canonical order, UTF-8, LF; written beside the target and renamed, so a reader never sees half."""
    codes = [book.code for book in canon.books()]
    lines = [HEADER] + [
        "\t".join([verse_id(codes[book], chapter, verse), *map(str, table[book, chapter, verse])])
        for book, chapter, verse in sorted(table)
    ]
    out.parent.mkdir(parents=True, exist_ok=True)
    fd, temp = tempfile.mkstemp(dir=out.parent, prefix=f".{out.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write("\n".join(lines) + "\n")
        os.replace(temp, out)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
