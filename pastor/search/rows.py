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
    for translation, verses in _aligned(bible, extras):
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


def row_texts(
    bible: Bible, extras: Sequence[Bible], positions: Sequence[int], window: int = 0, modernize: bool = True
) -> list[tuple[str, str]]:
    """(id, search text) of the rows at `positions` of `build_rows`, without building the others
    (all 62k rows took 4 s here; a content check needs a few dozen). Positions past the end are left out."""
    verses = [(v, i, part) for _, part in _aligned(bible, extras) for i, v in enumerate(part)]
    return [
        (verses[p][0].id, embed_text(_window(verses[p][2], verses[p][1], window), modernize))
        for p in positions
        if 0 <= p < len(verses)
    ]


def _aligned(bible: Bible, extras: Sequence[Bible]) -> list[tuple[Bible, list]]:
    """Each translation with its verses aligned with the main text by verse id, in row order."""
    return [(t, [v for v in t.verses if v.id in bible.by_id]) for t in (bible, *extras)]


def _window(verses, i: int, window: int) -> str:
    """The verse with up to `window` neighbours on each side, inside the same chapter."""
    if window <= 0:
        return verses[i].text
    here = verses[i]
    near = [v for v in verses[max(0, i - window) : i + window + 1] if v.book == here.book and v.chapter == here.chapter]
    return " ".join(v.text for v in near)
