"""Document chunk references (`example/faq.json#p2-c0`): building, parsing and finding them in text."""

from __future__ import annotations

import re

# A relative path of word characters, dots and hyphens, one of the readable extensions, then
# `#p<part>-c<chunk>`. Bounded on both sides so a reference is taken whole or not at all.
DOC_REF_PATTERN = re.compile(
    r"(?<![\w./\-])"
    r"(?P<file>(?:[\w.\-]+/)*[\w.\-]*\w\.(?i:md|txt|csv|json))"
    r"#p(?P<part>\d+)-c(?P<chunk>\d+)"
    r"(?![\w\-])"
)


def doc_ref(file: str, part: int, chunk: int) -> str:
    return f"{file}#p{part}-c{chunk}"


def parse_doc_ref(text: str) -> tuple[str, int, int] | None:
    """(file, part, chunk) when `text` is exactly one reference (surrounding spaces allowed)."""
    match = DOC_REF_PATTERN.fullmatch(text.strip())
    if not match:
        return None
    return match.group("file"), int(match.group("part")), int(match.group("chunk"))


def is_citable(ref: str) -> bool:
    """Whether DOC_REF_PATTERN finds this reference in an answer (file names with spaces or
    other punctuation cannot be found reliably in free text)."""
    return parse_doc_ref(ref) is not None
