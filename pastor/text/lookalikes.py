"""Look-alike letters read as the Latin letters they imitate, before a message is routed."""

from __future__ import annotations

import unicodedata

# Cyrillic and Greek letters drawn like Latin ones: "quеro me mаtаr" with a Cyrillic е and а reads as the
# Latin words to a person, so the router must read it so too (issue 32). Only letters whose usual glyph is
# the Latin letter's; NFKC already folds fullwidth and mathematical letters.
_LOOKALIKES = {
    # Cyrillic lower case
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c", "т": "t",
    "у": "y", "х": "x", "ѕ": "s", "і": "i", "ї": "i", "ј": "j", "ԁ": "d", "һ": "h", "ԛ": "q", "ԝ": "w", "ӏ": "l",
    "ь": "b", "п": "n", "г": "r", "и": "u", "ɑ": "a",
    # Cyrillic upper case
    "А": "A", "В": "B", "Е": "E", "Ё": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P", "С": "C", "Т": "T",
    "У": "Y", "Х": "X", "Ѕ": "S", "І": "I", "Ј": "J", "Ԛ": "Q", "Ԝ": "W", "Ӏ": "I",
    # Greek
    "α": "a", "β": "b", "γ": "y", "ε": "e", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t", "υ": "u",
    "χ": "x", "ω": "w", "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "I", "Κ": "K", "Μ": "M", "Ν": "N",
    "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X",
}  # fmt: skip
_TABLE = str.maketrans(_LOOKALIKES)


def plain_letters(text: str) -> str:
    """`text` as a reader sees it: NFKC (fullwidth and styled letters), format characters (zero-width spaces and
    joiners, soft hyphens) dropped, and Cyrillic or Greek look-alikes read as Latin letters. Routing only: the
    member's words are shown and searched as written."""
    normal = unicodedata.normalize("NFKC", text)
    visible = "".join(ch for ch in normal if unicodedata.category(ch) != "Cf")
    return visible.translate(_TABLE)
