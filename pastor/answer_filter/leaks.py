"""Prompt leaks: a long run of the system prompt's own words in an answer is removed, streamed."""

from __future__ import annotations

import re

from pastor.text.fold import fold

# A run this long shared with the instructions is a leak: the longest run a pastoral answer shares
# with them when it follows them (the crisis advice, "procurar imediatamente o serviço de emergência
# local e uma pessoa de confiança") is 12 words.
LEAK_WORDS = 16
_WORD = re.compile(r"[^\W_]+")
_TRAILING = re.compile(r"[ \t]*[.;:,!?]?[ \t]*")
_BLANK_LINES = re.compile(r"(?:[ \t]*\n)*")


def _matched_end(pattern: re.Pattern[str], text: str, pos: int) -> int:
    """Where `pattern` (one that may match nothing, so always matches) stops, from `pos`."""
    match = pattern.match(text, pos)
    return match.end() if match else pos


def words(text: str) -> list[re.Match]:
    """The words of `text` (letters and digits), matched on its folded lower-case form."""
    return list(_WORD.finditer(fold(text).lower()))


class LeakFilter:
    """Removes every stretch of the answer covered by runs of LEAK_WORDS words found in `secret`
    (accents, case and punctuation ignored), holding back only the words that may still start or
    extend such a run."""

    def __init__(self, secret: str, size: int = LEAK_WORDS):
        tokens = [m.group() for m in words(secret)]
        self.size = size
        self._runs = {tuple(tokens[i : i + size]) for i in range(len(tokens) - size + 1)}
        self._pieces = {tuple(tokens[i : i + k]) for k in range(1, size) for i in range(len(tokens) - k + 1)}
        self.removed: list[str] = []
        self._buffer = ""
        self._from = 0  # the buffer before this is settled and shown

    @property
    def held(self) -> int:
        return len(self._buffer) - self._from

    def feed(self, delta: str) -> str:
        self._buffer += delta
        return self._release(final=False)

    def finish(self) -> str:
        return self._release(final=True)

    def _release(self, final: bool) -> str:
        text = self._buffer[self._from :]
        found, hold = words(text), len(text)
        if not final and found and found[-1].end() == len(text):
            hold = found.pop().start()  # a word still being written
        tokens = [m.group() for m in found]
        leaks = self._leaks(tokens)
        if not final:
            hold = min(hold, self._open_start(tokens, leaks, found, len(text)))
        out, pos = [], 0
        for first, last in leaks:
            start, end = found[first].start(), found[last].end()
            if start >= hold:
                break
            end = _matched_end(_TRAILING, text, end)
            if self._at_line_start(start):
                end = _matched_end(_BLANK_LINES, text, end)  # a leak that filled its lines takes them along
            out.append(text[pos:start])
            self.removed.append(" ".join(text[start:end].split())[:60] + "…")
            pos = end
        out.append(text[pos:hold])
        self._from += hold
        return "".join(out)

    def _at_line_start(self, start: int) -> bool:
        before = self._buffer[: self._from + start].rstrip(" \t")
        return not before or before.endswith("\n")

    def _leaks(self, tokens: list[str]) -> list[tuple[int, int]]:
        """(first, last) word index of each maximal stretch covered by leaked runs."""
        stretches: list[tuple[int, int]] = []
        for i in range(len(tokens) - self.size + 1):
            if tuple(tokens[i : i + self.size]) in self._runs:
                last = i + self.size - 1
                if stretches and i <= stretches[-1][1] + 1:
                    stretches[-1] = (stretches[-1][0], last)
                else:
                    stretches.append((i, last))
        return stretches

    def _open_start(self, tokens, leaks, found, size: int) -> int:
        """Where the earliest run that may still grow into a leak (or extend one) starts."""
        for j in range(max(0, len(tokens) - self.size + 1), len(tokens)):
            if tuple(tokens[j:]) in self._pieces:
                touching = next((a for a, b in leaks if a <= j <= b + 1), j)
                return found[touching].start()
        return size
