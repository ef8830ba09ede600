"""The pastors' signal: the verses pastors opened for the messages nearest the question (learned, not listed)."""

from __future__ import annotations

from pastor.search.fusion import Candidates
from pastor.search.signals.query import Query
from pastor.search.signals.signal import Signal, SignalInputs


class PastorsSignal(Signal):
    """What many pastors chose for people who wrote like this (`search/pastor_choices.py`): on the blind
    authors' sets, leaving one author out, it finds a verse a pastor opens first in the top 6 for 0.71 of the
    messages where the other signals fused find 0.34 (docs/evaluation.md)."""

    name = "pastors"
    label = "pastores"
    optional = True
    vouches = True
    needs_vector = True

    def __init__(self, choices, *, weight: float, known=None):
        self.choices = choices  # PastorChoices or None
        self.weight = weight
        self.known = known  # the verse ids of the Bible shown: a verse another versification numbers is left out

    @classmethod
    def build(cls, config, resources: SignalInputs, built: dict[str, Signal]) -> PastorsSignal:
        return cls(resources.pastors, weight=config.pastors_weight, known=getattr(resources.bible, "by_id", None))

    def use_choices(self, choices) -> None:
        """Search other choices from now on (the authors' bench leaves the measured author out this way)."""
        self.choices = choices

    def active(self, query: Query) -> bool:
        return query.wants(self.name) and self.choices is not None and self.weight > 0 and self.choices.available()

    def candidates(self, query: Query, n: int) -> Candidates:
        if not self.active(query) or query.vector is None:
            return Candidates(self.name, self.weight, [])
        ranked = self.choices.ranked(query.vector, 2 * n)
        if self.known is not None:
            ranked = [(verse, score) for verse, score in ranked if verse in self.known]
        return Candidates(self.name, self.weight, ranked[:n])
