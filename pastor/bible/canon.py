"""The 66-book Protestant canon: codes, Portuguese names, aliases and versification."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from pastor.bible import book_names
from pastor.bible.book_names import alias_key
from pastor.text.fold import fold

# (USFX code, Portuguese name) in canonical order; every other way of writing a book is in
# `data/book_names.tsv` (read by `book_names.py`).
_BOOKS = (
    ("GEN", "Gênesis"),
    ("EXO", "Êxodo"),
    ("LEV", "Levítico"),
    ("NUM", "Números"),
    ("DEU", "Deuteronômio"),
    ("JOS", "Josué"),
    ("JDG", "Juízes"),
    ("RUT", "Rute"),
    ("1SA", "1 Samuel"),
    ("2SA", "2 Samuel"),
    ("1KI", "1 Reis"),
    ("2KI", "2 Reis"),
    ("1CH", "1 Crônicas"),
    ("2CH", "2 Crônicas"),
    ("EZR", "Esdras"),
    ("NEH", "Neemias"),
    ("EST", "Ester"),
    ("JOB", "Jó"),
    ("PSA", "Salmos"),
    ("PRO", "Provérbios"),
    ("ECC", "Eclesiastes"),
    ("SNG", "Cânticos"),
    ("ISA", "Isaías"),
    ("JER", "Jeremias"),
    ("LAM", "Lamentações"),
    ("EZK", "Ezequiel"),
    ("DAN", "Daniel"),
    ("HOS", "Oseias"),
    ("JOL", "Joel"),
    ("AMO", "Amós"),
    ("OBA", "Obadias"),
    ("JON", "Jonas"),
    ("MIC", "Miqueias"),
    ("NAM", "Naum"),
    ("HAB", "Habacuque"),
    ("ZEP", "Sofonias"),
    ("HAG", "Ageu"),
    ("ZEC", "Zacarias"),
    ("MAL", "Malaquias"),
    ("MAT", "Mateus"),
    ("MRK", "Marcos"),
    ("LUK", "Lucas"),
    ("JHN", "João"),
    ("ACT", "Atos"),
    ("ROM", "Romanos"),
    ("1CO", "1 Coríntios"),
    ("2CO", "2 Coríntios"),
    ("GAL", "Gálatas"),
    ("EPH", "Efésios"),
    ("PHP", "Filipenses"),
    ("COL", "Colossenses"),
    ("1TH", "1 Tessalonicenses"),
    ("2TH", "2 Tessalonicenses"),
    ("1TI", "1 Timóteo"),
    ("2TI", "2 Timóteo"),
    ("TIT", "Tito"),
    ("PHM", "Filemom"),
    ("HEB", "Hebreus"),
    ("JAS", "Tiago"),
    ("1PE", "1 Pedro"),
    ("2PE", "2 Pedro"),
    ("1JN", "1 João"),
    ("2JN", "2 João"),
    ("3JN", "3 João"),
    ("JUD", "Judas"),
    ("REV", "Apocalipse"),
)


@dataclass(frozen=True)
class Book:
    code: str
    name: str
    testament: str  # "AT" or "NT"
    order: int
    verse_counts: tuple[int, ...]  # canonical verses per chapter, index 0 = chapter 1

    @property
    def chapters(self) -> int:
        return len(self.verse_counts)

    @property
    def single_chapter(self) -> bool:
        return self.chapters == 1


@lru_cache(maxsize=1)
def books() -> tuple[Book, ...]:
    """All 66 books in canonical order, with the versification shipped in `data/`."""
    counts = json.loads((Path(__file__).parent / "data" / "versification.json").read_text())
    return tuple(
        Book(code, name, "AT" if i < 39 else "NT", i, tuple(counts[code])) for i, (code, name) in enumerate(_BOOKS)
    )


@lru_cache(maxsize=1)
def by_code() -> dict[str, Book]:
    return {b.code: b for b in books()}


@lru_cache(maxsize=1)
def aliases() -> dict[str, str]:
    """alias_key → USFX code, for every form of the 66 books (accented or not)."""
    return {key: code for key, code in book_names.owners().items() if code not in book_names.DEUTERO_CODES}


@lru_cache(maxsize=1)
def deuterocanon_aliases() -> dict[str, str]:
    """alias_key → Portuguese name of a book that is not in this canon (`tobias` → Tobias)."""
    return {
        key: deuterocanon_name(code) for key, code in book_names.owners().items() if code in book_names.DEUTERO_CODES
    }


@cache
def deuterocanon_name(code: str) -> str:
    """The name shown for a deuterocanonical book: the first name the table gives it."""
    return next(text for c, kind, text, _ in book_names.table_lines() if c == code and kind == "name")


@lru_cache(maxsize=1)
def ambiguous() -> frozenset[str]:
    """Keys of abbreviations that are also everyday words ("os", "deu", "num"): in free text they
    only count as a book when capitalised and followed by chapter *and* verse."""
    return frozenset(alias_key(f.text) for f in book_names.forms() if f.kind == "word")


def resolve_book(text: str) -> Book | None:
    """The book a name or abbreviation denotes (`Jó` is Job; `Jo` and `João` are John)."""
    key = alias_key(text)
    if key == "jo" and "ó" in text.lower():
        return by_code()["JOB"]
    code = aliases().get(key)
    return by_code()[code] if code else None


@lru_cache(maxsize=1)
def alias_forms() -> list[str]:
    """Every form as it may appear in folded text, longest first (for building regexes).

    Spaces inside a form may be any run of white space (or none); a final dot is optional."""
    return sorted({fold(f.text) for f in book_names.forms()}, key=len, reverse=True)


@lru_cache(maxsize=1)
def _alias_trie() -> dict:
    """The folded forms as a character trie; `""` marks the end of a form."""
    trie: dict = {}
    for form in alias_forms():
        node = trie
        for char in form:
            node = node.setdefault(char, {})
        node[""] = {}
    return trie


@lru_cache(maxsize=1)
def alias_regex() -> str:
    """A regex (source) matching any form in folded text, longest first, built as a trie so
    thousands of forms cost little more than a few; spaces inside a form match any run of white space."""
    return _trie_regex(_alias_trie())


def is_alias_prefix(folded: str) -> bool:
    """Whether `folded` (white space collapsed to single spaces) begins some form, where a space
    inside a form may also be left out (`1jo` begins `1 joao`)."""
    nodes = [_alias_trie()]
    for char in folded:
        nodes = [n[char] for n in nodes if char in n] + [
            n[" "][char] for n in nodes if char != " " and char in n.get(" ", {})
        ]
        if not nodes:
            return False
    return bool(folded)


def _trie_regex(node: dict) -> str:
    branches = [
        (r"\s*" if char == " " else re.escape(char)) + _trie_regex(child) for char, child in node.items() if char
    ]
    if not branches:
        return ""
    body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
    if "" not in node:
        return body
    return "(?:" + body + ")?" if len(branches) == 1 else body + "?"


# Chapters and verses that Catholic Bibles number inside Ester and Daniel but that are Greek additions:
# (code, chapter) → (first verse that is an addition, the addition's name).
_ADDITIONS = {("EST", c): (1, "Adições a Ester") for c in range(11, 17)} | {
    ("DAN", 3): (31, "Adições a Daniel (Oração de Azarias e Cântico dos Três Jovens)"),
    ("DAN", 13): (1, "Adições a Daniel (Susana)"),
    ("DAN", 14): (1, "Adições a Daniel (Bel e o Dragão)"),
}


def addition(code: str, chapter: int, verse: int | None) -> str | None:
    """The deuterocanonical addition a Catholic `Dn 13` or `Est 13,9` points to, or None."""
    first, name = _ADDITIONS.get((code, chapter), (None, None))
    return name if first is not None and (verse or first) >= first else None
