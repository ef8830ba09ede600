"""The topical signal: verses listed under the Nave's and Torrey's topics nearest the question."""

from __future__ import annotations

from pastor.search.fusion import Candidates
from pastor.search.signals.query import Query
from pastor.search.signals.signal import Signal, SignalInputs
from pastor.search.topic_index import rerank_by_cosine

# Topical candidates re-ranked by cosine before fusion: a deep list, as topics recall well (dev set:
# a gold verse in the top 100 for 66% of questions, in the top 30 for 51%).
TOPIC_DEPTH = 100


class TopicSignal(Signal):
    """The question matched to topics curated by Bible students; their verses re-ranked by the
    question's cosine when the verse vectors are ready. A place in the list is evidence of its own."""

    name = "topic"
    label = "temas"
    optional = True
    vouches = True
    needs_vector = True

    def __init__(self, topics, *, weight: float, verses=None):
        self.topics = topics  # TopicIndex or None
        self.weight = weight
        self.verses = verses  # the VectorSignal whose cosines re-rank the list

    @classmethod
    def build(cls, config, resources: SignalInputs, built: dict[str, Signal]) -> TopicSignal:
        return cls(resources.topics, weight=config.topic_weight, verses=built.get("vector"))

    def active(self, query: Query) -> bool:
        return query.wants(self.name) and self.topics is not None and self.weight > 0 and self.topics.ready

    def candidates(self, query: Query, n: int) -> Candidates:
        if not self.active(query) or query.vector is None:
            return Candidates(self.name, self.weight, [])
        ranked = self.topics.search(query.vector, query.text, max(TOPIC_DEPTH, n))
        if self.verses is not None and self.verses.ready:
            ranked = rerank_by_cosine(ranked, self.verses.cosines([i for i, _ in ranked], query.vector))
        return Candidates(self.name, self.weight, ranked[:n])
