"""Split text into verbatim chunks of bounded size on paragraph, sentence, line or word boundaries."""

from __future__ import annotations

import re
from dataclasses import dataclass

# Strength of the boundary *before* a word: the chunker cuts at the strongest one it can.
PARAGRAPH, SENTENCE, LINE, WORD = 4, 3, 2, 1

# A sentence ends with . ! ? or … possibly followed by closing quotes or brackets.
_SENTENCE_END = re.compile(r"[.!?…][\"'”’»)\]]*$")
_WORDS = re.compile(r"\S+")


@dataclass(frozen=True)
class _Word:
    start: int
    end: int
    strength: int  # boundary strength before this word (0 for the first)


def _words(text: str) -> list[_Word]:
    words: list[_Word] = []
    for match in _WORDS.finditer(text):
        if not words:
            strength = 0
        else:
            previous = words[-1]
            gap = text[previous.end : match.start()]
            if gap.count("\n") >= 2:
                strength = PARAGRAPH
            elif _SENTENCE_END.search(text[previous.start : previous.end]):
                strength = SENTENCE
            elif "\n" in gap:
                strength = LINE
            else:
                strength = WORD
        words.append(_Word(match.start(), match.end(), strength))
    return words


def split_spans(text: str, size: int, overlap: int) -> list[tuple[int, int]]:
    """(start, end) offsets of the chunks of `text`; each chunk is at most `size` characters.

    A chunk ends between sentences (paragraph breaks preferred when the chunk stays at least half
    full); only a sentence longer than `size` is cut between words, and only a word longer than
    `size` is cut inside. The next chunk starts up to `overlap` characters back, at a sentence
    (or else word) start inside the previous chunk.
    """
    if size < 1 or not 0 <= overlap < size:
        raise ValueError("chunk_size deve ser positivo e chunk_overlap menor que chunk_size")
    words = _words(text)
    if not words:
        return []
    spans: list[tuple[int, int]] = []
    first, offset = 0, words[0].start  # current word index and start offset (mid-word after a hard cut)
    previous_end = -1
    while True:
        last = words[-1].end
        if last - offset <= size:
            spans.append((offset, last))
            return spans
        cut = _best_cut(words, first, offset, size, previous_end)
        if cut is None:
            # A single word longer than the chunk: the only case where a word is split.
            end = offset + size
            spans.append((offset, end))
            previous_end = end
            offset = end - overlap
            first = _word_at(words, first, offset)
            continue
        end = words[cut - 1].end
        spans.append((offset, end))
        previous_end = end
        first = _overlap_start(words, first, cut, end, overlap, size)
        offset = words[first].start


def _best_cut(words: list[_Word], first: int, offset: int, size: int, previous_end: int) -> int | None:
    """Index of the word that starts the next chunk, or None when no whole word fits."""
    candidates = []
    for index in range(first + 1, len(words)):
        end = words[index - 1].end
        if end - offset > size:
            break
        if end > previous_end:  # a chunk must add text beyond the previous one
            candidates.append(index)
    if not candidates:
        return None
    # Whole sentences (or lines) first: the strongest such boundary that leaves the chunk at least
    # half full, else the latest one; only a sentence longer than the chunk is cut between words.
    clean = [i for i in candidates if words[i].strength >= LINE]
    full = [i for i in clean if words[i - 1].end - offset >= size // 2]
    if full:
        return max(full, key=lambda i: (words[i].strength, i))
    return max(clean or candidates)


def _overlap_start(words: list[_Word], first: int, cut: int, end: int, overlap: int, size: int) -> int:
    """Word index where the next chunk starts: reaching back at most `overlap` characters."""
    if overlap == 0:
        return cut
    window = [i for i in range(first + 1, cut) if words[i].start >= end - overlap]
    # The overlap must not stop the next chunk from reaching past the cut word.
    window = [i for i in window if words[cut].end - words[i].start <= size]
    # Earliest sentence start, else earliest line start, else earliest word: the most context.
    for strength in (SENTENCE, LINE, WORD):
        starts = [i for i in window if words[i].strength >= strength]
        if starts:
            return starts[0]
    return cut


def _word_at(words: list[_Word], first: int, offset: int) -> int:
    """Index of the word containing or following `offset` (used after a hard cut)."""
    index = first
    while index + 1 < len(words) and words[index].end <= offset:
        index += 1
    return index


def split_text(text: str, size: int, overlap: int) -> list[str]:
    """The chunks themselves, each a verbatim slice of `text`."""
    return [text[start:end] for start, end in split_spans(text, size, overlap)]
