"""Why the parts of a text meant as references name no passage: unknown book, book alone, nothing at all."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from pastor.bible import canon
from pastor.bible.reference_scanner import BOOK_START
from pastor.text.fold import fold

NOTHING_RECOGNISED = "nenhuma referência bíblica reconhecida no texto (livro não reconhecido)."
UNKNOWN_BOOK = "livro não reconhecido."
_MAX_SHOWN = 80

# Shaped like a reference whatever the name (`Hezequias 3:16`, `4 Reis 1:1`, `Coríntios 13:4`): a
# capitalised word, optionally numbered and joined by `de`/`aos`…, then chapter and verse.
_SHAPE = re.compile(
    r"(?<![\w])(?P<name>(?:(?:[1-9][ºª°]?|IV|I{1,3})\.?[ \t]*)?[^\W\d_a-zß-ÿ][^\W\d_]{2,}"
    r"(?:[ \t]+(?:de|do|da|dos|das|a|ao|aos)[ \t]+[^\W\d_a-zß-ÿ][^\W\d_]+)?)\.?[ \t]*"
    r"\d{1,3}[ \t]*[:.,][ \t]*\d{1,3}(?!\d)"
)


@dataclass(frozen=True)
class Unmatched:
    """Text meant as a reference that names no passage of the Bible read, and why (Portuguese)."""

    text: str
    reason: str


_ACCORDING_TO = re.compile(r"segund[ao]\s+")


@lru_cache(maxsize=1)
def _mention() -> re.Pattern:
    """A book name not followed by a number (folded text)."""
    return re.compile(BOOK_START + r"(" + canon.alias_regex() + r")\.?(?![^\W_])(?!\s*\d)")


def explain(text: str, taken: list[tuple[int, int]], limit: int) -> list[Unmatched]:
    """Not-found entries for what the references in `taken` (spans) left unexplained:
    unknown books, books named without a chapter, and, when the text has nothing at all, one entry
    for the whole text. At most `limit` entries."""
    found: list[tuple[int, Unmatched]] = []
    spans = list(taken)
    for start, end, entry in [*_books_alone(text), *_unknown_books(text)]:
        if not any(start < e and s < end for s, e in spans):
            spans.append((start, end))
            found.append((start, entry))
    entries = [entry for _, entry in sorted(found, key=lambda item: item[0])]
    if not taken and not entries and text.strip():
        shown = " ".join(text.split())
        entries = [
            Unmatched(
                shown[:_MAX_SHOWN] + ("…" if len(shown) > _MAX_SHOWN else ""),
                NOTHING_RECOGNISED[0].upper() + NOTHING_RECOGNISED[1:],
            )
        ]
    return entries[: max(0, limit)]


def _books_alone(text: str):
    """`João`, `Tobias`: a capitalised book name with no chapter after it."""
    folded = fold(text)
    for match in _mention().finditer(folded):
        start = match.start()
        according = _ACCORDING_TO.match(folded, start)  # "Segundo João, …": according to John
        if according and _mention().match(folded, according.end()):
            start = according.end()
        written = text[start : match.end(1)]
        key = canon.alias_key(written)
        if key in canon.ambiguous() or not written[0].isupper() and not written[0].isdigit():
            continue
        deutero = canon.deuterocanon_aliases().get(key)
        book = None if deutero else canon.resolve_book(written)
        if deutero:
            reason = f"{deutero} não faz parte do cânon de 66 livros usado aqui (é um livro deuterocanônico)."
        elif book:
            reason = f"{written}: falta o capítulo (por exemplo, {book.name} 1 ou {book.name} 1:1)."
        else:
            continue
        yield start, match.end(1), Unmatched(written, reason)


def _unknown_books(text: str):
    """`Hezequias 3:16`: shaped like a reference, with a name that is no book."""
    for match in _SHAPE.finditer(text):
        name = match.group("name")
        reason = f"{name}: {UNKNOWN_BOOK}"
        numbered = [b.name for b in canon.books() if b.name[0].isdigit() and fold(b.name[2:]) == fold(name)]
        if numbered:
            reason = f"{name}: {UNKNOWN_BOOK[:-1]} (falta o número: {' ou '.join(numbered)}?)."
        yield match.start(), match.end(), Unmatched(match.group(), reason)
