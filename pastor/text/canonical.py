"""Canonical view of a text for spotting citations, with a map from each of its characters back."""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_left
from dataclasses import dataclass

# Cyrillic and Greek letters drawn like Latin ones: `Rоmanos` with a Cyrillic `о` reads as Romanos.
_CONFUSABLES = str.maketrans(
    {
        "А": "A",
        "В": "B",
        "Е": "E",
        "К": "K",
        "М": "M",
        "Н": "H",
        "О": "O",
        "Р": "P",
        "С": "C",
        "Т": "T",
        "У": "Y",
        "Х": "X",
        "Ѕ": "S",
        "І": "I",
        "Ј": "J",
        "Ԛ": "Q",
        "Ԝ": "W",
        "Ү": "Y",
        "а": "a",
        "в": "b",
        "е": "e",
        "к": "k",
        "м": "m",
        "н": "h",
        "о": "o",
        "р": "p",
        "с": "c",
        "т": "t",
        "у": "y",
        "х": "x",
        "ѕ": "s",
        "і": "i",
        "ј": "j",
        "ԛ": "q",
        "ԝ": "w",
        "ү": "y",
        "һ": "h",
        "ӏ": "l",
        "ё": "ë",
        "ї": "ï",
        "ɑ": "a",
        "ı": "i",
        "Α": "A",
        "Β": "B",
        "Ε": "E",
        "Ζ": "Z",
        "Η": "H",
        "Ι": "I",
        "Κ": "K",
        "Μ": "M",
        "Ν": "N",
        "Ο": "O",
        "Ρ": "P",
        "Τ": "T",
        "Υ": "Y",
        "Χ": "X",
        "ο": "o",
        "ι": "i",
        "κ": "k",
        "ν": "v",
        "ρ": "p",
        "τ": "t",
        "υ": "u",
        "χ": "x",
        "α": "a",
        "ε": "e",
        # Small capitals read as capitals: `ʀomanos` is Romanos.
        "ᴀ": "A",
        "ʙ": "B",
        "ᴄ": "C",
        "ᴅ": "D",
        "ᴇ": "E",
        "ꜰ": "F",
        "ɢ": "G",
        "ʜ": "H",
        "ɪ": "I",
        "ᴊ": "J",
        "ᴋ": "K",
        "ʟ": "L",
        "ᴍ": "M",
        "ɴ": "N",
        "ᴏ": "O",
        "ᴘ": "P",
        "ʀ": "R",
        "ꜱ": "S",
        "ᴛ": "T",
        "ᴜ": "U",
        "ᴠ": "V",
        "ᴡ": "W",
        "ʏ": "Y",
        "ᴢ": "Z",
        # Separators drawn like `:`, `,` and `-`: `14∶6` (ratio), `14꞉6`, `14։6` read as 14:6.
        "∶": ":",
        "꞉": ":",
        "։": ":",
        "˸": ":",
        "ː": ":",
        "׃": ":",
        "᠄": ":",
        "⁚": ":",
        "⦂": ":",
        "‚": ",",
        "،": ",",
        "‐": "-",
        "‑": "-",
        "‒": "-",
        "−": "-",
    }
)
# Emphasis and code-span markers: `*Rom*anos 8:28` and ``Romanos `8:28` `` are displayed as "Romanos 8:28".
MARKERS = "*_~`"
# Markdown drops a backslash before ASCII punctuation: `3\:16` is displayed as "3:16".
_ESCAPABLE = frozenset("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~")
# Ignorable characters outside category Cf: the combining grapheme joiner and variation selectors.
_IGNORABLE = frozenset("\u034f" + "".join(chr(c) for c in range(0xFE00, 0xFE10)))
# Texts with only these characters are their own canonical view (the common, fast case).
_PLAIN_TEXT = re.compile(r"[\t\n\r\x20-\x29\x2b-\x5b\x5d\x5e\x61-\x7d]*")


def _removable(ch: str) -> bool:
    """Invisible in the browser: zero-width space/joiners, word joiner, soft hyphen, BOM…"""
    return ch in _IGNORABLE or unicodedata.category(ch) == "Cf"


def _mark(ch: str) -> bool:
    return unicodedata.category(ch).startswith("M")


def _plain(ch: str) -> bool:
    """A character whose canonical form does not depend on its neighbours."""
    return ch not in MARKERS and ch != "\\" and not _removable(ch) and not _mark(ch)


@dataclass(frozen=True)
class Canonical:
    """`text` is the canonical view; its character i comes from `original[starts[i]:ends[i]]`."""

    original: str
    text: str
    starts: tuple[int, ...]
    ends: tuple[int, ...]

    def span(self, start: int, end: int) -> tuple[int, int]:
        """The original span of canonical `[start, end)`, widened over the invisible characters
        and emphasis markers that hug a word at either end (`**Rom*anos 8:28**` goes whole), never
        into a character another canonical character also comes from (`ﬁ` → `f`, `i`)."""
        if start >= end:
            position = self.boundary(start)
            return position, position
        first, last = self.starts[start], self.ends[end - 1]
        if self.text[start].isalnum() and (start == 0 or self.ends[start - 1] <= first):
            first = self.ends[start - 1] if start else 0
        if self.text[end - 1].isalnum() and (end == len(self.text) or self.starts[end] >= last):
            last = self.starts[end] if end < len(self.text) else len(self.original)
        return first, last

    def boundary(self, position: int) -> int:
        """Original position right after canonical character `position - 1`."""
        return self.ends[position - 1] if position > 0 else 0

    def slice(self, start: int, end: int) -> str:
        """The original text behind canonical `[start, end)`, as written."""
        return self.original[self.starts[start] : self.ends[end - 1]] if start < end else ""

    def cluster_start(self, position: int) -> int:
        """`position`, moved back to the first character that one original cluster expanded into
        (`ﬁ` → `f`, `i`): a cut inside such an expansion has no original position."""
        while 0 < position < len(self.text) and self.starts[position] == self.starts[position - 1]:
            position -= 1
        return position


def canonical(text: str) -> Canonical:
    """NFKC, invisible characters removed, combining marks composed, look-alikes folded, Markdown
    escapes resolved and emphasis or code markers dropped where they touch a word."""
    if _PLAIN_TEXT.fullmatch(text):
        positions = tuple(range(len(text)))
        return Canonical(text, text, positions, tuple(range(1, len(text) + 1)))
    chars, starts, ends = _clusters(text)
    chars, starts, ends = _drop_markers(chars, starts, ends)
    return Canonical(text, "".join(chars), tuple(starts), tuple(ends))


def _clusters(text: str) -> tuple[list[str], list[int], list[int]]:
    chars, starts, ends = [], [], []
    pos, size = 0, len(text)
    while pos < size:
        if _removable(text[pos]):
            pos += 1
            continue
        start = pos
        if text[pos] == "\\" and pos + 1 < size and text[pos + 1] in _ESCAPABLE:
            pos += 1  # the escaped character stands for both
        parts = [text[pos]]
        pos += 1
        while pos < size and (_mark(text[pos]) or _removable(text[pos])):
            if not _removable(text[pos]):
                parts.append(text[pos])
            pos += 1
        form = unicodedata.normalize("NFKC", "".join(parts)).translate(_CONFUSABLES)
        for ch in unicodedata.normalize("NFC", form):
            chars.append(ch)
            starts.append(start)
            ends.append(pos)
    return chars, starts, ends


def _drop_markers(chars, starts, ends):
    """Drop runs of `*`, `_`, `~` next to a letter or digit; `_` inside a word (`my_file`) stays,
    as Markdown does not read it as emphasis, and so do list bullets (`* item`)."""
    keep, pos, size = [], 0, len(chars)
    while pos < size:
        if chars[pos] not in MARKERS:
            keep.append(pos)
            pos += 1
            continue
        end = pos
        while end < size and chars[end] in MARKERS:
            end += 1
        before = pos > 0 and chars[pos - 1].isalnum()
        after = end < size and chars[end].isalnum()
        underscore_inside = before and after and set(chars[pos:end]) == {"_"}
        if not (before or after) or underscore_inside:
            keep.extend(range(pos, end))
        pos = end
    return [chars[i] for i in keep], [starts[i] for i in keep], [ends[i] for i in keep]


def settled_prefix(text: str, start: int = 0) -> int:
    """The last position from `start` on that no later character can change the canonical view
    before: both characters around it are plain (0 or `start` when there is none)."""
    for pos in range(len(text) - 1, start, -1):
        if _plain(text[pos]) and _plain(text[pos - 1]):
            return pos
    return start


class IncrementalCanonical:
    """The canonical view of a growing text, recomputed only from the last settled position."""

    def __init__(self):
        self._text, self._chars = "", ""
        self._starts: tuple[int, ...] = ()
        self._ends: tuple[int, ...] = ()
        self._base = 0  # original characters before this never change their canonical view
        self._base_c = 0

    @property
    def settled(self) -> int:
        """Canonical characters that no future text can change."""
        return self._base_c

    def update(self, text: str) -> Canonical:
        tail = canonical(text[self._base :])
        chars = self._chars[: self._base_c] + tail.text
        starts = self._starts[: self._base_c] + tuple(s + self._base for s in tail.starts)
        ends = self._ends[: self._base_c] + tuple(e + self._base for e in tail.ends)
        self._text, self._chars, self._starts, self._ends = text, chars, starts, ends
        self._base = settled_prefix(text, self._base)
        self._base_c = bisect_left(starts, self._base)
        return Canonical(text, chars, starts, ends)
