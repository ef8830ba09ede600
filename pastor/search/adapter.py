"""The query adapter: a linear map that moves question vectors toward the verses pastors open."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from pastor.search.questions import Question, read_question_file
from pastor.search.storage import write_json

# Bump when the training objective or the stored format changes, so cached adapters are retrained.
ADAPTER_VERSION = "adapter-1"


@dataclass(frozen=True)
class Training:
    """How the map is learned. Chosen by 5-fold cross-validation on the dev set (issue 12): 40 passes,
    softmax temperature 0.05, L2 1e-3 gave fused hit@6 0.609 against 0.446 without the adapter."""

    passes: int = 40
    temperature: float = 0.05
    l2: float = 1e-3
    learning_rate: float = 1e-3
    batch: int = 128
    seed: int = 0


class QueryAdapter:
    """q' = unit(q + q·B). B starts at zero, so an untrained adapter is the identity; the residual
    form keeps what the embedder knows and learns only the shift toward the verses people need."""

    def __init__(self, matrix: np.ndarray, info: dict | None = None):
        self.matrix = np.asarray(matrix, dtype=np.float32)
        self.info = dict(info or {})

    @property
    def dim(self) -> int:
        return self.matrix.shape[0]

    def apply(self, vector: np.ndarray) -> np.ndarray:
        vector = np.asarray(vector, dtype=np.float32)
        moved = vector + vector @ self.matrix
        norm = float(np.linalg.norm(moved))
        return moved / norm if norm > 0 else vector


def verse_matrix(ids: Sequence[str], matrix: np.ndarray) -> tuple[list[str], np.ndarray]:
    """One unit row per verse id: the mean of its rows (one per translation indexed)."""
    unique = list(dict.fromkeys(ids))
    column = {doc_id: i for i, doc_id in enumerate(unique)}
    out = np.zeros((len(unique), matrix.shape[1]), dtype=np.float32)
    np.add.at(out, [column[doc_id] for doc_id in ids], matrix)
    norms = np.linalg.norm(out, axis=1, keepdims=True)
    return unique, out / np.where(norms > 0, norms, 1.0)


def fit(
    questions: np.ndarray, gold: Sequence[Sequence[int]], verses: np.ndarray, training: Training = Training()
) -> np.ndarray:
    """Learn B so that each question's softmax over all verses puts its mass on its gold verses.

    `questions`: one vector per question; `gold`: per question, row numbers in `verses` (unit rows).
    The softmax runs over every verse, not a sampled batch: 31k rows fit in memory, and the other
    verses are exactly the confusions the map must learn to avoid."""
    import torch  # only for training: the app answers with numpy alone

    torch.manual_seed(training.seed)
    rng = np.random.default_rng(training.seed)
    keep = [i for i, rows in enumerate(gold) if len(rows)]
    x = torch.tensor(np.asarray(questions, dtype=np.float32)[keep])
    targets = [np.asarray(gold[i], dtype=np.int64) for i in keep]
    v = torch.tensor(np.asarray(verses, dtype=np.float32))
    b = torch.zeros(v.shape[1], v.shape[1], requires_grad=True)
    optimizer = torch.optim.Adam([b], lr=training.learning_rate)
    for _ in range(training.passes):
        order = rng.permutation(len(targets))
        for start in range(0, len(order), training.batch):
            batch = order[start : start + training.batch]
            q = x[batch] + x[batch] @ b
            q = q / q.norm(dim=1, keepdim=True)
            log_p = torch.log_softmax(q @ v.T / training.temperature, dim=1)
            rows = np.concatenate([np.full(len(targets[i]), j) for j, i in enumerate(batch)])
            cols = np.concatenate([targets[i] for i in batch])
            weights = torch.tensor(
                np.concatenate([np.full(len(targets[i]), 1.0 / len(targets[i])) for i in batch]), dtype=torch.float32
            )
            loss = -(weights * log_p[rows, cols]).sum() / len(batch) + training.l2 * (b**2).sum()
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    return b.detach().numpy()


def train(retriever, questions: Sequence[Question], training: Training = Training(), **info) -> QueryAdapter:
    """An adapter for the retriever's embedder and verse index, from questions with gold verse ids."""
    return _fitted(*_examples(retriever, questions), training, info)


def _examples(retriever, questions: Sequence[Question]) -> tuple[np.ndarray, list[list[int]], np.ndarray]:
    """The questions embedded exactly as a search embeds them (the retriever's `QueryEncoder`), their
    gold verses as rows of the verse matrix (of the vector signal), and that matrix."""
    ids, verses = verse_matrix(*retriever.signal("vector").rows())
    row = {doc_id: i for i, doc_id in enumerate(ids)}
    vectors = np.array([retriever.embed(q.question) for q in questions], dtype=np.float32)
    gold = [[row[g] for g in q.gold if g in row] for q in questions]
    return vectors, gold, verses


def _fitted(
    vectors: np.ndarray, gold: list[list[int]], verses: np.ndarray, training: Training, info: dict
) -> QueryAdapter:
    if not any(gold):
        raise ValueError("nenhuma pergunta do arquivo tem versículo-ouro no índice")
    matrix = fit(vectors, gold, verses, training)
    return QueryAdapter(matrix, {"questions": len(gold), "training": asdict(training), **info})


def file_sha256(path: Path) -> str:
    """sha256 of a question file, read with the checks of `read_question_file` (type, size)."""
    return hashlib.sha256(read_question_file(path)).hexdigest()


class AdapterStore:
    """The trained map in `data/adapter/`, valid for one embedder, verse index and question file."""

    def __init__(self, data_dir: Path):
        self.dir = Path(data_dir) / "adapter"

    @staticmethod
    def key(questions: Path, embedder, index_manifest: dict, training: Training = Training()) -> dict:
        index = {k: index_manifest.get(k) for k in ("corpus", "extras", "embedder", "params")}
        return {
            "version": ADAPTER_VERSION,
            "questions": file_sha256(questions),
            "embedder": {"name": embedder.name, "dim": embedder.dim},
            "index": index,
            "training": asdict(training),
        }

    def load(self, key: dict) -> QueryAdapter | None:
        """The cached adapter when its key matches; None when absent, stale or unreadable."""
        try:
            manifest = json.loads((self.dir / "manifest.json").read_text(encoding="utf-8"))
            if manifest.get("key") != key:
                return None
            matrix = np.load(self.dir / "adapter.npy", allow_pickle=False)
        except (OSError, ValueError):
            return None
        dim = key["embedder"]["dim"]
        if matrix.shape != (dim, dim) or not np.isfinite(matrix).all():
            return None
        return QueryAdapter(matrix, manifest.get("info", {}))

    def save(self, key: dict, adapter: QueryAdapter) -> None:
        self.dir.mkdir(parents=True, exist_ok=True)
        tmp = self.dir / "adapter.npy.tmp"
        with open(tmp, "wb") as out:  # through a temporary file, as `write_json` does
            np.save(out, adapter.matrix)
        os.replace(tmp, self.dir / "adapter.npy")
        write_json(self.dir / "manifest.json", {"key": key, "info": adapter.info})


def fold_adapters(
    retriever, questions: Sequence[Question], folds: int = 5, training: Training = Training()
) -> dict[str, QueryAdapter]:
    """For evaluating on the adapter's own training file: question → an adapter trained without the
    fold that holds it (fold = position modulo `folds`), so no question is searched by a map that saw it."""
    vectors, gold, verses = _examples(retriever, questions)  # embedded once, not once per fold
    out: dict[str, QueryAdapter] = {}
    for fold in range(folds):
        rest = [i for i in range(len(questions)) if i % folds != fold]
        adapter = _fitted(vectors[rest], [gold[i] for i in rest], verses, training, {"fold": fold})
        out.update({q.question: adapter for i, q in enumerate(questions) if i % folds == fold})
    return out
