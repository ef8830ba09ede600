"""The streamed answer's filters in order: source markers, prompt leaks, then citations."""

from __future__ import annotations

from collections.abc import Sequence

from pastor.answer.prompts import SELF_DESCRIPTION
from pastor.answer_filter.citations import Citation, placed
from pastor.answer_filter.leaks import LeakFilter
from pastor.answer_filter.markers import SourceMarkers
from pastor.answer_filter.streaming import StreamingValidator
from pastor.search.results import Source


def private_instructions(system: str) -> str:
    """The part of a system prompt that must not reach the reader (the self-description is said aloud)."""
    return system.replace(SELF_DESCRIPTION, "\n")


class AnswerFilter:
    """Everything a model writes passes here before the page: `[FONTE n]` becomes the source's own
    reference, runs of the instructions go, and only supported citations stay. Each stage holds back
    only what may still change, so the streamed text is always a prefix of `finish`'s result."""

    def __init__(self, system: str, sources: Sequence[Source]):
        self.markers = SourceMarkers([s.reference for s in sources])
        self.leaks = LeakFilter(private_instructions(system))
        self.citations_check = StreamingValidator(
            {s.id for s in sources if s.kind == "verse"}, {s.id for s in sources if s.kind == "doc"}
        )

    @property
    def citations(self) -> list[str]:
        return self.citations_check.citations

    @property
    def cited_ids(self) -> frozenset[str]:
        """The verse and document ids the kept citations name (set by `finish`)."""
        return self.citations_check.cited_ids

    @property
    def spans(self) -> list[Citation]:
        """Where the kept citations sit in the text released so far (all of it once finished)."""
        return self.citations_check.spans

    @property
    def removed(self) -> list[str]:
        return self.citations_check.removed + self.leaks.removed

    @property
    def held(self) -> int:
        """Characters received but not yet released, over the three stages."""
        return len(self.markers.pending) + self.leaks.held + self.citations_check.held

    def feed(self, delta: str) -> str:
        marked = self.markers.feed(delta)
        unleaked = self.leaks.feed(marked) if marked else ""
        return self.citations_check.feed(unleaked) if unleaked else ""

    def finish(self) -> str:
        unleaked = self.leaks.feed(self.markers.finish()) + self.leaks.finish()
        return self.citations_check.feed(unleaked) + self.citations_check.finish()


def filter_answer(text: str, system: str, sources: Sequence[Source]) -> str:
    """The whole answer through the same filters at once (what streaming must add up to)."""
    answer = AnswerFilter(system, sources)
    return answer.feed(text) + answer.finish()


def placed_again(answer: str, sources: Sequence[Source]) -> list[Citation]:
    """The citations of an answer shown before (a conversation brought back from a browser), found again as the
    validator finds them and kept only where `sources` (read again by id from the Bible or the documents)
    support them. Nothing is removed: a reference they do not support stays text, never a link."""
    verses = {s.id for s in sources if s.kind == "verse"}
    return placed(answer, verses, {s.id for s in sources if s.kind == "doc"})
