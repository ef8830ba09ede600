"""Routing by meaning: nearest labelled examples of each route, on the embedder the app already loads."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np

from pastor.search.pastoral_scope import labelled_rows, top_mean

EXAMPLES = Path(__file__).with_name("data") / "route_examples.tsv"
ROUTES = ("crisis", "ordinary", "conversational", "out_of_scope")
# The score of a route is the mean cosine of its 3 nearest examples (`top_mean`); a route wins by at least
# its margin. The crisis margin was chosen on the dev split of bench/routing_set_independent.jsonl, the dev
# split of the project's own bench/routing_set.jsonl and the pastoral questions of bench/devset.jsonl
# (`python bench/bench_routing.py --sweep`): recall 98.6% / 100% from 0.015 to 0.035, no false alarm on
# the two routing sets from 0.025, the pastoral questions' false alarms falling slowly (16 → 12 of 271 from
# 0.02 to 0.035); the lowest margin without a false alarm on the routing sets, because a missed crisis
# costs more than a false alarm.
CRISIS_MARGIN = 0.025
# A short follow-up ("mas e se eu não conseguir?") means what the previous turn meant: by its words alone
# it sits near everything, so only a clear crisis counts.
FOLLOW_UP_CRISIS_MARGIN = 0.08
ROUTE_MARGIN = 0.02  # out of scope
# Conversation: on both dev sets the conversational messages the small-talk list misses win by 0.10 or more
# and nothing else by more than 0.02. A follow-up ("e depois?", "onde está escrito isso?") sits near the
# small talk too; the router keeps it for the search by its words (routing._FOLLOW_UP, _REFERS_BACK), so
# the margin need not be raised for it (round 2 raised it to 0.10 and lost conversational recall).
CONVERSATION_MARGIN = 0.04


@dataclass(frozen=True)
class Example:
    route: str
    kind: str
    text: str


@dataclass(frozen=True)
class SemanticVerdict:
    route: str  # the best route
    kind: str  # the kind of its nearest example (the crisis kind for a crisis)
    margin: float  # its score minus the best other route's score
    crisis_margin: float  # the crisis score minus the best other route's score


def load_examples(path: Path = EXAMPLES) -> list[Example]:
    """`route<TAB>kind<TAB>message` lines; `#` starts a comment. A bad line is an error naming it."""
    usage = f"use rota<TAB>tipo<TAB>mensagem (rotas: {', '.join(ROUTES)})"
    return [Example(*fields) for fields in labelled_rows(path, 3, ROUTES, usage)]


class SemanticRouter:
    """Embeds the labelled examples once; `verdict` compares a message with them."""

    def __init__(self, embedder, examples: list[Example] | None = None, crisis_bar: float = CRISIS_MARGIN):
        self.crisis_bar = crisis_bar  # the crisis margin a message needs (bench/bench_routing.py --sweep)
        self.examples = examples if examples is not None else load_examples()
        self.embedder = embedder
        self._vectors = embedder.encode([e.text for e in self.examples])
        self._routes = np.array([e.route for e in self.examples])
        self.name = f"semântico ({len(self.examples)} exemplos, {getattr(embedder, 'name', 'embedder')})"

    def verdict(self, text: str) -> SemanticVerdict:
        similarity = self._vectors @ self.embedder.encode([text])[0]
        scores = {route: top_mean(similarity[self._routes == route]) for route in ROUTES}
        best = max(ROUTES, key=scores.get)
        runner_up = max(scores[r] for r in ROUTES if r != best)
        other_than_crisis = max(scores[r] for r in ROUTES if r != "crisis")
        nearest = max((i for i in range(len(self.examples)) if self._routes[i] == best), key=lambda i: similarity[i])
        return SemanticVerdict(best, self.examples[nearest].kind, float(scores[best] - runner_up),
                               float(scores["crisis"] - other_than_crisis))

    def crisis_kind(self, text: str) -> str:
        """The kind of the nearest crisis example: which help lines a crisis found by the rules needs."""
        similarity = self._vectors @ self.embedder.encode([text])[0]
        crisis = [i for i in range(len(self.examples)) if self._routes[i] == "crisis"]
        return self.examples[max(crisis, key=lambda i: similarity[i])].kind
