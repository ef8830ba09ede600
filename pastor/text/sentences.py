"""Sentences of a chat message: split after `.`, `!`, `?` or `…` and a space, or at a line break."""

from __future__ import annotations

import re

SENTENCE_END = re.compile(r"(?<=[.!?…])\s+|\n+")


def split_sentences(text: str) -> list[str]:
    """The message's pieces between sentence ends, stripped (empty pieces kept: callers filter as they need)."""
    return [part.strip() for part in SENTENCE_END.split(text or "")]
