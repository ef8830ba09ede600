"""The translations a reader can choose to read: their short names, titles, credits and verse texts."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from pastor.bible.lookup import Lookup
from pastor.bible.usfx import Bible
from pastor.config import translation_key
from pastor.errors import PastorError
from pastor.text.notice import notice_for


def default_key(keys: list[str], chosen: str = "") -> str:
    """The text shown unless the reader chooses another: `chosen` (PASTOR_TRANSLATION), else the first extra
    text, which by default is the Bíblia Livre in modern spelling (the 1911 spelling of the cited text reads as
    errors to most readers today, and `text.normalize.modernize` serves search, not display: it leaves accents
    such as "unigenito" and "aguas" unrestored), else the cited text."""
    return chosen or (keys[1] if len(keys) > 1 else keys[0])


class UnknownTranslation(PastorError, ValueError):
    """A translation name that is not loaded; the message lists the ones that are (pt-BR)."""


@dataclass(frozen=True)
class Translation:
    key: str  # what the page, the API and PASTOR_TRANSLATION name it by
    title: str  # the reader's name for it: the NOTICE section title ("Almeida 1911", "Bíblia Livre")
    credit: str  # the attribution its licence asks for while it is shown ("" when none)
    bible: Bible  # the loaded text


class Translations:
    """The Bible that is cited (ids, references, validation) and the texts it can be read in.

    Verse ids are the same in every translation; only the text shown and copied changes. A verse a
    translation does not number separately keeps the cited Bible's text."""

    def __init__(self, cited, extras=(), default: str = ""):
        self.cited = cited
        found: dict[str, Translation] = {}
        for bible in (cited, *extras):
            key = translation_key(bible.path)
            if key not in found:
                notice = notice_for(bible.path, bible.sha256)
                found[key] = Translation(key, notice.title if notice else key, notice.credit if notice else "", bible)
        self._all = found
        self.default = self.get(default_key(list(found), default)).key

    @property
    def keys(self) -> list[str]:
        return list(self._all)

    def choices(self) -> list[tuple[str, str]]:
        """(title, key) pairs, the cited translation first."""
        return [(t.title, t.key) for t in self._all.values()]

    def get(self, key: str | None = "") -> Translation:
        """The named translation (empty = the default); UnknownTranslation names the loaded ones."""
        if not key:
            return self._all[self.default]
        if not isinstance(key, str) or key not in self._all:
            raise UnknownTranslation(f"translation inválida. Use uma destas: {', '.join(self._all)}.")
        return self._all[key]

    def resolve(self, key: str | None) -> str:
        """A remembered choice that may be stale (a browser's): the key if loaded, else the default."""
        return key if isinstance(key, str) and key in self._all else self.default

    def text(self, verse_id: str, key: str | None = "") -> str | None:
        """The verse's text in the translation (the cited Bible's when it lacks the verse); None if unknown."""
        verse = self.get(key).bible.by_id.get(verse_id) or self.cited.by_id.get(verse_id)
        return verse.text if verse is not None else None

    def retext(self, hits, key: str | None = ""):
        """Search sources (frozen dataclasses with id, text, kind), as a tuple, each verse in the translation."""
        if self.get(key).bible is self.cited:
            return tuple(hits)
        return tuple(
            dataclasses.replace(h, text=self.text(h.id, key) or h.text) if h.kind == "verse" else h for h in hits
        )

    def retext_lookup(self, found: Lookup, key: str | None = "") -> Lookup:
        """A `bible.lookup` result with each verse's text in the translation (ids and references unchanged)."""
        if self.get(key).bible is self.cited:
            return found
        references = tuple(
            dataclasses.replace(
                passage,
                verses=tuple(dataclasses.replace(v, text=self.text(v.id, key) or v.text) for v in passage.verses),
            )
            for passage in found.references
        )
        return dataclasses.replace(found, references=references)

    def chapter(self, verse_id: str, key: str | None = "") -> list[tuple[str, int, str | None]]:
        """(id, verse number, text) of the chapter around a verse, in the translation's text, numbered
        like the cited Bible (so the verse ids of the sources are found). Empty for an unknown id."""
        verse = self.cited.by_id.get(verse_id)
        if verse is None:
            return []
        ids = [
            f"{verse.book} {verse.chapter}:{n}" for n in range(1, self.cited.last_verse(verse.book, verse.chapter) + 1)
        ]
        return [(i, int(i.rsplit(":", 1)[1]), self.text(i, key)) for i in ids if i in self.cited.by_id]


def declared(paths) -> list[tuple[str, str, str]]:
    """(key, title, credit) of the configured translation files, before they are loaded: the page is
    built at once, the Bibles a few seconds later. A file that cannot be read is named by its key."""
    found: dict[str, tuple[str, str, str]] = {}
    for path in paths:
        key = translation_key(path)
        try:
            notice = notice_for(path)
        except OSError:
            notice = None
        found.setdefault(key, (key, notice.title if notice else key, notice.credit if notice else ""))
    return list(found.values())
