"""The 66-book Protestant canon: codes, Portuguese names, aliases and versification."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass

from pastor.text.fold import fold
from functools import lru_cache
from pathlib import Path

# (USFX code, Portuguese name, extra names, abbreviations). Numbered books carry their
# number in the name; the ordinal forms (1, I, 1ª, Primeira…) are generated below.
_BOOKS = (
    ("GEN", "Gênesis", ("Genesis",), ("Gn", "Gen")),
    ("EXO", "Êxodo", (), ("Êx", "Ex")),
    ("LEV", "Levítico", (), ("Lv", "Lev")),
    ("NUM", "Números", (), ("Nm", "Num")),
    ("DEU", "Deuteronômio", ("Deuteronómio",), ("Dt", "Deut")),
    ("JOS", "Josué", (), ("Js", "Jos")),
    ("JDG", "Juízes", (), ("Jz", "Jui")),
    ("RUT", "Rute", (), ("Rt",)),
    ("1SA", "1 Samuel", (), ("1Sm", "1Sam")),
    ("2SA", "2 Samuel", (), ("2Sm", "2Sam")),
    ("1KI", "1 Reis", (), ("1Rs",)),
    ("2KI", "2 Reis", (), ("2Rs",)),
    ("1CH", "1 Crônicas", ("1 Crónicas",), ("1Cr", "1Crô")),
    ("2CH", "2 Crônicas", ("2 Crónicas",), ("2Cr", "2Crô")),
    ("EZR", "Esdras", (), ("Ed", "Esd")),
    ("NEH", "Neemias", (), ("Ne", "Nee")),
    ("EST", "Ester", (), ("Et", "Est")),
    ("JOB", "Jó", (), ()),
    ("PSA", "Salmos", ("Salmo",), ("Sl", "Sal")),
    ("PRO", "Provérbios", (), ("Pv", "Prov")),
    ("ECC", "Eclesiastes", (), ("Ec", "Ecl")),
    ("SNG", "Cânticos", ("Cântico dos Cânticos", "Cantares", "Cântico", "Cantares de Salomão"), ("Ct", "Cant")),
    ("ISA", "Isaías", (), ("Is", "Isa")),
    ("JER", "Jeremias", (), ("Jr", "Jer")),
    ("LAM", "Lamentações", ("Lamentações de Jeremias",), ("Lm", "Lam")),
    ("EZK", "Ezequiel", (), ("Ez", "Eze")),
    ("DAN", "Daniel", (), ("Dn", "Dan")),
    ("HOS", "Oseias", ("Oséias",), ("Os",)),
    ("JOL", "Joel", (), ("Jl",)),
    ("AMO", "Amós", (), ("Am",)),
    ("OBA", "Obadias", (), ("Ob", "Obd")),
    ("JON", "Jonas", (), ("Jn",)),
    ("MIC", "Miqueias", ("Miquéias",), ("Mq",)),
    ("NAM", "Naum", (), ("Na",)),
    ("HAB", "Habacuque", (), ("Hc", "Hab")),
    ("ZEP", "Sofonias", (), ("Sf",)),
    ("HAG", "Ageu", (), ("Ag",)),
    ("ZEC", "Zacarias", (), ("Zc", "Zac")),
    ("MAL", "Malaquias", (), ("Ml", "Mal")),
    ("MAT", "Mateus", (), ("Mt",)),
    ("MRK", "Marcos", (), ("Mc", "Mr")),
    ("LUK", "Lucas", (), ("Lc",)),
    ("JHN", "João", (), ("Jo",)),
    ("ACT", "Atos", ("Atos dos Apóstolos",), ("At",)),
    ("ROM", "Romanos", (), ("Rm", "Rom")),
    ("1CO", "1 Coríntios", (), ("1Co", "1Cor")),
    ("2CO", "2 Coríntios", (), ("2Co", "2Cor")),
    ("GAL", "Gálatas", (), ("Gl", "Gal")),
    ("EPH", "Efésios", (), ("Ef", "Efe")),
    ("PHP", "Filipenses", (), ("Fp", "Fl", "Fil")),
    ("COL", "Colossenses", (), ("Cl", "Col")),
    ("1TH", "1 Tessalonicenses", (), ("1Ts", "1Tes")),
    ("2TH", "2 Tessalonicenses", (), ("2Ts", "2Tes")),
    ("1TI", "1 Timóteo", (), ("1Tm", "1Tim")),
    ("2TI", "2 Timóteo", (), ("2Tm", "2Tim")),
    ("TIT", "Tito", (), ("Tt",)),
    ("PHM", "Filemom", ("Filemon",), ("Fm", "Flm")),
    ("HEB", "Hebreus", (), ("Hb", "Heb")),
    ("JAS", "Tiago", (), ("Tg",)),
    ("1PE", "1 Pedro", (), ("1Pe", "1Pd")),
    ("2PE", "2 Pedro", (), ("2Pe", "2Pd")),
    ("1JN", "1 João", (), ("1Jo",)),
    ("2JN", "2 João", (), ("2Jo",)),
    ("3JN", "3 João", (), ("3Jo",)),
    ("JUD", "Judas", (), ("Jd",)),
    ("REV", "Apocalipse", (), ("Ap", "Apoc")),
)

# Books outside this canon, recognised so that `Tobias 1:1` gets a clear answer.
DEUTEROCANON = {
    "Tobias": ("Tobias", "Tb", "Tob"),
    "Judite": ("Judite", "Jt"),
    "Sabedoria": ("Sabedoria", "Sb", "Sab"),
    "Eclesiástico": ("Eclesiástico", "Eclo", "Sirácida", "Siracida"),
    "Baruque": ("Baruque", "Baruc", "Br"),
    "1 Macabeus": ("1 Macabeus", "1Mc", "1Mac"),
    "2 Macabeus": ("2 Macabeus", "2Mc", "2Mac"),
}

# Abbreviations that are also everyday Portuguese words ("os", "na", "ex"…): in free text
# they only count as a book when capitalised and followed by chapter *and* verse.
AMBIGUOUS = {"os", "na", "ex", "am", "at", "is", "ne", "et", "ed", "ag", "sal", "col", "mal", "jui", "est"}

_ORDINALS = {
    1: ("1", "I", "1ª", "1º", "1a", "1o", "Primeira", "Primeiro", "Primeiros"),
    2: ("2", "II", "2ª", "2º", "2a", "2o", "Segunda", "Segundo", "Segundos"),
    3: ("3", "III", "3ª", "3º", "3a", "3o", "Terceira", "Terceiro"),
}




def alias_key(text: str) -> str:
    """Key used to compare book names: folded, without spaces or dots."""
    return re.sub(r"[\s.]+", "", fold(text))


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
        Book(code, name, "AT" if i < 39 else "NT", i, tuple(counts[code]))
        for i, (code, name, _, _) in enumerate(_BOOKS)
    )


@lru_cache(maxsize=1)
def by_code() -> dict[str, Book]:
    return {b.code: b for b in books()}


def _numbered_forms(name: str) -> list[str]:
    """`1 Coríntios` → 1 Coríntios, I Coríntios, 1ª Coríntios, Primeira Coríntios…"""
    match = re.match(r"([123]) (.+)", name)
    if not match:
        return [name]
    number, rest = int(match.group(1)), match.group(2)
    return [f"{o} {rest}" for o in _ORDINALS[number]]


def _abbreviation_forms(abbr: str) -> list[str]:
    match = re.match(r"([123])(.+)", abbr)
    if not match:
        return [abbr]
    number, rest = int(match.group(1)), match.group(2)
    return [f"{o}{rest}" for o in _ORDINALS[number][:6]] + [f"{o} {rest}" for o in _ORDINALS[number][:6]]


@lru_cache(maxsize=1)
def aliases() -> dict[str, str]:
    """alias_key → USFX code, for every name and abbreviation form (accented or not)."""
    table: dict[str, str] = {}
    for code, name, extra, abbrs in _BOOKS:
        for form in (name, *extra):
            for variant in _numbered_forms(form):
                table[alias_key(variant)] = code
        for abbr in abbrs:
            for variant in _abbreviation_forms(abbr):
                table[alias_key(variant)] = code
    # Jó and Jo fold to the same key; the reference parser looks at the accent to choose.
    table["jo"] = "JHN"
    return table


@lru_cache(maxsize=1)
def deuterocanon_aliases() -> dict[str, str]:
    """alias_key → Portuguese name of a book that is not in this canon."""
    table = {}
    for name, forms in DEUTEROCANON.items():
        for form in forms:
            for variant in _numbered_forms(form) + _abbreviation_forms(form):
                table[alias_key(variant)] = name
    return table


def resolve_book(text: str) -> Book | None:
    """The book a name or abbreviation denotes (`Jó` is Job; `Jo` and `João` are John)."""
    if text.strip() in {"Jó", "jó", "JÓ"}:
        return by_code()["JOB"]
    code = aliases().get(alias_key(text))
    return by_code()[code] if code else None


def alias_forms() -> list[str]:
    """Every alias as it may appear in folded text, longest first (for building regexes).

    Spaces inside an alias may be any run of white space; dots are optional."""
    keys = set()
    for code, name, extra, abbrs in _BOOKS:
        for form in (name, *extra):
            keys.update(fold(v) for v in _numbered_forms(form))
        for abbr in abbrs:
            keys.update(fold(v) for v in _abbreviation_forms(abbr))
    for name, forms in DEUTEROCANON.items():
        for form in forms:
            keys.update(fold(v) for v in _numbered_forms(form) + _abbreviation_forms(form))
    return sorted(keys, key=len, reverse=True)
