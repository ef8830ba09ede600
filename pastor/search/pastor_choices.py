"""The verses pastors open first, and never open, for people's messages (the blind authors' sets), searched by
the nearest messages: what many pastors chose for someone who wrote like this."""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from pastor.bible.references import named_verse_ids
from pastor.classify.cache import Trained, cache_key, cached_heads
from pastor.datasets import files
from pastor.search.need import need_text

VERSION = "pastor-choices 2"  # 2: the messages read for their need, as a question is
# Chosen leaving one of the four training authors out (bench/bench_authors.py; the experiment's grid is in
# docs/evaluation.md): 20 neighbours, similarity cubed, a verse's place in a pastor's list worth 10% less per
# step, a verse a neighbour's pastor would never open counted against it as much as an open one counts for it.
NEIGHBOURS = 20
SHARPNESS = 3.0
PLACE_DECAY = 0.1
NEVER_WEIGHT = 1.0


@dataclass(frozen=True)
class PastorChoice:
    """One message of an author's set, its references read into verse ids."""

    message: str
    previous: tuple[str, ...]  # the person's earlier messages, for a follow-up
    need: str
    form: str  # plain, short, emoji, long, followup, typos
    distress: bool
    asks_for_hard: bool  # the person asked for rebuke, the law, judgement
    open_ids: tuple[str, ...]  # the verses a pastor opens first, best first
    never_ids: tuple[str, ...]  # the verses a pastor never opens for this person
    where: str  # file and line

    @property
    def tone_counts(self) -> bool:
        """Whether this message counts for the tone figure: distress, and no harsh verse asked for."""
        return self.distress and not self.asks_for_hard


def load_choices(path: Path) -> tuple[list[PastorChoice], list[str]]:
    """The messages of an author's JSONL file with at least one verse read, and the references that name no
    verse (listed by the caller, then left out)."""
    items, unread = [], []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        row = json.loads(line)
        where = f"{path.name}:{number}"
        ids: dict[str, list[str]] = {"open": [], "never": []}
        for field_name, found in ids.items():
            for reference in row[field_name]:
                read = named_verse_ids(reference)
                if not read:
                    unread.append(f"{where} {field_name}: {reference}")
                found += [v for v in read if v not in found]
        items.append(
            PastorChoice(
                row["message"],
                tuple(row.get("previous") or ()),
                row["need"],
                row["form"],
                bool(row["distress"]),
                bool(row["asks_for_hard"]),
                tuple(ids["open"]),
                tuple(ids["never"]),
                where,
            )
        )
    return [i for i in items if i.open_ids], unread


def training_choices() -> list[PastorChoice]:
    """Every training author's messages (role train under sets/authors/ in the manifest)."""
    return [item for path in files("authors", ("train",)) for item in load_choices(path)[0]]


class PastorChoices:
    """The training messages embedded as the query encoder embeds a question, and what their pastors chose.
    The vectors are computed once per embedder and data (cached under data/classifiers/), by `warm` in the
    background or at the first search that needs them."""

    def __init__(
        self,
        items: Sequence[PastorChoice],
        encode: Callable[[str], np.ndarray],
        embedder_name: str,
        cache_dir: Path | None = None,
    ):
        self.items = tuple(items)
        self.encode = encode
        self.key = cache_key(embedder_name, [(i.message, *i.open_ids, "|", *i.never_ids) for i in self.items], VERSION)
        self.cache_dir = cache_dir
        self._vectors: np.ndarray | None = None
        self._warming = threading.Event()

    def warm(self) -> None:
        """Embed the messages now (or read them from the cache)."""
        self._warming.set()
        try:
            self.vectors  # noqa: B018 (computes and keeps them)
        finally:
            self._warming.clear()

    def available(self) -> bool:
        """False while `warm` embeds in another thread: a search then goes without this signal, not waiting."""
        return self._vectors is not None or not self._warming.is_set()

    @property
    def vectors(self) -> np.ndarray:
        if self._vectors is None:
            trained = cached_heads(self.cache_dir, "pastor-choices", self.key, self._embed)
            self._vectors = trained.arrays["vectors"]
        return self._vectors

    def _embed(self) -> Trained:
        rows = [self.encode(need_text(item.message)) for item in self.items]
        matrix = np.array(rows, dtype=np.float32).reshape(len(self.items), -1)
        return Trained({}, {"vectors": matrix})

    def ranked(self, vector: np.ndarray, n: int) -> list[tuple[str, float]]:
        """Verses by what the nearest messages' pastors chose: each neighbour adds its similarity (sharpened)
        to the verses it opened, less for a later place in its list, and takes it from those it never would."""
        if not self.items:
            return []
        similarity = self.vectors @ np.asarray(vector, dtype=np.float32)
        nearest = np.argsort(-similarity, kind="stable")[:NEIGHBOURS]
        scores: dict[str, float] = {}
        for row in nearest:
            weight = max(float(similarity[row]), 0.0) ** SHARPNESS
            item = self.items[row]
            for place, verse in enumerate(item.open_ids):
                scores[verse] = scores.get(verse, 0.0) + weight / (1 + PLACE_DECAY * place)
            for verse in item.never_ids:
                scores[verse] = scores.get(verse, 0.0) - NEVER_WEIGHT * weight
        ranked = sorted(((v, s) for v, s in scores.items() if s > 0), key=lambda pair: (-pair[1], pair[0]))
        return ranked[:n]
