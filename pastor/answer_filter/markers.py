"""Source markers: `[FONTE 2]` in an answer becomes the second source's own reference, streamed."""

from __future__ import annotations

import re

_NUMBERS = r"\d{1,2}(?:[ \t]*(?:[,;]|e)[ \t]*\d{1,2})*"
_ONE = r"[\[(][ \t]*fontes?[ \t]*" + _NUMBERS + r"[ \t]*[\])]"
# One or more markers in a row, in parentheses or not: `[FONTE 1]`, `([FONTE 1], [FONTE 3])`, `[FONTES 1 e 2]`.
MARKERS = re.compile(
    r"[ \t]*(?P<open>\((?=[ \t]*\[))?[ \t]*(?P<run>"
    + _ONE
    + r"(?:[ \t]*[,;]?[ \t]*"
    + _ONE
    + r")*)(?P<close>[ \t]*\))?",
    re.IGNORECASE,
)
# Every prefix of such a run, from its opening bracket: what may still become one at the end of the stream.
_PREFIX = re.compile(
    r"(?:\(?[ \t]*)?(?:" + _ONE + r"[ \t]*[,;]?[ \t]*)*[\[(](?:[ \t]*(?:f(?:o(?:n(?:t(?:e(?:s?[ \t]*"
    r"(?:\d{1,2}[ \t]*(?:(?:[,;]|e)[ \t]*)?)*)?)?)?)?)?)?)?|\(?[ \t]*(?:" + _ONE + r"[ \t]*[,;]?[ \t]*)+\)?",
    re.IGNORECASE,
)
_LOOKBACK = 240  # longer than any run a model writes


class SourceMarkers:
    """Replaces markers by the references of the sources they number; a marker that numbers no
    source goes, with the spaces before it. Text is held back only while it may still be a marker."""

    def __init__(self, references: list[str]):
        self.references = list(references)
        self._pending = ""

    @property
    def pending(self) -> str:
        """What is held back: it may still be a marker."""
        return self._pending

    def feed(self, delta: str) -> str:
        self._pending += delta
        hold = self._hold(self._pending)
        out, self._pending = self._pending[:hold], self._pending[hold:]
        return self._render(out)

    def finish(self) -> str:
        out, self._pending = self._pending, ""
        return self._render(out)

    def _hold(self, text: str) -> int:
        """Start of the earliest tail that may still grow into a marker run, with the spaces
        before it (trailing spaces wait too: a marker that numbers nothing takes them along)."""
        pos = next(
            (
                p
                for p in range(max(0, len(text) - _LOOKBACK), len(text))
                if text[p] in "[(" and _PREFIX.fullmatch(text, p)
            ),
            len(text),
        )
        while pos > 0 and text[pos - 1] in " \t":
            pos -= 1
        return pos

    def _render(self, text: str) -> str:
        return MARKERS.sub(self._replace, text) if "[" in text or "(" in text else text

    def _replace(self, match: re.Match) -> str:
        numbers = [int(n) for n in re.findall(r"\d+", match.group("run"))]
        labels = [self.references[n - 1] for n in dict.fromkeys(numbers) if 1 <= n <= len(self.references)]
        if not labels:  # an unbalanced parenthesis around it stays
            return (
                "("
                if match.group("open") and not match.group("close")
                else (")" if match.group("close") and not match.group("open") else "")
            )
        space = " " if match.group().startswith((" ", "\t")) else ""
        shown = space + "(" + "; ".join(labels) + ")"
        if match.group("open") and not match.group("close"):
            return shown[: len(space)] + "(" + shown[len(space) :]
        if match.group("close") and not match.group("open"):
            return shown + ")"
        return shown
