"""Folding: lower case without accents, one output character per input character."""

from __future__ import annotations

import re
import unicodedata


def _fold_char(ch: str) -> str:
    base = unicodedata.normalize("NFD", ch)[0] if ord(ch) > 127 else ch
    return base.lower() if len(base.lower()) == 1 else base


# A translate table for ASCII capitals and the Latin-1/Latin Extended letters is about twice as
# fast on verses as folding character by character; anything else falls back to `_fold_char`.
_FOLD_TABLE = {c: _fold_char(chr(c)) for c in (*range(0x41, 0x5B), *range(0xC0, 0x250))}
_NON_ASCII = re.compile(r"[^\x00-\x7f]")


def fold(text: str) -> str:
    """Lower-case and strip accents (ç -> c, ã -> a). The result has the same length as `text`,
    so positions found in the folded text are positions in the original."""
    folded = text.translate(_FOLD_TABLE)
    return folded if folded.isascii() else _NON_ASCII.sub(lambda m: _fold_char(m.group()), folded)


def fold_words(text: str) -> str:
    """`fold` with punctuation turned into spaces, so only words and spaces are left; same length as `text`."""
    return "".join(ch if ch.isalnum() or ch.isspace() else " " for ch in fold(text))
