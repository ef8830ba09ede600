"""What the verse index stores and searches: one row per verse, its embedded text, cosine top-n."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pastor.bible import canon
from pastor.bible.usfx import Bible
from pastor.text import normalize


@dataclass
class Row:
    id: str
    book: str
    book_name: str
    chapter: int
    verse: int
    translation: str
    text: str
    search_text: str


def embed_text(text: str, modernize: bool = True) -> str:
    """What the embedder sees: the verse in modern spelling, accents folded (measured better)."""
    return normalize.fold(normalize.modernize(text) if modernize else text)


def aligned(bible: Bible, translation: Bible) -> int:
    """How many verses of `translation` the index holds: those whose id the main text has too."""
    return sum(1 for v in translation.verses if v.id in bible.by_id)


def row_count(bible: Bible, extras: Sequence[Bible] = ()) -> int:
    """How many rows `build_rows` makes (not verses × translations: an extra's verses outside the main text's
    numbering, such as 2Co 13:14 in a text that ends the chapter at 13:13, are left out)."""
    return sum(aligned(bible, translation) for translation in (bible, *extras))


def build_rows(bible: Bible, extras: Sequence[Bible] = (), window: int = 0, modernize: bool = True) -> list[Row]:
    """One row per verse of the main translation, then one per aligned verse of each extra."""
    rows = []
    for translation in (bible, *extras):
        verses = [v for v in translation.verses if v.id in bible.by_id]  # aligned by verse id
        for i, v in enumerate(verses):
            context = _window(verses, i, window)
            rows.append(
                Row(
                    v.id,
                    v.book,
                    canon.by_code()[v.book].name,
                    v.chapter,
                    v.verse,
                    translation.name,
                    v.text,
                    embed_text(context, modernize),
                )
            )
    return rows


def _window(verses, i: int, window: int) -> str:
    """The verse with up to `window` neighbours on each side, inside the same chapter."""
    if window <= 0:
        return verses[i].text
    here = verses[i]
    near = [v for v in verses[max(0, i - window) : i + window + 1] if v.book == here.book and v.chapter == here.chapter]
    return " ".join(v.text for v in near)
