"""The book-name table (`data/book_names.tsv`) expanded into every written form: ordinals, spoken names."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from pastor.text.fold import fold

TABLE = Path(__file__).parent / "data" / "book_names.tsv"

# Codes of the books outside the 66-book canon (the table's other codes are the canon's).
DEUTERO_CODES = frozenset(
    (
        "TOB",
        "JDT",
        "WIS",
        "SIR",
        "BAR",
        "1MA",
        "2MA",
        "3MA",
        "4MA",
        "1ES",
        "2ES",
        "LJE",
        "ESG",
        "DAG",
        "SUS",
        "BEL",
        "S3Y",
        "PAZ",
        "MAN",
    )
)

_ROMAN = {1: "I", 2: "II", 3: "III", 4: "IV"}
_WORDS = {1: ("Primeira", "Primeiro"), 2: ("Segunda", "Segundo"), 3: ("Terceira", "Terceiro"), 4: ("Quarta", "Quarto")}
# A roman numeral before a name keeps its space in the key, so `I Sa` (1 Samuel) is not `Isa` (Isaías).
_ROMAN_PREFIX = re.compile(r"(iv|i{1,3})[\s.]+(?=[^\W\d_])")


def alias_key(text: str) -> str:
    """Key used to compare book names: folded, without dots or spaces (but one after a roman numeral)."""
    folded = fold(text).strip()
    roman = _ROMAN_PREFIX.match(folded)
    head, rest = (roman.group(1) + " ", folded[roman.end() :]) if roman else ("", folded)
    return head + re.sub(r"[\s.]+", "", rest)


@dataclass(frozen=True)
class Form:
    """One way of writing a book: `text` as written, the book's `code`, and how the form was made."""

    code: str
    text: str
    kind: str  # "name", "abbr" or "word" (an everyday word: a book only as `Os 2:19`)
    generated: bool  # an ordinal or spoken variant of a line of the table, not the line itself

    @property
    def deuterocanonical(self) -> bool:
        return self.code in DEUTERO_CODES


def digit_ordinals(number: int) -> list[str]:
    """`1`, `1.`, `1ª`, `1º`, `1°`, `1a`, `1o` and their dotted spellings (`1.ª`, `1ª.`)."""
    marks = ("", "ª", "º", "°", "a", "o")
    return [f"{number}{m}" for m in marks] + [f"{number}.{m}" for m in marks] + [f"{number}{m}." for m in marks if m]


def ordinals(number: int, *, words: bool, feminine: bool | None = None) -> list[str]:
    """Every prefix that writes `number`; spelled words only for full names (`Primeira Coríntios`)."""
    found = digit_ordinals(number) + [_ROMAN[number], _ROMAN[number] + "."]
    if words:
        spelled = _WORDS[number] if feminine is None else (_WORDS[number][0 if feminine else 1],)
        found += [w + dot for w in spelled for dot in ("", ".")]
    return found


def _numbered(text: str) -> tuple[int, str] | None:
    match = re.match(r"([1-4]) (.+)", text)
    return (int(match.group(1)), match.group(2)) if match else None


def _by(prep: str, feminine: bool) -> list[str]:
    """What may stand between a letter and its addressee: `aos`, `de Paulo aos`, `de São Paulo aos`,
    `de São` (Pedro, João, Tiago); a book (`livro dos Reis`) takes only its preposition."""
    if not feminine:
        return [prep]
    if prep in ("aos", "a"):
        return [f"{by}{prep}" for by in ("", "de Paulo ", "de São Paulo ")]
    return [prep, f"{prep} São"] if prep == "de" else [prep]


def _spoken(name: str, template: str) -> list[str]:
    """`Carta aos Romanos`, `Epístola de São Tiago`, `Evangelho segundo São João`, `Livro de Rute`."""
    kind, _, prep = template.partition(":")
    if kind == "evangelho":
        return [f"Evangelho {p} {s}{name}" for p in ("de", "segundo") for s in ("", "São ")]
    if kind == "livro":
        return [f"Livro {prep} {name}"]
    return [f"{noun} {by} {name}" for noun in ("Carta", "Epístola") for by in _by(prep, True)]


def _spoken_numbered(number: int, name: str, template: str) -> list[str]:
    """`Segunda carta aos Coríntios`, `2ª Epístola de São Pedro`, `Segunda aos Coríntios`, `Primeiro livro dos Reis`."""
    kind, _, prep = template.partition(":")
    feminine = kind == "carta"
    nouns = ("carta", "epístola") if feminine else ("livro",)
    found = []
    for prefix in ordinals(number, words=True, feminine=feminine):
        found += [f"{prefix} {noun} {by} {name}" for noun in nouns for by in _by(prep, feminine)]
        if prefix[0].isalpha() and not prefix.startswith("I"):  # `Segunda aos Coríntios`, `Primeira de João`
            found += [f"{prefix} {by} {name}" for by in _by(prep, feminine) if "Paulo" not in by]
    return found


def _variants(kind: str, text: str, spoken: str) -> list[str]:
    """The written variants of one line of the table (its own text first)."""
    numbered = _numbered(text)
    found = [text]
    if numbered:
        number, rest = numbered
        glued_roman = kind != "name" and len(rest) == 1  # `I S` would read as `Is` (Isaías)
        prefixes = ordinals(number, words=kind == "name")
        found += [f"{p} {rest}" for p in prefixes if not (glued_roman and p[0] == "I")]
        if spoken:
            found += _spoken_numbered(number, rest, spoken)
    elif spoken:
        found += _spoken(text, spoken)
    return found


@lru_cache(maxsize=1)
def table_lines() -> tuple[tuple[str, str, str, str], ...]:
    """(code, kind, form, spoken) for every line of the table, in order."""
    lines = []
    for number, line in enumerate(TABLE.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = line.split("\t")
        if len(fields) not in (3, 4) or fields[1] not in ("name", "abbr", "word"):
            raise ValueError(f"{TABLE.name}, linha {number}: esperado código, tipo e forma: {line!r}")
        lines.append((fields[0], fields[1], fields[2], fields[3] if len(fields) == 4 else ""))
    return tuple(lines)


def forms() -> tuple[Form, ...]:
    """Every form of every book, written ones before generated ones, each key owned by one book."""
    return _build()[0]


def owners() -> dict[str, str]:
    """alias_key → code, for every form (and the glued spelling of a roman one: `IJoão`)."""
    return _build()[1]


@lru_cache(maxsize=1)
def _build() -> tuple[tuple[Form, ...], dict[str, str]]:
    """The forms and the owner of each key.

    A generated variant whose key another book already owns is left out (`I Sa` glued is `Isa`,
    Isaías); two lines of the table that collide are an error. `Jó`/`Jo` share a key on purpose:
    the accent decides (see `canon.resolve_book`)."""
    owner: dict[str, str] = {}
    found: list[Form] = []
    lines = table_lines()
    for code, kind, text, _ in lines:
        key = alias_key(text)
        if owner.setdefault(key, code) != code and key != "jo":
            raise ValueError(f"{TABLE.name}: {text!r} ({code}) já é uma forma de {owner[key]}")
        found.append(Form(code, text, kind, False))
    for code, kind, text, spoken in lines:
        for variant in _variants(kind, text, spoken)[1:]:
            if owner.setdefault(alias_key(variant), code) != code:
                continue
            found.append(Form(code, variant, kind, True))
            owner.setdefault(alias_key(variant.replace(" ", "", 1)), code)  # `IJoão`, unless it is taken
    owner["jo"] = "JHN"  # Jó and Jo fold alike; without its accent the name is João's
    return tuple(dict.fromkeys(found)), owner
