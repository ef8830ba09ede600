"""Routing by meaning: a classifier trained on labelled messages, over the embedder the app already loads."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from pastor.care.routes import ConversationKind, CrisisKind, RouteName, ScopeRoute
from pastor.care.training import LabelledMessage, labelled_rows, load_training
from pastor.classify.cache import Trained, cache_key, cached_heads
from pastor.classify.linear import DEFAULT_TRAINING, LinearClassifier, TrainingConfig
from pastor.classify.ngrams import fit_binary, ngram_rows, probability
from pastor.datasets import dataset
from pastor.text.sentences import split_sentences

EXAMPLES = dataset("routing/route_examples.tsv")
ROUTES = (RouteName.CRISIS, RouteName.ORDINARY, RouteName.CONVERSATIONAL, RouteName.OUT_OF_SCOPE)
# Bump when the training below changes: the cached classifiers of another version are trained again.
VERSION = "routes-4"
# The authors' kinds, as the app names them (the crisis kind chooses the help lines).
_APP_KIND: dict[str, str] = {
    "suicide_self": CrisisKind.SUICIDE,
    "suicide_other": CrisisKind.SUICIDE,
    "self_harm": CrisisKind.SELF_HARM,
    "violence_threat": CrisisKind.VIOLENCE,
    "abuse_child": CrisisKind.ABUSE,
    "abuse_adult": CrisisKind.ABUSE,
    "overdose_medical": CrisisKind.OVERDOSE,
    "about_assistant": ConversationKind.ABOUT,
}
# The router tells no pastoral question from an off-topic one (the evidence gate does): both are ordinary.
_AS_ROUTED: dict[str, str] = {ScopeRoute.PASTORAL: RouteName.ORDINARY, ScopeRoute.OFF_TOPIC: RouteName.ORDINARY}
# Which head names the kind of each route; ordinary has none.
KIND_HEADS: dict[str, str] = {
    RouteName.CRISIS: "crisis_kind",
    RouteName.OUT_OF_SCOPE: "advice_kind",
    RouteName.CONVERSATIONAL: "talk_kind",
}

# The crisis score is the mean of three votes, each 1 at its own usual bar: P(crisis) over PROBABILITY_UNIT,
# the nearest examples' margin (the mean cosine of the 3 nearest crisis examples minus that of the 3 nearest
# others) over NEAREST_UNIT, and the spelling's P(crisis) over NGRAM_UNIT. P(crisis) is the sum over the crisis
# kinds of a head trained on every route and kind ("crisis:suicide", "ordinary:hyperbole", "pastoral"…): one
# line between crisis and everything else cuts through sorrow, idiom and doctrine at once, one per kind need
# not. The spelling vote reads hashed character n-grams (pastor.classify.ngrams), which the typos and
# slang of real messages do not throw off where the sentence vector is. Leaving one of twelve authors out
# (round 7, `python bench/bench_routing.py --cv`), at bar 1.0: the two sentence-vector votes alone found 95.5% of
# the crises with 2.3% false alarms; with the kinds' head and the spelling, 98.5% with 2.3%.
PROBABILITY_UNIT = 0.6
NEAREST_UNIT = 0.04
NGRAM_UNIT = 0.3
NGRAM_L2 = 1e-4
NEIGHBOURS = 3
# A sentence of a long message scores this much below the whole: any sentence of a long story of family pain
# ("quando eu bato na porta ele grita") can look like a crisis alone. Leaving one of 14 authors out, without it
# the author of long everyday stories (train_i) saw 22% false alarms; with it 16%, and the pooled crisis recall
# fell 98.0% -> 97.7%.
SENTENCE_PENALTY = 0.6
# The crisis score a message needs, chosen leaving one of 14 authors out (`python bench/bench_routing.py --cv`):
# 0.9 found 98.3% of the crises (1.0: 97.7%) for 3.1% false alarms (2.7%; both 1.6-1.8% without the author of
# long everyday stories), and took no more of sets/retrieval/devset.jsonl's pastoral questions to the crisis
# reply (15).
# With all 18 authors (round 13): 0.9 finds 98.4% (2862/2909) with 2.6% false alarms; 1.0 finds 97.8% with 2.3%.
CRISIS_SCORE = 0.9
# A short follow-up ("mas e se eu não conseguir?") means what the previous turn meant: by its words alone
# it sits near everything, so only a clear crisis counts.
FOLLOW_UP_CRISIS_SCORE = 1.6
# Where the words say a joke, an idiom, the past, doctrine, a story or a passage (person_rules), the crisis
# score must reach this instead.
FRAMED_CRISIS_SCORE = 1.6
OUT_OF_SCOPE_PROBABILITY = 0.6
CONVERSATION_PROBABILITY = 0.6
# Thanks and blessings that name God are conversation only above this (a question about the faith never is).
SURE_BLESSING_PROBABILITY = 0.85


@dataclass(frozen=True)
class Example:
    route: str
    kind: str
    text: str


@dataclass(frozen=True)
class SemanticVerdict:
    route: str  # the most probable route
    kind: str  # its kind (the crisis kind, the advice kind, the conversation kind; "" for ordinary)
    probability: float  # the route's probability
    crisis: float  # the crisis score (two votes, see PROBABILITY_UNIT), whatever route is most probable


def load_examples(path: Path = EXAMPLES) -> list[Example]:
    """`route<TAB>kind<TAB>message` lines; `#` starts a comment. A bad line is an error naming it."""
    usage = f"use rota<TAB>tipo<TAB>mensagem (rotas: {', '.join(ROUTES)})"
    return [Example(*fields) for fields in labelled_rows(path, 3, ROUTES, usage)]


def training_examples(messages: list[LabelledMessage] | None = None) -> list[Example]:
    """The project's examples and the blind authors' messages, in the router's routes and the app's kinds."""
    messages = load_training() if messages is None else messages
    written = [Example(_AS_ROUTED.get(m.route, m.route), _APP_KIND.get(m.kind, m.kind), m.text) for m in messages]
    return load_examples() + written


def train_heads(vectors: np.ndarray, examples: list[Example], config: TrainingConfig = DEFAULT_TRAINING) -> Trained:
    """The route head and the route-and-kind head (whose crisis kinds give P(crisis)) on every example; a kind
    head per route, on that route's examples; the examples' vectors for the nearest-example vote and the
    character n-gram weights for the spelling vote."""
    heads = {
        "route": LinearClassifier.fit(vectors, [e.route for e in examples], config),
        "route_kind": LinearClassifier.fit(vectors, [f"{e.route}:{e.kind}" for e in examples], config),
    }
    for route, head in KIND_HEADS.items():
        chosen = [i for i, e in enumerate(examples) if e.route == route]
        if len({examples[i].kind for i in chosen}) >= 2:
            heads[head] = LinearClassifier.fit(vectors[chosen], [examples[i].kind for i in chosen], config)
    crisis = np.array([e.route == RouteName.CRISIS for e in examples])
    ngram_weights = fit_binary(ngram_rows([e.text for e in examples]), crisis, NGRAM_L2)
    return Trained(heads, {"vectors": vectors.astype(np.float32), "ngram_weights": ngram_weights})


SENTENCE_WORDS = 4  # a shorter piece ("Boa noite.") says nothing of a crisis alone


def sentences(text: str) -> list[str]:
    """The sentences of a message of two or more that have `SENTENCE_WORDS` words or more; none otherwise."""
    parts = [p for p in split_sentences(text) if len(p.split()) >= SENTENCE_WORDS]
    return parts if len(parts) >= 2 else []


class SemanticRouter:
    """Trained once per embedder and training data (cached in `cache_dir`); `verdict` reads a message."""

    def __init__(
        self,
        embedder,
        examples: list[Example] | None = None,
        crisis_bar: float = CRISIS_SCORE,
        cache_dir: Path | None = None,
        config: TrainingConfig = DEFAULT_TRAINING,
    ):
        self.crisis_bar = crisis_bar  # the crisis score a message needs (bench/bench_routing.py --sweep)
        self.framed_bar = FRAMED_CRISIS_SCORE
        self.examples = examples if examples is not None else training_examples()
        self.embedder = embedder
        embedder_name = getattr(embedder, "name", type(embedder).__name__)
        key = cache_key(embedder_name, [(e.route, e.kind, e.text) for e in self.examples], f"{VERSION} {config}")
        started = time.perf_counter()
        trained = cached_heads(
            cache_dir,
            "routes",
            key,
            lambda: train_heads(embedder.encode([e.text for e in self.examples]), self.examples, config),
        )
        self.heads, self.from_cache = trained.heads, trained.from_cache
        self._vectors = trained.arrays["vectors"]
        self._ngram_weights = trained.arrays["ngram_weights"]
        self._crisis_kinds = np.array([label.startswith("crisis:") for label in self.heads["route_kind"].labels])
        self._crisis_rows = np.array([e.route == RouteName.CRISIS for e in self.examples])
        self.load_seconds = time.perf_counter() - started  # printed by bench/bench_routing.py --timing
        self.name = f"semântico: classificador treinado ({len(self.examples)} exemplos, {embedder_name})"

    def verdict(self, text: str) -> SemanticVerdict:
        """The whole message's route; the crisis score is the highest of the whole and of each of its sentences
        (less SENTENCE_PENALTY), because a long message can tell of a crisis in one sentence among everyday news."""
        parts = [text] + sentences(text)
        vectors = self.embedder.encode(parts)
        route = self.heads["route"].predict(vectors[:1])
        head = self.heads.get(KIND_HEADS.get(route.label, ""))
        kind = head.predict(vectors[:1]).label if head is not None else ""
        crisis_probability = self.heads["route_kind"].probabilities(vectors)[:, self._crisis_kinds].sum(axis=1)
        spelling = probability(ngram_rows(parts), self._ngram_weights)
        crisis = (
            self._nearest_margin(vectors) / NEAREST_UNIT + crisis_probability / PROBABILITY_UNIT + spelling / NGRAM_UNIT
        ) / 3
        crisis[1:] -= SENTENCE_PENALTY
        return SemanticVerdict(route.label, kind, route.probability, float(crisis.max()))

    def _nearest_margin(self, vectors: np.ndarray) -> np.ndarray:
        """Per row: the mean cosine of the `NEIGHBOURS` nearest crisis examples minus that of the nearest others."""
        similarity = vectors @ self._vectors.T

        def top(rows):
            return np.sort(similarity[:, rows], axis=1)[:, -NEIGHBOURS:].mean(axis=1)

        return top(self._crisis_rows) - top(~self._crisis_rows)

    def crisis_kind(self, text: str) -> str:
        """The crisis kind by meaning: which help lines a crisis found by the rules or the classifier needs."""
        head = self.heads.get("crisis_kind")
        return head.predict(self.embedder.encode([text])).label if head is not None else CrisisKind.SUICIDE
