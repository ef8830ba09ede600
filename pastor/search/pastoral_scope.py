"""Pastoral or off-topic by meaning, for the evidence gate: a classifier trained on labelled messages."""

from __future__ import annotations

from pathlib import Path

from pastor.care.training import LabelledMessage, labelled_rows, load_training
from pastor.classify.cache import Trained, cache_key, cached_heads
from pastor.classify.linear import LinearClassifier, TrainingConfig
from pastor.datasets import dataset

EXAMPLES = dataset("routing/scope_examples.tsv")
SCOPES = ("pastoral", "off_topic")
# Pastoral when P(pastoral) of the trained scope classifier is at least this. Chosen on the dev sets
# (sets/retrieval/devset.jsonl, sets/retrieval/offtopic_dev.jsonl, the dev split of
# sets/routing/routing_set_independent.jsonl):
# `python -m bench.bench_retrieval --gates-only --sweep` answers every pastoral question from 0.1 to 0.9 and
# refuses every question of offtopic_dev from 0.8 (95% from 0.3 to 0.7); the gate asks the scope only when
# the vocabulary and the best vector match have not decided.
THRESHOLD = 0.8
# Off-topic, whatever the vector match and the vocabulary, under this P(pastoral). On the dev sets every pastoral
# question and every hard negative is at 0.5 or above, and the off-topic ones the gate let through before
# ("como fazer pão de queijo?" near a verse about bread, a celebrity's name with pastoral vocabulary) at 0.01.
OFF_TOPIC = 0.1
# Bump when the training below changes: a cached classifier of another version is trained again.
VERSION = "scope-1"
# The blind authors' routes, as the scope sees them: a person's life (a hard negative, a crisis) is pastoral;
# conversation and advice never reach the gate.
_AS_SCOPE = {"pastoral": "pastoral", "ordinary": "pastoral", "crisis": "pastoral", "off_topic": "off_topic"}


def load_scope_examples(path: Path = EXAMPLES) -> list[tuple[str, str]]:
    """`scope<TAB>message` lines; `#` starts a comment."""
    usage = f"use escopo<TAB>mensagem (escopos: {', '.join(SCOPES)})"
    return [(scope, text) for scope, text in labelled_rows(path, 2, SCOPES, usage)]


def scope_training(messages: list[LabelledMessage] | None = None) -> list[tuple[str, str]]:
    """(scope, message): the shipped scope examples and the blind authors' messages of a life or a thing."""
    messages = load_training() if messages is None else messages
    # Everyday day reports (train_k) teach the router calm; they are neither a pastoral question nor off topic.
    learnt = [m for m in messages if m.route in _AS_SCOPE and m.kind != "everyday"]
    return load_scope_examples() + [(_AS_SCOPE[m.route], m.text) for m in learnt]


# The classifier's training settings unless a caller gives its own (frozen: one instance serves every scope).
DEFAULT_TRAINING = TrainingConfig()


class PastoralScope:
    """A classifier of a person's life against a request for a thing, trained (or read from `cache_dir`) by
    `warm` while the app loads in the background, or else when the first question needs it."""

    def __init__(
        self,
        embedder,
        examples: list[tuple[str, str]] | None = None,
        threshold: float = THRESHOLD,
        cache_dir: Path | None = None,
        config: TrainingConfig = DEFAULT_TRAINING,
    ):
        self.examples = examples if examples is not None else scope_training()
        self.embedder = embedder
        self.threshold = threshold
        self.off_topic_bar = OFF_TOPIC
        self.cache_dir = cache_dir
        self.config = config
        self._classifier: LinearClassifier | None = None
        self._warming = False

    @property
    def classifier(self) -> LinearClassifier:
        if self._classifier is None:  # two first questions at once train twice, harmlessly
            name = getattr(self.embedder, "name", type(self.embedder).__name__)
            key = cache_key(name, self.examples, f"{VERSION} {self.config}")
            trained = cached_heads(
                self.cache_dir,
                "scope",
                key,
                lambda: Trained(
                    {
                        "scope": LinearClassifier.fit(
                            self.embedder.encode([text for _, text in self.examples]),
                            [s for s, _ in self.examples],
                            self.config,
                        )
                    }
                ),
            )
            self._classifier = trained.heads["scope"]
        return self._classifier

    def warm(self) -> None:
        """Train or read the classifier now, so the first person's question does not wait for it."""
        self._warming = True
        try:
            _ = self.classifier  # the property trains or reads it
        finally:
            self._warming = False

    def available(self) -> bool:
        """False while `warm` trains in another thread: a question then gates by the vocabulary alone instead of
        waiting tens of seconds for it (with nobody warming, the first question trains it, as evaluation does)."""
        return self._classifier is not None or not self._warming

    def probability(self, text: str) -> float:
        """P(pastoral) of the message."""
        return self.classifier.predict(self.embedder.encode([text])).probabilities["pastoral"]

    def pastoral(self, text: str) -> bool:
        """A person's life, faith or people, rather than a request for a thing."""
        return self.probability(text) >= self.threshold
