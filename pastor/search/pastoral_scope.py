"""Pastoral or off-topic by meaning: the message's nearest labelled examples of each, for the evidence gate."""

from __future__ import annotations

from pathlib import Path

import numpy as np

EXAMPLES = Path(__file__).with_name("data") / "scope_examples.tsv"
SCOPES = ("pastoral", "off_topic")
NEIGHBOURS = 3
# Pastoral when the mean cosine of the 3 nearest pastoral examples is at least this much above that of the
# off-topic ones. Chosen on the dev sets (bench/devset.jsonl, bench/offtopic_dev.jsonl, the dev split of
# bench/routing_set_independent.jsonl): every off-topic question is below -0.015 and, by meaning alone,
# 98.7% of the pastoral ones are at 0 or above (the vocabulary takes the rest); the gates' figures stay the
# same from -0.03 to +0.05 (`python bench/bench_retrieval.py --gates-only --sweep`).
MARGIN = 0.0


def labelled_rows(path: Path, columns: int, labels: tuple[str, ...], usage: str) -> list[list[str]]:
    """Tab-separated rows of `columns` fields, the first one of `labels` and the last not empty; `#` starts a
    comment. A bad line is an error naming it and saying `usage`."""
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        fields = [field.strip() for field in line.split("\t")]
        if len(fields) != columns or fields[0] not in labels or not fields[-1]:
            raise ValueError(f"{path.name}, linha {number}: {usage}")
        rows.append(fields)
    return rows


def load_scope_examples(path: Path = EXAMPLES) -> list[tuple[str, str]]:
    """`scope<TAB>message` lines; `#` starts a comment."""
    usage = f"use escopo<TAB>mensagem (escopos: {', '.join(SCOPES)})"
    return [(scope, text) for scope, text in labelled_rows(path, 2, SCOPES, usage)]


class PastoralScope:
    """Embeds the examples once, when first needed; `margin` says how much nearer the pastoral ones a message is."""

    def __init__(self, embedder, examples: list[tuple[str, str]] | None = None, margin: float = MARGIN):
        self.examples = examples if examples is not None else load_scope_examples()
        self.embedder = embedder
        self.threshold = margin
        self._vectors = None  # embedded at the first question that needs them, not while the app loads
        self._pastoral = np.array([scope == "pastoral" for scope, _ in self.examples])

    def margin(self, text: str) -> float:
        if self._vectors is None:  # two first questions at once embed twice, harmlessly
            self._vectors = self.embedder.encode([example for _, example in self.examples])
        similarity = self._vectors @ self.embedder.encode([text])[0]
        return top_mean(similarity[self._pastoral]) - top_mean(similarity[~self._pastoral])

    def pastoral(self, text: str) -> bool:
        """A person's life, faith or people, rather than a request for a thing."""
        return self.margin(text) >= self.threshold


def top_mean(similarities: np.ndarray) -> float:
    """The mean of the `NEIGHBOURS` highest similarities (-1 when there are none)."""
    return float(np.sort(similarities)[-NEIGHBOURS:].mean()) if similarities.size else -1.0
