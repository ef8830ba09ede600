"""What retrieval hands up the stack: one frozen `Source` per passage and the typed `SearchResult`."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

from pastor.search.modes import SearchMode


@dataclass(frozen=True)
class SignalRank:
    """Where a source ranked in one signal's list (1-based) and that signal's own raw score."""

    rank: int
    score: float


@dataclass(frozen=True)
class Source:
    """One passage from retrieval to the page: a verse or a church document's chunk, its fused score,
    its place in each signal's list, and (once the answer is checked) whether the answer cites it."""

    id: str
    reference: str = ""
    text: str = ""
    kind: str = "verse"  # "verse" | "doc"
    score: float = 0.0
    ranks: Mapping[str, SignalRank] = field(default_factory=dict, hash=False)  # signal name → its rank
    cited: bool = False
    prior: float = 0.0  # the prominence share of `score` (not shown)

    def rank_in(self, signal: str) -> int | None:
        found = self.ranks.get(signal)
        return found.rank if found else None

    def score_in(self, signal: str) -> float | None:
        found = self.ranks.get(signal)
        return found.score if found else None

    def ranked_in(self, signal: str) -> bool:
        return signal in self.ranks

    def marked(self, cited: bool) -> Source:
        return self if self.cited == cited else replace(self, cited=cited)


@dataclass(frozen=True)
class NotFound:
    """A reference in the question that names nothing in the Bible shown, and why (Portuguese)."""

    text: str
    reason: str


@dataclass(frozen=True)
class SearchResult:
    """One search: its mode and why, the sources, and for explicit references what was asked."""

    mode: SearchMode
    reason: str
    results: tuple[Source, ...] = ()
    references: tuple[str, ...] = ()  # canonical forms found in the question
    not_found: tuple[NotFound, ...] = ()
    note: str = ""  # Portuguese, when explicit references were left out (see `bible.lookup`)
    # No evidence because the message asks for something else (a recipe, a score), not for want of verses: the
    # chat says what it is for instead of asking for more (set only with `SearchMode.NO_EVIDENCE`).
    off_topic: bool = False
