"""What a retrieval signal is: a name, a weight and ranked candidates for a question."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from pastor.bible.usfx import Bible
from pastor.search.embedders.embedder import Embedder
from pastor.search.fusion import Candidates
from pastor.search.prominence import Prominence
from pastor.search.signals.query import Query
from pastor.search.sources import TextSource


@dataclass
class SignalInputs:
    """What is loaded before a retriever can be built: the Bible shown and the search indexes
    (None when not loaded); `documents` are the church's sources searched beside the Bible."""

    bible: Bible
    embedder: Embedder | None = None
    index: object | None = None  # VerseIndex
    lexical: object | None = None  # LexicalIndex
    topics: object | None = None  # TopicIndex
    prominence: Prominence | None = None
    documents: Sequence[TextSource] = field(default_factory=tuple)  # DocumentSource
    adapter: object | None = None  # QueryAdapter
    pastors: object | None = None  # PastorChoices


class Signal:
    """One ranked list the retriever fuses. Subclasses set `name` (the key of its rank on a `Source`
    and on the wire) and `label` (Portuguese, for the evaluation table), and implement `candidates`.

    `optional`: the evaluation also measures the hybrid without it. `vouches`: a place in its list
    is evidence enough to keep a hit past the per-hit gate. `parts`: sub-steps evaluation may switch
    off, as (name, Portuguese label) pairs."""

    name: str = ""
    label: str = ""
    optional: bool = False
    vouches: bool = False
    needs_vector: bool = False
    parts: tuple[tuple[str, str], ...] = ()

    def active(self, query: Query) -> bool:
        """On, loaded and not switched off for this query."""
        raise NotImplementedError

    def candidates(self, query: Query, n: int) -> Candidates:
        """The first `n` candidates for the query (an empty list when not active)."""
        raise NotImplementedError

    def over(self, source) -> Signal | None:
        """The same signal over another source (a church's documents), or None when it is Bible-only."""
        return None

    @classmethod
    def build(cls, config, resources: SignalInputs, built: dict[str, Signal]) -> Signal | None:
        """The signal from the retrieval settings and what is loaded; None when it cannot run at all.
        `built` holds the signals registered before it, by name."""
        raise NotImplementedError

    def empty(self) -> Candidates:
        return Candidates(self.name, 1.0, [])
