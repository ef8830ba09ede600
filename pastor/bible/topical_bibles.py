"""Classic topical Bibles (Nave's, Torrey's): parse their entries and references into verse ids."""

from __future__ import annotations

import csv
import gzip
import io
import json
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from pastor.bible import canon

ATTRIBUTION = (
    "Nave's Topical Bible (1896), transcrita por Brady Stephenson em BibleData, CC BY 4.0; "
    "Torrey's New Topical Textbook (1897), domínio público"
)

# A chapter's verse count, for whole-chapter references (`NUM 17`); 0 when the chapter is unknown.
ChapterSize = Callable[[str, int], int]

_BOOK = r"[1-3]?[A-Z]{2,3}"
# Where the references of a Nave line begin: the first `BOOK chapter` (the rest is the line's label).
_FIRST_REF = re.compile(rf"(?<![A-Za-z])({_BOOK})\s+\d")
_PART = re.compile(rf"^(?:with\s+|and\s+)?(?:({_BOOK})\s+)?(\d+)(?::([\d,\-\s]+))?$", re.IGNORECASE)
# Subjects about a person or place (`-Son of …`, `-A city of …`) and lists of narrative instances
# (`-INSTANCES OF`, `-EXEMPLIFIED`) answer "who/where", never a pastoral question: left out.
_PROPER = re.compile(
    r"\b(son|father|daughter|wife|mother|brother|sister|king|queen|chief) of\b|"
    r"\ba (city|place|town|district|river|mountain|village|country|man|woman|levite|priest)\b",
    re.IGNORECASE,
)
_NARRATIVE = re.compile(r"INSTANCES?\b|EXEMPLIFIED|ILLUSTRATED", re.IGNORECASE)
_TORREY_RANGE = re.compile(rf"^({_BOOK}) (\d+):(\d+)(?: \(\(-(\d+)\)\))?$")


@dataclass
class Reference:
    """One written reference resolved to verse ids (a whole chapter or a range is many ids)."""

    ids: list[str]


@dataclass
class Entry:
    """One topic or sub-entry: an English label and the references filed under it, in order."""

    key: str  # "NAV:FORGIVENESS/OF ENEMIES", "TOR:Fasting"
    label: str  # "Forgiveness — of enemies": what the embedder sees
    references: list[Reference] = field(default_factory=list)

    @property
    def verse_ids(self) -> list[str]:
        return [verse for ref in self.references for verse in ref.ids]


def parse_references(text: str, chapter_size: ChapterSize, book: str | None = None) -> list[Reference]:
    """`EXO 6:16-20; JOS 21:4,10; 24` → references; a part without a book continues the last book.

    Unknown books and malformed parts are skipped: the source has a few typos, and one bad part
    must not lose the others."""
    refs = []
    for part in text.replace("\u00a0", " ").split(";"):
        match = _PART.match(part.strip().rstrip("."))
        if not match:
            continue
        code, chapter, verses = match.group(1), int(match.group(2)), match.group(3)
        if code is not None:
            book = code.upper() if code.upper() in canon.by_code() else None
        if book is None:
            continue
        ids = _expand(book, chapter, verses, chapter_size)
        if ids:
            refs.append(Reference(ids))
    return refs


def _expand(book: str, chapter: int, verses: str | None, chapter_size: ChapterSize) -> list[str]:
    if verses is None:  # a whole chapter
        return [f"{book} {chapter}:{v}" for v in range(1, chapter_size(book, chapter) + 1)]
    ids = []
    for item in verses.replace(" ", "").split(","):
        low, _, high = item.partition("-")
        if not low.isdigit() or (high and not high.isdigit()):
            continue
        end = int(high) if high else int(low)
        ids += [f"{book} {chapter}:{v}" for v in range(int(low), max(int(low), end) + 1)]
    return ids


def split_label(line: str) -> tuple[str, str]:
    """`-Lineage of EXO 6:16-20; …` → ("Lineage of", "EXO 6:16-20; …")."""
    body = line.strip().lstrip("-").strip()
    match = _FIRST_REF.search(body)
    if not match:
        return body, ""
    return body[: match.start()].strip(" ,;:"), body[match.start() :]


def nave_entries(rows: Iterator[dict], chapter_size: ChapterSize) -> list[Entry]:
    """One entry per subject line and sub-entry line that files references; `-See X` lines add none.

    A nested line's label includes its parent's (`Afflictions — of saints — temporary`), so its
    meaning survives out of context."""
    entries = []
    for row in rows:
        subject = (row.get("subject") or "").strip()
        text = row.get("entry") or ""
        if _PROPER.search(text):
            continue
        parents: list[tuple[int, str]] = []
        for line in text.splitlines():
            if not line.strip():
                continue
            depth = len(line) - len(line.lstrip())
            label, refs = split_label(line)
            parents = [(d, text) for d, text in parents if d < depth]
            path = [text for _, text in parents] + [label]
            parents.append((depth, label))
            if label.lower().startswith(("see ", "also see")) or not refs or any(_NARRATIVE.search(p) for p in path):
                continue
            references = parse_references(refs, chapter_size)
            if references:
                name = " — ".join([subject.title()] + [p for p in path if p])
                entries.append(Entry(f"NAV:{subject}/{'/'.join(path)}", name, references))
    return entries


def torrey_entries(data: dict, chapter_size: ChapterSize, prefixes: tuple[str, ...] = ("TOR",)) -> list[Entry]:
    """Topic → verse lists from the JSON export; only the given sources (Torrey's by default)."""
    entries = []
    for topic_id, refs in data.get("topics", {}).items():
        if not topic_id.startswith(prefixes):
            continue
        references = []
        for ref in refs:
            match = _TORREY_RANGE.match(ref.strip())
            if not match or match.group(1) not in canon.by_code():
                continue
            book, chapter, start = match.group(1), int(match.group(2)), int(match.group(3))
            end = int(match.group(4)) if match.group(4) else start
            references.append(Reference([f"{book} {chapter}:{v}" for v in range(start, max(start, end) + 1)]))
        name = data.get("names", {}).get(topic_id, topic_id)
        if references:
            entries.append(Entry(f"{topic_id[:3]}:{name}", name, references))
    return entries


def _open_text(path: Path) -> io.TextIOBase:
    """Plain or gzip-compressed UTF-8 text (the repository ships the data as `.gz`)."""
    path = Path(path)
    if path.suffix == ".gz":
        return gzip.open(path, "rt", encoding="utf-8-sig", newline="")
    return open(path, encoding="utf-8-sig", newline="")


def load_entries(nave_csv: Path | None, torrey_json: Path | None, chapter_size: ChapterSize) -> list[Entry]:
    """Every entry of the files given (either may be None)."""
    entries = []
    if nave_csv is not None:
        with _open_text(nave_csv) as handle:
            entries += nave_entries(csv.DictReader(handle), chapter_size)
    if torrey_json is not None:
        with _open_text(torrey_json) as handle:
            entries += torrey_entries(json.load(handle), chapter_size)
    return entries
